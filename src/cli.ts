#!/usr/bin/env node
/**
 * The `pitcrew` command for a local checkout: the same pipeline the action runs, for people
 * trying pitcrew and for debugging a run. Subcommands live in src/commands/.
 *
 * This file loads nothing but the Node version check and the version: it checks the Node that
 * runs it before anything an old Node cannot load (so keep it plain, parseable by Node 18), and it
 * imports each command only when that command is asked for, so `--help` or `sandbox` never pay
 * for the tokenizer or the model client (esbuild puts each command's code in its own chunks).
 */
import { nodeVersionProblem } from "./node-version.ts";
import { pitcrewVersion } from "./version.ts";

const USAGE_LINE = "usage: pitcrew <command> [options]";

const USAGE = `${USAGE_LINE}
       pitcrew --help | --version

commands:
  run [--repo DIR] [--model M] [--base-url URL] [--max-turns N] [--context-window N] [--sandbox auto|bwrap|none]
      [--include-uncommitted] [--json] "task"
      Run the agent on a local checkout. It works in a separate worktree on a new branch
      (your checkout is not touched) and commits the result there. The key comes from
      OPENAI_API_KEY; the base URL also from OPENAI_BASE_URL. pitcrew run --help says more.
      Exit status: 0 finished, 1 failed, 2 bad usage, 3 stopped by a limit, 130 cancelled.

  run --continue [--repo DIR] [options] ["what to do next"]
      Pick the last run up on its branch: the agent gets that run's handoff note (saved in
      .git/pitcrew/notes), its first task and the new instruction (default: carry on). The
      result is committed on the same branch; the totals of all its runs are printed.

  sandbox [--workspace DIR] [--explain] [--sandbox auto|bwrap|none] [--timeout SECONDS] -- CMD [ARG...]
      Run one command under the exact sandbox policy the agent gets.
      Exit status is the command's; 124 when it timed out; 125 when the sandbox cannot start.

  context replay [--window N] [--policy NAME] [--json] FILE...
      Replay recorded sessions (OpenAI message arrays as JSON or JSONL, mini-swe-agent
      trajectories) through a context policy, request by request, and compare tokens sent,
      cache hits and input cost with sending the whole history (o200k counts, OpenAI's prefix
      cache rule). Default window 128000, policy naive.
      Exit status: 0 done, 1 a file could not be read or replayed, 2 bad usage.

  logs excerpt [--max-tokens N] [--json] FILE
      What CI repair would show the agent of a failed job: the error lines by per-tool rules
      with their context, within N tokens (default 8000), the failing tests and the first
      error, from a saved job log, a run's log zip or a JUnit report. --json prints
      { "excerpt", "failing_tests", "first_error" }.
      Exit status: 0 done, 1 the file could not be read as any of them, 2 bad usage.

  memory list|show [--repo DIR] [PATH]
      What the agent remembers in the repository: the files of its pitcrew-memory branch (the
      local one, else origin's), each with its size and first line, or one file's text. Edit or
      delete memory with git on that branch.
      Exit status: 0 done, 1 the branch or the file could not be read, 2 bad usage.

  report [--out FILE] SOURCE | report --thread KEY [--repo DIR] [--out FILE]
      One self-contained HTML page of a run: its header, the context chart per request, the
      cost, every turn with its tool calls and results, compactions and the final diff. SOURCE
      is a transcript.jsonl, a notes folder or a downloaded notes artifact zip; --thread reads
      the local notes (.git/pitcrew/notes). Default --out pitcrew-report.html.
      Exit status: 0 written, 1 the source could not be read, 2 bad usage.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "run") return (await import("./commands/run.ts")).runCommand(rest);
  if (command === "sandbox") return (await import("./commands/sandbox.ts")).sandboxCommand(rest);
  if (command === "context") return (await import("./commands/context.ts")).contextCommand(rest);
  if (command === "logs") return (await import("./commands/logs.ts")).logsCommand(rest);
  if (command === "memory") return (await import("./commands/memory.ts")).memoryCommand(rest);
  if (command === "report") return (await import("./commands/report.ts")).reportCommand(rest);
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === "--version") {
    process.stdout.write(`pitcrew ${pitcrewVersion()}\n`);
    return 0;
  }
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  process.stderr.write(
    `pitcrew: unknown command '${command}'\n${USAGE_LINE}  (pitcrew --help lists the commands)\n`,
  );
  return 2;
}

const tooOld = nodeVersionProblem(process.versions.node, process.execPath);
if (tooOld === undefined) {
  process.exitCode = await main(process.argv.slice(2));
} else {
  process.stderr.write(`${tooOld}\n`);
  process.exitCode = 1;
}
