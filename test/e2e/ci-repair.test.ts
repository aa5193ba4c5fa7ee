/**
 * Failing-CI repair end to end with the built action: a `workflow_run` failure payload (from
 * `@octokit/webhooks-examples`), the fake GitHub serving the run, its attempts, jobs, a job log in
 * the runner's format and the workflow file at the failing commit, the fixture repository whose
 * test fails, the scripted model, real bwrap. Each test reads what a person would see: the pull
 * request and its proof, the comments, the re-run, the job summary and the outputs.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { fixtureGit } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Turn } from "../support/model-server.ts";
import { runAction } from "./harness.ts";
import { CI_PATH, NETWORK_FAILURE, REPAIR, failedRun, withWorkflow } from "./ci-scenes.ts";
import { REQUESTER, args, closeWorlds, originBranches, world } from "./scenes.ts";

after(closeWorlds);

describe("CI repair with the built action", needsBwrap(), () => {
  test("red reproduced, the fix green ×3, a PR into the failing branch with the proof; the same event again does nothing", async () => {
    const made = await world(REPAIR, withWorkflow);
    const { payload } = failedRun(made, { id: 5001 });
    const first = await runAction(made, { eventName: "workflow_run", payload, runId: "1001" });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /proof: before the agent, exit 1/);

    const pulls = made.github.pulls();
    assert.equal(pulls.length, 1, first.stdout);
    const pull = pulls[0]!;
    assert.equal(pull.head.ref, "pitcrew/ci-main");
    assert.equal(pull.base.ref, "main");
    assert.equal(pull.draft, false);
    assert.match(pull.body ?? "", /reproduced: exit 1 → after the fix: exit 0 ×3/);
    assert.match(pull.body ?? "", /node calc\.test\.js/);
    assert.ok(originBranches(made).includes("pitcrew/ci-main"));
    // The failing step's output reached the agent before it started.
    assert.match(made.model.requests[0]?.raw ?? "", /AssertionError/);

    assert.match(first.summary, /Failure signature: `[0-9a-f]{12}`/);
    assert.match(first.summary, /Class: \*\*code\*\*/);
    assert.match(first.summary, /Proof: reproduced: exit 1 → after the fix: exit 0 ×3/);
    assert.match(first.summary, /Attempts on this failure: 1 of 2/);
    assert.match(first.summary, /From the failure to this pull request: \d+/);
    assert.match(first.summary, /Cost: \$\d/);
    assert.equal(first.outputs.conclusion, "success");

    const requests = made.model.requests.length;
    const again = await runAction(made, { eventName: "workflow_run", payload, runId: "1002" });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(made.github.pulls().length, 1);
    assert.equal(made.model.requests.length, requests, "no model request for a repeat");
    assert.match(again.summary, /already handled \(run 5001, attempt 1\)/);
    assert.equal(again.outputs.conclusion, "skipped");
  });

  test("a head from a fork gets nothing: no model, no PR, the reason in the summary", async () => {
    const made = await world(REPAIR, withWorkflow);
    const { payload } = failedRun(made, { id: 5002, headRepository: "mallory/Hello-World" });
    const run = await runAction(made, { eventName: "workflow_run", payload });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(made.model.requests.length, 0);
    assert.equal(made.github.pulls().length, 0);
    assert.match(run.summary, /fork mallory\/Hello-World/);
    assert.equal(run.outputs.conclusion, "skipped");
  });

  test("with ci-repair.forks: comment, a fork's failure gets the evidence on its PR and nothing else", async () => {
    const made = await world(REPAIR, (repo) => {
      withWorkflow(repo);
      writeFileSync(join(repo, ".github", "pitcrew.yml"), "ci-repair:\n  forks: comment\n");
      fixtureGit(repo, "add", ".");
      fixtureGit(repo, "commit", "-q", "-m", "CI repair comments on forks");
    });
    made.github.addPull({
      number: 9,
      title: "A contribution",
      body: null,
      user: "mallory",
      head: { ref: "main", repoFullName: "mallory/Hello-World" },
      base: { ref: "main" },
    });
    const { payload } = failedRun(made, { id: 5007, headRepository: "mallory/Hello-World" });
    const run = await runAction(made, { eventName: "workflow_run", payload });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(made.model.requests.length, 0);
    assert.equal(made.github.pulls().length, 1, "no fix PR");
    const comment = made.github.comments(9).at(-1)?.body ?? "";
    assert.match(comment, /from the fork `mallory\/Hello-World`/);
    assert.match(comment, /AssertionError/);
    assert.ok(!originBranches(made).some((branch) => branch.startsWith("pitcrew/")));
  });

  test("an infrastructure failure gets a comment on the branch's PR, and pitcrew's own branch over its cap gets nothing", async () => {
    const made = await world(REPAIR, (repo) => {
      withWorkflow(repo);
      fixtureGit(repo, "branch", "pitcrew/ci-feature");
    });
    made.github.addPull({
      number: 7,
      title: "A feature",
      body: null,
      user: REQUESTER.login,
      head: { ref: "pitcrew/ci-feature" },
      base: { ref: "main" },
    });
    const { payload } = failedRun(made, {
      id: 5003,
      branch: "pitcrew/ci-feature",
      log: NETWORK_FAILURE,
    });
    const first = await runAction(made, { eventName: "workflow_run", payload, runId: "1001" });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(made.model.requests.length, 0);
    assert.equal(made.github.pulls().length, 1, "no fix PR");
    const comment = made.github.comments(7).at(-1)?.body ?? "";
    assert.match(comment, /reads as \*\*infrastructure\*\*/);
    assert.match(comment, /getaddrinfo ENOTFOUND registry\.npmjs\.org/);

    // Another failure on the same fix branch: pitcrew's own branches get one attempt.
    const second = failedRun(made, { id: 5004, branch: "pitcrew/ci-feature" });
    const over = await runAction(made, {
      eventName: "workflow_run",
      payload: second.payload,
      runId: "1002",
    });
    assert.equal(over.code, 0, over.stdout + over.stderr);
    assert.equal(made.model.requests.length, 0);
    assert.match(
      over.summary,
      /1 attempt on branch pitcrew\/ci-feature in the last 24 hours already \(the cap, ci-repair\.attempts-per-branch: 1\)/,
    );
  });

  test("a flaky failure (the same commit passed) gets its failed jobs re-run, never an edit", async () => {
    const made = await world(REPAIR, withWorkflow);
    const sha = fixtureGit(made.origin, "rev-parse", "main");
    made.github.addRun({
      id: 4999,
      path: CI_PATH,
      headBranch: "main",
      headSha: sha,
      actor: REQUESTER.login,
      createdAt: "2026-12-01T10:00:00Z",
      attempts: [{ jobs: [{ name: "test", conclusion: "success" }] }],
    });
    const { payload } = failedRun(made, { id: 5005 });
    const run = await runAction(made, { eventName: "workflow_run", payload });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(made.model.requests.length, 0);
    assert.equal(made.github.pulls().length, 0);
    assert.equal(made.github.run(5005)?.attempts.length, 2, "a re-run attempt was asked for");
    assert.match(run.summary, /re-ran the failed jobs/);
  });

  test("a repair that deletes the assertion is refused by name, and insisting makes only a draft that says so", async () => {
    const weaken: Turn[] = [
      callTools([
        {
          name: "edit",
          arguments: args({
            path: "calc.test.js",
            old_string: "assert.equal(add(2, 3), 5);\n",
            new_string: "",
          }),
        },
      ]),
      say("Drop the flaky check\nClass: code\n\nRemoved it."),
      say("Drop the flaky check\nClass: code\n\nStill removed."),
      say("Drop the flaky check\nClass: code\n\nI insist."),
    ];
    const made = await world(weaken, withWorkflow);
    const { payload } = failedRun(made, { id: 5006 });
    const run = await runAction(made, { eventName: "workflow_run", payload });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const told = made.model.requests[2]?.raw ?? "";
    assert.match(told, /refused-weakening: the repair removes the assertion/);
    assert.match(told, /calc\.test\.js:3/);
    const pull = made.github.pulls()[0];
    assert.equal(pull?.draft, true);
    assert.match(pull?.body ?? "", /pitcrew refused this repair/);
  });
});
