/**
 * Whether a file a command changes lies where changes are allowed (the workspace, /tmp, the
 * output devices), refusing with a reason that names the path when it does not. Which words of a
 * command are such files is for the command rules to say.
 */
import { posix } from "node:path";
import { isInside } from "../../sandbox/policy.ts";
import type { Word } from "../shell/words.ts";
import { REASONS, refuse } from "./reasons.ts";

/** Where a target lies: one known path, somewhere under a known folder, or unknown. */
type Location = { path: string } | { under: string } | null;

/** Resolves `word` against `cwd`, as far as its literal start allows. */
function locate(word: Word, cwd: string | null): Location {
  const from = (path: string): string | null =>
    path.startsWith("/") ? posix.resolve(path) : cwd === null ? null : posix.resolve(cwd, path);
  if (word.exact && word.value !== null) {
    const path = from(word.value);
    return path === null ? null : { path };
  }
  if (word.opaque) return null;
  const folder = word.known.slice(0, word.known.lastIndexOf("/") + 1);
  const under = from(folder === "" ? "." : folder);
  return under === null ? null : { under };
}

const DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** Paths a command may change: the workspace, the sandbox's private /tmp, the output devices. */
function allowedWrite(workspace: string, location: Location): boolean {
  if (location === null) return true; // unknown: the sandbox decides
  if ("path" in location) {
    const path = location.path;
    return (
      isInside(path, workspace) ||
      isInside(path, "/tmp") ||
      DEVICES.has(path) ||
      path.startsWith("/dev/fd/")
    );
  }
  return isInside(location.under, workspace) || isInside(location.under, "/tmp");
}

/** The target as the reason names it: its path, or its text and the folder it lies in. */
function describe(word: Word, location: Location): string {
  if (location === null) return word.text;
  return "path" in location ? location.path : `${word.text} (in ${location.under})`;
}

/** Refuses when one of `targets`, the files `what` changes, lies outside the workspace. */
export function checkTargets(
  workspace: string,
  what: string,
  targets: readonly Word[],
  cwd: string | null,
): void {
  for (const target of targets) {
    const location = locate(target, cwd);
    if (!allowedWrite(workspace, location)) {
      refuse(REASONS.outside(what, describe(target, location), workspace));
    }
  }
}

/** Refuses when `target`, the file a redirect writes, lies outside the workspace. */
export function checkRedirectTarget(workspace: string, target: Word, cwd: string | null): void {
  const location = locate(target, cwd);
  if (!allowedWrite(workspace, location)) {
    refuse(REASONS.redirect(describe(target, location), workspace));
  }
}
