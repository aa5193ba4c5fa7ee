/**
 * The scene of the flaky-triage e2e tests: the fixture repository with a genuinely timing-dependent
 * test (a random amount of CPU work, up to 60 ms, against a 15 ms budget: it fails three runs in four), its CI
 * workflow and `.github/pitcrew.yml`; a history on the fake GitHub of the CI workflow on the default
 * branch — a run whose first attempt failed that test and whose re-run passed, a commit failing in
 * one run and passing in another, and a commit on which another test failed every attempt (broken);
 * the `schedule` payload; and the model's script that reproduces, fixes and proves the fix.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureGit } from "../support/fixture-repo.ts";
import { REPO_ID } from "../support/github-server.ts";
import type { FakeJobSpec } from "../support/github-server.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Turn } from "../support/model-server.ts";
import { schedulePayload } from "../support/payloads.ts";
import type { World } from "./harness.ts";
import { args } from "./scenes.ts";

export const CI_PATH = ".github/workflows/ci.yml";
export const TIMER_TEST = "timer fires within its budget";
export const BROKEN_TEST = "parser rejects bad input";
const BUDGET_LINE = "const BUDGET_MS = 15;";
const WIDE_LINE = "const BUDGET_MS = 2000;";

/** The repository: the timer test, CI that runs it, and the triage's settings. */
export function withFlakyTest(repo: string): void {
  writeFileSync(
    join(repo, "timer.test.js"),
    [
      'import assert from "node:assert/strict";',
      "// How long the work below may take: far too tight for a busy machine.",
      BUDGET_LINE,
      "const started = Date.now();",
      "const work = Math.random() * 60;",
      "while (Date.now() - started < work) {}",
      "const elapsed = Date.now() - started;",
      "assert.ok(elapsed < BUDGET_MS, `took ${elapsed} ms`);",
      'console.log("timer: ok");',
      "",
    ].join("\n"),
  );
  mkdirSync(join(repo, ".github", "workflows"), { recursive: true });
  writeFileSync(
    join(repo, CI_PATH),
    "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: node timer.test.js\n",
  );
  writeFileSync(
    join(repo, ".github", "pitcrew.yml"),
    "flaky-triage:\n  workflows: [ci.yml]\n  reruns: 10\n",
  );
  fixtureGit(repo, "add", ".");
  fixtureGit(repo, "commit", "-q", "-m", "a timer test, CI, and flaky triage");
}

/** A node:test job log in the runner's format that names the failing test. */
function failingLog(test: string, why: string): string {
  const lines = [
    "##[group]Run node --test",
    "shell: /usr/bin/bash -e {0}",
    "##[endgroup]",
    "TAP version 13",
    `not ok 1 - ${test}`,
    "  ---",
    `  error: '${why}'`,
    "  ...",
    "##[error]Process completed with exit code 1.",
  ];
  return `\ufeff${lines.map((line, i) => `2026-12-01T06:00:${String(i).padStart(2, "0")}.1234567Z ${line}`).join("\n")}\n`;
}

function job(conclusion: "success" | "failure", log?: string): FakeJobSpec {
  return {
    name: "test",
    conclusion,
    steps: [{ name: "Run node --test", conclusion }],
    ...(log === undefined ? {} : { log }),
  };
}

const hoursAgo = (hours: number): string => new Date(Date.now() - hours * 3_600_000).toISOString();
const sha = (n: number): string => String(n).repeat(40).slice(0, 40);

/** The history: the timer test flaky twice, the parser test broken on one commit. */
export function flakyHistory(made: World): void {
  const timer = failingLog(TIMER_TEST, "took 21 ms");
  made.github.addRun({
    id: 7001,
    path: CI_PATH,
    headSha: sha(1),
    createdAt: hoursAgo(72),
    attempts: [
      { startedAt: hoursAgo(72), jobs: [job("failure", timer)] },
      { startedAt: hoursAgo(71), jobs: [job("success")] },
    ],
  });
  made.github.addRun({
    id: 7002,
    path: CI_PATH,
    headSha: sha(2),
    createdAt: hoursAgo(48),
    attempts: [{ startedAt: hoursAgo(48), jobs: [job("failure", timer)] }],
  });
  made.github.addRun({
    id: 7003,
    path: CI_PATH,
    headSha: sha(2),
    createdAt: hoursAgo(47),
    attempts: [{ startedAt: hoursAgo(47), jobs: [job("success")] }],
  });
  const broken = failingLog(BROKEN_TEST, "accepted 'x'");
  made.github.addRun({
    id: 7004,
    path: CI_PATH,
    headSha: sha(3),
    createdAt: hoursAgo(24),
    attempts: [
      { startedAt: hoursAgo(24), jobs: [job("failure", broken)] },
      { startedAt: hoursAgo(23), jobs: [job("failure", broken)] },
    ],
  });
  made.github.addRun({ id: 7005, path: CI_PATH, headSha: sha(4), createdAt: hoursAgo(12) });
}

/** One more flake of the timer test, for a later triage. */
export function flakedAgain(made: World): void {
  made.github.addRun({
    id: 7006,
    path: CI_PATH,
    headSha: sha(5),
    createdAt: hoursAgo(1),
    attempts: [
      { startedAt: hoursAgo(1), jobs: [job("failure", failingLog(TIMER_TEST, "took 19 ms"))] },
      { startedAt: hoursAgo(0.5), jobs: [job("success")] },
    ],
  });
}

/** The `schedule` payload for this repository. */
export function schedule(made: World): unknown {
  const payload = schedulePayload() as { repository: Record<string, unknown> };
  const owner = payload.repository.owner as Record<string, unknown>;
  Object.assign(payload.repository, {
    id: REPO_ID,
    name: made.github.repo,
    full_name: `${made.github.owner}/${made.github.repo}`,
    default_branch: "main",
    owner: { ...owner, login: made.github.owner },
  });
  return payload;
}

const RERUN = { command: "node timer.test.js", condition: "isolated" };

/** Reproduce, widen the budget, prove it, record the verdict. */
export const FIX: readonly Turn[] = [
  callTools([{ name: "rerun", arguments: args(RERUN) }]),
  callTools([
    {
      name: "edit",
      arguments: args({ path: "timer.test.js", old_string: BUDGET_LINE, new_string: WIDE_LINE }),
    },
  ]),
  callTools([{ name: "rerun", arguments: args(RERUN) }]),
  callTools([
    {
      name: "flaky_verdict",
      arguments: args({
        category: "time",
        action: "fix",
        condition: "isolated",
        because: "The test's 15 ms budget is shorter than the random work it times.",
      }),
    },
  ]),
  say("Widen the timer test's budget\n\nThe 15 ms budget was tighter than the work it times."),
];

/**
 * The fix merged: the default branch fast-forwarded to the fix branch on "GitHub", with a shorter
 * look-back window committed on top (so a triage now sees the fix as older than its window), and
 * the pull request marked merged `hours` ago.
 */
export function mergeFix(
  made: World,
  pull: { number: number; branch: string },
  hours: number,
): void {
  const clone = join(made.root, `merge-${pull.number}`);
  fixtureGit(made.root, "clone", "-q", made.origin, clone);
  fixtureGit(clone, "merge", "-q", "--ff-only", `origin/${pull.branch}`);
  writeFileSync(
    join(clone, ".github", "pitcrew.yml"),
    "flaky-triage:\n  workflows: [ci.yml]\n  reruns: 10\n  lookback-days: 1\n",
  );
  fixtureGit(clone, "commit", "-q", "-am", "look back one day");
  fixtureGit(clone, "push", "-q", "origin", "main");
  made.github.mergePull(pull.number, hoursAgo(hours));
}

/**
 * A flake of the timer test after everything before it: its run starts two seconds from now, as
 * GitHub's times are whole seconds and the last triage may have ended within this one.
 */
export function flakedNow(made: World): void {
  const soon = new Date(Date.now() + 2000).toISOString();
  made.github.addRun({
    id: 7007,
    path: CI_PATH,
    headSha: sha(6),
    createdAt: soon,
    attempts: [
      { startedAt: soon, jobs: [job("failure", failingLog(TIMER_TEST, "took 18 ms"))] },
      { startedAt: soon, jobs: [job("success")] },
    ],
  });
}

/** After the fix is merged and the test flakes again: nothing reproduces now, so no change. */
export const FIX_THEN_NONE: readonly Turn[] = [
  ...FIX,
  callTools([{ name: "rerun", arguments: args(RERUN) }]),
  callTools([
    {
      name: "flaky_verdict",
      arguments: args({
        category: "unknown",
        action: "none",
        because: "0 of 10 with the widened budget; the new failure needs more evidence.",
      }),
    },
  ]),
  say("No change: the test passes every rerun with the fix"),
];
