/**
 * The action's ends of the Run (src/run/run.ts): who may ask (authorisation on GitHub), the thread's
 * branch in the runner's checkout as the workspace, the thread's notes in a workflow artifact, and
 * a delivery that pushes, opens or updates the pull request and tells the thread (the progress
 * comment), the run's page (the job summary) and the workflow (the outputs) how it went.
 */
import { describeError } from "./errors.ts";
import { createModelClient } from "./agent/model.ts";
import { dispatchTaskPrompt, fence, threadTaskPrompt } from "./agent/prompt.ts";
import type { Config } from "./config/config.ts";
import type { CommentInfo, IssueInfo } from "./domain/conversation.ts";
import { NO_WORK, conclusionOf } from "./domain/ending.ts";
import type { Conclusion, Ending, ProgressState } from "./domain/ending.ts";
import type { RunState } from "./domain/run-state.ts";
import type { Task } from "./domain/task.ts";
import type { GitHubApi } from "./github/api.ts";
import { prepareThreadBranch } from "./git/branch.ts";
import type { PreparedBranch } from "./git/branch.ts";
import { deliver } from "./github/deliver.ts";
import { createProgressComment } from "./github/progress.ts";
import { setOutputs, writeJobSummary } from "./github/report.ts";
import { knownSecrets, withholdSecrets } from "./git/secret-scan.ts";
import { LOG_PHASES, createLogGroups } from "./log-groups.ts";
import type { GroupedLog } from "./log-groups.ts";
import { once } from "./run/once.ts";
import type { NotesPort, RunEnds, SessionSettings, Workspace } from "./run/ports.ts";
import { runTask } from "./run/run.ts";
import { DEFAULT_SETTINGS } from "./sandbox/policy.ts";
import { protectedPatterns } from "./sandbox/protected-paths.ts";
import { authorize } from "./triggers/authorize.ts";

/** Where the thread's notes go: the store (an artifact), and a local copy for the post step. */
export type NotesPlace = Omit<NotesPort, "restore">;

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

/** How a run on a thread ended, and its branch once pushed (an output even if the PR failed). */
interface Delivered {
  ending: Ending;
  branch?: string;
}

type ThreadWorkspace = Workspace & { prepared: PreparedBranch };

/** The branch of a thread: one per issue, PR or dispatched run, so re-runs update it. */
export function threadBranch(task: Task, prefix: string): string {
  const { thread } = task;
  if (thread.kind === "issue") return `${prefix}issue-${thread.number}`;
  if (thread.kind === "pr") return `${prefix}pr-${thread.number}`;
  return `${prefix}task-${thread.runId}`;
}

export async function workTask(options: WorkOptions): Promise<WorkOutcome> {
  const { ending } = await runTask(actionEnds(options));
  const conclusion = conclusionOf(ending.phase);
  return ending.phase === "failed" ? { conclusion, error: ending.error } : { conclusion };
}

function actionEnds(options: WorkOptions): RunEnds<ThreadWorkspace, Delivered> {
  const { task, config, api, log } = options;
  // Every comment body, log line of the turns and the job summary pass the secret check on their
  // way out (the runner masks only the secrets' plain values).
  const secrets = knownSecrets(options.env, [config.apiKey, config.githubToken, config.notesKey]);
  const withhold = (text: string): string => withholdSecrets(text, secrets);
  const comment = createProgressComment({
    api: {
      createComment: (issue, body) => api.createComment(issue, withhold(body)),
      updateComment: (id, body) => api.updateComment(id, withhold(body)),
    },
    issueNumber: task.thread.kind === "dispatch" ? undefined : task.thread.number,
    log,
  });
  const groups = createLogGroups({ ...log, info: (message) => log.info(withhold(message)) });
  const frame = { task, runUrl: options.runUrl };
  const working = (state: RunState): ProgressState => ({
    ...frame,
    todos: state.todos,
    activity: state.activity,
    totals: state.totals,
    phase: "working",
  });
  const access = once(() => authorize(task, api, { allowedBots: config.allowedBots }));
  const thread = once(() => threadOf(task, api));
  const pullOf = async () => {
    const granted = await access();
    return granted.allowed ? granted.pull : undefined;
  };

  return {
    admission: {
      admit: async () => {
        const granted = await access();
        if (granted.allowed) return undefined;
        log.warning(`refused (${granted.code}): ${granted.reply}`);
        return granted.reply;
      },
      refused: (reason) => ({ ending: { phase: "refused", reason } }),
    },
    request: {
      threadKey: task.threadKey,
      continuing:
        task.kind === "continue"
          ? {
              instruction:
                task.instruction.trim() === ""
                  ? undefined
                  : fence(
                      `The request from @${task.requester.login} (${task.requester.association || "no association"})`,
                      task.instruction,
                    ),
              repositoryInstructions: config.instructions,
            }
          : undefined,
      gather: () => Promise.all([thread(), react(task, api, log)]),
      brief: async () => {
        const quoted = await thread();
        const repositoryInstructions = config.instructions;
        return {
          prompt:
            quoted === undefined
              ? dispatchTaskPrompt({ task, repositoryInstructions })
              : threadTaskPrompt({ task, ...quoted, pull: await pullOf(), repositoryInstructions }),
          session: sessionSettings(config, task, log),
        };
      },
    },
    workspace: {
      open: async () => {
        // Work on a PR lands on a branch of its own, proposed into the PR's head branch.
        const base = (await pullOf())?.head.ref ?? task.repository.defaultBranch;
        const prepared = await prepareThreadBranch({
          workspace: options.workspace,
          branch: threadBranch(task, config.branchPrefix),
          base,
          token: config.githubToken,
        });
        log.info(
          `${prepared.reused ? "continuing" : "starting"} branch ${prepared.branch} from ${base} at ${prepared.startSha.slice(0, 12)}`,
        );
        return {
          path: options.workspace,
          branch: prepared.branch,
          baseBranch: base,
          baseSha: prepared.baseSha,
          repository: `${task.repository.owner}/${task.repository.repo}`,
          prepared,
        };
      },
    },
    notes: {
      ...options.notes,
      restore: async () => {
        const restored = await options.notes.store.restore(task.threadKey);
        if (restored.found) log.info(`notes: restored from ${restored.from}`);
        else if (restored.damaged) log.warning(`notes: starting fresh: ${restored.reason}`);
        else log.info(`notes: starting fresh (${restored.reason})`);
        return restored.found ? restored.notes : undefined;
      },
    },
    delivery: {
      begin: () => comment.start({ ...frame, ...NO_WORK, phase: "working" }),
      observe: (event, state) => {
        groups.observe(event);
        comment.update(working(state));
      },
      handOver: async (result, state, workspace) => {
        let pushed: { branch: string; sha: string } | undefined;
        try {
          const ending = await deliver({
            ...options,
            secrets,
            prepared: workspace.prepared,
            result,
            issueTitle: (await thread())?.issue.title,
            tally: state.tally,
            onPushed: (branch, sha) => (pushed = { branch, sha }),
          });
          const prNumber = "pull" in ending && ending.pull ? ending.pull.number : null;
          return {
            outcome: { ending, branch: pushed?.branch },
            headSha: pushed?.sha ?? null,
            prNumber,
          };
        } catch (error) {
          // Opening the PR failed after the push: the branch holds the work, and the notes say so.
          if (pushed === undefined) throw error;
          const ending: Ending = { phase: "failed", error: describeError(error) };
          return {
            outcome: { ending, branch: pushed.branch },
            headSha: pushed.sha,
            prNumber: null,
          };
        }
      },
      salvage: (error) =>
        Promise.resolve({
          outcome: { ending: { phase: "failed", error: describeError(error) } },
          headSha: null,
          prNumber: null,
        }),
      report: async ({ ending, branch }, { state, notes }) => {
        const final = {
          ...frame,
          todos: state.todos,
          totals: state.totals,
          thread: notes?.state.cumulative,
          ...ending,
        };
        await comment.finish(final);
        await writeJobSummary({ ...final, tally: state.tally, branch }, log, withhold);
        setOutputs({
          conclusion: conclusionOf(ending.phase),
          pull:
            ending.phase === "refused" || ending.phase === "no-changes" ? undefined : ending.pull,
          branch,
          totals: state.totals,
        });
      },
    },
    log: {
      info: (message) => log.info(message),
      warning: (message) => log.warning(message),
      phase: (phase) => (phase === undefined ? groups.close() : groups.open(LOG_PHASES[phase])),
    },
    env: options.env,
    signal: options.signal,
  };
}

function sessionSettings(
  config: Config,
  task: Task,
  log: { info(message: string): void },
): SessionSettings {
  return {
    sandbox: {
      ...DEFAULT_SETTINGS,
      backend: config.sandbox,
      timeoutMs: config.commandTimeoutSeconds * 1000,
      limits: { ...DEFAULT_SETTINGS.limits, diskReserveBytes: config.diskReserveMiB * 1024 * 1024 },
      protectedPaths: protectedPatterns(config.protectedPaths, config.allowProtectedChanges),
    },
    model: createModelClient({
      apiKey: config.apiKey,
      model: config.model,
      baseUrl: config.baseUrl,
    }),
    limits: {
      maxTurns: config.maxTurns,
      timeBudgetMs: config.timeBudgetMinutes * 60_000,
      costBudget: config.costBudget,
      tokenBudget: config.tokenBudget,
    },
    window: { window: config.contextWindow },
    deny: config.deny,
    promptCacheKey: `pitcrew-${task.repository.owner}-${task.repository.repo}-${task.threadKey}`,
    onSandbox: ({ backend, probe }) =>
      log.info(`sandbox: ${backend}${probe ? ` (${probe.bwrapPath}, ${probe.version})` : ""}`),
  };
}

/** 👀 on the comment that asked: a failure is only a warning. */
async function react(task: Task, api: GitHubApi, log: { warning(message: string): void }) {
  if (task.comment === undefined) return;
  await api
    .react(task.comment.id, "eyes")
    .catch((error: unknown) => log.warning(`could not react: ${describeError(error)}`));
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
