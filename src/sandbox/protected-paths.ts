/**
 * Which paths of the checkout the agent may not change: what CI executes with the repository's
 * secrets (all of `.github/` but pitcrew's own folder, and the `protected-paths` globs of
 * `.github/pitcrew.yml`). Pure rules over repository-relative paths, shared by the sandbox (the
 * read-only mounts, the write and edit tools) and the push check; nothing here touches a file.
 */
import { isAbsolute, posix, relative, sep } from "node:path";

/** Protected by default: composite actions, workflows, templates, CODEOWNERS, pitcrew.yml… */
export const GITHUB_FOLDER = ".github";

/** pitcrew's own folder inside `.github/` (where skills live): writable, pushed like any file. */
export const PITCREW_FOLDER = ".github/pitcrew";

/** The workflow files: protected always, pushed only with `allow-workflow-changes`. */
export const WORKFLOWS_FOLDER = ".github/workflows";

/**
 * The patterns to protect besides the workflows: `.github` and the repository's own globs, or
 * none of those when the repository set `allow-protected-changes: true`; and `always` whatever it
 * set (the running action's own files, ownActionPaths).
 */
export function protectedPatterns(
  extra: readonly string[],
  allowChanges: boolean,
  always: readonly string[] = [],
): string[] {
  return [...(allowChanges ? [] : [GITHUB_FOLDER, ...extra.map(normalisePattern)]), ...always];
}

/**
 * The files of the running action that lie inside the checkout it works on (a copy vendored into
 * `.github/actions/pitcrew`, or pitcrew's own repository run with `uses: ./`): after the agent's
 * session they run again with the secrets (the post step, modules imported on first use), so no
 * setting makes them the agent's to change. The action's folder when it is below the checkout;
 * its `action.yml` and `dist` when it is the checkout; nothing when it is elsewhere.
 */
export function ownActionPaths(workspace: string, actionRoot: string): string[] {
  const inside = relative(workspace, actionRoot);
  if (inside === "") return ["action.yml", "dist"];
  if (inside.startsWith("..") || isAbsolute(inside)) return [];
  return [inside.split(sep).join("/")];
}

/** `./a/b/**` and `a/b/` mean the folder `a/b` (a folder protects everything inside it). */
export function normalisePattern(pattern: string): string {
  let result = pattern.trim().replace(/^(\.\/)+/, "");
  while (result.endsWith("/")) result = result.slice(0, -1);
  while (result.endsWith("/**")) result = result.slice(0, -3);
  return result;
}

/** What is wrong with a `protected-paths` entry, or undefined when it is usable. */
export function patternProblem(pattern: string): string | undefined {
  const normal = normalisePattern(pattern);
  if (normal === "") return "is empty";
  if (normal.startsWith("/")) return "must be relative to the repository root, not absolute";
  if (normal.includes("\\")) return "must use / between folders";
  if (/[[\]{}!]/.test(normal)) return "may use only *, ** and ? as wildcards";
  const segments = normal.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return "must not contain empty, . or .. folders";
  }
  if (segments.every((segment) => segment === "**")) return "would protect the whole checkout";
  return undefined;
}

const compiled = new Map<string, RegExp>();

/**
 * A glob as a regular expression over whole paths: `*` and `?` stay inside one folder name,
 * `**` as a whole segment spans any number of folders. Dot files match like any other name:
 * `**\/*.sh` must not skip `.ci/deploy.sh`.
 */
function globRegex(pattern: string): RegExp {
  const known = compiled.get(pattern);
  if (known) return known;
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? "";
    const wholeSegment = index === 0 || pattern[index - 1] === "/";
    if (char === "*" && pattern[index + 1] === "*" && wholeSegment) {
      const after = pattern[index + 2];
      if (after === "/") {
        source += "(?:[^/]+/)*";
        index += 2;
        continue;
      }
      if (after === undefined) {
        source += ".*";
        index += 1;
        continue;
      }
    }
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`);
  compiled.set(pattern, regex);
  return regex;
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`. */
function selfAndAncestors(path: string): string[] {
  const parts = posix.normalize(path).split("/").filter(Boolean);
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** Does `pattern` match `path` itself (not an ancestor)? */
export function matchesPattern(path: string, pattern: string): boolean {
  return globRegex(pattern).test(path);
}

/**
 * The pattern that protects `path` (relative to the repository root), or undefined. A path is
 * protected when it or a folder above it matches; pitcrew's own folder is exempt from the
 * `.github` default only, so a repository's own glob can still protect a part of it.
 */
export function protectingPattern(path: string, patterns: readonly string[]): string | undefined {
  const chain = selfAndAncestors(path);
  if (chain.length === 0) return undefined;
  const full = chain[chain.length - 1] ?? "";
  return patterns.find((pattern) => {
    if (pattern === GITHUB_FOLDER && isWithin(full, PITCREW_FOLDER)) return false;
    return chain.some((prefix) => matchesPattern(prefix, pattern));
  });
}

/** The folders a pattern names literally before its first wildcard (`scripts/ci/*.sh` → `scripts/ci`). */
export function literalPrefix(pattern: string): string {
  const segments = pattern.split("/");
  const literal: string[] = [];
  for (const segment of segments) {
    if (/[*?]/.test(segment)) break;
    literal.push(segment);
  }
  return literal.join("/");
}
