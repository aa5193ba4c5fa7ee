/**
 * prepareThreadBranch() against real git: a bare repository as origin and a depth-1 clone as the
 * checkout, as actions/checkout leaves it. The token's trip over HTTP is in publish.test.ts.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { prepareThreadBranch } from "../../src/git/branch.ts";
import { git, tokenEnv } from "../../src/git/git.ts";
import { fixtureGit } from "../support/fixture-repo.ts";
import { checkout, createOrigin, rejectsNamed, removeOrigins } from "../support/origin.ts";
import type { Origin } from "../support/origin.ts";

after(removeOrigins);

function commitFile(repo: string, file: string, text: string): string {
  writeFileSync(join(repo, file), text);
  fixtureGit(repo, "add", file);
  fixtureGit(repo, "commit", "-q", "-m", `write ${file}`);
  return fixtureGit(repo, "rev-parse", "HEAD");
}

const createRemote = (): Origin => createOrigin("branch", { "README.md": "# one\n" });

describe("tokenEnv", () => {
  test("passes the token as a header for the remote's exact URL, after a reset, in env only", () => {
    const url = "https://github.com/octo/calc";
    const env = tokenEnv(url, "ghs_secret");
    const basic = Buffer.from("x-access-token:ghs_secret").toString("base64");
    assert.deepEqual(env, {
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_0: `http.${url}.extraheader`,
      GIT_CONFIG_VALUE_0: "",
      GIT_CONFIG_KEY_1: `http.${url}.extraheader`,
      GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${basic}`,
      GIT_CONFIG_KEY_2: "credential.helper",
      GIT_CONFIG_VALUE_2: "",
    });
  });

  test("git reads it through the hardened runner (GIT_* from options.env survive)", async () => {
    const remote = createRemote();
    const url = "https://github.com/octo/calc";
    const shown = await git(remote.seed, ["config", "--get-all", `http.${url}.extraheader`], {
      env: tokenEnv(url, "ghs_secret"),
    });
    const basic = Buffer.from("x-access-token:ghs_secret").toString("base64");
    assert.equal(shown.stdout, `\nAUTHORIZATION: basic ${basic}`);
    assert.ok(!readFileSync(join(remote.seed, ".git", "config"), "utf8").includes(basic));
  });
});

describe("prepareThreadBranch", () => {
  test("a new thread gets a branch from the fresh origin/<base>", async () => {
    const remote = createRemote();
    const workspace = checkout(remote);
    const newer = commitFile(remote.seed, "README.md", "# two\n");
    fixtureGit(remote.seed, "push", "-q", "origin", "main");

    const thread = await prepareThreadBranch({
      workspace,
      branch: "pitcrew/issue-3",
      base: "main",
    });

    assert.deepEqual(thread, {
      branch: "pitcrew/issue-3",
      base: "main",
      baseSha: newer,
      startSha: newer,
      reused: false,
    });
    assert.equal(fixtureGit(workspace, "symbolic-ref", "--short", "HEAD"), "pitcrew/issue-3");
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), newer);
    assert.equal(readFileSync(join(workspace, "README.md"), "utf8"), "# two\n");
  });

  test("a thread whose branch is on origin continues it (from a shallow checkout)", async () => {
    const remote = createRemote();
    fixtureGit(remote.seed, "switch", "-q", "-c", "pitcrew/issue-3");
    const head = commitFile(remote.seed, "fix.txt", "earlier run\n");
    fixtureGit(remote.seed, "push", "-q", "origin", "pitcrew/issue-3");
    fixtureGit(remote.seed, "switch", "-q", "main");
    const main = commitFile(remote.seed, "README.md", "# two\n");
    fixtureGit(remote.seed, "push", "-q", "origin", "main");
    const workspace = checkout(remote);

    const thread = await prepareThreadBranch({
      workspace,
      branch: "pitcrew/issue-3",
      base: "main",
    });

    assert.deepEqual(thread, {
      branch: "pitcrew/issue-3",
      base: "main",
      baseSha: main,
      startSha: head,
      reused: true,
    });
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), head);
    assert.equal(readFileSync(join(workspace, "fix.txt"), "utf8"), "earlier run\n");
    assert.equal(readFileSync(join(workspace, "README.md"), "utf8"), "# one\n");

    const again = await prepareThreadBranch({ workspace, branch: "pitcrew/issue-3", base: "main" });
    assert.deepEqual(again, thread);
  });

  test("a checkout with changes is refused before anything happens", async () => {
    const remote = createRemote();
    const workspace = checkout(remote);
    writeFileSync(join(workspace, "README.md"), "# edited by an earlier step\n");
    writeFileSync(join(workspace, "build.log"), "left over\n");

    const error = await rejectsNamed(
      prepareThreadBranch({ workspace, branch: "pitcrew/issue-3", base: "main" }),
      "workspace-dirty",
    );

    assert.match(error.message, /README\.md, build\.log/);
    assert.equal(fixtureGit(workspace, "symbolic-ref", "--short", "HEAD"), "main");
  });

  test("ignored files are not a mess", async () => {
    const remote = createRemote();
    commitFile(remote.seed, ".gitignore", "node_modules/\n");
    fixtureGit(remote.seed, "push", "-q", "origin", "main");
    const workspace = checkout(remote);
    mkdirSync(join(workspace, "node_modules"));
    writeFileSync(join(workspace, "node_modules", "x.js"), "");

    const thread = await prepareThreadBranch({
      workspace,
      branch: "pitcrew/issue-3",
      base: "main",
    });
    assert.equal(thread.reused, false);
  });

  test("a base origin does not have is a named error", async () => {
    const remote = createRemote();
    const workspace = checkout(remote);
    const error = await rejectsNamed(
      prepareThreadBranch({ workspace, branch: "pitcrew/issue-3", base: "trunk" }),
      "base-missing",
    );
    assert.match(error.message, /"trunk"/);
  });

  test("an unreachable origin is a named error quoting git", async () => {
    const remote = createRemote();
    const workspace = checkout(remote);
    fixtureGit(workspace, "remote", "set-url", "origin", join(remote.root, "missing.git"));
    const error = await rejectsNamed(
      prepareThreadBranch({ workspace, branch: "pitcrew/issue-3", base: "main" }),
      "fetch-failed",
    );
    assert.match(error.message, /does not appear to be a git repository|not found/);
  });
});
