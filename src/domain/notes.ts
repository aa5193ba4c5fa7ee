/**
 * What a thread keeps between runs — the handoff note, a small state file, the full transcript —
 * as data. The stores that save and restore them are in store/; the prompt, the checkpoint and
 * the workspace read them. Types only.
 */
import type { StopReason } from "./loop.ts";
import type { Todo } from "./todos.ts";
import type { Usage } from "./usage.ts";

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
/** What a run was, said once at its start in the transcript (the report's header and chart). */
export interface RunStart {
  type: "run";
  run: number;
  /** ISO time the run's session began. */
  at: string;
  threadKey: string;
  repository: string;
  branch: string;
  /** The model's context window and the share of it at which compaction fires (tokens). */
  window: number;
  compactAt: number;
}

export type TranscriptEntry =
  | RunStart
  | { type: "message"; run: number; message: unknown }
  | { type: "usage"; run: number; turn: number; usage: Usage; cost: number }
  /** The request of turn `turn`: its estimated tokens and the context layers that fired for it. */
  | { type: "context"; run: number; turn: number; tokens: number; fired: string[] }
  /** A compaction before turn `turn`, with the handoff note that replaced the older history. */
  | { type: "compaction"; run: number; turn: number; note: string }
  /** How long a tool call took, by the call's id. */
  | { type: "tool"; run: number; turn: number; callId: string; durationMs: number }
  /** How the run ended. */
  | { type: "end"; run: number; at: string; stopReason: string | null };

export interface Notes {
  /** The handoff note (markdown, the compaction format); "" before the first compaction. */
  note: string;
  state: ThreadState;
  /** The transcript as JSONL text, all runs together. */
  transcript: string;
}
