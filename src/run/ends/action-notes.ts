/**
 * The action's notes: the thread's notes in a workflow artifact (and a local copy the post step
 * uploads), restored at the start when there are any; a damaged copy starts fresh with a warning.
 */
import { join } from "node:path";
import type { Config } from "../../config/config.ts";
import { knownSecrets } from "../../git/secret-scan.ts";
import type { RunnerContext } from "../../runner.ts";
import { createArtifactStore } from "../../store/artifact.ts";
import { NOTES_DIR_STATE, NOTES_SAVED_STATE } from "../../store/post-state.ts";
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

/**
 * The thread's notes: a workflow artifact, and a local copy in RUNNER_TEMP that the `post:` step
 * uploads when the main step ends before its final save (a cancelled or timed-out job).
 */
export function notesPlace(
  runner: RunnerContext,
  config: Config,
  env: NodeJS.ProcessEnv,
  threadKey: string,
  effects: {
    log: { info(message: string): void; warning(message: string): void };
    /** The runner's state for the post step (`@actions/core`'s saveState). */
    saveState(name: string, value: string): void;
  },
): NotesPlace {
  const localDir = join(runner.tempDir, "pitcrew-notes", threadKey);
  effects.saveState(NOTES_DIR_STATE, localDir);
  return {
    store: createArtifactStore({
      token: config.githubToken,
      owner: runner.owner,
      repo: runner.repo,
      apiUrl: runner.apiUrl,
      retentionDays: config.retentionDays,
      sealSecret: config.notesKey ?? config.apiKey,
      secrets: knownSecrets(env, config),
      workflowRef: runner.workflowRef,
      repositoryId: runner.repositoryId,
      log: effects.log,
      tempDir: runner.tempDir,
    }),
    localDir,
    onSaved: () => effects.saveState(NOTES_SAVED_STATE, "true"),
  };
}
