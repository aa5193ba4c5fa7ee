/**
 * The notes store on GitHub: a thread's notes are one workflow artifact (`notesName`), uploaded
 * again by every save of a run — secrets withheld, sealed — and found by any later run through the
 * REST API, newest first. An artifact is restored only when its run is one of pitcrew's own
 * (provenance.ts) and its seal holds (seal.ts); any other is skipped, named in the log, and the
 * next older one is considered. Restoring never fails a run: whatever is wrong with the notes
 * becomes a reason to start fresh.
 */
import type * as ArtifactPackage from "@actions/artifact";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ArtifactClient } from "@actions/artifact";
import { PitcrewError, describeError } from "../errors.ts";
import { createOctokit } from "../github/client.ts";
import {
  NOTE_CAP,
  STATE_CAP,
  TRANSCRIPT_CAP,
  notesFromText,
  readCapped,
  readNotesText,
} from "./notes.ts";
import type { NotesText } from "./notes.ts";
import { SAVED_FILES, SEAL_MISMATCH, packNotes, restoredNotes } from "./pack.ts";
import { MAX_RUNS_CHECKED, runChecker, workflowPathOf } from "./provenance.ts";
import { SEAL_CAP, SEAL_FILE, sealKey, sealMatches } from "./seal.ts";
import { notesName, type NotesStore, type Restored } from "./store.ts";
import type { Notes } from "../domain/notes.ts";

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
  /** The secret the seal's key is derived from: the `notes-key` input, else `api-key`. */
  sealSecret: string;
  /** Secret values withheld from the notes before upload (`knownSecrets`). */
  secrets: readonly string[];
  /** This run's GITHUB_WORKFLOW_REF: notes are restored only from runs of the same file. */
  workflowRef: string | undefined;
  /** This repository's id from the event payload; looked up when the payload has none. */
  repositoryId: number | undefined;
  log: { info(message: string): void; warning(message: string): void };
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

export type Candidates = { artifacts: ListedArtifact[] } | { reason: string };

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
/** Pages of the repository's artifacts a listing of threads reads at most. */
const THREAD_PAGES = 3;
/** Why an artifact without a valid seal is skipped (pack.ts: the ref store skips for the same). */
export { SEAL_MISMATCH };

// ---------------------------------------------------------------------------------------------
// Decisions

/**
 * Whether workflow artifacts (v4) exist on the GitHub at `serverUrl` (GITHUB_SERVER_URL): the
 * artifact client's own rule — github.com, GHE.com's `*.ghe.com`, and `*.localhost` — beyond which
 * it throws GHESNotSupportedError. Everything else is GitHub Enterprise Server, where the notes go
 * on refs instead (ref-store.ts). Unset is github.com, as for the client.
 */
export function artifactsAvailable(serverUrl: string | undefined): boolean {
  const host = URL.parse(serverUrl || "https://github.com")?.hostname.toLowerCase();
  if (host === undefined) return false;
  return host === "github.com" || host.endsWith(".ghe.com") || host.endsWith(".localhost");
}

/** Newest first: by creation time, then by id (GitHub's times are whole seconds). */
function newestFirst(a: ListedArtifact, b: ListedArtifact): number {
  return (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id - a.id;
}

/**
 * The artifacts that may hold the thread's notes, newest first: those of its name that have not
 * expired. Which of them is used is decided by where each came from (restore, below).
 */
export function notesCandidates(listed: readonly ListedArtifact[], name: string): Candidates {
  const named = listed.filter((artifact) => artifact.name === name);
  const artifacts = named.filter((artifact) => !artifact.expired).sort(newestFirst);
  if (artifacts.length === 0) return { reason: named.length === 0 ? NO_NOTES : EXPIRED };
  return { artifacts };
}

/** Why an artifact is too big to be notes (it is then not downloaded), or undefined. */
export function oversized(artifact: ListedArtifact): string | undefined {
  if (artifact.size_in_bytes <= MAX_NOTES_ARTIFACT_BYTES) return undefined;
  return (
    `${describeArtifact(artifact)} is ${artifact.size_in_bytes} bytes, more than notes can be ` +
    `(${MAX_NOTES_ARTIFACT_BYTES}); it was not downloaded`
  );
}

function describeArtifact(artifact: ListedArtifact): string {
  return `artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"}`;
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

/** What one candidate artifact turned out to be. */
type Outcome = Restored | { ignored: string };

/**
 * The artifact client's module, imported on first use: it is large (Azure's blob SDK), and a
 * thread's first run needs it only for its first save, after the agent has started. An action run
 * from inside the checkout imports it before the checkout changes branch (main.ts), since a thread
 * branch may hold another copy of the action without this build's files.
 */
export function artifactModule(): Promise<typeof ArtifactPackage> {
  return import("@actions/artifact");
}

export function createArtifactStore(options: ArtifactStoreOptions): NotesStore {
  const { token, owner, repo, log } = options;
  const repository = `${owner}/${repo}`;
  const key = sealKey(options.sealSecret);
  let loaded: Promise<ArtifactClient> | undefined;
  const artifactClient = (): Promise<ArtifactClient> =>
    (loaded ??= artifactModule().then((module) => new module.DefaultArtifactClient()));
  const octokit = createOctokit({ token, baseUrl: options.apiUrl });
  /** Saves run one after another: each replaces the run's artifact, so the last one wins. */
  let saving: Promise<void> = Promise.resolve();

  async function upload(notes: Notes): Promise<void> {
    const name = notesName(notes.state.threadKey);
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-notes-save-"));
    try {
      // Everyone who can read the repository can download the artifact: no secret goes up.
      const packed = packNotes(notes, key, options.secrets);
      for (const file of SAVED_FILES) await writeFile(join(dir, file), packed.files[file]);
      if (packed.withheld > 0) {
        log.info(`notes: withheld ${packed.withheld} secret-looking value(s) before the upload`);
      }
      try {
        // One artifact per name and run: an earlier save of this run gives way.
        const client = await artifactClient();
        await client.deleteArtifact(name).catch((error: unknown) => {
          if (!isNamed(error, "ArtifactNotFoundError")) throw error;
        });
        const files = SAVED_FILES.map((file) => join(dir, file));
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

  /** The notes in one artifact whose run is trusted, or why they cannot be used. */
  async function download(artifact: ListedArtifact, threadKey: string): Promise<Outcome> {
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
      let text: NotesText;
      let notes: Notes;
      try {
        text = readNotesText(dir);
        if (!sealed(dir, text)) return { ignored: SEAL_MISMATCH };
        notes = notesFromText(text);
      } catch (error) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} are unusable (${describeError(error)})`,
        };
      }
      return restoredNotes(notes, { threadKey, repository, from });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Whether the folder's seal is this key's seal of its files; a missing seal is none. */
  function sealed(dir: string, text: NotesText): boolean {
    let given: string;
    try {
      given = readCapped(dir, SEAL_FILE, SEAL_CAP);
    } catch {
      return false;
    }
    return sealMatches(key, text, given);
  }

  const checkRun = runChecker(octokit, { owner, repo }, options.repositoryId);

  /** One candidate, newest first: skipped (`ignored`) unless its run and its seal are ours. */
  async function consider(
    artifact: ListedArtifact,
    threadKey: string,
    workflowPath: string,
  ): Promise<Outcome> {
    const runId = artifact.workflow_run?.id;
    if (runId === undefined) return { ignored: "it names no workflow run" };
    let why: string | undefined;
    try {
      why = await checkRun(runId, workflowPath);
    } catch (error) {
      // Not knowing is not distrust: an older save must not win over one that may be the newest.
      return {
        found: false,
        damaged: true,
        reason: `pitcrew could not check which run made ${describeArtifact(artifact)} (${describeError(error)})`,
      };
    }
    if (why !== undefined) return { ignored: why };
    const tooBig = oversized(artifact);
    if (tooBig !== undefined) return { found: false, damaged: true, reason: tooBig };
    return download(artifact, threadKey);
  }

  return {
    save(notes) {
      const saved = saving.then(() => upload(notes));
      saving = saved.catch(() => undefined);
      return saved;
    },

    async restore(threadKey) {
      const name = notesName(threadKey);
      const workflowPath =
        options.workflowRef === undefined ? undefined : workflowPathOf(options.workflowRef, true);
      if (workflowPath === undefined) {
        return {
          found: false,
          damaged: true,
          reason:
            "GITHUB_WORKFLOW_REF does not name this run's workflow file, so no notes artifact " +
            "can be checked as pitcrew's own; run pitcrew as a step of a GitHub Actions workflow",
        };
      }
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
      const candidates = notesCandidates(listed, name);
      if ("reason" in candidates) return { found: false, reason: candidates.reason };
      const checked = candidates.artifacts.slice(0, MAX_RUNS_CHECKED);
      for (const artifact of checked) {
        const outcome = await consider(artifact, threadKey, workflowPath);
        if (!("ignored" in outcome)) return outcome;
        log.warning(
          `ignored notes artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"} (${outcome.ignored})`,
        );
      }
      const unchecked = candidates.artifacts.length - checked.length;
      return {
        found: false,
        reason:
          `none of the thread's ${checked.length} newest notes artifacts was saved by this ` +
          "workflow's own runs with a valid seal" +
          (unchecked > 0
            ? `; ${unchecked} older ones were not checked (at most ${MAX_RUNS_CHECKED} are)`
            : ""),
      };
    },

    async threads(prefix, limit) {
      const named = notesName(prefix);
      const keys: string[] = [];
      // Newest first, as GitHub lists them: the first page or two reach the threads worked on
      // lately, which are the ones whose caps matter.
      for (let page = 1; page <= THREAD_PAGES && keys.length < limit; page++) {
        const { data } = await octokit.rest.actions.listArtifactsForRepo({
          owner,
          repo,
          per_page: PAGE,
          page,
        });
        for (const artifact of [...data.artifacts].sort(newestFirst)) {
          const key = artifact.name.slice(notesName("").length);
          if (artifact.expired || !artifact.name.startsWith(named) || keys.includes(key)) continue;
          keys.push(key);
        }
        if (data.artifacts.length < PAGE) break;
      }
      return keys.slice(0, limit);
    },
  };
}
