/**
 * The evidence of a failed workflow run, read from GitHub's REST API: the run and the attempt
 * that failed, that attempt's failed jobs (`/attempts/{n}/jobs`: the plain jobs list shows only
 * the latest attempt), each job's log (the API answers with a link to storage that expires in a
 * minute: followed at once, without our token), check-run annotations, JUnit reports among the
 * run's artifacts, the last green run on the branch and the commits since, the workflow file at
 * the failing commit; and the one write, re-running a flaky run's failed jobs. Effects only; the
 * reading is ci/'s.
 */
import type { Annotation, FailedJob, JobStep } from "../domain/ci.ts";
import { PitcrewError } from "../errors.ts";
import { isJunit } from "../ci/junit.ts";
import { unpack, unpackBudget } from "../git/secret-unpack.ts";
import type { GitHubApiOptions } from "./client.ts";
import { createOctokit, failureOf, namedCalls } from "./client.ts";

/** A run as it stands now (its latest attempt), or as attempt `attempt` was. */
export interface RunInfo {
  id: number;
  attempt: number;
  status: string | null;
  conclusion: string | null;
  workflowId: number;
  headSha: string;
  createdAt: string;
}

export interface JobInfo {
  id: number;
  name: string;
  conclusion: string;
  steps: JobStep[];
}

export interface GreenRun {
  id: number;
  htmlUrl: string;
  headSha: string;
}

export interface CommitInfo {
  sha: string;
  subject: string;
  author: string;
  files: string[];
}

export interface CiApi {
  run(runId: number, attempt?: number): Promise<RunInfo>;
  /** The jobs of attempt `attempt` that failed, timed out or were cancelled, all pages. */
  failedJobs(runId: number, attempt: number): Promise<JobInfo[]>;
  jobLog(jobId: number): Promise<string>;
  annotations(checkRunId: number): Promise<Annotation[]>;
  /** JUnit XML among the run's artifacts (file → text); `skipped` says what could not be read. */
  junitReports(runId: number): Promise<{ reports: Record<string, string>; skipped: string[] }>;
  /** The newest successful run of the workflow on the branch created before `before`. */
  lastGreenRun(workflowId: number, branch: string, before: string): Promise<GreenRun | undefined>;
  /** The commits after `base` up to `head`, oldest first (GitHub lists 250 at most). */
  commitsBetween(
    base: string,
    head: string,
  ): Promise<{ commits: CommitInfo[]; truncated: boolean }>;
  fileAt(path: string, ref: string): Promise<string | undefined>;
  rerunFailedJobs(runId: number): Promise<void>;
  /** The open pull request from `owner:branch` (a fork's head too), by number. */
  openPullFrom(headOwner: string, branch: string): Promise<number | undefined>;
}

const FAILED = new Set(["failure", "timed_out", "cancelled"]);
const PAGE = 100;
/** Artifacts looked into for reports, and the most of their zips read. */
const REPORT_ARTIFACTS = 10;
const REPORT_ARTIFACT_BYTES = 64 * 1024 * 1024;
/** Report files kept, and their text in all: enough for any excerpt's failing tests. */
const REPORT_FILES = 50;
const REPORT_BYTES = 16 * 1024 * 1024;
/** GitHub's compare lists this many commits at most. */
const COMPARE_LIMIT = 250;
/** Commits whose files are asked for, newest first; the culprit is usually among them. */
const FILES_OF = 30;

/** A storage link fetched without credentials: it carries its own signature. */
async function download(url: string): Promise<Response> {
  return fetch(url, { redirect: "follow" });
}

/**
 * Every job listed under attempt `attempt` of a run, all pages (`/attempts/{n}/jobs`: the plain
 * jobs list shows only the latest attempt). CI repair keeps the failed ones, triage all of them.
 */
export function jobsOfAttempt(
  octokit: ReturnType<typeof createOctokit>,
  where: { owner: string; repo: string },
  runId: number,
  attempt: number,
) {
  return octokit.paginate(octokit.rest.actions.listJobsForWorkflowRunAttempt, {
    ...where,
    run_id: runId,
    attempt_number: attempt,
    per_page: PAGE,
  });
}

export function createCiApi(options: GitHubApiOptions): CiApi {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);
  const actionsRead = "actions: read";

  /** The storage link of a log or an artifact: the API's 302, not followed by octokit. */
  async function linkOf(route: string, params: Record<string, string | number>): Promise<string> {
    try {
      const response = await octokit.request(route, {
        owner,
        repo,
        ...params,
        request: { redirect: "manual" },
      });
      const location = (response.headers as Record<string, string | undefined>).location;
      if (location !== undefined) return location;
      return response.url;
    } catch (error) {
      const failure = failureOf(error);
      const location = failure?.headers.location;
      if (failure !== undefined && failure.status >= 300 && failure.status < 400 && location) {
        return String(location);
      }
      throw error;
    }
  }

  /** Follows a fresh link at once; an expired one (403/404 from storage) is asked for again once. */
  async function fetchLinked(
    route: string,
    params: Record<string, string | number>,
  ): Promise<Buffer> {
    for (let tries = 1; ; tries++) {
      const response = await download(await linkOf(route, params));
      if (response.ok) return Buffer.from(await response.arrayBuffer());
      if (tries >= 2 || (response.status !== 403 && response.status !== 404)) {
        throw new PitcrewError(
          "github-download-failed",
          `The storage link GitHub gave for ${route.replace(/^GET /, "")} answered ${response.status}; re-run pitcrew.`,
        );
      }
    }
  }

  const api: CiApi = {
    run: (runId, attempt) =>
      call(
        `read workflow run ${runId}`,
        async () => {
          const { data } =
            attempt === undefined
              ? await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId })
              : await octokit.rest.actions.getWorkflowRunAttempt({
                  owner,
                  repo,
                  run_id: runId,
                  attempt_number: attempt,
                });
          return {
            id: data.id,
            attempt: data.run_attempt ?? 1,
            status: data.status,
            conclusion: data.conclusion,
            workflowId: data.workflow_id,
            headSha: data.head_sha,
            createdAt: data.created_at,
          };
        },
        actionsRead,
      ),

    failedJobs: (runId, attempt) =>
      call(
        `list the jobs of run ${runId} attempt ${attempt}`,
        async () => {
          const jobs = await jobsOfAttempt(octokit, { owner, repo }, runId, attempt);
          return jobs
            .filter((job) => job.conclusion !== null && FAILED.has(job.conclusion))
            .map((job) => ({
              id: job.id,
              name: job.name,
              conclusion: job.conclusion ?? "failure",
              steps: (job.steps ?? []).map((step) => ({
                name: step.name,
                number: step.number,
                conclusion: step.conclusion,
              })),
            }));
        },
        actionsRead,
      ),

    jobLog: (jobId) =>
      call(
        `download the log of job ${jobId}`,
        async () =>
          (
            await fetchLinked("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
              job_id: jobId,
            })
          ).toString("utf8"),
        actionsRead,
      ),

    annotations: (checkRunId) =>
      call(
        `read the annotations of check run ${checkRunId}`,
        async () => {
          const listed = await octokit.paginate(octokit.rest.checks.listAnnotations, {
            owner,
            repo,
            check_run_id: checkRunId,
            per_page: PAGE,
          });
          return listed.map((annotation) => ({
            path: annotation.path,
            startLine: annotation.start_line,
            level: (annotation.annotation_level ?? "failure") as Annotation["level"],
            title: annotation.title ?? "",
            message: annotation.message ?? "",
          }));
        },
        "checks: read",
      ),

    async junitReports(runId) {
      const reports: Record<string, string> = {};
      const skipped: string[] = [];
      let artifacts: { id: number; name: string; size_in_bytes: number; expired: boolean }[];
      try {
        const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({
          owner,
          repo,
          run_id: runId,
          per_page: PAGE,
        });
        artifacts = data.artifacts;
      } catch (error) {
        return {
          reports,
          skipped: [
            `the run's artifacts could not be listed (${String(failureOf(error)?.message ?? error)})`,
          ],
        };
      }
      let total = 0;
      for (const artifact of artifacts.slice(0, REPORT_ARTIFACTS)) {
        if (artifact.expired) {
          skipped.push(`${artifact.name}: expired`);
          continue;
        }
        if (artifact.size_in_bytes > REPORT_ARTIFACT_BYTES) {
          skipped.push(`${artifact.name}: ${artifact.size_in_bytes} bytes, too big to look into`);
          continue;
        }
        let bytes: Buffer;
        try {
          bytes = await fetchLinked(
            "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
            { artifact_id: artifact.id, archive_format: "zip" },
          );
        } catch (error) {
          skipped.push(
            `${artifact.name}: ${String(error instanceof Error ? error.message : error)}`,
          );
          continue;
        }
        const { contents, problems } = unpack(`${artifact.name}.zip`, bytes, unpackBudget());
        for (const problem of problems)
          skipped.push(`${problem.names.join(": ")}: ${problem.kind}`);
        for (const content of contents) {
          const name = content.names.slice(1).join("/");
          if (!name.toLowerCase().endsWith(".xml")) continue;
          const text = content.bytes.toString("utf8");
          if (!isJunit(text)) continue;
          if (Object.keys(reports).length >= REPORT_FILES || total + text.length > REPORT_BYTES) {
            skipped.push(`${artifact.name}/${name}: past the reports' bounds`);
            continue;
          }
          total += text.length;
          reports[`${artifact.name}/${name}`] = text;
        }
      }
      return { reports, skipped };
    },

    lastGreenRun: (workflowId, branch, before) =>
      call(
        `list the successful runs of workflow ${workflowId} on ${branch}`,
        async () => {
          const { data } = await octokit.rest.actions.listWorkflowRuns({
            owner,
            repo,
            workflow_id: workflowId,
            branch,
            status: "success",
            per_page: PAGE,
          });
          const green = data.workflow_runs.find(
            (run) => Date.parse(run.created_at) < Date.parse(before),
          );
          return green === undefined
            ? undefined
            : { id: green.id, htmlUrl: green.html_url, headSha: green.head_sha };
        },
        actionsRead,
      ),

    commitsBetween: (base, head) =>
      call(
        `compare ${base.slice(0, 12)}...${head.slice(0, 12)}`,
        async () => {
          const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
            owner,
            repo,
            basehead: `${base}...${head}`,
            per_page: COMPARE_LIMIT,
          });
          const listed = data.commits;
          const withFiles = new Set(listed.slice(-FILES_OF).map((commit) => commit.sha));
          const commits = await Promise.all(
            listed.map(async (commit): Promise<CommitInfo> => {
              // A rename names both paths: a failure may name either.
              const files = withFiles.has(commit.sha)
                ? (
                    (await octokit.rest.repos.getCommit({ owner, repo, ref: commit.sha })).data
                      .files ?? []
                  ).flatMap((file) =>
                    file.previous_filename === undefined
                      ? [file.filename]
                      : [file.filename, file.previous_filename],
                  )
                : [];
              return {
                sha: commit.sha,
                subject: commit.commit.message.split("\n")[0] ?? "",
                author: commit.author?.login ?? commit.commit.author?.name ?? "unknown",
                files,
              };
            }),
          );
          return { commits, truncated: data.total_commits > listed.length };
        },
        "contents: read",
      ),

    fileAt: (path, ref) =>
      call(
        `read ${path} at ${ref.slice(0, 12)}`,
        async () => {
          try {
            const { data } = await octokit.rest.repos.getContent({ owner, repo, path, ref });
            if (Array.isArray(data) || data.type !== "file" || !("content" in data))
              return undefined;
            return Buffer.from(data.content, "base64").toString("utf8");
          } catch (error) {
            if (failureOf(error)?.status === 404) return undefined;
            throw error;
          }
        },
        "contents: read",
      ),

    rerunFailedJobs: (runId) =>
      call(
        `re-run the failed jobs of run ${runId}`,
        async () => {
          await octokit.rest.actions.reRunWorkflowFailedJobs({ owner, repo, run_id: runId });
        },
        "actions: write",
      ),

    openPullFrom: (headOwner, branch) =>
      call(
        `look for the open pull request from ${headOwner}:${branch}`,
        async () => {
          const { data } = await octokit.rest.pulls.list({
            owner,
            repo,
            head: `${headOwner}:${branch}`,
            state: "open",
            per_page: 1,
          });
          return data[0]?.number;
        },
        "pull-requests: read",
      ),
  };
  return api;
}

/** Each failed job of the attempt with its log and annotations; the run's reports on each. */
export async function gatherFailedJobs(
  api: CiApi,
  runId: number,
  attempt: number,
): Promise<FailedJob[]> {
  const [jobs, junit] = await Promise.all([
    api.failedJobs(runId, attempt),
    api.junitReports(runId),
  ]);
  return Promise.all(
    jobs.map(async (job) => {
      const [log, annotations] = await Promise.all([
        api.jobLog(job.id),
        // Annotations help; a token without `checks: read` still gets the repair.
        api.annotations(job.id).catch(() => []),
      ]);
      return { ...job, log, annotations, reports: junit.reports };
    }),
  );
}
