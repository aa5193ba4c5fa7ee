/**
 * Turns `SandboxSettings` and the host as it is now into a `Policy`: real paths, the protected
 * set with the identity each path had at session start, sanitised git config copies, the
 * allowlisted environment. This is the I/O edge of policy.ts; it runs once per session.
 */
import {
  existsSync,
  mkdirSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  statSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { PitcrewError } from "../errors.ts";
import { sandboxEnv } from "./env.ts";
import { procStat } from "./proc.ts";
import { findToken, writeSanitisedConfig } from "./gitconfig.ts";
import { SPILL_MOUNT, chain, isInside, pinnedAncestors } from "./policy.ts";
import { protectedMounts } from "./protected-mounts.ts";
import { WORKFLOWS_FOLDER } from "./protected-paths.ts";
import type {
  BackendName,
  FileOverlay,
  Policy,
  ProtectedPath,
  SandboxSettings,
  SpillFolder,
} from "./policy.ts";

export interface ResolveOptions {
  workspace: string;
  /** The harness's environment (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A private folder for the session's generated files (sanitised configs, seccomp filter, the
   * spill folder).
   */
  stateDir?: string;
}

export function chooseBackend(settings: SandboxSettings, platform = process.platform): BackendName {
  if (settings.backend !== "auto") return settings.backend;
  if (platform === "linux") return "bwrap";
  if (platform === "darwin") return "seatbelt";
  throw new PitcrewError(
    "sandbox-unsupported-platform",
    `There is no sandbox for ${platform}. Run on a Linux or macOS runner, or set sandbox: none to run commands unsandboxed (not recommended).`,
  );
}

/**
 * The identity of a path inside the workspace, refusing when any component is a symlink: a
 * mount target reached through a link the agent could rewrite is a way out (sandbox.md C9/C10).
 */
function protect(workspace: string, path: string): ProtectedPath {
  for (const component of chain(workspace, path)) {
    if (lstatSync(component).isSymbolicLink()) {
      throw new PitcrewError(
        "sandbox-protected-symlink",
        `${relative(workspace, component)} is a symbolic link, so the sandbox cannot keep ${relative(workspace, path)} read-only. Replace the link with the real folder.`,
      );
    }
  }
  const stat = lstatSync(path);
  return { path, dev: stat.dev, ino: stat.ino };
}

/**
 * Checks that every protected path still is what it was at session start. Run before each
 * command: between commands no sandbox process is alive, so nothing can race this check.
 */
export function verifyProtected(policy: Policy): void {
  for (const expected of [...policy.pinned, ...policy.readOnly]) {
    let actual: ProtectedPath;
    try {
      actual = protect(policy.workspace, expected.path);
    } catch (error) {
      if (error instanceof PitcrewError) throw error;
      actual = { path: expected.path, dev: -1, ino: -1 };
    }
    if (actual.dev !== expected.dev || actual.ino !== expected.ino) {
      throw new PitcrewError(
        "sandbox-protected-path-moved",
        `${relative(policy.workspace, expected.path)} was moved or replaced since the session began; the sandbox will not start until it is restored (git status shows what changed).`,
      );
    }
  }
}

interface GitLayout {
  /** `.git` itself, the resolved git dir and common dir when they lie inside the workspace. */
  protectedPaths: string[];
  /** Config files that may hold credentials. */
  configs: string[];
  /** A repository-configured hooks folder inside the worktree, if any. */
  hooksPath: string | null;
  /** The common git dir (all of a worktree's objects and refs), wherever it lies. */
  commonDir: string;
}

function gitLayout(workspace: string): GitLayout | null {
  const dotGit = join(workspace, ".git");
  if (!existsSync(dotGit) && !isSymlink(dotGit)) return null;
  let gitDir = dotGit;
  if (lstatSync(dotGit).isFile()) {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
    if (!match?.[1]) {
      throw new PitcrewError(
        "sandbox-bad-gitfile",
        `${dotGit} is a file but names no gitdir; fix or remove it.`,
      );
    }
    gitDir = realpathSync(resolve(workspace, match[1].trim()));
  }
  const commondirFile = join(gitDir, "commondir");
  const commonDir = existsSync(commondirFile)
    ? realpathSync(resolve(gitDir, readFileSync(commondirFile, "utf8").trim()))
    : gitDir;
  const protectedPaths = [dotGit, gitDir, commonDir].filter(
    (path, index, all) => isInside(path, workspace) && all.indexOf(path) === index,
  );
  const configs = [
    join(commonDir, "config"),
    join(gitDir, "config.worktree"),
    ...moduleConfigs(join(commonDir, "modules"), 4),
  ];
  const hooksPath = repoHooksPath(join(commonDir, "config"), workspace);
  return {
    protectedPaths,
    configs: configs.filter((path) => existsSync(path)),
    hooksPath,
    commonDir,
  };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Submodule git dirs (`.git/modules/<name>/config`), nested a few levels deep at most. */
function moduleConfigs(dir: string, depth: number): string[] {
  if (depth === 0 || !existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join(dir, entry.name);
    if (existsSync(join(sub, "config"))) found.push(join(sub, "config"));
    found.push(...moduleConfigs(join(sub, "modules"), depth - 1));
  }
  return found;
}

/** `core.hooksPath` from the repository's own config, when it points inside the worktree. */
function repoHooksPath(configFile: string, workspace: string): string | null {
  if (!existsSync(configFile)) return null;
  const text = readFileSync(configFile, "utf8");
  const match = /^\s*hookspath\s*=\s*(.+)$/im.exec(text);
  if (!match?.[1]) return null;
  const value = match[1].trim().replace(/^"(.*)"$/, "$1");
  const path = resolve(workspace, value);
  return isInside(path, workspace) && existsSync(path) ? path : null;
}

/**
 * Creates `path` (and missing parents inside the workspace) when absent, so it can be mounted
 * read-only: a repository without workflows must not gain one either. Creates nothing where a
 * component is a symlink (protect() then refuses). Returns what it created, outermost first.
 */
function ensureMountPoint(workspace: string, path: string): string[] {
  const created: string[] = [];
  for (const component of chain(workspace, path)) {
    if (isSymlink(component)) break;
    if (existsSync(component)) continue;
    mkdirSync(component);
    created.push(component);
  }
  return created;
}

/**
 * The install folder of the GitHub runner running this job: walk up the parent processes to
 * `Runner.Worker` and take the folder above its `bin/`. Null when not under a runner (or no /proc).
 */
export function runnerRoot(pid = process.pid): string | null {
  let current = pid;
  for (let hops = 0; hops < 32 && current > 1; hops++) {
    try {
      const comm = readFileSync(`/proc/${current}/comm`, "utf8").trim();
      if (comm.startsWith("Runner.Worker") || comm.startsWith("Runner.Listener")) {
        return dirname(dirname(realpathSync(`/proc/${current}/exe`)));
      }
      const parent = procStat(current)?.ppid;
      if (parent === undefined) return null;
      current = parent;
    } catch {
      return null;
    }
  }
  return null;
}

/** Processes owned by `uid` right now (RLIMIT_NPROC counts them all). */
export function processCount(uid: number): number {
  if (!existsSync("/proc")) return 0;
  let count = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) count++;
    } catch {
      // the process ended while we counted
    }
  }
  return count;
}

function realDir(path: string | undefined): string | null {
  if (!path) return null;
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** A folder under `$HOME` that exists and is reached without symlinks. */
function plainDirUnder(home: string, rel: string): string | null {
  const path = resolve(home, rel);
  if (!isInside(path, home) || path === home) return null;
  try {
    if (chain(home, path).some((component) => lstatSync(component).isSymbolicLink())) return null;
    return statSync(path).isDirectory() ? path : null;
  } catch {
    return null;
  }
}

export function resolvePolicy(settings: SandboxSettings, options: ResolveOptions): Policy {
  const backend = chooseBackend(settings);
  const env = options.env ?? process.env;
  const workspace = realDir(options.workspace);
  if (workspace === null) {
    throw new PitcrewError(
      "sandbox-no-workspace",
      `The workspace ${options.workspace} is not a folder.`,
    );
  }
  const home = realDir(env.HOME) ?? realpathSync(homedir());
  if (workspace === "/" || isInside(home, workspace)) {
    throw new PitcrewError(
      "sandbox-workspace-too-wide",
      `The workspace ${workspace} contains your home folder ${home}; run pitcrew in the repository's own folder.`,
    );
  }
  if (
    backend === "bwrap" &&
    (isInside(SPILL_MOUNT, workspace) || isInside(workspace, SPILL_MOUNT))
  ) {
    throw new PitcrewError(
      "sandbox-workspace-too-wide",
      `The workspace ${workspace} overlaps ${SPILL_MOUNT}, where the sandbox shows long command outputs; run pitcrew in the repository's own folder.`,
    );
  }

  const hidden = [
    realDir(env.RUNNER_TEMP),
    runnerRoot(),
    "/run",
    isSymlink("/var/run") ? null : realDir("/var/run"),
    ...settings.extraHidden.map((path) => realDir(path)),
  ].filter((path): path is string => path !== null && !isInside(path, home));
  const unique = [...new Set(hidden)];
  const insideWorkspace = unique.find((path) => isInside(path, workspace));
  if (insideWorkspace !== undefined) {
    throw new PitcrewError(
      "sandbox-hidden-inside-workspace",
      `${insideWorkspace} must be hidden from the agent but lies inside the workspace ${workspace}; move it out.`,
    );
  }

  const pathEntries = (env.PATH ?? "")
    .split(":")
    .filter((entry) => isAbsolute(entry) && isInside(entry, home));
  const layout = gitLayout(workspace);
  // A worktree outside the repository (as `pitcrew run` makes) needs the repository's git dir,
  // which usually lies under the hidden home: bind it back read-only so git works inside.
  const gitDirs =
    layout && !isInside(layout.commonDir, workspace) && isInside(layout.commonDir, home)
      ? [relative(home, layout.commonDir)]
      : [];
  const homeReadOnly = [
    ...new Set([
      ...settings.homeReadOnly,
      ...pathEntries.map((entry) => relative(home, entry)),
      ...gitDirs,
    ]),
  ]
    .map((rel) => plainDirUnder(home, rel))
    .filter(
      (path): path is string =>
        path !== null && !isInside(path, workspace) && !isInside(workspace, path),
    );

  const protectedPaths = [...(layout?.protectedPaths ?? [])];
  if (layout?.hooksPath) protectedPaths.push(layout.hooksPath);
  const createdDirs: string[] = [];
  if (settings.protectWorkflows) {
    const workflows = join(workspace, ".github", "workflows");
    createdDirs.push(...ensureMountPoint(workspace, workflows));
    protectedPaths.push(workflows);
  }
  const mounts = protectedMounts(workspace, settings.protectedPaths);
  createdDirs.push(...mounts.created);
  protectedPaths.push(...mounts.readOnly);
  const readOnly = protectedPaths.map((path) => protect(workspace, path));
  const writable = mounts.writable.map((path) => protect(workspace, path));
  const pinned = pinnedAncestors(workspace, protectedPaths).map((path) => protect(workspace, path));
  const protectedPatterns = [
    ...(settings.protectWorkflows ? [WORKFLOWS_FOLDER] : []),
    ...settings.protectedPaths,
  ];

  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "pitcrew-sandbox-"));
  const overlays: FileOverlay[] = [];
  for (const [index, config] of (layout?.configs ?? []).entries()) {
    if (backend === "bwrap") {
      const source = join(stateDir, `gitconfig-${index}`);
      writeSanitisedConfig(config, source);
      overlays.push({ source, target: config });
    } else if (backend === "seatbelt" && findToken(readFileSync(config, "utf8")) !== null) {
      // Seatbelt cannot bind a clean copy over the real file, so a token there would be readable.
      throw new PitcrewError(
        "sandbox-token-in-git-config",
        `${config} holds a credential that the macOS sandbox cannot hide. Use actions/checkout with persist-credentials: false.`,
      );
    }
  }

  // The harness writes long outputs here (Sandbox.spill); commands only read them.
  const spillSource = join(stateDir, "spill");
  mkdirSync(spillSource, { recursive: true, mode: 0o700 });
  const spill: SpillFolder = {
    source: spillSource,
    target: backend === "bwrap" ? SPILL_MOUNT : spillSource,
  };

  const tmp = backend === "seatbelt" ? join(stateDir, "tmp") : "/tmp";
  const uid = process.getuid?.() ?? 0;
  return {
    backend,
    workspace,
    readOnly,
    writable,
    protectedPatterns,
    pinned,
    createdDirs,
    overlays,
    spill,
    home,
    homeReadOnly,
    hidden: unique,
    env: sandboxEnv(env, settings.extraEnv, { home, tmp }),
    timeoutMs: settings.timeoutMs,
    limits: { ...settings.limits },
    processCeiling: processCount(uid) + settings.limits.processes,
    tmpfsBytes: { ...settings.tmpfsBytes },
  };
}
