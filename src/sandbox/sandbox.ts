/**
 * The one entry point the rest of pitcrew uses: `createSandbox` resolves the policy, probes the
 * backend (failing closed), and returns a `Sandbox` whose `run` executes one command under that
 * policy. Backends differ only in how they wrap the command line.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PitcrewError } from "../errors.ts";
import { bwrapArgs } from "./bwrap.ts";
import { isInside } from "./policy.ts";
import type { BackendName, Policy, SandboxSettings } from "./policy.ts";
import { hostSocketPaths, lostMaskRace, socketMasks } from "./host-sockets.ts";
import { probeBwrap } from "./probe.ts";
import type { ProbeResult } from "./probe.ts";
import { resolvePolicy, verifyProtected } from "./resolve.ts";
import { runContained } from "./runner.ts";
import type { RunResult } from "./runner.ts";
import { hostSeccompArch, seccompFilter } from "./seccomp.ts";
import { seatbeltArgv, seatbeltProfile } from "./seatbelt.ts";

export interface CommandRequest {
  /** Program and arguments. Tools pass `["bash", "-c", script]`. */
  argv: readonly string[];
  /** Working directory inside the sandbox (default: the workspace). */
  cwd?: string;
  stdin?: string | Buffer;
  /** Overrides the policy's per-command timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Pass the caller's terminal through (the CLI) instead of capturing output. */
  inheritStdio?: boolean;
}

/** The wrapper command line for one request, as the backend builds it. */
export interface Prepared {
  argv: string[];
  /**
   * bwrap's seccomp filter, kept in the harness's memory and written into a fresh pipe per spawn:
   * no file a command could rewrite between two commands (a state folder under a `TMPDIR` inside
   * the workspace once was one).
   */
  seccomp?: Buffer;
  /** The host sockets bwrap covers with /dev/null for this spawn (`host-sockets.ts`). */
  maskedSockets?: readonly string[];
  killGroup: boolean;
  env: Record<string, string>;
}

export interface Sandbox {
  readonly backend: BackendName;
  readonly policy: Policy;
  /** bwrap's version and what the probe fixed, for the log and the job summary. */
  readonly probe: ProbeResult | null;
  prepare(request: CommandRequest): Prepared;
  run(request: CommandRequest): Promise<RunResult>;
  /**
   * Saves `text` (a long tool output) as a new file in the spill folder, named after `name` (a
   * tool call id), and returns the path a command reads it at. Throws `sandbox-spill-failed`.
   */
  spill(name: string, text: string): string;
  /** Removes the session's private files (sanitised configs, spill files). */
  dispose(): void;
}

export interface SandboxOptions {
  workspace: string;
  env?: Readonly<Record<string, string | undefined>>;
  log?: { info(message: string): void; warning(message: string): void };
  /** Let the probe use sudo to install bwrap and relax AppArmor (default: yes). */
  allowSetup?: boolean;
  /** Where the host's listening sockets are read from (default: the kernel's tables). */
  hostSockets?: () => readonly string[];
}

/** Spill files a session may hold in all, so a chatty run cannot fill the runner's disk. */
const SPILL_MAX_BYTES = 1024 * 1024 * 1024;

/** A file name from a tool call id: `[A-Za-z0-9_-]` only, never empty, never too long. */
function spillFileName(name: string, attempt: number): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "output";
  return `${base}${attempt === 1 ? "" : `-${attempt}`}.txt`;
}

/**
 * Writes `text` into `folder` under a fresh name: "wx" follows no link and replaces nothing, so a
 * reused or colliding id gets `-2`, `-3`… Returns the file name.
 */
function writeSpillFile(folder: string, name: string, text: string): string {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const file = spillFileName(name, attempt);
    try {
      writeFileSync(join(folder, file), text, { flag: "wx", mode: 0o400 });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`100 spill files named after ${name} exist already`);
}

/**
 * The named result a command stopped by the disk reserve ends with (on its stderr, which the
 * agent reads): what happened, and what to do.
 */
export function diskReserveNotice(reserveBytes: number): string {
  const mib = Math.round(reserveBytes / (1024 * 1024));
  return `\n[disk-reserve-reached: the command was killed because the disk holding the workspace was down to less than ${mib} MiB free, which pitcrew keeps for the push and the run's notes. What it wrote is still there: delete what is not needed (build outputs, caches, large generated files) with rm, then run it again writing less.]\n`;
}

/** bwrap itself starts with this environment only: its PID 1 keeps it, readable inside. */
const BWRAP_ENV = { PATH: "/usr/bin:/bin" };

function limitArgs(policy: Policy): string[] {
  const args = [
    `--nproc=${policy.processCeiling}`,
    `--fsize=${policy.limits.fileSizeBytes}`,
    "--core=0",
  ];
  if (policy.limits.addressSpaceBytes > 0) args.push(`--as=${policy.limits.addressSpaceBytes}`);
  return args;
}

/** The real path of `path`, or null when it does not exist (resolvePolicy then names that). */
function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The session's state folder (sanitised git configs, spill files) is the harness's: a command
 * that could write it could change what the next command is given. Refuses a `TMPDIR` that lies
 * inside the workspace, the one folder every command may write.
 */
function refuseStateInWorkspace(workspace: string): void {
  const base = realOrNull(tmpdir());
  const real = realOrNull(workspace);
  if (base === null || real === null || !isInside(base, real)) return;
  throw new PitcrewError(
    "sandbox-state-inside-workspace",
    `The temporary folder ${base} (TMPDIR) lies inside the workspace ${real}, where every command may write, so the sandbox's own files would not be safe from the agent. Point TMPDIR outside the checkout (on GitHub runners, leave it unset or use RUNNER_TEMP).`,
  );
}

export async function createSandbox(
  settings: SandboxSettings,
  options: SandboxOptions,
): Promise<Sandbox> {
  refuseStateInWorkspace(options.workspace);
  const stateDir = mkdtempSync(join(tmpdir(), "pitcrew-sandbox-"));
  try {
    const policy = resolvePolicy(settings, {
      workspace: options.workspace,
      env: options.env,
      stateDir,
    });
    let probe: ProbeResult | null = null;
    let wrap: (request: CommandRequest) => Prepared;

    if (policy.backend === "bwrap") {
      probe = await probeBwrap({
        allowSetup: options.allowSetup,
        log: (message) => options.log?.info(message),
      });
      const bwrapPath = probe.bwrapPath;
      const arch = hostSeccompArch();
      const seccomp = arch ? seccompFilter(arch) : undefined;
      const listSockets = options.hostSockets ?? hostSocketPaths;
      wrap = (request) => {
        const maskedSockets = socketMasks(policy, listSockets());
        return {
          argv: [
            "prlimit",
            ...limitArgs(policy),
            "--",
            bwrapPath,
            ...bwrapArgs(policy, {
              argv: request.argv,
              cwd: request.cwd,
              seccompFd: seccomp ? 3 : undefined,
              maskedSockets,
            }),
          ],
          seccomp,
          maskedSockets,
          killGroup: false,
          env: BWRAP_ENV,
        };
      };
    } else if (policy.backend === "seatbelt") {
      const tmp = join(stateDir, "tmp");
      mkdirSync(tmp, { mode: 0o700 });
      const program = seatbeltProfile(policy, tmp);
      const fileBlocks = Math.floor(policy.limits.fileSizeBytes / 1024);
      wrap = (request) => ({
        argv: [
          "/bin/sh",
          "-c",
          `ulimit -u ${policy.limits.processes} && ulimit -f ${fileBlocks} && exec "$@"`,
          "sh",
          ...seatbeltArgv(program, request.argv),
        ],
        killGroup: true,
        env: policy.env,
      });
    } else {
      options.log?.warning(
        "sandbox: none — commands run WITHOUT a sandbox: they can read every file this user can, reach the network and write anywhere. Only the environment is cleaned. Use this only where the runner itself is disposable and holds nothing secret.",
      );
      wrap = (request) => ({
        argv: ["prlimit", ...limitArgs(policy), "--", ...request.argv],
        killGroup: true,
        env: policy.env,
      });
    }

    let spilledBytes = 0;
    return {
      backend: policy.backend,
      policy,
      probe,
      prepare: wrap,
      async run(request) {
        verifyProtected(policy);
        const spawn = (prepared: Prepared): Promise<RunResult> =>
          runContained({
            argv: prepared.argv,
            env: prepared.env,
            cwd: policy.backend === "bwrap" ? undefined : (request.cwd ?? policy.workspace),
            stdin: request.stdin,
            inheritStdio: request.inheritStdio,
            fd3Data: prepared.seccomp,
            timeoutMs: request.timeoutMs ?? policy.timeoutMs,
            outputBytes: policy.limits.outputBytes,
            signal: request.signal,
            killGroup: prepared.killGroup,
            diskReserve: { path: policy.workspace, freeBytes: policy.limits.diskReserveBytes },
          });
        const prepared = wrap(request);
        let result = await spawn(prepared);
        // A host socket removed between the scan and bwrap's mounts leaves bwrap nowhere to put
        // its cover on the read-only root: the command never started, so it runs once more
        // with a fresh scan.
        if (lostMaskRace(result, prepared.maskedSockets ?? [])) result = await spawn(wrap(request));
        if (!result.diskReserveReached) return result;
        const notice = diskReserveNotice(policy.limits.diskReserveBytes);
        if (request.inheritStdio) process.stderr.write(notice);
        return { ...result, stderr: { ...result.stderr, text: result.stderr.text + notice } };
      },
      spill(name, text) {
        const fail = (reason: string, cause?: unknown): PitcrewError =>
          new PitcrewError("sandbox-spill-failed", `No spill file was written: ${reason}.`, {
            cause,
          });
        if (policy.spill === null) throw fail("this sandbox has no spill folder");
        const bytes = Buffer.byteLength(text);
        if (spilledBytes + bytes > SPILL_MAX_BYTES) {
          throw fail(`this run's saved outputs would pass ${SPILL_MAX_BYTES} bytes`);
        }
        let file: string;
        try {
          file = writeSpillFile(policy.spill.source, name, text);
        } catch (error) {
          throw fail(error instanceof Error ? error.message : String(error), error);
        }
        spilledBytes += bytes;
        return join(policy.spill.target, file);
      },
      dispose() {
        // The spill files go with the state folder: they last exactly as long as the session.
        rmSync(stateDir, { recursive: true, force: true });
        for (const dir of [...policy.createdDirs].reverse()) {
          try {
            rmdirSync(dir);
          } catch {
            // no longer empty: it is the user's now
          }
        }
      },
    };
  } catch (error) {
    rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
}
