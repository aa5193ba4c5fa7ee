/**
 * The notes store on git refs, for where workflow artifacts are not (GitHub Enterprise Server) or
 * not wanted (`notes-store: ref`): a thread's notes are one commit on `refs/pitcrew/notes/<thread>`
 * whose tree holds the files an artifact would (pack.ts: secrets withheld, sealed), written through
 * the Git Data API and moved by compare-and-swap; each save is a child of the last, so the history
 * of a thread's notes is the ref's log. Anyone who may push can move a ref, so a commit is restored
 * only when its seal holds and the run its `Pitcrew-Run-Id` trailer names is one of pitcrew's own
 * (provenance.ts); any other is skipped, named in the log, and its parent is considered. Restoring
 * never fails a run: whatever is wrong with the notes becomes a reason to start fresh.
 */
import type { GitDataPort, TreeFile } from "../domain/memory.ts";
import type { Notes } from "../domain/notes.ts";
import { PitcrewError, describeError } from "../errors.ts";
import { createOctokit } from "../github/client.ts";
import {
  NOTE_CAP,
  NOTE_FILE,
  STATE_CAP,
  STATE_FILE,
  TRANSCRIPT_CAP,
  TRANSCRIPT_FILE,
  checkSize,
  notesFromText,
  notesInvalid,
} from "./notes.ts";
import type { NotesText } from "./notes.ts";
import { SAVED_FILES, SEAL_MISMATCH, packNotes, restoredNotes } from "./pack.ts";
import type { SavedFile } from "./pack.ts";
import { MAX_RUNS_CHECKED, runChecker, workflowPathOf } from "./provenance.ts";
import { SEAL_CAP, SEAL_FILE, sealKey, sealMatches } from "./seal.ts";
import type { NotesStore, Restored } from "./store.ts";

/** A ref as a listing gives it: its name without `refs/`, and the commit it points at. */
export interface ListedRef {
  ref: string;
  sha: string;
}

export interface RefStoreOptions {
  /** Blobs, trees, commits and the notes refs (github/git-data.ts over REST). */
  git: GitDataPort;
  /** May read the repository's workflow runs (`actions: read`): the workflow's GITHUB_TOKEN. */
  token: string;
  owner: string;
  repo: string;
  /** The REST base the runs are looked up on (GITHUB_API_URL). */
  apiUrl: string;
  /** This run's GITHUB_RUN_ID: every commit names it, for the next run's check. */
  runId: string;
  /** The secret the seal's key is derived from: the `notes-key` input, else `api-key`. */
  sealSecret: string;
  /** Secret values withheld from the notes before they are written (`knownSecrets`). */
  secrets: readonly string[];
  /** This run's GITHUB_WORKFLOW_REF: notes are restored only from runs of the same file. */
  workflowRef: string | undefined;
  /** This repository's id from the event payload; looked up when the payload has none. */
  repositoryId: number | undefined;
  log: { info(message: string): void; warning(message: string): void };
  /**
   * The refs whose names (without `refs/`) start with `prefix`; `threads` needs it (the Git Data
   * port lists no refs). `listRefsOverRest` is GitHub's.
   */
  listRefs?(prefix: string): Promise<ListedRef[]>;
}

/** Where the notes refs live, without `refs/`: `pitcrew/notes/<thread key>`. */
export const NOTES_REF_PREFIX = "pitcrew/notes/";
/** The trailer that names the run a notes commit was made by. */
export const RUN_TRAILER = "Pitcrew-Run-Id";
/** Saves that lose the compare-and-swap this many times in a row give up. */
export const MAX_MOVES = 5;
/** Notes commits `threads` reads the run of, to put the newest first. */
export const THREAD_REFS_READ = 100;
/** Commits read at once while listing: GitHub limits concurrent requests. */
const READ_AT_ONCE = 8;

const NO_NOTES = "no notes saved for this thread yet";
/** A thread key is one segment of a ref (event.ts's keys are): no `/`, nothing git refuses. */
const THREAD_KEY = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const RUN_LINE = new RegExp(`^${RUN_TRAILER}:[ \\t]*(.*?)[ \\t]*$`, "gm");
const CAPS: Record<SavedFile, number> = {
  [NOTE_FILE]: NOTE_CAP,
  [STATE_FILE]: STATE_CAP,
  [TRANSCRIPT_FILE]: TRANSCRIPT_CAP,
  [SEAL_FILE]: SEAL_CAP,
};

// ---------------------------------------------------------------------------------------------
// Decisions

/** The thread's notes ref, without `refs/`. */
export function notesRef(threadKey: string): string {
  return `${NOTES_REF_PREFIX}${threadKey}`;
}

/** Why a thread key cannot name a ref, or undefined when it can. */
function badKey(threadKey: string): string | undefined {
  if (THREAD_KEY.test(threadKey) && !threadKey.includes("..") && !threadKey.endsWith(".lock")) {
    return undefined;
  }
  return `the thread key ${JSON.stringify(threadKey)} cannot name a git ref`;
}

/** A notes commit's message: what it is, and the run that made it as a trailer. */
export function notesCommitMessage(threadKey: string, runId: string): string {
  return `pitcrew: handoff notes of ${threadKey}\n\n${RUN_TRAILER}: ${runId}\n`;
}

/** The run a notes commit names, or why it names none that can be looked up. */
export function runOfCommit(message: string): { runId: number } | { ignored: string } {
  const named = [...message.matchAll(RUN_LINE)].map((match) => match[1] ?? "");
  if (named.length === 0) return { ignored: "it names no workflow run" };
  if (named.length > 1) return { ignored: `it names ${named.length} runs in ${RUN_TRAILER}` };
  const [value = ""] = named;
  const runId = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(runId)) {
    return { ignored: `its ${RUN_TRAILER} ${JSON.stringify(value)} is not a run's id` };
  }
  return { runId };
}

function describeCommit(sha: string, runId: number | undefined, ref: string): string {
  const run = runId === undefined ? "" : ` of run ${runId}`;
  return `notes commit ${sha.slice(0, 12)}${run} on refs/${ref}`;
}

// ---------------------------------------------------------------------------------------------
// Effects

/** What one commit of the ref's history turned out to be. */
type Outcome = Restored | { ignored: string };

/** A file of the tree, capped before and after it is fetched; a missing one is `notes-invalid`. */
async function fetchFile(git: GitDataPort, files: TreeFile[], name: SavedFile): Promise<string> {
  const entry = files.find((file) => file.path === name);
  if (entry === undefined) throw notesInvalid(name, "missing");
  checkSize(name, entry.size, CAPS[name]);
  const content = await git.blob(entry.sha);
  checkSize(name, content.length, CAPS[name]);
  return content.toString("utf8");
}

function isInvalid(error: unknown): boolean {
  return error instanceof PitcrewError && error.code === "notes-invalid";
}

/** GitHub's listing of refs by prefix (`GET /git/matching-refs/{prefix}`), for `listRefs`. */
export function listRefsOverRest(where: {
  token: string;
  apiUrl: string;
  owner: string;
  repo: string;
}): (prefix: string) => Promise<ListedRef[]> {
  const octokit = createOctokit({ token: where.token, baseUrl: where.apiUrl });
  return async (prefix) => {
    const refs = await octokit.paginate(octokit.rest.git.listMatchingRefs, {
      owner: where.owner,
      repo: where.repo,
      ref: prefix,
      per_page: 100,
    });
    return refs
      .filter((listed) => listed.object.type === "commit" && listed.ref.startsWith("refs/"))
      .map((listed) => ({ ref: listed.ref.slice("refs/".length), sha: listed.object.sha }));
  };
}

export function createRefStore(options: RefStoreOptions): NotesStore {
  const { git, owner, repo, log } = options;
  const repository = `${owner}/${repo}`;
  const key = sealKey(options.sealSecret);
  const octokit = createOctokit({ token: options.token, baseUrl: options.apiUrl });
  /** Saves run one after another, so the last one of a run is the ref's newest commit. */
  let saving: Promise<void> = Promise.resolve();

  async function write(notes: Notes): Promise<void> {
    const { threadKey } = notes.state;
    const ref = notesRef(threadKey);
    const bad = badKey(threadKey);
    if (bad !== undefined) {
      throw new PitcrewError("notes-save-failed", `pitcrew could not save the notes: ${bad}.`);
    }
    // Everyone who can read the repository can read the ref: no secret goes in.
    const packed = packNotes(notes, key, options.secrets);
    if (packed.withheld > 0) {
      log.info(`notes: withheld ${packed.withheld} secret-looking value(s) before the save`);
    }
    const failed = (why: string, cause?: unknown): PitcrewError =>
      new PitcrewError(
        "notes-save-failed",
        `pitcrew could not save the thread's notes on refs/${ref} (${why}); the next run ` +
          "continues from the notes saved before, if any.",
        { cause },
      );
    try {
      const changes = await Promise.all(
        SAVED_FILES.map(async (path) => ({
          path,
          sha: await git.createBlob(Buffer.from(packed.files[path], "utf8")),
        })),
      );
      const tree = await git.createTree(changes);
      const message = notesCommitMessage(threadKey, options.runId);
      // Compare-and-swap: on top of whatever is newest. Another run that moved the ref first keeps
      // its commit in the history, below this one; the ref is never moved by force.
      for (let attempt = 1; attempt <= MAX_MOVES; attempt++) {
        const parent = await git.refSha(ref);
        const parents = parent === undefined ? [] : [parent];
        const commit = await git.createCommit({ message, tree, parents });
        if (await git.moveRef(ref, commit, parent)) {
          log.info(`Saved the thread's notes as commit ${commit} on refs/${ref}.`);
          return;
        }
        log.info(`notes: another run moved refs/${ref} first; saving on top of its commit`);
      }
      throw failed(`another run moved the ref ${MAX_MOVES} times while this one saved`);
    } catch (error) {
      if (error instanceof PitcrewError && error.code === "notes-save-failed") throw error;
      throw failed(describeError(error), error);
    }
  }

  const checkRun = runChecker(octokit, { owner, repo }, options.repositoryId);

  /** The notes in one commit whose run is trusted, or why they cannot be used. */
  async function read(
    sha: string,
    tree: string,
    runId: number,
    ref: string,
    threadKey: string,
  ): Promise<Outcome> {
    const from = describeCommit(sha, runId, ref);
    let notes: Notes;
    try {
      const files = await git.treeFiles(tree);
      const text: NotesText = {
        state: await fetchFile(git, files, STATE_FILE),
        note: await fetchFile(git, files, NOTE_FILE),
        transcript: await fetchFile(git, files, TRANSCRIPT_FILE),
      };
      let given: string;
      try {
        given = await fetchFile(git, files, SEAL_FILE);
      } catch (error) {
        // A missing or oversized seal is no seal; a failing fetch is not knowing.
        if (isInvalid(error)) return { ignored: SEAL_MISMATCH };
        throw error;
      }
      if (!sealMatches(key, text, given)) return { ignored: SEAL_MISMATCH };
      notes = notesFromText(text);
    } catch (error) {
      return {
        found: false,
        damaged: true,
        reason: isInvalid(error)
          ? `the notes in ${from} are unusable (${describeError(error)})`
          : `${from} could not be read (${describeError(error)})`,
      };
    }
    return restoredNotes(notes, { threadKey, repository, from });
  }

  /** One commit, newest first: skipped (`ignored`) unless its run and its seal are ours. */
  async function consider(
    sha: string,
    commit: { tree: string; message: string },
    ref: string,
    threadKey: string,
    workflowPath: string,
  ): Promise<Outcome> {
    const named = runOfCommit(commit.message);
    if ("ignored" in named) return named;
    const { runId } = named;
    let why: string | undefined;
    try {
      why = await checkRun(runId, workflowPath);
    } catch (error) {
      // Not knowing is not distrust: an older save must not win over one that may be the newest.
      return {
        found: false,
        damaged: true,
        reason: `pitcrew could not check which run made ${describeCommit(sha, runId, ref)} (${describeError(error)})`,
      };
    }
    if (why !== undefined) return { ignored: why };
    return read(sha, commit.tree, runId, ref, threadKey);
  }

  return {
    save(notes) {
      const saved = saving.then(() => write(notes));
      saving = saved.catch(() => undefined);
      return saved;
    },

    async restore(threadKey) {
      const bad = badKey(threadKey);
      if (bad !== undefined) return { found: false, damaged: true, reason: bad };
      const ref = notesRef(threadKey);
      const workflowPath =
        options.workflowRef === undefined ? undefined : workflowPathOf(options.workflowRef, true);
      if (workflowPath === undefined) {
        return {
          found: false,
          damaged: true,
          reason:
            "GITHUB_WORKFLOW_REF does not name this run's workflow file, so no notes commit " +
            "can be checked as pitcrew's own; run pitcrew as a step of a GitHub Actions workflow",
        };
      }
      let at: string | undefined;
      try {
        at = await git.refSha(ref);
      } catch (error) {
        return {
          found: false,
          reason: `pitcrew could not read refs/${ref} of ${repository} (${describeError(error)})`,
        };
      }
      if (at === undefined) return { found: false, reason: NO_NOTES };
      let checked = 0;
      // The ref's commit, then its first parents: the saves before it, newest first.
      while (at !== undefined && checked < MAX_RUNS_CHECKED) {
        const sha: string = at;
        let commit: { tree: string; parents: string[]; message: string };
        try {
          commit = await git.commit(sha);
        } catch (error) {
          return {
            found: false,
            damaged: true,
            reason: `${describeCommit(sha, undefined, ref)} could not be read (${describeError(error)})`,
          };
        }
        checked++;
        const outcome = await consider(sha, commit, ref, threadKey, workflowPath);
        if (!("ignored" in outcome)) return outcome;
        const named = runOfCommit(commit.message);
        log.warning(
          `ignored ${describeCommit(sha, "runId" in named ? named.runId : undefined, ref)} (${outcome.ignored})`,
        );
        at = commit.parents[0];
      }
      return {
        found: false,
        reason:
          `none of the ${checked} newest commits on refs/${ref} was saved by this workflow's own ` +
          "runs with a valid seal" +
          (at !== undefined
            ? `; older ones were not checked (at most ${MAX_RUNS_CHECKED} are)`
            : ""),
      };
    },

    async threads(prefix, limit) {
      if (options.listRefs === undefined) {
        throw new PitcrewError(
          "notes-unlisted",
          "this notes store was made without a way to list refs, so it cannot list threads.",
        );
      }
      const wanted = notesRef(prefix);
      const listed = (await options.listRefs(wanted)).filter(
        (listed) =>
          listed.ref.startsWith(wanted) &&
          badKey(listed.ref.slice(NOTES_REF_PREFIX.length)) === undefined,
      );
      // Newest first by the run each commit names (run ids grow); a listing is alphabetical, and
      // trusts nothing: whoever reads a thread restores it, with every check that makes.
      const dated: { key: string; run: number }[] = [];
      const read = listed.slice(0, THREAD_REFS_READ);
      for (let start = 0; start < read.length; start += READ_AT_ONCE) {
        const batch = read.slice(start, start + READ_AT_ONCE).map(async ({ ref, sha }) => {
          const named = await git.commit(sha).then(
            ({ message }) => runOfCommit(message),
            () => ({ ignored: "unreadable" }),
          );
          return {
            key: ref.slice(NOTES_REF_PREFIX.length),
            run: "runId" in named ? named.runId : 0,
          };
        });
        dated.push(...(await Promise.all(batch)));
      }
      return dated
        .sort((a, b) => b.run - a.run || a.key.localeCompare(b.key))
        .slice(0, limit)
        .map((thread) => thread.key);
    },
  };
}
