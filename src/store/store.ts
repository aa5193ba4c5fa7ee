/**
 * What a thread keeps between runs — the handoff note, a small state file, the full transcript —
 * and the one interface both backends implement: a workflow artifact per thread on GitHub
 * (store/artifact.ts), a folder for the CLI and tests (store/local.ts). Nothing here does I/O.
 */
import type { StopReason } from "../agent/loop.ts";
import type { Usage } from "../agent/messages.ts";
import type { Todo } from "../agent/tools/tool.ts";

/** What the thread has cost so far, all runs together. */
export interface Cumulative {
  runs: number;
  turns: number;
  usage: Usage;
  cost: number;
}

/** The state file: small, schema-checked on every read (store/notes.ts), capped in size. */
export interface ThreadState {
  version: 1;
  /** `issue-12`, `pr-7`, `dispatch-<run id>`. */
  threadKey: string;
  /** `owner/name`: notes are never restored into another repository. */
  repository: string;
  branch: string;
  baseBranch: string;
  /** The base's head when the thread's branch was prepared. */
  baseSha: string;
  /** The thread branch's head after the last push; null before anything was pushed. */
  headSha: string | null;
  prNumber: number | null;
  /** Runs that worked on the thread (this one included once saved). */
  attempts: number;
  cumulative: Cumulative;
  todos: Todo[];
  /** Why the last run stopped; null while a run is still going (a checkpoint). */
  stopReason: StopReason | null;
  /** ISO time of the save. */
  savedAt: string;
  /** Room for the CI-repair attempt ledger and the flake ledger (later issues), by name. */
  ledgers: Record<string, unknown>;
}

/** One line of the transcript (JSONL): every message and every usage record, in order. */
export type TranscriptEntry =
  | { type: "message"; run: number; message: unknown }
  | { type: "usage"; run: number; turn: number; usage: Usage; cost: number };

export interface Notes {
  /** The handoff note (markdown, the compaction format); "" before the first compaction. */
  note: string;
  state: ThreadState;
  /** The transcript as JSONL text, all runs together. */
  transcript: string;
}

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
}

/** The artifact's name for a thread: one per thread, newest wins across runs. */
export function notesName(threadKey: string): string {
  return `pitcrew-notes-${threadKey}`;
}
