/**
 * The Git Data port over GitHub's REST API: blobs, trees, commits and refs of the repository,
 * read and made without a clone, and a ref moved by compare-and-swap (a non-forced update to a
 * commit whose parent is the ref's expected commit). The memory and notes ref stores speak it in
 * the action; git/git-data.ts speaks it over a local repository for the CLI. What the files mean
 * is the stores' business, not this module's.
 */
import type { GitDataPort, TreeFile } from "../domain/memory.ts";
import { PitcrewError } from "../errors.ts";
import type { GitHubApiOptions } from "./client.ts";
import { createOctokit, failureOf, namedCalls } from "./client.ts";

/** Every file of a namespace is a plain file. */
const FILE_MODE = "100644";
/** Trees listed at once while walking a tree GitHub would not list whole. */
const WALK_PARALLEL = 8;

/** GitHub's answers where another writer got to a ref first. */
const REF_EXISTS = /Reference already exists/i;
const NOT_FAST_FORWARD = /Update is not a fast forward/i;
const REF_GONE = /Reference does not exist/i;
/** What GitHub answers when two updates of one ref meet inside it. */
const REF_UPDATE_FAILED = /Reference update failed/i;

/** Whether a failure is GitHub's 422 saying one of these things. */
function refused(error: unknown, ...patterns: RegExp[]): boolean {
  const failure = failureOf(error);
  if (failure?.status !== 422) return false;
  const said = [failure.message, ...failure.details];
  return patterns.some((pattern) => said.some((text) => pattern.test(text)));
}

/** Paths compared as git orders a recursive listing: byte by byte. */
function byPath(a: TreeFile, b: TreeFile): number {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}

export function createGitData(options: GitHubApiOptions): GitDataPort {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);
  const read = "contents: read";
  const write = "contents: write";

  /** One level of a tree, or all of it (`recursive`), as GitHub lists it. */
  async function listTree(sha: string, recursive: boolean) {
    const { data } = await octokit.rest.git.getTree({
      owner,
      repo,
      tree_sha: sha,
      ...(recursive ? { recursive: "1" } : {}),
    });
    return data;
  }

  /**
   * A tree too big for one recursive listing (GitHub stops at 100,000 entries or 7 MB and says
   * `truncated`), walked a level at a time instead.
   */
  async function walkTree(root: string): Promise<TreeFile[]> {
    const files: TreeFile[] = [];
    let level = [{ sha: root, prefix: "" }];
    while (level.length > 0) {
      const next: typeof level = [];
      for (let i = 0; i < level.length; i += WALK_PARALLEL) {
        const listed = await Promise.all(
          level.slice(i, i + WALK_PARALLEL).map(async (tree) => ({
            tree,
            data: await listTree(tree.sha, false),
          })),
        );
        for (const { tree, data } of listed) {
          if (data.truncated) {
            throw new PitcrewError(
              "github-tree-too-big",
              `GitHub would not list tree ${tree.sha.slice(0, 12)} (${tree.prefix || "/"}) ` +
                "whole, even one level of it: keep fewer files in that folder of the ref.",
            );
          }
          for (const entry of data.tree) {
            if (entry.sha === undefined || entry.path === undefined) continue;
            const path = `${tree.prefix}${entry.path}`;
            if (entry.type === "tree") next.push({ sha: entry.sha, prefix: `${path}/` });
            else if (entry.type === "blob")
              files.push({ path, sha: entry.sha, size: entry.size ?? 0 });
          }
        }
      }
      level = next;
    }
    return files.sort(byPath);
  }

  const refSha = (ref: string): Promise<string | undefined> =>
    call(
      `read the ref ${ref}`,
      async () => {
        try {
          const { data } = await octokit.rest.git.getRef({ owner, repo, ref });
          return data.object.sha;
        } catch (error) {
          if (failureOf(error)?.status === 404) return undefined;
          throw error;
        }
      },
      read,
    );

  return {
    refSha,

    commit: (sha) =>
      call(
        `read commit ${sha.slice(0, 12)}`,
        async () => {
          const { data } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: sha });
          return {
            tree: data.tree.sha,
            parents: data.parents.map((parent) => parent.sha),
            message: data.message,
          };
        },
        read,
      ),

    treeFiles: (tree) =>
      call(
        `list tree ${tree.slice(0, 12)}`,
        async () => {
          const data = await listTree(tree, true);
          if (data.truncated) return walkTree(tree);
          return data.tree.flatMap((entry): TreeFile[] =>
            entry.type === "blob" && entry.sha !== undefined && entry.path !== undefined
              ? [{ path: entry.path, sha: entry.sha, size: entry.size ?? 0 }]
              : [],
          );
        },
        read,
      ),

    blob: (sha) =>
      call(
        `read blob ${sha.slice(0, 12)}`,
        async () => {
          const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: sha });
          return Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8");
        },
        read,
      ),

    createBlob: (content) =>
      call(
        `write a blob of ${content.length} bytes`,
        async () => {
          const { data } = await octokit.rest.git.createBlob({
            owner,
            repo,
            content: content.toString("base64"),
            encoding: "base64",
          });
          return data.sha;
        },
        write,
      ),

    createTree: (changes, base) => {
      // Nothing to change: the base is the tree, and GitHub need not be asked.
      if (changes.length === 0 && base !== undefined) return Promise.resolve(base);
      return call(
        `write a tree of ${changes.length} changes`,
        async () => {
          const { data } = await octokit.rest.git.createTree({
            owner,
            repo,
            ...(base === undefined ? {} : { base_tree: base }),
            // A null sha deletes the path from the base tree.
            tree: changes.map((change) => ({
              path: change.path,
              mode: FILE_MODE,
              type: "blob",
              sha: change.sha,
            })),
          });
          return data.sha;
        },
        write,
      );
    },

    createCommit: ({ message, tree, parents }) =>
      call(
        `write a commit on tree ${tree.slice(0, 12)}`,
        async () => {
          const { data } = await octokit.rest.git.createCommit({
            owner,
            repo,
            message,
            tree,
            parents,
          });
          return data.sha;
        },
        write,
      ),

    moveRef: (ref, sha, expected) =>
      expected === undefined
        ? call(
            `create the ref ${ref}`,
            async () => {
              try {
                await octokit.rest.git.createRef({ owner, repo, ref: `refs/${ref}`, sha });
                return true;
              } catch (error) {
                if (!refused(error, REF_EXISTS, REF_UPDATE_FAILED)) throw error;
                // A retried request whose first try made the ref finds it made: that is success.
                return (await refSha(ref)) === sha;
              }
            },
            write,
          )
        : call(
            `move the ref ${ref} to ${sha.slice(0, 12)}`,
            async () => {
              try {
                // Not forced: GitHub moves it only if its commit is an ancestor of `sha`, and
                // `sha`'s parent is `expected`, so this lands only where the ref is still there.
                await octokit.rest.git.updateRef({ owner, repo, ref, sha, force: false });
                return true;
              } catch (error) {
                if (!refused(error, NOT_FAST_FORWARD, REF_GONE, REF_UPDATE_FAILED)) throw error;
                return false;
              }
            },
            write,
          ),
  };
}
