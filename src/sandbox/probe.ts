/**
 * Checks at session start that bubblewrap is installed and can create its namespaces (user, pid,
 * net with a loopback), and on a runner with passwordless sudo repairs the two usual causes:
 * bwrap missing (ubuntu-24.04 images lack it) and Ubuntu's AppArmor restriction on unprivileged
 * user namespaces. If it still cannot sandbox, the error says exactly what to add to the
 * workflow. `diagnose` is pure; the rest runs processes.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import { PitcrewError } from "../errors.ts";

const run = promisify(execFile);
const SAFE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" };
export const BWRAP_LOCATIONS = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

export interface KernelFacts {
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns, when present. */
  apparmorRestrict: string | null;
  /** /proc/sys/kernel/unprivileged_userns_clone (Debian-style kernels), when present. */
  usernsClone: string | null;
  /** /proc/sys/user/max_user_namespaces. */
  maxUserNamespaces: string | null;
}

export type Cause = "apparmor-userns" | "userns-disabled" | "no-user-namespaces" | "unknown";

export interface Fix {
  what: string;
  /** Commands run with `sudo -n`, in order; the fix is tried until one sequence succeeds. */
  commands: { argv: string[]; stdin?: string }[];
}

export interface Diagnosis {
  cause: Cause;
  fixes: Fix[];
  /** What a person adds to the workflow when pitcrew cannot fix it itself. */
  advice: string;
}

export const APPARMOR_PROFILE_PATH = "/etc/apparmor.d/pitcrew-bwrap";

export function apparmorProfile(bwrapPath: string): string {
  return [
    "abi <abi/4.0>,",
    "include <tunables/global>",
    `profile pitcrew-bwrap ${bwrapPath} flags=(unconfined) {`,
    "  userns,",
    "}",
    "",
  ].join("\n");
}

const WORKFLOW_APPARMOR_STEP = `- name: Let bubblewrap create user namespaces
  run: |
    printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap /usr/bin/bwrap flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap
    sudo apparmor_parser -r /etc/apparmor.d/bwrap`;

export function diagnose(stderr: string, facts: KernelFacts, bwrapPath: string): Diagnosis {
  const apparmor =
    /setting up uid map: Permission denied|loopback: Failed RTM_NEW(ADDR|LINK)/.test(stderr) ||
    (facts.apparmorRestrict !== null && facts.apparmorRestrict !== "0");
  if (apparmor) {
    return {
      cause: "apparmor-userns",
      fixes: [
        {
          what: `load an AppArmor profile that lets ${bwrapPath} create user namespaces`,
          commands: [
            { argv: ["tee", APPARMOR_PROFILE_PATH], stdin: apparmorProfile(bwrapPath) },
            { argv: ["apparmor_parser", "-r", APPARMOR_PROFILE_PATH] },
          ],
        },
        {
          what: "turn off kernel.apparmor_restrict_unprivileged_userns",
          commands: [{ argv: ["sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"] }],
        },
      ],
      advice: `Ubuntu's AppArmor forbids unprivileged user namespaces on this runner. Add this step before pitcrew:\n${WORKFLOW_APPARMOR_STEP}`,
    };
  }
  if (facts.usernsClone === "0" || /No permissions to create new namespace/.test(stderr)) {
    return {
      cause: "userns-disabled",
      fixes: [
        {
          what: "turn on kernel.unprivileged_userns_clone",
          commands: [{ argv: ["sysctl", "-w", "kernel.unprivileged_userns_clone=1"] }],
        },
      ],
      advice:
        "The kernel does not allow unprivileged user namespaces. Add a step before pitcrew: `sudo sysctl -w kernel.unprivileged_userns_clone=1`.",
    };
  }
  if (facts.maxUserNamespaces === "0") {
    return {
      cause: "no-user-namespaces",
      fixes: [
        {
          what: "allow user namespaces (user.max_user_namespaces)",
          commands: [{ argv: ["sysctl", "-w", "user.max_user_namespaces=15000"] }],
        },
      ],
      advice:
        "user.max_user_namespaces is 0. Add a step before pitcrew: `sudo sysctl -w user.max_user_namespaces=15000`.",
    };
  }
  return {
    cause: "unknown",
    fixes: [],
    advice:
      "bubblewrap could not create its namespaces here. Inside a container, run the job on the runner itself (or give the container --privileged); elsewhere see docs/sandbox.md.",
  };
}

function readFact(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

export function kernelFacts(): KernelFacts {
  return {
    apparmorRestrict: readFact("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    usernsClone: readFact("/proc/sys/kernel/unprivileged_userns_clone"),
    maxUserNamespaces: readFact("/proc/sys/user/max_user_namespaces"),
  };
}

export function findBwrap(locations: readonly string[] = BWRAP_LOCATIONS): string | null {
  return locations.find((path) => existsSync(path)) ?? null;
}

/** The list of places as a person reads it: "a, b or c". */
function either(paths: readonly string[]): string {
  return paths.length < 2
    ? (paths[0] ?? "")
    : `${paths.slice(0, -1).join(", ")} or ${paths.at(-1)}`;
}

/**
 * Why bwrap was not found, and what to do. pitcrew never takes bwrap from PATH: a folder on PATH
 * that an earlier step or a dependency can write would let a planted `bwrap` run in its place,
 * with the harness's privileges and none of the policy. A bwrap on PATH is named, not used.
 */
function missingBwrap(locations: readonly string[], pathVariable: string): string {
  const onPath = pathVariable
    .split(":")
    .filter((entry) => isAbsolute(entry))
    .map((entry) => join(entry, "bwrap"))
    .find((path) => !locations.includes(path) && existsSync(path));
  const found =
    onPath === undefined
      ? ""
      : ` The bwrap at ${onPath}, on your PATH, is not used: install the distribution's package, or, if you trust that one, link it as root: \`sudo ln -s ${onPath} /usr/local/bin/bwrap\`.`;
  return `bubblewrap (bwrap) is not installed at ${either(locations)}, and pitcrew runs no command without a sandbox. pitcrew looks only there, never on PATH, so that a bwrap planted in a folder on PATH cannot run in its place with pitcrew's privileges.${found} Add a step before pitcrew: \`sudo apt-get install -y bubblewrap\` (locally: \`apt-get install bubblewrap\`).`;
}

async function succeeds(argv: string[], stdin?: string): Promise<boolean> {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  try {
    const child = run(program, args, { env: SAFE_ENV, timeout: 120_000 });
    if (stdin !== undefined) child.child.stdin?.end(stdin);
    await child;
    return true;
  } catch {
    return false;
  }
}

export async function hasPasswordlessSudo(): Promise<boolean> {
  return (process.getuid?.() ?? 1) !== 0 && (await succeeds(["sudo", "-n", "true"]));
}

/** Runs `argv` as root: directly when we are root, else through passwordless sudo. */
async function asRoot(argv: string[], stdin?: string): Promise<boolean> {
  return succeeds((process.getuid?.() ?? 1) === 0 ? argv : ["sudo", "-n", ...argv], stdin);
}

/** The smallest command that needs everything the policy needs from the kernel. */
async function tryNamespaces(bwrapPath: string): Promise<{ ok: boolean; stderr: string }> {
  try {
    await run(
      bwrapPath,
      [
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--disable-userns",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        "/bin/true",
      ],
      { env: SAFE_ENV, timeout: 30_000 },
    );
    return { ok: true, stderr: "" };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    return { ok: false, stderr: stderr.trim() };
  }
}

export interface ProbeOptions {
  /** Where to look for bwrap (tests point this at stand-ins). */
  locations?: readonly string[];
  /** May the probe use root (sudo) to install bwrap and relax AppArmor? Default: yes. */
  allowSetup?: boolean;
  facts?: KernelFacts;
  log?: (message: string) => void;
  /** The caller's PATH, only to name a bwrap found there that pitcrew will not use. */
  pathVariable?: string;
}

export interface ProbeResult {
  bwrapPath: string;
  version: string;
  /** What the probe changed on the runner to make the sandbox work. */
  fixesApplied: string[];
}

function unavailable(message: string): PitcrewError {
  return new PitcrewError("sandbox-unavailable", `${message} Nothing was run.`);
}

export async function probeBwrap(options: ProbeOptions = {}): Promise<ProbeResult> {
  const log = options.log ?? (() => undefined);
  const allowSetup = options.allowSetup ?? true;
  const fixesApplied: string[] = [];
  // Asked only when something needs fixing: a probe that finds a working bwrap spawns no sudo.
  let rooted: Promise<boolean> | undefined;
  const canRoot = (): Promise<boolean> => {
    if (!allowSetup) return Promise.resolve(false);
    if ((process.getuid?.() ?? 1) === 0) return Promise.resolve(true);
    return (rooted ??= hasPasswordlessSudo());
  };

  let bwrapPath = findBwrap(options.locations);
  if (bwrapPath === null && (await canRoot())) {
    log("bubblewrap is missing; installing it with apt-get.");
    const installed =
      (await asRoot(["apt-get", "install", "-y", "bubblewrap"])) ||
      ((await asRoot(["apt-get", "update"])) &&
        (await asRoot(["apt-get", "install", "-y", "bubblewrap"])));
    if (installed) fixesApplied.push("installed bubblewrap with apt-get");
    bwrapPath = findBwrap(options.locations);
  }
  if (bwrapPath === null) {
    throw unavailable(
      missingBwrap(
        options.locations ?? BWRAP_LOCATIONS,
        options.pathVariable ?? process.env.PATH ?? "",
      ),
    );
  }

  // Its version and its options, asked together: each is a process start.
  const ask = (flag: string): Promise<string> =>
    run(found, [flag], { env: SAFE_ENV }).then(
      ({ stdout }) => stdout,
      () => "",
    );
  const found = bwrapPath;
  const [versionText, help] = await Promise.all([ask("--version"), ask("--help")]);
  const version = versionText.trim().replace(/^bubblewrap\s+/, "") || "unknown";
  if (!help.includes("--disable-userns")) {
    throw unavailable(
      `bubblewrap ${version} at ${bwrapPath} is too old: pitcrew needs --disable-userns (0.8.0 or later).`,
    );
  }

  let attempt = await tryNamespaces(bwrapPath);
  if (attempt.ok) return { bwrapPath, version, fixesApplied };

  const diagnosis = diagnose(attempt.stderr, options.facts ?? kernelFacts(), bwrapPath);
  if (await canRoot()) {
    for (const fix of diagnosis.fixes) {
      log(`The sandbox cannot start (${diagnosis.cause}); trying to ${fix.what}.`);
      let applied = true;
      for (const command of fix.commands) {
        if (!(await asRoot(command.argv, command.stdin))) {
          applied = false;
          break;
        }
      }
      if (!applied) continue;
      attempt = await tryNamespaces(bwrapPath);
      if (attempt.ok) {
        fixesApplied.push(fix.what);
        return { bwrapPath, version, fixesApplied };
      }
    }
  }
  throw unavailable(
    `The sandbox cannot start: ${attempt.stderr || "bwrap failed"}. ${diagnosis.advice}`,
  );
}
