/**
 * The action's Run (src/run/run.ts), with the action's ends (src/run/ends/action-*.ts): who may ask
 * (authorisation on GitHub), the thread's branch in the runner's checkout as the workspace, the
 * thread's notes in a workflow artifact, and a delivery that pushes, opens or updates the pull
 * request and tells the thread, the run's page and the workflow how it went.
 */
import { knownSecrets, withholdSecrets } from "./git/secret-scan.ts";
import { createLogGroups, phasedLog } from "./log-groups.ts";
import { once } from "./run/once.ts";
import type { RunEnds } from "./run/ports.ts";
import { runTask } from "./run/run.ts";
import { threadDelivery } from "./run/ends/action-delivery.ts";
import type { Delivered } from "./run/ends/action-delivery.ts";
import { threadNotes } from "./run/ends/action-notes.ts";
import { authorisation, threadOf, threadRequest } from "./run/ends/action-request.ts";
import { threadWorkspace } from "./run/ends/action-workspace.ts";
import type { ThreadWorkspace } from "./run/ends/action-workspace.ts";
import { authorize } from "./triggers/authorize.ts";
import { outcomeOf } from "./run/ends/action-run.ts";
import { actionNamespaces } from "./run/ends/namespaces.ts";
import { actionReport } from "./run/ends/action-report.ts";
import type { WorkOptions, WorkOutcome } from "./run/ends/action-run.ts";

export type { WorkOptions, WorkOutcome } from "./run/ends/action-run.ts";

export async function workTask(options: WorkOptions): Promise<WorkOutcome> {
  const { ending } = await runTask(actionEnds(options));
  return outcomeOf(ending);
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
    namespaces: actionNamespaces(options, task),
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
      publishReport: actionReport(options, task),
    }),
    log: phasedLog(log, groups),
    env: options.env,
    signal: options.signal,
  };
}
