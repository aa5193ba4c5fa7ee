/**
 * A scratch copy of a GitHub-hosted runner for the escape battery (docs: escape-battery.md): a
 * fake `$HOME` with credentials in it, `$RUNNER_TEMP` with step scripts and a checkout token, a
 * project with a real git repository, listeners on the host's loopback, abstract and filesystem
 * unix sockets, a host `/dev/shm` file, fake secrets in this process's environment and a decoy
 * "Runner.Worker" holding secrets in its environment and command line. The test process plays
 * the harness. Nothing here judges an outcome; the tests do.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import assert from "node:assert/strict";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, afterEach, before } from "node:test";
import { promisify } from "node:util";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import type { SandboxSettings } from "../../src/sandbox/policy.ts";
import type { RunResult } from "../../src/sandbox/runner.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";

const execFileAsync = promisify(execFile);

/** A host-side service the sandbox must not reach. It greets every client with `greeting`. */
export interface Listener {
  /** TCP port, abstract name (without the leading NUL) or socket path. */
  address: string;
  greeting: string;
  /** Clients accepted so far. */
  connections: number;
}

export interface RunnerLayout {
  /** The scratch root under /var/tmp (visible read-only inside the sandbox). */
  root: string;
  home: string;
  runnerTemp: string;
  /** The runner's install folder (`~/runners/<version>`), holding `.credentials`. */
  runnerDir: string;
  /** The checkout: `$HOME/work/proj/proj`. */
  project: string;
  /** An empty folder outside home and project: a place the agent must never create files in. */
  outside: string;
  /** Attack scripts the tests run inside the sandbox, kept outside the project. */
  tools: { tiocsti: string; syscalls: string; nestedUserns: string };
  files: {
    sshKey: string;
    dockerConfig: string;
    bashrc: string;
    runnerCredentials: string;
    setEnv: string;
    stepScript: string;
    gitCredentials: string;
    gitConfig: string;
    workflow: string;
    victim: string;
    shm: string;
  };
  /** Every fake secret value contains this; no sandbox output may. */
  marker: string;
  /** The fake secrets, also set in this process's environment while the layout lives. */
  secrets: Record<string, string>;
  /** The base64 token actions/checkout writes into `extraheader`. */
  gitToken: string;
  /** The harness environment to hand to `createSandbox`. */
  env: Record<string, string>;
  tcp: Listener;
  abstract: Listener;
  unix: Listener;
  /** A long-running host process with the secrets in its environment and a token in argv. */
  decoy: { pid: number; cmdlineToken: string };
  /** Paths of host files whose content changed since the layout was built. */
  changedFiles(): string[];
  /** Whether the decoy and the three listeners still run. */
  hostAlive(): boolean;
  dispose(): Promise<void>;
}

/** PATH for the sandboxed commands: this Node first, then the system folders. */
export const SANDBOX_PATH = `${dirname(process.execPath)}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;

/** A token-ish random string ([A-Z0-9]). */
export function randomTag(length = 12): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let tag = "";
  for (let i = 0; i < length; i++) tag += alphabet[Math.floor(Math.random() * alphabet.length)];
  return tag;
}

/** A number no other process on the host has in its command line (for `sleep N`). */
export function uniqueSeconds(base: number): string {
  return `${base}.${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
}

function write(path: string, text: string, mode = 0o644): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
  return path;
}

function listen(server: Server, address: string | number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    if (typeof address === "number") server.listen(address, "127.0.0.1", () => resolve());
    else server.listen(address, () => resolve());
  });
}

async function startListener(
  kind: string,
  address: string | number,
): Promise<{ listener: Listener; server: Server }> {
  const greeting = `HOST-LISTENER-REACHED ${kind}`;
  const listener: Listener = { address: String(address), greeting, connections: 0 };
  const server = createServer((socket) => {
    listener.connections++;
    socket.on("error", () => undefined);
    // Drain what the client sends, or the socket never sees its end and close() waits forever.
    socket.resume();
    socket.end(`${greeting}\n`);
  });
  await listen(server, address);
  const bound = server.address();
  if (typeof address === "number" && bound && typeof bound === "object") {
    listener.address = String(bound.port);
  }
  return { listener, server };
}

/** Git on the host as a careful harness runs it (no hooks, no fsmonitor, no system config). */
export function hostGit(layout: RunnerLayout, args: readonly string[], careful = true): string {
  const flags = careful ? ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"] : [];
  return execFileSync("git", [...flags, ...args], {
    cwd: layout.project,
    encoding: "utf8",
    env: { PATH: SANDBOX_PATH, HOME: layout.home, GIT_CONFIG_NOSYSTEM: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function gitInit(project: string, home: string): void {
  const env = { PATH: SANDBOX_PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
  const git = (...args: string[]): void => {
    execFileSync("git", args, { cwd: project, env, stdio: "ignore" });
  };
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=ci", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "initial");
}

/** Python that calls raw syscalls through ctypes and prints `name result error`. */
const SYSCALLS_PY = `
import ctypes, os, platform
nr = {"x86_64": (101, 425, 250, 321), "aarch64": (117, 425, 219, 280)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
def call(name, number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(number, *args)
    print(name, result, os.strerror(ctypes.get_errno()) if result == -1 else "ok")
call("ptrace", nr[0], 0, 0, 0, 0)           # PTRACE_TRACEME
call("io_uring_setup", nr[1], 1, buf)
call("keyctl", nr[2], 0, -3, 1)             # KEYCTL_GET_KEYRING_ID, session keyring
call("bpf", nr[3], 0, buf, 72)              # BPF_MAP_CREATE
`;

/** Injects `echo INJECTED` + newline into the terminal on stdin, one TIOCSTI per byte. */
const TIOCSTI_PY = `
import fcntl, termios
try:
    for byte in b"echo INJECTED\\n":
        fcntl.ioctl(0, termios.TIOCSTI, bytes([byte]))
    print("TIOCSTI-INJECTED")
except OSError as error:
    print("TIOCSTI-BLOCKED", error)
`;

/**
 * In one process (no exec, so the capabilities stay): a new user and mount namespace, then the
 * attempts to make `.git` writable. Prints `step result` lines.
 */
const NESTED_USERNS_PY = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER, CLONE_NEWNS, MS_REMOUNT, MS_BIND = 0x10000000, 0x00020000, 32, 4096
def check(step, result):
    print(step, "ok" if result == 0 else os.strerror(ctypes.get_errno()))
check("unshare", libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))
print([line for line in open("/proc/self/status") if line.startswith("CapEff")][0].strip())
check("remount-rw", libc.mount(None, b".git", None, MS_REMOUNT | MS_BIND, None))
check("umount", libc.umount2(b".git", 0))
try:
    open(".git/x-nested", "w")
    print("write ok")
except OSError as error:
    print("write", error.strerror)
`;

export async function buildRunnerLayout(): Promise<RunnerLayout> {
  const root = realpathSync(mkdtempSync("/var/tmp/pitcrew-escape-"));
  const marker = `PCX${randomTag()}`;
  const home = join(root, "home", "runner");
  const runnerTemp = join(home, "work", "_temp");
  const runnerDir = join(home, "runners", "2.330.0");
  const project = join(home, "work", "proj", "proj");
  const outside = join(root, "outside");
  mkdirSync(outside, { recursive: true });
  const tools = {
    tiocsti: write(join(root, "tools", "tiocsti.py"), TIOCSTI_PY),
    syscalls: write(join(root, "tools", "syscalls.py"), SYSCALLS_PY),
    nestedUserns: write(join(root, "tools", "nested-userns.py"), NESTED_USERNS_PY),
  };

  const gitToken = Buffer.from(`x-access-token:ghs_FAKEGIT${marker}`).toString("base64");
  const credentialsName = `git-credentials-${randomTag(8).toLowerCase()}.config`;
  const files = {
    sshKey: write(
      join(home, ".ssh", "id_rsa"),
      `-----BEGIN OPENSSH PRIVATE KEY-----\nFAKEKEY${marker}\n-----END OPENSSH PRIVATE KEY-----\n`,
      0o600,
    ),
    dockerConfig: write(
      join(home, ".docker", "config.json"),
      `{"auths":{"ghcr.io":{"auth":"FAKEDOCKER${marker}"}}}\n`,
      0o600,
    ),
    bashrc: write(join(home, ".bashrc"), "# original bashrc\n"),
    runnerCredentials: write(
      join(runnerDir, ".credentials"),
      `{"scheme":"OAuth","data":{"clientId":"FAKERUNNER${marker}"}}\n`,
      0o600,
    ),
    setEnv: write(
      join(runnerTemp, "_runner_file_commands", `set_env_${randomTag(8).toLowerCase()}`),
      "",
    ),
    stepScript: write(
      join(runnerTemp, `${randomTag(8).toLowerCase()}.sh`),
      `curl -H "Authorization: Bearer FAKESTEP${marker}" https://api.example.com\n`,
      0o700,
    ),
    gitCredentials: write(
      join(runnerTemp, credentialsName),
      `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${gitToken}\n`,
      0o600,
    ),
    gitConfig: join(project, ".git", "config"),
    workflow: write(
      join(project, ".github", "workflows", "ci.yml"),
      "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n",
    ),
    victim: write(join(root, "victim.txt"), "original victim\n"),
    shm: write(join("/dev/shm", `pitcrew-escape-${randomTag(8).toLowerCase()}`), `SHM${marker}\n`),
  };
  write(join(project, "src", "app.py"), 'print("APP-RAN")\n');
  write(join(project, "README.md"), "# proj\n");
  gitInit(project, home);
  const config = readFileSync(files.gitConfig, "utf8");
  writeFileSync(
    files.gitConfig,
    `${config}[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${gitToken}\n` +
      `[includeIf "gitdir:${project}/.git"]\n\tpath = ${files.gitCredentials}\n`,
  );

  const secrets: Record<string, string> = {
    OPENAI_API_KEY: `sk-proj-FAKE${marker}`,
    GITHUB_TOKEN: `ghs_FAKE${marker}`,
    "INPUT_API-KEY": `FAKEINPUT${marker}`,
    ACTIONS_RUNTIME_TOKEN: `FAKERUNTIME${marker}`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: `FAKEOIDC${marker}`,
  };
  const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
  Object.assign(process.env, secrets);

  const socketDir = mkdtempSync(join(tmpdir(), "pitcrew-escape-"));
  const started = await Promise.all([
    startListener("tcp", 0),
    startListener("abstract", `\0pitcrew-escape-${randomTag(8).toLowerCase()}`),
    startListener("unix", join(socketDir, "docker.sock")),
  ]);
  const [tcp, abstract, unix] = started.map(({ listener }) => listener) as [
    Listener,
    Listener,
    Listener,
  ];
  abstract.address = abstract.address.slice(1);
  const servers = started.map(({ server }) => server);

  const cmdlineToken = `ghs_FAKECMDLINE${marker}`;
  const decoy: ChildProcess = spawn("bash", ["-c", `exec -a ${cmdlineToken} sleep 3600`], {
    env: { PATH: SANDBOX_PATH, ...secrets },
    stdio: "ignore",
  });
  decoy.unref();
  if (decoy.pid === undefined) throw new Error("runner-layout: the decoy did not start");
  const decoyPid = decoy.pid;

  const env: Record<string, string> = {
    HOME: home,
    RUNNER_TEMP: runnerTemp,
    PATH: SANDBOX_PATH,
    LANG: "C.UTF-8",
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: project,
    GITHUB_ENV: files.setEnv,
    ...secrets,
  };

  const watched = [
    files.bashrc,
    files.setEnv,
    files.stepScript,
    files.gitCredentials,
    files.gitConfig,
    files.workflow,
    files.victim,
    files.sshKey,
  ];
  const originals = new Map(watched.map((path) => [path, readFileSync(path, "utf8")]));

  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  return {
    root,
    home,
    runnerTemp,
    runnerDir,
    project,
    outside,
    tools,
    files,
    marker,
    secrets,
    gitToken,
    env,
    tcp,
    abstract,
    unix,
    decoy: { pid: decoyPid, cmdlineToken },
    changedFiles: () =>
      [...originals]
        .filter(([path, text]) => {
          try {
            return readFileSync(path, "utf8") !== text;
          } catch {
            return true;
          }
        })
        .map(([path]) => path),
    hostAlive: () => alive(decoyPid) && servers.every((server) => server.listening),
    async dispose() {
      if (alive(decoyPid)) process.kill(decoyPid, "SIGKILL");
      await Promise.all(
        servers.map((server) => new Promise((resolve) => server.close(() => resolve(null)))),
      );
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(files.shm, { force: true });
      rmSync(socketDir, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs a bash script in the sandbox (no rc files), the way the agent's bash tool does. */
export function bash(
  sandbox: Sandbox,
  script: string,
  options: { timeoutMs?: number; stdin?: string } = {},
): Promise<RunResult> {
  return sandbox.run({ argv: ["bash", "--noprofile", "--norc", "-c", script], ...options });
}

/** Host processes whose command line contains `needle` (read from the host's /proc). */
export function hostProcesses(needle: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(needle)) found.push({ pid: Number(name), cmdline });
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** Waits until no host process matches `needle`, up to `ms`; returns the survivors. */
export async function survivors(needle: string, ms = 1500): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = hostProcesses(needle).filter(({ pid }) => pid !== process.pid);
    if (left.length === 0 || Date.now() > deadline) return left.map(({ cmdline }) => cmdline);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs a host command asynchronously (the listeners live on this event loop). */
export async function hostRun(
  argv: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error("hostRun: empty argv");
  try {
    const { stdout, stderr } = await execFileAsync(program, args, {
      env: options.env,
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 30_000,
      encoding: "utf8",
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? String(error),
    };
  }
}

/** True when something (a file, a folder, a dangling link) is at `path`. */
export function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A bwrap sandbox over the layout's project with the harness environment, never installing anything. */
export function openSandbox(
  layout: RunnerLayout,
  overrides: Partial<SandboxSettings> = {},
): Promise<Sandbox> {
  return createSandbox(
    { ...DEFAULT_SETTINGS, backend: "bwrap", timeoutMs: 20_000, ...overrides },
    { workspace: layout.project, env: layout.env, allowSetup: false },
  );
}

/** Fails when a command's output carries any fake secret of the layout. */
export function assertNoSecrets(layout: RunnerLayout, result: RunResult): void {
  const output = result.stdout.text + result.stderr.text;
  assert.ok(!output.includes(layout.marker), `a fake secret leaked:\n${output}`);
  assert.ok(!output.includes(layout.gitToken), `the checkout token leaked:\n${output}`);
}

/**
 * Registers the hooks every battery suite needs: a fresh runner layout and sandbox before, their
 * removal after, and after each test the check that the host is unchanged (preceded by the
 * test's own clean-up steps pushed onto `undo`). Read `layout` and `sandbox` inside tests.
 */
export function useRunnerLayout(): {
  readonly layout: RunnerLayout;
  readonly sandbox: Sandbox;
  undo: (() => void | Promise<void>)[];
} {
  let layout: RunnerLayout | undefined;
  let sandbox: Sandbox | undefined;
  const undo: (() => void | Promise<void>)[] = [];
  before(async () => {
    layout = await buildRunnerLayout();
    sandbox = await openSandbox(layout);
  });
  after(async () => {
    sandbox?.dispose();
    await layout?.dispose();
  });
  afterEach(async () => {
    for (let step = undo.pop(); step; step = undo.pop()) await step();
    assert.deepEqual(layout?.changedFiles(), [], "host files changed (a test must clean up)");
    assert.ok(layout?.hostAlive(), "a host process or listener died");
  });
  return {
    get layout() {
      if (!layout) throw new Error("the runner layout is built in before()");
      return layout;
    },
    get sandbox() {
      if (!sandbox) throw new Error("the sandbox is opened in before()");
      return sandbox;
    },
    undo,
  };
}
