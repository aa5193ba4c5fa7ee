/**
 * A job log as GitHub's runner writes it, for the excerpt and `pitcrew logs` tests: the BOM, a
 * timestamp before every line, a checkout step, the tool's step under `##[group]Run <command>` with
 * its echoed, coloured script, and the runner's generic exit-code line.
 */
/** A job log as GitHub serves it, the tool's output in the step `Run <command>`. */
export function runnerLog(command: string, output: readonly string[], exit = 1): string {
  const lines = [
    "##[group]Run actions/checkout@v4",
    "with:",
    "  fetch-depth: 1",
    "##[endgroup]",
    "Syncing repository",
    `##[group]Run ${command}`,
    `\u001b[36;1m${command}\u001b[0m`,
    "shell: /usr/bin/bash -e {0}",
    "##[endgroup]",
    ...output,
    `##[error]Process completed with exit code ${exit}.`,
    "Post job cleanup.",
  ];
  return `\ufeff${lines.map((line, i) => `2026-12-02T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.1234567Z ${line}`).join("\n")}\n`;
}
