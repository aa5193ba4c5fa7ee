/**
 * The escape battery's controls (escape-battery.md §B, C1–C10, plus controls for T31, T41 and
 * T43): the same attacks against a deliberately weakened command line, to prove each vector is
 * real and which flag or harness rule closes it. Each control takes the argv `sandbox.prepare()`
 * builds, removes or adds one thing, and shows the leak or the write now happens.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  appendFileSync,
  constants,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { SPILL_MOUNT, isInside } from "../../src/sandbox/policy.ts";
import { runContained } from "../../src/sandbox/runner.ts";
import type { RunResult } from "../../src/sandbox/runner.ts";
import type { Prepared, Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import {
  assertNoSecrets,
  bash,
  hostGit,
  hostRun,
  present,
  hostProcesses,
  randomTag,
  uniqueSeconds,
  useRunnerLayout,
} from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

const isRoot = process.getuid?.() === 0;

/** How many arguments each bwrap option pitcrew uses takes. */
const ARITY: Record<string, number> = {
  "--unshare-user": 0,
  "--unshare-pid": 0,
  "--unshare-net": 0,
  "--unshare-ipc": 0,
  "--unshare-uts": 0,
  "--unshare-cgroup-try": 0,
  "--disable-userns": 0,
  "--die-with-parent": 0,
  "--new-session": 0,
  "--clearenv": 0,
  "--cap-drop": 1,
  "--hostname": 1,
  "--dev": 1,
  "--proc": 1,
  "--tmpfs": 1,
  "--remount-ro": 1,
  "--chdir": 1,
  "--seccomp": 1,
  "--size": 1,
  "--setenv": 2,
  "--bind": 2,
  "--ro-bind": 2,
};

/** One bwrap option with its arguments; `--size N` travels with the mount it sizes. */
type Option = string[];

function parseOptions(args: readonly string[]): Option[] {
  const options: Option[] = [];
  for (let i = 0; i < args.length;) {
    const flag = args[i] ?? "";
    const arity = ARITY[flag];
    if (arity === undefined) throw new Error(`unknown bwrap option ${flag}: teach ARITY about it`);
    const option = args.slice(i, i + 1 + arity);
    i += 1 + arity;
    if (flag === "--size") {
      const next = ARITY[args[i] ?? ""] ?? 0;
      option.push(...args.slice(i, i + 1 + next));
      i += 1 + next;
    }
    options.push(option);
  }
  return options;
}

/** `sandbox.prepare(command)` with bwrap's options passed through `edit`. */
function weaken(
  sandbox: Sandbox,
  command: string[],
  edit: (options: Option[]) => Option[],
): Prepared {
  const prepared = sandbox.prepare({ argv: command });
  const bwrap = prepared.argv.indexOf(sandbox.probe?.bwrapPath ?? "bwrap");
  const end = prepared.argv.length - command.length - 1;
  assert.ok(
    bwrap > 0 && prepared.argv[end] === "--",
    "prepared argv: prlimit … bwrap OPTIONS -- CMD",
  );
  const options = edit(parseOptions(prepared.argv.slice(bwrap + 1, end)));
  return {
    ...prepared,
    argv: [...prepared.argv.slice(0, bwrap + 1), ...options.flat(), "--", ...command],
  };
}

/** An edit that drops every option for which `match` holds, checking each matched something. */
function without(...matches: ((option: Option) => boolean)[]): (options: Option[]) => Option[] {
  return (options) => {
    for (const match of matches) assert.ok(options.some(match), "the option to remove is there");
    return options.filter((option) => !matches.some((match) => match(option)));
  };
}

const flag =
  (name: string) =>
  (option: Option): boolean =>
    option[0] === name;
const mount =
  (op: string, dest: string) =>
  (option: Option): boolean =>
    option.at(-2) === op && option.at(-1) === dest;
const bind =
  (op: string, source: string, dest: string) =>
  (option: Option): boolean =>
    option[0] === op && option[1] === source && option[2] === dest;

/** An edit that inserts `added` right after the workspace bind. */
function adding(workspace: string, ...added: Option[]): (options: Option[]) => Option[] {
  return (options) => {
    const at = options.findIndex(bind("--bind", workspace, workspace));
    assert.ok(at > 0);
    return [...options.slice(0, at + 1), ...added, ...options.slice(at + 1)];
  };
}

/** bwrap's words when a host socket it was to cover went away after the scan (host-sockets.ts). */
const LOST_MASK_RACE = /^bwrap: Can't (?:create file at|mkdir parents for) /m;

/**
 * Runs a prepared (weakened) argv the way the sandbox does: bwrap's env, fd 3 for seccomp. Given
 * a way to prepare it, it also does what the sandbox does when a host socket it covered went away
 * between its scan and bwrap's mounts (another test file's listener): prepares again and reruns.
 */
async function runPrepared(
  given: Prepared | (() => Prepared),
  timeoutMs = 20_000,
): Promise<RunResult> {
  for (let attempt = 1; ; attempt++) {
    const prepared = typeof given === "function" ? given() : given;
    const result = await runContained({
      argv: prepared.argv,
      env: prepared.env,
      fd3Data: prepared.argv.includes("--seccomp") ? prepared.seccomp : undefined,
      timeoutMs,
      outputBytes: 1024 * 1024,
    });
    if (typeof given !== "function" || attempt >= 3 || !LOST_MASK_RACE.test(result.stderr.text)) {
      return result;
    }
  }
}

function sh(script: string): string[] {
  return ["bash", "--noprofile", "--norc", "-c", script];
}

/**
 * The filter of `prepared` in a file under the layout, for the controls that start bwrap from a
 * shell (`3<file`): the sandbox itself hands it over a fresh pipe.
 */
function seccompFileOf(layout: RunnerLayout, prepared: Prepared): string {
  const file = join(layout.root, "tools", "seccomp.bpf");
  writeFileSync(file, prepared.seccomp ?? Buffer.alloc(0));
  return file;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

async function waitFor(check: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe("escape battery §B: controls against weakened argv", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  before(() => ({ layout, sandbox } = battery));
  /** Each control's clean-up, run before the host-state check. */
  const undo = battery.undo;

  test("the unmodified prepared argv passes through the control runner as the sandbox runs it", async () => {
    const result = await runPrepared(
      weaken(sandbox, sh("echo SAME; grep CapEff /proc/self/status"), (o) => o),
    );
    assert.equal(result.stdout.text, "SAME\nCapEff:\t0000000000000000\n");
  });

  test("C1 without --unshare-pid/--proc: host cmdlines leak, host processes can be stopped, orphans survive", async () => {
    const { pid, cmdlineToken } = layout.decoy;
    const seconds = uniqueSeconds(322);
    const killOrphans = async (): Promise<void> => {
      const found = await hostRun(["pgrep", "-f", `sleep ${seconds}`]);
      for (const line of found.stdout.split("\n")) if (line) process.kill(Number(line), "SIGKILL");
    };
    undo.push(async () => {
      process.kill(pid, "SIGCONT");
      await killOrphans();
    });
    const prepared = weaken(
      sandbox,
      sh(`tr '\\0' ' ' < /proc/${pid}/cmdline; echo
cat /proc/${pid}/environ > /dev/null; echo "environ=$?"
kill -STOP ${pid}; echo "stop=$?"
setsid sleep ${seconds} >/dev/null 2>&1 < /dev/null &
echo started`),
      without(flag("--unshare-pid"), flag("--proc")),
    );
    const result = await runPrepared(prepared);
    assert.ok(result.stdout.text.includes(cmdlineToken), "the decoy's cmdline token leaked");
    // Cross-user-namespace ptrace check: environ stays closed while a user namespace is in place.
    assert.match(result.stdout.text, /environ=1\nstop=0\nstarted\n/);
    // A stop is delivered, not done, when kill returns: on a busy machine the state follows a little later.
    assert.ok(
      await waitFor(() => processState(pid) === "T"),
      "the host process was stopped from inside",
    );
    // The command has ended; its orphan may still be between fork and exec, so wait for it.
    const orphan = await waitFor(() => hostProcesses(`sleep ${seconds}`).length > 0);
    assert.ok(orphan, "the orphan outlived the command");
    await killOrphans();
    process.kill(pid, "SIGCONT");
    assert.ok(await waitFor(() => processState(pid) !== "T"));
  });

  test(
    "C1b as root without a user namespace (setuid-bwrap analog): a same-uid process's environ leaks",
    { skip: isRoot ? false : "needs root: unprivileged bwrap always makes a user namespace" },
    async () => {
      // A capability-less root process, like the harness a setuid bwrap would run beside.
      const decoy = spawn(
        "setpriv",
        ["--bounding-set=-all", "--inh-caps=-all", "--", "sleep", "60"],
        { env: { PATH: "/usr/bin:/bin", ...layout.secrets }, stdio: "ignore" },
      );
      undo.push(() => {
        decoy.kill("SIGKILL");
      });
      assert.ok(await waitFor(() => readFileSync(`/proc/${decoy.pid}/comm`, "utf8") === "sleep\n"));
      const prepared = weaken(
        sandbox,
        sh(`tr '\\0' '\\n' < /proc/${decoy.pid}/environ`),
        without(
          flag("--unshare-user"),
          flag("--disable-userns"),
          flag("--unshare-pid"),
          flag("--proc"),
        ),
      );
      const result = await runPrepared(prepared);
      assert.ok(
        result.stdout.text.includes(layout.secrets.OPENAI_API_KEY ?? "?"),
        result.stderr.text,
      );
    },
  );

  test("C2 with the network shared: the host loopback and abstract sockets are reachable", async () => {
    const tcp = layout.tcp.connections;
    const abstract = layout.abstract.connections;
    const prepared = weaken(
      sandbox,
      sh(`curl -sS -m 3 --http0.9 http://127.0.0.1:${layout.tcp.address}/
python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
s.connect(b"\\0${layout.abstract.address}")
print(s.recv(100).decode().strip())
'`),
      without(flag("--unshare-net")),
    );
    const result = await runPrepared(prepared);
    assert.ok(result.stdout.text.includes(layout.tcp.greeting), result.stderr.text);
    assert.ok(result.stdout.text.includes(layout.abstract.greeting), result.stderr.text);
    assert.equal(layout.tcp.connections, tcp + 1);
    assert.equal(layout.abstract.connections, abstract + 1);
  });

  test("C3 with host /tmp not masked: a read-only bind still lets connect() reach a socket", async () => {
    const before = layout.unix.connections;
    const dir = layout.unix.address.slice(0, layout.unix.address.lastIndexOf("/"));
    const prepared = weaken(
      sandbox,
      sh(`touch ${dir}/x; echo "touch=$?"
python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
s.connect("${layout.unix.address}")
print(s.recv(100).decode().strip())
'`),
      // The spill folder's mount point lives in that tmpfs: it goes with it.
      without(mount("--tmpfs", "/tmp"), (option) => option.at(-1) === SPILL_MOUNT),
    );
    const result = await runPrepared(prepared);
    assert.match(result.stdout.text, /^touch=1\n/);
    assert.match(result.stderr.text, /Read-only file system/);
    assert.ok(result.stdout.text.includes(layout.unix.greeting), result.stderr.text);
    assert.equal(layout.unix.connections, before + 1);
  });

  test("C4 TIOCSTI on the caller's terminal: blocked by --new-session or seccomp, injected with neither", async (t) => {
    const variants: [string, (options: Option[]) => Option[], boolean][] = [
      ["recommended", (options) => options, false],
      ["--new-session only", without(flag("--seccomp")), false],
      ["seccomp only", without(flag("--new-session")), false],
      ["neither", without(flag("--seccomp"), flag("--new-session")), true],
    ];
    for (const [name, edit, injects] of variants) {
      const attempt = async () => {
        const prepared = weaken(sandbox, ["python3", layout.tools.tiocsti], edit);
        const seccomp = prepared.argv.includes("--seccomp")
          ? ` 3<${shellQuote(seccompFileOf(layout, prepared))}`
          : "";
        const inner = `${prepared.argv.map(shellQuote).join(" ")}${seccomp}; read -t 0.5 -r line; echo "AFTER[$line]"`;
        return hostRun(["script", "-qec", inner, "/dev/null"], {
          env: { ...prepared.env, SHELL: "/bin/bash", TERM: "xterm" },
        });
      };
      // The sandbox runs a command again when a host socket it covered went away between its
      // scan and bwrap's mounts (another test's listener, here); this runner does the same.
      let result = await attempt();
      if (LOST_MASK_RACE.test(result.stdout)) result = await attempt();
      t.diagnostic(
        `${name}: ${/TIOCSTI-\w+/.exec(result.stdout)?.[0]} ${/AFTER\[.*\]/.exec(result.stdout)?.[0]}`,
      );
      if (injects) {
        assert.match(result.stdout, /TIOCSTI-INJECTED/, name);
        assert.match(result.stdout, /AFTER\[echo INJECTED\]/, `${name}: reached the terminal`);
      } else {
        assert.match(result.stdout, /TIOCSTI-BLOCKED \[Errno 1\] Operation not permitted/, name);
        assert.match(result.stdout, /AFTER\[\]/, name);
      }
    }
  });

  test("C5 protecting only .git/hooks and .git/config: a redirected commondir runs code in host git", async () => {
    const pwned = join(layout.outside, "pwned-commondir");
    undo.push(() => {
      rmSync(join(layout.project, ".git", "commondir"), { force: true });
      rmSync(join(layout.project, ".cache"), { recursive: true, force: true });
      rmSync(pwned, { force: true });
    });
    const gitDir = join(layout.project, ".git");
    const hooks = join(gitDir, "hooks");
    const prepared = weaken(
      sandbox,
      sh(`set -e
mkdir -p .cache/g
cp -r .git/objects .git/refs .git/HEAD .cache/g/
printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = "touch ${pwned}; false"\\n' > .cache/g/config
echo ../.cache/g > .git/commondir
echo planted`),
      (options) =>
        options.map((option) =>
          bind("--ro-bind", gitDir, gitDir)(option) ? ["--ro-bind", hooks, hooks] : option,
        ),
    );
    const result = await runPrepared(prepared);
    assert.equal(result.stdout.text, "planted\n", result.stderr.text);

    hostGit(
      layout,
      ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "status"],
      false,
    );
    assert.ok(!present(pwned), "careful host git does not run it");
    try {
      hostGit(layout, ["status"], false);
    } catch {
      // git may complain about the failing fsmonitor; the side effect is what counts
    }
    assert.ok(present(pwned), "plain host git status ran the planted fsmonitor");
  });

  test("C6 nested user namespace allowed (no --disable-userns, no seccomp): locked mounts still hold", async () => {
    const prepared = weaken(
      sandbox,
      ["python3", layout.tools.nestedUserns],
      without(flag("--disable-userns"), flag("--seccomp")),
    );
    const result = await runPrepared(prepared);
    assert.match(
      result.stdout.text,
      /^unshare ok\nCapEff:\t(?!0{16})[0-9a-f]{16}\nremount-rw Operation not permitted\numount Invalid argument\nwrite Read-only file system\n$/,
      result.stderr.text,
    );
    assert.ok(!present(join(layout.project, ".git", "x-nested")));
  });

  test("C7 bwrap started with the harness's environment and an inherited fd: PID 1 and fd 7 leak", async () => {
    const prepared = sandbox.prepare({
      argv: sh(`tr '\\0' '\\n' < /proc/1/environ; echo =SEP=; cat <&7; echo =SEP=; env`),
    });
    const result = await hostRun(
      ["bash", "-c", 'exec 3<"$SECCOMP" 7<"$KEY"; exec "$@"', "bash", ...prepared.argv],
      {
        env: {
          ...(process.env as Record<string, string>),
          SECCOMP: seccompFileOf(layout, prepared),
          KEY: layout.files.sshKey,
        },
      },
    );
    const [environ, key, env] = result.stdout.split("=SEP=\n");
    for (const name of [
      "OPENAI_API_KEY",
      "GITHUB_TOKEN",
      "ACTIONS_RUNTIME_TOKEN",
      "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
    ]) {
      assert.ok(environ?.includes(`${name}=${layout.secrets[name]}`), `${name} in bwrap's environ`);
    }
    assert.ok(key?.includes(`FAKEKEY${layout.marker}`), "the masked SSH key via fd 7");
    assert.ok(!env?.includes(layout.marker), "--clearenv still cleans the command's own env");
  });

  test("C8 a host-side file tool follows a symlink the agent planted; O_NOFOLLOW and realpath stop it", async () => {
    const link = join(layout.project, "p1");
    const original = readFileSync(layout.files.victim, "utf8");
    undo.push(() => {
      rmSync(link, { force: true });
      writeFileSync(layout.files.victim, original);
    });
    const planted = await bash(sandbox, `ln -sf ${layout.files.victim} p1 && echo planted`);
    assert.equal(planted.stdout.text, "planted\n");

    assert.throws(
      () => openSync(link, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW),
      (error: NodeJS.ErrnoException) => error.code === "ELOOP",
    );
    assert.ok(!isInside(realpathSync(link), layout.project), "realpath: outside the project");
    appendFileSync(link, "HOST-TOOL-WROTE\n");
    assert.equal(readFileSync(layout.files.victim, "utf8"), `${original}HOST-TOOL-WROTE\n`);
  });

  test("C9 a planted .github -> ~/.ssh: re-evaluated binds make bwrap abort; the session check refuses", async () => {
    const github = join(layout.project, ".github");
    const real = join(layout.project, ".github-real");
    undo.push(() => {
      rmSync(github, { force: true });
      if (present(real)) renameSync(real, github);
    });
    // Inside the sandbox the plant fails: .github is pinned (a mount point) for the session.
    const plant = await bash(
      sandbox,
      `mv .github .github-real && ln -s ${layout.home}/.ssh .github && echo planted`,
    );
    assert.equal(plant.stdout.text, "");
    assert.match(plant.stderr.text, /Device or resource busy/);
    // Planted from outside instead (say, between sessions), the vector is tested as before.
    renameSync(github, real);
    symlinkSync(join(layout.home, ".ssh"), github);

    const prepared = weaken(
      sandbox,
      sh("cat .github/id_rsa; echo RAN"),
      adding(layout.project, ["--ro-bind", github, github]),
    );
    const result = await runPrepared(prepared);
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr.text, /bwrap: Can't (bind mount|find source path)/);
    assertNoSecrets(layout, result);
    assert.ok(!result.stdout.text.includes("RAN"));

    await assert.rejects(
      bash(sandbox, "cat .github/id_rsa"),
      (error) => error instanceof PitcrewError && error.code === "sandbox-protected-symlink",
    );
  });

  test("C10 bwrap's mount-point creation follows a planted symlink; pitcrew never mounts under writable paths", async (t) => {
    const evil = join(layout.project, "evil");
    const created = join(layout.outside, "created-by-bwrap-setup");
    const github = join(layout.project, ".github");
    const real = join(layout.project, ".github-real");
    undo.push(() => {
      rmSync(evil, { force: true });
      rmSync(created, { force: true });
      rmSync(github, { force: true });
      if (present(real)) renameSync(real, github);
    });
    const plant = await bash(sandbox, `ln -s /oldroot${layout.outside} evil && echo planted`);
    assert.equal(plant.stdout.text, "planted\n");

    // The weakened command line mounts a file under the agent-writable `evil/`.
    const prepared = weaken(
      sandbox,
      ["true"],
      adding(layout.project, [
        "--ro-bind",
        layout.files.victim,
        join(evil, "created-by-bwrap-setup"),
      ]),
    );
    await runPrepared(prepared);
    const version = sandbox.probe?.version ?? "unknown";
    const vulnerable = present(created);
    t.diagnostic(
      `bwrap ${version}: setup followed the planted symlink onto the host: ${vulnerable}`,
    );
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (major === 0 && minor < 9) assert.ok(vulnerable, `bwrap ${version} should reproduce C10`);

    // pitcrew's own argv: inside the workspace, only the workspace itself, the protected paths
    // recorded at session start and files inside them are mount destinations.
    const options: Option[] = [];
    weaken(sandbox, ["true"], (parsed) => {
      options.push(...parsed);
      return parsed;
    });
    const protectedPaths = sandbox.policy.readOnly.map(({ path }) => path);
    // Pinned folders (.github above .github/workflows) are bound onto themselves; they were
    // checked symlink-free at session start and, being mount points, cannot be renamed after.
    const pinned = sandbox.policy.pinned.map(({ path }) => path);
    assert.ok(protectedPaths.length >= 2, ".git and .github/workflows are protected");
    const mountOps = ["--bind", "--ro-bind", "--tmpfs", "--remount-ro", "--dev", "--proc"];
    const dests = options
      .filter((option) => option.some((word) => mountOps.includes(word)))
      .map((option) => option.at(-1) ?? "");
    assert.ok(dests.includes(layout.project));
    for (const dest of dests) {
      if (!isInside(dest, layout.project)) continue;
      const ok =
        dest === layout.project ||
        pinned.includes(dest) ||
        protectedPaths.includes(dest) ||
        protectedPaths.some((path) => dest !== path && isInside(dest, path));
      assert.ok(ok, `mount destination ${dest} lies under an agent-writable path`);
    }

    // And the run-time half: a protected path reached through a planted symlink is refused.
    // (Planted from outside: inside a sandbox .github is pinned and cannot be renamed.)
    renameSync(github, real);
    symlinkSync(`/oldroot${layout.outside}`, github);
    rmSync(created, { force: true });
    // Even skipping that check, pitcrew's argv binds each protected path onto itself: source and
    // destination resolve through the same link, so bwrap fails instead of creating anything.
    const unchecked = await runPrepared(() => weaken(sandbox, ["true"], (options) => options));
    assert.notEqual(unchecked.exitCode, 0);
    assert.deepEqual(readdirSync(layout.outside), [], "nothing was created outside");
    await assert.rejects(
      bash(sandbox, "true"),
      (error) => error instanceof PitcrewError && error.code === "sandbox-protected-symlink",
    );
    assert.deepEqual(readdirSync(layout.outside), [], "nothing was created outside");
  });

  test("T31 control: without --seccomp, ptrace and keyctl work (the EPERMs come from the filter)", async () => {
    const prepared = weaken(
      sandbox,
      ["python3", layout.tools.syscalls],
      without(flag("--seccomp")),
    );
    const result = await runPrepared(prepared);
    assert.match(result.stdout.text, /^ptrace 0 ok$/m);
    assert.match(result.stdout.text, /^keyctl \d+ ok$/m);
  });

  test("T41 control: --cap-drop ALL is what keeps a root-run bwrap from remounting .git writable", async () => {
    const marker = join(layout.project, ".git", `x-t41-${randomTag(6)}`);
    undo.push(() => rmSync(marker, { force: true }));
    const script = sh(`grep CapEff /proc/self/status
mount -o remount,rw,bind .git && touch ${marker}; echo "rc=$?"`);
    const run = (...matches: ((option: Option) => boolean)[]): Promise<RunResult> =>
      runPrepared(() => weaken(sandbox, script, without(...matches)));
    const noUserns = [flag("--unshare-user"), flag("--disable-userns"), flag("--seccomp")];
    const dropped = /^CapEff:\t0{16}\nrc=32\n$/;
    const kept = (rc: number): RegExp =>
      new RegExp(`^CapEff:\\t(?!0{16})[0-9a-f]{16}\\nrc=${rc}\\n$`);

    // Without a user namespace (and without seccomp), --cap-drop ALL is the last wall.
    const capDropOnly = await run(...noUserns);
    assert.match(capDropOnly.stdout.text, dropped, capDropOnly.stderr.text);
    assert.ok(!present(marker));
    const nothing = await run(...noUserns, flag("--cap-drop"));
    if (isRoot) {
      assert.match(nothing.stdout.text, kept(0), nothing.stderr.text);
      assert.ok(present(marker), "the write landed in the host's .git");
      rmSync(marker, { force: true });
    } else {
      // Unprivileged bwrap drops every capability by itself: the flag matters for root only.
      assert.match(nothing.stdout.text, dropped, nothing.stderr.text);
      assert.ok(!present(marker));
    }

    // With the user namespace but no --cap-drop, root keeps a full set inside it; the mount still
    // fails (seccomp, and privileged bwrap creates the user namespace after its mounts, so they
    // belong to the initial one), which makes --cap-drop defence in depth there.
    const userns = await run(flag("--cap-drop"), flag("--seccomp"));
    assert.match(userns.stdout.text, isRoot ? kept(32) : dropped, userns.stderr.text);
    assert.ok(!present(marker));
  });

  test("T43 control: without the read-only /proc/sys, root can write kernel.core_pattern", async () => {
    const prepared = weaken(
      sandbox,
      sh(
        `cat /proc/sys/kernel/core_pattern > /tmp/cp && cat /tmp/cp > /proc/sys/kernel/core_pattern; echo "rc=$?"`,
      ),
      without(bind("--ro-bind", "/proc/sys", "/proc/sys")),
    );
    const before = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
    const result = await runPrepared(prepared);
    // The same value is written back, so even the successful write changes nothing.
    assert.equal(readFileSync("/proc/sys/kernel/core_pattern", "utf8"), before);
    if (isRoot) assert.equal(result.stdout.text, "rc=0\n", result.stderr.text);
    else {
      assert.equal(result.stdout.text, "rc=1\n");
      assert.match(result.stderr.text, /Permission denied/);
    }
  });
});
