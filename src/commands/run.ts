/**
 * `pitcrew run`: the Run (src/run/run.ts) on a local checkout, with the CLI's ends
 * (src/run/ends/local-*.ts). The agent works in a separate worktree on a new branch, every command
 * in the sandbox; at the end whatever it changed is committed on that branch (also when a limit
 * stopped it early: nothing paid for is thrown away), and the person's own checkout is never
 * touched. Each run leaves notes (handoff note, state, transcript) inside .git, saved at every
 * compaction and at the end; `--continue` picks the last run up on its own branch. A usage error
 * is pitcrew's sentence and the usage line, exit 2.
 */
import { userInfo } from "node:os";
import { PitcrewError, describeError } from "../errors.ts";
import { RUN_HELP, RUN_USAGE } from "../present/usage.ts";
import { START_WORDS } from "../present/progress.ts";
import { EXIT_CANCELLED, EXIT_FAILED, EXIT_USAGE } from "../run/ends/local-exit.ts";
import type { NotesStore } from "../store/store.ts";
import { createRunView } from "./progress.ts";
import type { ViewMode } from "./progress.ts";
import { parseRunArgs } from "./run-args.ts";
import type { RunArgs } from "./run-args.ts";

export async function runCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: RunArgs;
  try {
    const read = parseRunArgs(args, env);
    if (read.help) {
      process.stdout.write(RUN_HELP);
      return 0;
    }
    parsed = read.args;
  } catch (error) {
    const usage =
      error instanceof PitcrewError && error.code === "cli-no-api-key" ? "" : `${RUN_USAGE}\n`;
    process.stderr.write(`pitcrew run: ${describeError(error)}\n${usage}`);
    return EXIT_USAGE;
  }
  // The Run's machinery (git, the model client, the agent, the sandbox) loads once the command
  // line is good: `--help` and a usage error answer at once.
  const [
    { runTask },
    { localRequest },
    { worktreeWorkspace },
    { localNotes, repositoryNotes },
    { localDelivery },
    { runNamespaces },
    { localGitData },
  ] = await Promise.all([
    import("../run/run.ts"),
    import("../run/ends/local-request.ts"),
    import("../run/ends/local-workspace.ts"),
    import("../run/ends/local-notes.ts"),
    import("../run/ends/local-delivery.ts"),
    import("../run/ends/namespaces.ts"),
    import("../git/git-data.ts"),
  ]);
  let store: NotesStore;
  try {
    store = await repositoryNotes(parsed.repo);
  } catch (error) {
    // A --repo (or a working directory) outside any checkout is a usage error like a missing one.
    const misused = error instanceof PitcrewError && error.code === "run-not-a-repository";
    process.stderr.write(
      `pitcrew run: ${describeError(error)}\n${misused ? `${RUN_USAGE}\n` : ""}`,
    );
    return misused ? EXIT_USAGE : EXIT_FAILED;
  }
  const mode: ViewMode = parsed.json ? "json" : process.stderr.isTTY ? "tty" : "plain";
  const view = createRunView({
    mode,
    err: process.stderr,
    out: process.stdout,
    maxTurns: parsed.maxTurns,
  });
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    view.log.info(START_WORDS.cancelling);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  try {
    const outcome = await runTask({
      request: localRequest(parsed),
      workspace: worktreeWorkspace(parsed.repo, {
        includeUncommitted: parsed.includeUncommitted,
        notices: view,
      }),
      notes: localNotes(store, parsed.continue),
      // Memory is the repository's own pitcrew-memory branch: push it to share it with CI.
      namespaces: runNamespaces({
        git: localGitData(parsed.repo),
        author: { run: "local", thread: "local", requestedBy: userInfo().username },
        secrets: [parsed.apiKey],
        log: view.log,
      }),
      delivery: localDelivery({ ...parsed, view }),
      log: view.log,
      env,
      signal: controller.signal,
    });
    return outcome.exitCode;
  } finally {
    view.stop();
    process.off("SIGINT", onSigint);
  }
}
