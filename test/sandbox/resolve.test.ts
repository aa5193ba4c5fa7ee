/**
 * resolvePolicy and its helpers on real folders and real git layouts: worktrees, separate git
 * dirs, submodules, hooks; the refusals; home, PATH and hidden paths; verifyProtected.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { MAX_PATTERN_MOUNTS } from "../../src/sandbox/protected-mounts.ts";
import { DEFAULT_SETTINGS, isInside, pinnedAncestors } from "../../src/sandbox/policy.ts";
import type { Policy, SandboxSettings } from "../../src/sandbox/policy.ts";
import {
  chooseBackend,
  processCount,
  resolvePolicy,
  runnerRoot,
  verifyProtected,
} from "../../src/sandbox/resolve.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-resolve-test-")));
after(() => rmSync(root, { recursive: true, force: true }));

const TOKEN = "ghs_" + "Rz8QkP3mN7vX2cL9wB4tY6hJ1fD5sA0gE8uK";
const GIT_ENV = {
  PATH: "/usr/bin:/bin",
  HOME: root,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_ALLOW_PROTOCOL: "file",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main", ...args],
    {
      cwd,
      encoding: "utf8",
      env: GIT_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    },
  ).trim();
}

let counter = 0;
/** A fresh folder under the test root. */
function fresh(name: string): string {
  const dir = join(root, `${counter++}-${name}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A repository with one commit. */
function repo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  writeFileSync(join(dir, "README"), "hi\n");
  git(dir, "add", "README");
  git(dir, "commit", "-q", "-m", "one");
  return dir;
}

const HOME = fresh("home");
const settings = (overrides: Partial<SandboxSettings> = {}): SandboxSettings => ({
  ...DEFAULT_SETTINGS,
  backend: "bwrap",
  homeReadOnly: [],
  ...overrides,
});

function resolveIn(
  workspace: string,
  options: { settings?: Partial<SandboxSettings>; env?: Record<string, string> } = {},
): Policy {
  return resolvePolicy(settings(options.settings), {
    workspace,
    env: { HOME, PATH: "/usr/bin:/bin", ...options.env },
    stateDir: fresh("state"),
  });
}

/** For tests of git layouts: leave `.github` and its workflows (protected by default) out. */
const GIT_ONLY = { settings: { protectWorkflows: false, protectedPaths: [] } };
const paths = (policy: Policy): string[] => policy.readOnly.map(({ path }) => path);
const targets = (policy: Policy): string[] => policy.overlays.map(({ target }) => target);

function refusal(code: string, ...parts: string[]): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof PitcrewError, String(error));
    assert.equal(error.code, code, error.message);
    for (const part of parts)
      assert.ok(error.message.includes(part), `${part} in ${error.message}`);
    return true;
  };
}

describe("resolvePolicy: git layouts", () => {
  test("a plain checkout: .git read-only, its config replaced, the workspace by its real path", () => {
    const workspace = repo(fresh("plain"));
    mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
    const link = join(fresh("links"), "ws");
    symlinkSync(workspace, link);
    const policy = resolveIn(link);
    assert.equal(policy.workspace, workspace);
    assert.deepEqual(paths(policy), [
      join(workspace, ".git"),
      join(workspace, ".github", "workflows"),
      join(workspace, ".github"),
    ]);
    assert.deepEqual(
      policy.writable.map(({ path }) => path),
      [join(workspace, ".github", "pitcrew")],
    );
    assert.deepEqual(targets(policy), [join(workspace, ".git", "config")]);
    assert.equal(policy.home, HOME);
    assert.equal(policy.env.HOME, HOME);
    assert.equal(policy.env.TMPDIR, "/tmp");
    for (const entry of policy.readOnly) {
      assert.ok(entry.ino > 0 && Number.isInteger(entry.dev));
    }
  });

  test("no .git at all: nothing protected but .github and its workflows, no overlays", () => {
    const workspace = fresh("nogit");
    mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
    const policy = resolveIn(workspace);
    assert.deepEqual(paths(policy), [
      join(workspace, ".github", "workflows"),
      join(workspace, ".github"),
    ]);
    assert.deepEqual(policy.overlays, []);
    assert.deepEqual(paths(resolveIn(workspace, GIT_ONLY)), []);
  });

  test("a worktree: its .git file is followed to the gitdir and the commondir's config", () => {
    const base = fresh("worktree");
    const main = repo(join(base, "main"));
    git(main, "config", "extensions.worktreeConfig", "true");
    git(main, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${TOKEN}`);
    const workspace = join(base, "wt");
    git(main, "worktree", "add", "-q", workspace, "-b", "feature");
    git(
      workspace,
      "config",
      "--worktree",
      "remote.origin.url",
      `https://x-access-token:${TOKEN}@github.com/o/r`,
    );
    assert.match(readFileSync(join(workspace, ".git"), "utf8"), /^gitdir: /);

    const policy = resolveIn(workspace, GIT_ONLY);
    const gitDir = join(main, ".git", "worktrees", "wt");
    assert.deepEqual(
      paths(policy),
      [join(workspace, ".git")],
      "git dirs outside the workspace are read-only anyway",
    );
    assert.deepEqual(targets(policy), [
      join(main, ".git", "config"),
      join(gitDir, "config.worktree"),
    ]);
    for (const { source } of policy.overlays) {
      const text = readFileSync(source, "utf8");
      assert.ok(!text.includes(TOKEN) && !/extraheader/i.test(text), text);
    }
    assert.match(
      readFileSync(policy.overlays[1]?.source ?? "", "utf8"),
      /url = "https:\/\/github\.com\/o\/r"/,
    );
  });

  test("a worktree whose git dirs lie inside the workspace: gitdir and commondir are protected", () => {
    const base = fresh("worktree-inside");
    const main = repo(join(base, "main"));
    const workspace = join(base, "ws");
    git(main, "worktree", "add", "-q", workspace, "-b", "feature");
    // Move the main repository into the worktree's folder and let git repair the links.
    renameSync(main, join(workspace, ".main"));
    git(join(workspace, ".main"), "worktree", "repair", workspace);
    assert.equal(git(workspace, "rev-parse", "--is-inside-work-tree"), "true");

    const policy = resolveIn(workspace, GIT_ONLY);
    const commonDir = join(workspace, ".main", ".git");
    assert.deepEqual(paths(policy), [
      join(workspace, ".git"),
      join(commonDir, "worktrees", "ws"),
      commonDir,
    ]);
    assert.deepEqual(targets(policy), [join(commonDir, "config")]);
  });

  test("a separate git dir inside the workspace (relative gitdir:) is protected with .git", () => {
    const workspace = fresh("separate");
    git(workspace, "init", "-q", "--separate-git-dir", join(workspace, ".realgit"));
    writeFileSync(join(workspace, ".git"), "gitdir: .realgit\n");
    assert.equal(git(workspace, "rev-parse", "--git-dir"), join(workspace, ".realgit"));
    const policy = resolveIn(workspace, GIT_ONLY);
    assert.deepEqual(paths(policy), [join(workspace, ".git"), join(workspace, ".realgit")]);
    assert.deepEqual(targets(policy), [join(workspace, ".realgit", "config")]);
  });

  test("a .git file naming no gitdir is refused", () => {
    const workspace = fresh("badgitfile");
    writeFileSync(join(workspace, ".git"), "not a gitfile\n");
    assert.throws(
      () => resolveIn(workspace),
      refusal("sandbox-bad-gitfile", join(workspace, ".git")),
    );
  });

  test("submodule configs under .git/modules (nested too) are replaced by sanitised copies", () => {
    const base = fresh("submodules");
    const inner = repo(join(base, "inner"));
    const lib = repo(join(base, "lib"));
    git(lib, "submodule", "add", "-q", inner, "inner");
    git(lib, "commit", "-q", "-m", "inner");
    const workspace = repo(join(base, "ws"));
    git(workspace, "submodule", "add", "-q", lib, "lib");
    git(workspace, "submodule", "update", "-q", "--init", "--recursive");
    const libConfig = join(workspace, ".git", "modules", "lib", "config");
    const innerConfig = join(workspace, ".git", "modules", "lib", "modules", "inner", "config");
    assert.ok(existsSync(innerConfig), "git put the nested submodule's config there");
    for (const config of [libConfig, innerConfig]) {
      execFileSync("git", [
        "config",
        "--file",
        config,
        "http.https://github.com/.extraheader",
        `AUTHORIZATION: basic ${TOKEN}`,
      ]);
      execFileSync("git", ["config", "--file", config, "core.fsmonitor", "/tmp/evil"]);
    }

    const policy = resolveIn(workspace, GIT_ONLY);
    assert.deepEqual(targets(policy), [join(workspace, ".git", "config"), libConfig, innerConfig]);
    for (const { source, target } of policy.overlays) {
      const text = readFileSync(source, "utf8");
      assert.ok(!text.includes(TOKEN) && !/extraheader|fsmonitor/i.test(text), target);
      assert.match(text, /repositoryformatversion/);
    }
    assert.deepEqual(
      new Set(policy.overlays.map(({ source }) => source)).size,
      3,
      "one copy per config",
    );
  });

  test("an in-tree core.hooksPath is protected; one outside the tree or missing is not", () => {
    for (const [value, expected] of [
      [".githooks", ".githooks"],
      ["./tools/hooks", "tools/hooks"],
      ["/usr/share/hooks-outside", null],
      ["missing-hooks", null],
    ] as const) {
      const workspace = repo(fresh("hooks"));
      mkdirSync(join(workspace, ".githooks"));
      mkdirSync(join(workspace, "tools", "hooks"), { recursive: true });
      git(workspace, "config", "core.hooksPath", value);
      const policy = resolveIn(workspace, GIT_ONLY);
      assert.deepEqual(
        paths(policy),
        expected === null
          ? [join(workspace, ".git")]
          : [join(workspace, ".git"), join(workspace, expected)],
        value,
      );
      assert.ok(!/hookspath/i.test(readFileSync(policy.overlays[0]?.source ?? "", "utf8")));
    }
  });
});

describe("resolvePolicy: refusals", () => {
  test(".github as a symlink is refused, even pointing at a real workflows folder", () => {
    const workspace = repo(fresh("symlinked-github"));
    const elsewhere = fresh("real-github");
    mkdirSync(join(elsewhere, "workflows"));
    symlinkSync(elsewhere, join(workspace, ".github"));
    assert.throws(
      () => resolveIn(workspace),
      refusal("sandbox-protected-symlink", ".github is a symbolic link"),
    );
    const dangling = repo(fresh("dangling-github"));
    symlinkSync(join(root, "nowhere"), join(dangling, ".github"));
    assert.throws(() => resolveIn(dangling), refusal("sandbox-protected-symlink"));
  });

  test(".github/workflows or .git as a symlink is refused", () => {
    const workspace = repo(fresh("symlinked-workflows"));
    mkdirSync(join(workspace, ".github"));
    symlinkSync(fresh("wf"), join(workspace, ".github", "workflows"));
    assert.throws(() => resolveIn(workspace), refusal("sandbox-protected-symlink", "workflows"));
    const linkedGit = fresh("symlinked-git");
    const real = repo(fresh("real-repo"));
    symlinkSync(join(real, ".git"), join(linkedGit, ".git"));
    assert.throws(() => resolveIn(linkedGit), refusal("sandbox-protected-symlink", ".git"));
  });

  test("a workspace containing HOME, or /, is too wide", () => {
    const workspace = fresh("too-wide");
    const home = join(workspace, "home", "me");
    mkdirSync(home, { recursive: true });
    assert.throws(
      () => resolveIn(workspace, { env: { HOME: home } }),
      refusal("sandbox-workspace-too-wide", workspace, home),
    );
    assert.throws(() => resolveIn(HOME, { env: { HOME } }), refusal("sandbox-workspace-too-wide"));
    assert.throws(() => resolveIn("/"), refusal("sandbox-workspace-too-wide"));
  });

  test("RUNNER_TEMP or an extra hidden path inside the workspace is refused", () => {
    const workspace = fresh("temp-inside");
    mkdirSync(join(workspace, "_temp"));
    assert.throws(
      () => resolveIn(workspace, { env: { RUNNER_TEMP: join(workspace, "_temp") } }),
      refusal("sandbox-hidden-inside-workspace", join(workspace, "_temp")),
    );
    assert.throws(
      () => resolveIn(workspace, { settings: { extraHidden: [join(workspace, "_temp")] } }),
      refusal("sandbox-hidden-inside-workspace"),
    );
    assert.throws(
      () => resolveIn(workspace, { settings: { extraHidden: [workspace] } }),
      refusal("sandbox-hidden-inside-workspace"),
    );
  });

  test("a workspace that is not a folder is refused", () => {
    const file = join(fresh("file"), "f");
    writeFileSync(file, "");
    assert.throws(() => resolveIn(file), refusal("sandbox-no-workspace", file));
    assert.throws(() => resolveIn(join(root, "absent")), refusal("sandbox-no-workspace"));
  });
});

describe("resolvePolicy: home, PATH and hidden paths", () => {
  test("hidden: RUNNER_TEMP and extra paths outside home, /run; not ones under home or missing", () => {
    const workspace = fresh("hidden");
    const temp = fresh("runner-temp");
    const extra = fresh("extra-hidden");
    const underHome = join(HOME, "work", "_temp");
    mkdirSync(underHome, { recursive: true });
    const policy = resolveIn(workspace, {
      env: { RUNNER_TEMP: temp },
      settings: { extraHidden: [extra, underHome, join(root, "missing"), extra] },
    });
    assert.ok(policy.hidden.includes(temp));
    assert.ok(policy.hidden.includes(extra));
    assert.ok(policy.hidden.includes("/run"));
    assert.ok(!policy.hidden.includes(underHome), "the home tmpfs masks it already");
    assert.ok(!policy.hidden.some((path) => path.includes("missing")));
    assert.equal(new Set(policy.hidden).size, policy.hidden.length);
    const underHomeTemp = resolveIn(workspace, { env: { RUNNER_TEMP: underHome } });
    assert.ok(!underHomeTemp.hidden.includes(underHome));
  });

  test("homeReadOnly: only existing folders reached without symlinks, strictly inside home", () => {
    const home = fresh("home-ro");
    mkdirSync(join(home, ".cargo", "bin"), { recursive: true });
    mkdirSync(join(home, ".rustup"));
    const m2 = fresh("m2-elsewhere");
    mkdirSync(join(m2, "repository"));
    symlinkSync(m2, join(home, ".m2"));
    mkdirSync(join(home, ".gradle"));
    symlinkSync(join(home, ".rustup"), join(home, ".gradle", "caches"));
    writeFileSync(join(home, "file.txt"), "");
    const policy = resolveIn(fresh("ws"), {
      env: { HOME: home },
      settings: {
        homeReadOnly: [
          ".cargo/bin",
          ".rustup",
          ".m2/repository",
          ".gradle/caches",
          ".missing",
          "file.txt",
          "..",
          "../x",
          "",
          "/usr",
        ],
      },
    });
    assert.deepEqual(policy.homeReadOnly, [join(home, ".cargo", "bin"), join(home, ".rustup")]);
  });

  test("PATH entries under HOME are bound, others and relative ones are not", () => {
    const home = fresh("home-path");
    mkdirSync(join(home, ".local", "bin"), { recursive: true });
    mkdirSync(join(home, "tools", "bin"), { recursive: true });
    const policy = resolveIn(fresh("ws"), {
      env: {
        HOME: home,
        PATH: [
          join(home, ".local", "bin"),
          "relative/bin",
          join(home, "tools", "bin"),
          "/usr/bin",
          join(home, "gone"),
        ].join(":"),
      },
      settings: { homeReadOnly: [".local/bin"] },
    });
    assert.deepEqual(policy.homeReadOnly, [
      join(home, ".local", "bin"),
      join(home, "tools", "bin"),
    ]);
    assert.equal(
      policy.env.PATH?.split(":")[0],
      join(home, ".local", "bin"),
      "PATH itself passes unchanged",
    );
  });

  test("a home folder inside the workspace, or containing it, is not bound", () => {
    const home = fresh("home-ws");
    const workspace = join(home, "work", "repo");
    mkdirSync(join(workspace, "node_modules", ".bin"), { recursive: true });
    const policy = resolveIn(workspace, {
      env: {
        HOME: home,
        PATH: `${join(workspace, "node_modules", ".bin")}:${join(home, "work")}:/usr/bin`,
      },
      settings: { homeReadOnly: ["work", "work/repo/node_modules"] },
    });
    assert.deepEqual(policy.homeReadOnly, []);
  });

  test("the default homeReadOnly list binds what exists", () => {
    const home = fresh("home-default");
    mkdirSync(join(home, ".cargo", "registry"), { recursive: true });
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=secret\n");
    const policy = resolveIn(fresh("ws"), {
      env: { HOME: home },
      settings: { homeReadOnly: [...DEFAULT_SETTINGS.homeReadOnly] },
    });
    assert.deepEqual(policy.homeReadOnly, [join(home, ".cargo", "registry")]);
  });

  test("the environment is allowlisted from the given host env, not this process's", () => {
    const policy = resolveIn(fresh("ws"), {
      env: { GITHUB_TOKEN: TOKEN, OPENAI_API_KEY: "sk-x", RUNNER_OS: "Linux", LANG: "C" },
    });
    assert.deepEqual(Object.keys(policy.env).sort(), [
      "CI",
      "HOME",
      "LANG",
      "PATH",
      "RUNNER_OS",
      "TMPDIR",
    ]);
    assert.throws(
      () => resolveIn(fresh("ws"), { settings: { extraEnv: ["GITHUB_TOKEN"] } }),
      refusal("sandbox-env-refused", "GITHUB_TOKEN"),
    );
  });
});

describe("resolvePolicy: the seatbelt backend", () => {
  test("no overlays, a private TMPDIR in the state folder, a token in .git/config refused", () => {
    const workspace = repo(fresh("seatbelt"));
    const stateDir = fresh("seatbelt-state");
    const policy = resolvePolicy(settings({ backend: "seatbelt" }), {
      workspace,
      env: { HOME, PATH: "/usr/bin:/bin" },
      stateDir,
    });
    assert.equal(policy.backend, "seatbelt");
    assert.deepEqual(policy.overlays, []);
    assert.equal(policy.env.TMPDIR, join(stateDir, "tmp"));

    git(
      workspace,
      "config",
      "http.https://github.com/.extraheader",
      `AUTHORIZATION: basic ${TOKEN}`,
    );
    assert.throws(
      () =>
        resolvePolicy(settings({ backend: "seatbelt" }), { workspace, env: { HOME }, stateDir }),
      refusal(
        "sandbox-token-in-git-config",
        join(workspace, ".git", "config"),
        "persist-credentials: false",
      ),
    );
  });
});

describe("verifyProtected", () => {
  function setup(): { workspace: string; policy: Policy } {
    const workspace = repo(fresh("verify"));
    mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
    writeFileSync(join(workspace, ".github", "workflows", "ci.yml"), "on: push\n");
    return { workspace, policy: resolveIn(workspace) };
  }
  const moved = (path: string) => refusal("sandbox-protected-path-moved", path);

  test("passes while nothing changed, including edits inside the protected folders", () => {
    const { workspace, policy } = setup();
    verifyProtected(policy);
    writeFileSync(join(workspace, ".github", "workflows", "ci.yml"), "on: pull_request\n");
    writeFileSync(join(workspace, "new-file"), "x");
    verifyProtected(policy);
  });

  test("renaming .github away is caught, and restoring it passes again", () => {
    const { workspace, policy } = setup();
    renameSync(join(workspace, ".github"), join(workspace, ".github-old"));
    assert.throws(() => verifyProtected(policy), moved(".github"));
    renameSync(join(workspace, ".github-old"), join(workspace, ".github"));
    verifyProtected(policy);
  });

  test("a new folder in the old place is caught (another inode)", () => {
    const { workspace, policy } = setup();
    renameSync(join(workspace, ".github"), join(workspace, ".github-old"));
    mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
    assert.throws(() => verifyProtected(policy), moved(".github"));
  });

  test("a protected path swapped for a symlink is refused as a symlink", () => {
    const { workspace, policy } = setup();
    renameSync(join(workspace, ".git"), join(workspace, "git-moved"));
    symlinkSync(join(workspace, "git-moved"), join(workspace, ".git"));
    assert.throws(() => verifyProtected(policy), refusal("sandbox-protected-symlink", ".git"));
  });

  test("a deleted protected path is caught", () => {
    const { workspace, policy } = setup();
    rmSync(join(workspace, ".github", "workflows"), { recursive: true });
    assert.throws(() => verifyProtected(policy), moved(join(".github", "workflows")));
  });
});

describe("chooseBackend", () => {
  test("auto picks bwrap on Linux and Seatbelt on macOS", () => {
    assert.equal(chooseBackend(settings({ backend: "auto" }), "linux"), "bwrap");
    assert.equal(chooseBackend(settings({ backend: "auto" }), "darwin"), "seatbelt");
  });

  test("auto refuses other platforms, naming them", () => {
    for (const platform of ["win32", "freebsd"] as const) {
      assert.throws(
        () => chooseBackend(settings({ backend: "auto" }), platform),
        refusal("sandbox-unsupported-platform", platform, "sandbox: none"),
      );
    }
  });

  test("an explicit choice is kept whatever the platform", () => {
    for (const backend of ["bwrap", "seatbelt", "none"] as const) {
      assert.equal(chooseBackend(settings({ backend }), "win32"), backend);
    }
  });
});

describe("isInside", () => {
  test("is about path components, not string prefixes", () => {
    assert.ok(isInside("/a/b", "/a/b"));
    assert.ok(isInside("/a/b/c", "/a/b"));
    assert.ok(!isInside("/a/bc", "/a/b"));
    assert.ok(!isInside("/a", "/a/b"));
    assert.ok(isInside("/a/..b", "/a"));
    assert.ok(isInside("/anything", "/"));
  });
});

describe("names that start with two dots are inside the workspace", () => {
  test("a gitdir named ..gitdir in the workspace is protected", () => {
    const workspace = fresh("dotdot-gitdir");
    git(workspace, "init", "-q", "--separate-git-dir", join(workspace, "..gitdir"));
    writeFileSync(join(workspace, ".git"), "gitdir: ..gitdir\n");
    assert.deepEqual(paths(resolveIn(workspace, GIT_ONLY)), [
      join(workspace, ".git"),
      join(workspace, "..gitdir"),
    ]);
  });

  test("RUNNER_TEMP at <workspace>/..temp is refused", () => {
    const workspace = fresh("dotdot-temp");
    mkdirSync(join(workspace, "..temp"));
    assert.throws(
      () => resolveIn(workspace, { env: { RUNNER_TEMP: join(workspace, "..temp") } }),
      refusal("sandbox-hidden-inside-workspace"),
    );
  });

  test("a PATH folder <workspace>/..bin under home is not bound (no mount point in the workspace)", () => {
    const home = fresh("dotdot-home");
    const workspace = join(home, "ws");
    mkdirSync(join(workspace, "..bin"), { recursive: true });
    const policy = resolveIn(workspace, {
      env: { HOME: home, PATH: `${join(workspace, "..bin")}:/usr/bin` },
    });
    assert.deepEqual(policy.homeReadOnly, []);
  });

  test("a home at <workspace>/..home is too wide", () => {
    const workspace = fresh("dotdot-wide");
    mkdirSync(join(workspace, "..home"));
    assert.throws(
      () => resolveIn(workspace, { env: { HOME: join(workspace, "..home") } }),
      refusal("sandbox-workspace-too-wide"),
    );
  });
});

describe("processCount and runnerRoot", () => {
  test("processCount counts this uid's processes, and none for an unused uid", () => {
    const uid = process.getuid?.() ?? 0;
    const before = processCount(uid);
    assert.ok(before >= 1, "at least this process");
    assert.equal(processCount(2_000_000_123), 0);
  });

  test("processCeiling is the current count plus the allowance", () => {
    const policy = resolveIn(fresh("ws"), {
      settings: { limits: { ...DEFAULT_SETTINGS.limits, processes: 7 } },
    });
    const now = processCount(process.getuid?.() ?? 0);
    assert.ok(
      policy.processCeiling > 7 && Math.abs(policy.processCeiling - 7 - now) < 50,
      String(policy.processCeiling),
    );
  });

  test("runnerRoot walks up to a Runner.Worker ancestor and returns the folder above its bin/", async () => {
    const install = fresh("actions-runner");
    mkdirSync(join(install, "bin"));
    const worker = join(install, "bin", "Runner.Worker");
    copyFileSync("/bin/sh", worker);
    execFileSync("chmod", ["755", worker]);
    // Runner.Worker (a copy of sh) starts sleep and prints its pid; runnerRoot(sleep) finds the worker.
    const child = spawn(worker, ["-c", "sleep 30 & echo $!; wait"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const pid = await new Promise<number>((resolve) =>
      child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    try {
      assert.ok(pid > 1);
      assert.equal(runnerRoot(pid), install);
      assert.equal(runnerRoot(child.pid), install, "the worker itself counts");
    } finally {
      process.kill(pid, "SIGKILL");
      child.kill("SIGKILL");
    }
  });

  test("runnerRoot is null for a process without such an ancestor, or without /proc entry", () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      if (runnerRoot() === null) assert.equal(runnerRoot(child.pid), null);
      assert.equal(runnerRoot(2 ** 22 + 12345), null);
      assert.equal(runnerRoot(1), null);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("resolvePolicy: a repository without workflows", needsBwrap(), () => {
  test(".github/workflows is created to be mounted read-only, and removed again when empty", async () => {
    const workspace = repo(fresh("no-workflows"));
    const workflows = join(workspace, ".github", "workflows");
    const sandbox = await createSandbox(settings({ protectedPaths: [] }), {
      workspace,
      env: { HOME, PATH: "/usr/bin:/bin" },
    });
    assert.deepEqual(sandbox.policy.createdDirs, [join(workspace, ".github"), workflows]);
    assert.ok(paths(sandbox.policy).includes(workflows));
    const result = await sandbox.run({ argv: ["sh", "-c", "touch .github/workflows/evil.yml"] });
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr.text, /Read-only file system/);
    sandbox.dispose();
    assert.equal(existsSync(join(workspace, ".github")), false, "the created folders are removed");
  });

  test("with allow-protected-changes, .github's other files stay editable; only the created workflows folder goes", async () => {
    const workspace = repo(fresh("github-no-workflows"));
    mkdirSync(join(workspace, ".github"));
    writeFileSync(join(workspace, ".github", "dependabot.yml"), "version: 2\n");
    const sandbox = await createSandbox(settings({ protectedPaths: [] }), {
      workspace,
      env: { HOME, PATH: "/usr/bin:/bin" },
    });
    assert.deepEqual(sandbox.policy.createdDirs, [join(workspace, ".github", "workflows")]);
    const result = await sandbox.run({
      argv: ["sh", "-c", "echo '# edited' >> .github/dependabot.yml"],
    });
    assert.equal(result.exitCode, 0, result.stderr.text);
    sandbox.dispose();
    assert.equal(existsSync(join(workspace, ".github", "workflows")), false);
    assert.match(readFileSync(join(workspace, ".github", "dependabot.yml"), "utf8"), /# edited/);
  });
});

describe("resolvePolicy: protected paths", needsBwrap(), () => {
  test("by default all of .github is read-only, pitcrew's own folder writable; created folders go at the end", async () => {
    const workspace = repo(fresh("github-protected"));
    mkdirSync(join(workspace, ".github"));
    writeFileSync(join(workspace, ".github", "dependabot.yml"), "version: 2\n");
    const sandbox = await createSandbox(settings(), {
      workspace,
      env: { HOME, PATH: "/usr/bin:/bin" },
    });
    const own = join(workspace, ".github", "pitcrew");
    assert.deepEqual(sandbox.policy.createdDirs, [join(workspace, ".github", "workflows"), own]);
    assert.deepEqual(sandbox.policy.protectedPatterns, [".github/workflows", ".github"]);
    const script = [
      "(echo '# edited' >> .github/dependabot.yml) && echo yes || echo no",
      "mkdir -p .github/actions/x && echo yes || echo no",
      "(echo x > .github/pitcrew.yml) && echo yes || echo no",
      "mkdir -p .github/pitcrew/skills && (echo ok > .github/pitcrew/skills/fix.md) && echo yes || echo no",
      "mv .github/pitcrew .github/elsewhere && echo yes || echo no",
    ].join("\n");
    const result = await sandbox.run({ argv: ["sh", "-c", script] });
    assert.deepEqual(result.stdout.text.trim().split("\n"), ["no", "no", "no", "yes", "no"]);
    assert.match(result.stderr.text, /Read-only file system/);
    sandbox.dispose();
    assert.equal(readFileSync(join(own, "skills", "fix.md"), "utf8"), "ok\n");
    assert.equal(
      readFileSync(join(workspace, ".github", "dependabot.yml"), "utf8"),
      "version: 2\n",
    );
    assert.equal(existsSync(join(workspace, ".github", "workflows")), false);
    assert.equal(existsSync(join(workspace, ".github", "pitcrew.yml")), false);
  });

  test("a checkout without .github gets an empty read-only one for the session, removed after", async () => {
    const workspace = repo(fresh("no-github"));
    const sandbox = await createSandbox(settings(), {
      workspace,
      env: { HOME, PATH: "/usr/bin:/bin" },
    });
    const result = await sandbox.run({ argv: ["sh", "-c", "mkdir .github/actions"] });
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr.text, /Read-only file system/);
    sandbox.dispose();
    assert.equal(existsSync(join(workspace, ".github")), false);
  });

  test("the repository's globs: existing matches mounted read-only, symlinks and missing paths not", () => {
    const workspace = repo(fresh("globs"));
    mkdirSync(join(workspace, "scripts", "ci"), { recursive: true });
    writeFileSync(join(workspace, "scripts", "ci", "deploy.sh"), "echo\n");
    writeFileSync(join(workspace, "Makefile"), "all:\n");
    mkdirSync(join(workspace, "deep", ".ci"), { recursive: true });
    writeFileSync(join(workspace, "deep", ".ci", "run.sh"), "echo\n");
    writeFileSync(join(workspace, "deep", "keep.txt"), "x\n");
    symlinkSync("Makefile", join(workspace, "link.sh"));
    const policy = resolveIn(workspace, {
      settings: {
        protectWorkflows: false,
        protectedPaths: ["Makefile", "scripts/ci", "**/*.sh", "missing/**", ".github"],
      },
    });
    assert.deepEqual(paths(policy).slice(1), [
      join(workspace, ".github"),
      join(workspace, "Makefile"),
      join(workspace, "scripts", "ci"),
      join(workspace, "deep", ".ci", "run.sh"),
    ]);
    assert.deepEqual(
      policy.pinned.map(({ path }) => path),
      [join(workspace, "deep"), join(workspace, "scripts"), join(workspace, "deep", ".ci")],
    );
  });

  test("a committed .github/pitcrew symlink is never bound writable: it stays inside the read-only .github", () => {
    const workspace = repo(fresh("own-link"));
    const outside = fresh("own-link-target");
    mkdirSync(join(workspace, ".github"));
    symlinkSync(outside, join(workspace, ".github", "pitcrew"));
    const policy = resolveIn(workspace);
    assert.deepEqual(policy.writable, []);
    assert.ok(paths(policy).includes(join(workspace, ".github")));
    assert.ok(!policy.createdDirs.some((dir) => isInside(dir, outside)));
  });

  test("the number of mounts for globs is bounded", () => {
    const workspace = repo(fresh("many"));
    mkdirSync(join(workspace, "gen"));
    for (let index = 0; index < MAX_PATTERN_MOUNTS + 10; index++) {
      writeFileSync(join(workspace, "gen", `f${index}.sh`), "echo\n");
    }
    const policy = resolveIn(workspace, {
      settings: { protectWorkflows: false, protectedPaths: ["gen/*.sh"] },
    });
    assert.equal(paths(policy).length, 1 + MAX_PATTERN_MOUNTS);
  });

  test("a glob inside pitcrew's own folder is mounted read-only inside the writable one", async () => {
    const workspace = repo(fresh("inside-own"));
    mkdirSync(join(workspace, ".github", "pitcrew", "locked"), { recursive: true });
    const sandbox = await createSandbox(
      settings({ protectedPaths: [".github", ".github/pitcrew/locked"] }),
      { workspace, env: { HOME, PATH: "/usr/bin:/bin" } },
    );
    const result = await sandbox.run({
      argv: [
        "sh",
        "-c",
        "touch .github/pitcrew/open.md; echo $?; touch .github/pitcrew/locked/x; echo $?",
      ],
    });
    sandbox.dispose();
    assert.deepEqual(result.stdout.text.trim().split("\n"), ["0", "1"]);
  });
});

describe("pinnedAncestors", () => {
  test("the folders strictly between the workspace and each protected path, outermost first", () => {
    assert.deepEqual(
      pinnedAncestors("/w", [
        "/w/.git",
        "/w/.github/workflows",
        "/w/tools/git/hooks",
        "/elsewhere/x",
      ]),
      ["/w/.github", "/w/tools", "/w/tools/git"],
    );
  });
});
