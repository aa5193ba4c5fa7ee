/**
 * One task, from an authorised request to a pull request: the pipeline the action runs after the
 * event has become a `Task`. It owns the order of effects and what people see at each step — the
 * 👀 reaction, the progress comment, the branch, the sandboxed session, the secret-checked push,
 * the PR, the job summary — and makes sure every way out (done, a limit, an error, a refusal)
 * ends with a truthful comment and the outputs set.
 */
import { describeError } from "./errors.ts";
import { createModelClient } from "./agent/model.ts";
import {
  SYSTEM_PROMPT,
  continuePrompt,
  dispatchTaskPrompt,
  fence,
  threadTaskPrompt,
} from "./agent/prompt.ts";
import type { Message } from "./domain/messages.ts";
import { runSession } from "./agent/session.ts";
import { loadShellParser } from "./agent/shell/parse.ts";
import type { SessionResult } from "./domain/loop.ts";
import type { Config } from "./config/config.ts";
import type { CommentInfo, IssueInfo, PullInfo } from "./domain/conversation.ts";
import type { GitHubApi } from "./github/api.ts";
import { prepareThreadBranch } from "./github/branch.ts";
import { deliver } from "./github/deliver.ts";
import { knownSecrets, withholdSecrets } from "./github/secret-scan.ts";
import { NO_WORK, createProgressComment } from "./github/progress.ts";
import type { Ending, FinalState, Work } from "./github/progress.ts";
import { conclusionOf, setOutputs, writeJobSummary } from "./github/report.ts";
import type { Conclusion } from "./github/report.ts";
import { RUN_START, foldEvent, settle } from "./domain/run-state.ts";
import type { RunState } from "./domain/run-state.ts";
import { authorize } from "./triggers/authorize.ts";
import type { Task } from "./domain/task.ts";
import { DEFAULT_SETTINGS } from "./sandbox/policy.ts";
import { protectedPatterns } from "./sandbox/protected-paths.ts";
import { createCheckpoint } from "./store/checkpoint.ts";
import type { Checkpoint } from "./store/checkpoint.ts";
import type { Notes } from "./domain/notes.ts";
import type { NotesStore } from "./store/store.ts";
import { lastWords, threadTask } from "./store/transcript.ts";
import { createLogGroups } from "./log-groups.ts";
import type { GroupedLog } from "./log-groups.ts";

/** Where the thread's notes go: the store (an artifact), and a local copy for the post step. */
export interface NotesPlace {
  store: NotesStore;
  localDir: string;
  /** Called once the run's final notes are in the store (the post step then has nothing to do). */
  onSaved(): void;
}

export interface WorkOptions {
  task: Task;
  notes: NotesPlace;
  config: Config;
  api: GitHubApi;
  workspace: string;
  runUrl: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The job log, folded by phase and by turn (the runner's groups in the action). */
  log: GroupedLog & { warning(message: string): void };
}

export interface WorkOutcome {
  conclusion: Conclusion;
  /** Set when the run failed: the named error's sentence. */
  error?: string;
}

/** The branch of a thread: one per issue, PR or dispatched run, so re-runs update it. */
export function threadBranch(task: Task, prefix: string): string {
  const { thread } = task;
  if (thread.kind === "issue") return `${prefix}issue-${thread.number}`;
  if (thread.kind === "pr") return `${prefix}pr-${thread.number}`;
  return `${prefix}task-${thread.runId}`;
}

function issueNumberOf(task: Task): number | undefined {
  return task.thread.kind === "dispatch" ? undefined : task.thread.number;
}

export async function workTask(options: WorkOptions): Promise<WorkOutcome> {
  const { task, config, api, log } = options;
  // Every comment body and the job summary pass the secret check on their way out.
  const secrets = knownSecrets(options.env, [config.apiKey, config.githubToken, config.notesKey]);
  const comment = createProgressComment({
    api: {
      createComment: (issue, body) => api.createComment(issue, withholdSecrets(body, secrets)),
      updateComment: (id, body) => api.updateComment(id, withholdSecrets(body, secrets)),
    },
    issueNumber: issueNumberOf(task),
    log,
  });
  const frame = { task, runUrl: options.runUrl };
  // The turns' lines quote the agent's commands and paths: checked like a comment, as the runner
  // masks only the secrets' plain values.
  const groups = createLogGroups({
    ...log,
    info: (message) => log.info(withholdSecrets(message, secrets)),
  });
  let run: RunState = RUN_START;
  let work: Work = NO_WORK;
  /** Set once the branch is pushed: an output even when opening the PR fails after. */
  let branch: string | undefined;
  let pushedSha: string | undefined;
  let checkpoint: Checkpoint | undefined;
  let result: SessionResult | undefined;

  const end = async (ending: Ending): Promise<WorkOutcome> => {
    // Whichever phase ended the run, its group ends here.
    groups.close();
    // The notes are saved on every way out, so the next run (or `/agent continue`) picks up here.
    if (checkpoint) {
      groups.open("notes: saving the thread's handoff notes");
      const saved = await checkpoint.finish({
        stopReason: result?.stopReason ?? null,
        headSha: pushedSha ?? null,
        prNumber: "pull" in ending && ending.pull ? ending.pull.number : null,
        messages: result?.messages,
      });
      if (saved) options.notes.onSaved();
      work = { ...work, thread: checkpoint.current().state.cumulative };
      groups.close();
    }
    const state: FinalState = { ...frame, ...work, ...ending };
    await comment.finish(state);
    await writeJobSummary({ ...state, tally: run.tally, branch }, log, (text) =>
      withholdSecrets(text, secrets),
    );
    const conclusion = conclusionOf(ending.phase);
    setOutputs({
      conclusion,
      pull: ending.phase === "refused" || ending.phase === "no-changes" ? undefined : ending.pull,
      branch,
      totals: work.totals,
    });
    return ending.phase === "failed" ? { conclusion, error: ending.error } : { conclusion };
  };

  try {
    groups.open("preparing: access, branch, notes, thread");
    const access = await authorize(task, api, { allowedBots: config.allowedBots });
    if (!access.allowed) {
      log.warning(`refused (${access.code}): ${access.reply}`);
      return await end({ phase: "refused", reason: access.reply });
    }
    // Once authorised, the independent steps overlap: the first model request waits on the
    // slowest of them (usually the fetch), not on their sum.
    const base = access.pull ? access.pull.head.ref : task.repository.defaultBranch;
    const reacting = task.comment
      ? api
          .react(task.comment.id, "eyes")
          .catch((error: unknown) => log.warning(`could not react: ${describeError(error)}`))
      : undefined;
    const [prepared, thread, restored] = await Promise.all([
      // Work on a PR lands on a branch of its own, proposed into the PR's head branch.
      prepareThreadBranch({
        workspace: options.workspace,
        branch: threadBranch(task, config.branchPrefix),
        base,
        token: config.githubToken,
      }),
      threadOf(task, api),
      options.notes.store.restore(task.threadKey),
      // The shell parser's WebAssembly compiles while the network calls wait (it is memoised).
      loadShellParser(),
      reacting,
      comment.start({ ...frame, ...work, phase: "working" }),
    ]);
    log.info(
      `${prepared.reused ? "continuing" : "starting"} branch ${prepared.branch} from ${base} at ${prepared.startSha.slice(0, 12)}`,
    );
    if (restored.found) log.info(`notes: restored from ${restored.from}`);
    else if (restored.damaged) log.warning(`notes: starting fresh: ${restored.reason}`);
    else log.info(`notes: starting fresh (${restored.reason})`);
    const earlier = restored.found ? restored.notes : undefined;
    const start: Message[] = [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: taskPrompt(task, thread, access.pull, earlier, config.instructions),
      },
    ];
    checkpoint = createCheckpoint({
      store: options.notes.store,
      localDir: options.notes.localDir,
      restored: earlier,
      place: {
        threadKey: task.threadKey,
        repository: `${task.repository.owner}/${task.repository.repo}`,
        branch: prepared.branch,
        baseBranch: base,
        baseSha: prepared.baseSha,
      },
      start,
      log,
    });
    // The session's own group holds the sandbox's start; each turn then opens one of its own.
    groups.open("agent session: sandbox and model");
    result = await runSession({
      workspace: options.workspace,
      sandbox: {
        ...DEFAULT_SETTINGS,
        backend: config.sandbox,
        timeoutMs: config.commandTimeoutSeconds * 1000,
        limits: {
          ...DEFAULT_SETTINGS.limits,
          diskReserveBytes: config.diskReserveMiB * 1024 * 1024,
        },
        protectedPaths: protectedPatterns(config.protectedPaths, config.allowProtectedChanges),
      },
      model: createModelClient({
        apiKey: config.apiKey,
        model: config.model,
        baseUrl: config.baseUrl,
      }),
      messages: start,
      limits: {
        maxTurns: config.maxTurns,
        timeBudgetMs: config.timeBudgetMinutes * 60_000,
        costBudget: config.costBudget,
        tokenBudget: config.tokenBudget,
      },
      window: { window: config.contextWindow },
      deny: config.deny,
      promptCacheKey: `pitcrew-${task.repository.owner}-${task.repository.repo}-${task.threadKey}`,
      env: options.env,
      signal: options.signal,
      log,
      onSandbox: ({ backend, probe }) =>
        log.info(`sandbox: ${backend}${probe ? ` (${probe.bwrapPath}, ${probe.version})` : ""}`),
      onEvent: (event) => {
        run = foldEvent(run, event);
        work = { ...work, todos: run.todos, activity: run.activity, totals: run.totals };
        checkpoint?.observe(event, run);
        groups.observe(event);
        comment.update({ ...frame, ...work, phase: "working" });
      },
    });
    run = settle(run, result);
    work = { ...work, activity: undefined, totals: run.totals };

    groups.open("delivery: commit, push, pull request");
    const ending = await deliver({
      ...options,
      secrets,
      prepared,
      result,
      issueTitle: thread?.issue.title,
      tally: run.tally,
      onPushed: (pushed, sha) => {
        branch = pushed;
        pushedSha = sha;
      },
    });
    return await end(ending);
  } catch (error) {
    return await end({ phase: "failed", error: describeError(error) });
  }
}

/**
 * The first user message: `/agent continue` with restored notes goes on from the handoff note;
 * everything else (and a continue with nothing restored) starts from the thread itself.
 */
function taskPrompt(
  task: Task,
  thread: { issue: IssueInfo; comments: CommentInfo[] } | undefined,
  pull: PullInfo | undefined,
  earlier: Notes | undefined,
  repositoryInstructions: string,
): string {
  if (task.kind === "continue" && earlier !== undefined) {
    const { login, association } = task.requester;
    return continuePrompt({
      note: earlier.note,
      task: threadTask(earlier.transcript),
      instruction:
        task.instruction.trim() === ""
          ? undefined
          : fence(
              `The request from @${login} (${association || "no association"})`,
              task.instruction,
            ),
      previous: {
        summary: lastWords(earlier.transcript),
        todos: earlier.state.todos,
        stopReason: earlier.state.stopReason,
      },
      repositoryInstructions,
    });
  }
  if (thread === undefined) return dispatchTaskPrompt({ task, repositoryInstructions });
  return threadTaskPrompt({ task, ...thread, pull, repositoryInstructions });
}

/** The issue (or PR) and its conversation, which the task prompt quotes; none for a dispatch. */
async function threadOf(
  task: Task,
  api: GitHubApi,
): Promise<{ issue: IssueInfo; comments: CommentInfo[] } | undefined> {
  if (task.thread.kind === "dispatch") return undefined;
  const [issue, comments] = await Promise.all([
    api.issue(task.thread.number),
    api.comments(task.thread.number),
  ]);
  return { issue, comments };
}
