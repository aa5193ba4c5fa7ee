import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  addRunWorktree,
  continueWorktree,
  findCheckout,
  removeRunWorktree,
  snapshotCommit,
  uncommittedFiles
} from "./chunk-4T7JQQBK.js";
import {
  readRepositorySetup
} from "./chunk-EE77OWS2.js";
import {
  SNAPSHOT_MESSAGE
} from "./chunk-7NKB6CZV.js";
import "./chunk-VLL536XG.js";
import "./chunk-DVOXXDTS.js";
import "./chunk-JCMIJNXI.js";
import "./chunk-X2YAM5RQ.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-RORLQNC6.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-K5VWAPAE.js";
import {
  git
} from "./chunk-UBIXNM57.js";
import "./chunk-D5FAEQPC.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/run/ends/local-workspace.ts
import { basename } from "node:path";
function worktreeWorkspace(repo, options) {
  const { notices } = options;
  return {
    open: async (earlier) => {
      const previous = await earlier;
      if (previous === void 0) {
        const checkout = await findCheckout(repo);
        const changed = await uncommittedFiles(checkout.top);
        const include = options.includeUncommitted && changed.length > 0;
        const base = include ? await snapshotCommit(checkout, SNAPSHOT_MESSAGE) : checkout.head;
        const setup2 = await readRepositorySetup(checkout.top, base);
        if (changed.length > 0) notices.uncommitted(changed.length, include);
        const worktree2 = await addRunWorktree(checkout.top, base);
        notices.started({
          worktree: worktree2.path,
          branch: worktree2.branch,
          base,
          continued: false
        });
        return {
          ...place(worktree2),
          baseBranch: await currentBranch(worktree2.repo),
          repository: `local/${basename(worktree2.repo).replace(/[^\w.-]/g, "-")}`,
          existed: false,
          startSha: worktree2.base,
          setup: setup2
        };
      }
      const setup = await readRepositorySetup(repo, previous.state.baseSha);
      const { worktree, existed } = await continueWorktree(repo, previous);
      notices.started({
        worktree: worktree.path,
        branch: worktree.branch,
        base: worktree.base,
        continued: true
      });
      return {
        ...place(worktree),
        baseBranch: previous.state.baseBranch,
        repository: previous.state.repository,
        existed,
        startSha: await headOf(worktree.path),
        setup
      };
    },
    // The branch stays when it was there before or this run committed on it.
    close: async ({ worktree, existed, startSha }) => {
      const moved = await headOf(worktree.path).then(
        (head) => head !== startSha,
        () => true
      );
      await removeRunWorktree(worktree, existed || moved);
    }
  };
}
async function currentBranch(top) {
  const symbolic = await git(top, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
    okCodes: [1]
  });
  return symbolic.exitCode === 0 ? symbolic.stdout : "HEAD";
}
function place(worktree) {
  return { path: worktree.path, branch: worktree.branch, baseSha: worktree.base, worktree };
}
async function headOf(path) {
  return (await git(path, ["rev-parse", "HEAD"])).stdout;
}
export {
  worktreeWorkspace
};
