/**
 * Gate for the shared-data suite (test/shared/): it measures on ../shared (research samples,
 * real trajectories), which exists beside the checkout only in the project's own CI (.ci/run)
 * and on a developer's machine. Missing, the suite skips saying why, except under CI=true,
 * where it fails: a CI that meant to measure must not pass having measured nothing (as with
 * bwrap in bwrap.ts). PITCREW_SHARED points the suite at another folder.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The shared folder: PITCREW_SHARED, or ../shared beside the repository. */
export const SHARED =
  process.env.PITCREW_SHARED ?? join(import.meta.dirname, "..", "..", "..", "shared");

/**
 * Options for `describe` in node:test: no skip when every path (relative to the shared folder)
 * exists; `{ skip: reason }` when one is missing; a thrown error naming it under CI=true.
 */
export function needsShared(...paths: string[]): { skip: string | false } {
  const missing = paths.map((path) => join(SHARED, path)).filter((path) => !existsSync(path));
  if (missing.length === 0) return { skip: false };
  const reason = `the shared data is absent (${missing.join(", ")} not found): this suite measures on ../shared, which only the project's own CI (.ci/run) checks out; set PITCREW_SHARED to its folder`;
  if (process.env.CI === "true")
    throw new Error(`${reason} (CI=true: failing instead of skipping)`);
  return { skip: reason };
}
