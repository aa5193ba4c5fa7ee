/**
 * Compiles a `Policy` to a bubblewrap argv. Pure: the same policy and command give the same
 * argv, so tests assert on it directly. Why each flag is here is in docs/sandbox.md; the order
 * matters (mask first, then bind back, then remount read-only).
 */
import type { Policy } from "./policy.ts";

export interface BwrapCommand {
  /** argv of the command to run inside. */
  argv: readonly string[];
  /** Working directory inside the sandbox; defaults to the workspace. */
  cwd?: string;
  /** File descriptor number (in bwrap) carrying the seccomp filter, when one is passed. */
  seccompFd?: number;
  /**
   * Host unix sockets the command would see (host-sockets.ts), each covered with `/dev/null`: a
   * read-only bind does not stop `connect()`, a file that is no socket does.
   */
  maskedSockets?: readonly string[];
}

export const BWRAP_HOSTNAME = "pitcrew-sandbox";

export function bwrapArgs(policy: Policy, command: BwrapCommand): string[] {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--disable-userns",
    // bwrap keeps every capability inside the namespace when started by root; drop them so a
    // root-run harness cannot remount the read-only binds writable.
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    BWRAP_HOSTNAME,
    "--clearenv",
  ];
  for (const [name, value] of Object.entries(policy.env).sort(([a], [b]) => a.localeCompare(b))) {
    args.push("--setenv", name, value);
  }
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  args.push("--size", String(policy.tmpfsBytes.tmp), "--tmpfs", "/tmp");
  args.push("--size", String(policy.tmpfsBytes.devShm), "--tmpfs", "/dev/shm");
  for (const hidden of policy.hidden) args.push("--tmpfs", hidden);
  // bwrap leaves /proc/sys writable when its directory looks read-only (mode 0555), but the
  // kernel lets the global root uid write sysctls without any capability: a root-run harness
  // would let the agent set kernel.core_pattern (a host-root helper). Bind it read-only.
  args.push("--ro-bind", "/proc/sys", "/proc/sys");
  args.push("--size", String(policy.tmpfsBytes.home), "--tmpfs", policy.home);
  for (const dir of policy.homeReadOnly) args.push("--ro-bind", dir, dir);
  // The spill folder, read-only. Its mount point is made inside the fresh /tmp tmpfs above (or
  // the home tmpfs), before the workspace is bound: never in a folder a command could write.
  if (policy.spill) args.push("--ro-bind", policy.spill.source, policy.spill.target);
  args.push("--bind", policy.workspace, policy.workspace);
  for (const { path } of policy.pinned) args.push("--bind", path, path);
  // Read-only paths and the writable folders inside them, parents first: `.github` read-only,
  // then `.github/pitcrew` writable inside it, then a protected path inside that again.
  const depth = (path: string): number => path.split("/").length;
  const protectedMounts = [
    ...policy.readOnly.map(({ path }) => ({ op: "--ro-bind", path })),
    ...policy.writable.map(({ path }) => ({ op: "--bind", path })),
  ].sort((a, b) => depth(a.path) - depth(b.path));
  for (const { op, path } of protectedMounts) args.push(op, path, path);
  for (const { source, target } of policy.overlays) args.push("--ro-bind", source, target);
  // Last of the binds, so no later one shows a socket again (one in the workspace or a cache).
  for (const socket of command.maskedSockets ?? []) args.push("--ro-bind", "/dev/null", socket);
  for (const hidden of policy.hidden) args.push("--remount-ro", hidden);
  args.push("--chdir", command.cwd ?? policy.workspace);
  if (command.seccompFd !== undefined) args.push("--seccomp", String(command.seccompFd));
  args.push("--", ...command.argv);
  return args;
}
