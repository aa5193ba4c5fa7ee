import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  GITHUB_FOLDER
} from "./chunk-K5VWAPAE.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/sandbox/policy.ts
import { isAbsolute, join, relative, sep } from "node:path";
var SANDBOX_CHOICES = ["auto", "bwrap", "seatbelt", "none"];
function sandboxChoice(value, code, setting) {
  const choice = SANDBOX_CHOICES.find((name) => name === value);
  if (choice === void 0) {
    throw new PitcrewError(
      code,
      `${setting} must be one of ${SANDBOX_CHOICES.join(", ")}, not '${value}'.`
    );
  }
  return choice;
}
var MiB = 1024 * 1024;
var GiB = 1024 * MiB;
var DEFAULT_HOME_READ_ONLY = [
  ".m2/repository",
  ".gradle/caches",
  ".gradle/wrapper",
  ".cargo/bin",
  ".cargo/registry",
  ".cargo/git",
  ".rustup",
  ".npm/_cacache",
  ".cache/pip",
  ".cache/go-build",
  ".cache/yarn",
  ".cache/ms-playwright",
  "go/pkg/mod",
  "go/bin",
  ".nvm",
  ".pyenv",
  ".rbenv",
  ".local/bin",
  ".local/lib",
  ".dotnet",
  ".nuget/packages",
  ".bun/bin",
  ".deno",
  ".volta",
  ".sdkman/candidates"
];
var DEFAULT_SETTINGS = {
  backend: "auto",
  timeoutMs: 6e4,
  protectWorkflows: true,
  protectedPaths: [GITHUB_FOLDER],
  homeReadOnly: [...DEFAULT_HOME_READ_ONLY],
  extraHidden: [],
  extraEnv: [],
  limits: {
    processes: 2048,
    fileSizeBytes: 4 * GiB,
    // V8 reserves ~10 GiB of address space per WebAssembly memory and JVMs reserve their heap up
    // front, so a tight cap breaks ordinary builds; this one stops runaway allocations only.
    addressSpaceBytes: 32 * GiB,
    outputBytes: 4 * MiB,
    diskReserveBytes: 1 * GiB
  },
  tmpfsBytes: { tmp: 1 * GiB, devShm: 256 * MiB, home: 1 * GiB }
};
function isInside(path, dir) {
  const rel = relative(dir, path);
  return rel === "" || rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
function chain(root, path) {
  const parts = relative(root, path).split(sep).filter(Boolean);
  return parts.map((_, index) => join(root, ...parts.slice(0, index + 1)));
}
function pinnedAncestors(workspace, paths) {
  const found = /* @__PURE__ */ new Set();
  for (const path of paths) {
    if (!isInside(path, workspace)) continue;
    for (const folder of chain(workspace, path).slice(0, -1)) found.add(folder);
  }
  return [...found].sort((a, b) => a.split(sep).length - b.split(sep).length || a.localeCompare(b));
}
var SPILL_MOUNT = "/tmp/pitcrew-spill";

export {
  SANDBOX_CHOICES,
  sandboxChoice,
  DEFAULT_SETTINGS,
  isInside,
  chain,
  pinnedAncestors,
  SPILL_MOUNT
};
