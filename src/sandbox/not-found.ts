/**
 * Why a command that exists on the host is not found inside the sandbox: under bwrap `/tmp` and
 * `/dev/shm` are fresh, empty tmpfs mounts and some folders are hidden, so a `PATH` entry there
 * (a tool unpacked into `/tmp/x/bin`) shows nothing inside. The policy stays as it is; this only
 * says so, in a sentence with what to do. Reads the host's files to look names up, nothing else.
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isInside } from "./policy.ts";
import type { Policy } from "./policy.ts";

/** The shell's status for "command not found"; bwrap itself exits 1 when its execvp fails. */
export const EXIT_NOT_FOUND = 127;
const EXIT_BWRAP_EXEC_FAILED = 1;

/** Why `path` (a host path) cannot be seen inside a bwrap sandbox, or null when it can. */
export function unseenReason(policy: Policy, path: string): string | null {
  if (policy.backend !== "bwrap" || !isAbsolute(path)) return null;
  if (isInside(path, policy.workspace)) return null;
  if (policy.spill !== null && isInside(path, policy.spill.target)) return null;
  for (const [root, name] of [
    ["/tmp", "/tmp"],
    ["/dev/shm", "/dev/shm"],
  ] as const) {
    if (isInside(path, root)) {
      return `the sandbox's ${name} is private (a fresh, empty folder for each command)`;
    }
  }
  const hidden = policy.hidden.find((folder) => isInside(path, folder));
  if (hidden !== undefined) return `${hidden} is hidden inside the sandbox`;
  if (isInside(path, policy.home) && !policy.homeReadOnly.some((dir) => isInside(path, dir))) {
    return `your home folder ${policy.home} is hidden inside the sandbox`;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folders of `PATH` that hold an executable `name` on the host, in `PATH` order. */
export function hostHits(name: string, pathVariable: string): string[] {
  return pathVariable
    .split(":")
    .filter((entry) => isAbsolute(entry) && isExecutableFile(join(entry, name)));
}

/** A `PATH` folder the sandbox cannot see, the tools in it the command names, and why. */
interface UnseenEntry {
  entry: string;
  reason: string;
  named: string[];
}

function advice(policy: Policy): string {
  return `Put the tool where the sandbox can see it — in the checkout (${policy.workspace}), in a folder on your PATH under ${policy.home} (bound back read-only), or in /usr/local/bin — and run the command again.`;
}

/**
 * The sentence for a command that failed because a program it named is out of sight inside the
 * sandbox, or null when that is not why (or cannot be told). `status` is the command's exit
 * status: bwrap's own exec failure (1) for the program itself, 127 for one a shell looked up.
 */
export function notFoundHint(
  policy: Policy,
  argv: readonly string[],
  status: number,
): string | null {
  if (policy.backend !== "bwrap" || status === 0) return null;
  const pathVariable = policy.env.PATH ?? "";
  const program = argv[0] ?? "";

  // The program itself: bwrap's execvp fails (status 1) when no copy of it is visible inside.
  if (status === EXIT_BWRAP_EXEC_FAILED || status === EXIT_NOT_FOUND) {
    if (program.includes("/")) {
      const reason = isAbsolute(program) ? unseenReason(policy, program) : null;
      if (reason !== null && isExecutableFile(program)) {
        return `\`${program}\` was not found inside the sandbox: it exists on the host, but ${reason}. ${advice(policy)}`;
      }
    } else if (program !== "") {
      const hits = hostHits(program, pathVariable);
      const reasons = hits.map((entry) => unseenReason(policy, entry));
      const [first] = hits;
      if (first !== undefined && reasons.every((reason) => reason !== null)) {
        return `\`${program}\` was not found inside the sandbox: ${first} is on your PATH, but ${reasons[0]}. ${advice(policy)}`;
      }
    }
  }
  if (status !== EXIT_NOT_FOUND) return null;

  // A program a shell or a script looked up: name the tools of unseen PATH folders the command
  // line mentions, else say which PATH folders hold tools the sandbox cannot see.
  const words = new Set(argv.flatMap((arg) => arg.split(/[^\w.+-]+/)).filter(Boolean));
  const unseen: UnseenEntry[] = [];
  for (const entry of new Set(pathVariable.split(":"))) {
    const reason = unseenReason(policy, entry);
    if (reason === null) continue;
    let tools: string[];
    try {
      tools = readdirSync(entry).filter((name) => isExecutableFile(join(entry, name)));
    } catch {
      continue;
    }
    if (tools.length === 0) continue;
    const named = tools.filter(
      (name) =>
        words.has(name) &&
        hostHits(name, pathVariable).every((hit) => unseenReason(policy, hit) !== null),
    );
    unseen.push({ entry, reason, named });
  }
  const named = unseen.filter((item) => item.named.length > 0);
  if (named.length > 0) {
    const [first] = named;
    const tools = named.flatMap((item) => item.named).map((name) => `\`${name}\``);
    return `${tools.join(", ")} ${tools.length === 1 ? "was" : "were"} not found inside the sandbox (exit status 127): ${first?.entry} is on your PATH, but ${first?.reason}. ${advice(policy)}`;
  }
  const [first] = unseen;
  if (first === undefined) return null;
  const entries = unseen.map((item) => item.entry).join(", ");
  return `Exit status 127 usually means a command was not found. If it was one of the tools in ${entries}: ${unseen.length === 1 ? "that folder is" : "those folders are"} on your PATH, but ${first.reason}. ${advice(policy)}`;
}
