/**
 * The action's notes: the thread's notes in a workflow artifact, or on a git ref where there are
 * no artifacts (GitHub Enterprise Server) or the workflow asks for one (`notes-store: ref`), and a
 * local copy the post step uploads; restored at the start when there are any; a damaged copy
 * starts fresh with a warning.
 */
import { join } from "node:path";
import type { Config, NotesStoreChoice } from "../../config/config.ts";
import type { GitDataPort } from "../../domain/memory.ts";
import { knownSecrets } from "../../git/secret-scan.ts";
import { createGitData } from "../../github/git-data.ts";
import type { RunnerContext } from "../../runner.ts";
import { artifactsAvailable, createArtifactStore } from "../../store/artifact.ts";
import { NOTES_DIR_STATE, NOTES_SAVED_STATE } from "../../store/post-state.ts";
import { createRefStore, listRefsOverRest, notesRef } from "../../store/ref-store.ts";
import type { NotesStore } from "../../store/store.ts";
import type { NotesPort } from "../ports.ts";

/** Where the thread's notes go: the store (an artifact or a ref), and a local copy for the post step. */
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
 * Which store keeps the notes: the `notes-store` input's, except where GitHub has no workflow
 * artifacts (GITHUB_SERVER_URL is GitHub Enterprise Server), which is refs whatever it says.
 */
export function notesBackend(
  choice: NotesStoreChoice,
  serverUrl: string | undefined,
): NotesStoreChoice {
  return choice === "ref" || !artifactsAvailable(serverUrl) ? "ref" : "artifact";
}

/** What either store is made from: the run, the inputs that touch the notes, and the effects. */
export interface NotesStoreSetting {
  /** The `notes-store` input (Config.notesStore). */
  choice: NotesStoreChoice;
  runner: RunnerContext;
  /** GITHUB_SERVER_URL: where artifacts may not exist. */
  serverUrl: string | undefined;
  token: string;
  retentionDays: number;
  sealSecret: string;
  secrets: readonly string[];
  log: { info(message: string): void; warning(message: string): void };
  /** Where a ref store writes; default: the REST API's Git Data (github/git-data.ts). */
  gitData?: GitDataPort;
}

/** The notes store for this run: an artifact per thread, or a ref per thread (notesBackend). */
export function createNotesStore(setting: NotesStoreSetting): NotesStore {
  const { runner, token, log } = setting;
  const where = { token, owner: runner.owner, repo: runner.repo };
  if (notesBackend(setting.choice, setting.serverUrl) === "artifact") {
    return createArtifactStore({
      ...where,
      apiUrl: runner.apiUrl,
      retentionDays: setting.retentionDays,
      sealSecret: setting.sealSecret,
      secrets: setting.secrets,
      workflowRef: runner.workflowRef,
      repositoryId: runner.repositoryId,
      log,
      tempDir: runner.tempDir,
    });
  }
  if (setting.choice !== "ref") {
    log.info(
      `notes: GitHub Enterprise Server has no workflow artifacts; the notes are kept on ` +
        `refs/${notesRef("<thread>")} instead`,
    );
  }
  return createRefStore({
    ...where,
    git: setting.gitData ?? createGitData({ ...where, baseUrl: runner.apiUrl }),
    apiUrl: runner.apiUrl,
    runId: runner.runId,
    sealSecret: setting.sealSecret,
    secrets: setting.secrets,
    workflowRef: runner.workflowRef,
    repositoryId: runner.repositoryId,
    log,
    listRefs: listRefsOverRest({ ...where, apiUrl: runner.apiUrl }),
  });
}

/**
 * The thread's notes: a workflow artifact or a ref (createNotesStore), and a local copy in
 * RUNNER_TEMP that the `post:` step uploads when the main step ends before its final save (a
 * cancelled or timed-out job).
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
    /** Where notes on a ref are written; default: the REST API's Git Data (github/git-data.ts). */
    gitData?: GitDataPort;
  },
): NotesPlace {
  const localDir = join(runner.tempDir, "pitcrew-notes", threadKey);
  effects.saveState(NOTES_DIR_STATE, localDir);
  return {
    store: createNotesStore({
      choice: config.notesStore,
      runner,
      serverUrl: env.GITHUB_SERVER_URL,
      token: config.githubToken,
      retentionDays: config.retentionDays,
      sealSecret: config.notesKey ?? config.apiKey,
      secrets: knownSecrets(env, config),
      log: effects.log,
      gitData: effects.gitData,
    }),
    localDir,
    onSaved: () => effects.saveState(NOTES_SAVED_STATE, "true"),
  };
}
