/**
 * The escape battery, part 2 (escape-battery.md §A, T26–T42 and T43): mounts, privileges, the
 * terminal, kernel interfaces, processes, descriptors and resource limits, plus the attacks found
 * after the battery (T41 capabilities as root, T42 renaming the parent of a protected path, T43
 * sysctl writes as root). Every test runs the attack in pitcrew's real bwrap sandbox.
 */
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PitcrewError } from "../../src/errors.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import {
  assertNoSecrets,
  bash,
  hostProcesses,
  hostRun,
  openSandbox,
  present,
  survivors,
  uniqueSeconds,
  useRunnerLayout,
} from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const MiB = 1024 * 1024;
const isRoot = process.getuid?.() === 0;

/** Starts `argv` with a blocking stdin, reads its real and effective uid from /proc, kills it. */
const SETUID_PY = `
import subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.3)
uid = [line for line in open("/proc/%d/status" % p.pid) if line.startswith("Uid:")][0].split()
print("ruid=%s euid=%s" % (uid[1], uid[2]))
p.kill()
`;

describe("escape battery §A: kernel, processes, limits (T26–T43)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  before(() => ({ layout, sandbox } = battery));

  describe("mounts and privileges", () => {
    test("T26 the read-only mounts cannot be undone (umount, remount)", async () => {
      const result = await bash(
        sandbox,
        `umount .git; echo "umount=$?"
mount -o remount,rw,bind .git; echo "mount=$?"
touch .git/x-t26; echo "touch=$?"`,
      );
      assert.match(result.stdout.text, /^umount=(1|32)\nmount=(1|32)\ntouch=1\n$/);
      assert.match(result.stderr.text, /\.git\/x-t26': Read-only file system/);
      assert.ok(!present(join(layout.project, ".git", "x-t26")));
    });

    test("T27 a nested user namespace cannot be created", async () => {
      const result = await bash(
        sandbox,
        `unshare -Urm sh -c 'mount -o remount,rw,bind .git; touch .git/x-t27'; echo "unshare=$?"`,
      );
      assert.match(result.stdout.text, /unshare=1\n/);
      assert.match(result.stderr.text, /unshare failed: No space left on device/);
      assert.ok(!present(join(layout.project, ".git", "x-t27")));
    });

    test("T28 a setuid binary runs without privilege", async (t) => {
      // As root the stand-in is a copy of sleep owned by nobody (root cannot gain anything, but it
      // must not change uid either); otherwise the system's setuid-root passwd, which waits on stdin.
      let helper = ["/usr/bin/passwd"];
      if (isRoot) {
        const copy = join(layout.root, "tools", "setuid-sleep");
        copyFileSync("/usr/bin/sleep", copy);
        chownSync(copy, 65534, 65534);
        chmodSync(copy, 0o4755);
        helper = [copy, "5"];
      }
      const owner = statSync(helper[0] ?? "").uid;
      assert.ok((statSync(helper[0] ?? "").mode & 0o4000) !== 0, "the helper is setuid");
      const uid = process.getuid?.() ?? 0;

      const onHost = await hostRun(["python3", "-c", SETUID_PY, ...helper]);
      assert.equal(onHost.stdout, `ruid=${uid} euid=${owner}\n`, "outside, setuid works");

      const script = `python3 -c '${SETUID_PY}' ${helper.join(" ")}
grep -E '^(NoNewPrivs|CapEff|CapBnd):' /proc/self/status`;
      const result = await bash(sandbox, script);
      t.diagnostic(result.stdout.text.trim().replaceAll("\n", " | "));
      assert.match(result.stdout.text, new RegExp(`^ruid=${uid} euid=${uid}$`, "m"));
      assert.match(result.stdout.text, /^NoNewPrivs:\t1$/m);
      assert.match(result.stdout.text, /^CapEff:\t0000000000000000$/m);
      assert.match(result.stdout.text, /^CapBnd:\t0000000000000000$/m);
    });

    test("T41 no capabilities inside, even as root: the .git mount stays read-only", async () => {
      const result = await bash(
        sandbox,
        `grep CapEff /proc/self/status
mount -o remount,rw,bind .git && touch .git/x-t41; echo "rc=$?"`,
      );
      assert.match(result.stdout.text, /^CapEff:\t0000000000000000\nrc=(1|32)\n$/);
      assert.ok(!present(join(layout.project, ".git", "x-t41")));
    });

    test("T43 sysctls cannot be written, even as root (kernel.core_pattern runs as host root)", async () => {
      const before = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
      // Writes back the value it read: harmless even where the write would succeed.
      const result = await bash(
        sandbox,
        `cat /proc/sys/kernel/core_pattern > /tmp/cp && cat /tmp/cp > /proc/sys/kernel/core_pattern; echo "rc=$?"
echo pitcrew-t43 > /proc/sys/kernel/hostname; echo "hostname=$?"`,
      );
      assert.equal(result.stdout.text, "rc=1\nhostname=1\n");
      assert.match(result.stderr.text, /core_pattern: (Read-only file system|Permission denied)/);
      assert.equal(readFileSync("/proc/sys/kernel/core_pattern", "utf8"), before);
    });
  });

  describe("terminal, shared memory, kernel interfaces", () => {
    test("T29 TIOCSTI on a pseudo-terminal is refused (EPERM)", async () => {
      const result = await bash(
        sandbox,
        `python3 -c '
import fcntl, os, pty, termios
master, slave = pty.openpty()
for fd, name in ((slave, "slave"), (master, "master")):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"#")
        print(name, "TIOCSTI-INJECTED")
    except OSError as error:
        print(name, "TIOCSTI-BLOCKED", error)
'`,
      );
      assert.equal(
        result.stdout.text,
        "slave TIOCSTI-BLOCKED [Errno 1] Operation not permitted\n" +
          "master TIOCSTI-BLOCKED [Errno 1] Operation not permitted\n",
      );
    });

    test("T29 (real terminal) the CLI under script(1): nothing reaches the caller's terminal", async () => {
      const inner = `${process.execPath} ${CLI} sandbox --workspace ${layout.project} -- python3 ${layout.tools.tiocsti}; read -t 1 -r line; echo "AFTER[$line]"`;
      const result = await hostRun(["script", "-qec", inner, "/dev/null"], {
        env: { ...layout.env, SHELL: "/bin/bash", TERM: "xterm" },
      });
      assert.match(result.stdout, /TIOCSTI-BLOCKED \[Errno 1\] Operation not permitted/);
      assert.match(result.stdout, /AFTER\[\]/);
      assert.ok(!result.stdout.includes("AFTER[echo INJECTED]"));
    });

    test("T30 host /dev/shm is not visible", async () => {
      const result = await bash(
        sandbox,
        `cat ${layout.files.shm}; echo "cat=$?"; echo "shm:[$(ls -A /dev/shm)]"`,
      );
      assert.equal(result.stdout.text, "cat=1\nshm:[]\n");
      assert.match(result.stderr.text, /No such file or directory/);
      assertNoSecrets(layout, result);
    });

    test("T31 ptrace, io_uring, keyctl and bpf give EPERM", async () => {
      const result = await bash(sandbox, `python3 ${layout.tools.syscalls}`);
      assert.equal(
        result.stdout.text,
        [
          "ptrace -1 Operation not permitted",
          "io_uring_setup -1 Operation not permitted",
          "keyctl -1 Operation not permitted",
          "bpf -1 Operation not permitted",
          "",
        ].join("\n"),
      );
    });
  });

  describe("processes and descriptors", () => {
    test("T32 a daemon started with setsid/nohup dies with the command", async () => {
      const seconds = uniqueSeconds(321);
      const result = await bash(
        sandbox,
        // Waits for the daemon to be up (a loaded machine may take longer than a fixed pause).
        `setsid nohup sleep ${seconds} >/dev/null 2>&1 & disown; for i in $(seq 100); do pgrep -x sleep >/dev/null && break; sleep 0.05; done; pgrep -c sleep`,
      );
      assert.equal(result.stdout.text, "1\n", "the daemon ran");
      assert.deepEqual(await survivors(`sleep ${seconds}`), []);
    });

    test("T33 bwrap's own PID 1 holds no secrets in its environment", async () => {
      const result = await bash(
        sandbox,
        `tr '\\0' '\\n' < /proc/1/environ; echo ---; cat /proc/1/cmdline`,
      );
      assert.match(result.stdout.text, /^PATH=\/usr\/bin:\/bin\n---\n/);
      assertNoSecrets(layout, result);
    });

    test("T34 descriptors inherited by the harness do not reach the command", async () => {
      const wrapper = 'exec 7<"$1"; shift; exec "$@"';
      const outside = await hostRun([
        "bash",
        "-c",
        wrapper,
        "bash",
        layout.files.sshKey,
        "ls",
        "/proc/self/fd",
      ]);
      assert.match(outside.stdout, /^7$/m, "the wrapper really leaves fd 7 open on the key");

      const result = await hostRun(
        [
          "bash",
          "-c",
          wrapper,
          "bash",
          layout.files.sshKey,
          process.execPath,
          CLI,
          "sandbox",
          "--workspace",
          layout.project,
          "--",
          "bash",
          "-c",
          `echo "fds:$(ls /proc/self/fd | tr '\\n' ' ')"; ls -l /proc/self/fd
cat <&7; echo "fd7=$?"; cat <&3; echo "fd3=$?"`,
        ],
        { env: layout.env },
      );
      // 3 is the directory ls itself opened; the seccomp descriptor was consumed by bwrap.
      assert.match(result.stdout, /^fds:0 1 2 3 $/m);
      assert.match(result.stdout, /^fd7=1$/m);
      assert.match(result.stdout, /^fd3=1$/m);
      assert.ok(!/id_rsa|seccomp/.test(result.stdout), result.stdout);
      assert.ok(!result.stdout.includes(layout.marker));
    });

    test("T35 positive control: ordinary work still runs", async (t) => {
      t.after(() => rmSync(join(layout.project, "newfile.txt"), { force: true }));
      const gcc = existsSync("/usr/bin/gcc")
        ? `printf '#include <stdio.h>\\nint main(void){puts("GCC-OK");return 0;}\\n' > /tmp/h.c && gcc /tmp/h.c -o /tmp/h && /tmp/h &&`
        : "";
      const result = await bash(
        sandbox,
        `echo ok > newfile.txt && python3 src/app.py && node -e 'console.log("NODE-OK")' && ${gcc}
python3 -m venv --without-pip /tmp/venv && /tmp/venv/bin/python -c 'print("VENV-OK")' &&
git status --short && git diff --stat && git log --oneline | wc -l && echo WORKS`,
      );
      assert.equal(result.exitCode, 0, result.stderr.text);
      for (const word of ["APP-RAN", "NODE-OK", "VENV-OK", "?? newfile.txt", "WORKS"]) {
        assert.ok(result.stdout.text.includes(word), `${word} in:\n${result.stdout.text}`);
      }
      if (gcc) assert.ok(result.stdout.text.includes("GCC-OK"));
      assert.equal(readFileSync(join(layout.project, "newfile.txt"), "utf8"), "ok\n");
    });

    test("T36 a timeout kills the command and every orphan it started", async () => {
      const seconds = [uniqueSeconds(101), uniqueSeconds(102), uniqueSeconds(103)];
      const running = bash(
        sandbox,
        `sleep ${seconds[0]} & sleep ${seconds[1]} & (setsid sleep ${seconds[2]} &); wait`,
        { timeoutMs: 2000 },
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const seen = seconds.filter((s) => hostProcesses(`sleep ${s}`).length > 0);
      const result = await running;
      assert.deepEqual(seen, seconds, "all three sleeps were running on the host");
      assert.equal(result.timedOut, true);
      assert.equal(result.signal, "SIGKILL");
      assert.ok(result.durationMs >= 1900 && result.durationMs < 5000, `${result.durationMs} ms`);
      for (const s of seconds) assert.deepEqual(await survivors(`sleep ${s}`), [], s);
    });
  });

  describe("resource limits", () => {
    test("T37 a fork bomb stops at the process cap", async (t) => {
      const limited = await openSandbox(layout, {
        limits: { ...sandbox.policy.limits, processes: 200 },
      });
      t.after(() => limited.dispose());
      const result = await bash(
        limited,
        `grep 'Max processes' /proc/self/limits
python3 -c '
import os, time
n = 0
try:
    for _ in range(400):
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        n += 1
    print("FORKED", n)
except OSError as error:
    print("FORK-FAILED", n, error.errno)
'`,
      );
      const ceiling = limited.policy.processCeiling;
      assert.match(result.stdout.text, new RegExp(`Max processes +${ceiling} +${ceiling} `));
      if (isRoot) {
        // RLIMIT_NPROC is not enforced for real uid 0 (the kernel exempts root's user), so as root
        // only the limit itself can be checked; a root-run harness needs a cgroup (TasksMax) instead.
        assert.match(result.stdout.text, /FORKED 400|FORK-FAILED/);
      } else {
        const match = /FORK-FAILED (\d+) 11/.exec(result.stdout.text);
        assert.ok(match, result.stdout.text + result.stderr.text);
        const forked = Number(match[1]);
        t.diagnostic(`fork failed with EAGAIN after ${forked} children (ceiling ${ceiling})`);
        assert.ok(forked > 0 && forked <= 200, `forked ${forked} before the cap`);
      }
    });

    test("T38 a huge allocation fails under the address-space cap; node still starts", async (t) => {
      // The battery capped at 1 GiB; Node 24 needs more than that just to reserve its code range
      // ("Failed to reserve virtual memory for CodeRange"), so the cap here is 2 GiB.
      const limited = await openSandbox(layout, {
        limits: { ...sandbox.policy.limits, addressSpaceBytes: 2048 * MiB },
      });
      t.after(() => limited.dispose());
      const result = await bash(
        limited,
        `python3 -c 'bytearray(4 << 30)'; echo "python=$?"; node -e 'console.log("NODE-OK")'`,
      );
      assert.match(result.stderr.text, /MemoryError/);
      assert.match(result.stdout.text, /^python=1\nNODE-OK\n$/);
    });

    test("T39 a single file stops at the file-size cap", async (t) => {
      const big = join(layout.project, "big.bin");
      t.after(() => rmSync(big, { force: true }));
      const limited = await openSandbox(layout, {
        limits: { ...sandbox.policy.limits, fileSizeBytes: 50 * MiB },
      });
      t.after(() => limited.dispose());
      const result = await bash(limited, "dd if=/dev/zero of=big.bin bs=1M count=100 2>/dev/null");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /File size limit exceeded/);
      assert.equal(statSync(big).size, 50 * MiB);
    });

    test("T40 /tmp stops at its tmpfs size", async (t) => {
      const limited = await openSandbox(layout, {
        tmpfsBytes: { ...sandbox.policy.tmpfsBytes, tmp: 256 * MiB },
      });
      t.after(() => limited.dispose());
      const result = await bash(
        limited,
        'dd if=/dev/zero of=/tmp/fill bs=1M count=300 2>&1 | grep -o "No space left on device"; stat -c %s /tmp/fill',
      );
      assert.equal(result.stdout.text, `No space left on device\n${256 * MiB}\n`);
    });
  });

  test("T42 renaming or replacing the parent of a protected path fails: it is pinned", async () => {
    const github = join(layout.project, ".github");
    const moved = join(layout.project, ".gh2");
    const before = statSync(github).ino;
    try {
      const result = await bash(
        sandbox,
        `mv .github .gh2; echo "mv=$?"
rm -rf .github; echo "rm=$?"
mkdir -p .github/workflows && echo 'on: push' > .github/workflows/evil.yml; echo "fresh=$?"
echo 'version: 2' > .github/dependabot.yml; echo "sibling=$?"`,
      );
      // .github is a mount point inside the sandbox: it can be neither renamed nor removed, so a
      // fresh, unprotected .github/workflows cannot be made in its place.
      assert.match(result.stdout.text, /^mv=1\nrm=1\nfresh=1\nsibling=1\n/);
      assert.match(result.stderr.text, /Device or resource busy/);
      assert.ok(!present(moved));
      assert.equal(statSync(github).ino, before);
      assert.ok(!present(join(github, "workflows", "evil.yml")));
      // Files beside the workflows are protected too (all of .github, T60); with
      // allow-protected-changes only the pin keeps the workflows in place.
      assert.ok(!present(join(github, "dependabot.yml")));
    } finally {
      rmSync(join(github, "dependabot.yml"), { force: true });
      if (present(moved)) {
        rmSync(github, { recursive: true, force: true });
        renameSync(moved, github);
      }
    }
    const next = await bash(sandbox, "true");
    assert.equal(next.exitCode, 0, "nothing moved: the next command starts");
  });

  test("T42b a protected path moved outside any sandbox is refused at the next command", async () => {
    const github = join(layout.project, ".github");
    const moved = join(layout.project, ".gh2");
    renameSync(github, moved);
    try {
      await assert.rejects(
        bash(sandbox, "true"),
        (error) => error instanceof PitcrewError && error.code === "sandbox-protected-path-moved",
      );
    } finally {
      renameSync(moved, github);
    }
    const restored = await bash(sandbox, "cat .github/workflows/ci.yml");
    assert.equal(restored.exitCode, 0, "restored: the sandbox starts again");
  });
});
