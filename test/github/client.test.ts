/**
 * createGitHubApi against the fake GitHub (a real HTTP server and a real bare repository): every
 * method maps GitHub's answers onto api.ts's shapes, transient failures are retried (as the
 * request log shows), and what a person must fix arrives as a named error that says what to do.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { GitHubApi } from "../../src/github/api.ts";
import { createGitHubApi } from "../../src/github/client.ts";
import { PitcrewError } from "../../src/errors.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { PR_NOT_PERMITTED, startGitHubServer, type FakeGitHub } from "../support/github-server.ts";

const TOKEN = "ghs_clienttest";
const RETRIES = 2;
let github: FakeGitHub;
let api: GitHubApi;
let bare: string;

function client(token = TOKEN): GitHubApi {
  return createGitHubApi({
    token,
    baseUrl: github.url,
    owner: "Codertocat",
    repo: "Hello-World",
    retry: { retries: RETRIES, delayMs: 1 },
  });
}

/** The statuses the fake answered for `method path`, in order. */
function answered(method: string, path: string): number[] {
  return github.requests.filter((r) => r.method === method && r.path === path).map((r) => r.status);
}

/** Asserts the promise fails with a PitcrewError of this code whose sentence matches. */
async function rejectsNamed(promise: Promise<unknown>, code: string, sentence: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof PitcrewError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, sentence);
    return true;
  });
}

before(async () => {
  const fixture = createFixtureRepo("github-client");
  bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  for (const branch of ["pitcrew/issue-1", "pitcrew/issue-2", "pitcrew/pr-5"]) {
    fixtureGit(fixture.repo, "checkout", "-q", "-b", branch, "main");
    fixtureGit(fixture.repo, "commit", "-q", "--allow-empty", "-m", `work on ${branch}`);
    fixtureGit(fixture.repo, "push", "-q", bare, branch);
  }
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
  github.addUser({ login: "octocat", id: 583231 });
  github.setPermission("octocat", "write");
  github.addIssue({ number: 1, title: "Found a bug", body: "It breaks.", user: "octocat" });
  api = client();
});

after(async () => {
  await github.close();
});

describe("every method, mapped onto api.ts's shapes", () => {
  test("repository()", async () => {
    assert.deepEqual(await api.repository(), {
      fullName: "Codertocat/Hello-World",
      defaultBranch: "main",
    });
  });

  test("permission(): role_name for maintain and triage, none for strangers and non-users", async () => {
    github.setPermission("mona", "maintain");
    github.setPermission("hubot", "triage");
    github.setPermission("reader", "read");
    github.addUser({ login: "outsider" });
    const logins = [
      "Codertocat",
      "octocat",
      "mona",
      "hubot",
      "reader",
      "outsider",
      "some-app[bot]",
    ];
    const permissions = await Promise.all(logins.map((login) => api.permission(login)));
    assert.deepEqual(permissions, ["admin", "write", "maintain", "triage", "read", "none", "none"]);
    assert.deepEqual(
      answered("GET", "/repos/Codertocat/Hello-World/collaborators/some-app[bot]/permission"),
      [404],
    );
  });

  test("issue(): an issue, and a pull request with an empty body", async () => {
    assert.deepEqual(await api.issue(1), {
      number: 1,
      title: "Found a bug",
      body: "It breaks.",
      user: { login: "octocat", id: 583231, type: "User" },
      authorAssociation: "COLLABORATOR",
      htmlUrl: "https://github.com/Codertocat/Hello-World/issues/1",
      isPullRequest: false,
    });
    github.addPull({
      number: 5,
      title: "Add a feature",
      body: null,
      user: "octocat",
      head: { ref: "pitcrew/pr-5" },
      base: { ref: "main" },
    });
    const pr = await api.issue(5);
    assert.deepEqual([pr.isPullRequest, pr.body], [true, ""]);
  });

  test("comments(): every page, oldest first", async () => {
    github.addIssue({ number: 2, title: "Chatty", body: null, user: "octocat" });
    for (let i = 1; i <= 120; i++) github.addComment(2, { body: `comment ${i}`, user: "octocat" });
    const comments = await api.comments(2);
    assert.equal(comments.length, 120);
    assert.deepEqual([comments[0]?.body, comments[119]?.body], ["comment 1", "comment 120"]);
    const first = comments[0];
    assert.ok(first);
    assert.deepEqual(first.user, { login: "octocat", id: 583231, type: "User" });
    assert.equal(first.authorAssociation, "COLLABORATOR");
    assert.equal(
      first.htmlUrl,
      `https://github.com/Codertocat/Hello-World/issues/2#issuecomment-${first.id}`,
    );
    assert.ok(!Number.isNaN(Date.parse(first.createdAt)));
    const pages = github.requests
      .filter((r) => r.path === "/repos/Codertocat/Hello-World/issues/2/comments")
      .map((r) => r.query.page ?? "1");
    assert.deepEqual(pages, ["1", "2"]);
  });

  test("createComment(), updateComment(), react()", async () => {
    const created = await api.createComment(1, "<!-- pitcrew -->\nWorking on it");
    const [comment] = github.comments(1);
    assert.ok(comment);
    assert.equal(created.id, comment.id);
    assert.equal(
      created.htmlUrl,
      `https://github.com/Codertocat/Hello-World/issues/1#issuecomment-${comment.id}`,
    );
    assert.equal(comment.user.login, "github-actions[bot]");

    await api.updateComment(created.id, "<!-- pitcrew -->\nDone");
    assert.equal(github.comments(1)[0]?.body, "<!-- pitcrew -->\nDone");

    await api.react(created.id, "eyes");
    await api.react(created.id, "eyes");
    await api.react(created.id, "rocket");
    assert.deepEqual(
      github.reactions(created.id).map((reaction) => reaction.content),
      ["eyes", "rocket"],
    );
  });

  test("pull(), findOpenPull(), createPull(), updatePull()", async () => {
    const headSha = fixtureGit(bare, "rev-parse", "pitcrew/issue-1");
    const mainSha = fixtureGit(bare, "rev-parse", "main");
    assert.equal(await api.findOpenPull("pitcrew/issue-1", "main"), undefined);

    const created = await api.createPull({
      title: "Fix #1",
      body: "Fixes #1",
      head: "pitcrew/issue-1",
      base: "main",
      draft: true,
    });
    const expected = {
      number: 6,
      nodeId: created.nodeId,
      title: "Fix #1",
      body: "Fixes #1",
      htmlUrl: "https://github.com/Codertocat/Hello-World/pull/6",
      draft: true,
      state: "open",
      head: { ref: "pitcrew/issue-1", sha: headSha, repoFullName: "Codertocat/Hello-World" },
      base: { ref: "main", sha: mainSha, repoFullName: "Codertocat/Hello-World" },
    };
    assert.deepEqual(created, expected);
    assert.deepEqual(await api.pull(6), expected);
    assert.deepEqual(await api.findOpenPull("pitcrew/issue-1", "main"), expected);
    assert.deepEqual(
      github.requests.findLast((r) => r.path === "/repos/Codertocat/Hello-World/pulls")?.query,
      { head: "Codertocat:pitcrew/issue-1", base: "main", state: "open", per_page: "1" },
    );

    const updated = await api.updatePull(6, { title: "Fix #1 (again)", body: "Fixes #1, really" });
    assert.deepEqual([updated.title, updated.body], ["Fix #1 (again)", "Fixes #1, really"]);
    assert.equal(github.pulls().find((pull) => pull.number === 6)?.title, "Fix #1 (again)");

    // Out of draft through GraphQL's mutation, the only way GitHub offers.
    assert.match(created.nodeId, /^PR_/);
    const ready = await api.markReady(updated);
    assert.equal(ready.draft, false);
    assert.equal(github.pulls().find((pull) => pull.number === 6)?.draft, false);
    assert.equal(github.requests.at(-1)?.path, "/graphql");
  });

  test("createPull() for a head that already has an open pull returns that pull", async () => {
    const pull = { title: "Fix #2", body: "", head: "pitcrew/issue-2", base: "main", draft: false };
    const first = await api.createPull(pull);
    const again = await api.createPull({ ...pull, title: "Fix #2, second run" });
    assert.deepEqual(again, first);
    assert.deepEqual(answered("POST", "/repos/Codertocat/Hello-World/pulls").slice(-2), [201, 422]);
    assert.equal(github.pulls().filter((p) => p.head.ref === "pitcrew/issue-2").length, 1);
  });
});

describe("failures", () => {
  const ISSUE = "/repos/Codertocat/Hello-World/issues/1";

  test("a 502 twice, then an answer: retried, and the answer returned", async () => {
    github.fail({ method: "GET", path: /\/issues\/1$/, status: 502, times: 2 });
    const before = answered("GET", ISSUE).length;
    assert.equal((await api.issue(1)).title, "Found a bug");
    assert.deepEqual(answered("GET", ISSUE).slice(before), [502, 502, 200]);
  });

  test("a dropped connection is retried like a 5xx", async () => {
    github.fail({ method: "GET", path: /\/issues\/1$/, status: "reset" });
    const before = answered("GET", ISSUE).length;
    assert.equal((await api.issue(1)).number, 1);
    assert.deepEqual(answered("GET", ISSUE).slice(before), [0, 200]);
  });

  test("a secondary rate limit (403 with retry-after) is waited out and retried", async () => {
    github.fail({
      method: "POST",
      path: /\/issues\/1\/comments$/,
      status: 403,
      body: {
        message:
          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      },
      headers: { "retry-after": "1" },
    });
    await api.createComment(1, "after the limit");
    const posts = github.requests.filter(
      (r) => r.method === "POST" && r.path === `${ISSUE}/comments`,
    );
    assert.deepEqual(
      posts.slice(-2).map((r) => [r.status, r.body]),
      [
        [403, { body: "after the limit" }],
        [201, { body: "after the limit" }],
      ],
    );
  });

  test("5xx on every try: github-unavailable after the retries", async () => {
    github.fail({ method: "GET", path: /\/issues\/1$/, status: 503, times: RETRIES + 1 });
    const before = answered("GET", ISSUE).length;
    await rejectsNamed(
      api.issue(1),
      "github-unavailable",
      /503 Service Unavailable.*after 2 retries/,
    );
    assert.deepEqual(answered("GET", ISSUE).slice(before), [503, 503, 503]);
  });

  test("no answer on every try: github-unavailable says GitHub could not be reached", async () => {
    github.fail({ method: "GET", path: /\/issues\/1$/, status: "reset", times: RETRIES + 1 });
    await rejectsNamed(
      api.issue(1),
      "github-unavailable",
      new RegExp(`could not reach GitHub at ${github.url} to read issue #1, still after 2 retries`),
    );
  });

  test("a used-up rate limit: github-rate-limited says until when", async () => {
    const reset = Math.floor(Date.parse("2030-01-01T10:00:00Z") / 1000);
    github.fail({
      method: "GET",
      path: /\/issues\/1$/,
      status: 403,
      body: { message: "API rate limit exceeded for installation ID 1." },
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
    });
    await rejectsNamed(
      api.issue(1),
      "github-rate-limited",
      /API rate limit exceeded.*wait until 2030-01-01T10:00:00.000Z/,
    );
  });

  test("a bad token: github-token-invalid, not retried", async () => {
    const before = github.requests.length;
    await rejectsNamed(
      client("ghs_wrong").repository(),
      "github-token-invalid",
      /401 Bad credentials/,
    );
    assert.deepEqual(
      github.requests.slice(before).map((r) => r.status),
      [401],
    );
  });

  test("Actions may not open pull requests: github-pr-not-permitted names the setting", async () => {
    github.fail(PR_NOT_PERMITTED);
    const pull = { title: "t", body: "", head: "pitcrew/pr-5", base: "main", draft: false };
    await rejectsNamed(
      api.createPull(pull),
      "github-pr-not-permitted",
      /Workflow permissions → "Allow GitHub Actions to create and approve pull requests".*GitHub App token/,
    );
    assert.deepEqual(answered("POST", "/repos/Codertocat/Hello-World/pulls").slice(-1), [422]);
  });

  test("Resource not accessible by integration: github-permission-missing names the permissions", async () => {
    github.fail({
      method: "POST",
      path: /\/comments$/,
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    await rejectsNamed(
      api.createComment(1, "hello"),
      "github-permission-missing",
      /contents: write, pull-requests: write, issues: write, actions: read/,
    );
  });

  test("any other refusal is named with GitHub's own words", async () => {
    await rejectsNamed(api.issue(404), "github-request-failed", /404 Not Found.*issue #404/);
    await rejectsNamed(
      api.createPull({ title: "t", body: "", head: "no-such-branch", base: "main", draft: false }),
      "github-request-failed",
      /422 Validation Failed/,
    );
  });
});
