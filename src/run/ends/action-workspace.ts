/**
 * The action's workspace: the thread's branch in the runner's checkout, made or taken up again
 * from the base (the PR's head branch for work on a PR, the default branch otherwise).
 */
import type { Config } from "../../config/config.ts";
import type { PullInfo } from "../../domain/conversation.ts";
import type { Task } from "../../domain/task.ts";
import { prepareThreadBranch } from "../../git/branch.ts";
import type { PreparedBranch } from "../../git/branch.ts";
import type { Workspace, WorkspacePort } from "../ports.ts";

export type ThreadWorkspace = Workspace & { prepared: PreparedBranch };

/** The branch of a thread: one per issue, PR or dispatched run, so re-runs update it. */
export function threadBranch(task: Task, prefix: string): string {
  const { thread } = task;
  if (thread.kind === "issue") return `${prefix}issue-${thread.number}`;
  if (thread.kind === "pr") return `${prefix}pr-${thread.number}`;
  // `ci-<the branch, made a name>`, as the event parser keyed the thread.
  if (thread.kind === "ci" || thread.kind === "triage") return `${prefix}${task.threadKey}`;
  return `${prefix}task-${thread.runId}`;
}

export function threadWorkspace(options: {
  task: Task;
  config: Config;
  /** The runner's checkout. */
  checkout: string;
  /** The pull request the thread is, once authorised; undefined for an issue or a dispatch. */
  pull: () => Promise<PullInfo | undefined>;
  log: { info(message: string): void };
  /** The branch to start from, when it is neither the PR's head nor the default (a CI repair's
   * failing branch). */
  base?: string;
}): WorkspacePort<ThreadWorkspace> {
  const { task, config, checkout, pull, log } = options;
  return {
    open: async () => {
      // Work on a PR lands on a branch of its own, proposed into the PR's head branch.
      const base = options.base ?? (await pull())?.head.ref ?? task.repository.defaultBranch;
      const prepared = await prepareThreadBranch({
        workspace: checkout,
        branch: threadBranch(task, config.branchPrefix),
        base,
        token: config.githubToken,
      });
      log.info(
        `${prepared.reused ? "continuing" : "starting"} branch ${prepared.branch} from ${base} at ${prepared.startSha.slice(0, 12)}`,
      );
      return {
        path: checkout,
        branch: prepared.branch,
        baseBranch: base,
        baseSha: prepared.baseSha,
        repository: `${task.repository.owner}/${task.repository.repo}`,
        prepared,
      };
    },
  };
}
