/**
 * `pitcrew run`: the main job on a local checkout. The agent works in a separate worktree on a new
 * branch, every command in the sandbox; at the end whatever it changed is committed on that branch
 * (also when a limit stopped it early: nothing paid for is thrown away), and the person's own
 * checkout is never touched. Each run leaves notes (handoff note, state, transcript) inside .git,
 * saved at every compaction and at the end; `--continue` picks the last run up on its own branch.
 */
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { PitcrewError, describeError } from "../errors.ts";
import type { StopReason } from "../domain/loop.ts";
import { formatTotals, stopWords } from "../present/describe.ts";
import type { Message } from "../domain/messages.ts";
import { createModelClient } from "../agent/model.ts";
import { SYSTEM_PROMPT, continuePrompt, localTaskPrompt } from "../agent/prompt.ts";
import { runSession } from "../agent/session.ts";
import { DEFAULTS } from "../config/config.ts";
import { readRepositorySetup } from "../config/repository.ts";
import { git } from "../github/git.ts";
import {
  addRunWorktree,
  commitAll,
  continueWorktree,
  removeRunWorktree,
} from "../github/worktree.ts";
import type { RunWorktree } from "../github/worktree.ts";
import { DEFAULT_SETTINGS, sandboxChoice } from "../sandbox/policy.ts";
import { protectedPatterns } from "../sandbox/protected-paths.ts";
import { createLocalStore } from "../store/local.ts";
import { createCheckpoint } from "../store/checkpoint.ts";
import { RUN_START, foldEvent } from "../domain/run-state.ts";
import type { Checkpoint } from "../store/checkpoint.ts";
import type { Notes } from "../domain/notes.ts";
import type { NotesStore } from "../store/store.ts";
import { lastWords, threadTask } from "../store/transcript.ts";
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

/** Where a run starts: a new branch and the task, or the last run's branch and its notes. */
interface Start {
  worktree: RunWorktree;
  previous: Notes | undefined;
  baseBranch: string;
  repository: string;
  /** The first line of the commit message. */
  title: string;
  /** The branch existed before this run: it stays whatever happens. */
  branchKept: boolean;
}

async function startRun(parsed: RunArgs, store: NotesStore): Promise<Start> {
  if (!parsed.continue) {
    const worktree = await addRunWorktree(parsed.repo);
    return {
      worktree,
      previous: undefined,
      baseBranch: await currentBranch(worktree.repo),
      repository: `local/${basename(worktree.repo).replace(/[^\w.-]/g, "-")}`,
      title: parsed.task.split("\n")[0]?.slice(0, 72) ?? "pitcrew run",
      branchKept: false,
    };
  }
  const restored = await store.restore(LOCAL_THREAD);
  if (!restored.found) {
    throw new PitcrewError(
      "run-nothing-to-continue",
      `Nothing to continue: ${restored.reason}. Start a run first, for example: pitcrew run --repo . "make the failing test pass"; then pitcrew run --continue picks it up where it stopped.`,
    );
  }
  const previous = restored.notes;
  const { worktree, existed } = await continueWorktree(parsed.repo, previous);
  return {
    worktree,
    previous,
    baseBranch: previous.state.baseBranch,
    repository: previous.state.repository,
    title: (parsed.task.split("\n")[0] ?? "").slice(0, 72) || "Carry on (pitcrew run --continue)",
    branchKept: existed,
  };
}

export async function runCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: RunArgs;
  try {
    parsed = parse(args, env);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_USAGE;
  }
  const log = STDERR_LOG;

  let start: Start;
  let store: NotesStore;
  try {
    store = createLocalStore(await notesRoot(parsed.repo));
    start = await startRun(parsed, store);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    const nothing = error instanceof PitcrewError && error.code === "run-nothing-to-continue";
    return nothing ? EXIT_USAGE : EXIT_FAILED;
  }
  const { worktree, previous } = start;

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    log.info("cancelling: the work so far will be committed (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  const progress = progressPrinter(process.stderr);
  let keepBranch = start.branchKept;
  let checkpoint: Checkpoint | undefined;
  try {
    log.info(
      previous
        ? `continuing the last run in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`
        : `working in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
    );
    const { instructions, config } = await readRepositorySetup(worktree.repo, worktree.base);
    const model = createModelClient({
      apiKey: parsed.apiKey,
      model: parsed.model,
      baseUrl: parsed.baseUrl,
    });
    const prompt = previous
      ? continuePrompt({
          note: previous.note,
          // The first run's prompt, which already quotes the repository's instructions.
          task: threadTask(previous.transcript),
          instruction: parsed.task,
          previous: {
            summary: lastWords(previous.transcript),
            todos: previous.state.todos,
            stopReason: previous.state.stopReason,
          },
        })
      : localTaskPrompt({ task: parsed.task, repositoryInstructions: instructions });
    const messages: Message[] = [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: prompt },
    ];
    const notes = createCheckpoint({
      store,
      restored: previous,
      place: {
        threadKey: LOCAL_THREAD,
        repository: start.repository,
        branch: worktree.branch,
        baseBranch: start.baseBranch,
        baseSha: worktree.base,
      },
      start: messages,
      log,
    });
    checkpoint = notes;
    let state = RUN_START;
    const result = await runSession({
      workspace: worktree.path,
      sandbox: {
        ...DEFAULT_SETTINGS,
        backend: parsed.sandbox,
        protectedPaths: protectedPatterns(
          config["protected-paths"] ?? [],
          config["allow-protected-changes"] ?? false,
        ),
      },
      model,
      messages,
      limits: { maxTurns: parsed.maxTurns },
      deny: config.permissions.deny,
      promptCacheKey: `pitcrew-run-${worktree.branch}`,
      env,
      signal: controller.signal,
      onEvent: (event) => {
        state = foldEvent(state, event);
        notes.observe(event, state);
        progress.onEvent(event);
      },
      log,
    });
    progress.stop();

    const commit = await commitAll(worktree, `${start.title}\n\n${result.summary}`.trim());
    keepBranch ||= commit.committed;
    await notes.finish({
      stopReason: result.stopReason,
      headSha: commit.sha ?? null,
      prNumber: null,
      messages: result.messages,
    });
    const out: string[] = [];
    if (result.summary) out.push(result.summary, "");
    out.push(`${stopWords(result.stopReason)}.`);
    if (result.error) out.push(describeError(result.error));
    if (commit.committed) {
      out.push(`branch: ${worktree.branch} (commit ${commit.sha?.slice(0, 12)})`, commit.diffstat);
    } else if (keepBranch) {
      out.push(`branch: ${worktree.branch} (no new changes in this run)`);
    } else {
      out.push("No changes: the agent left the repository as it was, so no branch was kept.");
    }
    if (keepBranch) out.push(`Continue from here: git switch ${worktree.branch}`);
    if (result.stopReason !== "done")
      out.push('Or let the agent carry on: pitcrew run --continue ["what to do next"]');
    out.push(formatTotals(result));
    if (previous) {
      const all = notes.current().state.cumulative;
      out.push(`all ${all.runs} runs on this branch: ${formatTotals(all)}`);
    }
    process.stdout.write(`${out.join("\n")}\n`);
    return exitCodeFor(result.stopReason);
  } catch (error) {
    progress.stop();
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    const commit = await commitAll(
      worktree,
      `pitcrew run (interrupted): ${start.title.slice(0, 60)}`,
    ).catch(() => null);
    if (commit?.committed) {
      keepBranch = true;
      process.stderr.write(
        `pitcrew run: the changes made so far are kept on branch ${worktree.branch}\n`,
      );
    }
    await checkpoint?.finish({ stopReason: null, headSha: commit?.sha ?? null, prNumber: null });
    return EXIT_FAILED;
  } finally {
    process.off("SIGINT", onSigint);
    await removeRunWorktree(worktree, keepBranch);
  }
}
