/**
 * The CLI's workspace: a separate worktree on a new branch (or, with `--continue`, the last run's
 * branch taken up again), so the person's own checkout is never touched. The worktree is removed
 * at the end; its branch stays when it was there before or the run committed on it.
 */
import { basename } from "node:path";
import { git } from "../../git/git.ts";
import { addRunWorktree, continueWorktree, removeRunWorktree } from "../../git/worktree.ts";
import type { RunWorktree } from "../../git/worktree.ts";
import type { Workspace, WorkspacePort } from "../ports.ts";

/** The run's worktree, and whether its branch was there before this run (then it stays). */
export type LocalWorkspace = Workspace & {
  worktree: RunWorktree;
  existed: boolean;
  startSha: string;
};

export function worktreeWorkspace(
  repo: string,
  log: { info(message: string): void },
): WorkspacePort<LocalWorkspace> {
  return {
    open: async (earlier) => {
      const previous = await earlier;
      if (previous === undefined) {
        const worktree = await addRunWorktree(repo);
        log.info(
          `working in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
        );
        return {
          ...place(worktree),
          baseBranch: await currentBranch(worktree.repo),
          repository: `local/${basename(worktree.repo).replace(/[^\w.-]/g, "-")}`,
          existed: false,
          startSha: worktree.base,
        };
      }
      const { worktree, existed } = await continueWorktree(repo, previous);
      log.info(
        `continuing the last run in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
      );
      return {
        ...place(worktree),
        baseBranch: previous.state.baseBranch,
        repository: previous.state.repository,
        existed,
        startSha: await headOf(worktree.path),
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
