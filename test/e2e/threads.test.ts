/**
 * The other ways in, with the built action: `/agent fix` on a pull request of this repository
 * (work lands on `pitcrew/pr-N`, proposed into the PR's branch), a `workflow_dispatch` task, and
 * `/agent continue` after a run the turn limit stopped (same branch, same PR, work carried on).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { fixtureGit } from "../support/fixture-repo.ts";
import { workflowDispatchPayload } from "../support/payloads.ts";
import { runAction } from "./harness.ts";
import { FIX, closeWorlds, commentEvent, progressComment, world } from "./scenes.ts";

after(closeWorlds);

function originLog(origin: string, range: string): string[] {
  return execFileSync("git", ["-C", origin, "log", "--format=%s", range], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter(Boolean);
}

describe("threads other than an issue", needsBwrap(), () => {
  test("on a same-repository PR: a branch of its own, proposed into the PR's branch", async () => {
    const made = await world(FIX, (repo) => {
      fixtureGit(repo, "switch", "-q", "-c", "feature");
      fixtureGit(repo, "commit", "-q", "--allow-empty", "-m", "feature work");
      fixtureGit(repo, "switch", "-q", "main");
    });
    made.github.addPull({
      number: 2,
      title: "Feature work",
      body: "Adds the feature; the calc test still fails.",
      user: "octocat",
      head: { ref: "feature" },
      base: { ref: "main" },
    });
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix the calc test", { onPullRequest: true, issue: 2 }),
    });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.outputs.branch, "pitcrew/pr-2");
    const opened = made.github.pulls().find((pull) => pull.head.ref === "pitcrew/pr-2");
    assert.equal(opened?.base.ref, "feature");
    assert.match(opened?.body ?? "", /#2/);
    assert.deepEqual(originLog(made.origin, "feature..pitcrew/pr-2").length, 1);
    assert.deepEqual(originLog(made.origin, "pitcrew/pr-2").slice(1, 2), ["feature work"]);
    assert.match(progressComment(made, 2), /pull\/3/);
    // The model was told which branch it is on and what the PR is about.
    const first = made.model.requests[0]?.raw ?? "";
    assert.match(first, /Adds the feature/);
    assert.match(first, /feature/);
  });

  test("workflow_dispatch: a free task on the default branch, no thread to comment on", async () => {
    const made = await world(FIX);
    const payload = workflowDispatchPayload({ task: "make the calc test pass" });
    payload.repository.default_branch = "main";
    const run = await runAction(made, { eventName: "workflow_dispatch", payload, runId: "4242" });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.outputs.branch, "pitcrew/task-4242");
    const [pull] = made.github.pulls();
    assert.equal(pull?.base.ref, "main");
    assert.doesNotMatch(pull?.body ?? "", /Fixes #/);
    assert.equal(made.github.comments(1).length, 0, "nothing is posted on any issue");
    assert.match(made.model.requests[0]?.raw ?? "", /make the calc test pass/);
  });

  test("/agent continue after a turn-limit stop: the same branch and PR, the work carried on", async () => {
    const made = await world(FIX);
    const first = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      inputs: { "max-turns": "2" },
    });
    assert.equal(first.outputs.conclusion, "stopped", first.stdout);
    assert.equal(made.github.pulls()[0]?.draft, true);

    const second = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent continue and run the tests"),
      runId: "1002",
    });
    assert.equal(second.outputs.conclusion, "success", second.stdout);
    assert.equal(made.github.pulls().length, 1);
    assert.equal(second.outputs["pr-number"], first.outputs["pr-number"]);
    assert.equal(first.outputs["pull-request-operation"], "created");
    assert.equal(second.outputs["pull-request-operation"], "updated");
    assert.equal(originLog(made.origin, "main..pitcrew/issue-1").length, 1, "no new commit");
    // The continuing run was told it carries on earlier work on this branch.
    const told = made.model.requests[2]?.raw ?? "";
    assert.match(told, /and run the tests/);
    assert.match(told, /pitcrew\/issue-1|earlier run/);
  });
});
