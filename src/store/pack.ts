/**
 * What one save of a thread's notes is, wherever GitHub keeps it — a workflow artifact
 * (artifact.ts) or a commit on a ref (ref-store.ts): the three notes files with every secret
 * withheld, and their seal; and the check both make on notes they read back once the seal holds,
 * that they belong to this thread of this repository. Pure: the stores do the writing and reading.
 */
import type { Notes } from "../domain/notes.ts";
import { NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE, notesText } from "./notes.ts";
import { scrubNotes } from "./scrub.ts";
import { SEAL_FILE, seal } from "./seal.ts";
import type { Restored } from "./store.ts";

/** The files of one save, in the order an artifact lists them. */
export const SAVED_FILES = [NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE, SEAL_FILE] as const;
export type SavedFile = (typeof SAVED_FILES)[number];

export interface Packed {
  /** Each file's text, exactly as it is stored. */
  files: Record<SavedFile, string>;
  /** How many secret-looking values were withheld. */
  withheld: number;
}

/** Why notes without a valid seal are skipped: their content is not one of our saves. */
export const SEAL_MISMATCH = "its seal does not match: written by another key or changed after";

/**
 * The files to store for these notes. Everyone who can read the repository can read them (an
 * artifact, a ref), so no secret is in them; `notes-too-large` when a file is over its cap.
 */
export function packNotes(notes: Notes, key: Buffer, secrets: readonly string[]): Packed {
  const scrubbed = scrubNotes(notes, secrets);
  const text = notesText(scrubbed.notes);
  return {
    files: {
      [NOTE_FILE]: text.note,
      [STATE_FILE]: text.state,
      [TRANSCRIPT_FILE]: text.transcript,
      [SEAL_FILE]: seal(key, text),
    },
    withheld: scrubbed.withheld,
  };
}

/**
 * Sealed notes as restored from `from`: found, unless they belong to another thread or
 * repository (damaged, with why).
 */
export function restoredNotes(
  notes: Notes,
  where: { threadKey: string; repository: string; from: string },
): Restored {
  const { state } = notes;
  const { threadKey, repository, from } = where;
  const wrong =
    state.repository.toLowerCase() !== repository.toLowerCase()
      ? `they belong to the repository ${state.repository}, not ${repository}`
      : state.threadKey !== threadKey
        ? `they belong to the thread ${state.threadKey}, not ${threadKey}`
        : undefined;
  if (wrong === undefined) return { found: true, notes, from };
  return { found: false, damaged: true, reason: `the notes in ${from} were not used: ${wrong}` };
}
