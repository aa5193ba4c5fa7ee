/**
 * The escape battery, part 5 (issue 10, T50–T59): what a command could reach on the host beyond
 * the network namespace and the harness's own files. Host unix sockets are listed by the kernel
 * and covered before each command, wherever they lie and whichever namespace bound them; the
 * command's own sockets keep working. The seccomp filter is handed over a fresh pipe, never
 * re-read from a file a command could rewrite, and the state folder never lies in the workspace.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { freeBytes, runContained } from "../../src/sandbox/runner.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { hostSeccompArch, seccompFilter } from "../../src/sandbox/seccomp.ts";
import { needsBwrap } from "../support/bwrap.ts";
import {
  SANDBOX_PATH,
  bash,
  openSandbox,
  randomTag,
  useRunnerLayout,
} from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

/** A host listener on a unix socket that counts the clients it accepted. */
interface HostSocket {
  path: string;
  accepted(): number;
  close(): Promise<void>;
}

async function listenUnix(path: string): Promise<HostSocket> {
  mkdirSync(dirname(path), { recursive: true });
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.on("error", () => undefined);
    socket.resume();
    socket.end("HOST-SOCKET-REACHED\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  return {
    path,
    accepted: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Python run inside: connects to each path in argv, prints `path CONNECTED` or `path REFUSED errno`. */
const CONNECT_PY = `
import socket, sys
for path in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(3)
    try:
        s.connect(path)
        print(path, "CONNECTED", s.recv(100).decode().strip())
    except OSError as e:
        print(path, "REFUSED", e.errno)
`;

/** A server in another network namespace (as a container or a PrivateNetwork service runs). */
const SERVE_PY = `
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(8)
print("LISTENING", flush=True)
while True:
    c, _ = s.accept()
    open(sys.argv[2], "a").write("accepted\\n")
    c.sendall(b"HOST-SOCKET-REACHED\\n"); c.close()
`;

function connectScript(root: string): string {
  const file = join(root, "tools", "connect.py");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, CONNECT_PY);
  return file;
}

/** `path` lines of the connect script's output, by verdict. */
function verdicts(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const match = /^(\S+) (CONNECTED|REFUSED)/.exec(line);
    if (match?.[1] && match[2]) found.set(match[1], match[2]);
  }
  return found;
}

/**
 * Folders outside /run, /tmp and $HOME where host services keep sockets. Root can make a folder
 * in each; an unprivileged user only in the world-writable ones, so the list is what exists.
 */
function socketFolders(tag: string): string[] {
  const candidates = ["/var/tmp", "/var/lib", "/srv", "/opt", "/mnt", "/media", "/var/cache"];
  const made: string[] = [];
  for (const parent of candidates) {
    const folder = join(parent, `pitcrew-escape-${tag}`);
    try {
      mkdirSync(folder);
      made.push(folder);
    } catch {
      // not ours to write (an unprivileged user), or no such folder on this host
    }
  }
  return made;
}

describe("escape battery: host unix sockets (T50–T54)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  let connect: string;
  const tag = randomTag(8).toLowerCase();
  const folders: string[] = [];
  const sockets: HostSocket[] = [];
  before(async () => {
    layout = battery.layout;
    // A cache bound back into the hidden home, as toolchains are: it must exist at session start.
    mkdirSync(join(layout.home, ".cache", "pip"), { recursive: true });
    sandbox = await openSandbox(layout);
    connect = connectScript(layout.root);
    folders.push(...socketFolders(tag));
  });
  after(async () => {
    sandbox?.dispose();
    await Promise.all(sockets.map((socket) => socket.close()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  async function listen(path: string): Promise<HostSocket> {
    const socket = await listenUnix(path);
    sockets.push(socket);
    return socket;
  }

  test("T50 host listeners outside /run, /tmp and $HOME (and in them) get no connection", async () => {
    assert.ok(folders.includes(`/var/tmp/pitcrew-escape-${tag}`), "no socket folder was made");
    const listeners = await Promise.all([
      ...folders.map((folder) => listen(join(folder, "svc.sock"))),
      listen(join(layout.project, "host.sock")),
      listen(join(layout.home, ".cache", "pip", "cache.sock")),
      listen(join(layout.home, "home.sock")),
      listen(join(mkdtempSync(join(tmpdir(), "pitcrew-escape-")), "tmp.sock")),
    ]);
    const paths = listeners.map(({ path }) => path);
    const result = await bash(sandbox, `python3 ${connect} ${paths.join(" ")}`);
    const seen = verdicts(result.stdout.text);
    assert.equal(seen.size, paths.length, result.stdout.text + result.stderr.text);
    for (const listener of listeners) {
      assert.equal(seen.get(listener.path), "REFUSED", listener.path);
      assert.equal(listener.accepted(), 0, `${listener.path} accepted a client`);
    }
    // Control: the same sockets are reachable when the masks are left out of the very same argv.
    const prepared = sandbox.prepare({ argv: ["python3", connect, ...paths] });
    const unmasked: string[] = [];
    for (let at = 0; at < prepared.argv.length; at++) {
      if (prepared.argv[at] === "--ro-bind" && prepared.argv[at + 1] === "/dev/null") at += 2;
      else unmasked.push(prepared.argv[at] ?? "");
    }
    const control = await runContained({
      argv: unmasked,
      env: prepared.env,
      fd3Data: prepared.seccomp,
      timeoutMs: 20_000,
      outputBytes: 1 << 20,
    });
    const reached = verdicts(control.stdout.text);
    for (const folder of folders) {
      assert.equal(reached.get(join(folder, "svc.sock")), "CONNECTED", control.stderr.text);
    }
    assert.equal(reached.get(join(layout.project, "host.sock")), "CONNECTED");
  });

  test("T51 a socket bound on the host after the session began is covered at the next command", async () => {
    const warm = await bash(sandbox, "true");
    assert.equal(warm.exitCode, 0, warm.stderr.text);
    const late = await listen(join(`/var/tmp/pitcrew-escape-${tag}`, "late", "late.sock"));
    const result = await bash(sandbox, `python3 ${connect} ${late.path}`);
    assert.equal(verdicts(result.stdout.text).get(late.path), "REFUSED", result.stdout.text);
    assert.equal(late.accepted(), 0);
  });

  test("T52 no way round the cover: symlinks, a hard link, /proc/*/root, another name for the folder", async () => {
    const target = await listen(join(`/var/tmp/pitcrew-escape-${tag}`, "linked", "x.sock"));
    const folder = dirname(target.path);
    battery.undo.push(() => {
      for (const name of ["to-socket.sock", "to-folder", "hard.sock"]) {
        rmSync(join(layout.project, name), { recursive: true, force: true });
      }
    });
    const result = await bash(
      sandbox,
      `ln -s ${target.path} to-socket.sock; ln -s ${folder} to-folder
ln ${target.path} hard.sock 2>&1 | sed 's/^/ln: /'
python3 ${connect} to-socket.sock to-folder/x.sock /proc/1/root${target.path} /proc/self/root${target.path} /var/tmp/../tmp/pitcrew-escape-${tag}/linked/x.sock`,
    );
    const seen = verdicts(result.stdout.text);
    assert.equal(seen.size, 5, result.stdout.text + result.stderr.text);
    for (const [path, verdict] of seen) assert.equal(verdict, "REFUSED", path);
    assert.match(result.stdout.text, /^ln: .*(Invalid cross-device link|Read-only file system)/m);
    assert.equal(target.accepted(), 0);
  });

  test("T53 a listener in another network namespace (a container, a PrivateNetwork service)", async (t) => {
    const folder = join(`/var/tmp/pitcrew-escape-${tag}`, "netns");
    mkdirSync(folder, { recursive: true });
    const path = join(folder, "ns.sock");
    const log = join(folder, "accepted.log");
    writeFileSync(join(folder, "serve.py"), SERVE_PY);
    const netns = spawn(
      "bwrap",
      [
        "--unshare-user",
        "--unshare-net",
        "--die-with-parent",
        "--bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--",
        "python3",
        join(folder, "serve.py"),
        path,
        log,
      ],
      { stdio: ["ignore", "pipe", "inherit"], env: { PATH: SANDBOX_PATH } },
    );
    t.after(() => void netns.kill("SIGKILL"));
    await new Promise<void>((resolve, reject) => {
      netns.stdout?.once("data", () => resolve());
      netns.once("exit", (code) => reject(new Error(`the netns server ended (${code})`)));
    });
    assert.ok(
      !readFileSync("/proc/self/net/unix", "utf8").includes(path),
      "the listener is not in the harness's own network namespace",
    );
    const result = await bash(sandbox, `python3 ${connect} ${path}`);
    assert.equal(verdicts(result.stdout.text).get(path), "REFUSED", result.stdout.text);
    assert.ok(!existsSync(log), "the server accepted a client");
  });

  test("T54 the command's own unix sockets still work: a server in the workspace and in /tmp, socketpair", async () => {
    battery.undo.push(() => rmSync(join(layout.project, "own.sock"), { force: true }));
    const result = await bash(
      sandbox,
      `python3 -c '
import os, socket
for path in ("own.sock", "/tmp/own.sock"):
    server = socket.socket(socket.AF_UNIX); server.bind(path); server.listen(1)
    client = socket.socket(socket.AF_UNIX); client.connect(path)
    peer, _ = server.accept(); peer.sendall(b"hello"); print(path, client.recv(5).decode())
a, b = socket.socketpair(); a.sendall(b"pair"); print("socketpair", b.recv(4).decode())
'`,
    );
    assert.equal(
      result.stdout.text,
      "own.sock hello\n/tmp/own.sock hello\nsocketpair pair\n",
      result.stderr.text,
    );
  });
});

/** A classic-BPF program of one instruction, `RET SECCOMP_RET_ALLOW`, as printf escapes. */
const ALLOW_ALL = String.raw`\x06\x00\x00\x00\x00\x00\xff\x7f`;

const PTRACE_DENIED = /^ptrace -1 Operation not permitted$/m;

describe("escape battery: the harness's own files (T56–T57)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  before(() => ({ layout, sandbox } = battery));

  test("T56 a filter rewritten where the file used to be does not reach the next command", async () => {
    // Where the filter file lived: the session's state folder. Plant a link from there into the
    // workspace, as a TMPDIR inside the checkout once made it, and let a command write through it.
    const stateDir = dirname(sandbox.policy.spill?.source ?? "");
    const planted = join(layout.project, "filter.bpf");
    writeFileSync(planted, seccompFilter(hostSeccompArch() ?? "x64"));
    rmSync(join(stateDir, "seccomp.bpf"), { force: true });
    symlinkSync(planted, join(stateDir, "seccomp.bpf"));
    battery.undo.push(() => {
      rmSync(join(stateDir, "seccomp.bpf"), { force: true });
      rmSync(planted, { force: true });
    });
    const rewrite = await bash(sandbox, `printf '${ALLOW_ALL}' > filter.bpf && echo rewritten`);
    assert.equal(rewrite.stdout.text, "rewritten\n", rewrite.stderr.text);
    const next = await bash(sandbox, `python3 ${layout.tools.syscalls}`);
    assert.match(next.stdout.text, PTRACE_DENIED, next.stderr.text);
    assert.match(next.stdout.text, /^keyctl -1 Operation not permitted$/m);
  });

  test("T57 a state folder inside the workspace (TMPDIR in the checkout) is refused by name", async () => {
    const saved = process.env.TMPDIR;
    const inside = join(layout.project, "tmp");
    mkdirSync(inside);
    process.env.TMPDIR = inside;
    try {
      await assert.rejects(
        createSandbox(
          { ...DEFAULT_SETTINGS, backend: "bwrap" },
          { workspace: layout.project, env: layout.env, allowSetup: false },
        ),
        (error: unknown) =>
          error instanceof PitcrewError &&
          error.code === "sandbox-state-inside-workspace" &&
          error.message.includes(inside) &&
          /TMPDIR/.test(error.message),
      );
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(inside, { recursive: true, force: true });
    }
  });
});

describe("escape battery: the disk reserve (T58–T59)", needsBwrap(), () => {
  let root: string;
  let workspace: string;
  /** As root the workspace is a small tmpfs of its own, so the disk can really be filled. */
  let mounted = false;
  const MiB = 1024 * 1024;
  before(() => {
    root = realpathSync(mkdtempSync("/var/tmp/pitcrew-escape-disk-"));
    workspace = join(root, "ws");
    mkdirSync(workspace);
    mkdirSync(join(root, "home"));
    if (process.getuid?.() === 0) {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=512m", "tmpfs", workspace]);
      mounted = true;
    }
  });
  after(() => {
    if (mounted) execFileSync("umount", [workspace]);
    rmSync(root, { recursive: true, force: true });
  });

  function open(diskReserveBytes: number): Promise<Sandbox> {
    return createSandbox(
      {
        ...DEFAULT_SETTINGS,
        backend: "bwrap",
        homeReadOnly: [],
        timeoutMs: 60_000,
        limits: { ...DEFAULT_SETTINGS.limits, diskReserveBytes },
      },
      { workspace, env: { HOME: join(root, "home"), PATH: SANDBOX_PATH }, allowSetup: false },
    );
  }

  /** A writer that would fill any disk this test uses on its own: 1 GiB. */
  const FILL = `head -c 1G /dev/zero > big; echo "finished=$?"`;

  test("T58 a command that writes past the reserve is killed with disk-reserve-reached", async (t) => {
    const free = freeBytes(workspace) ?? 0;
    // The reserve sits 64 MiB below what is free now: the writer crosses it early.
    const sandbox = await open(free - 64 * MiB);
    t.after(() => sandbox.dispose());
    const result = await bash(sandbox, FILL);
    assert.equal(result.diskReserveReached, true, result.stderr.text);
    assert.equal(result.signal, "SIGKILL");
    assert.doesNotMatch(result.stdout.text, /finished=/);
    assert.match(
      result.stderr.text,
      /\[disk-reserve-reached: .* MiB free.*delete what is not needed/,
    );
    assert.doesNotMatch(result.stderr.text, /No space left on device/);
    const left = freeBytes(workspace) ?? 0;
    assert.ok(left > 0 && left < free - 64 * MiB, `free: ${free} before, ${left} after`);

    // The next command still runs (below the reserve now) and can clean up.
    const next = await bash(sandbox, "rm big && echo cleaned");
    assert.equal(next.stdout.text, "cleaned\n", next.stderr.text);
    assert.equal(next.diskReserveReached, undefined);
    const small = await bash(sandbox, "head -c 8M /dev/zero > small && rm small && echo ok");
    assert.equal(small.stdout.text, "ok\n", small.stderr.text);
  });

  test("T59 control: without the reserve the same command fills the disk (root: a tmpfs of its own)", async (t) => {
    if (!mounted) return t.skip("filling a disk needs a filesystem of the test's own (root only)");
    const sandbox = await open(0);
    t.after(() => sandbox.dispose());
    const result = await bash(sandbox, FILL);
    assert.equal(result.diskReserveReached, undefined);
    assert.match(result.stdout.text, /finished=1/);
    assert.match(result.stderr.text, /No space left on device/);
    assert.equal(freeBytes(workspace), 0);
    rmSync(join(workspace, "big"));
  });
});
