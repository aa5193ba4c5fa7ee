/**
 * The failure ledgers across branches (src/run/ends/ci-notes.ts) over the real local store: each
 * branch's thread keeps its own ledger, the cap across branches counts the others' attempts on the
 * same failure, a damaged ledger counts as empty with a warning, and a run without a session
 * saves its ledger with the rest of the notes untouched.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { EMPTY_LEDGER, LEDGER_NAME, recordAttempt, repairDecision } from "../../src/ci/ledger.ts";
import { failureSignature } from "../../src/ci/signature.ts";
import type { FailureLedger } from "../../src/domain/ci.ts";
import {
  ledgerOf,
  otherLedgers,
  saveLedgers,
  withOtherBranches,
} from "../../src/run/ends/ci-notes.ts";
import { createLocalStore } from "../../src/store/local.ts";

const root = mkdtempSync(join(tmpdir(), "pitcrew-ci-notes-"));
after(() => rmSync(root, { recursive: true, force: true }));

const SIGNATURE = failureSignature("TypeError: x is undefined at src/a.ts:3:4", [
  "a.test.ts::adds",
]);
const CAPS = { perHeadSha: 1, perBranch: 3, perSignature: 2, dollarsPerSignature: 5 };

function place(branch: string) {
  return {
    threadKey: `ci-${branch}`,
    repository: "o/r",
    branch: `pitcrew/ci-${branch}`,
    baseBranch: branch,
    baseSha: "a".repeat(40),
  };
}

function attempted(ledger: FailureLedger, branch: string, runId: number): FailureLedger {
  return recordAttempt(ledger, SIGNATURE, {
    runId,
    attempt: 1,
    headSha: `${runId}`.padStart(40, "b"),
    branch,
    outcome: "pull-request",
    costUsd: 0.5,
    at: new Date(Date.UTC(2026, 11, 2, 10, runId % 60)).toISOString(),
  });
}

describe("ledgers across branches", () => {
  test("two attempts on other branches reach the cap across branches for a third branch", async () => {
    const store = createLocalStore(join(root, "cap"));
    await saveLedgers(store, undefined, place("one"), {
      [LEDGER_NAME]: attempted(EMPTY_LEDGER, "one", 1),
    });
    await saveLedgers(store, undefined, place("two"), {
      [LEDGER_NAME]: attempted(EMPTY_LEDGER, "two", 2),
    });
    const warnings: string[] = [];
    const others = await otherLedgers(store, "ci-three", {
      warning: (line) => warnings.push(line),
    });
    assert.equal(others.length, 2);
    assert.deepEqual(warnings, []);
    const combined = withOtherBranches(EMPTY_LEDGER, others);
    const decision = repairDecision(
      combined,
      { signature: SIGNATURE, runId: 3, attempt: 1, headSha: "c".repeat(40), branch: "three" },
      CAPS,
    );
    assert.equal(decision.go, false);
    assert.match(
      decision.go ? "" : decision.says,
      /2 attempts on this failure across branches \(run [12], run [12];/,
    );
    // The branch cap counts only the branch's own attempts.
    const own = repairDecision(
      combined,
      {
        signature: failureSignature("another error", []),
        runId: 3,
        attempt: 1,
        headSha: "c".repeat(40),
        branch: "three",
      },
      CAPS,
    );
    assert.equal(own.go, true);
  });

  test("its own thread is not counted twice", async () => {
    const store = createLocalStore(join(root, "own"));
    await saveLedgers(store, undefined, place("one"), {
      [LEDGER_NAME]: attempted(EMPTY_LEDGER, "one", 1),
    });
    assert.deepEqual(await otherLedgers(store, "ci-one", { warning: () => undefined }), []);
  });

  test("saving the ledger keeps the note and transcript and replaces only the ledger", async () => {
    const store = createLocalStore(join(root, "keep"));
    await saveLedgers(store, undefined, place("one"), {
      [LEDGER_NAME]: attempted(EMPTY_LEDGER, "one", 1),
    });
    const first = await store.restore("ci-one");
    assert.ok(first.found);
    const notes = { ...first.notes, note: "the handoff note", transcript: '{"type":"message"}\n' };
    await saveLedgers(store, notes, place("one"), {
      [LEDGER_NAME]: attempted(ledgerOf(notes, { warning: () => undefined }), "one", 2),
    });
    const second = await store.restore("ci-one");
    assert.ok(second.found);
    assert.equal(second.notes.note, "the handoff note");
    assert.equal(second.notes.transcript, '{"type":"message"}\n');
    assert.equal(second.notes.state.attempts, 2, "each save counts one run");
    const ledger = ledgerOf(second.notes, { warning: () => undefined });
    assert.equal(ledger.failures[SIGNATURE.key]?.attempts.length, 2);
  });

  test("a damaged ledger counts as empty, with a warning that names the thread", () => {
    const warnings: string[] = [];
    const ledger = ledgerOf(
      {
        note: "",
        transcript: "",
        state: {
          threadKey: "ci-x",
          ledgers: { [LEDGER_NAME]: { failures: { nothex: {} } } },
        } as never,
      },
      { warning: (line) => warnings.push(line) },
    );
    assert.deepEqual(ledger, EMPTY_LEDGER);
    assert.match(warnings[0] ?? "", /failure ledger of ci-x was not used/);
  });
});
