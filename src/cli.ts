#!/usr/bin/env node
/**
 * The `pitcrew` command for a local checkout: the same pipeline the action runs, for people
 * trying pitcrew and for debugging a run. Subcommands live in src/commands/.
 */
import { contextCommand } from "./commands/context.ts";
import { runCommand } from "./commands/run.ts";
import { sandboxCommand } from "./commands/sandbox.ts";

const USAGE = `usage: pitcrew <command> [options]

commands:
  run [--repo DIR] [--model M] [--base-url URL] [--max-turns N] [--sandbox auto|bwrap|none] "task"
      Run the agent on a local checkout. It works in a separate worktree on a new branch
      (your checkout is not touched) and commits the result there. The key comes from
      OPENAI_API_KEY; the base URL also from OPENAI_BASE_URL.
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
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "run") return runCommand(rest);
  if (command === "sandbox") return sandboxCommand(rest);
  if (command === "context") return contextCommand(rest);
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`pitcrew: unknown command '${command}'\n${USAGE}`);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
