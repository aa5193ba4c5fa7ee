/**
 * The memory store: the files the agent keeps at `/memory/…`, held on a branch of the repository
 * (`pitcrew-memory`) through the Git Data port, one commit per write or edit. Runs that overlap
 * never overwrite each other: each change is made on the branch's newest commit and the branch is
 * moved by compare-and-swap; a run that loses the race reads again and makes its change again on
 * what the other run left. Paths, sizes and secrets are checked here, so the store is safe whoever
 * calls it. Routing `/memory/…` paths and wording the tools' answers is namespace.ts's job.
 */
import { Buffer } from "node:buffer";
import { MEMORY_ROOT } from "../domain/memory.ts";
import type { GitDataPort, MemoryAuthor, NamespaceEntry, TreeFile } from "../domain/memory.ts";
import { applyEdit, argumentProblem } from "../domain/edit.ts";
import { editProblem } from "../present/edit-words.ts";
import { PitcrewError } from "../errors.ts";
import { scanForSecrets, scanNames, showSource } from "../git/secret-scan.ts";
import type { Finding } from "../git/secret-scan.ts";
import { injectionFlag } from "./injection.ts";

/** The branch memory lives on, without `refs/heads/`: a contract with users' workflows. */
export const MEMORY_BRANCH = "pitcrew-memory";

/** How much memory may hold: it is loaded into every run's prompt, so it must stay small. */
export const MEMORY_LIMITS = {
  /** Bytes of one file. */
  fileBytes: 16 * 1024,
  /** Bytes of every file together. */
  totalBytes: 256 * 1024,
  files: 100,
  /** Characters of a path. */
  pathLength: 200,
} as const;

/** Compare-and-swap attempts after the first, when other runs keep moving the branch. */
const DEFAULT_RETRIES = 5;

/** How long a listing's first line may be. */
const FIRST_LINE_LENGTH = 100;

/** A file's first non-empty line, cut short, as a listing shows it (memory and skills alike). */
export function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > FIRST_LINE_LENGTH
    ? `${trimmed.slice(0, FIRST_LINE_LENGTH - 1)}…`
    : trimmed;
}

export interface MemoryStoreOptions {
  git: GitDataPort;
  /** The branch, without refs/heads/ (default "pitcrew-memory"; a contract). */
  branch?: string;
  /**
   * The ref itself, without `refs/`, when it is not a local branch: `remotes/origin/pitcrew-memory`
   * to read what `git fetch` brought (the CLI). Default `heads/<branch>`.
   */
  ref?: string;
  author: MemoryAuthor;
  /** Every secret value the harness knows (knownSecrets): a write holding one is refused. */
  secrets: readonly string[];
  /** Retries of a compare-and-swap that lost the race (default 5). */
  retries?: number;
}

export interface MemoryStore {
  /** Every file, by path: its size, first line, and why it is flagged (injectionFlag). */
  list(): Promise<NamespaceEntry[]>;
  /** The file's text; undefined when there is no such file. */
  read(path: string): Promise<string | undefined>;
  /** Creates or replaces the file. */
  write(path: string, content: string): Promise<{ created: boolean; bytes: number }>;
  /** Replaces `oldString` (exactly once, or everywhere with `replaceAll`) in the file. */
  edit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll?: boolean,
  ): Promise<{ replacements: number }>;
}

/** The branch's newest commit as one attempt read it. */
interface Snapshot {
  /** The commit; undefined before memory's first commit. */
  parent: string | undefined;
  tree: string | undefined;
  files: TreeFile[];
}

/** What one attempt makes of the snapshot: the file's new text, and what the caller is told. */
interface Change<T> {
  content: string;
  result: T;
}

/** Why `path` cannot name a memory file; undefined when it can. */
export function memoryPathProblem(path: string): string | undefined {
  if (path === "") return "it is empty";
  if (path.length > MEMORY_LIMITS.pathLength) {
    return `it is longer than ${MEMORY_LIMITS.pathLength} characters`;
  }
  if (path.includes("\0")) return "it holds a NUL character";
  if ([...path].some((char) => char.charCodeAt(0) < 0x20 || char === "\x7f")) {
    return "it holds a control character (a line break, a tab)";
  }
  if (path.startsWith("/")) return "it starts with /; give it relative to /memory/";
  const segments = path.split("/");
  if (segments.includes("")) return "it has an empty folder name (// or a trailing /)";
  if (segments.includes("..") || segments.includes(".")) return "it has a . or .. folder";
  if (segments.some((segment) => segment.toLowerCase() === ".git")) return "it has a .git folder";
  return undefined;
}

/** Why `path` cannot be written among `files`: a file where a folder is, or the reverse. */
function placeProblem(path: string, files: readonly TreeFile[]): string | undefined {
  for (const file of files) {
    if (file.path.startsWith(`${path}/`)) return "it is a folder of memory, not a file";
    if (path.startsWith(`${file.path}/`)) {
      return `${MEMORY_ROOT}${file.path} is a file, so it cannot hold other files`;
    }
  }
  return undefined;
}

/** `16 KiB (16384 bytes)`: a limit as a person reads it, with the bytes a size is compared to. */
function limit(bytes: number): string {
  return `${bytes / 1024} KiB (${bytes} bytes)`;
}

function describeFindings(findings: readonly Finding[]): string {
  const shown = [
    ...new Set(findings.map((f) => (f.line > 0 ? `${f.kind} on line ${f.line}` : f.kind))),
  ];
  const more = shown.length > 5 ? ` and ${shown.length - 5} more` : "";
  return shown.slice(0, 5).join(", ") + more;
}

/** One trailer value on one line, whatever the author fields hold. */
function trailerValue(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

export function commitMessage(verb: "write" | "edit", path: string, author: MemoryAuthor): string {
  const login = trailerValue(author.requestedBy).replace(/^@/, "");
  return [
    `pitcrew memory: ${verb} ${path}`,
    "",
    `Pitcrew-Run: ${trailerValue(author.run)}`,
    `Pitcrew-Thread: ${trailerValue(author.thread)}`,
    `Pitcrew-Requested-By: @${login}`,
  ].join("\n");
}

export function createMemoryStore(options: MemoryStoreOptions): MemoryStore {
  const port = options.git;
  const branch = options.branch ?? MEMORY_BRANCH;
  const ref = options.ref ?? `heads/${branch}`;
  /** The ref as a message names it. */
  const where = options.ref === undefined ? `the ${branch} branch` : `refs/${ref}`;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const { secrets, author } = options;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new PitcrewError("memory-invalid", `retries must be a whole number ≥ 0, not ${retries}.`);
  }

  /** The path as the agent knows it, with any folder or file name that holds a secret withheld. */
  const shownPath = (path: string): string => `${MEMORY_ROOT}${showSource(path, secrets)}`;

  /** Refuses a path the store must not touch, before anything is read. */
  const checkPath = (path: string): void => {
    const problem = memoryPathProblem(path);
    if (problem !== undefined) {
      throw new PitcrewError(
        "memory-path-invalid",
        `${JSON.stringify(shownPath(path))} cannot be a memory file: ${problem}. Give a path inside ${MEMORY_ROOT} such as ${MEMORY_ROOT}db.md or ${MEMORY_ROOT}ci/notes.md.`,
      );
    }
    const names = scanNames([path], secrets);
    if (names.length > 0) {
      throw new PitcrewError(
        "memory-secret",
        `Memory was not changed: the file's name holds what looks like a secret (${describeFindings(names)}). Name the file after what it is about.`,
      );
    }
  };

  /** Refuses text that must not be stored: too long for one file, or holding a secret. */
  const checkContent = (path: string, content: string): void => {
    const shown = shownPath(path);
    const bytes = Buffer.byteLength(content, "utf8");
    if (bytes > MEMORY_LIMITS.fileBytes) {
      throw new PitcrewError(
        "memory-too-large",
        `${shown} would be ${bytes} bytes; a memory file holds at most ${limit(MEMORY_LIMITS.fileBytes)}. Shorten it to the facts a later run needs (drop what the repository itself says), or split it by topic into smaller files.`,
      );
    }
    const findings = scanForSecrets([{ source: shown, text: content }], secrets);
    if (findings.length > 0) {
      throw new PitcrewError(
        "memory-secret",
        `${shown} was not changed: its new content holds what looks like a secret (${describeFindings(findings)}). Memory is kept on a branch that everyone who can read the repository can see; leave the value out and say where it comes from instead (for example, which secret or variable holds it).`,
      );
    }
  };

  /** Refuses a change that would put the file where it cannot go, or memory over its limits. */
  const checkFits = (snapshot: Snapshot, path: string, bytes: number): void => {
    const place = placeProblem(path, snapshot.files);
    if (place !== undefined) {
      throw new PitcrewError(
        "memory-path-invalid",
        `${shownPath(path)} cannot be written: ${place}. Choose another path.`,
      );
    }
    const others = snapshot.files.filter((file) => file.path !== path);
    const count = others.length + 1;
    if (count > MEMORY_LIMITS.files) {
      throw new PitcrewError(
        "memory-too-large",
        `Memory would hold ${count} files; it holds at most ${MEMORY_LIMITS.files}. Merge related notes into an existing file (edit it) instead of adding ${shownPath(path)}.`,
      );
    }
    const total = others.reduce((sum, file) => sum + file.size, bytes);
    if (total > MEMORY_LIMITS.totalBytes) {
      throw new PitcrewError(
        "memory-too-large",
        `Memory would hold ${total} bytes in all; it holds at most ${limit(MEMORY_LIMITS.totalBytes)}. Shorten ${shownPath(path)} or other memory files, or merge files that say the same things.`,
      );
    }
  };

  const snapshot = async (): Promise<Snapshot> => {
    const parent = await port.refSha(ref);
    if (parent === undefined) return { parent, tree: undefined, files: [] };
    const { tree } = await port.commit(parent);
    return { parent, tree, files: await port.treeFiles(tree) };
  };

  const text = async (file: TreeFile): Promise<string> =>
    (await port.blob(file.sha)).toString("utf8");

  /**
   * Makes `change` on the branch's newest commit and moves the branch there by compare-and-swap;
   * when another run moved it first, reads again and makes the change again on what it holds.
   */
  const land = async <T>(
    verb: "write" | "edit",
    path: string,
    change: (current: Snapshot, retry: boolean) => Change<T> | Promise<Change<T>>,
  ): Promise<T> => {
    let blob: { content: string; sha: string } | undefined;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const current = await snapshot();
      const { content, result } = await change(current, attempt > 0);
      checkContent(path, content);
      checkFits(current, path, Buffer.byteLength(content, "utf8"));
      if (blob?.content !== content) {
        blob = { content, sha: await port.createBlob(Buffer.from(content, "utf8")) };
      }
      const tree = await port.createTree([{ path, sha: blob.sha }], current.tree);
      const commit = await port.createCommit({
        message: commitMessage(verb, path, author),
        tree,
        parents: current.parent === undefined ? [] : [current.parent],
      });
      if (await port.moveRef(ref, commit, current.parent)) return result;
    }
    throw new PitcrewError(
      "memory-busy",
      `${shownPath(path)} was not saved: other runs changed ${where} ${retries + 1} times while this run tried to ${verb} it. Try the ${verb} again in a moment.`,
    );
  };

  return {
    async list() {
      const { files } = await snapshot();
      const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
      // At most MEMORY_LIMITS.files blobs, read together.
      return Promise.all(
        sorted.map(async (file): Promise<NamespaceEntry> => {
          const content = await text(file);
          const flagged = injectionFlag(content);
          const entry = { path: file.path, bytes: file.size, firstLine: firstLine(content) };
          return flagged === undefined ? entry : { ...entry, flagged };
        }),
      );
    },

    async read(path) {
      checkPath(path);
      const file = (await snapshot()).files.find((candidate) => candidate.path === path);
      return file === undefined ? undefined : text(file);
    },

    async write(path, content) {
      checkPath(path);
      checkContent(path, content);
      return land("write", path, (current) => ({
        content,
        result: {
          created: !current.files.some((file) => file.path === path),
          bytes: Buffer.byteLength(content, "utf8"),
        },
      }));
    },

    async edit(path, oldString, newString, replaceAll = false) {
      checkPath(path);
      const shown = shownPath(path);
      // The workspace edit tool's own rules and words: one edit, wherever the file lives.
      const problem = argumentProblem(oldString, newString);
      if (problem !== null) {
        throw new PitcrewError("memory-edit-failed", editProblem({ ok: false, problem }, shown));
      }
      const conflict = (what: string): PitcrewError =>
        new PitcrewError(
          "memory-edit-conflict",
          `Another run changed ${shown} since this run read it, and ${what}. Read ${shown} again and make the edit on what it holds now.`,
        );
      return land("edit", path, async (current, retry) => {
        const file = current.files.find((candidate) => candidate.path === path);
        if (file === undefined) {
          if (retry) throw conflict("it no longer exists");
          throw new PitcrewError(
            "memory-edit-failed",
            `${shown} does not exist. Use write to create it.`,
          );
        }
        const edited = applyEdit(await text(file), oldString, newString, replaceAll);
        if (edited.ok) return { content: edited.text, result: { replacements: edited.count } };
        if (retry) {
          throw conflict(
            edited.problem === "ambiguous"
              ? `old_string now matches ${edited.count} places there`
              : "old_string is no longer found there",
          );
        }
        throw new PitcrewError("memory-edit-failed", editProblem(edited, shown));
      });
    },
  };
}
