/**
 * The notes store as plain folders, for the CLI and tests: `<root>/<notesName(threadKey)>/` per
 * thread, replaced whole on every save so a reader sees the old notes or the new ones, never a mix.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describeError } from "../errors.ts";
import { readNotesFolder, writeNotesFolder } from "./notes.ts";
import { notesName } from "./store.ts";
import type { Notes } from "../domain/notes.ts";
import type { NotesStore, Restored } from "./store.ts";

/** Where the last save's folder waits while the new one is moved in. */
function previousOf(folder: string): string {
  return `${folder}.previous`;
}

/** The notes in `folder` (or the last save's, after a crash mid-save), or why there are none. */
function restoreFolder(root: string, folder: string, threadKey: string): Restored {
  const from = [folder, previousOf(folder)].find((candidate) => existsSync(candidate));
  if (from === undefined)
    return { found: false, reason: `no notes saved for ${threadKey} in ${root}` };
  let notes: Notes;
  try {
    notes = readNotesFolder(from);
  } catch (error) {
    return {
      found: false,
      damaged: true,
      reason: `the notes in ${from} are unusable: ${describeError(error)}`,
    };
  }
  if (notes.state.threadKey !== threadKey)
    return {
      found: false,
      damaged: true,
      reason: `the notes in ${from} belong to ${notes.state.threadKey}, not ${threadKey}`,
    };
  return { found: true, notes, from: `folder ${from}` };
}

export function createLocalStore(root: string): NotesStore {
  const folderOf = (threadKey: string): string => join(root, notesName(threadKey));
  return {
    async save(notes: Notes): Promise<void> {
      const folder = folderOf(notes.state.threadKey);
      await mkdir(root, { recursive: true });
      // Saves of one store run one at a time: a half-written folder here is a killed run's.
      const stale = `${notesName(notes.state.threadKey)}.saving-`;
      for (const name of await readdir(root)) {
        if (name.startsWith(stale)) await rm(join(root, name), { recursive: true, force: true });
      }
      const temporary = await mkdtemp(`${folder}.saving-`);
      try {
        writeNotesFolder(temporary, notes);
        // A folder cannot be renamed over one with files in it: the old one steps aside first.
        // A crash between the two renames leaves only `.previous`, and restore reads that.
        if (existsSync(folder)) {
          await rm(previousOf(folder), { recursive: true, force: true });
          await rename(folder, previousOf(folder));
        }
        await rename(temporary, folder);
      } catch (error) {
        await rm(temporary, { recursive: true, force: true });
        throw error;
      }
      await rm(previousOf(folder), { recursive: true, force: true });
    },

    restore: (threadKey) => Promise.resolve(restoreFolder(root, folderOf(threadKey), threadKey)),

    async threads(prefix, limit) {
      const named = notesName(prefix);
      const names = existsSync(root) ? await readdir(root, { withFileTypes: true }) : [];
      const folders = names.filter(
        (entry) =>
          entry.isDirectory() &&
          entry.name.startsWith(named) &&
          !entry.name.includes(".saving-") &&
          !entry.name.endsWith(".previous"),
      );
      const dated = await Promise.all(
        folders.map(async (entry) => ({
          key: entry.name.slice(notesName("").length),
          at: (await stat(join(root, entry.name))).mtimeMs,
        })),
      );
      return dated
        .sort((a, b) => b.at - a.at)
        .slice(0, limit)
        .map((thread) => thread.key);
    },
  };
}
