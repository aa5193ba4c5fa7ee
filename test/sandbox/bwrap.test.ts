/**
 * The bwrap argv, flag by flag, for every policy option; then the invariants that make the
 * mount table safe, checked on policies resolved from real temp checkouts.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { BWRAP_HOSTNAME, bwrapArgs } from "../../src/sandbox/bwrap.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import type { Policy } from "../../src/sandbox/policy.ts";
import { testPolicy } from "../support/policy.ts";
import { isInside } from "../../src/sandbox/policy.ts";
import { resolvePolicy } from "../../src/sandbox/resolve.ts";

function policy(overrides: Partial<Policy> = {}): Policy {
  return testPolicy(overrides);
}

/** Positions of `flag` followed by `operands`, as index of the flag. */
function find(args: readonly string[], ...sequence: string[]): number[] {
  const found: number[] = [];
  for (let index = 0; index + sequence.length <= args.length; index++) {
    if (sequence.every((item, offset) => args[index + offset] === item)) found.push(index);
  }
  return found;
}

function at(args: readonly string[], ...sequence: string[]): number {
  const found = find(args, ...sequence);
  assert.equal(found.length, 1, `expected exactly one ${sequence.join(" ")} in ${args.join(" ")}`);
  return found[0] ?? -1;
}

/** The part of the argv before the command (`--` separates them). */
function options(args: readonly string[]): string[] {
  const dashdash = args.indexOf("--");
  assert.ok(dashdash > 0);
  return args.slice(0, dashdash);
}

const MOUNT_OPS: Record<string, number> = {
  "--bind": 2,
  "--ro-bind": 2,
  "--dev-bind": 2,
  "--bind-try": 2,
  "--ro-bind-try": 2,
  "--tmpfs": 1,
  "--dev": 1,
  "--proc": 1,
  "--remount-ro": 1,
  "--symlink": 2,
  "--dir": 1,
  "--file": 2,
  "--bind-data": 2,
  "--ro-bind-data": 2,
};

/** Every operation that changes the mount table, with its destination (last operand). */
function mounts(args: readonly string[]): { op: string; source?: string; dest: string }[] {
  const out: { op: string; source?: string; dest: string }[] = [];
  const opts = options(args);
  for (let index = 0; index < opts.length; index++) {
    const op = opts[index] ?? "";
    const arity = MOUNT_OPS[op];
    if (arity === undefined) continue;
    const operands = opts.slice(index + 1, index + 1 + arity);
    out.push({
      op,
      source: arity === 2 ? operands[0] : undefined,
      dest: operands[arity - 1] ?? "",
    });
    index += arity;
  }
  return out;
}

describe("bwrapArgs: namespaces and process flags", () => {
  const args = bwrapArgs(policy(), { argv: ["bash", "-c", "true"] });

  test("unshares user, pid, net, ipc, uts and (when possible) cgroup", () => {
    for (const flag of [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-net",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
    ]) {
      at(args, flag);
    }
    assert.ok(!args.includes("--share-net"));
    assert.ok(
      !args.includes("--unshare-all"),
      "explicit flags, not --unshare-all (which shares net with --share-net)",
    );
  });

  test("forbids nested user namespaces, drops every capability, dies with its parent, new session", () => {
    at(args, "--disable-userns");
    at(args, "--cap-drop", "ALL");
    assert.ok(!args.includes("--cap-add"));
    at(args, "--die-with-parent");
    at(args, "--new-session");
    at(args, "--hostname", BWRAP_HOSTNAME);
  });

  test("the command follows a single -- at the end, untouched", () => {
    const argv = ["bash", "-c", "echo '--bind / /' && --ro-bind"];
    const out = bwrapArgs(policy(), { argv });
    const dashdash = out.indexOf("--");
    assert.deepEqual(out.slice(dashdash + 1), argv);
  });
});

describe("bwrapArgs: environment", () => {
  test("--clearenv first, then every policy variable as --setenv, sorted by name", () => {
    const env = {
      TMPDIR: "/tmp",
      PATH: "/usr/bin",
      LC_ALL: "C",
      HOME: "/h/user",
      CI: "true",
      GOROOT_1_22_X64: "/opt/go",
      LANG: "C.UTF-8",
    };
    const args = bwrapArgs(policy({ env }), { argv: ["true"] });
    const clear = at(args, "--clearenv");
    const setenvs = find(args, "--setenv");
    assert.equal(setenvs.length, Object.keys(env).length);
    assert.ok(setenvs.every((index) => index > clear));
    const names = setenvs.map((index) => args[index + 1]);
    assert.deepEqual(names, ["CI", "GOROOT_1_22_X64", "HOME", "LANG", "LC_ALL", "PATH", "TMPDIR"]);
    for (const index of setenvs) {
      const name = args[index + 1] as keyof typeof env;
      assert.equal(args[index + 2], env[name]);
    }
  });

  test("a value with spaces, quotes and newlines stays one argument", () => {
    const value = "a b 'c' \"d\"\n--bind / /";
    const args = bwrapArgs(policy({ env: { ODD: value } }), { argv: ["true"] });
    at(args, "--setenv", "ODD", value);
  });

  test("the same policy gives the same argv", () => {
    const a = bwrapArgs(policy({ env: { B: "2", A: "1", C: "3" } }), { argv: ["x"] });
    const b = bwrapArgs(policy({ env: { C: "3", A: "1", B: "2" } }), { argv: ["x"] });
    assert.deepEqual(a, b);
  });
});

describe("bwrapArgs: mounts", () => {
  const full = policy({
    workspace: "/w/repo",
    home: "/h/user",
    homeReadOnly: ["/h/user/.cargo/bin", "/h/user/.rustup"],
    hidden: ["/runner/_temp", "/opt/runner", "/run"],
    readOnly: [
      { path: "/w/repo/.git", dev: 1, ino: 2 },
      { path: "/w/repo/.github/workflows", dev: 1, ino: 3 },
    ],
    overlays: [
      { source: "/state/gitconfig-0", target: "/w/repo/.git/config" },
      { source: "/state/gitconfig-1", target: "/w/repo/.git/modules/sub/config" },
    ],
  });
  const args = bwrapArgs(full, { argv: ["true"] });

  test("the root read-only, a fresh /dev and /proc, before anything else is mounted", () => {
    const list = mounts(args);
    assert.deepEqual(list.slice(0, 3), [
      { op: "--ro-bind", source: "/", dest: "/" },
      { op: "--dev", source: undefined, dest: "/dev" },
      { op: "--proc", source: undefined, dest: "/proc" },
    ]);
    assert.ok(!args.includes("--dev-bind"), "no host device tree");
  });

  test("/proc/sys is bound read-only over the fresh /proc", () => {
    const proc = at(args, "--proc", "/proc");
    const sys = at(args, "--ro-bind", "/proc/sys", "/proc/sys");
    assert.ok(proc < sys);
  });

  test("private tmpfs mounts on /tmp and /dev/shm with the policy's sizes", () => {
    at(args, "--size", "111", "--tmpfs", "/tmp");
    at(args, "--size", "222", "--tmpfs", "/dev/shm");
  });

  test("hidden paths: an empty tmpfs early, remounted read-only after every bind", () => {
    const binds = mounts(args)
      .map((mount, index) => ({ ...mount, index }))
      .filter(({ op }) => op === "--bind" || op === "--ro-bind");
    const list = mounts(args);
    for (const hidden of full.hidden) {
      const tmpfs = list.findIndex(({ op, dest }) => op === "--tmpfs" && dest === hidden);
      const remount = list.findIndex(({ op, dest }) => op === "--remount-ro" && dest === hidden);
      assert.ok(tmpfs > 0, `--tmpfs ${hidden}`);
      assert.ok(remount > tmpfs, `--remount-ro ${hidden} after its tmpfs`);
      assert.ok(
        binds.slice(1).every(({ index }) => tmpfs < index && index < remount),
        `${hidden}: masked before the binds and read-only after them`,
      );
      assert.equal(args[args.indexOf(hidden) - 1], "--tmpfs", "hidden tmpfs mounts take no --size");
    }
    assert.deepEqual(
      list.filter(({ op }) => op === "--remount-ro").map(({ dest }) => dest),
      full.hidden,
    );
  });

  test("home: a sized tmpfs, then the read-only folders bound back in order", () => {
    const homeTmpfs = at(args, "--size", "333", "--tmpfs", "/h/user");
    const cargo = at(args, "--ro-bind", "/h/user/.cargo/bin", "/h/user/.cargo/bin");
    const rustup = at(args, "--ro-bind", "/h/user/.rustup", "/h/user/.rustup");
    assert.ok(homeTmpfs < cargo && cargo < rustup);
  });

  test("the workspace bound writable after home, then .git, workflows and overlays read-only in order", () => {
    const home = at(args, "--tmpfs", "/h/user");
    const rustup = at(args, "--ro-bind", "/h/user/.rustup", "/h/user/.rustup");
    const workspace = at(args, "--bind", "/w/repo", "/w/repo");
    const git = at(args, "--ro-bind", "/w/repo/.git", "/w/repo/.git");
    const workflows = at(
      args,
      "--ro-bind",
      "/w/repo/.github/workflows",
      "/w/repo/.github/workflows",
    );
    const config = at(args, "--ro-bind", "/state/gitconfig-0", "/w/repo/.git/config");
    const sub = at(args, "--ro-bind", "/state/gitconfig-1", "/w/repo/.git/modules/sub/config");
    assert.ok(home < rustup && rustup < workspace);
    const pinned = at(args, "--bind", "/w/repo/.github", "/w/repo/.github");
    assert.ok(workspace < pinned && pinned < git);
    assert.ok(workspace < git && git < workflows && workflows < config && config < sub);
    assert.deepEqual(
      find(args, "--bind").map((index) => args[index + 2]),
      ["/w/repo", "/w/repo/.github"],
      "writable binds: the workspace, and .github pinned onto itself",
    );
  });

  test("protected paths and the writable folders inside them are mounted parents first", () => {
    const nested = bwrapArgs(
      policy({
        readOnly: [
          { path: "/w/repo/.github/pitcrew/locked", dev: 1, ino: 5 },
          { path: "/w/repo/.github", dev: 1, ino: 3 },
          { path: "/w/repo/Makefile", dev: 1, ino: 6 },
        ],
        writable: [{ path: "/w/repo/.github/pitcrew", dev: 1, ino: 4 }],
      }),
      { argv: ["true"] },
    );
    const github = at(nested, "--ro-bind", "/w/repo/.github", "/w/repo/.github");
    // pitcrew/ is bound twice: pinned (before every read-only mount), then writable after .github.
    const own = find(nested, "--bind").findLast(
      (index) => nested[index + 1] === "/w/repo/.github/pitcrew",
    );
    assert.ok(own !== undefined);
    const locked = at(
      nested,
      "--ro-bind",
      "/w/repo/.github/pitcrew/locked",
      "/w/repo/.github/pitcrew/locked",
    );
    const makefile = at(nested, "--ro-bind", "/w/repo/Makefile", "/w/repo/Makefile");
    assert.ok(
      github < own && own < locked,
      "read-only .github, writable pitcrew/, read-only again",
    );
    assert.ok(makefile < own, "a file at the same depth as .github keeps its place");
  });

  test("no sizes given twice, no tmpfs size on a hidden path, only the three sized mounts", () => {
    const sized = find(args, "--size").map((index) => args[index + 3]);
    assert.deepEqual(sized, ["/tmp", "/dev/shm", "/h/user"]);
  });

  test("an empty policy still masks home and binds the workspace", () => {
    const bare = bwrapArgs(policy(), { argv: ["true"] });
    at(bare, "--tmpfs", "/h/user");
    at(bare, "--bind", "/w/repo", "/w/repo");
    assert.ok(!bare.includes("--remount-ro"));
  });
});

describe("bwrapArgs: the spill folder", () => {
  const spill = { source: "/state/spill", target: "/tmp/pitcrew-spill" };
  const args = bwrapArgs(
    policy({
      spill,
      homeReadOnly: ["/h/user/.rustup"],
      hidden: ["/run"],
      readOnly: [{ path: "/w/repo/.git", dev: 1, ino: 2 }],
    }),
    { argv: ["true"] },
  );

  test("bound read-only once, never writable", () => {
    at(args, "--ro-bind", spill.source, spill.target);
    assert.equal(
      mounts(args).filter(({ source, dest }) => source === spill.source || dest === spill.target)
        .length,
      1,
    );
  });

  test("its mount point is made in the fresh /tmp tmpfs: after /tmp, hidden paths and home; before the workspace", () => {
    const bind = at(args, "--ro-bind", spill.source, spill.target);
    assert.ok(at(args, "--tmpfs", "/tmp") < bind);
    assert.ok(at(args, "--tmpfs", "/run") < bind);
    assert.ok(at(args, "--tmpfs", "/h/user") < bind);
    assert.ok(at(args, "--ro-bind", "/h/user/.rustup", "/h/user/.rustup") < bind);
    assert.ok(bind < at(args, "--bind", "/w/repo", "/w/repo"));
  });

  test("nothing mounted after it covers it", () => {
    const list = mounts(args);
    const index = list.findIndex(({ dest }) => dest === spill.target);
    for (const { op, dest } of list.slice(index + 1)) {
      assert.ok(!isInside(spill.target, dest) || op === "--remount-ro", `${op} ${dest}`);
    }
  });

  test("a policy without a spill folder mounts none", () => {
    assert.ok(!bwrapArgs(policy(), { argv: ["true"] }).includes("/tmp/pitcrew-spill"));
  });
});

describe("bwrapArgs: working directory and seccomp", () => {
  test("--chdir defaults to the workspace", () => {
    const args = bwrapArgs(policy(), { argv: ["true"] });
    at(args, "--chdir", "/w/repo");
  });

  test("--chdir takes the command's cwd", () => {
    const args = bwrapArgs(policy(), { argv: ["true"], cwd: "/w/repo/pkg" });
    at(args, "--chdir", "/w/repo/pkg");
    assert.equal(find(args, "--chdir", "/w/repo").length, 0);
  });

  test("--seccomp only when a descriptor is given, and names it", () => {
    assert.ok(!bwrapArgs(policy(), { argv: ["true"] }).includes("--seccomp"));
    const args = bwrapArgs(policy(), { argv: ["true"], seccompFd: 3 });
    const seccomp = at(args, "--seccomp", "3");
    assert.ok(seccomp < args.indexOf("--"));
    at(bwrapArgs(policy(), { argv: ["true"], seccompFd: 0 }), "--seccomp", "0");
  });
});

describe("bwrapArgs on resolved policies (real temp checkouts)", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-bwrap-test-")));
  after(() => rmSync(root, { recursive: true, force: true }));

  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
    });

  // A GitHub-hosted layout: the workspace and RUNNER_TEMP under $HOME.
  const home = join(root, "home");
  const workspace = join(home, "work", "repo", "repo");
  const runnerTemp = join(home, "work", "_temp");
  const outsideTemp = join(root, "selfhosted-temp");
  for (const dir of [
    workspace,
    runnerTemp,
    outsideTemp,
    join(home, ".cargo", "bin"),
    join(home, ".m2", "repository"),
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  mkdirSync(join(workspace, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
  mkdirSync(join(workspace, ".githooks"));
  git(workspace, "init", "-q");
  git(workspace, "config", "core.hooksPath", ".githooks");
  const token = "ghs_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  git(workspace, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${basic}`);
  git(workspace, "remote", "add", "origin", `https://x-access-token:${token}@github.com/o/r`);

  const secrets: Record<string, string> = {
    GITHUB_TOKEN: token,
    GH_TOKEN: "ghp_" + "Z".repeat(36),
    OPENAI_API_KEY: "sk-proj-" + "q".repeat(40),
    ANTHROPIC_API_KEY: "sk-ant-" + "w".repeat(40),
    INPUT_API_KEY: "sk-input-" + "e".repeat(30),
    INPUT_GITHUB_TOKEN: "ghs_" + "r".repeat(36),
    ACTIONS_RUNTIME_TOKEN: "eyJ0eXAiOiJKV1Qi" + "t".repeat(40),
    ACTIONS_ID_TOKEN_REQUEST_URL: "https://oidc.example/xyz-secret-url",
    AWS_SECRET_ACCESS_KEY: "aws" + "y".repeat(37),
    AWS_SESSION_TOKEN: "awssession" + "u".repeat(30),
    NPM_AUTH: "npm_" + "i".repeat(36),
    DB_PASSWORD: "hunter2-but-longer",
    SSH_AUTH_SOCK: "/tmp/ssh-agent.sock-secret",
    NODE_OPTIONS: "--require /tmp/evil-preload.js",
    LD_PRELOAD: "/tmp/evil.so",
    RUNNER_TEMP: runnerTemp,
    GITHUB_ENV: join(runnerTemp, "_runner_file_commands", "set_env_secret"),
  };
  const hostEnv = {
    ...secrets,
    HOME: home,
    PATH: [
      join(workspace, "node_modules", ".bin"),
      join(home, ".cargo", "bin"),
      join(home, "work"),
      "/usr/bin",
      "/bin",
    ].join(":"),
    LANG: "C.UTF-8",
    CI: "true",
    GITHUB_WORKSPACE: workspace,
  };
  const stateDir = join(root, "state");
  mkdirSync(stateDir);
  const resolved = resolvePolicy(
    { ...DEFAULT_SETTINGS, backend: "bwrap", extraHidden: [outsideTemp] },
    { workspace, env: hostEnv, stateDir },
  );
  const args = bwrapArgs(resolved, { argv: ["bash", "-c", "env"], seccompFd: 3 });

  test("the resolved policy has the parts these invariants are about", () => {
    assert.deepEqual(
      resolved.readOnly.map(({ path }) => path),
      [
        join(workspace, ".git"),
        join(workspace, ".githooks"),
        join(workspace, ".github", "workflows"),
        join(workspace, ".github"),
      ],
    );
    assert.deepEqual(
      resolved.writable.map(({ path }) => path),
      [join(workspace, ".github", "pitcrew")],
    );
    assert.deepEqual(
      resolved.overlays.map(({ target }) => target),
      [join(workspace, ".git", "config")],
    );
    assert.ok(resolved.hidden.includes(outsideTemp));
    assert.ok(
      !resolved.hidden.includes(runnerTemp),
      "RUNNER_TEMP under HOME is masked by the home tmpfs",
    );
    assert.ok(resolved.homeReadOnly.includes(join(home, ".cargo", "bin")));
  });

  test("no mount destination inside the workspace except the workspace, its pinned folders, its read-only paths, pitcrew's folder and overlays", () => {
    const pinned = new Set(resolved.pinned.map(({ path }) => path));
    const writable = new Set(resolved.writable.map(({ path }) => path));
    const readOnly = resolved.readOnly.map(({ path }) => path);
    const allowed = new Set([
      workspace,
      ...pinned,
      ...readOnly,
      ...writable,
      ...resolved.overlays.map(({ target }) => target),
    ]);
    const inside = mounts(args).filter(({ dest }) => isInside(dest, workspace));
    assert.ok(inside.length >= 4);
    for (const { op, dest } of inside) {
      assert.ok(allowed.has(dest), `${op} ${dest} is a mount point the agent could play with`);
      if (writable.has(dest)) {
        assert.ok(
          readOnly.some((path) => path !== dest && isInside(dest, path)),
          `${dest} is writable only inside a read-only folder, which it cannot leave`,
        );
      } else if (dest !== workspace && !pinned.has(dest))
        assert.equal(op, "--ro-bind", `${dest} must be read-only`);
    }
    assert.ok(
      !resolved.homeReadOnly.some((dir) => isInside(dir, workspace) || isInside(workspace, dir)),
      "PATH entries inside the workspace, or containing it, are not bound",
    );
  });

  test("writable binds are the workspace and its pinned folders (onto themselves), pitcrew's folder after its read-only parent, then only read-only mounts", () => {
    const list = mounts(args);
    const pinned = resolved.pinned.map(({ path }) => path);
    const own = join(workspace, ".github", "pitcrew");
    assert.ok(pinned.includes(join(workspace, ".github")));
    assert.deepEqual(
      list.filter(({ op }) => op === "--bind").map(({ dest }) => dest),
      [workspace, ...pinned, own],
    );
    const github = list.findIndex(
      ({ op, dest }) => op === "--ro-bind" && dest === join(workspace, ".github"),
    );
    const ownBind = list.findIndex(({ op, dest }) => op === "--bind" && dest === own);
    assert.ok(
      github >= 0 && github < ownBind,
      "the read-only .github first, then its writable part",
    );
    const lastWritable = list.findLastIndex(({ op }) => op === "--bind");
    for (const mount of list.slice(lastWritable + 1)) {
      assert.ok(
        mount.op === "--ro-bind" || mount.op === "--remount-ro",
        `${mount.op} ${mount.dest}`,
      );
    }
  });

  test("no secret value from the host environment appears anywhere in the argv", () => {
    const joined = args.join("\0");
    for (const [name, value] of Object.entries(secrets)) {
      if (name === "RUNNER_TEMP") continue; // a path, hidden rather than secret
      assert.ok(!joined.includes(value), `${name}'s value is in the bwrap argv`);
      assert.ok(!find(args, "--setenv", name).length, `${name} is passed into the sandbox`);
    }
    assert.ok(!joined.includes(basic), "the extraheader's base64 credential is in the argv");
    assert.ok(!/gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|x-access-token|sk-/i.test(joined));
  });

  test("the sanitised config bound over .git/config holds no credential either", () => {
    const [overlay] = resolved.overlays;
    assert.ok(overlay);
    const text = readFileSync(overlay.source, "utf8");
    assert.ok(!text.includes(token) && !text.includes(basic));
    assert.match(text, /url = "https:\/\/github\.com\/o\/r"/);
    assert.ok(!/extraheader|hookspath/i.test(text));
    assert.ok(isInside(overlay.source, stateDir) && !isInside(overlay.source, workspace));
  });

  test("the spill folder lies in the state folder, outside the workspace, seen at /tmp/pitcrew-spill", () => {
    assert.deepEqual(resolved.spill, {
      source: join(stateDir, "spill"),
      target: "/tmp/pitcrew-spill",
    });
    at(args, "--ro-bind", join(stateDir, "spill"), "/tmp/pitcrew-spill");
    assert.ok(!isInside(join(stateDir, "spill"), workspace));
  });

  test("a symlinked PATH folder under home is not bound", () => {
    const linked = join(home, "linked-bin");
    symlinkSync(join(home, ".cargo", "bin"), linked);
    const again = resolvePolicy(
      { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [] },
      { workspace, env: { ...hostEnv, PATH: `${linked}:/usr/bin` }, stateDir },
    );
    assert.deepEqual(again.homeReadOnly, []);
    assert.ok(!bwrapArgs(again, { argv: ["true"] }).includes(linked));
  });
});
