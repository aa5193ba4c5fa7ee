/**
 * `pitcrew run`: the Run (src/run/run.ts) on a local checkout, with the CLI's ends. The agent works
 * in a separate worktree on a new branch, every command in the sandbox; at the end whatever it
 * changed is committed on that branch (also when a limit stopped it early: nothing paid for is
 * thrown away), and the person's own checkout is never touched. Each run leaves notes (handoff
 * note, state, transcript) inside .git, saved at every compaction and at the end; `--continue`
 * picks the last run up on its own branch.
 */
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { PitcrewError, describeError } from "../errors.ts";
import type { SessionResult, StopReason } from "../domain/loop.ts";
import { createModelClient } from "../agent/model.ts";
import { localTaskPrompt } from "../agent/prompt.ts";
import { DEFAULTS } from "../config/config.ts";
import { readRepositorySetup } from "../config/repository.ts";
import { git } from "../git/git.ts";
import { addRunWorktree, commitAll, continueWorktree, removeRunWorktree } from "../git/worktree.ts";
import type { RunWorktree } from "../git/worktree.ts";
import { terminalReport } from "../present/lines.ts";
import type { LocalDelivery } from "../present/lines.ts";
import type { RunEnds, Workspace } from "../run/ports.ts";
import { runTask } from "../run/run.ts";
import { DEFAULT_SETTINGS, sandboxChoice } from "../sandbox/policy.ts";
import { protectedPatterns } from "../sandbox/protected-paths.ts";
import { createLocalStore } from "../store/local.ts";
import type { NotesStore } from "../store/store.ts";
import { STDERR_LOG } from "./log.ts";
import { progressPrinter } from "./progress.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_STOPPED_EARLY = 3;
export const EXIT_CANCELLED = 130;

/** The CLI keeps one thread's notes, the last run's: that is what `--continue` continues. */
export const LOCAL_THREAD = "cli";

interface RunArgs {
  repo: string;
  model: string;
  baseUrl: string | undefined;
  maxTurns: number;
  sandbox: "auto" | "bwrap" | "seatbelt" | "none";
  /** The task; with `--continue`, what to do now ("" to carry on). */
  task: string;
  continue: boolean;
  apiKey: string;
}

function parse(args: string[], env: NodeJS.ProcessEnv): RunArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      repo: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "max-turns": { type: "string" },
      sandbox: { type: "string", default: "auto" },
      continue: { type: "boolean", default: false },
    },
  });
  const task = positionals.join(" ").trim();
  if (task === "" && !values.continue) {
    throw new PitcrewError(
      "cli-no-task",
      'Say what to do, for example: pitcrew run --repo . "make the failing test in test/parse.test.ts pass"',
    );
  }
  const maxTurns =
    values["max-turns"] === undefined ? DEFAULTS.maxTurns : Number(values["max-turns"]);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new PitcrewError(
      "cli-bad-option",
      `--max-turns takes a whole number above 0, not '${values["max-turns"]}'.`,
    );
  }
  const sandbox = sandboxChoice(values.sandbox, "cli-bad-option", "--sandbox");
  const apiKey = env.OPENAI_API_KEY ?? "";
  if (apiKey.trim() === "") {
    throw new PitcrewError(
      "cli-no-api-key",
      "No API key: set OPENAI_API_KEY (export OPENAI_API_KEY=sk-…). For another OpenAI-compatible server set its key there too and pass --base-url (or OPENAI_BASE_URL).",
    );
  }
  return {
    repo: values.repo ?? process.cwd(),
    model: values.model ?? env.PITCREW_MODEL ?? DEFAULTS.model,
    baseUrl: values["base-url"] ?? env.OPENAI_BASE_URL,
    maxTurns,
    sandbox,
    task,
    continue: values.continue,
    apiKey,
  };
}

export function exitCodeFor(reason: StopReason): number {
  if (reason === "done") return 0;
  if (reason === "cancelled") return EXIT_CANCELLED;
  if (reason === "model_error") return EXIT_FAILED;
  return EXIT_STOPPED_EARLY;
}

/**
 * The repository's notes folder: inside the common .git (shared by its worktrees), so it is never
 * committed and the agent, whose sandbox keeps .git read-only, cannot change it.
 */
async function notesRoot(repo: string): Promise<string> {
  const common = await git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).catch(
    () => {
      throw new PitcrewError(
        "run-not-a-repository",
        `${repo} is not inside a git repository; pass --repo with a checkout.`,
      );
    },
  );
  return join(common.stdout, "pitcrew", "notes");
}

/** The branch the checkout is on (what the run's branch starts from), or HEAD when detached. */
async function currentBranch(top: string): Promise<string> {
  const symbolic = await git(top, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
    okCodes: [1],
  });
  return symbolic.exitCode === 0 ? symbolic.stdout : "HEAD";
}

/** The run's worktree, and whether its branch was there before this run (then it stays). */
type LocalWorkspace = Workspace & { worktree: RunWorktree; existed: boolean; startSha: string };

type LocalOutcome =
  | { kind: "ran"; result: SessionResult; delivery: LocalDelivery }
  | { kind: "failed"; exitCode: number };

export async function runCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: RunArgs;
  let store: NotesStore;
  try {
    parsed = parse(args, env);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_USAGE;
  }
  try {
    store = createLocalStore(await notesRoot(parsed.repo));
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
    const outcome = await runTask(localEnds(parsed, store, env, controller.signal));
    return outcome.kind === "ran" ? exitCodeFor(outcome.result.stopReason) : outcome.exitCode;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** The CLI's ends: a worktree, the notes in .git, a commit on the run's branch, a printed account. */
function localEnds(
  parsed: RunArgs,
  store: NotesStore,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): RunEnds<LocalWorkspace, LocalOutcome> {
  const log = STDERR_LOG;
  const printer = progressPrinter(process.stderr);
  const firstLine = (parsed.task.split("\n")[0] ?? "").slice(0, 72);
  /** The first line of the commit message. */
  const title = parsed.continue
    ? firstLine || "Carry on (pitcrew run --continue)"
    : firstLine || "pitcrew run";
  return {
    request: {
      threadKey: LOCAL_THREAD,
      continuing: parsed.continue ? { instruction: parsed.task } : undefined,
      brief: async (workspace) => {
        const { worktree } = workspace;
        const { instructions, config } = await readRepositorySetup(worktree.repo, worktree.base);
        return {
          prompt: localTaskPrompt({ task: parsed.task, repositoryInstructions: instructions }),
          session: {
            sandbox: {
              ...DEFAULT_SETTINGS,
              backend: parsed.sandbox,
              protectedPaths: protectedPatterns(
                config["protected-paths"] ?? [],
                config["allow-protected-changes"] ?? false,
              ),
            },
            model: createModelClient({
              apiKey: parsed.apiKey,
              model: parsed.model,
              baseUrl: parsed.baseUrl,
            }),
            limits: { maxTurns: parsed.maxTurns },
            deny: config.permissions.deny,
            promptCacheKey: `pitcrew-run-${worktree.branch}`,
          },
        };
      },
    },
    notes: {
      store,
      restore: async () => {
        if (!parsed.continue) return undefined;
        const restored = await store.restore(LOCAL_THREAD);
        if (restored.found) return restored.notes;
        throw new PitcrewError(
          "run-nothing-to-continue",
          `Nothing to continue: ${restored.reason}. Start a run first, for example: pitcrew run --repo . "make the failing test pass"; then pitcrew run --continue picks it up where it stopped.`,
        );
      },
    },
    workspace: {
      open: async (earlier) => {
        const previous = await earlier;
        if (previous === undefined) {
          const worktree = await addRunWorktree(parsed.repo);
          log.info(
            `working in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
          );
          return {
            ...place(worktree),
            baseBranch: await currentBranch(worktree.repo),
            repository: `local/${basename(worktree.repo).replace(/[^\w.-]/g, "-")}`,
            existed: false,
            startSha: worktree.base,
          };
        }
        const { worktree, existed } = await continueWorktree(parsed.repo, previous);
        log.info(
          `continuing the last run in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
        );
        return {
          ...place(worktree),
          baseBranch: previous.state.baseBranch,
          repository: previous.state.repository,
          existed,
          startSha: await headOf(worktree.path),
        };
      },
      // The branch stays when it was there before or this run committed on it.
      close: async ({ worktree, existed, startSha }) => {
        const moved = await headOf(worktree.path).then(
          (head) => head !== startSha,
          () => true,
        );
        await removeRunWorktree(worktree, existed || moved);
      },
    },
    delivery: {
      observe: (event, state) => printer.onEvent(event, state),
      handOver: async (result, _state, workspace) => {
        printer.stop();
        const message = `${title}\n\n${result.summary}`.trim();
        const commit = await commitAll(workspace.worktree, message);
        const kept = workspace.existed || commit.committed;
        return {
          outcome: { kind: "ran", result, delivery: { branch: workspace.branch, ...commit, kept } },
          headSha: commit.sha ?? null,
          prNumber: null,
        };
      },
      salvage: async (error, workspace) => {
        printer.stop();
        process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
        const commit =
          workspace === undefined
            ? null
            : await commitAll(
                workspace.worktree,
                `pitcrew run (interrupted): ${title.slice(0, 60)}`,
              ).catch(() => null);
        if (workspace !== undefined && commit?.committed)
          process.stderr.write(
            `pitcrew run: the changes made so far are kept on branch ${workspace.branch}\n`,
          );
        const nothing = error instanceof PitcrewError && error.code === "run-nothing-to-continue";
        return {
          outcome: { kind: "failed", exitCode: nothing ? EXIT_USAGE : EXIT_FAILED },
          headSha: commit?.sha ?? null,
          prNumber: null,
        };
      },
      report: (outcome, { notes }) => {
        if (outcome.kind !== "ran") return Promise.resolve();
        const { result, delivery } = outcome;
        process.stdout.write(
          terminalReport({
            summary: result.summary,
            stopReason: result.stopReason,
            error: result.error,
            delivery,
            totals: result,
            thread: parsed.continue ? notes?.state.cumulative : undefined,
          }),
        );
        return Promise.resolve();
      },
    },
    log,
    env,
    signal,
  };
}

function place(
  worktree: RunWorktree,
): Pick<LocalWorkspace, "path" | "branch" | "baseSha" | "worktree"> {
  return { path: worktree.path, branch: worktree.branch, baseSha: worktree.base, worktree };
}

async function headOf(path: string): Promise<string> {
  return (await git(path, ["rev-parse", "HEAD"])).stdout;
}
