/**
 * Descriptors this process inherited without close-on-exec. Node opens its own with O_CLOEXEC,
 * but whatever started the harness may have left others open (an SSH key, a runner pipe), and a
 * child — bwrap included — inherits them; bwrap then forwards them into the sandbox. The runner
 * closes them before each spawn.
 */
import { closeSync, readFileSync, readdirSync } from "node:fs";

const O_CLOEXEC = 0o2000000;

/** Numbers of open descriptors above 2 that would survive an exec. Empty where /proc is absent. */
export function inheritableFds(): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const ipc = Number(process.env.NODE_CHANNEL_FD ?? -1);
  return names
    .map(Number)
    .filter((fd) => fd > 2 && fd !== ipc)
    .filter((fd) => {
      try {
        const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
        return flags?.[1] !== undefined && (parseInt(flags[1], 8) & O_CLOEXEC) === 0;
      } catch {
        return false;
      }
    });
}

/** Closes inherited descriptors so no child can receive them. Returns what it closed. */
export function closeInheritedFds(): number[] {
  const fds = inheritableFds();
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  return fds;
}
