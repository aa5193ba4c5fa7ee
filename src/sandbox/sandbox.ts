/**
 * The one entry point the rest of pitcrew uses: `createSandbox` resolves the policy, probes the
 * backend (failing closed), and returns a `Sandbox` whose `run` executes one command under that
 * policy. Backends differ only in how they wrap the command line.
 */
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap.ts";
import type { BackendName, Policy, SandboxSettings } from "./policy.ts";
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
  /** bwrap's seccomp filter file, opened fresh per spawn (bwrap reads the descriptor to its end). */
  seccompFile?: string;
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
  /** Removes the session's private files (sanitised configs, the seccomp filter). */
  dispose(): void;
}

export interface SandboxOptions {
  workspace: string;
  env?: Readonly<Record<string, string | undefined>>;
  log?: { info(message: string): void; warning(message: string): void };
  /** Let the probe use sudo to install bwrap and relax AppArmor (default: yes). */
  allowSetup?: boolean;
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

export async function createSandbox(
  settings: SandboxSettings,
  options: SandboxOptions,
): Promise<Sandbox> {
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
      const seccompFile = arch ? join(stateDir, "seccomp.bpf") : undefined;
      if (arch && seccompFile) writeFileSync(seccompFile, seccompFilter(arch), { mode: 0o600 });
      wrap = (request) => ({
        argv: [
          "prlimit",
          ...limitArgs(policy),
          "--",
          bwrapPath,
          ...bwrapArgs(policy, {
            argv: request.argv,
            cwd: request.cwd,
            seccompFd: seccompFile ? 3 : undefined,
          }),
        ],
        seccompFile,
        killGroup: false,
        env: BWRAP_ENV,
      });
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

    return {
      backend: policy.backend,
      policy,
      probe,
      prepare: wrap,
      async run(request) {
        verifyProtected(policy);
        const prepared = wrap(request);
        const fd3 = prepared.seccompFile ? openSync(prepared.seccompFile, "r") : undefined;
        try {
          return await runContained({
            argv: prepared.argv,
            env: prepared.env,
            cwd: policy.backend === "bwrap" ? undefined : (request.cwd ?? policy.workspace),
            stdin: request.stdin,
            inheritStdio: request.inheritStdio,
            fd3,
            timeoutMs: request.timeoutMs ?? policy.timeoutMs,
            outputBytes: policy.limits.outputBytes,
            signal: request.signal,
            killGroup: prepared.killGroup,
          });
        } finally {
          if (fd3 !== undefined) closeSync(fd3);
        }
      },
      dispose() {
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
