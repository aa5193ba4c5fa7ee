/**
 * Which existing paths of the checkout the sandbox mounts read-only for the protected-path
 * patterns (protected-paths.ts), and which folder stays writable inside `.github`. The I/O edge
 * of those rules, run once per session by resolve.ts. Bounded: a pattern that matches more than
 * the sandbox mounts (or a checkout too large to walk) is still enforced by the push check and
 * the write tools, just not by the kernel.
 */
import { lstatSync, mkdirSync, readdirSync } from "node:fs";
import type { Stats } from "node:fs";
import { join, relative, sep } from "node:path";
import { chain, isInside } from "./policy.ts";
import { GITHUB_FOLDER, PITCREW_FOLDER, literalPrefix, matchesPattern } from "./protected-paths.ts";

/** Read-only mounts made for the repository's own patterns, at most. */
export const MAX_PATTERN_MOUNTS = 64;

/** Entries looked at to find what a wildcard pattern matches, at most, per session. */
export const MAX_WALKED_ENTRIES = 20_000;

export interface ProtectedMounts {
  /** Absolute paths to mount read-only, parents before what lies inside them. */
  readOnly: string[];
  /** Folders inside a read-only one to bind writable again (`.github/pitcrew`). */
  writable: string[];
  /** Folders created to be mounted (a missing `.github`), outermost first. */
  created: string[];
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Reached from the workspace through real folders only (a symlink could be rewritten). */
function plainPath(workspace: string, path: string): boolean {
  return chain(workspace, path).every((component) => {
    const stat = lstatOrNull(component);
    return stat !== null && !stat.isSymbolicLink();
  });
}

/** Creates the missing folders of `path` (not through a symlink); returns those it made. */
function ensureFolder(workspace: string, path: string): string[] {
  const created: string[] = [];
  for (const component of chain(workspace, path)) {
    const stat = lstatOrNull(component);
    if (stat?.isSymbolicLink()) break;
    if (stat !== null) continue;
    mkdirSync(component);
    created.push(component);
  }
  return created;
}

/**
 * The existing files and folders `pattern` matches, found by walking from its literal prefix
 * without following symlinks or entering `.git`. A matched folder is not entered: it is mounted
 * whole. `budget` counts the entries left to look at, shared by all patterns.
 */
function matches(workspace: string, pattern: string, budget: { entries: number }): string[] {
  const start = join(workspace, ...literalPrefix(pattern).split("/").filter(Boolean));
  if (!plainPath(workspace, start)) return [];
  const rel = (path: string): string => relative(workspace, path).split(sep).join("/");
  if (start !== workspace && matchesPattern(rel(start), pattern)) return [start];
  const found: string[] = [];
  const queue = [start];
  while (queue.length > 0 && budget.entries > 0) {
    const folder = queue.shift() ?? "";
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (budget.entries-- <= 0) break;
      if (name === ".git") continue;
      const path = join(folder, name);
      const stat = lstatOrNull(path);
      if (stat === null || stat.isSymbolicLink()) continue;
      if (matchesPattern(rel(path), pattern)) {
        if (stat.isDirectory() || stat.isFile()) found.push(path);
      } else if (stat.isDirectory()) {
        queue.push(path);
      }
    }
  }
  return found;
}

/**
 * What to mount for `patterns` in `workspace`. `.github` is mounted whole, created when missing
 * (so no file can appear there either), with pitcrew's own folder bound writable inside it.
 */
export function protectedMounts(workspace: string, patterns: readonly string[]): ProtectedMounts {
  const readOnly: string[] = [];
  const writable: string[] = [];
  const created: string[] = [];
  if (patterns.includes(GITHUB_FOLDER)) {
    const github = join(workspace, GITHUB_FOLDER);
    created.push(...ensureFolder(workspace, github));
    readOnly.push(github);
    const own = join(workspace, ...PITCREW_FOLDER.split("/"));
    if (plainPath(workspace, github)) created.push(...ensureFolder(workspace, own));
    if (plainPath(workspace, own) && lstatOrNull(own)?.isDirectory()) writable.push(own);
  }
  // The deepest mount holding a path decides whether it is already read-only.
  const covered = (path: string): boolean => {
    const holders = [...readOnly, ...writable].filter((mount) => isInside(path, mount));
    const deepest = holders.sort((a, b) => b.length - a.length)[0];
    return deepest !== undefined && readOnly.includes(deepest);
  };
  const budget = { entries: MAX_WALKED_ENTRIES };
  let mounts = 0;
  for (const pattern of patterns) {
    if (pattern === GITHUB_FOLDER) continue;
    for (const path of matches(workspace, pattern, budget)) {
      if (mounts >= MAX_PATTERN_MOUNTS) break;
      if (covered(path)) continue;
      readOnly.push(path);
      mounts++;
    }
  }
  return { readOnly, writable, created };
}
