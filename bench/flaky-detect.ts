/**
 * Flaky-test detection from re-run history (src/flaky/detect.ts, merged by flaky/ledger.ts) on
 * simulated repositories whose truth is known: 14 days of CI on the default branch, each commit
 * one run, each failed run re-run (its failed jobs only) with some probability, sometimes a second
 * run of the same commit; flaky tests fail at their own rates (some only on one job of a matrix,
 * some in pairs that share state), a broken test fails every run between two commits. Per case:
 * - recall: the flaky tests found, of those whose failure was followed by a pass on the same
 *   commit (what re-run history can show at all; goal ≥ 0.9);
 * - tests that fail together (shared state) in one entry (goal: every such group);
 * - precision: found flaky tests that are flaky (goal 1.0), and broken tests taken as flaky
 *   (goal 0);
 * - the share of commits red only because of flakes, as detected and as simulated (the detected
 *   share never above the true one);
 * - the time to detect and merge the whole history (median of the runs; goal ≤ 1 s on the big
 *   case), since a triage reads up to 300 runs per workflow.
 */
import type { HistoryJob, HistoryRun } from "../src/domain/flaky.ts";
import { detectFlakes } from "../src/flaky/detect.ts";
import { EMPTY_FLAKE_LEDGER, mergeDetection } from "../src/flaky/ledger.ts";
import { seeded } from "../test/support/random.ts";
import { stats } from "./rounds.ts";
import type { BenchOptions } from "./run.ts";

export const name = "flaky-detect";
export const description = "flaky-test detection from re-run history on simulated repositories";

const DAYS = 14;
const DEFAULT_RUNS = 5;
const GOAL_RECALL = 0.9;
const GOAL_BIG_MS = 1000;

interface Flake {
  test: string;
  /** The chance it fails in one execution of a job that runs it. */
  p: number;
  /** Only on these jobs (a matrix entry); every job by default. */
  jobs?: string[];
  /** Tests of one group fail together (shared state): one draw per group. */
  group?: string;
}

interface Case {
  name: string;
  jobs: string[];
  /** Tests that never fail, per job: only their count matters (they are in no failing list). */
  commitsPerDay: number;
  flakes: Flake[];
  /** A test failing on every run of the commits [from, to). */
  broken?: { test: string; from: number; to: number };
  /** The chance a failed run's failed jobs are re-run, at each attempt (up to 3). */
  rerun: number;
  /** The chance a commit gets a second run (a manual dispatch, a re-push). */
  secondRun: number;
}

const MATRIX = ["test (ubuntu)", "test (macos)", "test (windows)"];

const CASES: Case[] = [
  {
    name: "one job, three flakes",
    jobs: ["test"],
    commitsPerDay: 6,
    flakes: [
      { test: "api › retries on 503", p: 0.08 },
      { test: "cache › expires entries", p: 0.05 },
      { test: "ui › debounces input", p: 0.03 },
    ],
    rerun: 0.9,
    secondRun: 0.05,
  },
  {
    name: "matrix, one OS flaky",
    jobs: MATRIX,
    commitsPerDay: 8,
    flakes: [
      { test: "fs › watches a renamed file", p: 0.15, jobs: ["test (macos)"] },
      { test: "net › binds port 0", p: 0.04 },
    ],
    rerun: 0.8,
    secondRun: 0.1,
  },
  {
    name: "a pair sharing state",
    jobs: ["unit", "integration"],
    commitsPerDay: 5,
    flakes: [
      { test: "db › inserts a row", p: 0.1, jobs: ["integration"], group: "db" },
      { test: "db › counts rows", p: 0.1, jobs: ["integration"], group: "db" },
      { test: "clock › formats today", p: 0.04, jobs: ["unit"] },
    ],
    rerun: 0.9,
    secondRun: 0,
  },
  {
    name: "rarely re-run, a broken week",
    jobs: ["test"],
    commitsPerDay: 10,
    flakes: [
      { test: "queue › drains in order", p: 0.12 },
      { test: "timer › fires on time", p: 0.2 },
    ],
    broken: { test: "parser › rejects bad input", from: 40, to: 75 },
    rerun: 0.25,
    secondRun: 0.05,
  },
  {
    name: "big monorepo",
    jobs: Array.from({ length: 40 }, (_, i) => `shard ${i + 1}/40`),
    commitsPerDay: 20,
    flakes: Array.from({ length: 20 }, (_, i) => ({
      test: `pkg${i} › flaky case ${i}`,
      p: 0.02 + (i % 5) * 0.01,
      jobs: [`shard ${(i % 40) + 1}/40`],
    })),
    broken: { test: "core › boots", from: 100, to: 130 },
    rerun: 0.7,
    secondRun: 0.05,
  },
];

interface Simulated {
  runs: HistoryRun[];
  /** Flaky tests whose failure was followed by a pass of the same job on the same commit. */
  observable: Set<string>;
  /** Commits with a failure, and those whose every failure came from a flaky test. */
  redCommits: number;
  redOnlyFromFlakes: number;
  commits: number;
}

const sha = (n: number): string => n.toString(16).padStart(40, "0");

function simulate(one: Case, seed: number, now: number): Simulated {
  const random = seeded(seed);
  const commits = one.commitsPerDay * DAYS;
  const runs: HistoryRun[] = [];
  let jobId = 1;
  let runId = 1;
  const observable = new Set<string>();
  let redCommits = 0;
  let redOnlyFromFlakes = 0;

  /** The tests that fail in one execution of `job` at commit `k`. */
  const failing = (job: string, k: number): string[] => {
    const failed: string[] = [];
    const groups = new Map<string, boolean>();
    for (const flake of one.flakes) {
      if (flake.jobs !== undefined && !flake.jobs.includes(job)) continue;
      const draw =
        flake.group === undefined
          ? random() < flake.p
          : (groups.get(flake.group) ??
            (groups.set(flake.group, random() < flake.p), groups.get(flake.group)!));
      if (draw) failed.push(flake.test);
    }
    const broken = one.broken;
    if (broken !== undefined && k >= broken.from && k < broken.to && job === one.jobs[0]) {
      failed.push(broken.test);
    }
    return failed;
  };

  for (let k = 0; k < commits; k++) {
    const at = now - (commits - k) * ((DAYS * 86_400_000) / commits);
    const runsOfCommit = 1 + (random() < one.secondRun ? 1 : 0);
    /** Per job: every execution's failing tests (empty: passed). */
    const executions = new Map<string, string[][]>();
    for (let r = 0; r < runsOfCommit; r++) {
      const run: HistoryRun = {
        id: runId++,
        workflow: ".github/workflows/ci.yml",
        headSha: sha(k + 1),
        createdAt: new Date(at + r * 3_600_000).toISOString(),
        htmlUrl: "",
        attempts: [],
      };
      let toRun = one.jobs;
      const last = new Map<string, HistoryJob>();
      for (let attempt = 1; attempt <= 3 && toRun.length > 0; attempt++) {
        const startedAt = new Date(at + r * 3_600_000 + attempt * 600_000).toISOString();
        const jobs: HistoryJob[] = [];
        for (const name of one.jobs) {
          if (!toRun.includes(name)) {
            jobs.push(last.get(name)!);
            continue;
          }
          const tests = failing(name, k);
          executions.set(name, [...(executions.get(name) ?? []), tests]);
          const job: HistoryJob = {
            id: jobId++,
            name,
            conclusion: tests.length > 0 ? "failure" : "success",
            runAttempt: attempt,
            ...(tests.length > 0
              ? { failingTests: tests, firstError: `AssertionError: ${tests[0]} failed` }
              : {}),
          };
          last.set(name, job);
          jobs.push(job);
        }
        const failed = jobs.filter((job) => job.conclusion === "failure");
        run.attempts.push({
          attempt,
          conclusion: failed.length > 0 ? "failure" : "success",
          startedAt,
          jobs,
        });
        toRun = failed.length > 0 && random() < one.rerun ? failed.map((job) => job.name) : [];
      }
      runs.push(run);
    }
    let anyFailure = false;
    let onlyFlakes = true;
    for (const list of executions.values()) {
      const passed = list.some((tests) => tests.length === 0);
      for (const tests of list) {
        if (tests.length === 0) continue;
        anyFailure = true;
        if (tests.includes(one.broken?.test ?? "\0")) onlyFlakes = false;
        if (passed) for (const test of tests) observable.add(test);
      }
    }
    if (anyFailure) redCommits++;
    if (anyFailure && onlyFlakes) redOnlyFromFlakes++;
  }
  return { runs, observable, redCommits, redOnlyFromFlakes, commits };
}

function ratio(part: number, whole: number): string {
  return whole === 0 ? "–" : (part / whole).toFixed(2);
}

export function run(options: BenchOptions): Promise<void> {
  const measured = options.runs ?? DEFAULT_RUNS;
  const now = Date.UTC(2026, 11, 3);
  const nowIso = new Date(now).toISOString();
  process.stdout.write(
    `flaky-detect: ${CASES.length} simulated repositories, ${DAYS} days each; times are medians of ${measured} runs\n`,
  );
  let allMet = true;
  for (const [index, one] of CASES.entries()) {
    const simulated = simulate(one, 1000 + index, now);
    const flaky = new Set(one.flakes.map((flake) => flake.test));
    const times: number[] = [];
    let result = mergeDetection(EMPTY_FLAKE_LEDGER, detectFlakes(simulated.runs), nowIso);
    let detection = detectFlakes(simulated.runs);
    for (let i = 0; i < measured; i++) {
      const started = performance.now();
      detection = detectFlakes(simulated.runs);
      result = mergeDetection(EMPTY_FLAKE_LEDGER, detection, nowIso);
      times.push(performance.now() - started);
    }
    const entries = Object.values(result.ledger.entries);
    const found = new Set(
      entries.filter((entry) => entry.status === "open").flatMap((entry) => entry.tests),
    );
    const truePositives = [...found].filter((test) => flaky.has(test)).length;
    const recalled = [...simulated.observable].filter((test) => found.has(test)).length;
    const brokenAsFlaky = one.broken !== undefined && found.has(one.broken.test) ? 1 : 0;
    const recall = simulated.observable.size === 0 ? 1 : recalled / simulated.observable.size;
    const precision = found.size === 0 ? 1 : truePositives / found.size;
    const median = stats(times).median;
    const groups = [...new Set(one.flakes.flatMap((flake) => flake.group ?? []))];
    const grouped = groups.filter((group) => {
      const tests = one.flakes.filter((flake) => flake.group === group).map((flake) => flake.test);
      return entries.some((entry) => tests.every((test) => entry.tests.includes(test)));
    }).length;
    const overCounted = detection.commits.redOnlyFromFlakes > simulated.redOnlyFromFlakes;
    const met =
      recall >= GOAL_RECALL &&
      precision === 1 &&
      brokenAsFlaky === 0 &&
      !overCounted &&
      grouped === groups.length &&
      (one.name !== "big monorepo" || median <= GOAL_BIG_MS);
    allMet &&= met;
    const jobs = simulated.runs.reduce(
      (sum, run) => sum + run.attempts.reduce((n, attempt) => n + attempt.jobs.length, 0),
      0,
    );
    process.stdout.write(
      `  ${one.name.padEnd(28)} ${simulated.runs.length} runs, ${jobs} job rows: ` +
        `recall ${recalled}/${simulated.observable.size} (${ratio(recalled, simulated.observable.size)}; goal ≥ ${GOAL_RECALL}), ` +
        `precision ${truePositives}/${found.size} (goal 1.00), broken taken as flaky ${brokenAsFlaky} (goal 0), ` +
        (groups.length === 0
          ? ""
          : `co-failing groups in one entry ${grouped}/${groups.length}, `) +
        `red only from flakes: detected ${detection.commits.redOnlyFromFlakes} / simulated ${simulated.redOnlyFromFlakes} of ${simulated.commits} commits (${simulated.redCommits} red), ` +
        `${median.toFixed(1)} ms — ${met ? "met" : "MISSED"}\n`,
    );
  }
  process.stdout.write(`  every case: ${allMet ? "met" : "MISSED"}\n`);
  return Promise.resolve();
}
