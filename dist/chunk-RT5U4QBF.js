import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  git,
  gitBytes
} from "./chunk-UBIXNM57.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/git/git-data.ts
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
var IDENTITY = { name: "pitcrew", email: "pitcrew@users.noreply.github.com" };
var IDENTITY_ENV = {
  GIT_AUTHOR_NAME: IDENTITY.name,
  GIT_AUTHOR_EMAIL: IDENTITY.email,
  GIT_COMMITTER_NAME: IDENTITY.name,
  GIT_COMMITTER_EMAIL: IDENTITY.email
};
function objectId(sha) {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
    throw new PitcrewError("git-data-invalid", `${JSON.stringify(sha)} is not a full object id.`);
  }
  return sha;
}
function fullRef(ref) {
  const full = `refs/${ref}`;
  if (ref.startsWith("-") || ref.startsWith("refs/") || !/^[\x21-\x7e]+$/.test(ref)) {
    throw new PitcrewError("git-data-invalid", `${JSON.stringify(ref)} is not a ref's name.`);
  }
  return full;
}
function parseCommit(text) {
  const end = text.indexOf("\n\n");
  const header = end === -1 ? text : text.slice(0, end);
  const message = end === -1 ? "" : text.slice(end + 2).replace(/\n$/, "");
  let tree = "";
  const parents = [];
  for (const line of header.split("\n")) {
    if (line.startsWith("tree ")) tree = line.slice(5);
    else if (line.startsWith("parent ")) parents.push(line.slice(7));
  }
  return { tree, parents, message };
}
function parseTree(text) {
  const files = [];
  for (const entry of text.split("\0")) {
    const tab = entry.indexOf("	");
    if (tab === -1) continue;
    const [, type, sha, size] = entry.slice(0, tab).split(/ +/);
    if (type !== "blob" || sha === void 0) continue;
    files.push({ path: entry.slice(tab + 1), sha, size: Number(size) });
  }
  return files;
}
async function catFile(repo, sha, type) {
  const out = await gitBytes(repo, ["cat-file", "--batch"], `${objectId(sha)}
`);
  const end = out.indexOf(10);
  const header = out.subarray(0, end === -1 ? out.length : end).toString("utf8");
  const [, found, size] = header.split(" ");
  if (found !== type || size === void 0 || end === -1) {
    throw new PitcrewError("git-data-missing", `${sha} is not a ${type} of this repository.`);
  }
  return out.subarray(end + 1, end + 1 + Number(size));
}
async function withScratch(work) {
  const dir = await mkdtemp(join(tmpdir(), "pitcrew-git-data-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
function localGitData(repo) {
  let gitDir;
  const repositoryDir = () => {
    gitDir ??= git(repo, ["rev-parse", "--absolute-git-dir"]).then((result) => result.stdout);
    return gitDir;
  };
  const refSha = async (ref) => {
    const verify = ["rev-parse", "--verify", "--quiet", `${fullRef(ref)}^{commit}`];
    const result = await git(repo, verify, { okCodes: [1] });
    return result.exitCode === 0 && result.stdout !== "" ? result.stdout : void 0;
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
        const env = {
          GIT_DIR: dir,
          GIT_INDEX_FILE: join(scratch, "index"),
          GIT_WORK_TREE: emptyTree
        };
        const read = base === void 0 ? ["--empty"] : [objectId(base)];
        await git(repo, ["read-tree", ...read], { env });
        const added = changes.filter((change) => change.sha !== null);
        const removed = changes.filter((change) => change.sha === null).map((change) => change.path);
        if (removed.length > 0) {
          await git(repo, ["update-index", "--force-remove", "--", ...removed], { env });
        }
        if (added.length > 0) {
          const entries = added.flatMap((change) => [
            "--cacheinfo",
            `100644,${objectId(change.sha ?? "")},${change.path}`
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
      const old = expected === void 0 ? "0".repeat(sha.length) : objectId(expected);
      try {
        await git(repo, ["update-ref", name, objectId(sha), old]);
        return true;
      } catch (error) {
        if (await refSha(ref) !== expected) return false;
        throw error;
      }
    }
  };
}

export {
  localGitData
};
