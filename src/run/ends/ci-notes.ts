/**
 * The failure ledgers of CI repair. Each failing branch is a thread (`ci-<branch>`) whose notes
 * hold its own ledger, so two branches failing at once never write one artifact; the cap on one
 * failure across branches reads the other branches' ledgers too (restored with every check a
 * restore makes: only pitcrew's own sealed notes count). A run that needs no agent (a re-run, a
 * comment) saves its ledger without a session.
 */
import { EMPTY_LEDGER, ledgerFromNotes } from "../../ci/ledger.ts";
import type { FailureLedger } from "../../domain/ci.ts";
import type { Notes } from "../../domain/notes.ts";
import { ZERO_USAGE } from "../../domain/usage.ts";
import { describeError } from "../../errors.ts";
import { nextState } from "../../store/notes.ts";
import type { RunFacts } from "../../store/notes.ts";
import type { NotesStore } from "../../store/store.ts";

/** Other branches' threads read for the cap across branches, most recently saved first. */
export const OTHER_BRANCHES_READ = 10;

/** A thread's ledger; a ledger that fails its check is a warning and counts as empty. */
export function ledgerOf(
  notes: Notes | undefined,
  log: { warning(message: string): void },
): FailureLedger {
  if (notes === undefined) return EMPTY_LEDGER;
  try {
    return ledgerFromNotes(notes.state.ledgers);
  } catch (error) {
    log.warning(
      `the failure ledger of ${notes.state.threadKey} was not used: ${describeError(error)}`,
    );
    return EMPTY_LEDGER;
  }
}

/**
 * The ledgers of the other `ci-` threads. Listing or restoring one may fail (a missing
 * permission, an expired artifact): that branch counts for nothing, with a warning, since the
 * per-branch and per-commit caps still hold.
 */
export async function otherLedgers(
  store: NotesStore,
  threadKey: string,
  log: { warning(message: string): void },
): Promise<FailureLedger[]> {
  let keys: string[];
  try {
    keys = await store.threads("ci-", OTHER_BRANCHES_READ + 1);
  } catch (error) {
    log.warning(`could not list the other branches' failure ledgers: ${describeError(error)}`);
    return [];
  }
  const others = keys.filter((key) => key !== threadKey).slice(0, OTHER_BRANCHES_READ);
  const restored = await Promise.all(others.map((key) => store.restore(key)));
  return restored.flatMap((outcome) => (outcome.found ? [ledgerOf(outcome.notes, log)] : []));
}

/**
 * The ledger the caps are decided on: this branch's, with the other branches' attempts on the
 * same failures added (they name their own branch, so the branch cap does not count them).
 */
export function withOtherBranches(
  own: FailureLedger,
  others: readonly FailureLedger[],
): FailureLedger {
  const failures = { ...own.failures };
  for (const other of others) {
    for (const [key, failure] of Object.entries(other.failures)) {
      const mine = failures[key];
      failures[key] =
        mine === undefined
          ? failure
          : { ...mine, attempts: [...mine.attempts, ...failure.attempts] };
    }
  }
  return { failures };
}

/** Where the thread's notes say it works: its fix branch, from the failing branch. */
export type LedgerPlace = Pick<
  RunFacts,
  "threadKey" | "repository" | "branch" | "baseBranch" | "baseSha"
>;

/**
 * Saves the thread's notes with only its ledgers changed (a CI repair's failures, a triage's
 * flakes, by their names): the note, the transcript and the rest of the state as they were, the
 * run counted with no turns.
 */
export async function saveLedgers(
  store: NotesStore,
  restored: Notes | undefined,
  place: LedgerPlace,
  ledgers: Record<string, unknown>,
): Promise<void> {
  const state = nextState(restored?.state, {
    ...place,
    headSha: restored?.state.headSha ?? null,
    prNumber: restored?.state.prNumber ?? null,
    todos: restored?.state.todos ?? [],
    stopReason: restored?.state.stopReason ?? null,
    turns: 0,
    usage: ZERO_USAGE,
    cost: 0,
    ledgers,
  });
  await store.save({ note: restored?.note ?? "", state, transcript: restored?.transcript ?? "" });
}
