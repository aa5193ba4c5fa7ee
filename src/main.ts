/**
 * The action: reads the runner's environment and the inputs, turns the event into a task (or a
 * plain "nothing to do"), and hands it to the pipeline in work.ts. Bad configuration fails here,
 * before anything on GitHub or in the repository changes.
 */
import * as core from "@actions/core";
import { describeError } from "./errors.ts";
import { DEFAULTS } from "./config/config.ts";
import { readInputs } from "./config/inputs.ts";
import { loadConfig } from "./config/load.ts";
import { createGitHubApi } from "./github/client.ts";
import type { GitHubApi } from "./github/api.ts";
import { NO_WORK } from "./domain/ending.ts";
import { createProgressComment } from "./github/progress.ts";
import { setOutputs } from "./github/report.ts";
import type { Task } from "./domain/task.ts";
import { threadNumber } from "./domain/task.ts";
import { parseEvent } from "./triggers/event.ts";
import { runnerContext, runningActionRoot } from "./runner.ts";
import { ownActionPaths, protectedPatterns } from "./sandbox/protected-paths.ts";
import { artifactModule } from "./store/artifact.ts";
import { workTask } from "./work.ts";
import type { WorkOptions, WorkOutcome } from "./work.ts";
import { repairFailedRun } from "./ci-repair.ts";
import { triageFlakes } from "./flaky-triage.ts";
import { createFlakyApi } from "./github/flaky.ts";
import { createGitData } from "./github/git-data.ts";
import { createCiApi } from "./github/ci.ts";
import type { RunnerContext } from "./runner.ts";
import { notesPlace } from "./run/ends/action-notes.ts";

/** A failure before the work started, as the one comment pitcrew leaves on the thread. */
async function reportFailure(
  api: GitHubApi,
  task: Task,
  runUrl: string,
  error: string,
): Promise<void> {
  const issueNumber = threadNumber(task.thread);
  const comment = createProgressComment({ api, issueNumber, log: LOG });
  await comment.finish({ task, runUrl, ...NO_WORK, phase: "failed", error });
}

const LOG = {
  info: (message: string) => core.info(message),
  warning: (message: string) => core.warning(message),
  startGroup: (name: string) => core.startGroup(name),
  endGroup: () => core.endGroup(),
};

/** The running action's own files, when it runs from inside the checkout (a vendored copy). */
function ownFiles(workspace: string): string[] {
  const root = runningActionRoot();
  return root === undefined ? [] : ownActionPaths(workspace, root);
}

/** A failed workflow run goes to CI repair, with the API that reads runs, jobs and logs. */
function repairWith(
  runner: RunnerContext,
  token: string | undefined,
): (options: WorkOptions) => Promise<WorkOutcome> {
  const ci = createCiApi({
    token: token ?? "",
    baseUrl: runner.apiUrl,
    owner: runner.owner,
    repo: runner.repo,
  });
  return (options) => repairFailedRun({ ...options, ci });
}

/** A flaky-test triage reads the run history and keeps tracking issues, with the same token. */
function triageWith(
  runner: RunnerContext,
  token: string | undefined,
): (options: WorkOptions) => Promise<WorkOutcome> {
  const where = {
    token: token ?? "",
    baseUrl: runner.apiUrl,
    owner: runner.owner,
    repo: runner.repo,
  };
  const ci = createCiApi(where);
  const flaky = createFlakyApi(where);
  return (options) => triageFlakes({ ...options, ci, flaky });
}

export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const controller = new AbortController();
  // Cancellation and job timeouts arrive as SIGINT/SIGTERM: stop the loop and deliver what exists.
  const onSignal = (signal: string): void => {
    core.warning(`${signal} received: stopping the agent and saving the work so far`);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const runner = runnerContext(env);
    // Inputs first (the secrets get masked, bad values fail before anything happens); then the
    // event, so a comment that is not for pitcrew ends as "skipped" whatever else is set up.
    const inputs = readInputs();
    const trigger = parseEvent({
      eventName: runner.eventName,
      payload: runner.payload,
      triggerPhrase: inputs.triggerPhrase ?? DEFAULTS.triggerPhrase,
      runId: runner.runId,
    });
    if (trigger.kind === "ignore") {
      core.info(`nothing to do: ${trigger.reason}`);
      setOutputs({ conclusion: "skipped" });
      return;
    }
    // issue_comment and workflow_dispatch run on the default branch's (or the dispatched ref's)
    // head: the repository's setup is read from there, never from a pull request's head.
    const api = createGitHubApi({
      token: inputs.githubToken ?? "",
      baseUrl: runner.apiUrl,
      owner: runner.owner,
      repo: runner.repo,
    });
    const config = await loadConfig({
      inputs,
      workspace: runner.workspace,
      baseRef: runner.sha,
    }).catch(async (error: unknown) => {
      // The person who asked would otherwise see nothing at all: say on the thread what is wrong.
      if (inputs.githubToken !== undefined) {
        await reportFailure(api, trigger.task, runner.runUrl, describeError(error));
      }
      throw error;
    });
    // Run from inside the checkout, the action's files change when the thread's branch is checked
    // out (that branch may hold an older copy): what it imports later is imported now.
    const own = ownFiles(runner.workspace);
    if (own.length > 0) await artifactModule();
    const work =
      trigger.task.kind === "ci-repair"
        ? repairWith(runner, inputs.githubToken)
        : trigger.task.kind === "flaky-triage"
          ? triageWith(runner, inputs.githubToken)
          : workTask;
    const outcome = await work({
      task: trigger.task,
      memory: createGitData({
        token: inputs.githubToken ?? "",
        baseUrl: runner.apiUrl,
        owner: runner.owner,
        repo: runner.repo,
      }),
      notes: notesPlace(runner, config, env, trigger.task.threadKey, {
        log: LOG,
        saveState: (name, value) => core.saveState(name, value),
      }),
      config,
      api,
      workspace: runner.workspace,
      // A copy of the action in the checkout runs again with the secrets after the session (the
      // post step, modules loaded on first use): it is the agent's to change under no setting.
      protectedPaths: protectedPatterns(config.protectedPaths, config.allowProtectedChanges, own),
      runUrl: runner.runUrl,
      env,
      signal: controller.signal,
      log: LOG,
    });
    if (outcome.error !== undefined) core.setFailed(outcome.error);
  } catch (error) {
    setOutputs({ conclusion: "failure" });
    core.setFailed(describeError(error));
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
