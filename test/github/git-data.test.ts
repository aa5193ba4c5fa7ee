/**
 * createGitData against the fake GitHub (a real HTTP server over a real bare repository, made
 * and moved with git's plumbing): blobs of any bytes, a tree on a base tree (a file added,
 * replaced, deleted, nested paths), a commit, a ref created and read back; a ref that is not there
 * or only begins another's name; the compare-and-swap, with two clients racing for one ref and a
 * writer behind their backs; a tree too big for one listing; a missing permission named with what
 * to add; and the history the fake keeps, which plain `git log` reads.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { GitDataPort } from "../../src/domain/memory.ts";
import { PitcrewError } from "../../src/errors.ts";
import { createGitData } from "../../src/github/git-data.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import {
  startGitHubServer,
  type FakeGitHub,
  type TokenAccess,
  type TokenScope,
} from "../support/github-server.ts";

const TOKEN = "ghs_gitdatatest";
const MEMORY = "heads/pitcrew-memory";
let github: FakeGitHub;
let bare: string;
/** The default branch's commit and tree: the base the tests build on. */
let main: string;
let mainTree: string;

function client(): GitDataPort {
  return createGitData({
    token: TOKEN,
    baseUrl: github.url,
    owner: github.owner,
    repo: github.repo,
    retry: { retries: 0, delayMs: 1 },
  });
}

/** A commit on `parent` (or a root commit) with one file changed. */
async function commitOn(
  git: GitDataPort,
  parent: string | undefined,
  path: string,
  text: string,
): Promise<string> {
  const blob = await git.createBlob(Buffer.from(text));
  const base = parent === undefined ? undefined : (await git.commit(parent)).tree;
  const tree = await git.createTree([{ path, sha: blob }], base);
  return git.createCommit({
    message: `write ${path}`,
    tree,
    parents: parent === undefined ? [] : [parent],
  });
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
  const fixture = createFixtureRepo("github-git-data");
  bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  main = fixtureGit(bare, "rev-parse", "main");
  mainTree = fixtureGit(bare, "rev-parse", "main^{tree}");
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
});

after(() => github.close());

describe("objects", () => {
  test("a blob of any bytes is written and read back as they were", async () => {
    const git = client();
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0x80, ...Buffer.from(" ü\n")]);
    const sha = await git.createBlob(bytes);
    // git's own id for those bytes, and git's own copy of them.
    assert.equal(
      sha,
      execFileSync("git", ["hash-object", "--stdin"], { input: bytes }).toString().trim(),
    );
    assert.deepEqual(execFileSync("git", ["--git-dir", bare, "cat-file", "blob", sha]), bytes);
    assert.deepEqual(await git.blob(sha), bytes);
    assert.deepEqual(await git.blob(await git.createBlob(Buffer.alloc(0))), Buffer.alloc(0));
  });

  test("a tree on a base tree: a file added, one replaced, one deleted, nested paths made", async () => {
    const git = client();
    const before = await git.treeFiles(mainTree);
    assert.deepEqual(
      before.map((file) => file.path),
      ["calc.js", "calc.test.js", "package.json"],
    );
    const db = await git.createBlob(Buffer.from("# The database\nPostgres 16.\n"));
    const flaky = await git.createBlob(Buffer.from("retry once\n"));
    const calc = await git.createBlob(Buffer.from("export const add = (a, b) => a + b;\n"));
    const tree = await git.createTree(
      [
        { path: "db.md", sha: db },
        { path: "ci/deep/flaky.md", sha: flaky },
        { path: "calc.js", sha: calc },
        { path: "package.json", sha: null },
      ],
      mainTree,
    );
    const files = await git.treeFiles(tree);
    const kept = before.find((file) => file.path === "calc.test.js");
    assert.deepEqual(files, [
      { path: "calc.js", sha: calc, size: 36 },
      kept,
      { path: "ci/deep/flaky.md", sha: flaky, size: 11 },
      { path: "db.md", sha: db, size: 28 },
    ]);
    // The same tree git itself would write, folders and all.
    assert.deepEqual(fixtureGit(bare, "ls-tree", "-r", "--name-only", tree).split("\n"), [
      "calc.js",
      "calc.test.js",
      "ci/deep/flaky.md",
      "db.md",
    ]);
    assert.equal(fixtureGit(bare, "rev-parse", `${tree}:ci/deep`).length, 40);

    // A folder emptied by a deletion is gone; a tree with no base holds just the changes.
    const fewer = await git.createTree([{ path: "ci/deep/flaky.md", sha: null }], tree);
    assert.deepEqual(
      (await git.treeFiles(fewer)).map((file) => file.path),
      ["calc.js", "calc.test.js", "db.md"],
    );
    const alone = await git.createTree([{ path: "a/b/c.md", sha: db }]);
    assert.deepEqual(await git.treeFiles(alone), [{ path: "a/b/c.md", sha: db, size: 28 }]);
    // No changes: the base itself, without asking.
    const asked = github.requests.length;
    assert.equal(await git.createTree([], tree), tree);
    assert.equal(github.requests.length, asked);
  });

  test("a commit with its tree, its parents and its message exactly; the ref made and read", async () => {
    const git = client();
    const blob = await git.createBlob(Buffer.from("Postgres 16.\n"));
    const tree = await git.createTree([{ path: "db.md", sha: blob }], mainTree);
    const message =
      "memory: db.md\n\nrun: https://github.com/Codertocat/Hello-World/actions/runs/1";
    const sha = await git.createCommit({ message, tree, parents: [main] });
    assert.deepEqual(await git.commit(sha), { tree, parents: [main], message });
    const root = await git.createCommit({ message: "root", tree, parents: [] });
    assert.deepEqual((await git.commit(root)).parents, []);

    assert.equal(await git.refSha(MEMORY), undefined);
    assert.equal(await git.moveRef(MEMORY, sha, undefined), true);
    assert.equal(await git.refSha(MEMORY), sha);
    assert.equal(github.refSha(MEMORY), sha);
    const read = await git.commit((await git.refSha(MEMORY)) ?? "");
    const db = (await git.treeFiles(read.tree)).find((file) => file.path === "db.md");
    assert.equal((await git.blob(db?.sha ?? "")).toString(), "Postgres 16.\n");
  });
});

describe("refs", () => {
  test("a ref that is not there, or only a folder of refs or the start of a name, is undefined", async () => {
    const git = client();
    assert.equal(await git.refSha("heads/no-such-branch"), undefined);
    const notes = await commitOn(git, undefined, "thread.md", "notes of #12\n");
    assert.equal(await git.moveRef("pitcrew/notes/issue-12", notes, undefined), true);
    assert.equal(await git.refSha("pitcrew/notes/issue-12"), notes);
    assert.equal(await git.refSha("pitcrew/notes/issue-1"), undefined);
    assert.equal(await git.refSha("pitcrew/notes"), undefined);
    assert.equal(await git.refSha("heads/main"), main);
  });

  test("two writers read the ref and commit on it: the first move lands, the second is false", async () => {
    const [a, b] = [client(), client()];
    const ref = "heads/race";
    assert.equal(await a.moveRef(ref, main, undefined), true);
    const [seenByA, seenByB] = [await a.refSha(ref), await b.refSha(ref)];
    assert.equal(seenByA, main);
    assert.equal(seenByB, main);
    const fromA = await commitOn(a, seenByA, "a.md", "from a\n");
    const fromB = await commitOn(b, seenByB, "b.md", "from b\n");
    assert.equal(await a.moveRef(ref, fromA, seenByA), true);
    assert.equal(await b.moveRef(ref, fromB, seenByB), false);
    assert.equal(github.refSha(ref), fromA);
    // The loser reads again, builds on the winner, and lands.
    const again = await commitOn(b, await b.refSha(ref), "b.md", "from b\n");
    assert.equal(await b.moveRef(ref, again, fromA), true);
    assert.equal(github.refSha(ref), again);
  });

  test("two moves from the same commit at the same moment: exactly one lands", async () => {
    const [a, b] = [client(), client()];
    const ref = "heads/same-moment";
    assert.equal(await a.moveRef(ref, main, undefined), true);
    for (let round = 0; round < 5; round++) {
      const expected = github.refSha(ref);
      const fromA = await commitOn(a, expected, "a.md", `a ${round}\n`);
      const fromB = await commitOn(b, expected, "b.md", `b ${round}\n`);
      const moved = await Promise.all([
        a.moveRef(ref, fromA, expected),
        b.moveRef(ref, fromB, expected),
      ]);
      assert.equal(moved.filter(Boolean).length, 1, `round ${round}: ${moved.join(", ")}`);
      assert.equal(github.refSha(ref), moved[0] ? fromA : fromB);
    }
  });

  test("a ref another writer moved behind the client's back is not moved over", async () => {
    const git = client();
    const ref = "heads/behind-its-back";
    assert.equal(await git.moveRef(ref, main, undefined), true);
    const expected = await git.refSha(ref);
    const mine = await commitOn(git, expected, "mine.md", "mine\n");
    const theirs = fixtureGit(
      bare,
      "commit-tree",
      "-p",
      main,
      "-m",
      "another writer",
      `${main}^{tree}`,
    );
    github.setRef(ref, theirs);
    assert.equal(await git.moveRef(ref, mine, expected), false);
    assert.equal(github.refSha(ref), theirs);
    // Deleted behind its back: no longer where it was expected either.
    github.setRef(ref, null);
    assert.equal(await git.moveRef(ref, mine, expected), false);
    assert.equal(github.refSha(ref), undefined);
  });

  test("creating a ref that exists by then is false and leaves it be; the same commit again is true", async () => {
    const git = client();
    const ref = "pitcrew/notes/issue-40";
    const first = await commitOn(git, undefined, "thread.md", "first\n");
    const second = await commitOn(git, undefined, "thread.md", "second\n");
    assert.equal(await git.moveRef(ref, first, undefined), true);
    assert.equal(await git.moveRef(ref, second, undefined), false);
    assert.equal(github.refSha(ref), first);
    // What a retried create finds: its own commit there.
    assert.equal(await git.moveRef(ref, first, undefined), true);
    const refusals = github.requests.filter(
      (request) => request.method === "POST" && request.path.endsWith("/git/refs"),
    );
    assert.deepEqual(
      refusals.slice(-2).map((request) => request.status),
      [422, 422],
    );
  });
});

describe("a tree too big for one listing", () => {
  test("GitHub's truncated listing is walked a level at a time, to the same files", async () => {
    const git = client();
    const blob = await git.createBlob(Buffer.from("x\n"));
    const paths = ["a.md", "b/c.md", "b/d/e.md", "b/d/f.md", "g/h.md", "z.md"];
    const tree = await git.createTree(paths.map((path) => ({ path, sha: blob })));
    const whole = await git.treeFiles(tree);
    assert.deepEqual(
      whole.map((file) => file.path),
      paths,
    );
    github.setTreeLimit(3);
    try {
      const asked = github.requests.length;
      assert.deepEqual(await git.treeFiles(tree), whole);
      const listings = github.requests.slice(asked).filter((r) => r.path.includes("/git/trees/"));
      assert.deepEqual(
        listings.map((listing) => listing.query.recursive ?? "one level"),
        ["1", "one level", "one level", "one level", "one level"],
      );
    } finally {
      github.setTreeLimit(100_000);
    }
  });
});

describe("what GitHub refuses", () => {
  test("a token without contents: write is told to add it; without contents: read, that", async () => {
    const git = client();
    const blob = await git.createBlob(Buffer.from("x\n"));
    const tree = await git.createTree([{ path: "x.md", sha: blob }]);
    const commit = await git.createCommit({ message: "x", tree, parents: [] });
    const read = { contents: "read" } as const;
    await refusedFor(read, () => git.createBlob(Buffer.from("y\n")), "contents: write");
    await refusedFor(read, () => git.createTree([{ path: "y.md", sha: blob }]), "contents: write");
    await refusedFor(
      read,
      () => git.createCommit({ message: "y", tree, parents: [] }),
      "contents: write",
    );
    await refusedFor(
      read,
      () => git.moveRef("heads/refused", commit, undefined),
      "contents: write",
    );
    await refusedFor(read, () => git.moveRef(MEMORY, commit, main), "contents: write");
    const none = { contents: "none" } as const;
    await refusedFor(none, () => git.refSha(MEMORY), "contents: read");
    await refusedFor(none, () => git.commit(commit), "contents: read");
    await refusedFor(none, () => git.treeFiles(tree), "contents: read");
    await refusedFor(none, () => git.blob(blob), "contents: read");
  });

  test("an object that is not there is a named error, not undefined", async () => {
    const git = client();
    await assert.rejects(git.commit("0".repeat(40)), (error: unknown) => {
      assert.ok(error instanceof PitcrewError);
      assert.equal(error.code, "github-request-failed");
      assert.match(error.message, /404 Not Found when pitcrew tried to read commit 000000000000/);
      return true;
    });
  });
});

describe("the fake's history is real git", () => {
  test("git log in the bare repository shows the commits, their messages and their author", async () => {
    const git = client();
    const ref = "heads/history";
    const first = await commitOn(git, main, "one.md", "one\n");
    assert.equal(await git.moveRef(ref, first, undefined), true);
    const second = await commitOn(git, first, "two.md", "two\n");
    assert.equal(await git.moveRef(ref, second, first), true);
    assert.deepEqual(fixtureGit(bare, "log", "--format=%H %s", `refs/${ref}`).split("\n"), [
      `${second} write two.md`,
      `${first} write one.md`,
      `${main} calc with a bug`,
    ]);
    assert.equal(
      fixtureGit(bare, "log", "-1", "--format=%an <%ae>", `refs/${ref}`),
      "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>",
    );
    assert.deepEqual(
      fixtureGit(bare, "show", "--name-status", "--format=", `refs/${ref}`).split("\n"),
      ["A\ttwo.md"],
    );
    fixtureGit(bare, "fsck", "--strict", "--no-dangling");
  });
});
