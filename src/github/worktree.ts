/**
 * The separate worktree `pitcrew run` works in, so the person's own checkout — its branch and any
 * uncommitted changes — is never touched; the commit of the result on the run's own branch; and
 * the worktree a `--continue` run takes up the previous run's branch in.
 */
import { mkdtempSync, rmSync } from "node:fs";
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

/** Adds a worktree of `repo`'s HEAD on a new branch `pitcrew/run-<UTC time>` in a temporary folder. */
export async function addRunWorktree(repo: string, now = new Date()): Promise<RunWorktree> {
  const top = (
    await git(repo, ["rev-parse", "--show-toplevel"]).catch(() => {
      throw new PitcrewError(
        "run-not-a-repository",
        `${repo} is not inside a git repository; pass --repo with a checkout.`,
      );
    })
  ).stdout;
  const base = (
    await git(top, ["rev-parse", "--verify", "HEAD^{commit}"]).catch(() => {
      throw new PitcrewError(
        "run-no-commit",
        `${top} has no commit yet; commit something first, pitcrew works from HEAD.`,
      );
    })
  ).stdout;
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
  const identity = await git(worktree.path, ["config", "user.email"], { okCodes: [1] });
  const author =
    identity.exitCode === 0
      ? []
      : ["-c", "user.name=pitcrew", "-c", "user.email=pitcrew@users.noreply.github.com"];
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
