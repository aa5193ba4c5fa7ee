/**
 * The failure ledger: every failure pitcrew has seen in a repository, by signature, with each
 * repair attempt on it — and the one decision it exists for, whether a failed run gets a repair
 * (`repairDecision`, `repairPlan`) or is skipped with a reason a person understands. Pure functions
 * over `FailureLedger`; the ledger is kept in the notes' `ledgers` record under LEDGER_NAME, checked
 * on every restore by `ledgerSchema` and kept small by `recordAttempt` (LEDGER_BOUNDS).
 */
import { z } from "zod";
import type {
  AttemptOutcome,
  FailureLedger,
  FailureSignature,
  RepairAttempt,
  RepairCaps,
} from "../domain/ci.ts";
import { CI_WORDS } from "../present/ci-words.ts";
import { FIRST_ERROR_LIMIT, KEY_LENGTH } from "./signature.ts";
import { storedLedger } from "./stored-ledger.ts";

/** The ledger's name in the notes' `ledgers` record. */
export const LEDGER_NAME = "ci-repair";

/**
 * What the ledger holds at most, so the notes' state file stays far below its 256 KiB cap with
 * room for the other ledgers: a failure beyond `failures`, or past `bytes` of JSON as the notes
 * write it, drops the failure least recently attempted; an attempt beyond `attempts` drops that
 * failure's oldest. No cap counts past `attempts` (attempts-per-signature is at most that).
 */
export const LEDGER_BOUNDS = {
  failures: 100,
  attempts: 10,
  /** Failing test ids kept per failure (the key covers them all), each at most `testChars`. */
  tests: 10,
  testChars: 200,
  firstErrorChars: FIRST_ERROR_LIMIT,
  branchChars: 255,
  /** JSON.stringify(ledger, null, 2) in UTF-8. */
  bytes: 64 * 1024,
} as const;

export const EMPTY_LEDGER: FailureLedger = { failures: {} };

/** The event a decision is about: one failed attempt of one run, on one commit of one branch. */
export interface RepairEvent {
  signature: FailureSignature;
  runId: number;
  attempt: number;
  headSha: string;
  branch: string;
  /**
   * When the run failed (ISO): the branch cap counts the attempts of the BRANCH_WINDOW_MS before
   * it, so a long-lived branch is not cut off for good. Without it, every attempt counts.
   */
  at?: string;
}

/** The branch cap's window: attempts per branch per day. */
export const BRANCH_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Why a failure is not repaired now; `says` (RepairDecision) puts it in words. */
export type SkipReason =
  | { kind: "already-handled"; runId: number; attempt: number }
  | { kind: "tried-on-commit"; runs: number[]; cap: number }
  | { kind: "branch-cap"; branch: string; attempts: number; cap: number }
  | { kind: "signature-cap"; attempts: number; runs: number[]; cap: number }
  | { kind: "dollars-cap"; spentUsd: number; cap: number };

export type RepairDecision = { go: true } | { go: false; skip: SkipReason; says: string };

const OUTCOMES: { [Outcome in AttemptOutcome]: Outcome } = {
  "pull-request": "pull-request",
  draft: "draft",
  "no-change": "no-change",
  "refused-weakening": "refused-weakening",
  rerun: "rerun",
  commented: "commented",
  failed: "failed",
};

const id = z.number().int().positive();

const attemptSchema: z.ZodType<RepairAttempt> = z.strictObject({
  runId: id,
  attempt: id,
  headSha: z.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id"),
  branch: z.string().min(1).max(LEDGER_BOUNDS.branchChars),
  outcome: z.enum(OUTCOMES),
  pullRequest: id.optional(),
  costUsd: z.number().finite().nonnegative(),
  at: z.iso.datetime(),
});

const failureSchema = z.strictObject({
  firstError: z.string().max(LEDGER_BOUNDS.firstErrorChars),
  tests: z.array(z.string().max(LEDGER_BOUNDS.testChars)).max(LEDGER_BOUNDS.tests),
  firstSeen: z.iso.datetime(),
  attempts: z.array(attemptSchema).max(LEDGER_BOUNDS.attempts),
});

/** FailureLedger exactly, within LEDGER_BOUNDS: what a restored ledger must be to be used. */
export const ledgerSchema: z.ZodType<FailureLedger> = z
  .strictObject({
    failures: z
      .record(
        z.string().regex(new RegExp(`^[0-9a-f]{${KEY_LENGTH}}$`), "expected a failure key"),
        failureSchema,
      )
      .refine((failures) => Object.keys(failures).length <= LEDGER_BOUNDS.failures, {
        error: `more than ${LEDGER_BOUNDS.failures} failures`,
      }),
  })
  .refine((ledger) => ledgerBytes(ledger) <= LEDGER_BOUNDS.bytes, {
    error: `over ${LEDGER_BOUNDS.bytes} bytes`,
  });

/** The ledger's size as the notes write it. */
export function ledgerBytes(ledger: FailureLedger): number {
  return Buffer.byteLength(JSON.stringify(ledger, null, 2));
}

/** The ledger in a restored notes state's `ledgers` (stored-ledger.ts), or the empty one. */
export function ledgerFromNotes(ledgers: Record<string, unknown>): FailureLedger {
  return storedLedger(ledgers, LEDGER_NAME, ledgerSchema, EMPTY_LEDGER);
}

/** Attempts that count against the caps: all but re-runs of flaky jobs, which try nothing. */
function counted(attempts: readonly RepairAttempt[]): RepairAttempt[] {
  return attempts.filter((attempt) => attempt.outcome !== "rerun");
}

function runsOf(attempts: readonly RepairAttempt[]): number[] {
  return [...new Set(attempts.map((attempt) => attempt.runId))];
}

/**
 * Whether `event`'s failure gets a repair now, checked in this order: the same run attempt was
 * handled already (a repeat of the event, or another job of the run with the same failure); this
 * failure was tried on this commit `perHeadSha` times; the branch had `perBranch` attempts, on any
 * failure; this failure had `perSignature` attempts on any branch; `dollarsPerSignature` was spent
 * on it. Re-runs of flaky jobs are handled repeats but count against no cap.
 */
export function repairDecision(
  ledger: FailureLedger,
  event: RepairEvent,
  caps: RepairCaps,
): RepairDecision {
  return decide(ledger, event, caps, 0);
}

function decide(
  ledger: FailureLedger,
  event: RepairEvent,
  caps: RepairCaps,
  pendingOnBranch: number,
): RepairDecision {
  const attempts = ledger.failures[event.signature.key]?.attempts ?? [];
  if (attempts.some((past) => past.runId === event.runId && past.attempt === event.attempt)) {
    return skip({ kind: "already-handled", runId: event.runId, attempt: event.attempt });
  }
  const tries = counted(attempts);
  const onCommit = tries.filter((past) => past.headSha === event.headSha);
  if (onCommit.length >= caps.perHeadSha) {
    return skip({ kind: "tried-on-commit", runs: runsOf(onCommit), cap: caps.perHeadSha });
  }
  const branch = cut(event.branch, LEDGER_BOUNDS.branchChars);
  const onBranch =
    pendingOnBranch +
    Object.values(ledger.failures)
      .flatMap((failure) => counted(failure.attempts))
      .filter((past) => past.branch === branch && withinWindow(past.at, event.at)).length;
  if (onBranch >= caps.perBranch) {
    return skip({
      kind: "branch-cap",
      branch: event.branch,
      attempts: onBranch,
      cap: caps.perBranch,
    });
  }
  if (tries.length >= caps.perSignature) {
    return skip({
      kind: "signature-cap",
      attempts: tries.length,
      runs: runsOf(tries),
      cap: caps.perSignature,
    });
  }
  const spentUsd = attempts.reduce((sum, past) => sum + past.costUsd, 0);
  if (spentUsd >= caps.dollarsPerSignature) {
    return skip({ kind: "dollars-cap", spentUsd, cap: caps.dollarsPerSignature });
  }
  return { go: true };
}

/** Whether an attempt at `at` counts against the branch cap of an event at `now`. */
function withinWindow(at: string, now: string | undefined): boolean {
  if (now === undefined) return true;
  return Date.parse(now) - Date.parse(at) < BRANCH_WINDOW_MS;
}

function skip(reason: SkipReason): RepairDecision {
  return { go: false, skip: reason, says: skipWords(reason) };
}

/** The sentence for a skip, naming the setting that would change it. */
export function skipWords(reason: SkipReason): string {
  switch (reason.kind) {
    case "already-handled":
      return CI_WORDS.alreadyHandled(reason.runId, reason.attempt);
    case "tried-on-commit":
      return CI_WORDS.triedOnCommit(reason.runs, reason.cap);
    case "branch-cap":
      return CI_WORDS.branchCap(reason.branch, reason.attempts, reason.cap);
    case "signature-cap":
      return CI_WORDS.signatureCap(reason.attempts, reason.runs, reason.cap);
    case "dollars-cap":
      return CI_WORDS.dollarsCap(reason.spentUsd, reason.cap);
  }
}

/** One failed run's failures, one entry per distinct signature, each with its decision. */
export interface PlannedRepair {
  signature: FailureSignature;
  decision: RepairDecision;
}

/**
 * The decisions for every failure of one failed run attempt: the same signature on several jobs is
 * one repair, and each repair the plan lets go counts against the branch's cap for the next, so a
 * run with more failures than the branch has attempts left goes no further than the cap.
 */
export function repairPlan(
  ledger: FailureLedger,
  run: Omit<RepairEvent, "signature">,
  signatures: readonly FailureSignature[],
  caps: RepairCaps,
): PlannedRepair[] {
  const distinct = [...new Map(signatures.map((signature) => [signature.key, signature])).values()];
  let going = 0;
  return distinct.map((signature) => {
    const decision = decide(ledger, { ...run, signature }, caps, going);
    if (decision.go) going += 1;
    return { signature, decision };
  });
}

/** The re-run of this failure's jobs on `headSha`, if one was made (rerun-flaky makes one). */
export function rerunOnCommit(
  ledger: FailureLedger,
  key: string,
  headSha: string,
): RepairAttempt | undefined {
  return ledger.failures[key]?.attempts.find(
    (past) => past.outcome === "rerun" && past.headSha === headSha,
  );
}

/** ISO times in order, whatever their precision. */
function byTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b);
}

function cut(text: string, limit: number): string {
  const characters = Array.from(text);
  return characters.length > limit ? characters.slice(0, limit).join("") : text;
}

/** When a failure was last worked on: its newest attempt, or when it was first seen. */
function lastActive(failure: FailureLedger["failures"][string]): string {
  return failure.attempts.reduce(
    (latest, attempt) => (byTime(attempt.at, latest) > 0 ? attempt.at : latest),
    failure.firstSeen,
  );
}

/**
 * The ledger with `attempt` on `signature` recorded: the failure added when new, the attempt
 * replacing one of the same run attempt (a checkpoint, then the final save), then LEDGER_BOUNDS
 * kept — the failure's oldest attempts dropped past `attempts`, and the failures least recently
 * attempted dropped (never this one) past `failures` or `bytes`.
 */
export function recordAttempt(
  ledger: FailureLedger,
  signature: FailureSignature,
  attempt: RepairAttempt,
): FailureLedger {
  const known = ledger.failures[signature.key];
  const failure = known ?? {
    firstError: cut(signature.firstError, LEDGER_BOUNDS.firstErrorChars),
    tests: signature.tests
      .slice(0, LEDGER_BOUNDS.tests)
      .map((test) => cut(test, LEDGER_BOUNDS.testChars)),
    firstSeen: attempt.at,
    attempts: [],
  };
  const others = failure.attempts.filter(
    (past) => past.runId !== attempt.runId || past.attempt !== attempt.attempt,
  );
  const attempts = [
    ...others,
    { ...attempt, branch: cut(attempt.branch, LEDGER_BOUNDS.branchChars) },
  ]
    .sort((a, b) => byTime(a.at, b.at))
    .slice(-LEDGER_BOUNDS.attempts);
  const failures = { ...ledger.failures, [signature.key]: { ...failure, attempts } };
  return bounded({ failures }, signature.key);
}

function bounded(ledger: FailureLedger, keep: string): FailureLedger {
  const failures = { ...ledger.failures };
  const oldestFirst = Object.keys(failures)
    .filter((key) => key !== keep)
    .sort((a, b) => {
      const order = byTime(lastActive(failures[a]!), lastActive(failures[b]!));
      return order !== 0 ? order : a < b ? -1 : 1;
    });
  while (
    oldestFirst.length > 0 &&
    (Object.keys(failures).length > LEDGER_BOUNDS.failures ||
      ledgerBytes({ failures }) > LEDGER_BOUNDS.bytes)
  ) {
    delete failures[oldestFirst.shift()!];
  }
  return { failures };
}
