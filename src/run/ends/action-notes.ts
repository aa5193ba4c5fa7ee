/**
 * The action's notes: the thread's notes in a workflow artifact (and a local copy the post step
 * uploads), restored at the start when there are any; a damaged copy starts fresh with a warning.
 */
import type { NotesPort } from "../ports.ts";

/** Where the thread's notes go: the store (an artifact), and a local copy for the post step. */
export type NotesPlace = Omit<NotesPort, "restore">;

export function threadNotes(
  place: NotesPlace,
  threadKey: string,
  log: { info(message: string): void; warning(message: string): void },
): NotesPort {
  return {
    ...place,
    restore: async () => {
      const restored = await place.store.restore(threadKey);
      if (restored.found) log.info(`notes: restored from ${restored.from}`);
      else if (restored.damaged) log.warning(`notes: starting fresh: ${restored.reason}`);
      else log.info(`notes: starting fresh (${restored.reason})`);
      return restored.found ? restored.notes : undefined;
    },
  };
}
