/**
 * Flaky-test triage end to end with the built action on a `schedule` event: the fake GitHub serves
 * the CI workflow's history on the default branch (a flake passed on re-run, a commit that failed
 * and passed in two runs, a test broken on every attempt of a commit), the fixture repository holds
 * a genuinely timing-dependent test, the scripted model reproduces it with the harness's `rerun`
 * tool, fixes it and proves the fix, real bwrap runs every rerun. Read as a person would: the
 * tracking issue and its evidence, the pull request, the job summary; then a second scheduled run
 * after one more flake, which comments on that issue instead of opening another.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { runAction } from "./harness.ts";
import {
  BROKEN_TEST,
  FIX,
  TIMER_TEST,
  flakedAgain,
  flakyHistory,
  schedule,
  withFlakyTest,
} from "./flaky-scenes.ts";
import { closeWorlds, world } from "./scenes.ts";

after(closeWorlds);

describe("flaky-test triage with the built action", needsBwrap(), () => {
  test("confirmed, fixed and proved → a PR and one tracking issue; the broken test is reported, not quarantined; a later triage comments on that issue", async () => {
    const made = await world(FIX, withFlakyTest);
    flakyHistory(made);
    const first = await runAction(made, {
      eventName: "schedule",
      payload: schedule(made),
      runId: "1001",
    });
    assert.equal(first.code, 0, first.stdout + first.stderr);

    // The harness counted the reruns: failures before the fix, none after.
    const before = /rerun: isolated: (\d+)\/10 failed/.exec(first.stdout);
    assert.ok(before !== null && Number(before[1]) > 0, first.stdout);
    assert.match(first.stdout, /rerun: isolated: 0\/10 failed/);

    const tracking = made.github.issues().filter((issue) => issue.labels.includes("flaky-test"));
    assert.equal(
      tracking.length,
      1,
      JSON.stringify(made.github.issues().map((issue) => issue.title)),
    );
    const issue = tracking[0]!;
    assert.match(issue.title, new RegExp(`Flaky test: ${TIMER_TEST}`));
    assert.match(issue.body ?? "", /<!-- pitcrew:flaky-test [0-9a-f]{12} -->/);
    assert.match(issue.body ?? "", /\*\*Status:\*\* a fix is proposed/);
    assert.match(issue.body ?? "", /\*\*Cause:\*\* time/);
    assert.match(issue.body ?? "", /### Failures in CI \(2\)/);
    assert.match(issue.body ?? "", /passed on re-run/);
    assert.match(issue.body ?? "", /passed in another run/);
    assert.match(issue.body ?? "", /\| `isolated` \| 10 \| 0 \|/);

    const pulls = made.github.pulls();
    assert.equal(pulls.length, 1);
    const pull = pulls[0]!;
    assert.equal(pull.draft, false);
    assert.equal(pull.base.ref, "main");
    assert.match(pull.title, /^Fix: Flaky test: /);
    assert.match(pull.body ?? "", /Tracked in #\d+/);
    assert.doesNotMatch(pull.body ?? "", /Fixes #/);
    assert.match(pull.body ?? "", /would have shown a failure with \d+% probability/);
    assert.match(issue.body ?? "", new RegExp(`\\*\\*Pull request:\\*\\* #${pull.number}`));

    // The broken test: in the summary, never in an issue or a PR of its own.
    assert.match(first.summary, new RegExp(`broken tests[^\\n]*${BROKEN_TEST}`));
    assert.ok(!made.github.issues().some((one) => one.title.includes(BROKEN_TEST)));
    assert.match(first.summary, /commits whose only red builds were flakes: 2 of 4 \(50%\)/);

    // A later triage: one more flake of the same test is a comment on its issue, not a new one.
    flakedAgain(made);
    const requests = made.model.requests.length;
    const second = await runAction(made, {
      eventName: "schedule",
      payload: schedule(made),
      runId: "1002",
    });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(made.github.issues().filter((one) => one.labels.includes("flaky-test")).length, 1);
    assert.equal(made.model.requests.length, requests, "a proposed fix is not worked on again");
    const comments = made.github.comments(issue.number).map((comment) => comment.body);
    assert.ok(
      comments.some((body) => /It failed again: 1 new failure/.test(body)),
      JSON.stringify(comments),
    );
    assert.equal(made.github.pulls().length, 1);
  });
});
