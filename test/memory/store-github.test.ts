/**
 * The memory store through GitHub's Git Data API (src/github/git-data.ts) against the fake
 * GitHub: two runs write at once — run B commits between run A's read and A's move, so A's
 * non-forced ref update meets a real conflict on the fake's repository (422, not a fast
 * forward) — and both writes land, A's on top of B's; two edits of one file both land.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { GitDataPort } from "../../src/domain/memory.ts";
import { createGitData } from "../../src/github/git-data.ts";
import { createMemoryStore } from "../../src/memory/store.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { startGitHubServer } from "../support/github-server.ts";
import type { FakeGitHub } from "../support/github-server.ts";

const TOKEN = "ghs_memoryStoreToken0123456789abcdefghijkl";
let github: FakeGitHub;
let bare: string;

before(async () => {
  const fixture = createFixtureRepo("memory-github");
  bare = join(fixture.root, "origin.git");
  fixtureGit(fixture.root, "clone", "-q", "--bare", fixture.repo, bare);
  github = await startGitHubServer({ token: TOKEN, bareRepo: bare });
});

after(() => github.close());

function port(): GitDataPort {
  return createGitData({
    token: TOKEN,
    baseUrl: github.url,
    owner: github.owner,
    repo: github.repo,
    retry: { retries: 0, delayMs: 1 },
  });
}

function store(git: GitDataPort, thread: string) {
  return createMemoryStore({
    git,
    author: { run: `https://example.test/runs/${thread}`, thread, requestedBy: "octocat" },
    secrets: [],
  });
}

/** The port, with `between` run right before its first move (after its read and commit). */
function racing(
  git: GitDataPort,
  between: () => Promise<unknown>,
): GitDataPort & { moves: boolean[] } {
  const moves: boolean[] = [];
  return {
    ...git,
    moves,
    async moveRef(ref, sha, expected) {
      if (moves.length === 0) await between();
      const moved = await git.moveRef(ref, sha, expected);
      moves.push(moved);
      return moved;
    },
  };
}

describe("two runs writing memory at once, on GitHub", () => {
  test("different files: both land; the loser's first move met the conflict and it re-applied", async () => {
    const b = store(port(), "issue-2");
    await b.write("first.md", "the first run's note\n");
    const raced = racing(port(), () => b.write("b.md", "run B's note\n"));
    await store(raced, "issue-1").write("a.md", "run A's note\n");
    assert.deepEqual(raced.moves, [false, true], "the first move lost the race, the retry landed");
    const files = fixtureGit(bare, "ls-tree", "--name-only", "pitcrew-memory").split("\n");
    assert.deepEqual(files.sort(), ["a.md", "b.md", "first.md"]);
    const subjects = fixtureGit(bare, "log", "--format=%s", "pitcrew-memory").split("\n");
    assert.deepEqual(subjects, [
      "pitcrew memory: write a.md",
      "pitcrew memory: write b.md",
      "pitcrew memory: write first.md",
    ]);
  });

  test("two edits of one file at different places: neither is dropped", async () => {
    await store(port(), "issue-3").write("db.md", "setup: make db\ntests: npm test\n");
    const b = store(port(), "issue-4");
    const raced = racing(port(), () => b.edit("db.md", "npm test", "npm run test:all"));
    await store(raced, "issue-5").edit("db.md", "make db", "make db-fresh");
    assert.deepEqual(raced.moves, [false, true]);
    assert.equal(
      fixtureGit(bare, "show", "pitcrew-memory:db.md"),
      "setup: make db-fresh\ntests: npm run test:all",
    );
  });
});
