/** A complete `Policy` literal for compiler tests, with fixed values a test overrides as needed. */
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import type { Policy } from "../../src/sandbox/policy.ts";

export function testPolicy(overrides: Partial<Policy> = {}): Policy {
  return {
    backend: "bwrap",
    workspace: "/w/repo",
    readOnly: [],
    createdDirs: [],
    overlays: [],
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
