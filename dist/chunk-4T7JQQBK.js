import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  git
} from "./chunk-UBIXNM57.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/git/worktree.ts
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
function stamp(date) {
  return date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}
async function findCheckout(repo) {
  const top = (await git(repo, ["rev-parse", "--show-toplevel"]).catch(() => {
    throw new PitcrewError(
      "run-not-a-repository",
      `${repo} is not inside a git repository; pass --repo with a checkout.`
    );
  })).stdout;
  const head = (await git(top, ["rev-parse", "--verify", "HEAD^{commit}"]).catch(() => {
    throw new PitcrewError(
      "run-no-commit",
      `${top} has no commit yet; commit something first, pitcrew works from HEAD.`
    );
  })).stdout;
  return { top, head };
}
async function uncommittedFiles(top) {
  const status = await git(top, [
    "--no-optional-locks",
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignore-submodules=none"
  ]);
  const fields = status.stdout.split("\0").filter((field) => field !== "");
  const files = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index] ?? "";
    files.push(field.slice(3));
    if (field[0] === "R" || field[0] === "C") index++;
  }
  return files;
}
async function snapshotCommit(checkout, message) {
  const { top, head } = checkout;
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-index-"));
  const env = { GIT_INDEX_FILE: join(folder, "index") };
  try {
    const index = (await git(top, ["rev-parse", "--path-format=absolute", "--git-path", "index"])).stdout;
    if (existsSync(index)) copyFileSync(index, env.GIT_INDEX_FILE);
    else await git(top, ["read-tree", head], { env });
    await git(top, ["add", "--all", "--", "."], { env });
    const tree = (await git(top, ["write-tree"], { env })).stdout;
    const author = await identityArgs(top);
    return (await git(top, [...author, "commit-tree", tree, "-p", head, "-m", message])).stdout;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
async function addRunWorktree(top, base, now = /* @__PURE__ */ new Date()) {
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-run-"));
  const path = join(folder, "worktree");
  let branch = `pitcrew/run-${stamp(now)}`;
  for (let suffix = 2; (await git(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { okCodes: [1] })).exitCode === 0; suffix++) {
    branch = `pitcrew/run-${stamp(now)}-${suffix}`;
  }
  await git(top, ["worktree", "add", "--quiet", "-b", branch, path, base]);
  return { repo: top, path, branch, base };
}
async function identityArgs(dir) {
  const identity = await git(dir, ["config", "user.email"], { okCodes: [1] });
  return identity.exitCode === 0 ? [] : ["-c", "user.name=pitcrew", "-c", "user.email=pitcrew@users.noreply.github.com"];
}
async function commitAll(worktree, message) {
  await git(worktree.path, ["add", "--all"]);
  const staged = await git(worktree.path, ["diff", "--cached", "--quiet"], { okCodes: [1] });
  if (staged.exitCode === 0) return { committed: false, diffstat: "" };
  const author = await identityArgs(worktree.path);
  await git(worktree.path, [...author, "commit", "--quiet", "--no-verify", "-m", message]);
  const sha = (await git(worktree.path, ["rev-parse", "HEAD"])).stdout;
  const diffstat = (await git(worktree.path, ["diff", "--stat", `${worktree.base}..HEAD`])).stdout;
  return { committed: true, sha, diffstat };
}
async function removeRunWorktree(worktree, keepBranch) {
  await git(worktree.repo, ["worktree", "remove", "--force", worktree.path]).catch(() => void 0);
  rmSync(join(worktree.path, ".."), { recursive: true, force: true });
  await git(worktree.repo, ["worktree", "prune"]).catch(() => void 0);
  if (!keepBranch)
    await git(worktree.repo, ["branch", "-D", worktree.branch]).catch(() => void 0);
}
async function continueWorktree(repo, notes) {
  const { branch, baseSha, headSha } = notes.state;
  const top = (await git(repo, ["rev-parse", "--show-toplevel"])).stdout;
  const exists = (await git(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { okCodes: [1] })).exitCode === 0;
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-run-"));
  const path = join(folder, "worktree");
  const add = exists ? ["worktree", "add", "--quiet", path, branch] : ["worktree", "add", "--quiet", "-b", branch, path, headSha ?? baseSha];
  await git(top, add).catch((error) => {
    rmSync(folder, { recursive: true, force: true });
    throw new PitcrewError(
      "run-cannot-continue",
      `Cannot check out ${branch} to continue on it (${describeError(error)}). If it is checked out in your checkout, switch that to another branch first.`
    );
  });
  return { worktree: { repo: top, path, branch, base: baseSha }, existed: exists };
}

export {
  findCheckout,
  uncommittedFiles,
  snapshotCommit,
  addRunWorktree,
  commitAll,
  removeRunWorktree,
  continueWorktree
};
