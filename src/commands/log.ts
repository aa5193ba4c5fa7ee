/** The CLI's log: notes and warnings on stderr, so stdout carries only the command's answer. */
export const STDERR_LOG = {
  info: (message: string): void => void process.stderr.write(`pitcrew: ${message}\n`),
  warning: (message: string): void => void process.stderr.write(`pitcrew: WARNING: ${message}\n`),
};
