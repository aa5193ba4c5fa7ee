/**
 * Protected paths end to end with the built action (issue 10 §4 and §7): the repository's
 * `.github/pitcrew.yml` names `protected-paths`; the agent's attempts on `.github/actions/` and on
 * a protected `Makefile` are refused in the sandbox and told to it, and only the real fix reaches
 * the pull request. A nested repository the agent made is refused by name, nothing pushed.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { BUGGY_LINE, FIXED_LINE, fixtureGit } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script } from "../support/model-server.ts";
import { runAction } from "./harness.ts";
import {
  args,
  closeWorlds,
  commentEvent,
  originBranches,
  progressComment,
  world,
} from "./scenes.ts";

after(closeWorlds);

const ACTION = "runs:\n  using: composite\n  steps: []\n";
const MAKEFILE = "test:\n\tnpm test\n";

/** The fixture project with a composite action, a Makefile and the repository's config. */
function protectedRepo(repo: string): void {
  mkdirSync(join(repo, ".github", "actions", "setup"), { recursive: true });
  writeFileSync(join(repo, ".github", "actions", "setup", "action.yml"), ACTION);
  writeFileSync(join(repo, ".github", "pitcrew.yml"), "protected-paths:\n  - Makefile\n");
  writeFileSync(join(repo, "Makefile"), MAKEFILE);
  fixtureGit(repo, "add", ".");
  fixtureGit(repo, "commit", "-q", "-m", "CI files");
}

function show(made: { origin: string }, ref: string, path: string): string {
  return execFileSync("git", ["-C", made.origin, "show", `${ref}:${path}`], { encoding: "utf8" });
}

describe("protected paths with the built action", needsBwrap(), () => {
  test("the agent cannot change what CI runs; it is told why, and only the fix is pushed", async () => {
    const script: Script = [
      callTools([
        {
          name: "write",
          arguments: args({ path: ".github/actions/setup/action.yml", content: "evil\n" }),
        },
        {
          name: "bash",
          arguments: args({ command: "echo 'pwn:' >> Makefile; echo x > .github/actions/new.yml" }),
        },
      ]),
      callTools([
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        },
      ]),
      say("Fixed add() in calc.js. The Makefile and the setup action are protected; left them."),
    ];
    const made = await world(script, protectedRepo);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.outputs.conclusion, "success", run.stdout);

    const results = JSON.stringify(made.model.requests[1]?.body.messages.slice(-4));
    assert.match(results, /path-protected: \.github\/actions\/setup\/action\.yml is protected/);
    assert.match(results, /Read-only file system/);

    const changed = execFileSync(
      "git",
      ["-C", made.origin, "diff", "--name-only", "main", "pitcrew/issue-1"],
      { encoding: "utf8" },
    );
    assert.equal(changed, "calc.js\n");
    assert.equal(show(made, "pitcrew/issue-1", "Makefile"), MAKEFILE);
    assert.equal(show(made, "pitcrew/issue-1", ".github/actions/setup/action.yml"), ACTION);
  });

  test("a nested repository is refused by name: nothing pushed, the comment says what to do", async () => {
    const script: Script = [
      callTools([
        {
          name: "bash",
          arguments: args({
            command:
              "mkdir -p vendor/lib && cd vendor/lib && git init -q && echo 'export {}' > index.js",
          }),
        },
      ]),
      say("Vendored the library."),
    ];
    const made = await world(script);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.outputs.conclusion, "failure", run.stdout);
    assert.deepEqual(originBranches(made), ["main"]);
    const body = progressComment(made);
    assert.match(body, /push-blocked-nested-repository/);
    assert.match(body, /vendor\/lib/);
    assert.match(body, /Remove the nested \.git/);
  });
});
