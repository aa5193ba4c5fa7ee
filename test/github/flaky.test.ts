/**
 * createFlakyApi against the fake GitHub (a real HTTP server over a real bare repository): a
 * workflow's runs on a branch since a date, paged past 100 and cut at the limit; each attempt's
 * start and conclusion and its jobs with the attempt that ran them, a partial re-run included;
 * the labelled issues, closed ones too and no pull requests; opening and editing them; whether a
 * pull request was merged; and a missing permission named with what to add.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { createCiApi } from "../../src/github/ci.ts";
import { createFlakyApi, type FlakyApi } from "../../src/github/flaky.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import {
  startGitHubServer,
  type FakeGitHub,
  type TokenAccess,
  type TokenScope,
} from "../support/github-server.ts";

const TOKEN = "ghs_flakytest";
const CI = ".github/workflows/ci.yml";
/** A GitHub App's token, so that what it opens is not github-actions[bot]'s by default. */
const APP = { login: "pitcrew-app[bot]", id: 149_000_001, type: "Bot" };
let github: FakeGitHub;
let api: FlakyApi;
let sha: string;

/** Run ids by minute after 2026-03-01T00:00:00Z: runs of ci.yml on main, one a minute. */
const onMain: number[] = [];

function minute(n: number): string {
  return new Date(Date.UTC(2026, 2, 1) + n * 60_000).toISOString().replace(/\.000Z$/, "Z");
}

function runListings(): { query: Record<string, string> }[] {
  return github.requests.filter((r) => r.path.endsWith("/actions/workflows/ci.yml/runs"));
}

async function refusedFor(
  permissions: Partial<Record<TokenScope, TokenAccess>>,
  request: () => Promise<unknown>,
  add: string,
): Promise<void> {
  github.setTokenPermissions(permissions);
  try {
    await assert.rejects(request, (error: unknown) => {
      assert.ok(error instanceof PitcrewError, String(error));
      assert.equal(error.code, "github-permission-missing");
      assert.ok(
        error.message.includes(`add \`${add}\` to the workflow job's \`permissions:\``),
        error.message,
      );
      return true;
    });
  } finally {
    const restored = Object.fromEntries(Object.keys(permissions).map((scope) => [scope, "write"]));
    github.setTokenPermissions(restored);
  }
}

before(async () => {
  const fixture = createFixtureRepo("github-flaky");
  const bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.repo, "checkout", "-q", "-b", "fix/flaky-adds");
  fixtureGit(fixture.repo, "commit", "-q", "--allow-empty", "-m", "Fix the flaky add test");
  fixtureGit(fixture.repo, "checkout", "-q", "main");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  sha = fixtureGit(bare, "rev-parse", "main");
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare, actor: APP });
  api = createFlakyApi({
    token: TOKEN,
    baseUrl: github.url,
    owner: github.owner,
    repo: github.repo,
    retry: { retries: 0, delayMs: 1 },
  });
  for (let n = 0; n < 150; n++) {
    onMain.push(github.addRun({ path: CI, headSha: sha, createdAt: minute(n) }).id);
  }
  // Within the window but not the history asked for: another branch, another workflow.
  github.addRun({ path: CI, headBranch: "feature", headSha: sha, createdAt: minute(100) });
  github.addRun({ path: ".github/workflows/nightly.yml", headSha: sha, createdAt: minute(100) });
  // Before it.
  github.addRun({ path: CI, headSha: sha, createdAt: "2026-02-27T12:00:00Z" });
});

after(() => github.close());

describe("the run history", () => {
  test("runs of the workflow on the branch since the date, newest first, every page", async () => {
    const before = runListings().length;
    const runs = await api.runsSince("ci.yml", "main", minute(30), 500);
    assert.deepEqual(
      runs.map((run) => run.id),
      onMain.slice(30).reverse(),
    );
    assert.deepEqual(runs[0], {
      id: onMain[149],
      workflowPath: CI,
      headSha: sha,
      createdAt: minute(149),
      htmlUrl: `https://github.com/Codertocat/Hello-World/actions/runs/${onMain[149]}`,
      attempts: 1,
      conclusion: "success",
    });
    const listings = runListings().slice(before);
    assert.deepEqual(
      listings.map((listing) => [listing.query.page ?? "1", listing.query.per_page]),
      [
        ["1", "100"],
        ["2", "100"],
      ],
    );
    assert.deepEqual(
      [listings[0]?.query.branch, listings[0]?.query.created],
      ["main", `>=${minute(30)}`],
    );
  });

  test("at most `limit` runs, without asking for pages it does not need", async () => {
    const before = runListings().length;
    const runs = await api.runsSince("ci.yml", "main", minute(0), 10);
    assert.deepEqual(
      runs.map((run) => run.id),
      onMain.slice(140).reverse(),
    );
    assert.equal(runListings().length - before, 1);
    assert.deepEqual(await api.runsSince("ci.yml", "main", minute(0), 0), []);
  });

  test("a `since` between whole seconds leaves out the run of the second before it", async () => {
    const since = new Date(Date.parse(minute(148)) + 500).toISOString();
    const runs = await api.runsSince("ci.yml", "main", since, 500);
    assert.deepEqual(
      runs.map((run) => run.id),
      [onMain[149]],
    );
  });

  test("the workflow named by its id; a run's attempts are its latest run_attempt", async () => {
    const rerun = github.addRun({
      path: CI,
      headSha: sha,
      createdAt: minute(200),
      attempts: [
        { jobs: [{ name: "test", conclusion: "failure" }] },
        { jobs: [{ name: "test", conclusion: "success" }] },
      ],
    });
    const ci = createCiApi({
      token: TOKEN,
      baseUrl: github.url,
      owner: github.owner,
      repo: github.repo,
      retry: { retries: 0 },
    });
    const { workflowId } = await ci.run(rerun.id);
    const [newest] = await api.runsSince(String(workflowId), "main", minute(200), 5);
    assert.deepEqual([newest?.id, newest?.attempts, newest?.conclusion], [rerun.id, 2, "success"]);
  });

  test("each attempt's start and conclusion, and its jobs with the attempt that ran them after a partial re-run", async () => {
    const run = github.addRun({
      path: CI,
      headSha: sha,
      createdAt: minute(300),
      attempts: [
        {
          startedAt: "2026-03-02T10:00:00Z",
          jobs: [
            { name: "lint", conclusion: "success" },
            { name: "test", conclusion: "failure" },
            { name: "build", conclusion: "success" },
          ],
        },
        {
          startedAt: "2026-03-02T10:20:00Z",
          kept: ["lint", "build"],
          jobs: [{ name: "test", conclusion: "success" }],
        },
      ],
    });
    assert.deepEqual(await api.attempt(run.id, 1), {
      attempt: 1,
      conclusion: "failure",
      startedAt: "2026-03-02T10:00:00Z",
    });
    assert.deepEqual(await api.attempt(run.id, 2), {
      attempt: 2,
      conclusion: "success",
      startedAt: "2026-03-02T10:20:00Z",
    });
    const [lint, failed, build] = run.attempts[0]?.jobs ?? [];
    assert.deepEqual(await api.attemptJobs(run.id, 1), [
      { id: lint?.id, name: "lint", conclusion: "success", runAttempt: 1 },
      { id: failed?.id, name: "test", conclusion: "failure", runAttempt: 1 },
      { id: build?.id, name: "build", conclusion: "success", runAttempt: 1 },
    ]);
    const second = await api.attemptJobs(run.id, 2);
    assert.deepEqual(
      second.map((job) => [job.name, job.conclusion, job.runAttempt]),
      [
        ["lint", "success", 1],
        ["build", "success", 1],
        ["test", "success", 2],
      ],
    );
    assert.deepEqual([second[0]?.id, second[1]?.id], [lint?.id, build?.id]);
    assert.notEqual(second[2]?.id, failed?.id);
  });

  test("every job of an attempt, past the first page", async () => {
    const jobs = Array.from({ length: 130 }, (_, i) => ({ name: `shard ${i + 1}` }));
    const run = github.addRun({ path: CI, headSha: sha, attempts: [{ jobs }] });
    const listed = await api.attemptJobs(run.id, 1);
    assert.equal(listed.length, 130);
    assert.equal(listed.at(-1)?.name, "shard 130");
  });

  test("a token without actions: read is told what to add", async () => {
    await refusedFor(
      { actions: "none" },
      () => api.runsSince("ci.yml", "main", minute(0), 5),
      "actions: read",
    );
  });
});

describe("the tracking issues", () => {
  test("every issue with the label, open and closed, over pages, and no pull requests", async () => {
    for (let n = 1; n <= 105; n++) {
      github.addIssue({
        number: n,
        title: `Flaky: test ${n}`,
        body: `test ${n}`,
        user: APP.login,
        labels: ["flaky-test"],
      });
    }
    github.addIssue({
      number: 106,
      title: "Flaky: not ours",
      body: null,
      user: "octocat",
      state: "closed",
      stateReason: "not_planned",
      labels: ["flaky-test", "wontfix"],
    });
    github.addIssue({
      number: 107,
      title: "Quarantine adds",
      body: "",
      user: APP.login,
      pullRequest: true,
      labels: ["flaky-test"],
    });
    github.addIssue({ number: 108, title: "Unrelated", body: "", user: "octocat" });

    const before = github.requests.length;
    const issues = await api.labelledIssues("flaky-test");
    assert.deepEqual(
      issues.map((issue) => issue.number).sort((a, b) => a - b),
      Array.from({ length: 106 }, (_, i) => i + 1),
    );
    const listings = github.requests
      .slice(before)
      .filter((r) => r.path === "/repos/Codertocat/Hello-World/issues");
    assert.deepEqual(
      listings.map((r) => [r.query.page ?? "1", r.query.state, r.query.labels]),
      [
        ["1", "all", "flaky-test"],
        ["2", "all", "flaky-test"],
      ],
    );
    assert.deepEqual(
      issues.find((issue) => issue.number === 106),
      {
        number: 106,
        state: "closed",
        stateReason: "not_planned",
        title: "Flaky: not ours",
        body: "",
        author: { login: "octocat", type: "User" },
        labels: ["flaky-test", "wontfix"],
        htmlUrl: "https://github.com/Codertocat/Hello-World/issues/106",
      },
    );
    const ours = issues.find((issue) => issue.number === 7);
    assert.deepEqual(
      [ours?.state, ours?.stateReason, ours?.body, ours?.author],
      ["open", null, "test 7", { login: APP.login, type: "Bot" }],
    );
  });

  test("an issue opened with labels: the ones the repository lacks are made, the token's account is its author", async () => {
    const made = await api.createIssue({
      title: "Flaky: sum adds",
      body: "Failed 3 of 40 runs.",
      labels: ["flaky-test", "flaky:async-wait"],
    });
    assert.equal(made.htmlUrl, `https://github.com/Codertocat/Hello-World/issues/${made.number}`);
    const issue = github.issues().find((candidate) => candidate.number === made.number);
    assert.deepEqual(
      [issue?.user.login, issue?.title, issue?.body, issue?.state, issue?.labels],
      [
        APP.login,
        "Flaky: sum adds",
        "Failed 3 of 40 runs.",
        "open",
        ["flaky-test", "flaky:async-wait"],
      ],
    );
    assert.ok(github.labels().some((label) => label.name === "flaky:async-wait"));
    const found = (await api.labelledIssues("flaky:async-wait")).map((found) => found.number);
    assert.deepEqual(found, [made.number]);
  });

  test("an issue edited, closed as not planned, and reopened", async () => {
    const { number } = await api.createIssue({ title: "Flaky: t", body: "b", labels: [] });
    const stored = () => github.issues().find((issue) => issue.number === number);
    await api.updateIssue(number, { title: "Flaky: t (3 runs)", body: "b, again" });
    assert.deepEqual(
      [stored()?.title, stored()?.body, stored()?.state],
      ["Flaky: t (3 runs)", "b, again", "open"],
    );
    await api.updateIssue(number, { state: "closed", stateReason: "not_planned" });
    assert.deepEqual([stored()?.state, stored()?.stateReason], ["closed", "not_planned"]);
    assert.ok(stored()?.closedAt !== null);
    await api.updateIssue(number, { state: "open", stateReason: "reopened" });
    assert.deepEqual(
      [stored()?.state, stored()?.stateReason, stored()?.closedAt],
      ["open", "reopened", null],
    );
    await api.updateIssue(number, { state: "closed" });
    assert.deepEqual([stored()?.state, stored()?.stateReason], ["closed", "completed"]);
  });

  test("a token without issues: write is told to add it, to read the issues as to write them", async () => {
    await refusedFor({ issues: "none" }, () => api.labelledIssues("flaky-test"), "issues: write");
    await refusedFor(
      { issues: "read" },
      () => api.createIssue({ title: "t", body: "", labels: ["flaky-test"] }),
      "issues: write",
    );
    await refusedFor(
      { issues: "read" },
      () => api.updateIssue(1, { state: "closed" }),
      "issues: write",
    );
    assert.equal(github.issues().find((issue) => issue.number === 1)?.state, "open");
  });
});

describe("the fix's pull request", () => {
  test("not merged while open; merged, and when, once merged", async () => {
    const pull = github.addPull({
      number: 500,
      title: "Fix the flaky add test",
      body: null,
      user: APP.login,
      head: { ref: "fix/flaky-adds" },
      base: { ref: "main" },
    });
    assert.deepEqual(await api.pullMerged(pull.number), { merged: false, mergedAt: null });
    github.mergePull(pull.number, "2026-03-05T08:30:00Z");
    assert.deepEqual(await api.pullMerged(pull.number), {
      merged: true,
      mergedAt: "2026-03-05T08:30:00Z",
    });
    await refusedFor(
      { "pull-requests": "none" },
      () => api.pullMerged(pull.number),
      "pull-requests: read",
    );
  });
});
