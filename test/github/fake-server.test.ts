/**
 * The fake GitHub itself, spoken to with plain fetch and real git: every REST route it serves
 * answers with a body that GitHub's own OpenAPI description (`@octokit/openapi`) accepts for that
 * operation and status, its state and faults behave as GitHub's do, and its smart HTTP serves
 * clone and push only with the token.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { git } from "../../src/git/git.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import {
  FAKE_WORKFLOW_PATH,
  PR_NOT_PERMITTED,
  startGitHubServer,
  type FakeGitHub,
} from "../support/github-server.ts";

// ---------------------------------------------------------------------------------------------
// OpenAPI 3.0 schema checking: the subset GitHub's description uses. A field the schema does not
// know is fine (GitHub adds fields before the description catches up); a missing required field,
// a wrong type, a value outside an enum, a malformed date-time or uri is a problem.

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

const specPath = createRequire(import.meta.url).resolve(
  "@octokit/openapi/generated/api.github.com.json",
);
const spec = JSON.parse(readFileSync(specPath, "utf8")) as OpenApi;

function resolveRef<T extends { $ref?: string }>(node: T): T {
  let current = node;
  while (current.$ref !== undefined) {
    const [, section = "", name = ""] = /^#\/components\/([^/]+)\/(.+)$/.exec(current.$ref) ?? [];
    current = spec.components[section]?.[name] as T;
    assert.ok(current, `unresolvable $ref ${node.$ref}`);
  }
  return current;
}

function typeProblem(schema: Schema, value: unknown): boolean {
  switch (schema.type) {
    case "string":
      return typeof value !== "string";
    case "integer":
      return !Number.isInteger(value);
    case "number":
      return typeof value !== "number";
    case "boolean":
      return typeof value !== "boolean";
    case "array":
      return !Array.isArray(value);
    case "object":
      return typeof value !== "object" || value === null || Array.isArray(value);
    default:
      return false;
  }
}

function acceptsNull(schema: Schema): boolean {
  if (schema.nullable === true || schema.type === "null") return true;
  const choices = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].map(resolveRef);
  if (choices.some(acceptsNull)) return true;
  const all = (schema.allOf ?? []).map(resolveRef);
  return all.length > 0 && all.every(acceptsNull);
}

/** Where `value` breaks `schema`, as `path: what` lines; empty when it fits. */
function problems(node: Schema, value: unknown, at = "$"): string[] {
  const schema = resolveRef(node);
  if (value === null) return acceptsNull(schema) ? [] : [`${at}: null where the schema has none`];
  const found: string[] = [];
  for (const part of schema.allOf ?? []) found.push(...problems(part, value, at));
  // oneOf is read as anyOf: with OpenAPI 3.0's `nullable`, GitHub's choices overlap.
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices !== undefined) {
    const each = choices.map((choice) => problems(choice, value, at));
    if (!each.some((list) => list.length === 0)) {
      found.push(`${at}: fits none of ${choices.length} choices (${each[0]?.join("; ")})`);
    }
  }
  if (typeProblem(schema, value)) {
    return [...found, `${at}: ${JSON.stringify(value)?.slice(0, 60)} is not ${schema.type}`];
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    found.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join("|")}`);
  }
  if (typeof value === "string" && schema.format === "date-time" && isNaN(Date.parse(value))) {
    found.push(`${at}: ${value} is not a date-time`);
  }
  if (typeof value === "string" && schema.format === "uri" && !URL.canParse(value)) {
    found.push(`${at}: ${value} is not a uri`);
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    value.forEach((item, i) => found.push(...problems(items, item, `${at}[${i}]`)));
  }
  if (typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (record[name] === undefined) found.push(`${at}.${name}: required and missing`);
    }
    for (const [name, field] of Object.entries(record)) {
      if (field === undefined) continue;
      const property = schema.properties?.[name];
      const extra = schema.additionalProperties;
      if (property !== undefined) found.push(...problems(property, field, `${at}.${name}`));
      else if (typeof extra === "object") found.push(...problems(extra, field, `${at}.${name}`));
    }
  }
  return found;
}

/** The JSON schema GitHub documents for this operation's answer with this status. */
function responseSchema(method: string, template: string, status: number): Schema {
  const operation = spec.paths[template]?.[method.toLowerCase()];
  assert.ok(operation, `GitHub has no operation ${method} ${template}`);
  const response = operation.responses[String(status)];
  assert.ok(response, `GitHub documents no ${status} for ${method} ${template}`);
  const schema = resolveRef(response).content?.["application/json"]?.schema;
  assert.ok(schema, `GitHub documents no JSON body for ${status} ${method} ${template}`);
  return schema;
}

// ---------------------------------------------------------------------------------------------
// The fake, a bare repository behind it, and a REST caller that checks every answer's shape

const TOKEN = "ghs_faketoken123";
const REPO = "/repos/Codertocat/Hello-World";
let github: FakeGitHub;
let bare: string;
let work: string;
/** `METHOD template` of every route whose answer was checked against the schema. */
const checked = new Set<string>();

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

async function rest(
  method: string,
  path: string,
  body?: unknown,
  authorization = `token ${TOKEN}`,
): Promise<Reply> {
  const response = await fetch(`${github.url}${path}`, {
    method,
    headers: {
      authorization,
      accept: "application/vnd.github+json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Calls a route and asserts the status and that GitHub's schema accepts the body. */
async function call(
  template: string,
  method: string,
  path: string,
  status: number,
  body?: unknown,
): Promise<Reply> {
  const reply = await rest(method, path, body);
  assert.equal(reply.status, status, `${method} ${path}: ${JSON.stringify(reply.body)}`);
  assert.deepEqual(problems(responseSchema(method, template, status), reply.body), []);
  checked.add(`${method} ${template}`);
  return reply;
}

/** Calls a route GitHub answers without a JSON body (a redirect, No Content): the status is
 * checked against the documented ones; a redirect is not followed. */
async function callWithoutBody(
  template: string,
  method: string,
  path: string,
  status: number,
): Promise<Response> {
  const response = await fetch(`${github.url}${path}`, {
    method,
    redirect: "manual",
    headers: { authorization: `token ${TOKEN}`, accept: "application/vnd.github+json" },
  });
  assert.equal(response.status, status, `${method} ${path}`);
  const operation = spec.paths[template]?.[method.toLowerCase()];
  assert.ok(
    operation?.responses[String(status)],
    `GitHub documents no ${status} for ${method} ${template}`,
  );
  checked.add(`${method} ${template}`);
  return response;
}

before(async () => {
  const fixture = createFixtureRepo("fake-github");
  work = fixture.repo;
  bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", work, bare);
  fixtureGit(work, "checkout", "-q", "-b", "feature");
  fixtureGit(work, "commit", "-q", "--allow-empty", "-m", "feature work");
  fixtureGit(work, "push", "-q", bare, "feature");
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
  github.addUser({ login: "octocat", id: 583231 });
  github.setPermission("octocat", "write");
  github.addIssue({ number: 1, title: "Found a bug", body: "It breaks.", user: "octocat" });
});

after(async () => {
  await github.close();
});

describe("REST routes answer in GitHub's documented shapes", () => {
  test("the shape check catches a missing field, a wrong type, a bad date and a stray null", async () => {
    const issue = (await rest("GET", `${REPO}/issues/1`)).body as Record<string, unknown>;
    const schema = responseSchema("GET", "/repos/{owner}/{repo}/issues/{issue_number}", 200);
    assert.deepEqual(problems(schema, issue), []);
    const user = { ...(issue.user as Record<string, unknown>), login: undefined };
    const broken = { ...issue, user, number: "1", created_at: "yesterday", locked: null };
    assert.deepEqual(problems(schema, broken).sort(), [
      "$.created_at: yesterday is not a date-time",
      "$.locked: null where the schema has none",
      '$.number: "1" is not integer',
      "$.user.login: required and missing",
    ]);
  });

  test("the repository", async () => {
    const reply = await call("/repos/{owner}/{repo}", "GET", REPO, 200);
    const repo = reply.body as { full_name: string; default_branch: string; clone_url: string };
    assert.equal(repo.full_name, "Codertocat/Hello-World");
    assert.equal(repo.default_branch, "main");
    assert.equal(repo.clone_url, github.gitUrl);
  });

  test("permissions: admin for the owner, role_name for maintain and triage, 404 for a stranger", async () => {
    const template = "/repos/{owner}/{repo}/collaborators/{username}/permission";
    github.setPermission("mona", "maintain");
    github.setPermission("hubot", "triage");
    github.addUser({ login: "outsider" });
    const expected = [
      ["Codertocat", "admin", "admin"],
      ["octocat", "write", "write"],
      ["mona", "write", "maintain"],
      ["hubot", "read", "triage"],
      ["outsider", "none", "none"],
    ];
    for (const [login, permission, roleName] of expected) {
      const reply = await call(template, "GET", `${REPO}/collaborators/${login}/permission`, 200);
      const body = reply.body as { permission: string; role_name: string; user: { login: string } };
      assert.deepEqual(
        [body.user.login, body.permission, body.role_name],
        [login, permission, roleName],
      );
    }
    await call(template, "GET", `${REPO}/collaborators/nobody-here/permission`, 404);
  });

  test("an issue, and a pull request read as an issue", async () => {
    const template = "/repos/{owner}/{repo}/issues/{issue_number}";
    const issue = (await call(template, "GET", `${REPO}/issues/1`, 200)).body as {
      title: string;
      user: { login: string };
      author_association: string;
      pull_request?: unknown;
    };
    assert.equal(issue.title, "Found a bug");
    assert.equal(issue.user.login, "octocat");
    assert.equal(issue.author_association, "COLLABORATOR");
    assert.equal(issue.pull_request, undefined);

    github.addPull({
      number: 2,
      title: "Add a feature",
      body: null,
      user: "octocat",
      head: { ref: "feature" },
      base: { ref: "main" },
    });
    const pr = (await call(template, "GET", `${REPO}/issues/2`, 200)).body as {
      body: string | null;
      html_url: string;
      pull_request?: { html_url: string };
    };
    assert.equal(pr.body, null);
    assert.equal(pr.pull_request?.html_url, "https://github.com/Codertocat/Hello-World/pull/2");
    await call(template, "GET", `${REPO}/issues/999`, 404);
  });

  test("comments: created by the token's account, read, edited, listed a page at a time", async () => {
    const list = "/repos/{owner}/{repo}/issues/{issue_number}/comments";
    const one = "/repos/{owner}/{repo}/issues/comments/{comment_id}";
    github.addComment(1, { body: "me too", user: "octocat" });
    const created = (await call(list, "POST", `${REPO}/issues/1/comments`, 201, { body: "on it" }))
      .body as { id: number; user: { login: string; type: string }; html_url: string };
    assert.deepEqual([created.user.login, created.user.type], ["github-actions[bot]", "Bot"]);
    assert.equal(
      created.html_url,
      `https://github.com/Codertocat/Hello-World/issues/1#issuecomment-${created.id}`,
    );
    await call(one, "PATCH", `${REPO}/issues/comments/${created.id}`, 200, { body: "done" });
    const read = (await call(one, "GET", `${REPO}/issues/comments/${created.id}`, 200)).body as {
      body: string;
    };
    assert.equal(read.body, "done");
    github.addComment(1, { body: "thanks", user: "Codertocat" });

    const first = await call(list, "GET", `${REPO}/issues/1/comments?per_page=2`, 200);
    assert.deepEqual(
      (first.body as { body: string }[]).map((comment) => comment.body),
      ["me too", "done"],
    );
    const link = first.headers.get("link") ?? "";
    assert.match(link, /[?&]page=2>; rel="next"/);
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? "";
    const second = await call(list, "GET", next.slice(github.url.length), 200);
    assert.deepEqual(
      (second.body as { body: string }[]).map((comment) => comment.body),
      ["thanks"],
    );
    assert.doesNotMatch(second.headers.get("link") ?? "", /rel="next"/);

    await call(list, "POST", `${REPO}/issues/1/comments`, 422, { body: "x".repeat(65537) });
    await call(one, "GET", `${REPO}/issues/comments/12345`, 404);
    assert.deepEqual(
      github.comments(1).map((comment) => comment.body),
      ["me too", "done", "thanks"],
    );
  });

  test("reactions: 201 when new, 200 when the same one exists", async () => {
    const template = "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions";
    const comment = github.addComment(1, { body: "/agent fix", user: "octocat" });
    const path = `${REPO}/issues/comments/${comment.id}/reactions`;
    const made = await call(template, "POST", path, 201, { content: "eyes" });
    const again = await call(template, "POST", path, 200, { content: "eyes" });
    assert.equal((made.body as { id: number }).id, (again.body as { id: number }).id);
    await call(template, "POST", path, 422, { content: "shrug" });
    assert.deepEqual(
      github.reactions(comment.id).map((reaction) => reaction.content),
      ["eyes"],
    );
  });

  test("pull requests: created from a pushed branch, refused as GitHub refuses, listed, edited", async () => {
    const pulls = "/repos/{owner}/{repo}/pulls";
    const one = "/repos/{owner}/{repo}/pulls/{pull_number}";
    fixtureGit(work, "checkout", "-q", "-b", "pitcrew/issue-1", "main");
    fixtureGit(work, "commit", "-q", "--allow-empty", "-m", "fix the bug");
    fixtureGit(work, "push", "-q", bare, "pitcrew/issue-1");
    const sha = fixtureGit(work, "rev-parse", "HEAD");
    const request = { title: "Fix #1", body: "Fixes #1", head: "pitcrew/issue-1", base: "main" };

    const created = (await call(pulls, "POST", `${REPO}/pulls`, 201, { ...request, draft: true }))
      .body as {
      number: number;
      draft: boolean;
      head: { ref: string; sha: string; repo: { full_name: string } };
      base: { ref: string };
      user: { login: string };
    };
    assert.equal(created.number, 3);
    assert.equal(created.draft, true);
    assert.deepEqual([created.head.ref, created.head.sha], ["pitcrew/issue-1", sha]);
    assert.equal(created.head.repo.full_name, "Codertocat/Hello-World");
    assert.equal(created.user.login, "github-actions[bot]");

    const duplicate = await call(pulls, "POST", `${REPO}/pulls`, 422, {
      ...request,
      head: "Codertocat:pitcrew/issue-1",
    });
    assert.deepEqual((duplicate.body as { errors: unknown[] }).errors, [
      {
        resource: "PullRequest",
        code: "custom",
        message: "A pull request already exists for Codertocat:pitcrew/issue-1.",
      },
    ]);
    const missing = await call(pulls, "POST", `${REPO}/pulls`, 422, { ...request, head: "nope" });
    assert.deepEqual((missing.body as { errors: unknown[] }).errors, [
      { resource: "PullRequest", field: "head", code: "invalid" },
    ]);
    const empty = await call(pulls, "POST", `${REPO}/pulls`, 422, {
      ...request,
      head: "main",
      base: "feature",
    });
    assert.match(JSON.stringify(empty.body), /No commits between feature and main/);

    const listed = await call(
      pulls,
      "GET",
      `${REPO}/pulls?head=Codertocat:pitcrew/issue-1&base=main`,
      200,
    );
    assert.deepEqual(
      (listed.body as { number: number }[]).map((pull) => pull.number),
      [3],
    );
    const open = await call(pulls, "GET", `${REPO}/pulls?state=open`, 200);
    assert.deepEqual(
      (open.body as { number: number }[]).map((pull) => pull.number),
      [3, 2],
    );

    const edited = await call(one, "PATCH", `${REPO}/pulls/3`, 200, {
      title: "Fix #1 (v2)",
      body: "new",
    });
    assert.deepEqual(
      [(edited.body as { title: string }).title, github.pulls().find((p) => p.number === 3)?.body],
      ["Fix #1 (v2)", "new"],
    );
    const read = (await call(one, "GET", `${REPO}/pulls/3`, 200)).body as { commits: number };
    assert.equal(read.commits, 1);
    await call(one, "GET", `${REPO}/pulls/1`, 404);
  });

  test("issues: created with the labels GitHub makes, listed by state, labels and creator (pull requests too), closed with a reason, reopened", async () => {
    const list = "/repos/{owner}/{repo}/issues";
    const one = "/repos/{owner}/{repo}/issues/{issue_number}";
    type Issue = {
      number: number;
      state: string;
      state_reason: string | null;
      closed_at: string | null;
      user: { login: string };
      labels: { name: string }[];
      pull_request?: unknown;
    };
    const numbers = (reply: Reply) => (reply.body as Issue[]).map((issue) => issue.number);

    const created = (
      await call(list, "POST", `${REPO}/issues`, 201, {
        title: "Flaky: adds",
        body: "It fails one run in ten.",
        labels: ["flaky-test", { name: "ci" }],
      })
    ).body as Issue & { html_url: string };
    assert.equal(created.number, 4);
    assert.equal(created.user.login, "github-actions[bot]");
    assert.deepEqual(
      created.labels.map((label) => label.name),
      ["flaky-test", "ci"],
    );
    assert.equal(created.html_url, "https://github.com/Codertocat/Hello-World/issues/4");
    assert.deepEqual(
      github.labels().map((label) => [label.name, label.color]),
      [
        ["flaky-test", "ededed"],
        ["ci", "ededed"],
      ],
    );
    await call(list, "POST", `${REPO}/issues`, 422, { body: "no title" });

    // A label's name is the repository's, whatever the case it is given in.
    github.addIssue({
      number: 5,
      title: "Flaky: subtracts",
      body: null,
      user: "octocat",
      state: "closed",
      labels: ["Flaky-Test"],
    });
    assert.deepEqual(github.issues().find((issue) => issue.number === 5)?.labels, ["flaky-test"]);
    assert.deepEqual(
      numbers(await call(list, "GET", `${REPO}/issues?labels=flaky-test`, 200)),
      [4],
    );
    assert.deepEqual(
      numbers(await call(list, "GET", `${REPO}/issues?labels=FLAKY-TEST&state=all`, 200)),
      [5, 4],
    );
    assert.deepEqual(
      numbers(await call(list, "GET", `${REPO}/issues?labels=flaky-test,ci&state=all`, 200)),
      [4],
    );
    assert.deepEqual(numbers(await call(list, "GET", `${REPO}/issues?state=closed`, 200)), [5]);
    const byOctocat = await call(list, "GET", `${REPO}/issues?creator=octocat&state=all`, 200);
    assert.deepEqual(numbers(byOctocat), [5, 2, 1]);
    assert.ok((byOctocat.body as Issue[])[1]?.pull_request !== undefined, "a pull is listed");
    const page = await call(list, "GET", `${REPO}/issues?state=all&per_page=2`, 200);
    assert.deepEqual(numbers(page), [5, 4]);
    assert.match(page.headers.get("link") ?? "", /[?&]page=3>; rel="last"/);

    const closed = (
      await call(one, "PATCH", `${REPO}/issues/4`, 200, {
        state: "closed",
        state_reason: "not_planned",
        title: "Flaky: adds (fixed)",
      })
    ).body as Issue;
    assert.deepEqual([closed.state, closed.state_reason], ["closed", "not_planned"]);
    assert.ok(closed.closed_at !== null);
    const reopened = (await call(one, "PATCH", `${REPO}/issues/4`, 200, { state: "open" }))
      .body as Issue;
    assert.deepEqual(
      [reopened.state, reopened.state_reason, reopened.closed_at],
      ["open", "reopened", null],
    );
    await call(one, "PATCH", `${REPO}/issues/4`, 200, { labels: ["ci"], body: "Fixed." });
    const stored = github.issues().find((issue) => issue.number === 4);
    assert.deepEqual(
      [stored?.title, stored?.body, stored?.state, stored?.labels],
      ["Flaky: adds (fixed)", "Fixed.", "open", ["ci"]],
    );
    await call(one, "PATCH", `${REPO}/issues/4`, 422, { state: "merged" });
    await call(one, "PATCH", `${REPO}/issues/999`, 404, { state: "closed" });

    github.setTokenPermissions({ issues: "read" });
    try {
      const refused = await call(list, "POST", `${REPO}/issues`, 403, { title: "t" });
      assert.equal(refused.headers.get("x-accepted-github-permissions"), "issues=write");
      await call(list, "GET", `${REPO}/issues`, 200);
    } finally {
      github.setTokenPermissions({ issues: "write" });
    }
  });

  test("a merged pull request: merged, merged_at, closed, and so is its issue entry", async () => {
    const one = "/repos/{owner}/{repo}/pulls/{pull_number}";
    const open = (await call(one, "GET", `${REPO}/pulls/2`, 200)).body as {
      merged: boolean;
      merged_at: string | null;
    };
    assert.deepEqual([open.merged, open.merged_at], [false, null]);
    github.mergePull(2, "2026-03-01T12:00:00Z");
    const merged = (await call(one, "GET", `${REPO}/pulls/2`, 200)).body as {
      state: string;
      merged: boolean;
      merged_at: string | null;
      closed_at: string | null;
    };
    assert.deepEqual(
      [merged.state, merged.merged, merged.merged_at, merged.closed_at],
      ["closed", true, "2026-03-01T12:00:00Z", "2026-03-01T12:00:00Z"],
    );
    const entry = (
      await call("/repos/{owner}/{repo}/issues/{issue_number}", "GET", `${REPO}/issues/2`, 200)
    ).body as { state: string; pull_request: { merged_at: string | null } };
    assert.deepEqual(
      [entry.state, entry.pull_request.merged_at],
      ["closed", "2026-03-01T12:00:00Z"],
    );
  });

  test("artifacts: listed newest first by name and by run, read, downloaded through a redirect, gone once expired, deleted", async () => {
    const list = "/repos/{owner}/{repo}/actions/artifacts";
    const byRun = "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts";
    const one = "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}";
    const zip = "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}";
    const older = github.artifacts.putArtifact({
      name: "notes",
      runId: 11,
      files: { "a.md": "1" },
    });
    const newer = github.artifacts.putArtifact({
      name: "notes",
      runId: 12,
      files: { "a.md": "2" },
    });
    const logs = github.artifacts.putArtifact({ name: "logs", runId: 12, files: { "l.txt": "" } });
    type Listing = { total_count: number; artifacts: Record<string, unknown>[] };
    const summary = (listing: Listing) =>
      listing.artifacts.map((a) => [a.id, (a.workflow_run as { id: number }).id, a.expired]);

    const named = (await call(list, "GET", `${REPO}/actions/artifacts?name=notes`, 200))
      .body as Listing;
    assert.deepEqual(summary(named), [
      [newer.id, 12, false],
      [older.id, 11, false],
    ]);
    assert.equal(named.total_count, 2);
    const ofRun = (await call(byRun, "GET", `${REPO}/actions/runs/12/artifacts`, 200))
      .body as Listing;
    assert.deepEqual(summary(ofRun), [
      [logs.id, 12, false],
      [newer.id, 12, false],
    ]);
    const read = (await call(one, "GET", `${REPO}/actions/artifacts/${older.id}`, 200)).body as {
      size_in_bytes: number;
      digest: string;
      archive_download_url: string;
    };
    assert.deepEqual(
      [read.size_in_bytes, read.digest, read.archive_download_url],
      [
        older.content.length,
        older.digest,
        `${github.url}${REPO}/actions/artifacts/${older.id}/zip`,
      ],
    );

    const redirect = await callWithoutBody(
      zip,
      "GET",
      `${REPO}/actions/artifacts/${newer.id}/zip`,
      302,
    );
    const blob = await fetch(redirect.headers.get("location") ?? "");
    assert.equal(blob.headers.get("content-type"), "application/zip");
    assert.deepEqual(Buffer.from(await blob.arrayBuffer()), newer.content);

    github.artifacts.expire(older.id);
    await call(zip, "GET", `${REPO}/actions/artifacts/${older.id}/zip`, 410);
    const expired = (await call(list, "GET", `${REPO}/actions/artifacts?name=notes`, 200))
      .body as Listing;
    assert.deepEqual(summary(expired)[1], [older.id, 11, true]);

    await callWithoutBody(one, "DELETE", `${REPO}/actions/artifacts/${newer.id}`, 204);
    assert.equal((await rest("GET", `${REPO}/actions/artifacts/${newer.id}`)).status, 404);
    assert.deepEqual(
      github.artifacts.artifacts().map((artifact) => artifact.id),
      [older.id, logs.id],
    );
  });

  test("workflow runs: where a run's code came from, for runs the fake has seen; 404 for others", async () => {
    const template = "/repos/{owner}/{repo}/actions/runs/{run_id}";
    github.artifacts.putArtifact({ name: "notes", runId: 21, files: { "a.md": "" } });
    github.setRun(22, {
      event: "pull_request",
      path: ".github/workflows/ci.yml",
      headRepository: "attacker/Hello-World",
      headBranch: "patch-1",
    });
    type Run = {
      id: number;
      path: string;
      event: string;
      repository: { id: number; full_name: string };
      head_repository: { id: number; full_name: string; fork: boolean };
      head_repository_id: number;
    };
    const summary = (run: Run) => [
      run.id,
      run.path,
      run.event,
      run.repository.full_name,
      run.head_repository.full_name,
      run.head_repository.fork,
      run.head_repository.id === run.repository.id,
      run.head_repository_id === run.head_repository.id,
    ];
    const own = (await call(template, "GET", `${REPO}/actions/runs/21`, 200)).body as Run;
    assert.deepEqual(summary(own), [
      21,
      FAKE_WORKFLOW_PATH,
      "issue_comment",
      "Codertocat/Hello-World",
      "Codertocat/Hello-World",
      false,
      true,
      true,
    ]);
    const fork = (await call(template, "GET", `${REPO}/actions/runs/22`, 200)).body as Run;
    assert.deepEqual(summary(fork), [
      22,
      ".github/workflows/ci.yml",
      "pull_request",
      "Codertocat/Hello-World",
      "attacker/Hello-World",
      true,
      false,
      true,
    ]);
    // GitHub's description lists no 404 for this route, but an unknown run gets GitHub's plain one.
    const unknown = await rest("GET", `${REPO}/actions/runs/23`);
    assert.deepEqual(
      [unknown.status, (unknown.body as { message: string }).message],
      [404, "Not Found"],
    );
  });

  test("the CI routes: a run's attempts and their jobs, logs, annotations, green runs, a re-run, compare, a commit, contents", async () => {
    const main = fixtureGit(bare, "rev-parse", "main");
    const feature = fixtureGit(bare, "rev-parse", "feature");
    const run = github.addRun({
      id: 700,
      path: ".github/workflows/ci.yml",
      headSha: main,
      attempts: [
        {
          jobs: [
            {
              name: "test",
              conclusion: "failure",
              steps: [{ name: "Run npm test", conclusion: "failure" }],
              annotations: [{ path: "a.js", startLine: 1, level: "failure", message: "boom" }],
            },
          ],
        },
      ],
    });
    const runs = `${REPO}/actions/runs/700`;
    await call(
      "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}",
      "GET",
      `${runs}/attempts/1`,
      200,
    );
    const jobs = await call(
      "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs",
      "GET",
      `${runs}/attempts/1/jobs`,
      200,
    );
    const [job] = (jobs.body as { jobs: { id: number }[] }).jobs;
    const log = await callWithoutBody(
      "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
      "GET",
      `${REPO}/actions/jobs/${job!.id}/logs`,
      302,
    );
    assert.ok(log.headers.get("location")?.startsWith(github.storageUrl));
    await call(
      "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
      "GET",
      `${REPO}/check-runs/${job!.id}/annotations`,
      200,
    );
    await call(
      "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      "GET",
      `${REPO}/actions/workflows/ci.yml/runs?branch=main&status=failure`,
      200,
    );
    await call(
      "/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs",
      "POST",
      `${runs}/rerun-failed-jobs`,
      201,
      {},
    );
    assert.equal(run.attempts.length, 2);
    await call(
      "/repos/{owner}/{repo}/compare/{basehead}",
      "GET",
      `${REPO}/compare/${main}...${feature}`,
      200,
    );
    await call("/repos/{owner}/{repo}/commits/{ref}", "GET", `${REPO}/commits/${feature}`, 200);
    await call(
      "/repos/{owner}/{repo}/contents/{path}",
      "GET",
      `${REPO}/contents/package.json?ref=main`,
      200,
    );
  });

  test("attempts: run_started_at per attempt; a partial re-run lists the jobs it kept with their old run_attempt", async () => {
    const run = github.addRun({
      id: 710,
      path: ".github/workflows/ci.yml",
      attempts: [
        {
          startedAt: "2026-02-01T10:00:00Z",
          jobs: [
            { name: "lint", conclusion: "success" },
            { name: "test", conclusion: "failure" },
          ],
        },
        {
          startedAt: "2026-02-01T10:30:00Z",
          kept: ["lint"],
          jobs: [{ name: "test", conclusion: "success" }],
        },
      ],
    });
    const attempt = "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}";
    const jobs = `${attempt}/jobs`;
    type Attempt = { run_attempt: number; run_started_at: string; conclusion: string | null };
    type Jobs = { total_count: number; jobs: { id: number; name: string; run_attempt: number }[] };
    const first = (await call(attempt, "GET", `${REPO}/actions/runs/710/attempts/1`, 200))
      .body as Attempt;
    const second = (await call(attempt, "GET", `${REPO}/actions/runs/710/attempts/2`, 200))
      .body as Attempt;
    assert.deepEqual(
      [first.run_attempt, first.run_started_at, first.conclusion],
      [1, "2026-02-01T10:00:00Z", "failure"],
    );
    assert.deepEqual(
      [second.run_attempt, second.run_started_at, second.conclusion],
      [2, "2026-02-01T10:30:00Z", "success"],
    );
    const listed = (await call(jobs, "GET", `${REPO}/actions/runs/710/attempts/2/jobs`, 200))
      .body as Jobs;
    const [lint, test] = run.attempts[0]?.jobs ?? [];
    assert.deepEqual(
      listed.jobs.map((job) => [job.name, job.run_attempt, job.id === lint?.id]),
      [
        ["lint", 1, true],
        ["test", 2, false],
      ],
    );
    assert.notEqual(listed.jobs[1]?.id, test?.id);
    assert.throws(() => github.addRun({ attempts: [{}, { kept: ["lint"] }] }), /no such job/);

    // GitHub's own re-run of the failed jobs keeps the others the same way.
    github.addRun({
      id: 711,
      attempts: [
        {
          jobs: [
            { name: "lint", conclusion: "success" },
            { name: "test", conclusion: "failure" },
          ],
        },
      ],
    });
    await rest("POST", `${REPO}/actions/runs/711/rerun-failed-jobs`, {});
    const rerun = (await call(jobs, "GET", `${REPO}/actions/runs/711/attempts/2/jobs`, 200))
      .body as Jobs;
    assert.deepEqual(
      rerun.jobs.map((job) => [job.name, job.run_attempt]),
      [
        ["lint", 1],
        ["test", 2],
      ],
    );
  });

  test("workflow runs: `created` takes GitHub's date ranges; a filtered list pages through 1,000 runs", async () => {
    const template = "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs";
    const at = ["2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z", "2026-01-03T23:59:59Z"];
    const [a, b, c] = at.map(
      (createdAt) => github.addRun({ path: ".github/workflows/nightly.yml", createdAt }).id,
    );
    const ids = async (created: string) =>
      (
        (
          await call(
            template,
            "GET",
            `${REPO}/actions/workflows/nightly.yml/runs?created=${encodeURIComponent(created)}`,
            200,
          )
        ).body as { workflow_runs: { id: number }[] }
      ).workflow_runs.map((run) => run.id);
    assert.deepEqual(await ids(">=2026-01-02"), [c, b]);
    assert.deepEqual(await ids(">=2026-01-02T10:00:01Z"), [c]);
    assert.deepEqual(await ids(">2026-01-02"), [c]);
    assert.deepEqual(await ids("<2026-01-02"), [a]);
    assert.deepEqual(await ids("<=2026-01-02"), [b, a]);
    assert.deepEqual(await ids("2026-01-01..2026-01-02"), [b, a]);
    assert.deepEqual(await ids("2026-01-01T10:00:01Z..2026-01-03T23:59:59Z"), [c, b]);
    assert.deepEqual(await ids("2026-01-02..*"), [c, b]);
    assert.deepEqual(await ids("2026-01-03"), [c]);
    const bogus = await rest("GET", `${REPO}/actions/workflows/nightly.yml/runs?created=lately`);
    assert.equal(bogus.status, 422);

    for (let i = 0; i < 1001; i++) {
      github.addRun({
        path: ".github/workflows/many.yml",
        headSha: "0".repeat(40),
        createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      });
    }
    const many = (query: string) =>
      call(template, "GET", `${REPO}/actions/workflows/many.yml/runs?${query}`, 200);
    type Runs = { total_count: number; workflow_runs: unknown[] };
    const unfiltered = (await many("per_page=1&page=1001")).body as Runs;
    assert.equal(unfiltered.workflow_runs.length, 1);
    const last = await many("branch=main&per_page=1&page=1000");
    assert.equal((last.body as Runs).workflow_runs.length, 1);
    assert.doesNotMatch(last.headers.get("link") ?? "", /rel="next"/);
    const past = (await many("branch=main&per_page=1&page=1001")).body as Runs;
    assert.deepEqual([past.total_count, past.workflow_runs.length], [1001, 0]);
  });

  test("the Git Data routes: a blob, a tree on a base tree, a commit, a ref made, read and moved only forward", async () => {
    const git = "/repos/{owner}/{repo}/git";
    const main = fixtureGit(bare, "rev-parse", "main");
    const base = fixtureGit(bare, "rev-parse", "main^{tree}");
    const bytes = Buffer.from([0, 255, ...Buffer.from("hi\n")]);
    const blob = (
      await call(`${git}/blobs`, "POST", `${REPO}/git/blobs`, 201, {
        content: bytes.toString("base64"),
        encoding: "base64",
      })
    ).body as { sha: string };
    const read = (
      await call(`${git}/blobs/{file_sha}`, "GET", `${REPO}/git/blobs/${blob.sha}`, 200)
    ).body as { content: string; encoding: string; size: number };
    assert.deepEqual([Buffer.from(read.content, "base64"), read.size], [bytes, bytes.length]);

    type Tree = {
      sha: string;
      truncated: boolean;
      tree: { path: string; type: string; sha: string }[];
    };
    const made = (
      await call(`${git}/trees`, "POST", `${REPO}/git/trees`, 201, {
        base_tree: base,
        tree: [
          { path: "notes/deep/hi.md", mode: "100644", type: "blob", sha: blob.sha },
          { path: "inline.md", mode: "100644", type: "blob", content: "inline\n" },
          { path: "package.json", mode: "100644", type: "blob", sha: null },
        ],
      })
    ).body as Tree;
    assert.deepEqual(
      made.tree.map((entry) => `${entry.type} ${entry.path}`),
      ["blob calc.js", "blob calc.test.js", "blob inline.md", "tree notes"],
    );
    const listed = (
      await call(`${git}/trees/{tree_sha}`, "GET", `${REPO}/git/trees/${made.sha}?recursive=1`, 200)
    ).body as Tree;
    assert.deepEqual(
      listed.tree.map((entry) => entry.path),
      ["calc.js", "calc.test.js", "inline.md", "notes", "notes/deep", "notes/deep/hi.md"],
    );
    assert.equal(listed.truncated, false);
    // A subtree by its sha takes the place of what was at its path.
    const notes = made.tree.find((entry) => entry.path === "notes")?.sha ?? "";
    const copied = (
      await call(`${git}/trees`, "POST", `${REPO}/git/trees`, 201, {
        base_tree: made.sha,
        tree: [{ path: "calc.js", mode: "040000", type: "tree", sha: notes }],
      })
    ).body as Tree;
    assert.deepEqual(fixtureGit(bare, "ls-tree", "-r", "--name-only", copied.sha).split("\n"), [
      "calc.js/deep/hi.md",
      "calc.test.js",
      "inline.md",
      "notes/deep/hi.md",
    ]);
    assert.equal(fixtureGit(bare, "show", `${made.sha}:inline.md`), "inline");

    const commit = (
      await call(`${git}/commits`, "POST", `${REPO}/git/commits`, 201, {
        message: "a note\n\nwith a body",
        tree: made.sha,
        parents: [main],
      })
    ).body as { sha: string };
    const got = (
      await call(`${git}/commits/{commit_sha}`, "GET", `${REPO}/git/commits/${commit.sha}`, 200)
    ).body as { message: string; tree: { sha: string }; parents: { sha: string }[] };
    assert.deepEqual(
      [got.message, got.tree.sha, got.parents.map((parent) => parent.sha)],
      ["a note\n\nwith a body", made.sha, [main]],
    );

    const message = (reply: Reply) => (reply.body as { message: string }).message;
    await call(`${git}/refs`, "POST", `${REPO}/git/refs`, 201, {
      ref: "refs/heads/notes",
      sha: main,
    });
    const exists = await call(`${git}/refs`, "POST", `${REPO}/git/refs`, 422, {
      ref: "refs/heads/notes",
      sha: commit.sha,
    });
    assert.equal(message(exists), "Reference already exists");
    // The ref's name with its slashes, or encoded as octokit sends it; a name it only begins is 404.
    for (const name of ["heads/notes", "heads%2Fnotes"]) {
      const ref = (await call(`${git}/ref/{ref}`, "GET", `${REPO}/git/ref/${name}`, 200)).body as {
        ref: string;
        object: { sha: string; type: string };
      };
      assert.deepEqual(
        [ref.ref, ref.object.sha, ref.object.type],
        ["refs/heads/notes", main, "commit"],
      );
    }
    await call(`${git}/ref/{ref}`, "GET", `${REPO}/git/ref/heads/note`, 404);

    const update = `${git}/refs/{ref}`;
    await call(update, "PATCH", `${REPO}/git/refs/heads/notes`, 200, {
      sha: commit.sha,
      force: false,
    });
    const back = await call(update, "PATCH", `${REPO}/git/refs/heads/notes`, 422, { sha: main });
    assert.equal(message(back), "Update is not a fast forward");
    assert.equal(fixtureGit(bare, "rev-parse", "refs/heads/notes"), commit.sha);
    await call(update, "PATCH", `${REPO}/git/refs/heads/notes`, 200, { sha: main, force: true });
    assert.equal(github.refSha("heads/notes"), main);
    const gone = await call(update, "PATCH", `${REPO}/git/refs/heads/no-such`, 422, { sha: main });
    assert.equal(message(gone), "Reference does not exist");
  });

  test("every route the fake serves was checked", () => {
    assert.deepEqual(
      github.routes.map(({ method, path }) => `${method} ${path}`).filter((r) => !checked.has(r)),
      [],
    );
  });
});

describe("what the fake refuses and the faults it plays", () => {
  test("a wrong or missing token gets GitHub's 401 Bad credentials", async () => {
    for (const authorization of ["token wrong", "", `Bearer ${TOKEN}x`]) {
      const reply = await rest("GET", REPO, undefined, authorization);
      assert.equal(reply.status, 401);
      assert.equal((reply.body as { message: string }).message, "Bad credentials");
    }
    assert.equal((await rest("GET", REPO, undefined, `Bearer ${TOKEN}`)).status, 200);
  });

  test("an unknown route or another repository is 404 Not Found", async () => {
    for (const path of ["/repos/Codertocat/Other/issues/1", "/nothing/here", `${REPO}/wiki`]) {
      const reply = await rest("GET", path);
      assert.deepEqual(
        [reply.status, (reply.body as { message: string }).message],
        [404, "Not Found"],
      );
    }
  });

  test("fail() answers the next matching requests, then normal handling resumes", async () => {
    github.fail({ method: "GET", path: /\/issues\/1$/, status: 502, times: 2 });
    github.fail(PR_NOT_PERMITTED);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await rest("GET", `${REPO}/issues/1`)).status);
    assert.deepEqual(statuses, [502, 502, 200]);
    const refused = await rest("POST", `${REPO}/pulls`, {
      title: "t",
      head: "feature",
      base: "main",
    });
    assert.equal(refused.status, 422);
    assert.match(JSON.stringify(refused.body), /not permitted to create or approve/);
    assert.deepEqual(
      problems(responseSchema("POST", "/repos/{owner}/{repo}/pulls", 422), refused.body),
      [],
    );

    github.fail({ method: "*", path: /\/issues\/1$/, status: "reset" });
    await assert.rejects(rest("GET", `${REPO}/issues/1`), TypeError);
    const logged = github.requests.filter((r) => r.path === `${REPO}/issues/1`).slice(-4);
    assert.deepEqual(
      logged.map((r) => r.status),
      [502, 502, 200, 0],
    );
  });
});

describe("the artifact service", () => {
  const twirp = (method: string, body: unknown, token?: string): Promise<Response> =>
    fetch(
      `${github.artifacts.resultsUrl}twirp/github.actions.results.api.v1.ArtifactService/${method}`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(body),
      },
    );

  test("Twirp takes only the run's runtime token and one artifact of a name per run", async () => {
    const token = github.artifacts.runtimeToken(21);
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
      scp: string;
    };
    const [, run, job] = /Actions\.Results:([^:\s]+):(\S+)/.exec(claims.scp) ?? [];
    const request = { workflow_run_backend_id: run, workflow_job_run_backend_id: job, name: "x" };
    assert.equal((await twirp("CreateArtifact", request)).status, 401);
    const otherRun = await twirp("CreateArtifact", request, github.artifacts.runtimeToken(22));
    assert.equal(otherRun.status, 403);

    const created = await twirp("CreateArtifact", request, token);
    const { signed_upload_url: upload } = (await created.json()) as { signed_upload_url: string };
    assert.equal(created.status, 200);
    assert.ok(new URL(upload).pathname.split("/").length > 3, upload);
    const again = await twirp("CreateArtifact", request, token);
    assert.deepEqual(
      [again.status, ((await again.json()) as { code: string }).code],
      [409, "already_exists"],
    );
    const finalize = await twirp("FinalizeArtifact", { ...request, size: "1" }, token);
    assert.match(((await finalize.json()) as { msg: string }).msg, /does not match the uploaded 0/);
  });
});

describe("git smart HTTP", () => {
  const withToken = (url: string) => url.replace("http://", `http://x-access-token:${TOKEN}@`);

  test("clone and push with the token reach the bare repository", async () => {
    const clone = join(work, "..", "clone");
    await git(work, ["clone", "-q", withToken(github.gitUrl), clone]);
    assert.equal(
      (await git(clone, ["rev-parse", "origin/feature"])).stdout,
      fixtureGit(bare, "rev-parse", "feature"),
    );
    fixtureGit(clone, "checkout", "-q", "-b", "pushed");
    fixtureGit(clone, "commit", "-q", "--allow-empty", "-m", "pushed over http");
    await git(clone, ["push", "-q", "origin", "pushed"]);
    assert.equal(fixtureGit(bare, "rev-parse", "pushed"), fixtureGit(clone, "rev-parse", "HEAD"));
    assert.ok(
      github.requests.some((r) => r.path.endsWith("/git-receive-pack") && r.status === 200),
    );
  });

  test("without the token, or with another, git gets 401 and fails", async () => {
    const before = github.requests.length;
    await assert.rejects(git(work, ["ls-remote", github.gitUrl]), /could not read Username|401/);
    await assert.rejects(
      git(work, ["ls-remote", github.gitUrl.replace("http://", "http://x-access-token:nope@")]),
      /Authentication failed|401/,
    );
    const answered = github.requests.slice(before).map((r) => r.status);
    assert.ok(answered.length >= 2 && answered.every((status) => status === 401), String(answered));
  });
});
