/**
 * Synthetic run histories for the flaky-test triage's tests (src/flaky/): a run is its commit and
 * its attempts, each attempt the jobs it lists, written as `passed("test")`, `failed("test",
 * ["a.test.ts > a"])` or `carried("lint")` — a job a partial re-run did not re-run, listed again
 * under the new attempt with the id and `runAttempt` of the attempt that ran it, as GitHub does.
 */
import type { HistoryJob, HistoryRun } from "../../src/domain/flaky.ts";

/** A commit id made from a small number, so tests can say "commit 1" and "commit 2". */
export function sha(n: number): string {
  return n.toString(16).padStart(40, "0");
}

/** The minute `n` after a fixed start, as GitHub writes times. */
export function minute(n: number): string {
  return new Date(Date.UTC(2026, 6, 1, 8, 0) + n * 60_000).toISOString().replace(".000Z", "Z");
}

export type JobSpec =
  | {
      name: string;
      conclusion: string | null;
      failingTests?: string[];
      firstError?: string | null;
    }
  | { carried: string };

export const passed = (name: string): JobSpec => ({ name, conclusion: "success" });

export const failed = (
  name: string,
  failingTests: string[] = [],
  firstError: string | null = `Error: ${name} failed`,
  conclusion = "failure",
): JobSpec => ({ name, conclusion, failingTests, firstError });

export const noEvidence = (name: string, conclusion: string | null): JobSpec => ({
  name,
  conclusion,
});

export const carried = (name: string): JobSpec => ({ carried: name });

export interface RunOptions {
  workflow?: string;
  /** The minute its first attempt started; attempt k starts k − 1 minutes later. */
  start?: number;
  junitFlaky?: HistoryRun["junitFlaky"];
}

/**
 * Run `id` on commit `commit`, one array of jobs per attempt. Job ids are unique across runs
 * (run × 1000 + attempt × 100 + position); a carried job keeps the id it ran with.
 */
export function historyRun(
  id: number,
  commit: number,
  attempts: JobSpec[][],
  { workflow = ".github/workflows/ci.yml", start = id * 10, junitFlaky }: RunOptions = {},
): HistoryRun {
  const ran = new Map<string, HistoryJob>();
  return {
    id,
    workflow,
    headSha: sha(commit),
    createdAt: minute(start),
    htmlUrl: `https://github.com/o/r/actions/runs/${id}`,
    attempts: attempts.map((jobs, index) => {
      const attempt = index + 1;
      return {
        attempt,
        conclusion: null,
        startedAt: minute(start + index),
        jobs: jobs.map((spec, position) => {
          if ("carried" in spec) {
            const earlier = ran.get(spec.carried);
            if (earlier === undefined) throw new Error(`${spec.carried} never ran before`);
            return earlier;
          }
          const job: HistoryJob = {
            id: id * 1000 + attempt * 100 + position,
            runAttempt: attempt,
            ...spec,
          };
          ran.set(spec.name, job);
          return job;
        }),
      };
    }),
    ...(junitFlaky === undefined ? {} : { junitFlaky }),
  };
}
