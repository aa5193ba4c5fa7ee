/**
 * The words of memory and skills: files the agent reads and writes at `/memory/…` and reads at
 * `/skills/…`, kept by the harness outside the sandbox — memory on a git ref updated by
 * compare-and-swap, skills from the repository at the base commit — and the Git Data port both
 * the memory and the notes ref stores speak. Types only.
 */

/** The virtual folders, as the agent writes them. */
export const MEMORY_ROOT = "/memory/";
export const SKILLS_ROOT = "/skills/";

/** One file of a namespace as a listing shows it. */
export interface NamespaceEntry {
  /** Relative to its namespace's root: `db.md`, `ci/flaky.md`. */
  path: string;
  bytes: number;
  /** Its first non-empty line, cut short. */
  firstLine: string;
  /** Why it is not loaded into the prompt or read back (an instruction addressed to the agent). */
  flagged?: string;
}

/** Who a memory commit is from: what `git log pitcrew-memory` answers "who taught it that" with. */
export interface MemoryAuthor {
  /** The workflow run's page, or `local` for the CLI. */
  run: string;
  /** The thread key (`issue-12`). */
  thread: string;
  /** The login of the person who asked. */
  requestedBy: string;
}

/** A file of a tree, as the Git Data API lists it. */
export interface TreeFile {
  path: string;
  /** The blob's id. */
  sha: string;
  size: number;
}

/**
 * The Git Data API as the ref stores use it: blobs, trees, commits and refs, no checkout. A ref is
 * named without `refs/` (`heads/pitcrew-memory`, `pitcrew/notes/issue-12`). Implemented over the
 * REST API (github/git-data.ts) and over a local repository (git/git-data.ts, for the CLI).
 */
export interface GitDataPort {
  /** The commit the ref points at; undefined when there is no such ref. */
  refSha(ref: string): Promise<string | undefined>;
  commit(sha: string): Promise<{ tree: string; parents: string[]; message: string }>;
  /** Every blob of the tree, its subtrees' included, with paths from its root. */
  treeFiles(tree: string): Promise<TreeFile[]>;
  blob(sha: string): Promise<Buffer>;
  createBlob(content: Buffer): Promise<string>;
  /**
   * A tree: `base`'s files with `changes` made (a null sha deletes the path); without `base`,
   * just the changes.
   */
  createTree(changes: { path: string; sha: string | null }[], base?: string): Promise<string>;
  createCommit(commit: { message: string; tree: string; parents: string[] }): Promise<string>;
  /**
   * Moves the ref from `expected` to `sha`, never by force: false when the ref is no longer at
   * `expected` (another run moved it first). A ref that does not exist yet is created when
   * `expected` is undefined, and false is answered when it exists by then.
   */
  moveRef(ref: string, sha: string, expected: string | undefined): Promise<boolean>;
}

/** What reading a virtual path answers: a file's text, a folder's listing, or why not. */
export type VirtualRead = { file: string } | { listing: string } | { error: string };

/** What a write or an edit of a virtual file answers, in the tool's words. */
export interface VirtualWritten {
  content: string;
  isError: boolean;
}

/**
 * The namespaces behind read, write and edit (memory/namespace.ts): a tool asks `owns` first and
 * hands the call over when it does; every other path goes to the sandbox as before.
 */
export interface VirtualFiles {
  /** Whether the path, once normalised, is under a virtual root (`/memory/…`, `/skills/…`). */
  owns(path: string): boolean;
  read(path: string): Promise<VirtualRead>;
  write(path: string, content: string): Promise<VirtualWritten>;
  edit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll: boolean,
  ): Promise<VirtualWritten>;
}
