/**
 * Compiles a `Policy` to a macOS Seatbelt (SBPL) profile for `/usr/bin/sandbox-exec`. Paths never
 * enter the profile text: they are `-D` parameters, so a path with quotes or parentheses cannot
 * change the rules. Pure. What differs from bwrap is in docs/sandbox.md: no PID namespace (the
 * runner kills the process group), no clean copy of `.git/config` (a token there is refused).
 */
import { isInside } from "./policy.ts";
import type { Policy } from "./policy.ts";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

export interface SeatbeltProgram {
  profile: string;
  params: Record<string, string>;
}

export function seatbeltProfile(policy: Policy, tmp: string): SeatbeltProgram {
  const params: Record<string, string> = {
    WORKSPACE: policy.workspace,
    TMP: tmp,
    HOME: policy.home,
  };
  // The spill folder is read at its real path: readable like TMP, but never writable.
  if (policy.spill) params.SPILL = policy.spill.source;
  const spill = policy.spill ? ' (subpath (param "SPILL"))' : "";
  const list = (prefix: string, paths: readonly string[], form: "subpath" | "literal"): string =>
    paths
      .map((path, index) => {
        params[`${prefix}_${index}`] = path;
        return `(${form} (param "${prefix}_${index}"))`;
      })
      .join(" ");

  const protectedPaths = policy.readOnly.map(({ path }) => path);
  const hidden = list("HIDDEN", policy.hidden, "subpath");
  const homeReadOnly = list("HOME_RO", policy.homeReadOnly, "subpath");
  const readOnly = list("READONLY", protectedPaths, "subpath");
  // pitcrew's own folder inside a read-only `.github`: writable, minus protected paths inside it.
  const writable = policy.writable
    .map(({ path }, index) => {
      params[`WRITABLE_${index}`] = path;
      const inner = list(
        `WRITABLE_${index}_RO`,
        protectedPaths.filter((inside) => inside !== path && isInside(inside, path)),
        "subpath",
      );
      const own = `(subpath (param "WRITABLE_${index}"))`;
      return inner ? ` (require-all ${own} (require-not (require-any ${inner})))` : ` ${own}`;
    })
    .join("");
  const pinned = list(
    "ANCESTOR",
    policy.pinned.map(({ path }) => path),
    "literal",
  );

  const lines = [
    "(version 1)",
    "(deny default)",
    "; processes: fork and exec, but see and signal only this sandbox",
    "(allow process-exec process-fork)",
    "(allow process-info* (target same-sandbox))",
    "(allow signal (target same-sandbox))",
    "(allow mach-priv-task-port (target same-sandbox))",
    "; the few system services ordinary tools need",
    "(allow user-preference-read)",
    "(allow mach-host*)",
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.PowerManagement.control"))',
    "(allow ipc-posix-sem ipc-posix-shm)",
    '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
    '(allow sysctl-read (sysctl-name-prefix "hw.") (sysctl-name-prefix "machdep.cpu.") (sysctl-name-prefix "kern.proc.pid.") (sysctl-name "kern.argmax") (sysctl-name "kern.hostname") (sysctl-name "kern.osrelease") (sysctl-name "kern.ostype") (sysctl-name "kern.osversion") (sysctl-name "kern.version") (sysctl-name "vm.loadavg") (sysctl-name "kern.maxfilesperproc"))',
    "(allow pseudo-tty)",
    '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
    "; files: read broadly, but not the home folder, the runner's folders or other hidden paths",
    "(allow file-read*)",
    `(deny file-read* (subpath (param "HOME"))${hidden ? ` ${hidden}` : ""})`,
    `(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "TMP"))${spill}${homeReadOnly ? ` ${homeReadOnly}` : ""})`,
    "; writes: the workspace minus .git and the protected paths, pitcrew's own folder, and a private temporary folder",
    `(allow file-write* (require-all (subpath (param "WORKSPACE"))${readOnly ? ` (require-not (require-any ${readOnly}))` : ""}) (subpath (param "TMP"))${writable})`,
  ];
  // pitcrew's own folder cannot be moved out of `.github` or removed either (bwrap: a mount point).
  const kept = [
    pinned,
    ...policy.writable.map((_, index) => `(literal (param "WRITABLE_${index}"))`),
  ].filter(Boolean);
  if (kept.length > 0) lines.push(`(deny file-write-unlink ${kept.join(" ")})`);
  lines.push("; no network rule at all: TCP, UDP, unix sockets and DNS stay denied");
  return { profile: lines.join("\n") + "\n", params };
}

export function seatbeltArgv(program: SeatbeltProgram, argv: readonly string[]): string[] {
  const defines = Object.entries(program.params).map(([key, value]) => `-D${key}=${value}`);
  return [SANDBOX_EXEC, "-p", program.profile, ...defines, "--", ...argv];
}
