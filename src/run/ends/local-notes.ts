/**
 * The CLI's notes: one thread, the last run's, kept inside the repository's common .git; restored
 * only with `--continue`, which fails with a named error when there is nothing to continue.
 */
import { join } from "node:path";
import { PitcrewError } from "../../errors.ts";
import { git } from "../../git/git.ts";
import { createLocalStore } from "../../store/local.ts";
import type { NotesStore } from "../../store/store.ts";
import type { NotesPort } from "../ports.ts";

/** The CLI keeps one thread's notes, the last run's: that is what `--continue` continues. */
export const LOCAL_THREAD = "cli";

/** The repository's notes store; fails with a named error outside a git repository. */
export async function repositoryNotes(repo: string): Promise<NotesStore> {
  return createLocalStore(await notesRoot(repo));
}

export function localNotes(store: NotesStore, continuing: boolean): NotesPort {
  return {
    store,
    restore: async () => {
      if (!continuing) return undefined;
      const restored = await store.restore(LOCAL_THREAD);
      if (restored.found) return restored.notes;
      throw new PitcrewError(
        "run-nothing-to-continue",
        `Nothing to continue: ${restored.reason}. Start a run first, for example: pitcrew run --repo . "make the failing test pass"; then pitcrew run --continue picks it up where it stopped.`,
      );
    },
  };
}

/**
 * The repository's notes folder: inside the common .git (shared by its worktrees), so it is never
 * committed and the agent, whose sandbox keeps .git read-only, cannot change it.
 */
async function notesRoot(repo: string): Promise<string> {
  const common = await git(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).catch(
    () => {
      throw new PitcrewError(
        "run-not-a-repository",
        `${repo} is not inside a git repository; pass --repo with a checkout.`,
      );
    },
  );
  return join(common.stdout, "pitcrew", "notes");
}
