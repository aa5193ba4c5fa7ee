/**
 * The end of a run on GitHub: what the agent left is committed and pushed on the thread's branch
 * (after an early stop too — nothing paid for is thrown away), and the thread's pull request is
 * opened or updated; then how the run ended, as the progress comment and the outputs tell it.
 */
import type { SessionResult } from "../domain/loop.ts";
import type { Config } from "../config/config.ts";
import { describeError } from "../errors.ts";
import type { Task } from "../domain/task.ts";
import type { GitHubApi } from "./api.ts";
import type { PullInfo } from "../domain/conversation.ts";
import type { PreparedBranch } from "../git/branch.ts";
import { audienceOf, defusePlain } from "../present/defuse.ts";
import type { Ending, PullLink, PullOperation } from "../domain/ending.ts";
import { pullRequestText } from "../present/pull-request.ts";
import { branchDiffstat, publish, pullRequestItems, refuseSecrets } from "../git/publish.ts";
import { scanForSecrets } from "../git/secret-scan.ts";
import { allToolCallsFailed } from "./report.ts";
import type { ToolTally } from "../domain/run-state.ts";

export interface DeliverOptions {
  task: Task;
  config: Pick<Config, "githubToken" | "allowWorkflowChanges" | "draft">;
  /** What the push may not change (protectedPatterns: the repository's rules, the action's own files). */
  protectedPaths: readonly string[];
  /** Every secret value the harness knows (knownSecrets): none may be pushed. */
  secrets: string[];
  api: GitHubApi;
  workspace: string;
  runUrl: string;
  log: { info(message: string): void };
  prepared: PreparedBranch;
  result: SessionResult;
  /** The issue's (or PR's) title on an issue or PR thread. */
  issueTitle: string | undefined;
  tally: ToolTally;
  /** Called once the branch holds the run's work on origin (before the PR is asked for). */
  onPushed: (branch: string, sha: string) => void;
  /** The harness's own section of the PR body (a CI repair's proof). */
  section?: string;
  /** Open (or keep) the PR as a draft even when the agent finished (a proof that does not hold). */
  draft?: boolean;
  /** The PR's title, over the one the model's summary gives. */
  title?: string;
}

function linkOf(pull: PullInfo, operation: PullOperation): PullLink {
  return { number: pull.number, url: pull.htmlUrl, draft: pull.draft, operation };
}

/**
 * After the session: commit and push what the agent left (also after an early stop — nothing paid
 * for is thrown away), then open or update the thread's PR; a draft when the work is unfinished.
 */
export async function deliver(options: DeliverOptions): Promise<Ending> {
  const { task, config, api, prepared, result, issueTitle, tally, onPushed } = options;
  const text = (diffstat: string): { title: string; body: string } =>
    pullRequestText({
      task,
      issueTitle,
      summary: result.summary,
      stopReason: result.stopReason,
      diffstat,
      runUrl: options.runUrl,
      totals: result,
      section: options.section,
      title: options.title,
    });
  const planned = text("");
  const published = await publish({
    workspace: options.workspace,
    branch: prepared.branch,
    base: prepared.base,
    startSha: prepared.startSha,
    message:
      `${planned.title}\n\n${defusePlain(result.summary, audienceOf(task, options.runUrl))}`.trim(),
    coAuthor: task.requester,
    token: config.githubToken,
    secrets: options.secrets,
    texts: pullRequestItems(planned),
    pullRequestText: text,
    allowWorkflowChanges: config.allowWorkflowChanges,
    protectedPaths: options.protectedPaths,
  });
  for (const note of published.notes) options.log.info(note);
  if (published.outcome === "pushed" || prepared.reused)
    onPushed(prepared.branch, published.sha ?? prepared.startSha);

  // A reused branch already holds earlier runs' work: its PR is opened or updated even when this
  // run added nothing.
  if (published.outcome === "no-changes") {
    if (allToolCallsFailed(tally)) {
      return {
        phase: "failed",
        error:
          "every tool call failed, so the agent could not work on the repository (see the job log for each call's error); this is a failure, not an absence of changes",
      };
    }
    if (result.stopReason === "model_error" && !prepared.reused) {
      return { phase: "failed", error: describeError(result.error) };
    }
    // A reused branch whose work is all in the base already (its pull request was merged) has
    // nothing to propose: GitHub refuses a pull request without commits.
    const merged =
      prepared.reused && (await branchDiffstat(options.workspace, prepared.base)).trim() === "";
    if (!prepared.reused || merged) {
      return result.stopReason === "done"
        ? { phase: "no-changes", summary: result.summary }
        : { phase: "stopped", stopReason: result.stopReason, summary: result.summary };
    }
  }

  // The text as posted, diffstat included, is scanned again right before it is posted: publish
  // scanned it before its push, but a run that pushed nothing new made it only now.
  const final =
    published.pullRequest ?? text(await branchDiffstat(options.workspace, prepared.base));
  refuseSecrets(scanForSecrets(pullRequestItems(final), options.secrets));
  const existing = await api.findOpenPull(prepared.branch, prepared.base);
  const finished = result.stopReason === "done";
  const draft = config.draft || options.draft === true;
  let opened = existing
    ? await api.updatePull(existing.number, final)
    : await api.createPull({
        ...final,
        head: prepared.branch,
        base: prepared.base,
        draft: draft || !finished,
      });
  // A draft an early stop opened is ready once a later run finishes the work.
  if (opened.draft && finished && !draft) opened = await api.markReady(opened);
  const pull = linkOf(opened, existing ? "updated" : "created");
  if (result.stopReason === "done") return { phase: "done", summary: result.summary, pull };
  if (result.stopReason === "model_error")
    return { phase: "failed", error: describeError(result.error), pull };
  return { phase: "stopped", stopReason: result.stopReason, summary: result.summary, pull };
}
