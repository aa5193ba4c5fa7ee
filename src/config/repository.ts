/**
 * The repository's own setup — `.github/pitcrew.yml` and `AGENTS.md` — read as committed on the
 * base, through git. Never from the working tree: a pull request or the agent itself could have
 * changed the files there, and the setup decides what the agent may run.
 */
import { posix } from "node:path";
import { PitcrewError } from "../errors.ts";
import { git } from "../git/git.ts";
import { EMPTY_REPO_CONFIG, REPO_CONFIG_PATH, parseRepoConfig } from "./repo-config.ts";
import type { RepoConfig } from "./repo-config.ts";

export const AGENTS_PATH = "AGENTS.md";

export interface RepositorySetup {
  config: RepoConfig;
  /** AGENTS.md, then the file's `instructions`; "" when there are neither. */
  instructions: string;
}

/** Symlinks followed before giving up (AGENTS.md → CLAUDE.md is common; a loop is not). */
const MAX_LINKS = 8;

export async function readRepositorySetup(
  repoDir: string,
  baseRef: string,
): Promise<RepositorySetup> {
  const base = await baseCommit(repoDir, baseRef);
  const configText = await readCommitted(repoDir, base, REPO_CONFIG_PATH);
  const config = configText === undefined ? EMPTY_REPO_CONFIG : parseRepoConfig(configText);
  const instructions = [await readCommitted(repoDir, base, AGENTS_PATH), config.instructions]
    .filter((text): text is string => text !== undefined && text.trim() !== "")
    .join("\n\n");
  return { config, instructions };
}

async function baseCommit(repoDir: string, baseRef: string): Promise<string> {
  const resolved = await git(
    repoDir,
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${baseRef}^{commit}`],
    { okCodes: [1, 128] },
  );
  if (resolved.exitCode !== 0) {
    throw new PitcrewError(
      "config-base-missing",
      `'${baseRef}' is not a commit in ${repoDir}, so the repository's setup cannot be read from it; fetch the base branch first.`,
    );
  }
  return resolved.stdout;
}

/**
 * A file's text as committed in `commit`, following symlinks that stay inside the repository;
 * undefined when there is no such file.
 */
async function readCommitted(
  repoDir: string,
  commit: string,
  path: string,
  links = 0,
): Promise<string | undefined> {
  // `<mode> <type> <object>\t<path>`, or nothing when the path is not in the commit.
  const entry = (await git(repoDir, ["ls-tree", "-z", commit, "--", path])).stdout;
  const [mode, type, object] = entry.split("\t")[0]?.split(" ") ?? [];
  if (type !== "blob" || object === undefined) return undefined;
  const text = (await git(repoDir, ["cat-file", "blob", object])).stdout;
  if (mode !== "120000") return text;
  const target = posix.normalize(posix.join(posix.dirname(path), text));
  if (posix.isAbsolute(text) || target.startsWith("../") || links >= MAX_LINKS) {
    throw new PitcrewError(
      "config-unreadable",
      `${path} is a symlink to ${text}, outside the repository or in a loop; commit the file itself.`,
    );
  }
  return readCommitted(repoDir, commit, target, links + 1);
}
