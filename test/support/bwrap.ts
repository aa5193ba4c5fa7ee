/**
 * Gate for tests that need the real bubblewrap. Missing bwrap skips them with the install
 * command, except under CI=true, where a missing sandbox is a failure, never a silent pass.
 */
import { findBwrap } from "../../src/sandbox/probe.ts";

export const BWRAP_MISSING =
  "bubblewrap (bwrap) is not installed: these tests run real sandboxes. Install it with `sudo apt-get install -y bubblewrap` (Debian/Ubuntu) or `sudo dnf install bubblewrap` (Fedora).";

/**
 * Options for `describe`/`test` in node:test: `{ skip: reason }` when bwrap is missing locally.
 * Under CI the tests run anyway and fail on the missing binary.
 */
export function needsBwrap(): { skip: string | false } {
  if (process.platform !== "linux") return { skip: "bubblewrap tests run on Linux only" };
  if (findBwrap() !== null) return { skip: false };
  if (process.env.CI === "true")
    throw new Error(`${BWRAP_MISSING} (CI=true: failing instead of skipping)`);
  return { skip: BWRAP_MISSING };
}
