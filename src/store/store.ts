/**
 * The one interface every notes backend implements: a workflow artifact per thread on GitHub
 * (store/artifact.ts), a git ref per thread where GitHub has no artifacts (store/ref-store.ts), a
 * folder for the CLI and tests (store/local.ts). What the notes hold is domain/notes.ts. Nothing
 * here does I/O.
 */
import type { Notes } from "../domain/notes.ts";

export type Restored =
  | {
      found: true;
      notes: Notes;
      /** Where they came from, for people: "artifact 123 of run 456". */ from: string;
    }
  /**
   * Nothing to continue from: none saved, expired, unreadable, oversized — `reason` says which.
   * `damaged`: notes were there but could not be used (a warning, not a plain fresh start).
   */
  | { found: false; reason: string; damaged?: boolean };

export interface NotesStore {
  /** Saves (or replaces) this run's notes for the thread; later saves in a run win. */
  save(notes: Notes): Promise<void>;
  /** The newest notes saved for the thread by any earlier run (or by this one). */
  restore(threadKey: string): Promise<Restored>;
  /**
   * The keys of the threads with notes whose key starts with `prefix` (`ci-`: every branch a CI
   * repair has worked on), most recently saved first, at most `limit`. Listing trusts nothing:
   * whoever reads one restores it, with every check that makes.
   */
  threads(prefix: string, limit: number): Promise<string[]>;
}

/** The artifact's name for a thread: one per thread, newest wins across runs. */
export function notesName(threadKey: string): string {
  return `pitcrew-notes-${threadKey}`;
}
