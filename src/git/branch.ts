/**
 * The thread's branch in the action's checkout: reused from origin when an earlier run pushed it,
 * else created from the fresh base. Committing and pushing are publish.ts's job.
 */
import { PitcrewError } from "../errors.ts";
import { git, originEnv } from "./git.ts";

export interface ThreadBranchRequest {
  /** The checkout (GITHUB_WORKSPACE), with `origin` pointing at the repository. */
  workspace: string;
  branch: string;
  base: string;
  /** Sent for the commands that talk to origin only; absent: whatever the checkout has configured. */
  token?: string;
}

export interface PreparedBranch {
  branch: string;
  base: string;
  /** `origin/<base>` when the branch was prepared. */
  baseSha: string;
  /** The commit the run starts from: the remote branch head when reused, else `baseSha`. */
  startSha: string;
  /** The branch already existed on origin (an earlier run pushed it) and was checked out. */
  reused: boolean;
}

/**
 * Fetches the named branches that exist on origin into `refs/remotes/origin/…` and returns their
 * heads; a branch origin does not have is simply absent from the map.
 */
export async function fetchBranches(
  workspace: string,
  names: readonly string[],
  token: string | undefined,
): Promise<Map<string, string>> {
  const env = await originEnv(workspace, token, "fetch");
  const refs = [...new Set(names)].map((name) => `refs/heads/${name}`);
  const listed = await git(workspace, ["ls-remote", "--heads", "origin", ...refs], { env }).catch(
    (error: unknown) => {
      throw fetchFailed(error);
    },
  );
  const heads = new Map<string, string>();
  for (const row of listed.stdout.split("\n")) {
    const [sha, ref] = row.split("\t");
    if (sha && ref && refs.includes(ref)) heads.set(ref.slice("refs/heads/".length), sha);
  }
  if (heads.size === 0) return heads;
  const refspecs = [...heads.keys()].map(
    (name) => `+refs/heads/${name}:refs/remotes/origin/${name}`,
  );
  await git(
    workspace,
    ["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "origin", ...refspecs],
    {
      env,
    },
  ).catch((error: unknown) => {
    throw fetchFailed(error);
  });
  return heads;
}

function fetchFailed(error: unknown): PitcrewError {
  const message = error instanceof Error ? error.message : String(error);
  return new PitcrewError(
    "fetch-failed",
    `Could not fetch from origin (${message}); check the token's \`contents\` permission and the checkout's remote.`,
    { cause: error },
  );
}

/** Leftovers from earlier steps, as `git status --porcelain` lists them (at most a few). */
async function uncommitted(workspace: string): Promise<string[]> {
  const status = await git(workspace, ["status", "--porcelain", "--untracked-files=all"]);
  return status.stdout.split("\n").filter((line) => line.trim() !== "");
}

/**
 * Checks out the thread's branch for the run: origin's when it exists (a re-run continues it),
 * else a new one from the fresh `origin/<base>`. Refuses a checkout with uncommitted changes, which
 * would otherwise be committed as the agent's work.
 */
export async function prepareThreadBranch(request: ThreadBranchRequest): Promise<PreparedBranch> {
  const { workspace, branch, base, token } = request;
  const dirty = await uncommitted(workspace);
  if (dirty.length > 0) {
    const shown = dirty.slice(0, 5).map((line) => line.slice(3));
    const more = dirty.length > shown.length ? ` and ${dirty.length - shown.length} more` : "";
    throw new PitcrewError(
      "workspace-dirty",
      `The checkout at ${workspace} has changes before the agent starts (${shown.join(", ")}${more}); pitcrew would commit them as its own. Clean up (or .gitignore) what earlier steps leave behind.`,
    );
  }
  const heads = await fetchBranches(workspace, [base, branch], token);
  const baseSha = heads.get(base);
  if (baseSha === undefined) {
    throw new PitcrewError(
      "base-missing",
      `origin has no branch "${base}" to start the thread's branch from; check that the checkout's origin is the repository the event came from.`,
    );
  }
  const remote = heads.get(branch);
  const startSha = remote ?? baseSha;
  await git(workspace, ["checkout", "--quiet", "-B", branch, startSha]);
  return { branch, base, baseSha, startSha, reused: remote !== undefined };
}
