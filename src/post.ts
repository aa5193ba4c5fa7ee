/**
 * The action's `post:` step (runs with `post-if: always()`): when the main step ended before its
 * final save — a cancelled run, a job timeout, a crash — it uploads the newest local copy of the
 * thread's notes (to the same store the main step uses: an artifact, or a ref on GitHub
 * Enterprise Server), so the next run still picks up the work. It never fails the job.
 */
import { existsSync } from "node:fs";
import * as core from "@actions/core";
import { DEFAULTS } from "./config/config.ts";
import { readInputs } from "./config/inputs.ts";
import { describeError } from "./errors.ts";
import { knownSecrets } from "./git/secret-scan.ts";
import { runnerContext } from "./runner.ts";
import { createNotesStore } from "./run/ends/action-notes.ts";
import { readNotesFolder } from "./store/notes.ts";
import { NOTES_DIR_STATE, NOTES_SAVED_STATE } from "./store/post-state.ts";

export async function post(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const localDir = core.getState(NOTES_DIR_STATE);
  if (localDir === "") {
    core.info("pitcrew post: the main step started no work; nothing to save.");
    return;
  }
  if (core.getState(NOTES_SAVED_STATE) === "true") {
    core.info("pitcrew post: the main step saved the handoff notes.");
    return;
  }
  if (!existsSync(localDir)) {
    core.info(
      "pitcrew post: the agent never started (refused or failed before), so there are no notes.",
    );
    return;
  }
  try {
    const notes = readNotesFolder(localDir);
    const inputs = readInputs();
    const runner = runnerContext(env);
    const sealSecret = inputs.notesKey ?? inputs.apiKey;
    if (sealSecret === undefined) {
      core.warning("pitcrew post: no api-key or notes-key to seal the handoff notes with.");
      return;
    }
    const store = createNotesStore({
      choice: inputs.notesStore ?? DEFAULTS.notesStore,
      runner,
      serverUrl: env.GITHUB_SERVER_URL,
      token: inputs.githubToken ?? "",
      retentionDays: inputs.retentionDays ?? DEFAULTS.retentionDays,
      sealSecret,
      secrets: knownSecrets(env, inputs),
      log: { info: (message) => core.info(message), warning: (message) => core.warning(message) },
    });
    await store.save(notes);
    core.info(
      `pitcrew post: saved the handoff notes the main step could not (thread ${notes.state.threadKey}, ${notes.state.cumulative.turns} turns so far); /agent continue picks up from them.`,
    );
  } catch (error) {
    core.warning(`pitcrew post: the handoff notes could not be saved: ${describeError(error)}`);
  }
}
