import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  notesName
} from "./chunk-ACUST24B.js";
import {
  readNotesFolder,
  writeNotesFolder
} from "./chunk-6CPZM6MN.js";
import {
  git
} from "./chunk-UBIXNM57.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/run/ends/local-notes.ts
import { join as join2 } from "node:path";

// src/store/local.ts
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
function previousOf(folder) {
  return `${folder}.previous`;
}
function restoreFolder(root, folder, threadKey) {
  const from = [folder, previousOf(folder)].find((candidate) => existsSync(candidate));
  if (from === void 0)
    return { found: false, reason: `no notes saved for ${threadKey} in ${root}` };
  let notes;
  try {
    notes = readNotesFolder(from);
  } catch (error) {
    return {
      found: false,
      damaged: true,
      reason: `the notes in ${from} are unusable: ${describeError(error)}`
    };
  }
  if (notes.state.threadKey !== threadKey)
    return {
      found: false,
      damaged: true,
      reason: `the notes in ${from} belong to ${notes.state.threadKey}, not ${threadKey}`
    };
  return { found: true, notes, from: `folder ${from}` };
}
function createLocalStore(root) {
  const folderOf = (threadKey) => join(root, notesName(threadKey));
  return {
    async save(notes) {
      const folder = folderOf(notes.state.threadKey);
      await mkdir(root, { recursive: true });
      const stale = `${notesName(notes.state.threadKey)}.saving-`;
      for (const name of await readdir(root)) {
        if (name.startsWith(stale)) await rm(join(root, name), { recursive: true, force: true });
      }
      const temporary = await mkdtemp(`${folder}.saving-`);
      try {
        writeNotesFolder(temporary, notes);
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
        (entry) => entry.isDirectory() && entry.name.startsWith(named) && !entry.name.includes(".saving-") && !entry.name.endsWith(".previous")
      );
      const dated = await Promise.all(
        folders.map(async (entry) => ({
          key: entry.name.slice(notesName("").length),
          at: (await stat(join(root, entry.name))).mtimeMs
        }))
      );
      return dated.sort((a, b) => b.at - a.at).slice(0, limit).map((thread) => thread.key);
    }
  };
}

// src/run/ends/local-notes.ts
var LOCAL_THREAD = "cli";
async function repositoryNotes(repo) {
  return createLocalStore(await notesRoot(repo));
}
function localNotes(store, continuing) {
  return {
    store,
    restore: async () => {
      if (!continuing) return void 0;
      const restored = await store.restore(LOCAL_THREAD);
      if (restored.found) return restored.notes;
      throw new PitcrewError(
        "run-nothing-to-continue",
        `Nothing to continue: ${restored.reason}. Start a run first, for example: pitcrew run --repo . "make the failing test pass"; then pitcrew run --continue picks it up where it stopped.`
      );
    }
  };
}
async function notesRoot(repo) {
  const common = await git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).catch(
    () => {
      throw new PitcrewError(
        "run-not-a-repository",
        `${repo} is not inside a git repository; pass --repo with a checkout.`
      );
    }
  );
  return join2(common.stdout, "pitcrew", "notes");
}

export {
  LOCAL_THREAD,
  repositoryNotes,
  localNotes
};
