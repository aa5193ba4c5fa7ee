/**
 * The failure ledger (src/ci/ledger.ts): whether a failed run gets a repair — each cap in its
 * order, with the words that name its setting; a repeat of the same event; the same failure on
 * several jobs as one repair; the branch's cap counting the repairs the plan lets go; re-runs of
 * flaky jobs counting against no cap — and how attempts are recorded and kept within bounds, and
 * a stored ledger refused, with its path, when it is not one.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  EMPTY_LEDGER,
  LEDGER_BOUNDS,
  LEDGER_NAME,
  ledgerBytes,
  ledgerFromNotes,
  ledgerSchema,
  recordAttempt,
  repairDecision,
  repairPlan,
  rerunOnCommit,
  skipWords,
} from "../../src/ci/ledger.ts";
import type { RepairEvent } from "../../src/ci/ledger.ts";
import { failureSignature } from "../../src/ci/signature.ts";
import type {
  FailureLedger,
  FailureSignature,
  RepairAttempt,
  RepairCaps,
} from "../../src/domain/ci.ts";
import { assertRefused } from "../support/refused.ts";

const CAPS: RepairCaps = { perHeadSha: 1, perBranch: 3, perSignature: 2, dollarsPerSignature: 5 };

/** A commit id made from a small number, so tests can say "commit 1" and "commit 2". */
function sha(n: number): string {
  return n.toString(16).padStart(40, "0");
}

function signature(name: string): FailureSignature {
  return failureSignature(`Error: ${name} failed`, [`tests/${name}.test.ts > ${name}`]);
}

const TYPE_ERROR = signature("types");
const LINT = signature("lint");
const E2E = signature("e2e");

/** The minute `n` of a day, as the ledger stores times. */
function at(n: number): string {
  return new Date(Date.UTC(2026, 6, 30, 10, n)).toISOString();
}

function attempt(runId: number, overrides: Partial<RepairAttempt> = {}): RepairAttempt {
  return {
    runId,
    attempt: 1,
    headSha: sha(runId),
    branch: "main",
    outcome: "pull-request",
    pullRequest: 100 + runId,
    costUsd: 0.5,
    at: at(runId),
    ...overrides,
  };
}

function event(runId: number, failure: FailureSignature, overrides: Partial<RepairEvent> = {}) {
  return {
    signature: failure,
    runId,
    attempt: 1,
    headSha: sha(runId),
    branch: "main",
    ...overrides,
  };
}

/** A ledger with each attempt recorded, in order. */
function ledgerOf(...records: [FailureSignature, RepairAttempt][]): FailureLedger {
  return records.reduce(
    (ledger, [failure, tried]) => recordAttempt(ledger, failure, tried),
    EMPTY_LEDGER,
  );
}

describe("repairDecision: each cap, in order, in words that name its setting", () => {
  test("a failure never seen goes", () => {
    assert.deepEqual(repairDecision(EMPTY_LEDGER, event(1, TYPE_ERROR), CAPS), { go: true });
  });

  test("a repeat of the same event: already handled, whatever became of it", () => {
    for (const outcome of ["pull-request", "rerun", "failed", "refused-weakening"] as const) {
      const ledger = ledgerOf([TYPE_ERROR, attempt(7, { outcome })]);
      assert.deepEqual(repairDecision(ledger, event(7, TYPE_ERROR), CAPS), {
        go: false,
        skip: { kind: "already-handled", runId: 7, attempt: 1 },
        says: "already handled (run 7, attempt 1)",
      });
    }
    // The next attempt of the same run is another event.
    const ledger = ledgerOf([TYPE_ERROR, attempt(7, { outcome: "rerun" })]);
    assert.deepEqual(repairDecision(ledger, event(7, TYPE_ERROR, { attempt: 2 }), CAPS), {
      go: true,
    });
  });

  test("attempts-per-sha: this failure was tried on this commit", () => {
    const ledger = ledgerOf([TYPE_ERROR, attempt(7)]);
    const again = event(8, TYPE_ERROR, { headSha: sha(7) });
    assert.deepEqual(repairDecision(ledger, again, CAPS), {
      go: false,
      skip: { kind: "tried-on-commit", runs: [7], cap: 1 },
      says: "already tried on this commit (run 7; the cap, ci-repair.attempts-per-sha: 1)",
    });
    assert.deepEqual(repairDecision(ledger, again, { ...CAPS, perHeadSha: 2 }), { go: true });
    // Another failure on the same commit is not this one.
    assert.deepEqual(repairDecision(ledger, { ...again, signature: LINT }, CAPS), { go: true });
  });

  test("attempts-per-branch: the branch had its attempts, on any failure", () => {
    const ledger = ledgerOf(
      [TYPE_ERROR, attempt(1)],
      [LINT, attempt(2)],
      [E2E, attempt(3)],
      [TYPE_ERROR, attempt(4, { branch: "dev" })],
    );
    const next = event(5, signature("new"));
    assert.deepEqual(repairDecision(ledger, next, CAPS), {
      go: false,
      skip: { kind: "branch-cap", branch: "main", attempts: 3, cap: 3 },
      says: "3 attempts on branch main in the last 24 hours already (the cap, ci-repair.attempts-per-branch: 3)",
    });
    assert.deepEqual(repairDecision(ledger, { ...next, branch: "feature" }, CAPS), { go: true });
    assert.deepEqual(repairDecision(ledger, next, { ...CAPS, perBranch: 4 }), { go: true });
  });

  test("attempts-per-branch counts the day before the failure: a long-lived branch is not cut off for good", () => {
    const ledger = ledgerOf([TYPE_ERROR, attempt(1)], [LINT, attempt(2)], [E2E, attempt(3)]);
    const sameDay = event(5, signature("new"), { at: at(30) });
    assert.equal(repairDecision(ledger, sameDay, CAPS).go, false);
    const nextDay = event(5, signature("new"), {
      at: new Date(Date.parse(at(3)) + 24 * 60 * 60 * 1000).toISOString(),
    });
    assert.deepEqual(repairDecision(ledger, nextDay, CAPS), { go: true });
  });

  test("attempts-per-signature: this failure had its attempts across branches", () => {
    const ledger = ledgerOf(
      [TYPE_ERROR, attempt(1, { branch: "a" })],
      [TYPE_ERROR, attempt(2, { branch: "b" })],
    );
    const decision = repairDecision(ledger, event(3, TYPE_ERROR, { branch: "c" }), CAPS);
    assert.deepEqual(decision, {
      go: false,
      skip: { kind: "signature-cap", attempts: 2, runs: [1, 2], cap: 2 },
      says: "2 attempts on this failure across branches (run 1, run 2; the cap, ci-repair.attempts-per-signature: 2)",
    });
  });

  test("dollars-per-signature: what was spent on this failure", () => {
    const ledger = ledgerOf([TYPE_ERROR, attempt(1, { costUsd: 5.2, branch: "a" })]);
    assert.deepEqual(repairDecision(ledger, event(2, TYPE_ERROR, { branch: "b" }), CAPS), {
      go: false,
      skip: { kind: "dollars-cap", spentUsd: 5.2, cap: 5 },
      says: "$5.20 spent on this failure already (the cap, ci-repair.dollars-per-signature: $5.00)",
    });
    assert.deepEqual(
      repairDecision(ledger, event(2, TYPE_ERROR, { branch: "b" }), {
        ...CAPS,
        dollarsPerSignature: 6,
      }),
      { go: true },
    );
  });

  test("where several caps are reached, the first in order is the one named", () => {
    const ledger = ledgerOf(
      [TYPE_ERROR, attempt(1, { costUsd: 9 })],
      [TYPE_ERROR, attempt(2, { headSha: sha(1), costUsd: 9 })],
      [LINT, attempt(3)],
    );
    const tight: RepairCaps = {
      perHeadSha: 1,
      perBranch: 1,
      perSignature: 1,
      dollarsPerSignature: 1,
    };
    const order = [
      [event(4, TYPE_ERROR, { headSha: sha(1) }), "tried-on-commit"],
      [event(4, TYPE_ERROR), "branch-cap"],
      [event(4, TYPE_ERROR, { branch: "dev" }), "signature-cap"],
    ] as const;
    for (const [happened, kind] of order) {
      const decision = repairDecision(ledger, happened, tight);
      assert.equal(decision.go ? "go" : decision.skip.kind, kind);
    }
    const dollars = repairDecision(ledger, event(4, TYPE_ERROR, { branch: "dev" }), {
      ...tight,
      perSignature: 5,
    });
    assert.equal(dollars.go ? "go" : dollars.skip.kind, "dollars-cap");
  });

  test("re-runs of flaky jobs count against no cap, and are found on their commit", () => {
    const reruns = [1, 2, 3, 4].map((n) =>
      attempt(n, { headSha: sha(1), outcome: "rerun", costUsd: 0 }),
    );
    const ledger = ledgerOf(
      ...reruns.map((tried) => [TYPE_ERROR, tried] as [FailureSignature, RepairAttempt]),
    );
    assert.deepEqual(repairDecision(ledger, event(5, TYPE_ERROR, { headSha: sha(1) }), CAPS), {
      go: true,
    });
    assert.deepEqual(repairDecision(ledger, event(5, LINT), CAPS), { go: true });
    assert.equal(rerunOnCommit(ledger, TYPE_ERROR.key, sha(1))?.runId, 1);
    assert.equal(rerunOnCommit(ledger, TYPE_ERROR.key, sha(2)), undefined);
    assert.equal(rerunOnCommit(ledger, LINT.key, sha(1)), undefined);
    // A repair attempt is not a re-run.
    assert.equal(rerunOnCommit(ledgerOf([LINT, attempt(1)]), LINT.key, sha(1)), undefined);
  });
});

describe("skipWords", () => {
  test("many runs: the first five and a count; one attempt in the singular", () => {
    assert.equal(
      skipWords({ kind: "tried-on-commit", runs: [1, 2, 3, 4, 5, 6, 7], cap: 7 }),
      "already tried on this commit (run 1, run 2, run 3, run 4, run 5 and 2 more; the cap, ci-repair.attempts-per-sha: 7)",
    );
    assert.equal(
      skipWords({ kind: "branch-cap", branch: "release/1.x", attempts: 1, cap: 1 }),
      "1 attempt on branch release/1.x in the last 24 hours already (the cap, ci-repair.attempts-per-branch: 1)",
    );
    assert.equal(
      skipWords({ kind: "signature-cap", attempts: 1, runs: [9], cap: 1 }),
      "1 attempt on this failure across branches (run 9; the cap, ci-repair.attempts-per-signature: 1)",
    );
  });
});

describe("repairPlan", () => {
  const run = { runId: 10, attempt: 1, headSha: sha(10), branch: "main" };

  test("the same failure on several jobs of one run is one repair", () => {
    const plan = repairPlan(EMPTY_LEDGER, run, [TYPE_ERROR, LINT, TYPE_ERROR, TYPE_ERROR], CAPS);
    assert.deepEqual(
      plan.map((planned) => [planned.signature.key, planned.decision.go]),
      [
        [TYPE_ERROR.key, true],
        [LINT.key, true],
      ],
    );
  });

  test("each repair the plan lets go counts against the branch's cap for the next", () => {
    const ledger = ledgerOf([signature("old"), attempt(1)]);
    const plan = repairPlan(ledger, run, [TYPE_ERROR, LINT, E2E], CAPS);
    assert.deepEqual(
      plan.map((planned) => (planned.decision.go ? "go" : planned.decision.says)),
      [
        "go",
        "go",
        "3 attempts on branch main in the last 24 hours already (the cap, ci-repair.attempts-per-branch: 3)",
      ],
    );
  });

  test("the same event again, once recorded, does nothing", () => {
    const first = repairPlan(EMPTY_LEDGER, run, [TYPE_ERROR, LINT], CAPS);
    const ledger = first.reduce(
      (kept, planned) => recordAttempt(kept, planned.signature, attempt(10)),
      EMPTY_LEDGER,
    );
    const again = repairPlan(ledger, run, [LINT, TYPE_ERROR, LINT], CAPS);
    assert.deepEqual(
      again.map((planned) => (planned.decision.go ? "go" : planned.decision.skip.kind)),
      ["already-handled", "already-handled"],
    );
  });
});

describe("recordAttempt", () => {
  test("a new failure: its first error and tests kept, first seen when first attempted", () => {
    const ledger = recordAttempt(EMPTY_LEDGER, TYPE_ERROR, attempt(1));
    assert.deepEqual(ledger, {
      failures: {
        [TYPE_ERROR.key]: {
          firstError: TYPE_ERROR.firstError,
          tests: TYPE_ERROR.tests,
          firstSeen: at(1),
          attempts: [attempt(1)],
        },
      },
    });
    assert.deepEqual(EMPTY_LEDGER, { failures: {} }, "the ledger given is not changed");
  });

  test("the same run attempt again replaces its entry (a checkpoint, then the final save)", () => {
    const checkpoint = recordAttempt(
      EMPTY_LEDGER,
      TYPE_ERROR,
      attempt(1, { outcome: "draft", costUsd: 0.2 }),
    );
    const final = recordAttempt(checkpoint, TYPE_ERROR, attempt(1, { costUsd: 0.9, at: at(3) }));
    const attempts = final.failures[TYPE_ERROR.key]?.attempts ?? [];
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]?.outcome, "pull-request");
    assert.equal(attempts[0]?.costUsd, 0.9);
    assert.equal(final.failures[TYPE_ERROR.key]?.firstSeen, at(1));
    assert.equal(checkpoint.failures[TYPE_ERROR.key]?.attempts[0]?.outcome, "draft");
    // Another attempt of the same run is another entry.
    const second = recordAttempt(final, TYPE_ERROR, attempt(1, { attempt: 2, at: at(4) }));
    assert.equal(second.failures[TYPE_ERROR.key]?.attempts.length, 2);
  });

  test("past LEDGER_BOUNDS.attempts, a failure's oldest attempts go; times in order", () => {
    let ledger = EMPTY_LEDGER;
    for (const n of [3, 1, 2, ...Array.from({ length: 10 }, (_, i) => i + 4)]) {
      ledger = recordAttempt(ledger, TYPE_ERROR, attempt(n, { outcome: "rerun" }));
    }
    const runs = ledger.failures[TYPE_ERROR.key]?.attempts.map((tried) => tried.runId);
    assert.equal(LEDGER_BOUNDS.attempts, 10);
    assert.deepEqual(runs, [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    assert.equal(ledger.failures[TYPE_ERROR.key]?.firstSeen, at(3));
  });

  test("long tests, first errors and branches are cut to what the schema takes", () => {
    const long = failureSignature(
      `Error: ${"😀".repeat(400)}`,
      Array.from({ length: 15 }, (_, i) => `t${String(i).padStart(2, "0")} ${"é".repeat(300)}`),
    );
    const ledger = recordAttempt(
      EMPTY_LEDGER,
      long,
      attempt(1, { branch: `b/${"x".repeat(300)}` }),
    );
    const failure = ledger.failures[long.key];
    assert.equal(failure?.tests.length, LEDGER_BOUNDS.tests);
    assert.ok(failure.tests.every((test) => Array.from(test).length === LEDGER_BOUNDS.testChars));
    assert.equal(Array.from(failure.firstError).length, LEDGER_BOUNDS.firstErrorChars);
    assert.equal(failure.attempts[0]?.branch.length, LEDGER_BOUNDS.branchChars);
    assert.ok(ledgerSchema.safeParse(ledger).success);
    // The branch cap compares the cut names, so a long branch still counts its attempts.
    const onLong = event(2, long, { branch: `b/${"x".repeat(300)}`, headSha: sha(2) });
    const decision = repairDecision(ledger, onLong, { ...CAPS, perBranch: 1 });
    assert.equal(decision.go ? "go" : decision.skip.kind, "branch-cap");
  });

  test("past LEDGER_BOUNDS.failures, the least recently attempted go, never the one recorded", () => {
    let ledger = EMPTY_LEDGER;
    for (let n = 0; n < LEDGER_BOUNDS.failures; n++) {
      ledger = recordAttempt(ledger, signature(`f${n}`), attempt(n + 10));
    }
    // f0 is attempted again: now the most recent. The newest failure is older than all of them.
    ledger = recordAttempt(ledger, signature("f0"), attempt(500));
    ledger = recordAttempt(ledger, signature("late"), attempt(1));
    const keys = Object.keys(ledger.failures);
    assert.equal(keys.length, LEDGER_BOUNDS.failures);
    assert.ok(keys.includes(signature("late").key), "the failure just recorded stays");
    assert.ok(keys.includes(signature("f0").key), "the one attempted most recently stays");
    assert.ok(!keys.includes(signature("f1").key), "the least recently attempted went");
  });

  test("past LEDGER_BOUNDS.bytes, the least recently attempted go until it fits", () => {
    let ledger = EMPTY_LEDGER;
    const big = (n: number): FailureSignature =>
      failureSignature(
        `Error ${n}: ${"x".repeat(400)}`,
        Array.from({ length: 10 }, (_, i) => `test ${n}/${i} ${"y".repeat(200)}`),
      );
    for (let n = 0; n < 40; n++) ledger = recordAttempt(ledger, big(n), attempt(n + 1));
    assert.ok(ledgerBytes(ledger) <= LEDGER_BOUNDS.bytes, `${ledgerBytes(ledger)} bytes`);
    const kept = Object.keys(ledger.failures);
    assert.ok(kept.length < 40 && kept.length > 10, `${kept.length} kept`);
    assert.ok(kept.includes(big(39).key));
    assert.ok(!kept.includes(big(0).key));
    assert.ok(ledgerSchema.safeParse(ledger).success);
  });
});

describe("ledgerFromNotes", () => {
  test("no ledger yet is the empty one; a stored one comes back as it was", () => {
    assert.deepEqual(ledgerFromNotes({}), EMPTY_LEDGER);
    assert.deepEqual(ledgerFromNotes({ other: { x: 1 } }), EMPTY_LEDGER);
    const ledger = ledgerOf(
      [TYPE_ERROR, attempt(1)],
      [LINT, attempt(2, { pullRequest: undefined })],
    );
    const stored = JSON.parse(JSON.stringify(ledger)) as unknown;
    assert.deepEqual(
      ledgerFromNotes({ [LEDGER_NAME]: stored }),
      JSON.parse(JSON.stringify(ledger)),
    );
  });

  const valid = JSON.parse(JSON.stringify(ledgerOf([TYPE_ERROR, attempt(1)]))) as {
    failures: Record<string, { attempts: Record<string, unknown>[] } & Record<string, unknown>>;
  };
  const failure = valid.failures[TYPE_ERROR.key]!;
  const withAttempt = (change: Record<string, unknown>) => ({
    failures: {
      [TYPE_ERROR.key]: { ...failure, attempts: [{ ...failure.attempts[0], ...change }] },
    },
  });
  const path = `ledgers.ci-repair.failures.${TYPE_ERROR.key}`;
  const refused: [name: string, stored: unknown, message: string][] = [
    [
      "not an object",
      "ledger",
      "ledgers.ci-repair: Invalid input: expected object, received string",
    ],
    [
      "a field it does not know",
      { ...valid, version: 2 },
      "ledgers.ci-repair.version: not a known field",
    ],
    [
      "a key that is not a failure key",
      { failures: { "not-a-key": failure } },
      "ledgers.ci-repair.failures.not-a-key: expected a failure key",
    ],
    [
      "an attempt's unknown field",
      withAttempt({ extra: true }),
      `${path}.attempts.0.extra: not a known field`,
    ],
    [
      "a commit that is no commit id",
      withAttempt({ headSha: "main" }),
      `${path}.attempts.0.headSha: expected a commit id`,
    ],
    ["a negative cost", withAttempt({ costUsd: -1 }), `${path}.attempts.0.costUsd: `],
    [
      "an outcome it does not know",
      withAttempt({ outcome: "merged" }),
      `${path}.attempts.0.outcome: Invalid option`,
    ],
    [
      "a time that is no ISO time",
      withAttempt({ at: "yesterday" }),
      `${path}.attempts.0.at: Invalid ISO datetime`,
    ],
    [
      "too many attempts",
      {
        failures: {
          [TYPE_ERROR.key]: { ...failure, attempts: Array(11).fill(failure.attempts[0]) },
        },
      },
      `${path}.attempts: `,
    ],
    [
      "too many failures",
      {
        failures: Object.fromEntries(
          Array.from({ length: 101 }, (_, n) => [n.toString(16).padStart(12, "0"), failure]),
        ),
      },
      "ledgers.ci-repair.failures: more than 100 failures",
    ],
    [
      "too many bytes",
      {
        failures: Object.fromEntries(
          Array.from({ length: 100 }, (_, n) => [
            n.toString(16).padStart(12, "0"),
            { ...failure, attempts: Array(10).fill(failure.attempts[0]) },
          ]),
        ),
      },
      "ledgers.ci-repair: over 65536 bytes",
    ],
  ];
  for (const [name, stored, message] of refused) {
    test(`refused with its path: ${name}`, () => {
      assertRefused(
        () => ledgerFromNotes({ [LEDGER_NAME]: stored }),
        "notes-invalid",
        `state.json: ${message}`,
      );
    });
  }
});
