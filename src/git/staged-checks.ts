/**
 * Checks of what is staged to be pushed that are about paths, not contents: no change to a path
 * the repository's CI runs (protected-paths.ts) and no nested repository (which git would record
 * as a bare submodule link, its files silently missing from the pull request). Each refusal is a
 * named error that says what to do; the secret scan of the contents is publish.ts's.
 */
import { PitcrewError } from "../errors.ts";
import { GITHUB_FOLDER, WORKFLOWS_FOLDER, protectingPattern } from "../sandbox/protected-paths.ts";
import { git } from "./git.ts";

/** One path of `git diff --raw`: its mode before and after (000000 when absent). */
export interface StagedChange {
  path: string;
  oldMode: string;
  newMode: string;
  /** The staged blob (all zeros when the path is deleted). */
  newSha: string;
  /** A added, M modified, D deleted, T type changed. */
  status: string;
}

/** A submodule (gitlink) entry's mode in git's trees. */
const GITLINK = "160000";

/** Parses `git diff --raw -z --no-renames`: `:old new oldsha newsha status\0path\0` per change. */
export function parseRawDiff(output: string): StagedChange[] {
  const fields = output.split("\0");
  const changes: StagedChange[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const header = fields[index] ?? "";
    const path = fields[index + 1] ?? "";
    const [oldMode, newMode, , newSha, status] = header.replace(/^:/, "").split(" ");
    if (oldMode === undefined || newMode === undefined || path === "") continue;
    if (newSha === undefined || status === undefined) continue;
    changes.push({ path, oldMode, newMode, newSha, status });
  }
  return changes;
}

/**
 * Every path that differs between `startSha` and the index (added, modified, deleted, both sides
 * of a rename, a mode or type change), with its modes.
 */
export async function stagedChanges(workspace: string, startSha: string): Promise<StagedChange[]> {
  const raw = await git(workspace, [
    "diff",
    "--cached",
    "--raw",
    "-z",
    "--no-renames",
    "--no-ext-diff",
    "--abbrev=40",
    startSha,
  ]);
  return parseRawDiff(raw.stdout);
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).join(", ");
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}

/**
 * Refuses a change to a protected path other than a workflow (publish.ts refuses those, under
 * `allow-workflow-changes`). `patterns` come from protectedPatterns(): empty when the repository
 * allows such changes.
 */
export function refuseProtectedChanges(
  changes: readonly StagedChange[],
  patterns: readonly string[],
): void {
  const refused: string[] = [];
  let fromFile = false;
  for (const { path } of changes) {
    if (path === WORKFLOWS_FOLDER || path.startsWith(`${WORKFLOWS_FOLDER}/`)) continue;
    const pattern = protectingPattern(path, patterns);
    if (pattern === undefined) continue;
    refused.push(`${path} (\`${pattern}\`)`);
    if (pattern !== GITHUB_FOLDER) fromFile = true;
  }
  if (refused.length === 0) return;
  const where = fromFile
    ? " (`.github` is protected by default, the other patterns by `protected-paths` there)"
    : " (all of `.github` but `.github/pitcrew/` is protected by default)";
  throw new PitcrewError(
    "push-blocked-protected-paths",
    `Nothing was pushed: the agent changed paths the repository's CI runs with its secrets: ${listed(refused)}. Make that change yourself, or let pitcrew make and push such changes with \`allow-protected-changes: true\` in .github/pitcrew.yml${where}.`,
  );
}

/** Paths staged as a gitlink (a repository of their own) that were not one at the start. */
export function addedGitlinks(changes: readonly StagedChange[]): string[] {
  return changes
    .filter(({ oldMode, newMode }) => newMode === GITLINK && oldMode !== GITLINK)
    .map(({ path }) => path);
}

/**
 * Untracked folders that are git repositories of their own, before anything is staged: with
 * every untracked file listed, git names such a folder (`sub/`) instead of its files. `git add`
 * would record it as a gitlink, or fail outright when it has no commit yet.
 */
export async function untrackedRepositories(workspace: string): Promise<string[]> {
  const status = await git(workspace, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
  ]);
  return status.stdout
    .split("\0")
    .filter((entry) => entry.startsWith("?? ") && entry.endsWith("/"))
    .map((entry) => entry.slice(3, -1));
}

/** Refuses nested repositories (`folders`, relative paths) with what to do about them. */
export function refuseNestedRepositories(folders: readonly string[]): void {
  if (folders.length === 0) return;
  const one = folders.length === 1;
  throw new PitcrewError(
    "push-blocked-nested-repository",
    `Nothing was pushed: ${listed(folders)} ${one ? "is a git repository" : "are git repositories"} of ${one ? "its" : "their"} own inside the checkout (a .git inside), which git would record as a bare submodule link: none of ${one ? "its" : "their"} files would reach the pull request. Remove the nested .git to add the files as ordinary files, or add the folder to .gitignore to leave it out.`,
  );
}
