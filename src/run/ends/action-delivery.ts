/**
 * The action's delivery: the progress comment on the thread while the agent works, then the push,
 * the pull request opened or updated, and how the run went told to the thread (the comment), the
 * run's page (the job summary) and the workflow (the outputs).
 */
import { describeError } from "../../errors.ts";
import { NO_WORK, conclusionOf } from "../../domain/ending.ts";
import type { Ending, ProgressState } from "../../domain/ending.ts";
import type { LoopEvent, SessionResult } from "../../domain/loop.ts";
import type { RunState } from "../../domain/run-state.ts";
import type { Task } from "../../domain/task.ts";
import { threadNumber } from "../../domain/task.ts";
import { deliver } from "../../github/deliver.ts";
import type { DeliverOptions } from "../../github/deliver.ts";
import { createProgressComment } from "../../github/progress.ts";
import { setOutputs, writeJobSummary } from "../../github/report.ts";
import { withholdSecrets } from "../../git/secret-scan.ts";
import { contextMermaid } from "../../report/mermaid.ts";
import type { DeliveryPort, RunRecord } from "../ports.ts";
import type { ThreadWorkspace } from "./action-workspace.ts";

/** How a run on a thread ended, and its branch once pushed (an output even if the PR failed). */
export interface Delivered {
  ending: Ending;
  branch?: string;
}

export type ThreadDeliveryOptions = Pick<
  DeliverOptions,
  "task" | "config" | "api" | "workspace" | "runUrl" | "secrets" | "protectedPaths"
> & {
  /** The issue's (or PR's) title, for the PR; undefined for a dispatch. */
  issueTitle: () => Promise<string | undefined>;
  /** The log's groups, which fold the loop's events by turn. */
  groups: { observe(event: LoopEvent): void };
  log: { info(message: string): void; warning(message: string): void };
  /**
   * Asked right before the push with the session's result: the PR body's section of the harness's
   * own, and whether the PR must be a draft (a CI repair's proof).
   */
  beforeDeliver?: (
    result: SessionResult,
    workspace: ThreadWorkspace,
  ) => Promise<Pick<DeliverOptions, "section" | "draft" | "title">>;
  /** The job summary's section of the harness's own, read when the report is written. */
  summarySection?: () => string | undefined;
  /** Uploads the run's page once the notes are saved (action-report.ts): its URL, if it went up. */
  publishReport?: (record: RunRecord, pullUrl?: string) => Promise<string | undefined>;
};

export function threadDelivery(
  options: ThreadDeliveryOptions,
): DeliveryPort<ThreadWorkspace, Delivered> {
  const { task, api, secrets, groups, log } = options;
  // Every comment body and the job summary pass the secret check on their way out (the runner
  // masks only the secrets' plain values).
  const withhold = (text: string): string => withholdSecrets(text, secrets);
  const comment = createProgressComment({
    api: {
      createComment: (issue, body) => api.createComment(issue, withhold(body)),
      updateComment: (id, body) => api.updateComment(id, withhold(body)),
    },
    issueNumber: threadNumber(task.thread),
    log,
  });
  const frame = { task, runUrl: options.runUrl };
  return {
    begin: () => comment.start({ ...frame, ...NO_WORK, phase: "working" }),
    observe: (event, state) => {
      groups.observe(event);
      comment.update(working(frame, state));
    },
    handOver: async (result, state, workspace) => {
      let pushed: { branch: string; sha: string } | undefined;
      try {
        const extra = await options.beforeDeliver?.(result, workspace);
        const ending = await deliver({
          ...options,
          ...extra,
          prepared: workspace.prepared,
          result,
          issueTitle: await options.issueTitle(),
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
    report: async ({ ending, branch }, record) => {
      const { state, notes } = record;
      const pull = "pull" in ending ? ending.pull : undefined;
      const reportUrl = await options.publishReport?.(record, pull?.url);
      const final = {
        ...frame,
        todos: state.todos,
        totals: state.totals,
        thread: notes?.state.cumulative,
        reportUrl,
        ...ending,
      };
      await comment.finish(final);
      await writeJobSummary(
        {
          ...final,
          tally: state.tally,
          branch,
          section: options.summarySection?.(),
          chart: notes === undefined ? undefined : contextMermaid(notes.transcript),
        },
        log,
        withhold,
      );
      setOutputs({
        conclusion: conclusionOf(ending.phase),
        pull: ending.phase === "refused" || ending.phase === "no-changes" ? undefined : ending.pull,
        branch,
        totals: state.totals,
      });
    },
  };
}

function working(frame: { task: Task; runUrl: string }, state: RunState): ProgressState {
  return {
    ...frame,
    todos: state.todos,
    activity: state.activity,
    totals: state.totals,
    phase: "working",
  };
}
