/**
 * The flake ledger: every flaky test the scheduled triage has found, grouped with the tests that
 * fail together, with where it failed, what was done about it (an issue, a fix, a quarantine) and
 * the decisions made from it — which flake to work on first (`rankEntries`), when a merged fix or
 * quarantine has held long enough to close or undo (`dueForClosing`, `dueForUnquarantine`). Pure
 * functions over `FlakeLedger`; it is kept in the triage thread's notes under FLAKE_LEDGER_NAME,
 * checked on every restore by `flakeLedgerSchema` and kept within FLAKE_BOUNDS on every change.
 * Finding the flakes is detect.ts's job.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type {
  Detection,
  FlakeEntry,
  FlakeEvidence,
  FlakeLedger,
  FlakeOccurrence,
  FlakeStatus,
  RerunBatch,
} from "../domain/flaky.ts";
import { FLAKE_CATEGORIES } from "../domain/flaky.ts";
import { PitcrewError } from "../errors.ts";
import { FIRST_ERROR_LIMIT, KEY_LENGTH } from "../ci/signature.ts";
import { storedLedger } from "../ci/stored-ledger.ts";
import { byOccurrence } from "./detect.ts";

/** The ledger's name in the notes' `ledgers` record. */
export const FLAKE_LEDGER_NAME = "flaky-triage";

/**
 * What the ledger holds at most, so the notes' state file (256 KiB) keeps room for the other
 * ledgers: past `entries` or `bytes`, the entries least recently changed are dropped, closed ones
 * first; an entry keeps its newest `occurrences` and its first `tests`.
 */
export const FLAKE_BOUNDS = {
  entries: 200,
  occurrences: 50,
  tests: 20,
  /** JSON.stringify(ledger, null, 2) in UTF-8. */
  bytes: 96 * 1024,
} as const;

export const EMPTY_FLAKE_LEDGER: FlakeLedger = { entries: {} };

const EVIDENCE: { [Evidence in FlakeEvidence]: Evidence } = {
  "rerun-passed": "rerun-passed",
  "other-run-passed": "other-run-passed",
  "junit-retry": "junit-retry",
};

const STATUSES: { [Status in FlakeStatus]: Status } = {
  open: "open",
  "fix-proposed": "fix-proposed",
  quarantined: "quarantined",
  broken: "broken",
  closed: "closed",
};

const id = z.number().int().positive();
const count = z.number().int().nonnegative();
const hexKey = (what: string) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${KEY_LENGTH}}$`), `expected ${what}`);

const occurrenceSchema: z.ZodType<FlakeOccurrence> = z.strictObject({
  runId: id,
  attempt: id,
  job: z.string(),
  workflow: z.string().min(1),
  headSha: z.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id"),
  at: z.iso.datetime(),
  signature: hexKey("a failure signature key"),
  firstError: z.string().max(FIRST_ERROR_LIMIT),
  evidence: z.enum(EVIDENCE),
  red: z.boolean(),
});

const rerunSchema: z.ZodType<RerunBatch> = z.strictObject({
  condition: z.string().min(1),
  command: z.string(),
  runs: count,
  failures: count,
  changes: z.string(),
});

const entrySchema: z.ZodType<FlakeEntry> = z.strictObject({
  tests: z.array(z.string().min(1)).min(1).max(FLAKE_BOUNDS.tests),
  occurrences: z.array(occurrenceSchema).max(FLAKE_BOUNDS.occurrences),
  status: z.enum(STATUSES),
  issue: id.optional(),
  pullRequest: id.optional(),
  category: z.enum(FLAKE_CATEGORIES).optional(),
  reruns: z.array(rerunSchema).optional(),
  changedAt: z.iso.datetime(),
  unquarantineProposedAt: z.iso.datetime().optional(),
  triedAt: z.iso.datetime().optional(),
});

/** FlakeLedger exactly, within FLAKE_BOUNDS: what a restored ledger must be to be used. */
export const flakeLedgerSchema: z.ZodType<FlakeLedger> = z
  .strictObject({
    entries: z
      .record(hexKey("an entry key"), entrySchema)
      .refine((entries) => Object.keys(entries).length <= FLAKE_BOUNDS.entries, {
        error: `more than ${FLAKE_BOUNDS.entries} entries`,
      }),
  })
  .refine((ledger) => flakeLedgerBytes(ledger) <= FLAKE_BOUNDS.bytes, {
    error: `over ${FLAKE_BOUNDS.bytes} bytes`,
  });

/** The ledger's size as the notes write it. */
export function flakeLedgerBytes(ledger: FlakeLedger): number {
  return Buffer.byteLength(JSON.stringify(ledger, null, 2));
}

/** The ledger in a restored notes state's `ledgers` (ci/stored-ledger.ts), or the empty one. */
export function flakeLedgerFromNotes(ledgers: Record<string, unknown>): FlakeLedger {
  return storedLedger(ledgers, FLAKE_LEDGER_NAME, flakeLedgerSchema, EMPTY_FLAKE_LEDGER);
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b);
}

/** An entry's key: the same tests, in any order, have the same key on every run. */
export function entryKey(tests: readonly string[]): string {
  const sorted = [...new Set(tests)].sort(byText);
  return createHash("sha256").update(JSON.stringify(sorted)).digest("hex").slice(0, KEY_LENGTH);
}

/** What makes two occurrences one: the same failure of the same job of the same attempt. */
function occurrenceKey(occurrence: FlakeOccurrence): string {
  return JSON.stringify([
    occurrence.runId,
    occurrence.attempt,
    occurrence.job,
    occurrence.signature,
  ]);
}

function distinct(occurrences: readonly FlakeOccurrence[]): FlakeOccurrence[] {
  const byKey = new Map(occurrences.map((occurrence) => [occurrenceKey(occurrence), occurrence]));
  return [...byKey.values()].sort(byOccurrence);
}

export interface FlakeGroup {
  tests: string[];
  occurrences: FlakeOccurrence[];
}

/**
 * The detection's tests grouped by the attempts they failed in: tests that failed in exactly the
 * same jobs of the same attempts are one group, since one cause is the likely story.
 */
export function groupFlakes(flakes: Detection["flakes"]): FlakeGroup[] {
  const groups = new Map<string, FlakeGroup>();
  for (const [test, occurrences] of Object.entries(flakes)) {
    const where = [
      ...new Set(
        occurrences.map((occurrence) =>
          JSON.stringify([occurrence.runId, occurrence.attempt, occurrence.job]),
        ),
      ),
    ]
      .sort(byText)
      .join("\n");
    const group = groups.get(where) ?? { tests: [], occurrences: [] };
    group.tests.push(test);
    group.occurrences.push(...occurrences);
    groups.set(where, group);
  }
  return [...groups.values()]
    .map((group) => ({ tests: group.tests.sort(byText), occurrences: distinct(group.occurrences) }))
    .sort((a, b) => byText(a.tests[0] ?? "", b.tests[0] ?? ""));
}

/** The entry that holds the most of `tests` (ties: the lowest key), if any holds one. */
function holderOf(
  entries: Readonly<Record<string, FlakeEntry>>,
  tests: readonly string[],
): string | undefined {
  let best: { key: string; held: number } | undefined;
  for (const key of Object.keys(entries).sort(byText)) {
    const held = tests.filter((test) => entries[key]!.tests.includes(test)).length;
    if (held > 0 && (best === undefined || held > best.held)) best = { key, held };
  }
  return best?.key;
}

/** The latest of some times, if any is given. */
function newestOf(times: readonly (string | undefined)[]): string | undefined {
  return times.reduce<string | undefined>(
    (latest, at) =>
      at === undefined || (latest !== undefined && byTime(latest, at) >= 0) ? latest : at,
    undefined,
  );
}

function newest(occurrences: readonly FlakeOccurrence[]): string | undefined {
  return newestOf(occurrences.map((occurrence) => occurrence.at));
}

/** When an entry last changed: its status, or its newest occurrence, whichever is later. */
function lastChanged(entry: FlakeEntry): string {
  return newestOf([entry.changedAt, newest(entry.occurrences)])!;
}

/**
 * The order entries are dropped in: closed ones first, as nothing is left to do for them; then the
 * least recently changed; among those changed at once (made by one merge), the one that flaked
 * least recently.
 */
function byDropOrder(entries: Readonly<Record<string, FlakeEntry>>) {
  return (a: string, b: string): number => {
    const [first, second] = [entries[a]!, entries[b]!];
    return (
      Number(second.status === "closed") - Number(first.status === "closed") ||
      byTime(lastChanged(first), lastChanged(second)) ||
      byTime(
        newest(first.occurrences) ?? first.changedAt,
        newest(second.occurrences) ?? second.changedAt,
      ) ||
      byText(a, b)
    );
  };
}

/**
 * The ledger within FLAKE_BOUNDS: each entry's newest occurrences and first tests, then, past the
 * entry count or the bytes, entries dropped in byDropOrder.
 */
function bounded(entries: Readonly<Record<string, FlakeEntry>>): FlakeLedger {
  const kept: Record<string, FlakeEntry> = {};
  for (const [key, entry] of Object.entries(entries)) {
    kept[key] = {
      ...entry,
      tests: entry.tests.slice(0, FLAKE_BOUNDS.tests),
      occurrences: [...entry.occurrences].sort(byOccurrence).slice(-FLAKE_BOUNDS.occurrences),
    };
  }
  const dropOrder = Object.keys(kept).sort(byDropOrder(kept));
  while (
    dropOrder.length > 0 &&
    (Object.keys(kept).length > FLAKE_BOUNDS.entries ||
      flakeLedgerBytes({ entries: kept }) > FLAKE_BOUNDS.bytes)
  ) {
    delete kept[dropOrder.shift()!];
  }
  return { entries: kept };
}

export interface EntryChange {
  key: string;
  /** Occurrences the entry did not have before (and kept within its bounds). */
  added: FlakeOccurrence[];
  /** A closed entry that failed again after it was closed. */
  reopened: boolean;
  created: boolean;
}

/** The status an entry has after a merge, from its status before and what the merge brought. */
function statusAfter(
  entry: FlakeEntry,
  added: readonly FlakeOccurrence[],
  brokenAt: string | undefined,
): FlakeStatus {
  const latest = newest(entry.occurrences);
  if (brokenAt !== undefined && (latest === undefined || byTime(brokenAt, latest) > 0)) {
    return "broken";
  }
  const since = entry.status === "broken" ? (brokenAt ?? entry.changedAt) : entry.changedAt;
  const failedSince = added.some((occurrence) => byTime(occurrence.at, since) > 0);
  if ((entry.status === "broken" || entry.status === "closed") && failedSince) return "open";
  return entry.status;
}

/**
 * The ledger with a detection merged in, and what changed. Each group of co-failing tests joins the
 * entry that holds the most of its tests (taking in those no entry holds yet), or a new `open` one;
 * its occurrences are added unless known, so merging a detection twice changes nothing the second
 * time. A closed entry that failed after it was closed is open again; an entry whose tests were
 * broken (failed on every attempt of a commit) after their newest flake is `broken`, and open again
 * once it flakes after that; a broken test no entry holds gets an entry of its own. Then
 * FLAKE_BOUNDS are kept.
 */
export function mergeDetection(
  ledger: FlakeLedger,
  detection: Detection,
  now: string,
): { ledger: FlakeLedger; changes: EntryChange[] } {
  const entries: Record<string, FlakeEntry> = { ...ledger.entries };
  const touched = new Set<string>();
  const heldTests = new Set(Object.values(entries).flatMap((entry) => entry.tests));
  const hold = (key: string, entry: FlakeEntry): void => {
    entries[key] = entry;
    for (const test of entry.tests) heldTests.add(test);
    touched.add(key);
  };

  for (const group of groupFlakes(detection.flakes)) {
    const tests = group.tests.slice(0, FLAKE_BOUNDS.tests);
    const key = holderOf(entries, group.tests) ?? entryKey(tests);
    const entry = entries[key] ?? { tests: [], occurrences: [], status: "open", changedAt: now };
    const unheld = group.tests.filter((test) => !heldTests.has(test));
    hold(key, {
      ...entry,
      tests: [...entry.tests, ...unheld].slice(0, FLAKE_BOUNDS.tests),
      occurrences: distinct([...entry.occurrences, ...group.occurrences]),
    });
  }

  const brokenAt = new Map<string, string>();
  for (const broken of detection.broken) {
    const known = brokenAt.get(broken.test);
    if (known === undefined || byTime(broken.at, known) > 0) brokenAt.set(broken.test, broken.at);
  }
  for (const test of brokenAt.keys()) {
    const key = holderOf(entries, [test]);
    if (key !== undefined) touched.add(key);
    else
      hold(entryKey([test]), { tests: [test], occurrences: [], status: "broken", changedAt: now });
  }

  const knownBefore = (key: string) =>
    new Set((ledger.entries[key]?.occurrences ?? []).map(occurrenceKey));
  const reopened = new Set<string>();
  for (const key of touched) {
    const entry = entries[key]!;
    const known = knownBefore(key);
    const added = entry.occurrences.filter((occurrence) => !known.has(occurrenceKey(occurrence)));
    const status = statusAfter(
      entry,
      added,
      newestOf(entry.tests.map((test) => brokenAt.get(test))),
    );
    if (status === entry.status) continue;
    if (entry.status === "closed" && status === "open") reopened.add(key);
    entries[key] = { ...entry, status, changedAt: now };
  }

  const bounds = bounded(entries);
  const changes: EntryChange[] = [];
  for (const key of [...touched].sort(byText)) {
    const entry = bounds.entries[key];
    if (entry === undefined) continue;
    const before = ledger.entries[key];
    const known = knownBefore(key);
    const added = entry.occurrences.filter((occurrence) => !known.has(occurrenceKey(occurrence)));
    if (before === undefined || added.length > 0 || entry.status !== before.status) {
      changes.push({ key, added, reopened: reopened.has(key), created: before === undefined });
    }
  }
  return { ledger: bounds, changes };
}

export interface RankedEntry {
  key: string;
  entry: FlakeEntry;
  score: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The open entries, the one most worth working on first: each occurrence counts for 1, halved
 * every `halfLifeDays` of age (a flake of last week matters less than one of today), and twice as
 * much when it turned its run red (it cost someone a re-run). Ties go by key.
 */
export function rankEntries(ledger: FlakeLedger, now: string, halfLifeDays = 7): RankedEntry[] {
  const nowMs = Date.parse(now);
  return Object.entries(ledger.entries)
    .filter(([, entry]) => entry.status === "open")
    .map(([key, entry]) => ({
      key,
      entry,
      score: entry.occurrences.reduce((sum, occurrence) => {
        const ageDays = Math.max(0, nowMs - Date.parse(occurrence.at)) / DAY_MS;
        return sum + 0.5 ** (ageDays / halfLifeDays) * (occurrence.red ? 2 : 1);
      }, 0),
    }))
    .sort((a, b) => b.score - a.score || byText(a.key, b.key));
}

/** What the triage records about an entry after acting on it; a field given as undefined is cleared. */
export type EntryOutcome = Partial<
  Pick<
    FlakeEntry,
    | "status"
    | "issue"
    | "pullRequest"
    | "category"
    | "reruns"
    | "unquarantineProposedAt"
    | "triedAt"
  >
>;

/** The ledger with `change` made to the entry `key`; a new status is dated `at`. */
export function recordOutcome(
  ledger: FlakeLedger,
  key: string,
  change: EntryOutcome,
  at: string,
): FlakeLedger {
  const entry = ledger.entries[key];
  if (entry === undefined) {
    throw new PitcrewError(
      "flaky-entry-unknown",
      `The flaky-test ledger has no entry ${key}: it was dropped to stay within its bounds, or the key is not one of its entries; take the key from this triage's ranking.`,
    );
  }
  const { status, ...fields } = change;
  const next: FlakeEntry = { ...entry };
  for (const field of Object.keys(fields) as (keyof typeof fields)[]) {
    if (fields[field] === undefined) delete next[field];
    else Object.assign(next, { [field]: fields[field] });
  }
  if (status !== undefined && status !== entry.status) {
    next.status = status;
    next.changedAt = at;
  }
  return bounded({ ...ledger.entries, [key]: next });
}

/** Whether the entry failed after `since`. */
function failedAfter(entry: FlakeEntry, since: number): boolean {
  return entry.occurrences.some((occurrence) => Date.parse(occurrence.at) > since);
}

/** Whether `mergedAt` was `lookbackMs` ago or longer and the entry has not failed since. */
function heldSince(
  entry: FlakeEntry,
  now: string,
  lookbackMs: number,
  mergedAt: string | undefined,
): boolean {
  if (mergedAt === undefined) return false;
  const merged = Date.parse(mergedAt);
  return Date.parse(now) - merged >= lookbackMs && !failedAfter(entry, merged);
}

/**
 * Whether a proposed fix has held: its pull request was merged (at `mergedAt`) a whole look-back
 * window ago, and the test has not flaked since — the window saw it pass, so the entry can close.
 */
export function dueForClosing(
  entry: FlakeEntry,
  now: string,
  lookbackMs: number,
  mergedAt: string | undefined,
): boolean {
  return entry.status === "fix-proposed" && heldSince(entry, now, lookbackMs, mergedAt);
}

/**
 * Whether a quarantine's removal should be proposed: the quarantine was merged a whole look-back
 * window ago, nothing has flaked since, and no removal was proposed yet (one proposal, not one per
 * triage).
 */
export function dueForUnquarantine(
  entry: FlakeEntry,
  now: string,
  lookbackMs: number,
  mergedAt: string | undefined,
): boolean {
  return (
    entry.status === "quarantined" &&
    entry.unquarantineProposedAt === undefined &&
    heldSince(entry, now, lookbackMs, mergedAt)
  );
}
