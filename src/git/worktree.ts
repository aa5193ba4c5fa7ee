/**
 * The separate worktree `pitcrew run` works in, so the person's own checkout — its branch and any
 * uncommitted changes — is never touched; the files it has changed since HEAD, and a commit of
 * them made beside its index (`--include-uncommitted`); the commit of the result on the run's own
 * branch; and the worktree a `--continue` run takes up the previous run's branch in.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PitcrewError, describeError } from "../errors.ts";
import type { Notes } from "../domain/notes.ts";
import { git } from "./git.ts";

export interface RunWorktree {
  repo: string;
  path: string;
  branch: string;
  base: string;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/** The checkout a run starts from: its top folder and the commit HEAD names. */
export interface Checkout {
  top: string;
  head: string;
}

/** The checkout `repo` lies in; named errors outside a repository or before its first commit. */
export async function findCheckout(repo: string): Promise<Checkout> {
  const top = (
    await git(repo, ["rev-parse", "--show-toplevel"]).catch(() => {
      throw new PitcrewError(
        "run-not-a-repository",
        `${repo} is not inside a git repository; pass --repo with a checkout.`,
      );
    })
  ).stdout;
  const head = (
    await git(top, ["rev-parse", "--verify", "HEAD^{commit}"]).catch(() => {
      throw new PitcrewError(
        "run-no-commit",
        `${top} has no commit yet; commit something first, pitcrew works from HEAD.`,
      );
    })
  ).stdout;
  return { top, head };
}

/**
 * The files that differ from HEAD in the checkout: tracked changes (staged or not) and untracked
 * files git does not ignore, each once. Read without optional locks, so git does not refresh (and
 * rewrite) the person's index while looking.
 */
export async function uncommittedFiles(top: string): Promise<string[]> {
  const status = await git(top, [
    "--no-optional-locks",
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--ignore-submodules=none",
  ]);
  const fields = status.stdout.split("\0").filter((field) => field !== "");
  const files: string[] = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index] ?? "";
    files.push(field.slice(3));
    // A rename or copy names its source next; it is the same change.
    if (field[0] === "R" || field[0] === "C") index++;
  }
  return files;
}

/**
 * A commit of the checkout as it is now, HEAD its parent: tracked changes and untracked files
 * that are not ignored. Made in a temporary index (GIT_INDEX_FILE), so the person's checkout,
 * index and HEAD stay exactly as they were; only new objects enter the repository's store.
 */
export async function snapshotCommit(checkout: Checkout, message: string): Promise<string> {
  const { top, head } = checkout;
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-index-"));
  const env = { GIT_INDEX_FILE: join(folder, "index") };
  try {
    // The person's index as the start keeps its file stats, so `add` hashes only what changed.
    const index = (await git(top, ["rev-parse", "--path-format=absolute", "--git-path", "index"]))
      .stdout;
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

/** Adds a worktree of `base` on a new branch `pitcrew/run-<UTC time>` in a temporary folder. */
export async function addRunWorktree(
  top: string,
  base: string,
  now = new Date(),
): Promise<RunWorktree> {
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-run-"));
  const path = join(folder, "worktree");
  let branch = `pitcrew/run-${stamp(now)}`;
  for (
    let suffix = 2;
    (await git(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { okCodes: [1] }))
      .exitCode === 0;
    suffix++
  ) {
    branch = `pitcrew/run-${stamp(now)}-${suffix}`;
  }
  await git(top, ["worktree", "add", "--quiet", "-b", branch, path, base]);
  return { repo: top, path, branch, base };
}

/** pitcrew's name for a commit when the repository has no identity of its own. */
async function identityArgs(dir: string): Promise<string[]> {
  const identity = await git(dir, ["config", "user.email"], { okCodes: [1] });
  return identity.exitCode === 0
    ? []
    : ["-c", "user.name=pitcrew", "-c", "user.email=pitcrew@users.noreply.github.com"];
}

export interface CommitResult {
  committed: boolean;
  sha?: string;
  diffstat: string;
}

/** Commits everything the agent left in the worktree; nothing to commit is an answer, not an error. */
export async function commitAll(worktree: RunWorktree, message: string): Promise<CommitResult> {
  await git(worktree.path, ["add", "--all"]);
  const staged = await git(worktree.path, ["diff", "--cached", "--quiet"], { okCodes: [1] });
  if (staged.exitCode === 0) return { committed: false, diffstat: "" };
  const author = await identityArgs(worktree.path);
  await git(worktree.path, [...author, "commit", "--quiet", "--no-verify", "-m", message]);
  const sha = (await git(worktree.path, ["rev-parse", "HEAD"])).stdout;
  const diffstat = (await git(worktree.path, ["diff", "--stat", `${worktree.base}..HEAD`])).stdout;
  return { committed: true, sha, diffstat };
}

/** Removes the worktree folder; the branch stays. Without a commit the branch goes too. */
export async function removeRunWorktree(worktree: RunWorktree, keepBranch: boolean): Promise<void> {
  await git(worktree.repo, ["worktree", "remove", "--force", worktree.path]).catch(() => undefined);
  rmSync(join(worktree.path, ".."), { recursive: true, force: true });
  await git(worktree.repo, ["worktree", "prune"]).catch(() => undefined);
  if (!keepBranch)
    await git(worktree.repo, ["branch", "-D", worktree.branch]).catch(() => undefined);
}

/**
 * A worktree on the previous run's branch, as it left it. The branch is gone when that run
 * changed nothing; it starts again where that run started.
 */
export async function continueWorktree(
  repo: string,
  notes: Pick<Notes, "state">,
): Promise<{ worktree: RunWorktree; existed: boolean }> {
  const { branch, baseSha, headSha } = notes.state;
  const top = (await git(repo, ["rev-parse", "--show-toplevel"])).stdout;
  const exists =
    (await git(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { okCodes: [1] }))
      .exitCode === 0;
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-run-"));
  const path = join(folder, "worktree");
  const add = exists
    ? ["worktree", "add", "--quiet", path, branch]
    : ["worktree", "add", "--quiet", "-b", branch, path, headSha ?? baseSha];
  await git(top, add).catch((error: unknown) => {
    rmSync(folder, { recursive: true, force: true });
    throw new PitcrewError(
      "run-cannot-continue",
      `Cannot check out ${branch} to continue on it (${describeError(error)}). If it is checked out in your checkout, switch that to another branch first.`,
    );
  });
  return { worktree: { repo: top, path, branch, base: baseSha }, existed: exists };
}
