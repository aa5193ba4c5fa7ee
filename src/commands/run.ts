/**
 * `pitcrew run`: the Run (src/run/run.ts) on a local checkout, with the CLI's ends
 * (src/run/ends/local-*.ts). The agent works in a separate worktree on a new branch, every command
 * in the sandbox; at the end whatever it changed is committed on that branch (also when a limit
 * stopped it early: nothing paid for is thrown away), and the person's own checkout is never
 * touched. Each run leaves notes (handoff note, state, transcript) inside .git, saved at every
 * compaction and at the end; `--continue` picks the last run up on its own branch.
 */
import { describeError } from "../errors.ts";
import type { StopReason } from "../domain/loop.ts";
import { localDelivery } from "../run/ends/local-delivery.ts";
import type { LocalOutcome } from "../run/ends/local-delivery.ts";
import { localNotes, repositoryNotes } from "../run/ends/local-notes.ts";
import { localRequest } from "../run/ends/local-request.ts";
import { worktreeWorkspace } from "../run/ends/local-workspace.ts";
import { runTask } from "../run/run.ts";
import type { NotesStore } from "../store/store.ts";
import { STDERR_LOG } from "./log.ts";
import { progressPrinter } from "./progress.ts";
import { parseRunArgs } from "./run-args.ts";
import type { RunArgs } from "./run-args.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_STOPPED_EARLY = 3;
export const EXIT_CANCELLED = 130;

export function exitCodeFor(reason: StopReason): number {
  if (reason === "done") return 0;
  if (reason === "cancelled") return EXIT_CANCELLED;
  if (reason === "model_error") return EXIT_FAILED;
  return EXIT_STOPPED_EARLY;
}

export async function runCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: RunArgs;
  let store: NotesStore;
  try {
    parsed = parseRunArgs(args, env);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_USAGE;
  }
  try {
    store = await repositoryNotes(parsed.repo);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    STDERR_LOG.info("cancelling: the work so far will be committed (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  try {
    const outcome = await runTask({
      request: localRequest(parsed),
      workspace: worktreeWorkspace(parsed.repo, STDERR_LOG),
      notes: localNotes(store, parsed.continue),
      delivery: localDelivery({ ...parsed, printer: progressPrinter(process.stderr) }),
      log: STDERR_LOG,
      env,
      signal: controller.signal,
    });
    return exitCodeOf(outcome);
  } finally {
    process.off("SIGINT", onSigint);
  }
}

function exitCodeOf(outcome: LocalOutcome): number {
  if (outcome.kind === "ran") return exitCodeFor(outcome.result.stopReason);
  return outcome.nothingToContinue ? EXIT_USAGE : EXIT_FAILED;
}
