/**
 * createCiApi against the fake GitHub (a real HTTP server, a real bare repository, storage links
 * that expire): the failing attempt's jobs (not the latest attempt's), logs followed through the
 * redirect without our token and asked for again when the link expired, annotations, JUnit reports
 * from a deflated artifact zip, the last green run before the failure, the commits since it, the
 * workflow file at a commit, the re-run, and a missing permission named with what to add.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { createCiApi, gatherFailedJobs } from "../../src/github/ci.ts";
import type { CiApi } from "../../src/github/ci.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { startGitHubServer, type FakeGitHub } from "../support/github-server.ts";

const TOKEN = "ghs_citest";
let github: FakeGitHub;
let api: CiApi;
let first: string;
let second: string;

before(async () => {
  const fixture = createFixtureRepo("github-ci");
  fixtureGit(fixture.repo, "mv", "calc.js", "sum.js");
  fixtureGit(fixture.repo, "commit", "-q", "-m", "Rename calc to sum");
  const bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  first = fixtureGit(bare, "rev-parse", "main~1");
  second = fixtureGit(bare, "rev-parse", "main");
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
  api = createCiApi({
    token: TOKEN,
    baseUrl: github.url,
    owner: github.owner,
    repo: github.repo,
    retry: { retries: 0, delayMs: 1 },
  });
  github.addRun({
    id: 10,
    path: ".github/workflows/ci.yml",
    headSha: first,
    createdAt: "2026-12-01T09:00:00Z",
    attempts: [{ jobs: [{ name: "test", conclusion: "success" }] }],
  });
  github.addRun({
    id: 11,
    path: ".github/workflows/ci.yml",
    headSha: second,
    createdAt: "2026-12-02T09:00:00Z",
    attempts: [
      {
        jobs: [
          { name: "lint", conclusion: "success" },
          {
            name: "test",
            conclusion: "failure",
            steps: [{ name: "Run npm test", conclusion: "failure" }],
            log: "\ufeff2026-12-02T09:01:00.0000000Z FAIL sum.test.js\n",
            annotations: [{ path: "sum.js", startLine: 2, level: "failure", message: "wrong sum" }],
          },
        ],
      },
      { jobs: [{ name: "test", conclusion: "success" }] },
    ],
  });
  github.artifacts.putArtifact({
    name: "test-reports",
    runId: 11,
    deflate: true,
    files: {
      "junit.xml":
        '<?xml version="1.0"?><testsuites><testsuite name="s"><testcase name="adds"><failure message="no"/></testcase></testsuite></testsuites>',
      "other.xml": "<project><name>not a report</name></project>",
    },
  });
});

after(() => github.close());

describe("the CI evidence API", () => {
  test("the run as it stands is its latest attempt; attempt 1 is as it was", async () => {
    const now = await api.run(11);
    assert.equal(now.attempt, 2);
    assert.equal(now.conclusion, "success");
    const then = await api.run(11, 1);
    assert.equal(then.attempt, 1);
    assert.equal(then.conclusion, "failure");
  });

  test("the failed jobs of attempt 1, with their logs, annotations and the run's reports", async () => {
    const jobs = await gatherFailedJobs(api, 11, 1);
    assert.deepEqual(
      jobs.map((job) => job.name),
      ["test"],
    );
    const [job] = jobs;
    assert.match(job!.log, /FAIL sum\.test\.js/);
    assert.deepEqual(job!.steps, [{ name: "Run npm test", number: 1, conclusion: "failure" }]);
    assert.equal(job!.annotations[0]?.path, "sum.js");
    assert.deepEqual(Object.keys(job!.reports), ["test-reports/junit.xml"]);
    const logFetches = github.links
      .filter((link) => link.kind === "job-log")
      .flatMap((link) => link.fetches);
    assert.ok(logFetches.length > 0);
    assert.ok(
      logFetches.every((fetch) => !fetch.authorization),
      "storage gets no token",
    );
  });

  test("an expired log link is asked for again", async () => {
    const [job] = await api.failedJobs(11, 1);
    github.expireNextLinks(1);
    assert.match(await api.jobLog(job!.id), /FAIL sum\.test\.js/);
  });

  test("the last green run before the failure, and the commits since it with their files", async () => {
    const failing = await api.run(11, 1);
    const green = await api.lastGreenRun(failing.workflowId, "main", "2026-12-02T09:00:00Z");
    assert.equal(green?.id, 10);
    assert.equal(green?.headSha, first);
    const { commits, truncated } = await api.commitsBetween(first, second);
    assert.equal(truncated, false);
    assert.deepEqual(
      commits.map((commit) => commit.subject),
      ["Rename calc to sum"],
    );
    assert.deepEqual(commits[0]?.files.sort(), ["calc.js", "sum.js"]);
  });

  test("a file at a commit, and none where it is absent", async () => {
    assert.match((await api.fileAt("package.json", second)) ?? "", /"test"/);
    assert.equal(await api.fileAt(".github/workflows/none.yml", second), undefined);
  });

  test("re-running the failed jobs adds an attempt", async () => {
    github.addRun({
      id: 12,
      path: ".github/workflows/ci.yml",
      attempts: [{ jobs: [{ name: "test", conclusion: "failure" }] }],
    });
    await api.rerunFailedJobs(12);
    assert.equal(github.run(12)?.attempts.length, 2);
  });

  test("a token without actions: read is told what to add", async () => {
    github.setTokenPermissions({ actions: "none" });
    try {
      await assert.rejects(api.failedJobs(11, 1), (error: unknown) => {
        assert.ok(error instanceof PitcrewError);
        assert.equal(error.code, "github-permission-missing");
        assert.match(error.message, /add `actions: read` to the workflow job's `permissions:`/);
        return true;
      });
    } finally {
      github.setTokenPermissions({ actions: "write" });
    }
  });
});
