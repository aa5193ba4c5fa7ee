/**
 * localGitData() against real git: a bare repository (where memory lives for the CLI's tests) and
 * a checkout whose own index and files the port must never touch.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { localGitData } from "../../src/git/git-data.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { rejectsNamed } from "../support/origin.ts";

const roots: string[] = [];
after(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function bareRepo(): { root: string; repo: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-git-data-test-")));
  roots.push(root);
  const repo = join(root, "memory.git");
  fixtureGit(root, "init", "-q", "--bare", repo);
  return { root, repo };
}

describe("localGitData", () => {
  test("a blob keeps its bytes exactly, binary and invalid UTF-8 included", async () => {
    const { repo } = bareRepo();
    const port = localGitData(repo);
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x0d, 0x0a, 0x80, 0x41, 0x0a]);
    const sha = await port.createBlob(bytes);
    assert.match(sha, /^[0-9a-f]{40}$/);
    assert.deepEqual(await port.blob(sha), bytes);
    // A final line feed is the content's own, never taken for output's end.
    const text = await port.createBlob(Buffer.from("note\n\n"));
    assert.equal((await port.blob(text)).toString("utf8"), "note\n\n");
    await rejectsNamed(port.blob("0".repeat(40)), "git-data-missing");
    assert.equal(fixtureGit(repo, "cat-file", "-s", sha), String(bytes.length));
  });

  test("a tree is made from changes, then changed from a base: added, replaced, deleted", async () => {
    const { repo } = bareRepo();
    const port = localGitData(repo);
    const one = await port.createBlob(Buffer.from("one\n"));
    const two = await port.createBlob(Buffer.from("two two\n"));
    const first = await port.createTree([
      { path: "db.md", sha: one },
      { path: "ci/flaky.md", sha: two },
      { path: "ci/deep/x, y.md", sha: one },
    ]);
    assert.deepEqual(
      (await port.treeFiles(first)).sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: "ci/deep/x, y.md", sha: one, size: 4 },
        { path: "ci/flaky.md", sha: two, size: 8 },
        { path: "db.md", sha: one, size: 4 },
      ],
    );
    const second = await port.createTree(
      [
        { path: "db.md", sha: two },
        { path: "ci/flaky.md", sha: null },
        { path: "new.md", sha: one },
      ],
      first,
    );
    assert.deepEqual(
      (await port.treeFiles(second)).map((file) => `${file.path} ${file.size}`).sort(),
      ["ci/deep/x, y.md 4", "db.md 8", "new.md 4"],
    );
    // The base is a tree of its own, untouched.
    assert.equal((await port.treeFiles(first)).length, 3);
  });

  test("a commit records its tree, parents and message, as pitcrew even with no git identity", async () => {
    const { root, repo } = bareRepo();
    const port = localGitData(repo);
    const home = join(root, "empty-home");
    mkdirSync(home);
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = join(home, ".config");
    try {
      const tree = await port.createTree([
        { path: "a.md", sha: await port.createBlob(Buffer.from("a\n")) },
      ]);
      const message = "pitcrew memory: write a.md\n\nPitcrew-Run: local";
      const root1 = await port.createCommit({ message, tree, parents: [] });
      const child = await port.createCommit({ message: "second", tree, parents: [root1] });
      assert.deepEqual(await port.commit(root1), { tree, parents: [], message });
      assert.deepEqual(await port.commit(child), {
        tree,
        parents: [root1],
        message: "second",
      });
      assert.equal(
        fixtureGit(repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>", child),
        "pitcrew <pitcrew@users.noreply.github.com>|pitcrew <pitcrew@users.noreply.github.com>",
      );
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test("moveRef is a compare-and-swap: created only when absent, moved only from where expected", async () => {
    const { repo } = bareRepo();
    const port = localGitData(repo);
    const tree = await port.createTree([
      { path: "a.md", sha: await port.createBlob(Buffer.from("a\n")) },
    ]);
    const first = await port.createCommit({ message: "first", tree, parents: [] });
    const second = await port.createCommit({ message: "second", tree, parents: [first] });
    const third = await port.createCommit({ message: "third", tree, parents: [first] });

    assert.equal(await port.refSha("heads/pitcrew-memory"), undefined);
    assert.equal(await port.moveRef("heads/pitcrew-memory", first, undefined), true);
    assert.equal(await port.refSha("heads/pitcrew-memory"), first);
    // Another run created it first: creating it again is answered false, never forced.
    assert.equal(await port.moveRef("heads/pitcrew-memory", second, undefined), false);
    assert.equal(await port.moveRef("heads/pitcrew-memory", second, first), true);
    // A run that read `first` lost the race to the one that moved it to `second`.
    assert.equal(await port.moveRef("heads/pitcrew-memory", third, first), false);
    assert.equal(await port.refSha("heads/pitcrew-memory"), second);
    assert.equal(fixtureGit(repo, "rev-parse", "refs/heads/pitcrew-memory"), second);
    // Other namespaces of refs work the same way.
    assert.equal(await port.moveRef("pitcrew/notes/issue-12", third, undefined), true);
    assert.equal(fixtureGit(repo, "rev-parse", "refs/pitcrew/notes/issue-12"), third);
  });

  test("a failure that is no lost race is git's error, not false", async () => {
    const { repo } = bareRepo();
    const port = localGitData(repo);
    const blob = await port.createBlob(Buffer.from("a\n"));
    // No such object: the ref is still where the caller expected it (absent), so this is no lost
    // race and must not read as one.
    await rejectsNamed(port.moveRef("heads/x", "1".repeat(40), undefined), "git-failed");
    await rejectsNamed(port.moveRef("heads/x", blob, "not-a-sha"), "git-data-invalid");
    await rejectsNamed(port.blob("--output=/tmp/x"), "git-data-invalid");
    await rejectsNamed(port.refSha("-x"), "git-data-invalid");
    assert.equal(await port.refSha("heads/x"), undefined);
  });

  test("in a checkout, trees are made without touching its index or its files", async () => {
    const fixture = createFixtureRepo("git-data");
    roots.push(fixture.root);
    writeFileSync(join(fixture.repo, "calc.js"), "changed but not staged\n");
    writeFileSync(join(fixture.repo, "staged.txt"), "staged\n");
    fixtureGit(fixture.repo, "add", "staged.txt");
    const status = fixtureGit(fixture.repo, "status", "--porcelain");
    const index = fixtureGit(fixture.repo, "ls-files", "--stage");

    const port = localGitData(fixture.repo);
    const base = fixtureGit(fixture.repo, "rev-parse", "HEAD^{tree}");
    const tree = await port.createTree(
      [
        { path: "calc.js", sha: null },
        { path: "memo.md", sha: await port.createBlob(Buffer.from("memo\n")) },
      ],
      base,
    );
    assert.deepEqual((await port.treeFiles(tree)).map((file) => file.path).sort(), [
      "calc.test.js",
      "memo.md",
      "package.json",
    ]);
    assert.equal(fixtureGit(fixture.repo, "status", "--porcelain"), status);
    assert.equal(fixtureGit(fixture.repo, "ls-files", "--stage"), index);
  });
});
