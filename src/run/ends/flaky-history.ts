/**
 * The history a flaky-test triage reads, from GitHub alone: the runs of the configured workflows on
 * the default branch in the look-back window; for the commits that had a failed attempt, every
 * attempt's jobs (`/attempts/{n}/jobs`: the runs list shows only the latest attempt), the failed
 * jobs' logs excerpted for their failing tests and first error, and the runs' JUnit reports for
 * runner retries (Surefire's flaky markers) and, where a run's one failed job is known to be the
 * reports', its failing tests. Reading is bounded: the logs of the newest failures
 * first, the reports of the newest runs; what is left out is said in the log.
 */
import { excerptText } from "../../ci/excerpt.ts";
import { readJunit } from "../../ci/junit.ts";
import type { JunitReport } from "../../ci/junit.ts";
import type { HistoryAttempt, HistoryJob, HistoryRun } from "../../domain/flaky.ts";
import { describeError } from "../../errors.ts";
import type { CiApi } from "../../github/ci.ts";
import type { FlakyApi, HistoryRunRow } from "../../github/flaky.ts";

/** Runs read per workflow, newest first. */
export const RUNS_READ = 300;
/** Failed jobs whose logs are read per triage, newest first: each is one download. */
export const LOGS_READ = 40;
/** Runs whose JUnit artifacts are looked into for runner retries. */
export const REPORT_RUNS = 10;
/** Tokens of an excerpt kept for the prompt. */
const EXCERPT_TOKENS = 2000;

const FAILED = new Set(["failure", "timed_out"]);

export interface History {
  runs: HistoryRun[];
  /** The excerpt of each failed job's log, by job id. */
  excerpts: Map<number, { job: string; runId: number; text: string }>;
}

interface Options {
  flaky: FlakyApi;
  ci: CiApi;
  workflows: readonly string[];
  branch: string;
  since: string;
  log: { info(message: string): void; warning(message: string): void };
}

/** Every attempt of a run, with its jobs where its commit had a failure. */
async function attemptsOf(
  row: HistoryRunRow,
  withJobs: boolean,
  flaky: FlakyApi,
): Promise<HistoryAttempt[]> {
  const numbers = Array.from({ length: row.attempts }, (_, i) => i + 1);
  return Promise.all(
    numbers.map(async (attempt) => {
      const [info, jobs] = await Promise.all([
        row.attempts === 1
          ? { attempt, conclusion: row.conclusion, startedAt: row.createdAt }
          : flaky.attempt(row.id, attempt),
        withJobs ? flaky.attemptJobs(row.id, attempt) : [],
      ]);
      return { attempt, conclusion: info.conclusion, startedAt: info.startedAt, jobs };
    }),
  );
}

/** The failed jobs a run's attempts ran themselves. */
function failedOf(run: HistoryRun): HistoryJob[] {
  return run.attempts.flatMap((attempt) =>
    attempt.jobs.filter(
      (job) => job.runAttempt === attempt.attempt && FAILED.has(job.conclusion ?? ""),
    ),
  );
}

export async function gatherHistory(options: Options): Promise<History> {
  const { flaky, ci, log } = options;
  const rows = (
    await Promise.all(
      options.workflows.map((workflow) =>
        flaky.runsSince(workflow, options.branch, options.since, RUNS_READ),
      ),
    )
  ).flat();
  // A commit is worth reading jobs for once one of its runs failed at some attempt: the latest
  // conclusion hides a failure a re-run made green, so a re-run run counts too.
  const suspect = new Set(
    rows
      .filter((row) => row.attempts > 1 || FAILED.has(row.conclusion ?? ""))
      .map((row) => row.headSha),
  );
  const runs: HistoryRun[] = await Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      workflow: row.workflowPath,
      headSha: row.headSha,
      createdAt: row.createdAt,
      htmlUrl: row.htmlUrl,
      attempts: await attemptsOf(row, suspect.has(row.headSha), flaky),
    })),
  );

  const failedJobs = runs
    .flatMap((run) =>
      run.attempts.flatMap((attempt) =>
        attempt.jobs
          .filter((job) => job.runAttempt === attempt.attempt && FAILED.has(job.conclusion ?? ""))
          .map((job) => ({ run, attempt, job })),
      ),
    )
    .sort((a, b) => b.attempt.startedAt.localeCompare(a.attempt.startedAt));
  if (failedJobs.length > LOGS_READ) {
    log.info(
      `flaky triage: read the logs of the newest ${LOGS_READ} of ${failedJobs.length} failed jobs`,
    );
  }
  const excerpts: History["excerpts"] = new Map();
  await Promise.all(
    failedJobs.slice(0, LOGS_READ).map(async ({ run, job }) => {
      try {
        const excerpt = excerptText(await ci.jobLog(job.id), { maxTokens: EXCERPT_TOKENS });
        job.failingTests = excerpt.failingTests;
        job.firstError = excerpt.firstError;
        excerpts.set(job.id, { job: job.name, runId: run.id, text: excerpt.excerpt });
      } catch (error) {
        log.warning(
          `flaky triage: the log of job ${job.id} (run ${run.id}) was not read: ${describeError(error)}`,
        );
      }
    }),
  );

  // Reports of the newest runs (runner retries show only there, whatever the conclusion), and
  // of the runs whose one failed job they can be pinned on: one attempt, one failed job (an
  // artifact names no attempt, and a matrix's jobs share the run's artifacts).
  const pinned = runs.filter((run) => run.attempts.length === 1 && failedOf(run).length === 1);
  const newest = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const read = [...new Set([...newest.slice(0, REPORT_RUNS), ...pinned.slice(0, REPORT_RUNS)])];
  await Promise.all(
    read.map(async (run) => {
      let parsed: JunitReport[];
      try {
        const { reports } = await ci.junitReports(run.id);
        parsed = Object.entries(reports).flatMap(([file, xml]) => {
          try {
            return [readJunit(xml, file)];
          } catch {
            return [];
          }
        });
      } catch (error) {
        log.warning(
          `flaky triage: the reports of run ${run.id} were not read: ${describeError(error)}`,
        );
        return;
      }
      run.junitFlaky = parsed.flatMap((report) => report.flaky);
      const failing = parsed.flatMap((report) => report.failing);
      const [job] = failedOf(run);
      if (pinned.includes(run) && job !== undefined && failing.length > 0) {
        // The report names the failing tests better than the console (CI repair's order too).
        job.failingTests = failing.map((one) => one.id);
        job.firstError ??= failing[0]!.message;
      }
    }),
  );
  return { runs, excerpts };
}
