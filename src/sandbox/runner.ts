/**
 * Runs one prepared command line (a backend's wrapper argv) with a wall-clock timeout that kills
 * the whole tree, output read under a byte ceiling, and only descriptors 0-2 (plus one extra, a
 * fresh pipe carrying the seccomp filter) passed on. It knows nothing of policies: backends hand
 * it an argv and an environment.
 */
import { spawn } from "node:child_process";
import type { StdioOptions } from "node:child_process";
import { readdirSync, statfsSync } from "node:fs";
import { constants } from "node:os";
import { PitcrewError } from "../errors.ts";
import { closeInheritedFds } from "./fds.ts";
import { OutputCapture } from "./output.ts";
import { procStat } from "./proc.ts";
import type { CapturedOutput } from "./output.ts";

export interface SpawnSpec {
  /** Program and arguments, program first. */
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** Bytes written to the command's stdin; without it stdin is /dev/null (or inherited). */
  stdin?: string | Buffer;
  /** Pass the caller's terminal through instead of capturing (the CLI). */
  inheritStdio?: boolean;
  /**
   * Bytes the child reads from descriptor 3 (bwrap's `--seccomp 3`): written into a fresh pipe
   * made for this spawn, never a file a command could have rewritten since the last one.
   */
  fd3Data?: Buffer;
  timeoutMs: number;
  outputBytes: number;
  signal?: AbortSignal;
  /** Start a new process group and kill all of it (backends without a PID namespace). */
  killGroup?: boolean;
  /** Kill the command when its writes leave less than `freeBytes` free on `path`'s filesystem. */
  diskReserve?: { path: string; freeBytes: number };
}

export interface RunResult {
  /** The command's exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Killed because its writes took the disk below `SpawnSpec.diskReserve` (absent: it was not). */
  diskReserveReached?: boolean;
  durationMs: number;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
}

const EMPTY: CapturedOutput = { text: "", bytes: 0, truncated: false };
/** After the main process exits, how long to wait for its pipes to drain. */
const DRAIN_MS = 200;
/** How often the disk reserve is checked while a command runs. */
const DISK_POLL_MS = 25;
/**
 * What a command may still take once the disk is below the reserve when it starts: room enough
 * for `rm`, `git status` and the like, so the agent can clean up what an earlier command wrote.
 */
export const DISK_GRACE_BYTES = 32 * 1024 * 1024;

/** Bytes an unprivileged process may still write on `path`'s filesystem; null if unknown. */
export function freeBytes(path: string): number | null {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/**
 * Calls `stop` once the command has taken the free space on the reserve's filesystem below both
 * the reserve and what was free at its start (less the grace). Returns the function that ends
 * the watch.
 */
function watchDisk(reserve: SpawnSpec["diskReserve"], stop: () => void): () => void {
  if (reserve === undefined || reserve.freeBytes <= 0) return () => undefined;
  const atStart = freeBytes(reserve.path);
  if (atStart === null) return () => undefined;
  const floor = Math.min(reserve.freeBytes, atStart - DISK_GRACE_BYTES);
  const timer = setInterval(() => {
    const free = freeBytes(reserve.path);
    if (free !== null && free < floor) {
      clearInterval(timer);
      stop();
    }
  }, DISK_POLL_MS);
  return () => clearInterval(timer);
}

/** Exit status in the shell's convention: the code, or 128 + signal number. */
export function shellStatus(result: Pick<RunResult, "exitCode" | "signal">): number {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : undefined;
  return 128 + (number ?? 0);
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Every process below `pid`, read from /proc (empty where there is no /proc). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = procStat(name)?.ppid; // undefined: it ended while we looked
    if (ppid !== undefined) parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift() ?? -1) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * SIGKILL `pid`, everything below it and, for backends without a PID namespace, its process group.
 * Killing bwrap alone is not enough in its first milliseconds: before its child has set up
 * --die-with-parent, that child (the sandbox's PID 1) would survive (containers/bubblewrap#633).
 * Stopping the top process first freezes the tree so the list is complete; killing the sandbox's
 * PID 1 takes its whole PID namespace with it. Without a namespace, a `setsid` process still
 * below the command is found through /proc although it left the group.
 */
async function killTree(pid: number, group: boolean): Promise<void> {
  signalQuietly(group ? -pid : pid, "SIGSTOP");
  for (let waited = 0; waited < 50; waited++) {
    const state = procStat(pid)?.state ?? null;
    if (state === null || state === "T" || state === "t" || state === "Z") break;
    await new Promise((resolveWait) => setTimeout(resolveWait, 1));
  }
  for (const descendant of descendantsOf(pid)) signalQuietly(descendant, "SIGKILL");
  signalQuietly(group ? -pid : pid, "SIGKILL");
}

export function runContained(spec: SpawnSpec): Promise<RunResult> {
  closeInheritedFds();
  const [program, ...args] = spec.argv;
  if (program === undefined) throw new Error("runContained: empty argv");
  const stdinMode = spec.inheritStdio ? "inherit" : spec.stdin === undefined ? "ignore" : "pipe";
  const outMode = spec.inheritStdio ? "inherit" : "pipe";
  const stdio: StdioOptions = [stdinMode, outMode, outMode];
  if (spec.fd3Data !== undefined) stdio.push("pipe");

  const started = performance.now();
  const stdout = new OutputCapture(spec.outputBytes);
  const stderr = new OutputCapture(spec.outputBytes);

  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, {
      env: spec.env,
      cwd: spec.cwd,
      stdio,
      detached: spec.killGroup ?? false,
    });
    let timedOut = false;
    let cancelled = false;
    let diskReserveReached = false;
    let settled = false;

    const kill = (): void => {
      if (child.pid === undefined) return;
      void killTree(child.pid, spec.killGroup ?? false);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      kill();
    };
    const endDiskWatch = watchDisk(spec.diskReserve, () => {
      diskReserveReached = true;
      kill();
    });
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    if (child.stdin) {
      child.stdin.on("error", () => {
        // the command did not read all of its input; that is its business
      });
      child.stdin.end(spec.stdin);
    }
    const fd3 = child.stdio[3];
    if (spec.fd3Data !== undefined && fd3 && "end" in fd3) {
      fd3.on("error", () => {
        // the wrapper ended before reading it; its exit status says why
      });
      fd3.end(spec.fd3Data);
    }

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      endDiskWatch();
      spec.signal?.removeEventListener("abort", onAbort);
      // Anything left in the group (background jobs) goes with the command.
      if (spec.killGroup && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // group already empty
        }
      }
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        cancelled,
        ...(diskReserveReached ? { diskReserveReached } : {}),
        durationMs: performance.now() - started,
        stdout: spec.inheritStdio ? EMPTY : stdout.result(),
        stderr: spec.inheritStdio ? EMPTY : stderr.result(),
      });
    };

    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      endDiskWatch();
      settled = true;
      reject(
        new PitcrewError("sandbox-start-failed", `Could not start ${program}: ${error.message}.`, {
          cause: error,
        }),
      );
    });
    child.on("close", (code, signal) => finish(code, signal));
    child.on("exit", (code, signal) => {
      // A survivor that kept our pipes open must not hold the result hostage.
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_MS).unref();
    });
  });
}
