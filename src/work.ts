/**
 * The action's Run (src/run/run.ts), with the action's ends (src/run/ends/action-*.ts): who may ask
 * (authorisation on GitHub), the thread's branch in the runner's checkout as the workspace, the
 * thread's notes in a workflow artifact, and a delivery that pushes, opens or updates the pull
 * request and tells the thread, the run's page and the workflow how it went.
 */
import type { Config } from "./config/config.ts";
import { conclusionOf } from "./domain/ending.ts";
import type { Conclusion } from "./domain/ending.ts";
import type { Task } from "./domain/task.ts";
import type { GitHubApi } from "./github/api.ts";
import { knownSecrets, withholdSecrets } from "./git/secret-scan.ts";
import { LOG_PHASES, createLogGroups } from "./log-groups.ts";
import type { GroupedLog } from "./log-groups.ts";
import { once } from "./run/once.ts";
import type { RunEnds } from "./run/ports.ts";
import { runTask } from "./run/run.ts";
import { threadDelivery } from "./run/ends/action-delivery.ts";
import type { Delivered } from "./run/ends/action-delivery.ts";
import { threadNotes } from "./run/ends/action-notes.ts";
import type { NotesPlace } from "./run/ends/action-notes.ts";
import { authorisation, threadOf, threadRequest } from "./run/ends/action-request.ts";
import { threadWorkspace } from "./run/ends/action-workspace.ts";
import type { ThreadWorkspace } from "./run/ends/action-workspace.ts";
import { authorize } from "./triggers/authorize.ts";

export interface WorkOptions {
  task: Task;
  notes: NotesPlace;
  config: Config;
  api: GitHubApi;
  workspace: string;
  runUrl: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /**
   * What the agent may not change or push: the repository's rules (protectedPatterns) and the
   * running action's own files when they lie in the checkout (ownActionPaths).
   */
  protectedPaths: readonly string[];
  /** The job log, folded by phase and by turn (the runner's groups in the action). */
  log: GroupedLog & { warning(message: string): void };
}

export interface WorkOutcome {
  conclusion: Conclusion;
  /** Set when the run failed: the named error's sentence. */
  error?: string;
}

export async function workTask(options: WorkOptions): Promise<WorkOutcome> {
  const { ending } = await runTask(actionEnds(options));
  const conclusion = conclusionOf(ending.phase);
  return ending.phase === "failed" ? { conclusion, error: ending.error } : { conclusion };
}

function actionEnds(options: WorkOptions): RunEnds<ThreadWorkspace, Delivered> {
  const { task, config, api, log } = options;
  // The log lines of the turns pass the secret check on their way out, as every posted text does.
  const secrets = knownSecrets(options.env, config);
  const groups = createLogGroups({
    ...log,
    info: (message) => log.info(withholdSecrets(message, secrets)),
  });
  // The ends share the authorisation and the thread, each fetched once by whichever asks first.
  const access = once(() => authorize(task, api, { allowedBots: config.allowedBots }));
  const thread = once(() => threadOf(task, api));
  const pull = async () => {
    const granted = await access();
    return granted.allowed ? granted.pull : undefined;
  };
  return {
    admission: authorisation(access, (reason) => ({ ending: { phase: "refused", reason } }), log),
    request: threadRequest({
      task,
      config,
      api,
      thread,
      pull,
      log,
      protectedPaths: options.protectedPaths,
    }),
    workspace: threadWorkspace({ task, config, checkout: options.workspace, pull, log }),
    notes: threadNotes(options.notes, task.threadKey, log),
    delivery: threadDelivery({
      ...options,
      secrets,
      groups,
      issueTitle: async () => (await thread())?.issue.title,
    }),
    log: {
      info: (message) => log.info(message),
      warning: (message) => log.warning(message),
      phase: (phase) => (phase === undefined ? groups.close() : groups.open(LOG_PHASES[phase])),
    },
    env: options.env,
    signal: options.signal,
  };
}
