/**
 * The sandbox policy as data: what a tool command may read, write and see. One `Policy` is
 * resolved per session (see resolve.ts) and compiled by a backend (bwrap.ts, seatbelt.ts). This
 * file holds only the types, the defaults and pure helpers over them; it does no I/O.
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { PitcrewError } from "../errors.ts";
import { GITHUB_FOLDER } from "./protected-paths.ts";

export type BackendName = "bwrap" | "seatbelt" | "none";

/** What the `sandbox` setting accepts, wherever it is given (action input, CLI flag). */
export const SANDBOX_CHOICES = ["auto", "bwrap", "seatbelt", "none"] as const;

/**
 * The backend named by `value`, or a named error: `code` and `setting` say where it came from
 * (`config-invalid` and "Input 'sandbox'", or `cli-bad-option` and "--sandbox").
 */
export function sandboxChoice(
  value: string,
  code: string,
  setting: string,
): SandboxSettings["backend"] {
  const choice = SANDBOX_CHOICES.find((name) => name === value);
  if (choice === undefined) {
    throw new PitcrewError(
      code,
      `${setting} must be one of ${SANDBOX_CHOICES.join(", ")}, not '${value}'.`,
    );
  }
  return choice;
}

/** What a user can choose (action input `sandbox`, `.github/pitcrew.yml`, CLI flags). */
export interface SandboxSettings {
  /** `auto` picks bwrap on Linux and Seatbelt on macOS; `none` must be chosen explicitly. */
  backend: "auto" | BackendName;
  /** Wall-clock limit per command; the whole process tree is killed when it passes. */
  timeoutMs: number;
  /** Keep `.github/workflows` read-only (workflow files run later with secrets). */
  protectWorkflows: boolean;
  /**
   * More of the checkout kept read-only (protected-paths.ts): `.github` (but pitcrew's own
   * folder) and the repository's `protected-paths` globs; empty with `allow-protected-changes`.
   */
  protectedPaths: string[];
  /** Folders under `$HOME` bound back read-only into the otherwise hidden home (caches, toolchains). */
  homeReadOnly: string[];
  /** More absolute paths to hide (self-hosted runners keep credentials in odd places). */
  extraHidden: string[];
  /** More environment variable names passed into the sandbox (secret-looking names are refused). */
  extraEnv: string[];
  limits: Limits;
  /** Sizes of the private tmpfs mounts, in bytes. */
  tmpfsBytes: { tmp: number; devShm: number; home: number };
}

export interface Limits {
  /** Processes the sandbox may add on top of what its uid already runs (RLIMIT_NPROC is per uid). */
  processes: number;
  /** Largest file a command may write. */
  fileSizeBytes: number;
  /** Virtual address space per process; 0 = no limit. */
  addressSpaceBytes: number;
  /** Bytes kept from each of stdout and stderr (head and tail); the middle of a flood is dropped. */
  outputBytes: number;
  /**
   * Free space kept on the workspace's filesystem: a command whose writes take it below this is
   * killed (`disk-reserve-reached`), so the push and the notes upload after it still have room.
   * 0: no reserve.
   */
  diskReserveBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Caches and toolchains builds read from `$HOME`. Only the data folders, never the ones that can
 * hold credentials (`~/.m2/settings.xml`, `~/.cargo/credentials.toml`, `~/.gradle/gradle.properties`,
 * `~/.npmrc`, `~/.docker`, `~/.ssh` stay hidden).
 */
export const DEFAULT_HOME_READ_ONLY: readonly string[] = [
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
  ".sdkman/candidates",
];

export const DEFAULT_SETTINGS: SandboxSettings = {
  backend: "auto",
  timeoutMs: 60_000,
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
    diskReserveBytes: 1 * GiB,
  },
  tmpfsBytes: { tmp: 1 * GiB, devShm: 256 * MiB, home: 1 * GiB },
};

/** A path inside the workspace kept read-only, with the identity it had when the session began. */
export interface ProtectedPath {
  path: string;
  dev: number;
  ino: number;
}

/** Is `path` the folder `dir` or inside it? (`..x` is a name inside; only `..` leaves.) */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Components from `root` (exclusive) down to `path` (inclusive). */
export function chain(root: string, path: string): string[] {
  const parts = relative(root, path).split(sep).filter(Boolean);
  return parts.map((_, index) => join(root, ...parts.slice(0, index + 1)));
}

/**
 * The folders strictly between `workspace` and each of `paths`, outermost first, without
 * duplicates. Renaming one of them would carry a protected path away.
 */
export function pinnedAncestors(workspace: string, paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    if (!isInside(path, workspace)) continue;
    for (const folder of chain(workspace, path).slice(0, -1)) found.add(folder);
  }
  return [...found].sort((a, b) => a.split(sep).length - b.split(sep).length || a.localeCompare(b));
}

/** A file bound read-only over another (the sanitised `.git/config` over the real one). */
export interface FileOverlay {
  source: string;
  target: string;
}

/** Where bwrap shows the spill folder: inside the fresh private `/tmp`, never a host path. */
export const SPILL_MOUNT = "/tmp/pitcrew-spill";

/**
 * The harness-private folder holding long tool outputs in full (`source`, under the session's
 * state folder) and the path a command reads it at (`target`): `SPILL_MOUNT` under bwrap, the
 * real path elsewhere. Commands may read it, never write it.
 */
export interface SpillFolder {
  source: string;
  target: string;
}

/** The resolved policy: absolute real paths, decided once per session. */
export interface Policy {
  backend: BackendName;
  /** The checkout: the only place a command may write (besides private tmpfs mounts). */
  workspace: string;
  /**
   * Inside the workspace, read-only: `.git` (whole), resolved git dirs, `.github/workflows`,
   * `.github`, and what exists of the repository's protected paths (a bounded number).
   */
  readOnly: ProtectedPath[];
  /** Folders inside a read-only one that stay writable: pitcrew's own `.github/pitcrew`. */
  writable: ProtectedPath[];
  /**
   * The protected-path patterns (protected-paths.ts) the write and edit tools refuse, whether
   * or not a mount covers the path: `.github/workflows` when protected, then the settings' own.
   */
  protectedPatterns: string[];
  /**
   * Folders between the workspace and a protected path (`.github` above `.github/workflows`),
   * bound onto themselves so they cannot be renamed or replaced while a command runs.
   */
  pinned: ProtectedPath[];
  /** Empty folders created only to be mounted read-only (`.github/workflows`), removed at the end. */
  createdDirs: string[];
  /** Sanitised git config files bound over the real ones. */
  overlays: FileOverlay[];
  /** Long tool outputs, readable but not writable inside; null only in hand-built policies. */
  spill: SpillFolder | null;
  /** `$HOME`, replaced by an empty private tmpfs. */
  home: string;
  /** Existing folders under `$HOME` bound back read-only. */
  homeReadOnly: string[];
  /** Replaced by empty read-only tmpfs mounts: `$RUNNER_TEMP`, the runner's install folder, `/run`… */
  hidden: string[];
  /** The command's complete environment (allowlisted from the harness's). */
  env: Record<string, string>;
  timeoutMs: number;
  limits: Limits;
  /** RLIMIT_NPROC to apply: the uid's current process count plus `limits.processes`. */
  processCeiling: number;
  tmpfsBytes: { tmp: number; devShm: number; home: number };
}
