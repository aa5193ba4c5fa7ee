/** A complete `Policy` literal for compiler tests, with fixed values a test overrides as needed. */
import { DEFAULT_SETTINGS, pinnedAncestors } from "../../src/sandbox/policy.ts";
import type { Policy } from "../../src/sandbox/policy.ts";

export function testPolicy(overrides: Partial<Policy> = {}): Policy {
  const workspace = overrides.workspace ?? "/w/repo";
  const readOnly = overrides.readOnly ?? [];
  const pinned = pinnedAncestors(
    workspace,
    readOnly.map(({ path }) => path),
  ).map((path) => ({ path, dev: 0, ino: 0 }));
  return {
    pinned,
    backend: "bwrap",
    workspace: "/w/repo",
    readOnly: [],
    writable: [],
    protectedPatterns: [],
    createdDirs: [],
    overlays: [],
    spill: null,
    home: "/h/user",
    homeReadOnly: [],
    hidden: [],
    env: { PATH: "/usr/bin:/bin", HOME: "/h/user", TMPDIR: "/tmp" },
    timeoutMs: 1000,
    limits: { ...DEFAULT_SETTINGS.limits },
    processCeiling: 100,
    tmpfsBytes: { tmp: 111, devShm: 222, home: 333 },
    ...overrides,
  };
}
