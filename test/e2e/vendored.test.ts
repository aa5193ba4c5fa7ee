/**
 * The action vendored into the repository it works on (`npm run vendor`, docs/action.md's quick
 * start without a release): `/agent fix` end to end with the copy at `.github/actions/pitcrew` as
 * the only pitcrew on disk — the build it was copied from is deleted first — so every file the
 * main and post steps load, the lazily imported ones too, must come from the copy. The agent's
 * attempts to change the action that runs it are refused, and the copy leaves the run unchanged.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { BUGGY_LINE, FIXED_LINE, fixtureGit } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script } from "../support/model-server.ts";
import { builtAction, checkout, runAction } from "./harness.ts";
import { args, closeWorlds, commentEvent, progressComment, world } from "./scenes.ts";

after(closeWorlds);

const ROOT = join(import.meta.dirname, "../..");
const VENDORED = ".github/actions/pitcrew";

describe("the vendored action, /agent fix end to end", needsBwrap(), () => {
  // Before the test that deletes the build the copies come from.
  test("with allow-protected-changes the rest of .github opens, the copy that runs does not", async () => {
    const index = await builtAction();
    const script: Script = [
      callTools([
        {
          name: "write",
          arguments: args({ path: `${VENDORED}/dist/post.js`, content: "evil\n" }),
        },
        {
          name: "bash",
          arguments: args({
            command: `echo pwned > ${VENDORED}/dist/index.js; echo "* @me" > .github/CODEOWNERS; echo done`,
          }),
        },
      ]),
      say("Hand the code owners to me\n\nChanged CODEOWNERS, as asked."),
    ];
    const made = await world(script, (repo) => {
      execFileSync(
        process.execPath,
        [join(ROOT, "scripts/vendor.mjs"), repo, "--dist", dirname(index)],
        { encoding: "utf8" },
      );
      writeFileSync(join(repo, ".github/pitcrew.yml"), "allow-protected-changes: true\n");
      fixtureGit(repo, "add", "-f", VENDORED, ".github/pitcrew.yml");
      fixtureGit(repo, "commit", "-q", "-m", "Vendor pitcrew, allow changes to .github");
    });
    const workspace = await checkout(made, "workspace-vendored-allowed");
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      workspace,
      index: join(workspace, VENDORED, "dist", "index.js"),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const results = JSON.stringify(made.model.requests[1]?.body.messages.slice(-3));
    assert.match(
      results,
      /path-protected: \.github\/actions\/pitcrew\/dist\/post\.js is protected/,
    );
    assert.match(results, /Read-only file system/);
    const changed = execFileSync(
      "git",
      ["-C", made.origin, "diff", "--name-only", "main", "pitcrew/issue-1"],
      { encoding: "utf8" },
    );
    assert.equal(changed, ".github/CODEOWNERS\n", "the repository allowed .github; not the copy");
    assert.equal(fixtureGit(workspace, "diff", "--stat", "origin/main", "--", VENDORED), "");
  });

  test("a thread branch with an older copy of the action: what the run loads later was loaded before the switch", async () => {
    const index = await builtAction();
    const script: Script = [
      callTools([
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        },
      ]),
      say("Make add() add\n\nFixed add() in calc.js."),
    ];
    const made = await world(script, (repo) => {
      execFileSync(
        process.execPath,
        [join(ROOT, "scripts/vendor.mjs"), repo, "--dist", dirname(index)],
        { encoding: "utf8" },
      );
      fixtureGit(repo, "add", "-f", VENDORED);
      fixtureGit(repo, "commit", "-q", "-m", "Vendor pitcrew");
      // The thread's branch, made before the copy was updated: the chunk that holds the artifact
      // client (loaded when the notes are restored and saved) is not in its copy.
      fixtureGit(repo, "checkout", "-q", "-b", "pitcrew/issue-1");
      const dist = join(repo, VENDORED, "dist");
      const chunk = readdirSync(dist).find(
        (name) =>
          name.endsWith(".js") &&
          readFileSync(join(dist, name), "utf8").includes("DefaultArtifactClient = class"),
      );
      assert.ok(chunk, "the artifact client's chunk");
      fixtureGit(repo, "rm", "-q", join(VENDORED, "dist", chunk));
      fixtureGit(repo, "commit", "-q", "-m", "an older copy of the action");
      fixtureGit(repo, "checkout", "-q", "main");
    });
    const workspace = await checkout(made, "workspace-vendored-older");
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      workspace,
      index: join(workspace, VENDORED, "dist", "index.js"),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /continuing branch pitcrew\/issue-1/);
    assert.doesNotMatch(run.stdout + run.stderr, /Cannot find module/);
    const saved = made.github.artifacts
      .artifacts()
      .filter((a) => a.name === "pitcrew-notes-issue-1");
    assert.equal(saved.length, 1, "the notes were saved after the switch");
  });

  test("runs from .github/actions/pitcrew alone, and the agent cannot change it", async () => {
    const index = await builtAction();
    const build = dirname(index);
    const script: Script = [
      callTools([
        {
          name: "write",
          arguments: args({ path: `${VENDORED}/dist/post.js`, content: "evil\n" }),
        },
        {
          name: "bash",
          arguments: args({
            command: `echo pwned > ${VENDORED}/dist/index.js; rm -rf ${VENDORED}; ls ${VENDORED}/dist | wc -l`,
          }),
        },
      ]),
      callTools([
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        },
      ]),
      callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
      say("Make add() add\n\nFixed add() in calc.js; npm test passes. The action is read-only."),
    ];
    const made = await world(script, (repo) => {
      const out = execFileSync(
        process.execPath,
        [join(ROOT, "scripts/vendor.mjs"), repo, "--dist", build],
        { encoding: "utf8" },
      );
      assert.match(out, /^Vendored pitcrew /);
      fixtureGit(repo, "add", "-f", VENDORED);
      fixtureGit(repo, "commit", "-q", "-m", "Vendor pitcrew");
    });
    // The build the copy came from is gone: whatever the steps load now is the copy's.
    rmSync(dirname(build), { recursive: true, force: true });
    assert.ok(!existsSync(index));

    const workspace = await checkout(made, "workspace-vendored");
    const vendoredIndex = join(workspace, VENDORED, "dist", "index.js");
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      workspace,
      index: vendoredIndex,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.conclusion, "success", run.stdout);

    // The agent was told no, in the sandbox and by the write tool.
    const results = JSON.stringify(made.model.requests[1]?.body.messages.slice(-3));
    assert.match(
      results,
      /path-protected: \.github\/actions\/pitcrew\/dist\/post\.js is protected/,
    );
    assert.match(results, /Read-only file system/);
    // Every run loads the shell parser's WebAssembly (from beside the running module: the copy)
    // before the agent starts; the fix was then checked in the sandbox.
    const checked = made.model.requests[3]?.body.messages.find(
      (message: { role: string; tool_call_id?: string }) =>
        message.role === "tool" && message.tool_call_id === "call_2_0",
    );
    assert.equal(checked?.content, "exit code: 0\nstdout:\ncalc: all tests pass");

    // The copy is as committed, in the workspace and on the branch pushed; only the fix moved.
    assert.equal(fixtureGit(workspace, "status", "--porcelain", "--ignored", "--", VENDORED), "");
    assert.equal(fixtureGit(workspace, "diff", "--stat", "origin/main", "--", VENDORED), "");
    const changed = execFileSync(
      "git",
      ["-C", made.origin, "diff", "--name-only", "main", "pitcrew/issue-1"],
      { encoding: "utf8" },
    );
    assert.equal(changed, "calc.js\n");
    assert.equal(made.github.pulls().length, 1);
    assert.match(progressComment(made) ?? "", /pull\/\d+/);

    // The notes were saved by the main step (the artifact client is imported lazily, from the
    // copy), and the copy's post step ran after the branch switch and said so.
    assert.match(run.post, /pitcrew post: the main step saved the handoff notes\./);
  });
});
