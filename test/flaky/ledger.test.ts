/**
 * The flake ledger (src/flaky/ledger.ts): co-failing tests grouped; a detection merged into entries
 * — twice is once, a closed entry reopened by a new flake, broken taking precedence over an older
 * flake and giving way to a newer one — and kept within its bounds; a stored ledger refused, with
 * its path, when it is not one; the ranking of open entries by recency and redness; outcomes
 * recorded; and when a merged fix or quarantine is due to close or be undone.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { failureSignature } from "../../src/ci/signature.ts";
import type {
  BrokenTest,
  Detection,
  FlakeEntry,
  FlakeLedger,
  FlakeOccurrence,
} from "../../src/domain/flaky.ts";
import { PitcrewError } from "../../src/errors.ts";
import { detectFlakes } from "../../src/flaky/detect.ts";
import {
  EMPTY_FLAKE_LEDGER,
  FLAKE_BOUNDS,
  FLAKE_LEDGER_NAME,
  dueForClosing,
  dueForUnquarantine,
  entryKey,
  flakeLedgerBytes,
  flakeLedgerFromNotes,
  flakeLedgerSchema,
  groupFlakes,
  mergeDetection,
  rankEntries,
  recordOutcome,
} from "../../src/flaky/ledger.ts";
import { failed, historyRun, minute, passed, sha } from "../support/flaky-history.ts";
import { seeded } from "../support/random.ts";
import { assertRefused } from "../support/refused.ts";

const A = "test/cart.test.ts > adds an item";
const B = "test/cart.test.ts > removes an item";
const C = "test/pay.test.ts > charges";

const NOW = minute(10_000);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A flake of run `runId`'s first attempt, at minute `runId` unless told otherwise. */
function occurrence(runId: number, overrides: Partial<FlakeOccurrence> = {}): FlakeOccurrence {
  return {
    runId,
    attempt: 1,
    job: "test",
    workflow: ".github/workflows/ci.yml",
    headSha: sha(runId),
    at: minute(runId),
    signature: failureSignature("Error: boom", [A]).key,
    firstError: "Error: boom",
    evidence: "rerun-passed",
    red: true,
    ...overrides,
  };
}

function detection(
  flakes: Record<string, FlakeOccurrence[]>,
  broken: BrokenTest[] = [],
): Detection {
  return { flakes, broken, commits: { total: 1, redOnlyFromFlakes: 0 } };
}

function brokenAt(test: string, n: number): BrokenTest {
  return { test, headSha: sha(n), attempts: [`${n}/1`, `${n}/2`], at: minute(n) };
}

/** The ledger after merging each detection in turn, at minutes 1000, 2000, … */
function merged(...detections: Detection[]): FlakeLedger {
  return detections.reduce(
    (ledger, found, index) => mergeDetection(ledger, found, minute(1000 * (index + 1))).ledger,
    EMPTY_FLAKE_LEDGER,
  );
}

function only(ledger: FlakeLedger): [string, FlakeEntry] {
  const entries = Object.entries(ledger.entries);
  assert.equal(entries.length, 1, "one entry");
  return entries[0]!;
}

describe("entryKey", () => {
  test("12 hex digits, the same for the same tests in any order, another for others", () => {
    assert.match(entryKey([A, B]), /^[0-9a-f]{12}$/);
    assert.equal(entryKey([A, B]), entryKey([B, A]));
    assert.equal(entryKey([A, B]), entryKey([B, A, B]));
    assert.notEqual(entryKey([A, B]), entryKey([A]));
    assert.notEqual(entryKey([A]), entryKey([B]));
  });
});

describe("groupFlakes", () => {
  test("tests failing in the same attempts are one group, its occurrences once each", () => {
    const shared = [occurrence(1), occurrence(2)];
    const groups = groupFlakes({
      [B]: shared,
      [A]: shared,
      [C]: [occurrence(1), occurrence(3)],
    });
    assert.deepEqual(groups, [
      { tests: [A, B], occurrences: shared },
      { tests: [C], occurrences: [occurrence(1), occurrence(3)] },
    ]);
  });

  test("the co-failing tests of one job, from a real detection, are one group", () => {
    const found = detectFlakes([
      historyRun(1, 1, [[failed("test", [A, B])], [passed("test")]]),
      historyRun(2, 2, [[failed("test", [C])], [passed("test")]]),
    ]);
    const groups = groupFlakes(found.flakes);
    assert.deepEqual(
      groups.map((group) => [group.tests, group.occurrences.length]),
      [
        [[A, B], 1],
        [[C], 1],
      ],
    );
  });

  test("two runner retries of one run group together yet keep their own signatures", () => {
    const retry = (test: string) =>
      occurrence(5, {
        job: "",
        evidence: "junit-retry",
        red: false,
        signature: failureSignature("boom", [test]).key,
      });
    const [group] = groupFlakes({ [A]: [retry(A)], [B]: [retry(B)] });
    assert.deepEqual(group?.tests, [A, B]);
    assert.equal(group?.occurrences.length, 2);
  });
});

describe("mergeDetection", () => {
  test("new groups are new open entries, dated now, reported as created", () => {
    const found = detection({ [A]: [occurrence(1)], [B]: [occurrence(1)], [C]: [occurrence(2)] });
    const { ledger, changes } = mergeDetection(EMPTY_FLAKE_LEDGER, found, NOW);
    assert.deepEqual(ledger.entries, {
      [entryKey([A, B])]: {
        tests: [A, B],
        occurrences: [occurrence(1)],
        status: "open",
        changedAt: NOW,
      },
      [entryKey([C])]: { tests: [C], occurrences: [occurrence(2)], status: "open", changedAt: NOW },
    });
    assert.deepEqual(
      changes,
      [
        { key: entryKey([A, B]), added: [occurrence(1)], reopened: false, created: true },
        { key: entryKey([C]), added: [occurrence(2)], reopened: false, created: true },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
  });

  test("merging the same detection twice changes nothing the second time", () => {
    const found = detectFlakes([
      historyRun(1, 1, [[failed("test", [A, B])], [passed("test")]]),
      historyRun(2, 2, [[failed("test", [C])], [failed("test", [C])]]),
      historyRun(3, 1, [[failed("test", [A])], [passed("test")]]),
    ]);
    const once = mergeDetection(EMPTY_FLAKE_LEDGER, found, NOW);
    assert.ok(once.changes.length > 0);
    const twice = mergeDetection(once.ledger, found, minute(20_000));
    assert.deepEqual(twice.ledger, once.ledger);
    assert.deepEqual(twice.changes, []);
  });

  test("a later detection adds only its new occurrences to the entry holding the test", () => {
    const first = merged(detection({ [A]: [occurrence(1), occurrence(2)] }));
    const { ledger, changes } = mergeDetection(
      first,
      detection({ [A]: [occurrence(2), occurrence(3)] }),
      NOW,
    );
    const [key, entry] = only(ledger);
    assert.deepEqual(entry.occurrences, [occurrence(1), occurrence(2), occurrence(3)]);
    assert.deepEqual(changes, [{ key, added: [occurrence(3)], reopened: false, created: false }]);
  });

  test("a group reaching into an entry joins it; its other tests are united in", () => {
    const first = merged(detection({ [A]: [occurrence(1)] }));
    const { ledger } = mergeDetection(
      first,
      detection({ [A]: [occurrence(2)], [B]: [occurrence(2)] }),
      NOW,
    );
    const [key, entry] = only(ledger);
    assert.equal(key, entryKey([A]), "the key stays the one the entry was made with");
    assert.deepEqual(entry.tests, [A, B]);
    assert.deepEqual(entry.occurrences, [occurrence(1), occurrence(2)]);
  });

  test("a test already held by another entry stays there, not in two entries", () => {
    const first = merged(detection({ [A]: [occurrence(1)], [B]: [occurrence(2)] }));
    const { ledger } = mergeDetection(
      first,
      detection({ [A]: [occurrence(3)], [B]: [occurrence(3)], [C]: [occurrence(3)] }),
      NOW,
    );
    const holders = (test: string) =>
      Object.values(ledger.entries).filter((entry) => entry.tests.includes(test)).length;
    assert.deepEqual([holders(A), holders(B), holders(C)], [1, 1, 1]);
    assert.equal(Object.keys(ledger.entries).length, 2);
  });

  test("a closed entry that flakes after it was closed is open again", () => {
    const first = merged(detection({ [A]: [occurrence(1)] }));
    const key = entryKey([A]);
    const closed = recordOutcome(first, key, { status: "closed" }, minute(1500));
    const { ledger, changes } = mergeDetection(closed, detection({ [A]: [occurrence(1600)] }), NOW);
    assert.equal(ledger.entries[key]?.status, "open");
    assert.equal(ledger.entries[key]?.changedAt, NOW);
    assert.deepEqual(changes, [{ key, added: [occurrence(1600)], reopened: true, created: false }]);
  });

  test("a closed entry shown an older flake it had not seen stays closed", () => {
    const first = merged(detection({ [A]: [occurrence(1)] }));
    const key = entryKey([A]);
    const closed = recordOutcome(first, key, { status: "closed" }, minute(1500));
    const { ledger, changes } = mergeDetection(closed, detection({ [A]: [occurrence(2)] }), NOW);
    assert.equal(ledger.entries[key]?.status, "closed");
    assert.equal(ledger.entries[key]?.changedAt, minute(1500));
    assert.deepEqual(changes, [{ key, added: [occurrence(2)], reopened: false, created: false }]);
  });
});

describe("broken before flaky", () => {
  const key = entryKey([A]);

  test("broken after its newest flake: the entry is broken", () => {
    const { ledger, changes } = mergeDetection(
      merged(detection({ [A]: [occurrence(1)] })),
      detection({}, [brokenAt(A, 50)]),
      NOW,
    );
    assert.equal(ledger.entries[key]?.status, "broken");
    assert.equal(ledger.entries[key]?.changedAt, NOW);
    assert.deepEqual(changes, [{ key, added: [], reopened: false, created: false }]);
  });

  test("broken before its newest flake: still open, nothing changed", () => {
    const first = merged(detection({ [A]: [occurrence(60)] }));
    const { ledger, changes } = mergeDetection(first, detection({}, [brokenAt(A, 50)]), NOW);
    assert.deepEqual(ledger, first);
    assert.deepEqual(changes, []);
  });

  test("in one detection, the later of broken and flaky wins", () => {
    const brokenLast = mergeDetection(
      EMPTY_FLAKE_LEDGER,
      detection({ [A]: [occurrence(1)] }, [brokenAt(A, 50)]),
      NOW,
    );
    assert.equal(brokenLast.ledger.entries[key]?.status, "broken");
    const flakyLast = mergeDetection(
      EMPTY_FLAKE_LEDGER,
      detection({ [A]: [occurrence(60)] }, [brokenAt(A, 50)]),
      NOW,
    );
    assert.equal(flakyLast.ledger.entries[key]?.status, "open");
  });

  test("from history: flaky on one commit, then broken on a later one", () => {
    const found = detectFlakes([
      historyRun(1, 1, [[failed("test", [A])], [passed("test")]]),
      historyRun(2, 2, [[failed("test", [A])], [failed("test", [A])]]),
    ]);
    const { ledger } = mergeDetection(EMPTY_FLAKE_LEDGER, found, NOW);
    assert.equal(ledger.entries[key]?.status, "broken");
    assert.equal(ledger.entries[key]?.occurrences.length, 1);
  });

  test("a broken test no entry holds gets an entry of its own, broken, with no occurrences", () => {
    const { ledger, changes } = mergeDetection(
      merged(detection({ [A]: [occurrence(1)] })),
      detection({}, [brokenAt(B, 50), brokenAt(C, 51)]),
      NOW,
    );
    assert.deepEqual(ledger.entries[entryKey([B])], {
      tests: [B],
      occurrences: [],
      status: "broken",
      changedAt: NOW,
    });
    assert.equal(ledger.entries[entryKey([C])]?.status, "broken");
    assert.equal(ledger.entries[key]?.status, "open");
    assert.deepEqual(
      changes.map((change) => [change.key, change.created]),
      [
        [entryKey([B]), true],
        [entryKey([C]), true],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
  });

  test("a broken entry that flakes again later is open again", () => {
    const broken = merged(detection({ [A]: [occurrence(1)] }, [brokenAt(A, 50)]));
    assert.equal(broken.entries[key]?.status, "broken");
    const { ledger, changes } = mergeDetection(
      broken,
      detection({ [A]: [occurrence(1), occurrence(5000)] }),
      NOW,
    );
    assert.equal(ledger.entries[key]?.status, "open");
    assert.deepEqual(changes, [
      { key, added: [occurrence(5000)], reopened: false, created: false },
    ]);
  });
});

describe("FLAKE_BOUNDS", () => {
  test("an entry keeps its newest occurrences", () => {
    const random = seeded(7);
    const minutes = Array.from({ length: 80 }, (_, n) => n + 1).sort(() => random() - 0.5);
    const { ledger } = mergeDetection(
      EMPTY_FLAKE_LEDGER,
      detection({ [A]: minutes.map((n) => occurrence(n)) }),
      NOW,
    );
    const [, entry] = only(ledger);
    assert.equal(entry.occurrences.length, FLAKE_BOUNDS.occurrences);
    assert.deepEqual(
      entry.occurrences.map((kept) => kept.runId),
      Array.from({ length: 50 }, (_, n) => n + 31),
    );
  });

  test("a group of more tests than an entry holds keeps its first ones, the same each time", () => {
    const tests = Array.from({ length: 30 }, (_, n) => `test/t${String(n).padStart(2, "0")}`);
    const found = detection(Object.fromEntries(tests.map((test) => [test, [occurrence(1)]])));
    const once = mergeDetection(EMPTY_FLAKE_LEDGER, found, NOW);
    const [key, entry] = only(once.ledger);
    assert.deepEqual(entry.tests, tests.slice(0, FLAKE_BOUNDS.tests));
    assert.equal(key, entryKey(tests.slice(0, FLAKE_BOUNDS.tests)));
    assert.deepEqual(mergeDetection(once.ledger, found, NOW).changes, []);
  });

  test("past the entry count, closed entries go first, then the least recently changed", () => {
    const random = seeded(11);
    const test = (n: number) => `test/generated.test.ts > case ${n}`;
    // 190 small entries (broken ones have no occurrences), changed at random minutes, a third closed.
    const entries: Record<string, FlakeEntry> = {};
    for (let n = 0; n < 190; n += 1) {
      entries[entryKey([test(n)])] = {
        tests: [test(n)],
        occurrences: [],
        status: n % 3 === 0 ? "closed" : "broken",
        changedAt: minute(Math.floor(random() * 900)),
      };
    }
    const closedKeys = Object.keys(entries).filter((key) => entries[key]!.status === "closed");
    assert.equal(closedKeys.length, 64);
    // 20 broken tests of their own and 10 flakes: 220 in all, 20 over.
    const { ledger, changes } = mergeDetection(
      { entries },
      detection(
        Object.fromEntries(
          Array.from({ length: 10 }, (_, n) => [test(2000 + n), [occurrence(2000 + n)]]),
        ),
        Array.from({ length: 20 }, (_, n) => brokenAt(test(1000 + n), 1000 + n)),
      ),
      minute(3000),
    );
    assert.ok(flakeLedgerBytes(ledger) < FLAKE_BOUNDS.bytes, "the count binds here, not the bytes");
    assert.equal(Object.keys(ledger.entries).length, FLAKE_BOUNDS.entries);
    assert.equal(changes.length, 30, "every new entry is kept and reported");
    const closedLeft = closedKeys.filter((key) => key in ledger.entries);
    const newestClosed = [...closedKeys]
      .sort(
        (a, b) =>
          Date.parse(entries[a]!.changedAt) - Date.parse(entries[b]!.changedAt) || (a < b ? -1 : 1),
      )
      .slice(-44);
    assert.deepEqual(closedLeft.sort(), newestClosed.sort(), "the 20 oldest closed ones dropped");
    assert.ok(
      Object.keys(entries).every(
        (key) => entries[key]!.status === "closed" || key in ledger.entries,
      ),
      "no open or broken entry dropped while a closed one could go",
    );
    assert.ok(flakeLedgerSchema.safeParse(ledger).success);
  });

  test("past the bytes, the least recently changed entries go, and the ledger restores", () => {
    const random = seeded(23);
    const flakes: Record<string, FlakeOccurrence[]> = {};
    for (let n = 0; n < 200; n += 1) {
      flakes[`test/big.test.ts > case ${n}`] = Array.from({ length: 3 }, (_, k) =>
        occurrence(n * 100 + k + 1, {
          at: minute(Math.floor(random() * 5000)),
          firstError: `Error: ${"x".repeat(200)} ${n}`,
        }),
      );
    }
    const { ledger, changes } = mergeDetection(EMPTY_FLAKE_LEDGER, detection(flakes), NOW);
    const kept = Object.values(ledger.entries);
    assert.ok(kept.length < 200 && kept.length > 10, `${kept.length} entries kept`);
    assert.ok(flakeLedgerBytes(ledger) <= FLAKE_BOUNDS.bytes);
    assert.equal(changes.length, kept.length, "no change is reported for a dropped entry");
    // All were made by this merge: every entry kept flaked more recently than every one dropped.
    const newestOf = (occurrences: FlakeOccurrence[]) =>
      Math.max(...occurrences.map((found) => Date.parse(found.at)));
    const keptTests = new Set(kept.flatMap((entry) => entry.tests));
    const dropped = Object.entries(flakes).filter(([test]) => !keptTests.has(test));
    assert.equal(dropped.length, 200 - kept.length);
    const oldestKept = Math.min(...kept.map((entry) => newestOf(entry.occurrences)));
    assert.ok(dropped.every(([, occurrences]) => newestOf(occurrences) <= oldestKept));
    // And no more went than the bound needs: the last one dropped would not have fitted.
    const [lastTest, lastOccurrences] = dropped.reduce((latest, next) =>
      newestOf(next[1]) > newestOf(latest[1]) ? next : latest,
    );
    const alone = mergeDetection(
      EMPTY_FLAKE_LEDGER,
      detection({ [lastTest]: lastOccurrences }),
      NOW,
    );
    assert.ok(
      flakeLedgerBytes({ entries: { ...ledger.entries, ...alone.ledger.entries } }) >
        FLAKE_BOUNDS.bytes,
    );
    assert.deepEqual(
      flakeLedgerFromNotes({ [FLAKE_LEDGER_NAME]: JSON.parse(JSON.stringify(ledger)) as unknown }),
      ledger,
    );
  });
});

describe("flakeLedgerFromNotes", () => {
  test("no ledger yet is the empty one; a stored one comes back as it was", () => {
    assert.deepEqual(flakeLedgerFromNotes({}), EMPTY_FLAKE_LEDGER);
    assert.deepEqual(flakeLedgerFromNotes({ "ci-repair": { failures: {} } }), EMPTY_FLAKE_LEDGER);
    const ledger = recordOutcome(
      merged(detection({ [A]: [occurrence(1)] }, [brokenAt(B, 2)])),
      entryKey([A]),
      {
        status: "fix-proposed",
        issue: 12,
        pullRequest: 13,
        category: "time",
        reruns: [
          { condition: "TZ=Asia/Tokyo", command: "npm test", runs: 20, failures: 3, changes: "ab" },
        ],
      },
      minute(3000),
    );
    const stored = JSON.parse(JSON.stringify(ledger)) as unknown;
    assert.deepEqual(flakeLedgerFromNotes({ [FLAKE_LEDGER_NAME]: stored }), ledger);
  });

  const key = entryKey([A]);
  const valid = JSON.parse(JSON.stringify(merged(detection({ [A]: [occurrence(1)] })))) as {
    entries: Record<string, { occurrences: Record<string, unknown>[] } & Record<string, unknown>>;
  };
  const entry = valid.entries[key]!;
  const withEntry = (change: Record<string, unknown>) => ({
    entries: { [key]: { ...entry, ...change } },
  });
  const withOccurrence = (change: Record<string, unknown>) =>
    withEntry({ occurrences: [{ ...entry.occurrences[0], ...change }] });
  const path = `ledgers.flaky-triage.entries.${key}`;
  const refused: [name: string, stored: unknown, message: string][] = [
    ["not an object", [], "ledgers.flaky-triage: Invalid input: expected object, received array"],
    [
      "a field it does not know",
      { ...valid, version: 2 },
      "ledgers.flaky-triage.version: not a known field",
    ],
    [
      "a key that is not an entry key",
      { entries: { "adds-an-item": entry } },
      "ledgers.flaky-triage.entries.adds-an-item: expected an entry key",
    ],
    ["a status it does not know", withEntry({ status: "fixed" }), `${path}.status: Invalid option`],
    ["an entry with no tests", withEntry({ tests: [] }), `${path}.tests: `],
    ["a category it does not know", withEntry({ category: "cosmic-rays" }), `${path}.category: `],
    [
      "an evidence it does not know",
      withOccurrence({ evidence: "gut-feeling" }),
      `${path}.occurrences.0.evidence: Invalid option`,
    ],
    [
      "a commit that is no commit id",
      withOccurrence({ headSha: "main" }),
      `${path}.occurrences.0.headSha: expected a commit id`,
    ],
    [
      "a signature that is no key",
      withOccurrence({ signature: "boom" }),
      `${path}.occurrences.0.signature: expected a failure signature key`,
    ],
    [
      "a time that is no ISO time",
      withEntry({ changedAt: "last tuesday" }),
      `${path}.changedAt: Invalid ISO datetime`,
    ],
    [
      "too many occurrences",
      withEntry({ occurrences: Array(51).fill(entry.occurrences[0]) }),
      `${path}.occurrences: `,
    ],
    [
      "too many entries",
      {
        entries: Object.fromEntries(
          Array.from({ length: 201 }, (_, n) => [n.toString(16).padStart(12, "0"), entry]),
        ),
      },
      "ledgers.flaky-triage.entries: more than 200 entries",
    ],
    [
      "too many bytes",
      {
        entries: Object.fromEntries(
          Array.from({ length: 100 }, (_, n) => [
            n.toString(16).padStart(12, "0"),
            { ...entry, occurrences: Array(50).fill(entry.occurrences[0]) },
          ]),
        ),
      },
      "ledgers.flaky-triage: over 98304 bytes",
    ],
  ];
  for (const [name, stored, message] of refused) {
    test(`refused with its path: ${name}`, () => {
      assertRefused(
        () => flakeLedgerFromNotes({ [FLAKE_LEDGER_NAME]: stored }),
        "notes-invalid",
        `state.json: ${message}`,
      );
    });
  }
});

describe("rankEntries", () => {
  const at = (daysAgo: number) => new Date(Date.parse(NOW) - daysAgo * DAY_MS).toISOString();

  test("each occurrence halves every half-life, and counts double when it turned its run red", () => {
    const ledger = merged(
      detection({
        [A]: [occurrence(1, { at: at(0) })],
        [B]: [occurrence(2, { at: at(7), red: false })],
        [C]: [occurrence(3, { at: at(14) }), occurrence(4, { at: at(0), red: false })],
      }),
    );
    const ranked = rankEntries(ledger, NOW);
    assert.deepEqual(
      ranked.map((found) => [found.entry.tests[0], found.score]),
      [
        [A, 2],
        [C, 0.25 * 2 + 1],
        [B, 0.5],
      ],
    );
    assert.equal(
      rankEntries(ledger, NOW, 14).find((found) => found.key === entryKey([B]))?.score,
      0.5 ** 0.5,
    );
  });

  test("recent beats old, red beats green at the same age, and ties go by key", () => {
    const ledger = merged(
      detection({
        [A]: [occurrence(1, { at: at(3) })],
        [B]: [occurrence(2, { at: at(1), red: false })],
        [C]: [occurrence(3, { at: at(1) })],
        "test/d": [occurrence(4, { at: at(1) })],
      }),
    );
    const keys = rankEntries(ledger, NOW).map((found) => found.entry.tests[0]);
    const tied = [C, "test/d"].sort((a, b) => (entryKey([a]) < entryKey([b]) ? -1 : 1));
    assert.deepEqual(keys, [...tied, A, B]);
  });

  test("only open entries are ranked", () => {
    let ledger = merged(
      detection({ [A]: [occurrence(1)], [B]: [occurrence(2)], [C]: [occurrence(3)] }, [
        brokenAt("test/d", 4),
      ]),
    );
    ledger = recordOutcome(ledger, entryKey([A]), { status: "quarantined" }, NOW);
    ledger = recordOutcome(ledger, entryKey([B]), { status: "fix-proposed" }, NOW);
    assert.deepEqual(
      rankEntries(ledger, NOW).map((found) => found.entry.tests),
      [[C]],
    );
  });
});

describe("recordOutcome", () => {
  const key = entryKey([A]);
  const ledger = merged(detection({ [A]: [occurrence(1)] }));

  test("a new status is dated; other fields are not", () => {
    const proposed = recordOutcome(
      ledger,
      key,
      { status: "fix-proposed", issue: 4, pullRequest: 5, category: "async-wait" },
      minute(2000),
    );
    assert.deepEqual(proposed.entries[key], {
      ...ledger.entries[key],
      status: "fix-proposed",
      issue: 4,
      pullRequest: 5,
      category: "async-wait",
      changedAt: minute(2000),
    });
    const again = recordOutcome(proposed, key, { status: "fix-proposed", pullRequest: 6 }, NOW);
    assert.equal(again.entries[key]?.changedAt, minute(2000));
    assert.equal(again.entries[key]?.pullRequest, 6);
  });

  test("a field given as undefined is cleared", () => {
    const proposed = recordOutcome(ledger, key, { unquarantineProposedAt: minute(3) }, NOW);
    assert.equal(proposed.entries[key]?.unquarantineProposedAt, minute(3));
    const cleared = recordOutcome(proposed, key, { unquarantineProposedAt: undefined }, NOW);
    assert.ok(!("unquarantineProposedAt" in cleared.entries[key]!));
    assert.deepEqual(cleared, ledger);
  });

  test("an entry the ledger does not have is a named error", () => {
    assert.throws(
      () => recordOutcome(ledger, "000000000000", { status: "closed" }, NOW),
      (error) =>
        error instanceof PitcrewError &&
        error.code === "flaky-entry-unknown" &&
        /no entry 000000000000/.test(error.message),
    );
  });
});

describe("dueForClosing and dueForUnquarantine", () => {
  const LOOKBACK = 7 * DAY_MS;
  const mergedAt = minute(100);
  const weekLater = new Date(Date.parse(mergedAt) + LOOKBACK).toISOString();
  const entry = (overrides: Partial<FlakeEntry>): FlakeEntry => ({
    tests: [A],
    occurrences: [occurrence(50)],
    status: "fix-proposed",
    changedAt: minute(90),
    ...overrides,
  });

  test("a fix merged a look-back ago with no flake since is due to close", () => {
    assert.equal(dueForClosing(entry({}), weekLater, LOOKBACK, mergedAt), true);
  });

  test("not yet: too soon, flaked since, not merged, or not a proposed fix", () => {
    const justBefore = new Date(Date.parse(weekLater) - 1).toISOString();
    assert.equal(dueForClosing(entry({}), justBefore, LOOKBACK, mergedAt), false);
    const flakedAfter = entry({ occurrences: [occurrence(50), occurrence(101)] });
    assert.equal(dueForClosing(flakedAfter, weekLater, LOOKBACK, mergedAt), false);
    assert.equal(dueForClosing(entry({}), weekLater, LOOKBACK, undefined), false);
    assert.equal(dueForClosing(entry({ status: "open" }), weekLater, LOOKBACK, mergedAt), false);
  });

  test("a quarantine merged a look-back ago, quiet since, is due to be undone once", () => {
    const quarantined = entry({ status: "quarantined" });
    assert.equal(dueForUnquarantine(quarantined, weekLater, LOOKBACK, mergedAt), true);
    const proposed = { ...quarantined, unquarantineProposedAt: weekLater };
    assert.equal(dueForUnquarantine(proposed, weekLater, LOOKBACK, mergedAt), false);
  });

  test("a quarantine not yet due: too soon, flaked since, not merged, or not quarantined", () => {
    const quarantined = entry({ status: "quarantined" });
    assert.equal(dueForUnquarantine(quarantined, minute(200), LOOKBACK, mergedAt), false);
    const flakedAfter = { ...quarantined, occurrences: [occurrence(101)] };
    assert.equal(dueForUnquarantine(flakedAfter, weekLater, LOOKBACK, mergedAt), false);
    assert.equal(dueForUnquarantine(quarantined, weekLater, LOOKBACK, undefined), false);
    assert.equal(dueForUnquarantine(entry({}), weekLater, LOOKBACK, mergedAt), false);
  });
});
