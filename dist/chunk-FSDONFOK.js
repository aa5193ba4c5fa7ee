import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/sandbox/runner.ts
import { spawn } from "node:child_process";
import { readdirSync as readdirSync2, statfsSync } from "node:fs";
import { constants } from "node:os";

// src/sandbox/fds.ts
import { closeSync, readFileSync, readdirSync } from "node:fs";
var O_CLOEXEC = 524288;
function inheritableFds() {
  let names;
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const ipc = Number(process.env.NODE_CHANNEL_FD ?? -1);
  return names.map(Number).filter((fd) => fd > 2 && fd !== ipc).filter((fd) => {
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      return flags?.[1] !== void 0 && (parseInt(flags[1], 8) & O_CLOEXEC) === 0;
    } catch {
      return false;
    }
  });
}
function closeInheritedFds() {
  const fds = inheritableFds();
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
    }
  }
  return fds;
}

// src/sandbox/output.ts
var OutputCapture = class {
  #headLimit;
  #tailLimit;
  #head = [];
  #headBytes = 0;
  #tail = [];
  #tailBytes = 0;
  #total = 0;
  constructor(ceiling) {
    this.#headLimit = Math.ceil(ceiling / 2);
    this.#tailLimit = Math.floor(ceiling / 2);
  }
  push(chunk) {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(rest.length, this.#headLimit - this.#headBytes);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#tailLimit) {
      this.#tailBytes -= this.#tail.shift()?.length ?? 0;
    }
  }
  result() {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailLimit) tail = tail.subarray(tail.length - this.#tailLimit);
    const kept = head.length + tail.length;
    if (kept === this.#total) {
      return {
        text: Buffer.concat([head, tail]).toString("utf8"),
        bytes: this.#total,
        truncated: false
      };
    }
    const dropped = this.#total - kept;
    const marker = `
[\u2026 ${dropped} bytes of output dropped by the sandbox's output ceiling \u2026]
`;
    return {
      text: head.toString("utf8") + marker + tail.toString("utf8"),
      bytes: this.#total,
      truncated: true
    };
  }
};

// src/sandbox/proc.ts
import { readFileSync as readFileSync2 } from "node:fs";
function procStat(pid) {
  try {
    const stat = readFileSync2(`/proc/${pid}/stat`, "utf8");
    const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

// src/sandbox/runner.ts
var EMPTY = { text: "", bytes: 0, truncated: false };
var DRAIN_MS = 200;
var DISK_POLL_MS = 25;
var DISK_GRACE_BYTES = 32 * 1024 * 1024;
function freeBytes(path) {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
function watchDisk(reserve, stop) {
  if (reserve === void 0 || reserve.freeBytes <= 0) return () => void 0;
  const atStart = freeBytes(reserve.path);
  if (atStart === null) return () => void 0;
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
function shellStatus(result) {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : void 0;
  return 128 + (number ?? 0);
}
function signalQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
  }
}
function descendantsOf(pid) {
  const parents = /* @__PURE__ */ new Map();
  let names;
  try {
    names = readdirSync2("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = procStat(name)?.ppid;
    if (ppid !== void 0) parents.set(ppid, [...parents.get(ppid) ?? [], Number(name)]);
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift() ?? -1) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
async function killTree(pid, group) {
  signalQuietly(group ? -pid : pid, "SIGSTOP");
  for (let waited = 0; waited < 50; waited++) {
    const state = procStat(pid)?.state ?? null;
    if (state === null || state === "T" || state === "t" || state === "Z") break;
    await new Promise((resolveWait) => setTimeout(resolveWait, 1));
  }
  for (const descendant of descendantsOf(pid)) signalQuietly(descendant, "SIGKILL");
  signalQuietly(group ? -pid : pid, "SIGKILL");
}
function runContained(spec) {
  closeInheritedFds();
  const [program, ...args] = spec.argv;
  if (program === void 0) throw new Error("runContained: empty argv");
  const stdinMode = spec.inheritStdio ? "inherit" : spec.stdin === void 0 ? "ignore" : "pipe";
  const outMode = spec.inheritStdio ? "inherit" : "pipe";
  const stdio = [stdinMode, outMode, outMode];
  if (spec.fd3Data !== void 0) stdio.push("pipe");
  const started = performance.now();
  const stdout = new OutputCapture(spec.outputBytes);
  const stderr = new OutputCapture(spec.outputBytes);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, {
      env: spec.env,
      cwd: spec.cwd,
      stdio,
      detached: spec.killGroup ?? false
    });
    let timedOut = false;
    let cancelled = false;
    let diskReserveReached = false;
    let settled = false;
    const kill = () => {
      if (child.pid === void 0) return;
      void killTree(child.pid, spec.killGroup ?? false);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    const endDiskWatch = watchDisk(spec.diskReserve, () => {
      diskReserveReached = true;
      kill();
    });
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (chunk) => stdout.push(chunk));
    child.stderr?.on("data", (chunk) => stderr.push(chunk));
    if (child.stdin) {
      child.stdin.on("error", () => {
      });
      child.stdin.end(spec.stdin);
    }
    const fd3 = child.stdio[3];
    if (spec.fd3Data !== void 0 && fd3 && "end" in fd3) {
      fd3.on("error", () => {
      });
      fd3.end(spec.fd3Data);
    }
    const finish = (exitCode, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      endDiskWatch();
      spec.signal?.removeEventListener("abort", onAbort);
      if (spec.killGroup && child.pid !== void 0) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
        }
      }
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        cancelled,
        ...diskReserveReached ? { diskReserveReached } : {},
        durationMs: performance.now() - started,
        stdout: spec.inheritStdio ? EMPTY : stdout.result(),
        stderr: spec.inheritStdio ? EMPTY : stderr.result()
      });
    };
    child.on("error", (error) => {
      clearTimeout(timer);
      endDiskWatch();
      settled = true;
      reject(
        new PitcrewError("sandbox-start-failed", `Could not start ${program}: ${error.message}.`, {
          cause: error
        })
      );
    });
    child.on("close", (code, signal) => finish(code, signal));
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_MS).unref();
    });
  });
}

export {
  procStat,
  shellStatus,
  runContained
};
