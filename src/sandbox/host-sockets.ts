/**
 * The host's listening pathname unix sockets, found where the kernel lists them: each network
 * namespace's `/proc/<pid>/net/unix`. A read-only bind does not stop `connect()` on a socket
 * file, so bwrap covers every one a command could see with `/dev/null` (connect then fails with
 * ECONNREFUSED). Read before each command, so a socket bound since the session began is covered
 * too. Sockets a command's own processes make live in the sandbox's network namespace and are
 * never listed here. `socketMasks` (pure) decides which of them the sandbox shows at all.
 */
import { lstatSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isInside } from "./policy.ts";
import type { Policy } from "./policy.ts";

/** Absolute socket paths from one `/proc/<pid>/net/unix` table (abstract names start with @). */
export function parseUnixTable(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split("\n").slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path — the path may hold spaces.
    const match = /^\S+:\s+(?:\S+\s+){5}\d+ (\/.*)$/.exec(line);
    if (match?.[1]) paths.push(match[1]);
  }
  return paths;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** `path` without symlinks when it is a socket file now, else null. */
function realSocket(path: string): string | null {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isSocket() ? real : null;
  } catch {
    return null;
  }
}

/**
 * Where a socket that `pid` bound at `path` (a path in its own mount namespace, such as a
 * container's) lies in this one: through `/proc/<pid>/root`, accepted only when that resolves to
 * the very same file here. Null where the harness may not look (another user's process).
 */
function throughRoot(pid: string, path: string): string | null {
  try {
    const viaRoot = `/proc/${pid}/root${path}`;
    const real = realpathSync(viaRoot);
    const [a, b] = [lstatSync(viaRoot), lstatSync(real)];
    return a.isSocket() && a.dev === b.dev && a.ino === b.ino ? real : null;
  } catch {
    return null;
  }
}

/**
 * Real paths of the pathname sockets bound in every network namespace whose processes this
 * process can see: its own first, then one table per other namespace (told apart by the inode
 * of the table itself). A path from another namespace is taken as it is and through that
 * process's root.
 */
export function hostSocketPaths(): string[] {
  const found = new Set<string>();
  const add = (path: string | null): void => {
    if (path !== null) found.add(path);
  };
  const seen = new Set<number>();
  const own = "/proc/self/net/unix";
  try {
    seen.add(statSync(own).ino);
  } catch {
    return []; // no /proc: nothing to find, and no bwrap either
  }
  for (const path of parseUnixTable(readOrNull(own) ?? "")) add(realSocket(path));
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    pids = [];
  }
  for (const pid of pids) {
    const table = `/proc/${pid}/net/unix`;
    let ino: number;
    try {
      ino = statSync(table).ino;
    } catch {
      continue; // ended while we looked
    }
    if (seen.has(ino)) continue;
    seen.add(ino);
    for (const path of parseUnixTable(readOrNull(table) ?? "")) {
      add(realSocket(path));
      add(throughRoot(pid, path));
    }
  }
  return [...found].sort();
}

/**
 * Of `sockets` (real host paths), those a command would see: not under a fresh tmpfs of the
 * sandbox (`/tmp`, `/dev`, `$HOME`, the hidden folders) unless a bind shows that place again (the
 * workspace, the caches bound back into `$HOME`). The deepest mount holding a path decides.
 */
export function socketMasks(policy: Policy, sockets: readonly string[]): string[] {
  const mounts = [
    ...["/", ...policy.homeReadOnly, policy.workspace].map((path) => ({ path, shown: true })),
    ...["/tmp", "/dev", "/dev/shm", "/proc", policy.home, ...policy.hidden].map((path) => ({
      path,
      shown: false,
    })),
  ];
  return sockets.filter((socket) => {
    const holders = mounts.filter(({ path }) => isInside(socket, path));
    const deepest = holders.sort((a, b) => b.path.length - a.path.length)[0];
    return deepest?.shown ?? true;
  });
}

/**
 * Whether bwrap stopped before the command because a socket it was to cover was removed after
 * the scan (bwrap cannot make a mount point on the read-only root, nor the folders above it when
 * they went too): its own error names a covered path, and that path is gone. The command never
 * ran, so it may run again.
 */
export function lostMaskRace(
  result: { exitCode: number | null; stderr: { text: string } },
  masked: readonly string[],
): boolean {
  if (result.exitCode !== 1) return false;
  const match = /^bwrap: Can't (?:create file at|mkdir parents for) (.+): [^:\n]+\n?$/.exec(
    result.stderr.text,
  );
  const path = match?.[1];
  if (path === undefined || !masked.includes(path)) return false;
  try {
    lstatSync(path);
    return false;
  } catch {
    return true;
  }
}
