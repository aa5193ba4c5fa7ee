/**
 * The history a flaky triage reads (src/run/ends/flaky-history.ts) from the fake GitHub: the
 * window and the branch, every attempt of a re-run run with its jobs (a partial re-run's kept job
 * under its old attempt), no jobs read for commits that never failed, failing tests from the log's
 * excerpt, or from the run's JUnit report when its one failed job is the report's, and Surefire's
 * runner retries from a green run's report — then what detection makes of it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createCiApi } from "../../src/github/ci.ts";
import { createFlakyApi } from "../../src/github/flaky.ts";
import { detectFlakes } from "../../src/flaky/detect.ts";
import { gatherHistory } from "../../src/run/ends/flaky-history.ts";
import type { History } from "../../src/run/ends/flaky-history.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { startGitHubServer } from "../support/github-server.ts";
import type { FakeGitHub } from "../support/github-server.ts";
import { runnerLog } from "../support/runner-log.ts";
import { join } from "node:path";

const TOKEN = "ghs_flakyHistoryToken0123456789abcdefghij";
const CI = ".github/workflows/ci.yml";
const sha = (n: number): string => String(n).repeat(40).slice(0, 40);
const ago = (hours: number): string => new Date(Date.now() - hours * 3_600_000).toISOString();

let github: FakeGitHub;
let history: History;
const warnings: string[] = [];

before(async () => {
  const fixture = createFixtureRepo("flaky-history");
  const bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
  const where = { token: TOKEN, baseUrl: github.url, owner: github.owner, repo: github.repo };
  const jest = (test: string) => runnerLog("npx jest", [" FAIL  src/a.test.ts", `  ● ${test}`]);
  // A partial re-run: lint passed once and is kept; test failed, then passed.
  github.addRun({
    id: 1,
    path: CI,
    headSha: sha(1),
    createdAt: ago(30),
    attempts: [
      {
        startedAt: ago(30),
        jobs: [
          { name: "lint", conclusion: "success" },
          { name: "test", conclusion: "failure", log: jest("a › retries") },
        ],
      },
      { startedAt: ago(29), kept: ["lint"], jobs: [{ name: "test", conclusion: "success" }] },
    ],
  });
  // One attempt, one failed job, a report naming its failing test; then a pass on the same commit.
  github.addRun({
    id: 2,
    path: CI,
    headSha: sha(2),
    createdAt: ago(20),
    attempts: [
      {
        jobs: [
          { name: "test", conclusion: "failure", log: runnerLog("mvn test", ["BUILD FAILURE"]) },
        ],
      },
    ],
  });
  github.artifacts.putArtifact({
    name: "reports",
    runId: 2,
    deflate: true,
    files: {
      "TEST-Cache.xml":
        '<testsuite><testcase classname="com.x.CacheTest" name="expires"><failure message="expected 0"/></testcase></testsuite>',
    },
  });
  github.addRun({
    id: 3,
    path: CI,
    headSha: sha(2),
    createdAt: ago(19),
    attempts: [{ jobs: [{ name: "test", conclusion: "success" }] }],
  });
  // A green run whose report holds a runner retry.
  github.addRun({ id: 4, path: CI, headSha: sha(3), createdAt: ago(10) });
  github.artifacts.putArtifact({
    name: "reports",
    runId: 4,
    deflate: true,
    files: {
      "TEST-Net.xml":
        '<testsuite><testcase classname="com.x.NetTest" name="binds"><flakyFailure message="port in use"/></testcase></testsuite>',
    },
  });
  // Out of the window, and on another branch: not read.
  github.addRun({ id: 5, path: CI, headSha: sha(4), createdAt: ago(24 * 20) });
  github.addRun({ id: 6, path: CI, headSha: sha(5), createdAt: ago(5), headBranch: "feature" });
  history = await gatherHistory({
    flaky: createFlakyApi(where),
    ci: createCiApi(where),
    workflows: ["ci.yml"],
    branch: "main",
    since: ago(24 * 14),
    log: { info: () => undefined, warning: (message) => warnings.push(message) },
  });
});

after(() => github.close());

describe("the triage's history", () => {
  test("the window's runs on the branch, each attempt, jobs only where the commit failed", () => {
    assert.deepEqual(history.runs.map((run) => run.id).sort(), [1, 2, 3, 4]);
    const rerun = history.runs.find((run) => run.id === 1)!;
    assert.deepEqual(
      rerun.attempts.map((attempt) => attempt.jobs.map((job) => [job.name, job.runAttempt])),
      [
        [
          ["lint", 1],
          ["test", 1],
        ],
        [
          ["lint", 1],
          ["test", 2],
        ],
      ],
    );
    // Run 4's commit never failed: its jobs were not asked for.
    assert.deepEqual(history.runs.find((run) => run.id === 4)!.attempts[0]!.jobs, []);
    assert.deepEqual(warnings, []);
  });

  test("failing tests from the log, or from the report of a run's one failed job", () => {
    const failed = history.runs.find((run) => run.id === 1)!.attempts[0]!.jobs[1]!;
    assert.deepEqual(failed.failingTests, ["a › retries"]);
    const pinned = history.runs.find((run) => run.id === 2)!.attempts[0]!.jobs[0]!;
    assert.deepEqual(pinned.failingTests, ["com.x.CacheTest.expires"]);
    assert.ok(history.excerpts.size >= 2);
  });

  test("detection: a re-run flake, an other-run flake, a runner retry", () => {
    const detection = detectFlakes(history.runs);
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(detection.flakes).map(([test, list]) => [
          test,
          list.map((one) => one.evidence),
        ]),
      ),
      {
        "a › retries": ["rerun-passed"],
        "com.x.CacheTest.expires": ["other-run-passed"],
        "com.x.NetTest.binds": ["junit-retry"],
      },
    );
    assert.deepEqual(detection.commits, { total: 3, redOnlyFromFlakes: 2 });
  });
});
