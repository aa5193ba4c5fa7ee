/**
 * Finding flakes in a window of default-branch history: a job that failed and then passed on the
 * same commit (a re-run of its run, or another run of its workflow) failed by chance, and its tests
 * are flaky; a job that failed at least twice on a commit and never passed there is broken there,
 * not flaky; one failure and nothing else proves neither. Test runners' own retries (Surefire's
 * `flakyFailure`) are flakes inside green runs. Pure: fetching the runs, their jobs and their
 * reports is the caller's, and keeping what is found across triages is ledger.ts's.
 */
import type {
  BrokenTest,
  Detection,
  FlakeEvidence,
  FlakeOccurrence,
  HistoryAttempt,
  HistoryJob,
  HistoryRun,
} from "../domain/flaky.ts";
import { failureSignature, normaliseTests } from "../ci/signature.ts";

/** One job as it actually ran in one attempt (not carried over from an earlier one). */
interface Execution {
  run: HistoryRun;
  attempt: HistoryAttempt;
  job: HistoryJob;
  outcome: "passed" | "failed" | "no-evidence";
}

const FAILED = new Set(["failure", "timed_out"]);

function outcomeOf(conclusion: string | null): Execution["outcome"] {
  if (conclusion === "success") return "passed";
  if (conclusion !== null && FAILED.has(conclusion)) return "failed";
  return "no-evidence";
}

/**
 * Every job that ran, once: a job listed under attempt k ran in k only when its `runAttempt` is k
 * (a partial re-run lists the jobs it did not re-run again, as they were), and a job id seen once
 * is not counted again (the jobs API pages can repeat one).
 */
function executionsOf(runs: readonly HistoryRun[]): Execution[] {
  const seen = new Set<number>();
  const executions: Execution[] = [];
  for (const run of runs) {
    for (const attempt of run.attempts) {
      for (const job of attempt.jobs) {
        if (job.runAttempt !== attempt.attempt || seen.has(job.id)) continue;
        seen.add(job.id);
        executions.push({ run, attempt, job, outcome: outcomeOf(job.conclusion) });
      }
    }
  }
  return executions;
}

/** The same job of the same workflow on the same commit: what a pass must match to prove a flake. */
function keyOf(execution: Execution): string {
  return JSON.stringify([execution.run.workflow, execution.run.headSha, execution.job.name]);
}

/** The failed job's tests, or the job itself when its report or log named none. */
function testsOf(execution: Execution): string[] {
  const tests = normaliseTests(execution.job.failingTests ?? []);
  if (tests.length > 0) return tests;
  const workflowFile = execution.run.workflow.split("/").pop() ?? execution.run.workflow;
  return [`job:${workflowFile}/${execution.job.name}`];
}

function byTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b);
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Occurrences in the order they happened; runId, attempt, job and signature break ties, so the
 * detection and the ledger (which keeps the newest) order them the same on every run.
 */
export function byOccurrence(a: FlakeOccurrence, b: FlakeOccurrence): number {
  return (
    byTime(a.at, b.at) ||
    a.runId - b.runId ||
    a.attempt - b.attempt ||
    byText(a.job, b.job) ||
    byText(a.signature, b.signature)
  );
}

/** Collects occurrences per test, one per (run, attempt, job) per test. */
class FlakeTally {
  private readonly byTest = new Map<string, Map<string, FlakeOccurrence>>();

  add(test: string, occurrence: FlakeOccurrence): void {
    const occurrences = this.byTest.get(test) ?? new Map<string, FlakeOccurrence>();
    const where = JSON.stringify([occurrence.runId, occurrence.attempt, occurrence.job]);
    if (!occurrences.has(where)) occurrences.set(where, occurrence);
    this.byTest.set(test, occurrences);
  }

  /** Test ids in order, each with its occurrences in the order they happened. */
  flakes(): Record<string, FlakeOccurrence[]> {
    const tests = [...this.byTest.keys()].sort(byText);
    return Object.fromEntries(
      tests.map((test) => [test, [...this.byTest.get(test)!.values()].sort(byOccurrence)]),
    );
  }
}

function occurrenceOf(
  failed: Execution,
  evidence: FlakeEvidence,
  tests: readonly string[],
): FlakeOccurrence {
  const signature = failureSignature(failed.job.firstError ?? null, tests);
  return {
    runId: failed.run.id,
    attempt: failed.attempt.attempt,
    job: failed.job.name,
    workflow: failed.run.workflow,
    headSha: failed.run.headSha,
    at: failed.attempt.startedAt,
    signature: signature.key,
    firstError: signature.firstError,
    evidence,
    red: true,
  };
}

/**
 * The tests broken on one commit's job: those that failed in every one of its failed executions
 * (two at least, none passed). A test named by only some of them may have passed in the others,
 * so it is not called broken.
 */
function brokenOf(failed: readonly Execution[]): BrokenTest[] {
  if (failed.length < 2) return [];
  const [first, ...rest] = failed.map(testsOf);
  const everyTime = (first ?? []).filter((test) => rest.every((tests) => tests.includes(test)));
  const inOrder = [...failed].sort((a, b) => byTime(a.attempt.startedAt, b.attempt.startedAt));
  const last = inOrder[inOrder.length - 1]!;
  return everyTime.map((test) => ({
    test,
    headSha: last.run.headSha,
    attempts: inOrder.map((execution) => `${execution.run.id}/${execution.attempt.attempt}`),
    at: last.attempt.startedAt,
  }));
}

/** Broken tests, one per test and commit: the same test broken in several jobs (a matrix) joined. */
function joinBroken(broken: readonly BrokenTest[]): BrokenTest[] {
  const joined = new Map<string, BrokenTest>();
  for (const found of broken) {
    const key = JSON.stringify([found.test, found.headSha]);
    const known = joined.get(key);
    joined.set(
      key,
      known === undefined
        ? found
        : {
            ...known,
            attempts: [...new Set([...known.attempts, ...found.attempts])],
            at: byTime(found.at, known.at) > 0 ? found.at : known.at,
          },
    );
  }
  return [...joined.values()].sort((a, b) => byText(a.test, b.test) || byTime(a.at, b.at));
}

/** Surefire-style retries inside a run: flakes that never turned the run red. */
function junitRetries(run: HistoryRun, tally: FlakeTally): void {
  const last = run.attempts.reduce<HistoryAttempt | undefined>(
    (latest, attempt) =>
      latest === undefined || attempt.attempt > latest.attempt ? attempt : latest,
    undefined,
  );
  for (const retried of run.junitFlaky ?? []) {
    const [test] = normaliseTests([retried.id]);
    if (test === undefined) continue;
    const signature = failureSignature(retried.message, [test]);
    tally.add(test, {
      runId: run.id,
      attempt: last?.attempt ?? 1,
      job: "",
      workflow: run.workflow,
      headSha: run.headSha,
      at: last?.startedAt ?? run.createdAt,
      signature: signature.key,
      firstError: signature.firstError,
      evidence: "junit-retry",
      red: false,
    });
  }
}

/**
 * The flakes, broken tests and commit counts of `runs`: every run of the configured workflows on
 * the default branch in the window, with all its attempts and their jobs.
 */
export function detectFlakes(runs: readonly HistoryRun[]): Detection {
  const byKey = new Map<string, Execution[]>();
  for (const execution of executionsOf(runs)) {
    const key = keyOf(execution);
    const same = byKey.get(key) ?? [];
    same.push(execution);
    byKey.set(key, same);
  }

  const tally = new FlakeTally();
  const broken: BrokenTest[] = [];
  /** Per commit: whether it had a failure, and whether every failure had a pass on its key. */
  const red = new Map<string, { onlyFlakes: boolean }>();
  for (const executions of byKey.values()) {
    const passes = executions.filter((execution) => execution.outcome === "passed");
    const failures = executions.filter((execution) => execution.outcome === "failed");
    for (const failed of failures) {
      const commit = red.get(failed.run.headSha) ?? { onlyFlakes: true };
      commit.onlyFlakes &&= passes.length > 0;
      red.set(failed.run.headSha, commit);
    }
    if (passes.length === 0) {
      broken.push(...brokenOf(failures));
      continue;
    }
    for (const failed of failures) {
      const rerunPassed = passes.some(
        (pass) => pass.run.id === failed.run.id && pass.attempt.attempt > failed.attempt.attempt,
      );
      const tests = testsOf(failed);
      const occurrence = occurrenceOf(
        failed,
        rerunPassed ? "rerun-passed" : "other-run-passed",
        tests,
      );
      for (const test of tests) tally.add(test, occurrence);
    }
  }
  for (const run of runs) junitRetries(run, tally);

  return {
    flakes: tally.flakes(),
    broken: joinBroken(broken),
    commits: {
      total: new Set(runs.map((run) => run.headSha)).size,
      redOnlyFromFlakes: [...red.values()].filter((commit) => commit.onlyFlakes).length,
    },
  };
}
