#!/usr/bin/env node
import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/commands/sandbox.ts
import { parseArgs } from "node:util";

// src/errors.ts
var PitcrewError = class extends Error {
  code;
  constructor(code, message, options) {
    super(message, options);
    this.name = "PitcrewError";
    this.code = code;
  }
};
function describeError(error) {
  if (error instanceof PitcrewError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

// src/sandbox/explain.ts
function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
function explainPolicy(policy, prepared) {
  const list = (items) => items.length === 0 ? "  (none)" : items.map((item) => `  ${item}`).join("\n");
  return [
    `backend: ${policy.backend}`,
    `workspace (writable): ${policy.workspace}`,
    "read-only inside the workspace:",
    list(policy.readOnly.map(({ path }) => path)),
    "pinned (cannot be renamed or replaced; contents stay writable):",
    list(policy.pinned.map(({ path }) => path)),
    "git config replaced by a sanitised copy:",
    list(policy.overlays.map(({ target }) => target)),
    `home (hidden, private tmpfs): ${policy.home}`,
    "bound back read-only from home:",
    list(policy.homeReadOnly),
    "hidden (empty, read-only):",
    list(policy.hidden),
    "network: none",
    `environment: ${Object.keys(policy.env).sort().join(" ")}`,
    `timeout: ${policy.timeoutMs} ms per command`,
    `limits: ${policy.processCeiling} processes for this uid, files up to ${policy.limits.fileSizeBytes} bytes, address space ${policy.limits.addressSpaceBytes || "unlimited"}, output kept ${policy.limits.outputBytes} bytes per stream`,
    "",
    "command line:",
    prepared.argv.map(quote).join(" "),
    ""
  ].join("\n");
}

// src/sandbox/policy.ts
import { isAbsolute, join, relative, sep } from "node:path";
var MiB = 1024 * 1024;
var GiB = 1024 * MiB;
var DEFAULT_HOME_READ_ONLY = [
  ".m2/repository",
  ".gradle/caches",
  ".gradle/wrapper",
  ".cargo/bin",
  ".cargo/registry",
  ".cargo/git",
  ".rustup",
  ".npm/_cacache",
  ".cache/pip",
  ".cache/go-build",
  ".cache/yarn",
  ".cache/ms-playwright",
  "go/pkg/mod",
  "go/bin",
  ".nvm",
  ".pyenv",
  ".rbenv",
  ".local/bin",
  ".local/lib",
  ".dotnet",
  ".nuget/packages",
  ".bun/bin",
  ".deno",
  ".volta",
  ".sdkman/candidates"
];
var DEFAULT_SETTINGS = {
  backend: "auto",
  timeoutMs: 6e4,
  protectWorkflows: true,
  homeReadOnly: [...DEFAULT_HOME_READ_ONLY],
  extraHidden: [],
  extraEnv: [],
  limits: {
    processes: 2048,
    fileSizeBytes: 4 * GiB,
    // V8 reserves ~10 GiB of address space per WebAssembly memory and JVMs reserve their heap up
    // front, so a tight cap breaks ordinary builds; this one stops runaway allocations only.
    addressSpaceBytes: 32 * GiB,
    outputBytes: 4 * MiB
  },
  tmpfsBytes: { tmp: 1 * GiB, devShm: 256 * MiB, home: 1 * GiB }
};
function isInside(path, dir) {
  const rel = relative(dir, path);
  return rel === "" || rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
function pinnedAncestors(workspace, paths) {
  const found = /* @__PURE__ */ new Set();
  for (const path of paths) {
    if (path === workspace || !isInside(path, workspace)) continue;
    const parts = relative(workspace, path).split(sep);
    for (let depth = 1; depth < parts.length; depth++)
      found.add(join(workspace, ...parts.slice(0, depth)));
  }
  return [...found].sort((a, b) => a.split(sep).length - b.split(sep).length || a.localeCompare(b));
}

// src/sandbox/runner.ts
import { spawn } from "node:child_process";
import { readFileSync as readFileSync2, readdirSync as readdirSync2 } from "node:fs";
import { constants } from "node:os";

// src/sandbox/fds.ts
import { closeSync, readFileSync, readdirSync } from "node:fs";
var O_CLOEXEC = 524288;
function inheritableFds() {
  let names;
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const ipc = Number(process.env.NODE_CHANNEL_FD ?? -1);
  return names.map(Number).filter((fd) => fd > 2 && fd !== ipc).filter((fd) => {
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      return flags?.[1] !== void 0 && (parseInt(flags[1], 8) & O_CLOEXEC) === 0;
    } catch {
      return false;
    }
  });
}
function closeInheritedFds() {
  const fds = inheritableFds();
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
    }
  }
  return fds;
}

// src/sandbox/output.ts
var OutputCapture = class {
  #headLimit;
  #tailLimit;
  #head = [];
  #headBytes = 0;
  #tail = [];
  #tailBytes = 0;
  #total = 0;
  constructor(ceiling) {
    this.#headLimit = Math.ceil(ceiling / 2);
    this.#tailLimit = Math.floor(ceiling / 2);
  }
  push(chunk) {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(rest.length, this.#headLimit - this.#headBytes);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#tailLimit) {
      this.#tailBytes -= this.#tail.shift()?.length ?? 0;
    }
  }
  result() {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailLimit) tail = tail.subarray(tail.length - this.#tailLimit);
    const kept = head.length + tail.length;
    if (kept === this.#total) {
      return {
        text: Buffer.concat([head, tail]).toString("utf8"),
        bytes: this.#total,
        truncated: false
      };
    }
    const dropped = this.#total - kept;
    const marker = `
[\u2026 ${dropped} bytes of output dropped by the sandbox's output ceiling \u2026]
`;
    return {
      text: head.toString("utf8") + marker + tail.toString("utf8"),
      bytes: this.#total,
      truncated: true
    };
  }
};

// src/sandbox/runner.ts
var EMPTY = { text: "", bytes: 0, truncated: false };
var DRAIN_MS = 200;
function shellStatus(result) {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : void 0;
  return 128 + (number ?? 0);
}
function signalQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
  }
}
function procState(pid) {
  try {
    const stat = readFileSync2(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}
function descendantsOf(pid) {
  const parents = /* @__PURE__ */ new Map();
  let names;
  try {
    names = readdirSync2("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync2(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...parents.get(ppid) ?? [], Number(name)]);
    } catch {
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift() ?? -1) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
async function killTree(pid, group) {
  signalQuietly(group ? -pid : pid, "SIGSTOP");
  for (let waited = 0; waited < 50; waited++) {
    const state = procState(pid);
    if (state === null || state === "T" || state === "t" || state === "Z") break;
    await new Promise((resolveWait) => setTimeout(resolveWait, 1));
  }
  for (const descendant of descendantsOf(pid)) signalQuietly(descendant, "SIGKILL");
  signalQuietly(group ? -pid : pid, "SIGKILL");
}
function runContained(spec) {
  closeInheritedFds();
  const [program2, ...args] = spec.argv;
  if (program2 === void 0) throw new Error("runContained: empty argv");
  const stdinMode = spec.inheritStdio ? "inherit" : spec.stdin === void 0 ? "ignore" : "pipe";
  const outMode = spec.inheritStdio ? "inherit" : "pipe";
  const stdio = [stdinMode, outMode, outMode];
  if (spec.fd3 !== void 0) stdio.push(spec.fd3);
  const started = performance.now();
  const stdout = new OutputCapture(spec.outputBytes);
  const stderr = new OutputCapture(spec.outputBytes);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program2, args, {
      env: spec.env,
      cwd: spec.cwd,
      stdio,
      detached: spec.killGroup ?? false
    });
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const kill = () => {
      if (child.pid === void 0) return;
      void killTree(child.pid, spec.killGroup ?? false);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout?.on("data", (chunk) => stdout.push(chunk));
    child.stderr?.on("data", (chunk) => stderr.push(chunk));
    if (child.stdin) {
      child.stdin.on("error", () => {
      });
      child.stdin.end(spec.stdin);
    }
    const finish = (exitCode, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      if (spec.killGroup && child.pid !== void 0) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
        }
      }
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        cancelled,
        durationMs: performance.now() - started,
        stdout: spec.inheritStdio ? EMPTY : stdout.result(),
        stderr: spec.inheritStdio ? EMPTY : stderr.result()
      });
    };
    child.on("error", (error) => {
      clearTimeout(timer);
      settled = true;
      reject(
        new PitcrewError("sandbox-start-failed", `Could not start ${program2}: ${error.message}.`, {
          cause: error
        })
      );
    });
    child.on("close", (code, signal) => finish(code, signal));
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_MS).unref();
    });
  });
}

// src/sandbox/sandbox.ts
import {
  closeSync as closeSync2,
  mkdirSync as mkdirSync2,
  mkdtempSync as mkdtempSync2,
  openSync,
  rmSync,
  rmdirSync,
  writeFileSync as writeFileSync2
} from "node:fs";
import { tmpdir as tmpdir2 } from "node:os";
import { join as join3 } from "node:path";

// src/sandbox/bwrap.ts
var BWRAP_HOSTNAME = "pitcrew-sandbox";
function bwrapArgs(policy, command) {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--disable-userns",
    // bwrap keeps every capability inside the namespace when started by root; drop them so a
    // root-run harness cannot remount the read-only binds writable.
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    BWRAP_HOSTNAME,
    "--clearenv"
  ];
  for (const [name, value] of Object.entries(policy.env).sort(([a], [b]) => a.localeCompare(b))) {
    args.push("--setenv", name, value);
  }
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  args.push("--size", String(policy.tmpfsBytes.tmp), "--tmpfs", "/tmp");
  args.push("--size", String(policy.tmpfsBytes.devShm), "--tmpfs", "/dev/shm");
  for (const hidden of policy.hidden) args.push("--tmpfs", hidden);
  args.push("--ro-bind", "/proc/sys", "/proc/sys");
  args.push("--size", String(policy.tmpfsBytes.home), "--tmpfs", policy.home);
  for (const dir of policy.homeReadOnly) args.push("--ro-bind", dir, dir);
  args.push("--bind", policy.workspace, policy.workspace);
  for (const { path } of policy.pinned) args.push("--bind", path, path);
  for (const { path } of policy.readOnly) args.push("--ro-bind", path, path);
  for (const { source, target } of policy.overlays) args.push("--ro-bind", source, target);
  for (const hidden of policy.hidden) args.push("--remount-ro", hidden);
  args.push("--chdir", command.cwd ?? policy.workspace);
  if (command.seccompFd !== void 0) args.push("--seccomp", String(command.seccompFd));
  args.push("--", ...command.argv);
  return args;
}

// src/sandbox/probe.ts
import { execFile } from "node:child_process";
import { existsSync, readFileSync as readFileSync3 } from "node:fs";
import { promisify } from "node:util";
var run = promisify(execFile);
var SAFE_ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" };
var BWRAP_LOCATIONS = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
var APPARMOR_PROFILE_PATH = "/etc/apparmor.d/pitcrew-bwrap";
function apparmorProfile(bwrapPath) {
  return [
    "abi <abi/4.0>,",
    "include <tunables/global>",
    `profile pitcrew-bwrap ${bwrapPath} flags=(unconfined) {`,
    "  userns,",
    "}",
    ""
  ].join("\n");
}
var WORKFLOW_APPARMOR_STEP = `- name: Let bubblewrap create user namespaces
  run: |
    printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap /usr/bin/bwrap flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap
    sudo apparmor_parser -r /etc/apparmor.d/bwrap`;
function diagnose(stderr, facts, bwrapPath) {
  const apparmor = /setting up uid map: Permission denied|loopback: Failed RTM_NEW(ADDR|LINK)/.test(stderr) || facts.apparmorRestrict !== null && facts.apparmorRestrict !== "0";
  if (apparmor) {
    return {
      cause: "apparmor-userns",
      fixes: [
        {
          what: `load an AppArmor profile that lets ${bwrapPath} create user namespaces`,
          commands: [
            { argv: ["tee", APPARMOR_PROFILE_PATH], stdin: apparmorProfile(bwrapPath) },
            { argv: ["apparmor_parser", "-r", APPARMOR_PROFILE_PATH] }
          ]
        },
        {
          what: "turn off kernel.apparmor_restrict_unprivileged_userns",
          commands: [{ argv: ["sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"] }]
        }
      ],
      advice: `Ubuntu's AppArmor forbids unprivileged user namespaces on this runner. Add this step before pitcrew:
${WORKFLOW_APPARMOR_STEP}`
    };
  }
  if (facts.usernsClone === "0" || /No permissions to create new namespace/.test(stderr)) {
    return {
      cause: "userns-disabled",
      fixes: [
        {
          what: "turn on kernel.unprivileged_userns_clone",
          commands: [{ argv: ["sysctl", "-w", "kernel.unprivileged_userns_clone=1"] }]
        }
      ],
      advice: "The kernel does not allow unprivileged user namespaces. Add a step before pitcrew: `sudo sysctl -w kernel.unprivileged_userns_clone=1`."
    };
  }
  if (facts.maxUserNamespaces === "0") {
    return {
      cause: "no-user-namespaces",
      fixes: [
        {
          what: "allow user namespaces (user.max_user_namespaces)",
          commands: [{ argv: ["sysctl", "-w", "user.max_user_namespaces=15000"] }]
        }
      ],
      advice: "user.max_user_namespaces is 0. Add a step before pitcrew: `sudo sysctl -w user.max_user_namespaces=15000`."
    };
  }
  return {
    cause: "unknown",
    fixes: [],
    advice: "bubblewrap could not create its namespaces here. Inside a container, run the job on the runner itself (or give the container --privileged); elsewhere see docs/sandbox.md."
  };
}
function readFact(path) {
  try {
    return readFileSync3(path, "utf8").trim();
  } catch {
    return null;
  }
}
function kernelFacts() {
  return {
    apparmorRestrict: readFact("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    usernsClone: readFact("/proc/sys/kernel/unprivileged_userns_clone"),
    maxUserNamespaces: readFact("/proc/sys/user/max_user_namespaces")
  };
}
function findBwrap(locations = BWRAP_LOCATIONS) {
  return locations.find((path) => existsSync(path)) ?? null;
}
async function succeeds(argv, stdin) {
  const [program2, ...args] = argv;
  if (program2 === void 0) return false;
  try {
    const child = run(program2, args, { env: SAFE_ENV, timeout: 12e4 });
    if (stdin !== void 0) child.child.stdin?.end(stdin);
    await child;
    return true;
  } catch {
    return false;
  }
}
async function hasPasswordlessSudo() {
  return (process.getuid?.() ?? 1) !== 0 && await succeeds(["sudo", "-n", "true"]);
}
async function asRoot(argv, stdin) {
  return succeeds((process.getuid?.() ?? 1) === 0 ? argv : ["sudo", "-n", ...argv], stdin);
}
async function tryNamespaces(bwrapPath) {
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
        "/bin/true"
      ],
      { env: SAFE_ENV, timeout: 3e4 }
    );
    return { ok: true, stderr: "" };
  } catch (error) {
    const stderr = error.stderr ?? String(error);
    return { ok: false, stderr: stderr.trim() };
  }
}
function unavailable(message) {
  return new PitcrewError("sandbox-unavailable", `${message} Nothing was run.`);
}
async function probeBwrap(options = {}) {
  const log = options.log ?? (() => void 0);
  const allowSetup = options.allowSetup ?? true;
  const fixesApplied = [];
  const canRoot = allowSetup && ((process.getuid?.() ?? 1) === 0 || await hasPasswordlessSudo());
  let bwrapPath = findBwrap(options.locations);
  if (bwrapPath === null && canRoot) {
    log("bubblewrap is missing; installing it with apt-get.");
    const installed = await asRoot(["apt-get", "install", "-y", "bubblewrap"]) || await asRoot(["apt-get", "update"]) && await asRoot(["apt-get", "install", "-y", "bubblewrap"]);
    if (installed) fixesApplied.push("installed bubblewrap with apt-get");
    bwrapPath = findBwrap(options.locations);
  }
  if (bwrapPath === null) {
    throw unavailable(
      "bubblewrap (bwrap) is not installed, and pitcrew runs no command without a sandbox. Add a step before pitcrew: `sudo apt-get install -y bubblewrap` (locally: `apt-get install bubblewrap`)."
    );
  }
  const { stdout: versionText } = await run(bwrapPath, ["--version"], { env: SAFE_ENV }).catch(
    () => ({ stdout: "" })
  );
  const version = versionText.trim().replace(/^bubblewrap\s+/, "") || "unknown";
  const { stdout: help } = await run(bwrapPath, ["--help"], { env: SAFE_ENV }).catch(() => ({
    stdout: ""
  }));
  if (!help.includes("--disable-userns")) {
    throw unavailable(
      `bubblewrap ${version} at ${bwrapPath} is too old: pitcrew needs --disable-userns (0.8.0 or later).`
    );
  }
  let attempt = await tryNamespaces(bwrapPath);
  if (attempt.ok) return { bwrapPath, version, fixesApplied };
  const diagnosis = diagnose(attempt.stderr, options.facts ?? kernelFacts(), bwrapPath);
  if (canRoot) {
    for (const fix of diagnosis.fixes) {
      log(`The sandbox cannot start (${diagnosis.cause}); trying to ${fix.what}.`);
      let applied = true;
      for (const command of fix.commands) {
        if (!await asRoot(command.argv, command.stdin)) {
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
    `The sandbox cannot start: ${attempt.stderr || "bwrap failed"}. ${diagnosis.advice}`
  );
}

// src/sandbox/resolve.ts
import {
  existsSync as existsSync2,
  mkdirSync,
  lstatSync,
  mkdtempSync,
  readFileSync as readFileSync4,
  readdirSync as readdirSync3,
  realpathSync,
  statSync
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute as isAbsolute2, join as join2, relative as relative2, resolve, sep as sep2 } from "node:path";

// src/sandbox/env.ts
var ALLOWED_NAMES = /* @__PURE__ */ new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "CI",
  "GITHUB_ACTIONS",
  "GITHUB_WORKSPACE",
  "GITHUB_REPOSITORY",
  "GITHUB_SHA",
  "GITHUB_REF",
  "GITHUB_REF_NAME",
  "GITHUB_BASE_REF",
  "GITHUB_HEAD_REF",
  "RUNNER_OS",
  "RUNNER_ARCH",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "GOMODCACHE",
  "DOTNET_ROOT",
  "NODE_ENV",
  "PYTHONPATH",
  "VIRTUAL_ENV",
  "MAVEN_HOME",
  "GRADLE_HOME"
]);
var ALLOWED_PREFIXES = ["LC_", "JAVA_HOME", "GOROOT_", "ANDROID_", "PITCREW_SANDBOX_"];
var SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH|COOKIE|SESSION|^INPUT_|^ACTIONS_|^GITHUB_TOKEN$|^GH_TOKEN$|^GITHUB_ENV$|^GITHUB_OUTPUT$|^GITHUB_PATH$|^GITHUB_STATE$|^GITHUB_STEP_SUMMARY$|^RUNNER_TEMP$|^NODE_OPTIONS$|^LD_|^BASH_ENV$|^ENV$|^SSH_/i;
function isSecretName(name) {
  return SECRET_NAME.test(name);
}
function checkExtraEnv(names) {
  const bad = names.find(isSecretName);
  if (bad !== void 0) {
    throw new PitcrewError(
      "sandbox-env-refused",
      `The sandbox never receives ${bad}: it looks like a credential or a runner control variable. Remove it from the sandbox env list.`
    );
  }
}
function sandboxEnv(hostEnv, extraNames, fixed) {
  checkExtraEnv(extraNames);
  const extra = new Set(extraNames);
  const env = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === void 0 || isSecretName(name)) continue;
    const allowed = ALLOWED_NAMES.has(name) || extra.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (allowed) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  env.HOME = fixed.home;
  env.TMPDIR = fixed.tmp;
  env.LANG ??= "C.UTF-8";
  env.CI ??= "true";
  return env;
}

// src/sandbox/gitconfig.ts
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
function parseConfigList(raw) {
  return raw.split("\0").filter((record) => record.length > 0).map((record) => {
    const newline = record.indexOf("\n");
    return newline === -1 ? { key: record, value: null } : { key: record.slice(0, newline), value: record.slice(newline + 1) };
  });
}
function splitKey(key) {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first === last)
    return { section: key.slice(0, first), subsection: null, name: key.slice(last + 1) };
  return {
    section: key.slice(0, first),
    subsection: key.slice(first + 1, last),
    name: key.slice(last + 1)
  };
}
var KEEP = {
  core: (name) => !["fsmonitor", "hookspath", "sshcommand", "askpass", "gitproxy"].includes(name),
  extensions: () => true,
  remote: (name) => ["url", "pushurl", "fetch", "tagopt", "prune", "promisor", "partialclonefilter"].includes(name),
  branch: (name) => ["remote", "merge", "rebase", "pushremote"].includes(name),
  submodule: (name) => ["url", "active", "branch", "path"].includes(name),
  user: (name) => ["name", "email"].includes(name),
  init: (name) => name === "defaultbranch",
  gc: () => true,
  pack: () => true,
  index: () => true,
  feature: () => true,
  pull: (name) => ["rebase", "ff"].includes(name)
};
function stripUserinfo(url) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}
function sanitiseEntries(entries) {
  return entries.filter(({ key }) => {
    const { section, name } = splitKey(key);
    return KEEP[section]?.(name) ?? false;
  }).map(({ key, value }) => {
    const { name } = splitKey(key);
    const isUrl = name === "url" || name === "pushurl";
    return { key, value: isUrl && value !== null ? stripUserinfo(value) : value };
  });
}
function quoteSubsection(text) {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}
function quote2(text) {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}
function formatConfig(entries) {
  const groups = /* @__PURE__ */ new Map();
  for (const { key, value } of entries) {
    const { section, subsection, name } = splitKey(key);
    const header = subsection === null ? `[${section}]` : `[${section} "${quoteSubsection(subsection)}"]`;
    const lines = groups.get(header) ?? [];
    lines.push(value === null ? `	${name}` : `	${name} = "${quote2(value)}"`);
    groups.set(header, lines);
  }
  return [...groups].map(([header, lines]) => [header, ...lines].join("\n")).join("\n") + "\n";
}
var TOKEN_PATTERN = /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})|x-access-token|authorization:/i;
function findToken(text) {
  const match = TOKEN_PATTERN.exec(text);
  return match ? match[0] : null;
}
function writeSanitisedConfig(source, target) {
  const raw = execFileSync("git", ["config", "--file", source, "--list", "--null"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" }
  });
  const text = formatConfig(sanitiseEntries(parseConfigList(raw)));
  const token = findToken(text);
  if (token !== null) {
    throw new PitcrewError(
      "sandbox-token-in-git-config",
      `${source} still holds a credential after sanitising; refusing to start. Use actions/checkout with persist-credentials: false.`
    );
  }
  writeFileSync(target, text, { mode: 384 });
}

// src/sandbox/resolve.ts
function chooseBackend(settings, platform = process.platform) {
  if (settings.backend !== "auto") return settings.backend;
  if (platform === "linux") return "bwrap";
  if (platform === "darwin") return "seatbelt";
  throw new PitcrewError(
    "sandbox-unsupported-platform",
    `There is no sandbox for ${platform}. Run on a Linux or macOS runner, or set sandbox: none to run commands unsandboxed (not recommended).`
  );
}
function chain(root, path) {
  const parts = relative2(root, path).split(sep2).filter(Boolean);
  return parts.map((_, index) => join2(root, ...parts.slice(0, index + 1)));
}
function protect(workspace, path) {
  for (const component of chain(workspace, path)) {
    if (lstatSync(component).isSymbolicLink()) {
      throw new PitcrewError(
        "sandbox-protected-symlink",
        `${relative2(workspace, component)} is a symbolic link, so the sandbox cannot keep ${relative2(workspace, path)} read-only. Replace the link with the real folder.`
      );
    }
  }
  const stat = lstatSync(path);
  return { path, dev: stat.dev, ino: stat.ino };
}
function verifyProtected(policy) {
  for (const expected of [...policy.pinned, ...policy.readOnly]) {
    let actual;
    try {
      actual = protect(policy.workspace, expected.path);
    } catch (error) {
      if (error instanceof PitcrewError) throw error;
      actual = { path: expected.path, dev: -1, ino: -1 };
    }
    if (actual.dev !== expected.dev || actual.ino !== expected.ino) {
      throw new PitcrewError(
        "sandbox-protected-path-moved",
        `${relative2(policy.workspace, expected.path)} was moved or replaced since the session began; the sandbox will not start until it is restored (git status shows what changed).`
      );
    }
  }
}
function gitLayout(workspace) {
  const dotGit = join2(workspace, ".git");
  if (!existsSync2(dotGit) && !isSymlink(dotGit)) return null;
  let gitDir = dotGit;
  if (lstatSync(dotGit).isFile()) {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync4(dotGit, "utf8"));
    if (!match?.[1]) {
      throw new PitcrewError(
        "sandbox-bad-gitfile",
        `${dotGit} is a file but names no gitdir; fix or remove it.`
      );
    }
    gitDir = realpathSync(resolve(workspace, match[1].trim()));
  }
  const commondirFile = join2(gitDir, "commondir");
  const commonDir = existsSync2(commondirFile) ? realpathSync(resolve(gitDir, readFileSync4(commondirFile, "utf8").trim())) : gitDir;
  const protectedPaths = [dotGit, gitDir, commonDir].filter(
    (path, index, all) => isInside(path, workspace) && all.indexOf(path) === index
  );
  const configs = [
    join2(commonDir, "config"),
    join2(gitDir, "config.worktree"),
    ...moduleConfigs(join2(commonDir, "modules"), 4)
  ];
  const hooksPath = repoHooksPath(join2(commonDir, "config"), workspace);
  return { protectedPaths, configs: configs.filter((path) => existsSync2(path)), hooksPath };
}
function isSymlink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
function moduleConfigs(dir, depth) {
  if (depth === 0 || !existsSync2(dir)) return [];
  const found = [];
  for (const entry of readdirSync3(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join2(dir, entry.name);
    if (existsSync2(join2(sub, "config"))) found.push(join2(sub, "config"));
    found.push(...moduleConfigs(join2(sub, "modules"), depth - 1));
  }
  return found;
}
function repoHooksPath(configFile, workspace) {
  if (!existsSync2(configFile)) return null;
  const text = readFileSync4(configFile, "utf8");
  const match = /^\s*hookspath\s*=\s*(.+)$/im.exec(text);
  if (!match?.[1]) return null;
  const value = match[1].trim().replace(/^"(.*)"$/, "$1");
  const path = resolve(workspace, value);
  return isInside(path, workspace) && existsSync2(path) ? path : null;
}
function ensureMountPoint(workspace, path) {
  const created = [];
  for (const component of chain(workspace, path)) {
    if (isSymlink(component)) break;
    if (existsSync2(component)) continue;
    mkdirSync(component);
    created.push(component);
  }
  return created;
}
function runnerRoot(pid = process.pid) {
  let current = pid;
  for (let hops = 0; hops < 32 && current > 1; hops++) {
    try {
      const comm = readFileSync4(`/proc/${current}/comm`, "utf8").trim();
      if (comm.startsWith("Runner.Worker") || comm.startsWith("Runner.Listener")) {
        return dirname(dirname(realpathSync(`/proc/${current}/exe`)));
      }
      const stat = readFileSync4(`/proc/${current}/stat`, "utf8");
      current = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return null;
    }
  }
  return null;
}
function processCount(uid) {
  if (!existsSync2("/proc")) return 0;
  let count = 0;
  for (const name of readdirSync3("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) count++;
    } catch {
    }
  }
  return count;
}
function realDir(path) {
  if (!path) return null;
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
function plainDirUnder(home, rel) {
  const path = resolve(home, rel);
  if (!isInside(path, home) || path === home) return null;
  try {
    if (chain(home, path).some((component) => lstatSync(component).isSymbolicLink())) return null;
    return statSync(path).isDirectory() ? path : null;
  } catch {
    return null;
  }
}
function resolvePolicy(settings, options) {
  const backend = chooseBackend(settings);
  const env = options.env ?? process.env;
  const workspace = realDir(options.workspace);
  if (workspace === null) {
    throw new PitcrewError(
      "sandbox-no-workspace",
      `The workspace ${options.workspace} is not a folder.`
    );
  }
  const home = realDir(env.HOME) ?? realpathSync(homedir());
  if (workspace === "/" || isInside(home, workspace)) {
    throw new PitcrewError(
      "sandbox-workspace-too-wide",
      `The workspace ${workspace} contains your home folder ${home}; run pitcrew in the repository's own folder.`
    );
  }
  const hidden = [
    realDir(env.RUNNER_TEMP),
    runnerRoot(),
    "/run",
    isSymlink("/var/run") ? null : realDir("/var/run"),
    ...settings.extraHidden.map((path) => realDir(path))
  ].filter((path) => path !== null && !isInside(path, home));
  const unique = [...new Set(hidden)];
  const insideWorkspace = unique.find((path) => isInside(path, workspace));
  if (insideWorkspace !== void 0) {
    throw new PitcrewError(
      "sandbox-hidden-inside-workspace",
      `${insideWorkspace} must be hidden from the agent but lies inside the workspace ${workspace}; move it out.`
    );
  }
  const pathEntries = (env.PATH ?? "").split(":").filter((entry) => isAbsolute2(entry) && isInside(entry, home));
  const homeReadOnly = [
    .../* @__PURE__ */ new Set([...settings.homeReadOnly, ...pathEntries.map((entry) => relative2(home, entry))])
  ].map((rel) => plainDirUnder(home, rel)).filter(
    (path) => path !== null && !isInside(path, workspace) && !isInside(workspace, path)
  );
  const layout = gitLayout(workspace);
  const protectedPaths = [...layout?.protectedPaths ?? []];
  if (layout?.hooksPath) protectedPaths.push(layout.hooksPath);
  const createdDirs = [];
  if (settings.protectWorkflows) {
    const workflows = join2(workspace, ".github", "workflows");
    createdDirs.push(...ensureMountPoint(workspace, workflows));
    protectedPaths.push(workflows);
  }
  const readOnly = protectedPaths.map((path) => protect(workspace, path));
  const pinned = pinnedAncestors(workspace, protectedPaths).map((path) => protect(workspace, path));
  const stateDir = options.stateDir ?? mkdtempSync(join2(tmpdir(), "pitcrew-sandbox-"));
  const overlays = [];
  for (const [index, config] of (layout?.configs ?? []).entries()) {
    if (backend === "bwrap") {
      const source = join2(stateDir, `gitconfig-${index}`);
      writeSanitisedConfig(config, source);
      overlays.push({ source, target: config });
    } else if (backend === "seatbelt" && findToken(readFileSync4(config, "utf8")) !== null) {
      throw new PitcrewError(
        "sandbox-token-in-git-config",
        `${config} holds a credential that the macOS sandbox cannot hide. Use actions/checkout with persist-credentials: false.`
      );
    }
  }
  const tmp = backend === "seatbelt" ? join2(stateDir, "tmp") : "/tmp";
  const uid = process.getuid?.() ?? 0;
  return {
    backend,
    workspace,
    readOnly,
    pinned,
    createdDirs,
    overlays,
    home,
    homeReadOnly,
    hidden: unique,
    env: sandboxEnv(env, settings.extraEnv, { home, tmp }),
    timeoutMs: settings.timeoutMs,
    limits: { ...settings.limits },
    processCeiling: processCount(uid) + settings.limits.processes,
    tmpfsBytes: { ...settings.tmpfsBytes }
  };
}

// src/sandbox/seccomp.ts
var AUDIT_ARCH = { x64: 3221225534, arm64: 3221225655 };
var DENIED = {
  io_uring_setup: { x64: 425, arm64: 425 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  bpf: { x64: 321, arm64: 280 },
  perf_event_open: { x64: 298, arm64: 241 },
  userfaultfd: { x64: 323, arm64: 282 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  acct: { x64: 163, arm64: 89 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  reboot: { x64: 169, arm64: 142 },
  pivot_root: { x64: 155, arm64: 41 },
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  move_mount: { x64: 429, arm64: 429 },
  open_tree: { x64: 428, arm64: 428 },
  mount_setattr: { x64: 442, arm64: 442 }
};
var IOCTL = { x64: 16, arm64: 29 };
var TIOCSTI = 21522;
var TIOCLINUX = 21532;
var X32_SYSCALL_BIT = 1073741824;
var LD_W_ABS = 32;
var JEQ_K = 21;
var JGE_K = 53;
var RET_K = 6;
var RET_ALLOW = 2147418112;
var RET_EPERM = 327680 | 1;
var OFFSET_NR = 0;
var OFFSET_ARCH = 4;
var OFFSET_ARG1_LOW = 24;
function program(arch) {
  const out = [
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ_K, k: AUDIT_ARCH[arch], jt: null, jf: "deny" },
    { code: LD_W_ABS, k: OFFSET_NR }
  ];
  if (arch === "x64") out.push({ code: JGE_K, k: X32_SYSCALL_BIT, jt: "deny", jf: null });
  for (const numbers of Object.values(DENIED)) {
    out.push({ code: JEQ_K, k: numbers[arch], jt: "deny", jf: null });
  }
  out.push(
    { code: JEQ_K, k: IOCTL[arch], jt: "ioctl", jf: null },
    { code: RET_K, k: RET_ALLOW },
    { code: LD_W_ABS, k: OFFSET_ARG1_LOW, label: "ioctl" },
    { code: JEQ_K, k: TIOCSTI, jt: "deny", jf: null },
    { code: JEQ_K, k: TIOCLINUX, jt: "deny", jf: null },
    { code: RET_K, k: RET_ALLOW },
    { code: RET_K, k: RET_EPERM, label: "deny" }
  );
  return out;
}
function seccompFilter(arch) {
  const instructions = program(arch);
  const labels = /* @__PURE__ */ new Map();
  instructions.forEach((instruction, index) => {
    if (instruction.label) labels.set(instruction.label, index);
  });
  const offset = (from, target) => {
    if (target === null || target === void 0) return 0;
    const jump = (labels.get(target) ?? Number.NaN) - (from + 1);
    if (!(jump >= 0 && jump <= 255)) throw new Error(`seccomp jump to ${target} out of range`);
    return jump;
  };
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(offset(index, instruction.jt), index * 8 + 2);
    bytes.writeUInt8(offset(index, instruction.jf), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
function hostSeccompArch() {
  if (process.arch === "x64") return "x64";
  if (process.arch === "arm64") return "arm64";
  return null;
}

// src/sandbox/seatbelt.ts
var SANDBOX_EXEC = "/usr/bin/sandbox-exec";
function seatbeltProfile(policy, tmp) {
  const params = {
    WORKSPACE: policy.workspace,
    TMP: tmp,
    HOME: policy.home
  };
  const list = (prefix, paths, form) => paths.map((path, index) => {
    params[`${prefix}_${index}`] = path;
    return `(${form} (param "${prefix}_${index}"))`;
  }).join(" ");
  const protectedPaths = policy.readOnly.map(({ path }) => path);
  const hidden = list("HIDDEN", policy.hidden, "subpath");
  const homeReadOnly = list("HOME_RO", policy.homeReadOnly, "subpath");
  const readOnly = list("READONLY", protectedPaths, "subpath");
  const pinned = list(
    "ANCESTOR",
    policy.pinned.map(({ path }) => path),
    "literal"
  );
  const lines = [
    "(version 1)",
    "(deny default)",
    "; processes: fork and exec, but see and signal only this sandbox",
    "(allow process-exec process-fork)",
    "(allow process-info* (target same-sandbox))",
    "(allow signal (target same-sandbox))",
    "(allow mach-priv-task-port (target same-sandbox))",
    "; the few system services ordinary tools need",
    "(allow user-preference-read)",
    "(allow mach-host*)",
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.PowerManagement.control"))',
    "(allow ipc-posix-sem ipc-posix-shm)",
    '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
    '(allow sysctl-read (sysctl-name-prefix "hw.") (sysctl-name-prefix "machdep.cpu.") (sysctl-name-prefix "kern.proc.pid.") (sysctl-name "kern.argmax") (sysctl-name "kern.hostname") (sysctl-name "kern.osrelease") (sysctl-name "kern.ostype") (sysctl-name "kern.osversion") (sysctl-name "kern.version") (sysctl-name "vm.loadavg") (sysctl-name "kern.maxfilesperproc"))',
    "(allow pseudo-tty)",
    '(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))',
    "; files: read broadly, but not the home folder, the runner's folders or other hidden paths",
    "(allow file-read*)",
    `(deny file-read* (subpath (param "HOME"))${hidden ? ` ${hidden}` : ""})`,
    `(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "TMP"))${homeReadOnly ? ` ${homeReadOnly}` : ""})`,
    "; writes: the workspace minus .git and workflows, and a private temporary folder",
    `(allow file-write* (require-all (subpath (param "WORKSPACE"))${readOnly ? ` (require-not (require-any ${readOnly}))` : ""}) (subpath (param "TMP")))`
  ];
  if (pinned) lines.push(`(deny file-write-unlink ${pinned})`);
  lines.push("; no network rule at all: TCP, UDP, unix sockets and DNS stay denied");
  return { profile: lines.join("\n") + "\n", params };
}
function seatbeltArgv(program2, argv) {
  const defines = Object.entries(program2.params).map(([key, value]) => `-D${key}=${value}`);
  return [SANDBOX_EXEC, "-p", program2.profile, ...defines, "--", ...argv];
}

// src/sandbox/sandbox.ts
var BWRAP_ENV = { PATH: "/usr/bin:/bin" };
function limitArgs(policy) {
  const args = [
    `--nproc=${policy.processCeiling}`,
    `--fsize=${policy.limits.fileSizeBytes}`,
    "--core=0"
  ];
  if (policy.limits.addressSpaceBytes > 0) args.push(`--as=${policy.limits.addressSpaceBytes}`);
  return args;
}
async function createSandbox(settings, options) {
  const stateDir = mkdtempSync2(join3(tmpdir2(), "pitcrew-sandbox-"));
  try {
    const policy = resolvePolicy(settings, {
      workspace: options.workspace,
      env: options.env,
      stateDir
    });
    let probe = null;
    let wrap;
    if (policy.backend === "bwrap") {
      probe = await probeBwrap({
        allowSetup: options.allowSetup,
        log: (message) => options.log?.info(message)
      });
      const bwrapPath = probe.bwrapPath;
      const arch = hostSeccompArch();
      const seccompFile = arch ? join3(stateDir, "seccomp.bpf") : void 0;
      if (arch && seccompFile) writeFileSync2(seccompFile, seccompFilter(arch), { mode: 384 });
      wrap = (request) => ({
        argv: [
          "prlimit",
          ...limitArgs(policy),
          "--",
          bwrapPath,
          ...bwrapArgs(policy, {
            argv: request.argv,
            cwd: request.cwd,
            seccompFd: seccompFile ? 3 : void 0
          })
        ],
        seccompFile,
        killGroup: false,
        env: BWRAP_ENV
      });
    } else if (policy.backend === "seatbelt") {
      const tmp = join3(stateDir, "tmp");
      mkdirSync2(tmp, { mode: 448 });
      const program2 = seatbeltProfile(policy, tmp);
      const fileBlocks = Math.floor(policy.limits.fileSizeBytes / 1024);
      wrap = (request) => ({
        argv: [
          "/bin/sh",
          "-c",
          `ulimit -u ${policy.limits.processes} && ulimit -f ${fileBlocks} && exec "$@"`,
          "sh",
          ...seatbeltArgv(program2, request.argv)
        ],
        killGroup: true,
        env: policy.env
      });
    } else {
      options.log?.warning(
        "sandbox: none \u2014 commands run WITHOUT a sandbox: they can read every file this user can, reach the network and write anywhere. Only the environment is cleaned. Use this only where the runner itself is disposable and holds nothing secret."
      );
      wrap = (request) => ({
        argv: ["prlimit", ...limitArgs(policy), "--", ...request.argv],
        killGroup: true,
        env: policy.env
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
        const fd3 = prepared.seccompFile ? openSync(prepared.seccompFile, "r") : void 0;
        try {
          return await runContained({
            argv: prepared.argv,
            env: prepared.env,
            cwd: policy.backend === "bwrap" ? void 0 : request.cwd ?? policy.workspace,
            stdin: request.stdin,
            inheritStdio: request.inheritStdio,
            fd3,
            timeoutMs: request.timeoutMs ?? policy.timeoutMs,
            outputBytes: policy.limits.outputBytes,
            signal: request.signal,
            killGroup: prepared.killGroup
          });
        } finally {
          if (fd3 !== void 0) closeSync2(fd3);
        }
      },
      dispose() {
        rmSync(stateDir, { recursive: true, force: true });
        for (const dir of [...policy.createdDirs].reverse()) {
          try {
            rmdirSync(dir);
          } catch {
          }
        }
      }
    };
  } catch (error) {
    rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
}

// src/commands/sandbox.ts
var EXIT_TIMED_OUT = 124;
var EXIT_SANDBOX_FAILED = 125;
var BACKENDS = ["auto", "bwrap", "seatbelt", "none"];
function parse(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      explain: { type: "boolean", default: false },
      sandbox: { type: "string", default: "auto" },
      timeout: { type: "string" }
    }
  });
  const backend = BACKENDS.find((name) => name === values.sandbox);
  if (backend === void 0) {
    throw new PitcrewError(
      "cli-bad-option",
      `--sandbox must be one of ${BACKENDS.join(", ")}, not '${values.sandbox}'.`
    );
  }
  const timeoutSeconds = values.timeout === void 0 ? DEFAULT_SETTINGS.timeoutMs / 1e3 : Number(values.timeout);
  if (!(timeoutSeconds > 0)) {
    throw new PitcrewError(
      "cli-bad-option",
      `--timeout takes a number of seconds above 0, not '${values.timeout}'.`
    );
  }
  if (positionals.length === 0 && !values.explain) {
    throw new PitcrewError(
      "cli-no-command",
      "Name the command to run after --, for example: pitcrew sandbox -- npm test"
    );
  }
  return {
    settings: { ...DEFAULT_SETTINGS, backend, timeoutMs: timeoutSeconds * 1e3 },
    workspace: values.workspace ?? process.cwd(),
    explain: values.explain,
    argv: positionals.length > 0 ? positionals : ["true"]
  };
}
async function sandboxCommand(args) {
  let parsed;
  try {
    parsed = parse(args);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
`);
    return 2;
  }
  const log = {
    info: (message) => process.stderr.write(`pitcrew: ${message}
`),
    warning: (message) => process.stderr.write(`pitcrew: WARNING: ${message}
`)
  };
  let sandbox;
  try {
    sandbox = await createSandbox(parsed.settings, { workspace: parsed.workspace, log });
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
`);
    return EXIT_SANDBOX_FAILED;
  }
  try {
    if (parsed.explain) {
      process.stdout.write(explainPolicy(sandbox.policy, sandbox.prepare({ argv: parsed.argv })));
      if (sandbox.probe)
        process.stdout.write(`bwrap: ${sandbox.probe.bwrapPath} (${sandbox.probe.version})
`);
      return 0;
    }
    const result = await sandbox.run({ argv: parsed.argv, inheritStdio: true });
    if (result.timedOut) {
      process.stderr.write(
        `pitcrew sandbox: timed out after ${parsed.settings.timeoutMs / 1e3} s; the command and everything it started were killed.
`
      );
      return EXIT_TIMED_OUT;
    }
    return shellStatus(result);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
`);
    return EXIT_SANDBOX_FAILED;
  } finally {
    sandbox.dispose();
  }
}

// src/cli.ts
var USAGE = `usage: pitcrew <command> [options]

commands:
  sandbox [--workspace DIR] [--explain] [--sandbox auto|bwrap|none] [--timeout SECONDS] -- CMD [ARG...]
      Run one command under the exact sandbox policy the agent gets.
      Exit status is the command's; 124 when it timed out; 125 when the sandbox cannot start.
`;
async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "sandbox") return sandboxCommand(rest);
  if (command === void 0 || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return command === void 0 ? 2 : 0;
  }
  process.stderr.write(`pitcrew: unknown command '${command}'
${USAGE}`);
  return 2;
}
process.exitCode = await main(process.argv.slice(2));
