/**
 * Whether an agent's verdict on a flaky test stands (src/flaky/verdict.ts): a fix needs a failing
 * batch and then a big-enough green batch under the same condition on the very changes delivered,
 * and no weakening (a widened budget is none); a quarantine is the skip marker, linked to the
 * tracking issue, and nothing else; "none" changes nothing; each refusal says what is missing.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findWeakenings } from "../../src/ci/weakened.ts";
import type { FlakeVerdict, RerunBatch } from "../../src/domain/flaky.ts";
import { verdictProblem } from "../../src/flaky/verdict.ts";
import type { VerdictFacts } from "../../src/flaky/verdict.ts";
import { CI_WORDS } from "../../src/present/ci-words.ts";

const ISSUE = "https://github.com/o/r/issues/7";

/** A unified diff of one test file's line changed. */
function diffOf(file: string, before: string, after: string): string {
  return [
    `diff --git a/${file} b/${file}`,
    `--- a/${file}`,
    `+++ b/${file}`,
    "@@ -1,3 +1,3 @@",
    " import { test } from 'node:test';",
    `-${before}`,
    `+${after}`,
    " // end",
    "",
  ].join("\n");
}

const WIDENED = diffOf(
  "src/timer.test.js",
  "test('fires', async () => { await wait(10); assert.ok(elapsed() < 15); });",
  "test('fires', async () => { await wait(10); assert.ok(elapsed() < 2000); });",
);
const SKIPPED = diffOf(
  "src/timer.test.js",
  "test('fires', async () => {",
  `test.skip('fires', async () => { // quarantined: ${ISSUE}`,
);

const batch = (condition: string, runs: number, failures: number, changes: string): RerunBatch => ({
  condition,
  command: "npx jest timer",
  runs,
  failures,
  changes,
});

const FIX: FlakeVerdict = {
  category: "time",
  action: "fix",
  condition: "loaded",
  because: "tight",
};

function facts(overrides: Partial<VerdictFacts>): VerdictFacts {
  const diff = overrides.diff ?? WIDENED;
  return {
    verdict: FIX,
    batches: [batch("loaded", 20, 5, "base"), batch("loaded", 20, 0, "final")],
    changes: "final",
    diff,
    weakenings: findWeakenings(diff),
    reruns: 20,
    quarantineAllowed: true,
    issueUrl: ISSUE,
    refused: CI_WORDS.refusedWeakening,
    ...overrides,
  };
}

describe("a fix", () => {
  test("stands on a failing batch, then a green one of the configured size on the final changes; a widened budget is no weakening", () => {
    assert.deepEqual(findWeakenings(WIDENED), []);
    const seeded = diffOf(
      "src/pick.test.js",
      "const pick = Math.random();",
      "const pick = seeded(42)();",
    );
    assert.deepEqual(findWeakenings(seeded), [], "seeding randomness is a fix too");
    assert.equal(verdictProblem(facts({})), undefined);
  });

  test("without a failure under its condition, nothing shows it fixes anything", () => {
    const problem = verdictProblem(facts({ batches: [batch("loaded", 20, 0, "final")] }));
    assert.match(problem ?? "", /No rerun batch under "loaded" failed/);
  });

  test("a green batch on other changes, too small, or still failing does not count", () => {
    assert.match(
      verdictProblem(facts({ changes: "edited-after" })) ?? "",
      /at least 20 runs, all passing \(the last one ran on other changes/,
    );
    assert.match(
      verdictProblem(
        facts({ batches: [batch("loaded", 20, 5, "base"), batch("loaded", 5, 0, "final")] }),
      ) ?? "",
      /the last one ran 5 times/,
    );
    assert.match(
      verdictProblem(
        facts({ batches: [batch("loaded", 20, 5, "base"), batch("loaded", 20, 1, "final")] }),
      ) ?? "",
      /still failed 1 of 20 runs/,
    );
  });

  test("an empty diff, a missing condition and a weakening are each named", () => {
    assert.match(verdictProblem(facts({ diff: "" })) ?? "", /holds no change/);
    assert.match(
      verdictProblem(facts({ verdict: { ...FIX, condition: undefined } })) ?? "",
      /names the condition/,
    );
    assert.match(verdictProblem(facts({ diff: SKIPPED })) ?? "", /^refused-weakening/);
  });
});

describe("a quarantine", () => {
  const QUARANTINE: FlakeVerdict = { category: "unknown", action: "quarantine", because: "x" };

  test("stands on the framework's skip marker with the tracking issue linked", () => {
    assert.equal(verdictProblem(facts({ verdict: QUARANTINE, diff: SKIPPED })), undefined);
  });

  test("without the link, without a marker, or when switched off, it is refused", () => {
    const unlinked = SKIPPED.replace(ISSUE, "see the issue");
    assert.match(
      verdictProblem(facts({ verdict: QUARANTINE, diff: unlinked })) ?? "",
      /links the tracking issue/,
    );
    assert.match(verdictProblem(facts({ verdict: QUARANTINE, diff: WIDENED })) ?? "", /adds none/);
    assert.match(
      verdictProblem(facts({ verdict: QUARANTINE, diff: SKIPPED, quarantineAllowed: false })) ?? "",
      /switched off/,
    );
  });

  test("any other weakening beside the marker is refused by name", () => {
    const deleted = [
      SKIPPED,
      "diff --git a/src/other.test.js b/src/other.test.js",
      "--- a/src/other.test.js",
      "+++ b/src/other.test.js",
      "@@ -1,3 +1,2 @@",
      " test('b', () => {",
      "-  assert.equal(b(), 2);",
      " });",
      "",
    ].join("\n");
    assert.match(
      verdictProblem(facts({ verdict: QUARANTINE, diff: deleted })) ?? "",
      /^refused-weakening/,
    );
  });
});

describe("no verdict, and none", () => {
  test("finishing without a verdict is sent back to record one", () => {
    assert.match(verdictProblem(facts({ verdict: undefined })) ?? "", /flaky_verdict tool/);
  });

  test("none stands with no change, and not with one", () => {
    const none: FlakeVerdict = { category: "unknown", action: "none", because: "0 of 100" };
    assert.equal(verdictProblem(facts({ verdict: none, diff: "" })), undefined);
    assert.match(verdictProblem(facts({ verdict: none })) ?? "", /changes nothing/);
  });
});
