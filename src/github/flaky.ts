/**
 * What scheduled flaky-test triage reads and writes on GitHub's REST API: a workflow's runs on a
 * branch since a date, each attempt of a run and that attempt's jobs (with the attempt that really
 * ran each: a partial re-run lists the jobs it kept under their old `run_attempt`), the tracking
 * issues under a label, opening and editing them, and whether a fix's pull request was merged.
 * Effects only; finding the flakes in the history is flaky/'s.
 */
import type { GitHubApiOptions } from "./client.ts";
import { jobsOfAttempt } from "./ci.ts";
import { createOctokit, namedCalls } from "./client.ts";

/** One run of a workflow, as the runs list shows it (its latest attempt). */
export interface HistoryRunRow {
  id: number;
  /** The workflow's file (`.github/workflows/ci.yml`). */
  workflowPath: string;
  headSha: string;
  createdAt: string;
  htmlUrl: string;
  /** Its latest `run_attempt`: attempts 1 to this one exist. */
  attempts: number;
  conclusion: string | null;
}

export interface HistoryAttemptRow {
  attempt: number;
  conclusion: string | null;
  /** `run_started_at`: when this attempt began. */
  startedAt: string;
}

export interface HistoryJobRow {
  id: number;
  name: string;
  conclusion: string | null;
  /** The attempt that ran the job: earlier than the one listed for a job a re-run kept. */
  runAttempt: number;
}

/** An issue (never a pull request) that triage tracks a flake in. */
export interface TrackedIssue {
  number: number;
  state: "open" | "closed";
  /** Why it was closed or reopened (`completed`, `not_planned`, …); null if never closed. */
  stateReason: string | null;
  title: string;
  body: string;
  /** Who opened it: triage trusts its own issues, and reads a person's as a person's. */
  author: { login: string; type: string };
  labels: string[];
  htmlUrl: string;
}

export interface IssueChange {
  title?: string;
  body?: string;
  state?: "open" | "closed";
  /** Counts only where `state` changes it. */
  stateReason?: "completed" | "not_planned" | "reopened";
}

export interface FlakyApi {
  /**
   * Runs of a workflow (its file name or id) on `branch` created at or after `since` (ISO), newest
   * first, at most `limit` (pages of 100; GitHub lists the first 1,000 of a filtered list only).
   */
  runsSince(
    workflow: string,
    branch: string,
    since: string,
    limit: number,
  ): Promise<HistoryRunRow[]>;
  /** Attempt `attempt` of a run: its conclusion and `run_started_at`. */
  attempt(runId: number, attempt: number): Promise<HistoryAttemptRow>;
  /** Every job listed under attempt `attempt` (all pages), each with the attempt that ran it. */
  attemptJobs(runId: number, attempt: number): Promise<HistoryJobRow[]>;
  /** The issues (not pull requests) with the label, open and closed, all pages, newest first. */
  labelledIssues(label: string): Promise<TrackedIssue[]>;
  /** Opens an issue; labels the repository lacks are made. */
  createIssue(issue: {
    title: string;
    body: string;
    labels: string[];
  }): Promise<{ number: number; htmlUrl: string }>;
  updateIssue(number: number, change: IssueChange): Promise<void>;
  /** Whether pull request `number` is merged, and when. */
  pullMerged(number: number): Promise<{ merged: boolean; mergedAt: string | null }>;
}

const PAGE = 100;
/** GitHub pages through this many runs of a filtered list, no more. */
const RUNS_LISTED = 1000;

/** `since` as GitHub's `created` qualifier takes it: whole seconds, UTC. */
function createdSince(since: string): string {
  const at = Date.parse(since);
  if (Number.isNaN(at)) throw new RangeError(`runsSince: ${since} is not an ISO date`);
  return `>=${new Date(Math.floor(at / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z")}`;
}

export function createFlakyApi(options: GitHubApiOptions): FlakyApi {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);
  const actionsRead = "actions: read";
  // Reading the issues needs only `issues: read`, but triage writes them too: one fix, not two.
  const issuesWrite = "issues: write";

  return {
    runsSince: (workflow, branch, since, limit) =>
      call(
        `list the runs of workflow ${workflow} on ${branch} since ${since}`,
        async () => {
          const wanted = Math.min(Math.max(limit, 0), RUNS_LISTED);
          if (wanted === 0) return [];
          const from = Date.parse(since);
          const rows: HistoryRunRow[] = [];
          const pages = octokit.paginate.iterator(octokit.rest.actions.listWorkflowRuns, {
            owner,
            repo,
            workflow_id: workflow,
            branch,
            created: createdSince(since),
            per_page: PAGE,
          });
          for await (const { data } of pages) {
            for (const run of data) {
              // The query is whole seconds; `since` may not be.
              if (Date.parse(run.created_at) < from) continue;
              rows.push({
                id: run.id,
                workflowPath: run.path,
                headSha: run.head_sha,
                createdAt: run.created_at,
                htmlUrl: run.html_url,
                attempts: run.run_attempt ?? 1,
                conclusion: run.conclusion,
              });
            }
            if (rows.length >= wanted) break;
          }
          return rows.slice(0, wanted);
        },
        actionsRead,
      ),

    attempt: (runId, attempt) =>
      call(
        `read attempt ${attempt} of workflow run ${runId}`,
        async () => {
          const { data } = await octokit.rest.actions.getWorkflowRunAttempt({
            owner,
            repo,
            run_id: runId,
            attempt_number: attempt,
          });
          return {
            attempt: data.run_attempt ?? attempt,
            conclusion: data.conclusion,
            startedAt: data.run_started_at ?? data.created_at,
          };
        },
        actionsRead,
      ),

    attemptJobs: (runId, attempt) =>
      call(
        `list the jobs of run ${runId} attempt ${attempt}`,
        async () => {
          const jobs = await jobsOfAttempt(octokit, { owner, repo }, runId, attempt);
          return jobs.map((job) => ({
            id: job.id,
            name: job.name,
            conclusion: job.conclusion,
            runAttempt: job.run_attempt ?? attempt,
          }));
        },
        actionsRead,
      ),

    labelledIssues: (label) =>
      call(
        `list the issues labelled ${label}`,
        async () => {
          const listed = await octokit.paginate(octokit.rest.issues.listForRepo, {
            owner,
            repo,
            labels: label,
            state: "all",
            per_page: PAGE,
          });
          // GitHub lists pull requests among the issues, marked with `pull_request`.
          return listed
            .filter((issue) => issue.pull_request === undefined)
            .map((issue): TrackedIssue => ({
              number: issue.number,
              state: issue.state === "closed" ? "closed" : "open",
              stateReason: issue.state_reason ?? null,
              title: issue.title,
              body: issue.body ?? "",
              author: {
                login: issue.user?.login ?? "ghost",
                type: issue.user?.type ?? "User",
              },
              labels: issue.labels.flatMap((entry) => {
                const name = typeof entry === "string" ? entry : entry.name;
                return name === undefined ? [] : [name];
              }),
              htmlUrl: issue.html_url,
            }));
        },
        issuesWrite,
      ),

    createIssue: (issue) =>
      call(
        `open the issue "${issue.title}"`,
        async () => {
          const { data } = await octokit.rest.issues.create({ owner, repo, ...issue });
          return { number: data.number, htmlUrl: data.html_url };
        },
        issuesWrite,
      ),

    updateIssue: (number, change) =>
      call(
        `edit issue #${number}`,
        async () => {
          await octokit.rest.issues.update({
            owner,
            repo,
            issue_number: number,
            ...(change.title === undefined ? {} : { title: change.title }),
            ...(change.body === undefined ? {} : { body: change.body }),
            ...(change.state === undefined ? {} : { state: change.state }),
            ...(change.stateReason === undefined ? {} : { state_reason: change.stateReason }),
          });
        },
        issuesWrite,
      ),

    pullMerged: (number) =>
      call(
        `read pull request #${number}`,
        async () => {
          const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
          return { merged: data.merged, mergedAt: data.merged_at };
        },
        "pull-requests: read",
      ),
  };
}
