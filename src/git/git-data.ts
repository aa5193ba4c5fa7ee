/**
 * The Git Data port over a local repository, with plumbing only: blobs, trees, commits and a ref
 * moved by compare-and-swap (`update-ref <ref> <new> <old>`), never a checkout or a work tree. The
 * CLI keeps memory in the repository it runs in this way; the action speaks the same port over the
 * REST API. Not for the agent's workspace: nothing here reads or writes files outside `.git`.
 */
import type { Buffer } from "node:buffer";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitDataPort, TreeFile } from "../domain/memory.ts";
import { PitcrewError } from "../errors.ts";
import { git, gitBytes } from "./git.ts";

/** Who commit-tree records, so it works where no git identity is configured. */
const IDENTITY = { name: "pitcrew", email: "pitcrew@users.noreply.github.com" };

const IDENTITY_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: IDENTITY.name,
  GIT_AUTHOR_EMAIL: IDENTITY.email,
  GIT_COMMITTER_NAME: IDENTITY.name,
  GIT_COMMITTER_EMAIL: IDENTITY.email,
};

/** A full object id (SHA-1 or SHA-256): what every sha argument must be, never an option. */
function objectId(sha: string): string {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
    throw new PitcrewError("git-data-invalid", `${JSON.stringify(sha)} is not a full object id.`);
  }
  return sha;
}

/** `refs/<ref>`, refused when git would not take it as a ref's name. */
function fullRef(ref: string): string {
  const full = `refs/${ref}`;
  if (ref.startsWith("-") || ref.startsWith("refs/") || !/^[\x21-\x7e]+$/.test(ref)) {
    throw new PitcrewError("git-data-invalid", `${JSON.stringify(ref)} is not a ref's name.`);
  }
  return full;
}

/**
 * A commit object's text: header lines, a blank line, the message — less the line feed
 * commit-tree ends it with, so a message comes back as createCommit was given it.
 */
function parseCommit(text: string): { tree: string; parents: string[]; message: string } {
  const end = text.indexOf("\n\n");
  const header = end === -1 ? text : text.slice(0, end);
  const message = end === -1 ? "" : text.slice(end + 2).replace(/\n$/, "");
  let tree = "";
  const parents: string[] = [];
  for (const line of header.split("\n")) {
    if (line.startsWith("tree ")) tree = line.slice(5);
    else if (line.startsWith("parent ")) parents.push(line.slice(7));
  }
  return { tree, parents, message };
}

/** `ls-tree -r -l -z` output: `<mode> <type> <sha> <size>\t<path>` entries, NUL-separated. */
function parseTree(text: string): TreeFile[] {
  const files: TreeFile[] = [];
  for (const entry of text.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab === -1) continue;
    const [, type, sha, size] = entry.slice(0, tab).split(/ +/);
    // Submodules (commits) are no files of the tree.
    if (type !== "blob" || sha === undefined) continue;
    files.push({ path: entry.slice(tab + 1), sha, size: Number(size) });
  }
  return files;
}

/**
 * An object's bytes, exactly: through `cat-file --batch`, whose output ends in a separator after
 * the content (gitBytes strips a final newline, which would otherwise be the content's own).
 */
async function catFile(repo: string, sha: string, type: "blob" | "commit"): Promise<Buffer> {
  const out = await gitBytes(repo, ["cat-file", "--batch"], `${objectId(sha)}\n`);
  const end = out.indexOf(0x0a);
  const header = out.subarray(0, end === -1 ? out.length : end).toString("utf8");
  const [, found, size] = header.split(" ");
  if (found !== type || size === undefined || end === -1) {
    throw new PitcrewError("git-data-missing", `${sha} is not a ${type} of this repository.`);
  }
  return out.subarray(end + 1, end + 1 + Number(size));
}

/** A scratch folder for one operation, removed after it whatever happens. */
async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "pitcrew-git-data-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function localGitData(repo: string): GitDataPort {
  let gitDir: Promise<string> | undefined;
  /** The repository's own folder: a temporary index with an empty work tree needs it named. */
  const repositoryDir = (): Promise<string> => {
    gitDir ??= git(repo, ["rev-parse", "--absolute-git-dir"]).then((result) => result.stdout);
    return gitDir;
  };

  const refSha = async (ref: string): Promise<string | undefined> => {
    const verify = ["rev-parse", "--verify", "--quiet", `${fullRef(ref)}^{commit}`];
    const result = await git(repo, verify, { okCodes: [1] });
    return result.exitCode === 0 && result.stdout !== "" ? result.stdout : undefined;
  };

  return {
    refSha,

    async commit(sha) {
      return parseCommit((await catFile(repo, sha, "commit")).toString("utf8"));
    },

    async treeFiles(tree) {
      const result = await git(repo, ["ls-tree", "-r", "-l", "-z", objectId(tree)]);
      return parseTree(result.stdout);
    },

    blob(sha) {
      return catFile(repo, sha, "blob");
    },

    // From a file rather than stdin: the bytes go to git exactly, whatever they are.
    createBlob(content) {
      return withScratch(async (dir) => {
        const file = join(dir, "blob");
        await writeFile(file, content);
        const result = await git(repo, ["hash-object", "-w", "--no-filters", "--", file]);
        return result.stdout;
      });
    },

    async createTree(changes, base) {
      const dir = await repositoryDir();
      return withScratch(async (scratch) => {
        const emptyTree = join(scratch, "tree");
        await mkdir(emptyTree);
        // A temporary index over an empty work tree: the repository's own index and files (a
        // checkout's, when there is one) are never touched.
        const env = {
          GIT_DIR: dir,
          GIT_INDEX_FILE: join(scratch, "index"),
          GIT_WORK_TREE: emptyTree,
        };
        const read = base === undefined ? ["--empty"] : [objectId(base)];
        await git(repo, ["read-tree", ...read], { env });
        const added = changes.filter((change) => change.sha !== null);
        const removed = changes
          .filter((change) => change.sha === null)
          .map((change) => change.path);
        if (removed.length > 0) {
          await git(repo, ["update-index", "--force-remove", "--", ...removed], { env });
        }
        if (added.length > 0) {
          const entries = added.flatMap((change) => [
            "--cacheinfo",
            `100644,${objectId(change.sha ?? "")},${change.path}`,
          ]);
          await git(repo, ["update-index", "--add", ...entries], { env });
        }
        return (await git(repo, ["write-tree"], { env })).stdout;
      });
    },

    async createCommit({ message, tree, parents }) {
      const parentArgs = parents.flatMap((parent) => ["-p", objectId(parent)]);
      const args = ["commit-tree", "--no-gpg-sign", objectId(tree), ...parentArgs, "-m", message];
      return (await git(repo, args, { env: IDENTITY_ENV })).stdout;
    },

    async moveRef(ref, sha, expected) {
      const name = fullRef(ref);
      const old = expected === undefined ? "0".repeat(sha.length) : objectId(expected);
      try {
        await git(repo, ["update-ref", name, objectId(sha), old]);
        return true;
      } catch (error) {
        // update-ref failed: when the ref is no longer where this run expected it, another run
        // moved it first and that is the answer; any other failure is git's to report.
        if ((await refSha(ref)) !== expected) return false;
        throw error;
      }
    },
  };
}
