/**
 * The CLI's workspace: a separate worktree on a new branch (or, with `--continue`, the last run's
 * branch taken up again), so the person's own checkout is never touched. Before anything is
 * made or announced, the repository's setup is read at the run's base (a malformed
 * `.github/pitcrew.yml` ends the run there) and the files changed since HEAD are counted: they are
 * left out, or with `--include-uncommitted` committed on the run's branch first (made beside the
 * person's index). The worktree is removed at the end; its branch stays when it was there before
 * or the run committed on it.
 */
import { basename } from "node:path";
import { readRepositorySetup } from "../../config/repository.ts";
import type { RepositorySetup } from "../../config/repository.ts";
import { git } from "../../git/git.ts";
import {
  addRunWorktree,
  continueWorktree,
  findCheckout,
  removeRunWorktree,
  snapshotCommit,
  uncommittedFiles,
} from "../../git/worktree.ts";
import type { RunWorktree } from "../../git/worktree.ts";
import { SNAPSHOT_MESSAGE } from "../../present/lines.ts";
import type { Workspace, WorkspacePort } from "../ports.ts";

/** The run's worktree, whether its branch was there before (then it stays), and its setup. */
export type LocalWorkspace = Workspace & {
  worktree: RunWorktree;
  existed: boolean;
  startSha: string;
  /** `.github/pitcrew.yml` and AGENTS.md as committed at the run's base. */
  setup: RepositorySetup;
};

/** What the person is told as the run starts (the words are present/'s). */
export interface RunStart {
  worktree: string;
  branch: string;
  /** The commit the run starts from (with included changes, the commit holding them). */
  base: string;
  continued: boolean;
}

export interface WorkspaceNotices {
  /** Files changed since HEAD: left out of the run, or included in it. */
  uncommitted(count: number, included: boolean): void;
  /** The worktree is ready, once everything that could refuse the run has been checked. */
  started(start: RunStart): void;
}

export function worktreeWorkspace(
  repo: string,
  options: { includeUncommitted: boolean; notices: WorkspaceNotices },
): WorkspacePort<LocalWorkspace> {
  const { notices } = options;
  return {
    open: async (earlier) => {
      const previous = await earlier;
      if (previous === undefined) {
        const checkout = await findCheckout(repo);
        const changed = await uncommittedFiles(checkout.top);
        const include = options.includeUncommitted && changed.length > 0;
        const base = include ? await snapshotCommit(checkout, SNAPSHOT_MESSAGE) : checkout.head;
        const setup = await readRepositorySetup(checkout.top, base);
        if (changed.length > 0) notices.uncommitted(changed.length, include);
        const worktree = await addRunWorktree(checkout.top, base);
        notices.started({
          worktree: worktree.path,
          branch: worktree.branch,
          base,
          continued: false,
        });
        return {
          ...place(worktree),
          baseBranch: await currentBranch(worktree.repo),
          repository: `local/${basename(worktree.repo).replace(/[^\w.-]/g, "-")}`,
          existed: false,
          startSha: worktree.base,
          setup,
        };
      }
      const setup = await readRepositorySetup(repo, previous.state.baseSha);
      const { worktree, existed } = await continueWorktree(repo, previous);
      notices.started({
        worktree: worktree.path,
        branch: worktree.branch,
        base: worktree.base,
        continued: true,
      });
      return {
        ...place(worktree),
        baseBranch: previous.state.baseBranch,
        repository: previous.state.repository,
        existed,
        startSha: await headOf(worktree.path),
        setup,
      };
    },
    // The branch stays when it was there before or this run committed on it.
    close: async ({ worktree, existed, startSha }) => {
      const moved = await headOf(worktree.path).then(
        (head) => head !== startSha,
        () => true,
      );
      await removeRunWorktree(worktree, existed || moved);
    },
  };
}

/** The branch the checkout is on (what the run's branch starts from), or HEAD when detached. */
async function currentBranch(top: string): Promise<string> {
  const symbolic = await git(top, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
    okCodes: [1],
  });
  return symbolic.exitCode === 0 ? symbolic.stdout : "HEAD";
}

function place(
  worktree: RunWorktree,
): Pick<LocalWorkspace, "path" | "branch" | "baseSha" | "worktree"> {
  return { path: worktree.path, branch: worktree.branch, baseSha: worktree.base, worktree };
}

async function headOf(path: string): Promise<string> {
  return (await git(path, ["rev-parse", "HEAD"])).stdout;
}
