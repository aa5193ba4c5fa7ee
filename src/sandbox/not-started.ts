/**
 * Whether a command ran at all: when the sandbox's wrapper could not execute it (bwrap's
 * `execvp`, prlimit's `failed to execute`, sandbox-exec's `execvp() of`, e.g. no `bash` on the
 * sandbox's PATH), the "exit code" is the wrapper's, not the command's, and the bash tool reports
 * a failure instead of a result.
 */
import type { RunResult } from "./runner.ts";

/** The wrapper's complaint when the command never started; undefined for one that ran. */
export function notStarted(
  result: Pick<RunResult, "exitCode" | "stdout" | "stderr">,
): string | undefined {
  if (result.exitCode === 0 || result.stdout.bytes > 0) return undefined;
  const said = result.stderr.text.trim();
  if (said === "" || said.includes("\n")) return undefined;
  return /^(?:bwrap: execvp |prlimit: failed to execute |sandbox-exec: execvp\(\) of )/.test(said)
    ? said
    : undefined;
}
