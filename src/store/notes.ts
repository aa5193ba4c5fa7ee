/**
 * The notes' file format — `note.md`, `state.json`, `transcript.jsonl` in one folder — read back
 * with every file capped and the state schema-checked, so bad or hostile content is a named error;
 * and the thread's next state after a run (pure). The transcript's lines are transcript.ts's.
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PitcrewError } from "../errors.ts";
import type { StopReason } from "../domain/loop.ts";
import { ZERO_USAGE, addUsage } from "../domain/usage.ts";
import type { Cumulative, Notes, ThreadState } from "../domain/notes.ts";
import { capTranscript } from "./transcript.ts";

export const NOTE_FILE = "note.md";
export const STATE_FILE = "state.json";
export const TRANSCRIPT_FILE = "transcript.jsonl";

/** Bytes each file may hold; a bigger one is refused before it is read. */
export const STATE_CAP = 256 * 1024;
export const NOTE_CAP = 256 * 1024;
export const TRANSCRIPT_CAP = 64 * 1024 * 1024;

/** Every stop reason, each once: the mapped type makes a new one a compile error here. */
const STOP_REASONS: { [Reason in StopReason]: Reason } = {
  done: "done",
  max_turns: "max_turns",
  time_budget: "time_budget",
  cost_budget: "cost_budget",
  token_budget: "token_budget",
  cancelled: "cancelled",
  model_error: "model_error",
};

const count = z.number().int().nonnegative();

const usageSchema = z.strictObject({
  promptTokens: count,
  cachedTokens: count,
  completionTokens: count,
  reasoningTokens: count,
});

/** ThreadState exactly: the annotation makes the compiler hold the two together. */
const threadStateSchema: z.ZodType<ThreadState> = z.strictObject({
  version: z.literal(1),
  threadKey: z.string().min(1),
  repository: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "expected owner/name"),
  branch: z.string().min(1),
  baseBranch: z.string().min(1),
  baseSha: z.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id"),
  headSha: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/, "expected a commit id")
    .nullable(),
  prNumber: z.number().int().positive().nullable(),
  attempts: count,
  cumulative: z.strictObject({
    runs: count,
    turns: count,
    usage: usageSchema,
    cost: z.number().finite().nonnegative(),
  }),
  todos: z.array(
    z.strictObject({
      content: z.string(),
      status: z.enum(["pending", "in_progress", "completed"]),
    }),
  ),
  stopReason: z.enum(STOP_REASONS).nullable(),
  savedAt: z.iso.datetime(),
  ledgers: z.record(z.string(), z.unknown()),
});

/** A notes file that cannot be used, and why: `notes-invalid`, naming the file. */
export function notesInvalid(file: string, what: string): PitcrewError {
  return new PitcrewError("notes-invalid", `${file}: ${what}`);
}

/**
 * A file's text, refused when missing, a link or not a plain file, or over `cap` bytes. The size is
 * checked on the open file before reading, and a notes folder may come from a downloaded artifact:
 * a link inside it is never followed.
 */
export function readCapped(dir: string, file: string, cap: number): string {
  let fd: number;
  try {
    fd = openSync(join(dir, file), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw notesInvalid(file, "missing");
    if (code === "ELOOP") throw notesInvalid(file, "a link, which is never followed");
    throw notesInvalid(file, `cannot be read (${code})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notesInvalid(file, "not a plain file");
    checkSize(file, stats.size, cap);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Refuses a notes file of `size` bytes over its `cap`, as `notes-invalid`, before it is read. */
export function checkSize(file: string, size: number, cap: number): void {
  if (size > cap) throw notesInvalid(file, `${size} bytes, over the cap of ${cap}`);
}

/** The state file's text checked against the schema. */
export function parseState(text: string): ThreadState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw notesInvalid(STATE_FILE, `not JSON (${(error as Error).message})`);
  }
  const checked = threadStateSchema.safeParse(json);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = [...(issue?.path ?? []), ...(unknownKey === undefined ? [] : [unknownKey])];
  const field = path.join(".") || "(top level)";
  const what = unknownKey === undefined ? (issue?.message ?? "invalid") : "not a known field";
  throw notesInvalid(STATE_FILE, `${field}: ${what}`);
}

/** The three files' text exactly as written: what a seal covers (store/seal.ts). */
export interface NotesText {
  note: string;
  state: string;
  transcript: string;
}

/** A notes folder's files, each capped; anything missing or oversized is `notes-invalid`. */
export function readNotesText(dir: string): NotesText {
  const state = readCapped(dir, STATE_FILE, STATE_CAP);
  const note = readCapped(dir, NOTE_FILE, NOTE_CAP);
  return { note, state, transcript: readCapped(dir, TRANSCRIPT_FILE, TRANSCRIPT_CAP) };
}

/** The notes in the files' text; a malformed state is `notes-invalid`. */
export function notesFromText(text: NotesText): Notes {
  return { note: text.note, state: parseState(text.state), transcript: text.transcript };
}

/** Reads a notes folder back; anything missing, oversized or malformed is `notes-invalid`. */
export function readNotesFolder(dir: string): Notes {
  return notesFromText(readNotesText(dir));
}

/**
 * The three files' text for these notes. The transcript is cut to its cap here (newest lines kept)
 * so a long thread still saves; a state or note over its cap would be refused on restore, so it is
 * refused now, while the run can still say so. Pure: writeNotesFolder and the ref store's blobs
 * (ref-store.ts) write what this returns.
 */
export function notesText(notes: Notes): NotesText {
  const state = `${JSON.stringify(notes.state, null, 2)}\n`;
  if (Buffer.byteLength(state) > STATE_CAP)
    throw new PitcrewError(
      "notes-too-large",
      `${STATE_FILE}: ${Buffer.byteLength(state)} bytes, over the cap of ${STATE_CAP}; the ledgers hold too much.`,
    );
  if (Buffer.byteLength(notes.note) > NOTE_CAP)
    throw new PitcrewError(
      "notes-too-large",
      `${NOTE_FILE}: ${Buffer.byteLength(notes.note)} bytes, over the cap of ${NOTE_CAP}.`,
    );
  const transcript = capTranscript(notes.transcript, TRANSCRIPT_CAP);
  return { note: notes.note, state, transcript };
}

/** Writes the three files (notesText) into `dir` (created if needed) and returns their text. */
export function writeNotesFolder(dir: string, notes: Notes): NotesText {
  const text = notesText(notes);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, STATE_FILE), text.state);
  writeFileSync(join(dir, NOTE_FILE), text.note);
  writeFileSync(join(dir, TRANSCRIPT_FILE), text.transcript);
  return text;
}

/** What one run knows about itself when it saves: its own totals, never the thread's. */
export type RunFacts = Pick<
  ThreadState,
  | "threadKey"
  | "repository"
  | "branch"
  | "baseBranch"
  | "baseSha"
  | "headSha"
  | "prNumber"
  | "todos"
  | "stopReason"
> &
  /** This run's turns, usage and cost so far. */
  Omit<Cumulative, "runs"> & {
    /** Ledgers this run updates, by name; the others are kept as they were. */
    ledgers?: Record<string, unknown>;
  };

/**
 * The thread's state after this run. `previous` is the state the run restored (undefined for a
 * thread's first run), the same base for every save of the run, so a checkpoint and the final
 * save count the run once: each replaces the last instead of adding to it.
 */
export function nextState(
  previous: ThreadState | undefined,
  facts: RunFacts,
  now: Date = new Date(),
): ThreadState {
  if (
    previous &&
    (previous.threadKey !== facts.threadKey || previous.repository !== facts.repository)
  ) {
    throw new PitcrewError(
      "notes-mismatch",
      `The restored notes belong to ${previous.repository} thread ${previous.threadKey}, not ${facts.repository} thread ${facts.threadKey}; they were not used.`,
    );
  }
  const before = previous?.cumulative ?? { runs: 0, turns: 0, usage: ZERO_USAGE, cost: 0 };
  return {
    version: 1,
    threadKey: facts.threadKey,
    repository: facts.repository,
    branch: facts.branch,
    baseBranch: facts.baseBranch,
    baseSha: facts.baseSha,
    headSha: facts.headSha,
    prNumber: facts.prNumber,
    attempts: (previous?.attempts ?? 0) + 1,
    cumulative: {
      runs: before.runs + 1,
      turns: before.turns + facts.turns,
      usage: addUsage(before.usage, facts.usage),
      cost: before.cost + facts.cost,
    },
    todos: facts.todos,
    stopReason: facts.stopReason,
    savedAt: now.toISOString(),
    ledgers: { ...previous?.ledgers, ...facts.ledgers },
  };
}
