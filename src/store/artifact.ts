/**
 * The notes store on GitHub: a thread's notes are one workflow artifact (`notesName`), uploaded
 * again by every save of a run and found by any later run through the REST API, newest first.
 * Restoring never fails a run: whatever is wrong with the notes becomes a reason to start fresh.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ArtifactClient } from "@actions/artifact";
import { PitcrewError, describeError } from "../errors.ts";
import { createOctokit } from "../github/client.ts";
import {
  NOTE_CAP,
  NOTE_FILE,
  STATE_CAP,
  STATE_FILE,
  TRANSCRIPT_CAP,
  TRANSCRIPT_FILE,
  readNotesFolder,
  writeNotesFolder,
} from "./notes.ts";
import { notesName, type Notes, type NotesStore, type Restored } from "./store.ts";

export interface ArtifactStoreOptions {
  /** May read the repository's artifacts (`actions: read`): the workflow's GITHUB_TOKEN. */
  token: string;
  owner: string;
  repo: string;
  /** The REST base for listing. @actions/artifact's own download reads GITHUB_API_URL, which the
   * runner sets to the same. */
  apiUrl: string;
  /** How long GitHub keeps each save: a thread idle for longer starts fresh. */
  retentionDays: number;
  log: { info(message: string): void };
  /** Where the folders to upload and the downloads are made (the runner's RUNNER_TEMP). */
  tempDir: string;
}

/** The fields of GitHub's REST artifact that the choice reads. */
export interface ListedArtifact {
  id: number;
  name: string;
  expired: boolean;
  created_at: string | null;
  size_in_bytes: number;
  workflow_run?: { id?: number } | null;
}

export type Choice = { artifact: ListedArtifact } | { reason: string; damaged?: boolean };

/** A notes zip holds three capped files; deflate may grow incompressible data a little. */
export const MAX_NOTES_ARTIFACT_BYTES = STATE_CAP + NOTE_CAP + TRANSCRIPT_CAP + 1024 * 1024;

const NO_NOTES = "no notes saved for this thread yet";
const EXPIRED =
  "the notes saved for this thread have expired: GitHub deletes an artifact when its retention " +
  "period ends, and the thread's last run was longer ago than that";
const UNSUPPORTED =
  "workflow artifacts (v4) are not available on GitHub Enterprise Server, so pitcrew cannot keep " +
  "a thread's notes there: each run starts fresh";
/** GitHub lists newest first; the newest usable save is on the first page. */
const PAGE = 100;

// ---------------------------------------------------------------------------------------------
// Decisions

/** Newest first: by creation time, then by id (GitHub's times are whole seconds). */
function newestFirst(a: ListedArtifact, b: ListedArtifact): number {
  return (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id - a.id;
}

/**
 * Which of the listed artifacts holds the thread's notes: the newest of that name that has not
 * expired. An older save is never used in place of a newer one that is unusable: it would
 * continue from a state the thread has moved past.
 */
export function chooseNotes(listed: readonly ListedArtifact[], name: string): Choice {
  const named = listed.filter((artifact) => artifact.name === name);
  const newest = named.filter((artifact) => !artifact.expired).sort(newestFirst)[0];
  if (newest === undefined) return { reason: named.length === 0 ? NO_NOTES : EXPIRED };
  if (newest.size_in_bytes > MAX_NOTES_ARTIFACT_BYTES) {
    return {
      damaged: true,
      reason:
        `${describeArtifact(newest)} is ${newest.size_in_bytes} bytes, more than notes can be ` +
        `(${MAX_NOTES_ARTIFACT_BYTES}); it was not downloaded`,
    };
  }
  return { artifact: newest };
}

function describeArtifact(artifact: ListedArtifact): string {
  return `artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"}`;
}

/** Why restored notes may not be used here, or undefined when they may. */
function mismatch(notes: Notes, threadKey: string, repository: string): string | undefined {
  const { state } = notes;
  if (state.repository.toLowerCase() !== repository.toLowerCase()) {
    return `they belong to the repository ${state.repository}, not ${repository}`;
  }
  if (state.threadKey !== threadKey) {
    return `they belong to the thread ${state.threadKey}, not ${threadKey}`;
  }
  return undefined;
}

/** The client's errors by name: its classes live in the lazily loaded module. */
function isNamed(error: unknown, name: string): boolean {
  return error instanceof Error && error.name === name;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

// ---------------------------------------------------------------------------------------------
// Effects

export function createArtifactStore(options: ArtifactStoreOptions): NotesStore {
  const { token, owner, repo, log } = options;
  const repository = `${owner}/${repo}`;
  /**
   * The artifact client is loaded on first use: it is large (Azure's blob SDK), and a thread's
   * first run needs it only for its first save, after the agent has started.
   */
  let loaded: Promise<ArtifactClient> | undefined;
  const artifactClient = (): Promise<ArtifactClient> =>
    (loaded ??= import("@actions/artifact").then((module) => new module.DefaultArtifactClient()));
  const octokit = createOctokit({ token, baseUrl: options.apiUrl });
  /** Saves run one after another: each replaces the run's artifact, so the last one wins. */
  let saving: Promise<void> = Promise.resolve();

  async function upload(notes: Notes): Promise<void> {
    const name = notesName(notes.state.threadKey);
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-notes-save-"));
    try {
      writeNotesFolder(dir, notes);
      try {
        // One artifact per name and run: an earlier save of this run gives way.
        const client = await artifactClient();
        await client.deleteArtifact(name).catch((error: unknown) => {
          if (!isNamed(error, "ArtifactNotFoundError")) throw error;
        });
        const files = [NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE].map((file) => join(dir, file));
        const { id } = await client.uploadArtifact(name, files, dir, {
          retentionDays: options.retentionDays,
        });
        log.info(`Saved the thread's notes as artifact ${id} (${name}).`);
      } catch (error) {
        if (isNamed(error, "GHESNotSupportedError")) {
          throw new PitcrewError("notes-unsupported", `${UNSUPPORTED}.`, { cause: error });
        }
        throw new PitcrewError(
          "notes-save-failed",
          `pitcrew could not save the thread's notes as the artifact ${name} ` +
            `(${describeError(error)}); the next run continues from the notes saved before, if any.`,
          { cause: error },
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The notes in one artifact, or why they cannot be used. */
  async function download(artifact: ListedArtifact, threadKey: string): Promise<Restored> {
    const from = describeArtifact(artifact);
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-notes-restore-"));
    try {
      try {
        const client = await artifactClient();
        await client.downloadArtifact(artifact.id, {
          path: dir,
          findBy: {
            token,
            workflowRunId: artifact.workflow_run?.id ?? 0,
            repositoryOwner: owner,
            repositoryName: repo,
          },
        });
      } catch (error) {
        if (isNamed(error, "GHESNotSupportedError")) return { found: false, reason: UNSUPPORTED };
        if (statusOf(error) === 410) return { found: false, reason: EXPIRED };
        return {
          found: false,
          damaged: true,
          reason: `${from} could not be downloaded and unpacked (${describeError(error)})`,
        };
      }
      let notes: Notes;
      try {
        notes = readNotesFolder(dir);
      } catch (error) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} are unusable (${describeError(error)})`,
        };
      }
      const wrong = mismatch(notes, threadKey, repository);
      if (wrong !== undefined) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} were not used: ${wrong}`,
        };
      }
      log.info(`Restored the thread's notes from ${from}.`);
      return { found: true, notes, from };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    save(notes) {
      const saved = saving.then(() => upload(notes));
      saving = saved.catch(() => undefined);
      return saved;
    },

    async restore(threadKey) {
      const name = notesName(threadKey);
      let listed: ListedArtifact[];
      try {
        const { data } = await octokit.rest.actions.listArtifactsForRepo({
          owner,
          repo,
          name,
          per_page: PAGE,
        });
        listed = data.artifacts;
      } catch (error) {
        const hint =
          statusOf(error) === 403 ? "; the job needs `permissions: { actions: read }`" : "";
        return {
          found: false,
          reason: `pitcrew could not list the artifacts of ${repository} (${describeError(error)})${hint}`,
        };
      }
      const choice = chooseNotes(listed, name);
      if ("reason" in choice) return { found: false, ...choice };
      return download(choice.artifact, threadKey);
    },
  };
}
