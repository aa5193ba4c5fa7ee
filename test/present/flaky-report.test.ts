/**
 * The words of a flaky-test triage (src/present/flaky-report.ts): the marker a tracking issue is
 * found by, the evidence table with untrusted test names and errors kept inside their cells, the
 * reruns with the fix's confidence, and a quarantine's pull request section that never reads as a
 * fix.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { FlakeEntry, FlakeOccurrence } from "../../src/domain/flaky.ts";
import {
  flakyPullSection,
  markedKey,
  occurrenceTable,
  rerunTable,
  trackingBody,
  trackingMarker,
  trackingTitle,
} from "../../src/present/flaky-report.ts";

const occurrence = (overrides: Partial<FlakeOccurrence> = {}): FlakeOccurrence => ({
  runId: 11,
  attempt: 1,
  job: "test",
  workflow: ".github/workflows/ci.yml",
  headSha: "a".repeat(40),
  at: "2026-12-01T06:00:00Z",
  signature: "0123456789ab",
  firstError: "Error: boom",
  evidence: "rerun-passed",
  red: true,
  ...overrides,
});

/** The cells of a table row, split where GitHub splits: at pipes not escaped. */
const cells = (row: string): string[] => row.split(/(?<!\\)\|/).slice(1, -1);

describe("the tracking issue", () => {
  test("its marker names its key, and only a well-formed marker does", () => {
    assert.equal(markedKey(`text\n${trackingMarker("0123456789ab")}\n`), "0123456789ab");
    assert.equal(markedKey("<!-- pitcrew:flaky-test nothex -->"), undefined);
    assert.equal(markedKey(null), undefined);
  });

  test("a test name or an error with pipes, backticks and mentions stays inside its cell", () => {
    const table = occurrenceTable(
      [occurrence({ job: "a | b", firstError: "`x` | @mallory <img src=x onerror=alert(1)>" })],
      (id) => `https://github.com/o/r/actions/runs/${id}`,
    );
    const row = table.split("\n")[2]!;
    assert.equal(cells(row).length, 6, row);
    assert.match(row, /\[11\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/11\) #1/);
    // The error is one code span (its fence longer than the backticks inside): no mention, no HTML.
    assert.match(cells(row)[5]!.trim(), /^`` `x` \\\| @mallory <img[^`]*`` `0123456789ab`$/);
  });

  test("the title names one test, or the first two of a group and how many more", () => {
    assert.equal(trackingTitle({ tests: ["a"] }), "Flaky test: a");
    assert.equal(trackingTitle({ tests: ["a", "b", "c"] }), "Flaky tests: a, b and 1 more");
  });

  test("the body holds the marker, the status, every failure and the reruns", () => {
    const entry: FlakeEntry = {
      tests: ["suite › test"],
      occurrences: [occurrence(), occurrence({ runId: 12, evidence: "other-run-passed" })],
      status: "quarantined",
      pullRequest: 9,
      category: "async-wait",
      reruns: [{ condition: "shuffled", command: "npx jest", runs: 20, failures: 3, changes: "h" }],
      changedAt: "2026-12-02T00:00:00Z",
    };
    const body = trackingBody({
      key: "0123456789ab",
      entry,
      runUrl: (id) => `https://x/runs/${id}`,
      lookbackDays: 14,
    });
    assert.ok(body.startsWith(trackingMarker("0123456789ab")));
    assert.match(body, /\*\*Status:\*\* quarantined \(skipped, not fixed\)/);
    assert.match(body, /\*\*Cause:\*\* async-wait/);
    assert.match(body, /\*\*Pull request:\*\* #9/);
    assert.match(body, /### Failures in CI \(2\)/);
    assert.match(body, /passed in another run/);
    assert.match(body, /\| `shuffled` \| 20 \| 3 \|/);
    assert.match(body, /stays green for 14 days/);
  });
});

describe("the reruns and the pull request", () => {
  const batches = [
    { condition: "TZ=Asia/Tokyo", command: "npx jest", runs: 20, failures: 4, changes: "a" },
    { condition: "TZ=Asia/Tokyo", command: "npx jest", runs: 30, failures: 0, changes: "b" },
  ];

  test("a fix's confidence: the chance the green batch would have failed had nothing changed", () => {
    const table = rerunTable(batches, {
      category: "time",
      action: "fix",
      condition: "TZ=Asia/Tokyo",
      because: "x",
    });
    // 1 - 0.8^30 = 0.9988
    assert.match(
      table,
      /failed 4 of 20 runs before the fix and 0 of 30 after: .* with 100% probability/,
    );
    assert.equal(rerunTable([]), "_No reruns in the sandbox yet._");
  });

  test("a quarantine's section says it is not a fix and links the issue", () => {
    const section = flakyPullSection({
      verdict: { category: "unknown", action: "quarantine", because: "cannot fix it" },
      batches,
      issueUrl: "https://github.com/o/r/issues/7",
    });
    assert.match(section, /\*\*Quarantine, not a fix:\*\*/);
    assert.match(section, /https:\/\/github\.com\/o\/r\/issues\/7 tracks it/);
    assert.doesNotMatch(section, /proved in the sandbox/);
  });
});
