import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  procStat,
  runContained
} from "./chunk-FSDONFOK.js";
import {
  SPILL_MOUNT,
  chain,
  isInside,
  pinnedAncestors
} from "./chunk-P5UMHJDW.js";
import {
  GITHUB_FOLDER,
  PITCREW_FOLDER,
  WORKFLOWS_FOLDER,
  literalPrefix,
  matchesPattern
} from "./chunk-K5VWAPAE.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/sandbox/sandbox.ts
import { mkdirSync as mkdirSync3, mkdtempSync as mkdtempSync2, realpathSync as realpathSync3, rmSync, rmdirSync, writeFileSync as writeFileSync2 } from "node:fs";
import { tmpdir as tmpdir2 } from "node:os";
import { join as join4 } from "node:path";

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
  if (policy.spill) args.push("--ro-bind", policy.spill.source, policy.spill.target);
  args.push("--bind", policy.workspace, policy.workspace);
  for (const { path } of policy.pinned) args.push("--bind", path, path);
  const depth = (path) => path.split("/").length;
  const protectedMounts2 = [
    ...policy.readOnly.map(({ path }) => ({ op: "--ro-bind", path })),
    ...policy.writable.map(({ path }) => ({ op: "--bind", path }))
  ].sort((a, b) => depth(a.path) - depth(b.path));
  for (const { op, path } of protectedMounts2) args.push(op, path, path);
  for (const { source, target } of policy.overlays) args.push("--ro-bind", source, target);
  for (const socket of command.maskedSockets ?? []) args.push("--ro-bind", "/dev/null", socket);
  for (const hidden of policy.hidden) args.push("--remount-ro", hidden);
  args.push("--chdir", command.cwd ?? policy.workspace);
  if (command.seccompFd !== void 0) args.push("--seccomp", String(command.seccompFd));
  args.push("--", ...command.argv);
  return args;
}

// src/sandbox/host-sockets.ts
import { lstatSync, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
function parseUnixTable(text) {
  const paths = [];
  for (const line of text.split("\n").slice(1)) {
    const match = /^\S+:\s+(?:\S+\s+){5}\d+ (\/.*)$/.exec(line);
    if (match?.[1]) paths.push(match[1]);
  }
  return paths;
}
function readOrNull(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
function realSocket(path) {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isSocket() ? real : null;
  } catch {
    return null;
  }
}
function throughRoot(pid, path) {
  try {
    const viaRoot = `/proc/${pid}/root${path}`;
    const real = realpathSync(viaRoot);
    const [a, b] = [lstatSync(viaRoot), lstatSync(real)];
    return a.isSocket() && a.dev === b.dev && a.ino === b.ino ? real : null;
  } catch {
    return null;
  }
}
function hostSocketPaths() {
  const found = /* @__PURE__ */ new Set();
  const add = (path) => {
    if (path !== null) found.add(path);
  };
  const seen = /* @__PURE__ */ new Set();
  const own = "/proc/self/net/unix";
  try {
    seen.add(statSync(own).ino);
  } catch {
    return [];
  }
  for (const path of parseUnixTable(readOrNull(own) ?? "")) add(realSocket(path));
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    pids = [];
  }
  for (const pid of pids) {
    const table = `/proc/${pid}/net/unix`;
    let ino;
    try {
      ino = statSync(table).ino;
    } catch {
      continue;
    }
    if (seen.has(ino)) continue;
    seen.add(ino);
    for (const path of parseUnixTable(readOrNull(table) ?? "")) {
      add(realSocket(path));
      add(throughRoot(pid, path));
    }
  }
  return [...found].sort();
}
function socketMasks(policy, sockets) {
  const mounts = [
    ...["/", ...policy.homeReadOnly, policy.workspace].map((path) => ({ path, shown: true })),
    ...["/tmp", "/dev", "/dev/shm", "/proc", policy.home, ...policy.hidden].map((path) => ({
      path,
      shown: false
    }))
  ];
  return sockets.filter((socket) => {
    const holders = mounts.filter(({ path }) => isInside(socket, path));
    const deepest = holders.sort((a, b) => b.path.length - a.path.length)[0];
    return deepest?.shown ?? true;
  });
}
function lostMaskRace(result, masked) {
  if (result.exitCode !== 1) return false;
  const match = /^bwrap: Can't (?:create file at|mkdir parents for) (.+): [^:\n]+\n?$/.exec(
    result.stderr.text
  );
  const path = match?.[1];
  if (path === void 0 || !masked.includes(path)) return false;
  try {
    lstatSync(path);
    return false;
  } catch {
    return true;
  }
}

// src/sandbox/probe.ts
import { execFile } from "node:child_process";
import { existsSync, readFileSync as readFileSync2 } from "node:fs";
import { isAbsolute, join } from "node:path";
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
    return readFileSync2(path, "utf8").trim();
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
function either(paths) {
  return paths.length < 2 ? paths[0] ?? "" : `${paths.slice(0, -1).join(", ")} or ${paths.at(-1)}`;
}
function missingBwrap(locations, pathVariable) {
  const onPath = pathVariable.split(":").filter((entry) => isAbsolute(entry)).map((entry) => join(entry, "bwrap")).find((path) => !locations.includes(path) && existsSync(path));
  const found = onPath === void 0 ? "" : ` The bwrap at ${onPath}, on your PATH, is not used: install the distribution's package, or, if you trust that one, link it as root: \`sudo ln -s ${onPath} /usr/local/bin/bwrap\`.`;
  return `bubblewrap (bwrap) is not installed at ${either(locations)}, and pitcrew runs no command without a sandbox. pitcrew looks only there, never on PATH, so that a bwrap planted in a folder on PATH cannot run in its place with pitcrew's privileges.${found} Add a step before pitcrew: \`sudo apt-get install -y bubblewrap\` (locally: \`apt-get install bubblewrap\`).`;
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
  let rooted;
  const canRoot = () => {
    if (!allowSetup) return Promise.resolve(false);
    if ((process.getuid?.() ?? 1) === 0) return Promise.resolve(true);
    return rooted ??= hasPasswordlessSudo();
  };
  let bwrapPath = findBwrap(options.locations);
  if (bwrapPath === null && await canRoot()) {
    log("bubblewrap is missing; installing it with apt-get.");
    const installed = await asRoot(["apt-get", "install", "-y", "bubblewrap"]) || await asRoot(["apt-get", "update"]) && await asRoot(["apt-get", "install", "-y", "bubblewrap"]);
    if (installed) fixesApplied.push("installed bubblewrap with apt-get");
    bwrapPath = findBwrap(options.locations);
  }
  if (bwrapPath === null) {
    throw unavailable(
      missingBwrap(
        options.locations ?? BWRAP_LOCATIONS,
        options.pathVariable ?? process.env.PATH ?? ""
      )
    );
  }
  const ask = (flag) => run(found, [flag], { env: SAFE_ENV }).then(
    ({ stdout }) => stdout,
    () => ""
  );
  const found = bwrapPath;
  const [versionText, help] = await Promise.all([ask("--version"), ask("--help")]);
  const version = versionText.trim().replace(/^bubblewrap\s+/, "") || "unknown";
  if (!help.includes("--disable-userns")) {
    throw unavailable(
      `bubblewrap ${version} at ${bwrapPath} is too old: pitcrew needs --disable-userns (0.8.0 or later).`
    );
  }
  let attempt = await tryNamespaces(bwrapPath);
  if (attempt.ok) return { bwrapPath, version, fixesApplied };
  const diagnosis = diagnose(attempt.stderr, options.facts ?? kernelFacts(), bwrapPath);
  if (await canRoot()) {
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
  mkdirSync as mkdirSync2,
  lstatSync as lstatSync3,
  mkdtempSync,
  readFileSync as readFileSync3,
  readdirSync as readdirSync3,
  realpathSync as realpathSync2,
  statSync as statSync2
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute as isAbsolute2, join as join3, relative as relative2, resolve } from "node:path";

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
function quote(text) {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t");
}
function formatConfig(entries) {
  const groups = /* @__PURE__ */ new Map();
  for (const { key, value } of entries) {
    const { section, subsection, name } = splitKey(key);
    const header = subsection === null ? `[${section}]` : `[${section} "${quoteSubsection(subsection)}"]`;
    const lines = groups.get(header) ?? [];
    lines.push(value === null ? `	${name}` : `	${name} = "${quote(value)}"`);
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

// src/sandbox/protected-mounts.ts
import { lstatSync as lstatSync2, mkdirSync, readdirSync as readdirSync2 } from "node:fs";
import { join as join2, relative, sep } from "node:path";
var MAX_PATTERN_MOUNTS = 64;
var MAX_WALKED_ENTRIES = 2e4;
function lstatOrNull(path) {
  try {
    return lstatSync2(path);
  } catch {
    return null;
  }
}
function plainPath(workspace, path) {
  return chain(workspace, path).every((component) => {
    const stat = lstatOrNull(component);
    return stat !== null && !stat.isSymbolicLink();
  });
}
function ensureFolder(workspace, path) {
  const created = [];
  for (const component of chain(workspace, path)) {
    const stat = lstatOrNull(component);
    if (stat?.isSymbolicLink()) break;
    if (stat !== null) continue;
    mkdirSync(component);
    created.push(component);
  }
  return created;
}
function matches(workspace, pattern, budget) {
  const start = join2(workspace, ...literalPrefix(pattern).split("/").filter(Boolean));
  if (!plainPath(workspace, start)) return [];
  const rel = (path) => relative(workspace, path).split(sep).join("/");
  if (start !== workspace && matchesPattern(rel(start), pattern)) return [start];
  const found = [];
  const queue = [start];
  while (queue.length > 0 && budget.entries > 0) {
    const folder = queue.shift() ?? "";
    let names;
    try {
      names = readdirSync2(folder).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (budget.entries-- <= 0) break;
      if (name === ".git") continue;
      const path = join2(folder, name);
      const stat = lstatOrNull(path);
      if (stat === null || stat.isSymbolicLink()) continue;
      if (matchesPattern(rel(path), pattern)) {
        if (stat.isDirectory() || stat.isFile()) found.push(path);
      } else if (stat.isDirectory()) {
        queue.push(path);
      }
    }
  }
  return found;
}
function protectedMounts(workspace, patterns) {
  const readOnly = [];
  const writable = [];
  const created = [];
  if (patterns.includes(GITHUB_FOLDER)) {
    const github = join2(workspace, GITHUB_FOLDER);
    created.push(...ensureFolder(workspace, github));
    readOnly.push(github);
    const own = join2(workspace, ...PITCREW_FOLDER.split("/"));
    if (plainPath(workspace, github)) created.push(...ensureFolder(workspace, own));
    if (plainPath(workspace, own) && lstatOrNull(own)?.isDirectory()) writable.push(own);
  }
  const covered = (path) => {
    const holders = [...readOnly, ...writable].filter((mount) => isInside(path, mount));
    const deepest = holders.sort((a, b) => b.length - a.length)[0];
    return deepest !== void 0 && readOnly.includes(deepest);
  };
  const budget = { entries: MAX_WALKED_ENTRIES };
  let mounts = 0;
  for (const pattern of patterns) {
    if (pattern === GITHUB_FOLDER) continue;
    for (const path of matches(workspace, pattern, budget)) {
      if (mounts >= MAX_PATTERN_MOUNTS) break;
      if (covered(path)) continue;
      readOnly.push(path);
      mounts++;
    }
  }
  return { readOnly, writable, created };
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
function protect(workspace, path) {
  for (const component of chain(workspace, path)) {
    if (lstatSync3(component).isSymbolicLink()) {
      throw new PitcrewError(
        "sandbox-protected-symlink",
        `${relative2(workspace, component)} is a symbolic link, so the sandbox cannot keep ${relative2(workspace, path)} read-only. Replace the link with the real folder.`
      );
    }
  }
  const stat = lstatSync3(path);
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
  const dotGit = join3(workspace, ".git");
  if (!existsSync2(dotGit) && !isSymlink(dotGit)) return null;
  let gitDir = dotGit;
  if (lstatSync3(dotGit).isFile()) {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync3(dotGit, "utf8"));
    if (!match?.[1]) {
      throw new PitcrewError(
        "sandbox-bad-gitfile",
        `${dotGit} is a file but names no gitdir; fix or remove it.`
      );
    }
    gitDir = realpathSync2(resolve(workspace, match[1].trim()));
  }
  const commondirFile = join3(gitDir, "commondir");
  const commonDir = existsSync2(commondirFile) ? realpathSync2(resolve(gitDir, readFileSync3(commondirFile, "utf8").trim())) : gitDir;
  const protectedPaths = [dotGit, gitDir, commonDir].filter(
    (path, index, all) => isInside(path, workspace) && all.indexOf(path) === index
  );
  const configs = [
    join3(commonDir, "config"),
    join3(gitDir, "config.worktree"),
    ...moduleConfigs(join3(commonDir, "modules"), 4)
  ];
  const hooksPath = repoHooksPath(join3(commonDir, "config"), workspace);
  return {
    protectedPaths,
    configs: configs.filter((path) => existsSync2(path)),
    hooksPath,
    commonDir
  };
}
function isSymlink(path) {
  try {
    return lstatSync3(path).isSymbolicLink();
  } catch {
    return false;
  }
}
function moduleConfigs(dir, depth) {
  if (depth === 0 || !existsSync2(dir)) return [];
  const found = [];
  for (const entry of readdirSync3(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join3(dir, entry.name);
    if (existsSync2(join3(sub, "config"))) found.push(join3(sub, "config"));
    found.push(...moduleConfigs(join3(sub, "modules"), depth - 1));
  }
  return found;
}
function repoHooksPath(configFile, workspace) {
  if (!existsSync2(configFile)) return null;
  const text = readFileSync3(configFile, "utf8");
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
    mkdirSync2(component);
    created.push(component);
  }
  return created;
}
function runnerRoot(pid = process.pid) {
  let current = pid;
  for (let hops = 0; hops < 32 && current > 1; hops++) {
    try {
      const comm = readFileSync3(`/proc/${current}/comm`, "utf8").trim();
      if (comm.startsWith("Runner.Worker") || comm.startsWith("Runner.Listener")) {
        return dirname(dirname(realpathSync2(`/proc/${current}/exe`)));
      }
      const parent = procStat(current)?.ppid;
      if (parent === void 0) return null;
      current = parent;
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
      if (statSync2(`/proc/${name}`).uid === uid) count++;
    } catch {
    }
  }
  return count;
}
function realDir(path) {
  if (!path) return null;
  try {
    const real = realpathSync2(path);
    return statSync2(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
function plainDirUnder(home, rel) {
  const path = resolve(home, rel);
  if (!isInside(path, home) || path === home) return null;
  try {
    if (chain(home, path).some((component) => lstatSync3(component).isSymbolicLink())) return null;
    return statSync2(path).isDirectory() ? path : null;
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
  const home = realDir(env.HOME) ?? realpathSync2(homedir());
  if (workspace === "/" || isInside(home, workspace)) {
    throw new PitcrewError(
      "sandbox-workspace-too-wide",
      `The workspace ${workspace} contains your home folder ${home}; run pitcrew in the repository's own folder.`
    );
  }
  if (backend === "bwrap" && (isInside(SPILL_MOUNT, workspace) || isInside(workspace, SPILL_MOUNT))) {
    throw new PitcrewError(
      "sandbox-workspace-too-wide",
      `The workspace ${workspace} overlaps ${SPILL_MOUNT}, where the sandbox shows long command outputs; run pitcrew in the repository's own folder.`
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
  const layout = gitLayout(workspace);
  const gitDirs = layout && !isInside(layout.commonDir, workspace) && isInside(layout.commonDir, home) ? [relative2(home, layout.commonDir)] : [];
  const homeReadOnly = [
    .../* @__PURE__ */ new Set([
      ...settings.homeReadOnly,
      ...pathEntries.map((entry) => relative2(home, entry)),
      ...gitDirs
    ])
  ].map((rel) => plainDirUnder(home, rel)).filter(
    (path) => path !== null && !isInside(path, workspace) && !isInside(workspace, path)
  );
  const protectedPaths = [...layout?.protectedPaths ?? []];
  if (layout?.hooksPath) protectedPaths.push(layout.hooksPath);
  const createdDirs = [];
  if (settings.protectWorkflows) {
    const workflows = join3(workspace, ".github", "workflows");
    createdDirs.push(...ensureMountPoint(workspace, workflows));
    protectedPaths.push(workflows);
  }
  const mounts = protectedMounts(workspace, settings.protectedPaths);
  createdDirs.push(...mounts.created);
  protectedPaths.push(...mounts.readOnly);
  const readOnly = protectedPaths.map((path) => protect(workspace, path));
  const writable = mounts.writable.map((path) => protect(workspace, path));
  const pinned = pinnedAncestors(workspace, protectedPaths).map((path) => protect(workspace, path));
  const protectedPatterns = [
    ...settings.protectWorkflows ? [WORKFLOWS_FOLDER] : [],
    ...settings.protectedPaths
  ];
  const stateDir = options.stateDir ?? mkdtempSync(join3(tmpdir(), "pitcrew-sandbox-"));
  const overlays = [];
  for (const [index, config] of (layout?.configs ?? []).entries()) {
    if (backend === "bwrap") {
      const source = join3(stateDir, `gitconfig-${index}`);
      writeSanitisedConfig(config, source);
      overlays.push({ source, target: config });
    } else if (backend === "seatbelt" && findToken(readFileSync3(config, "utf8")) !== null) {
      throw new PitcrewError(
        "sandbox-token-in-git-config",
        `${config} holds a credential that the macOS sandbox cannot hide. Use actions/checkout with persist-credentials: false.`
      );
    }
  }
  const spillSource = join3(stateDir, "spill");
  mkdirSync2(spillSource, { recursive: true, mode: 448 });
  const spill = {
    source: spillSource,
    target: backend === "bwrap" ? SPILL_MOUNT : spillSource
  };
  const tmp = backend === "seatbelt" ? join3(stateDir, "tmp") : "/tmp";
  const uid = process.getuid?.() ?? 0;
  return {
    backend,
    workspace,
    readOnly,
    writable,
    protectedPatterns,
    pinned,
    createdDirs,
    overlays,
    spill,
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
  if (policy.spill) params.SPILL = policy.spill.source;
  const spill = policy.spill ? ' (subpath (param "SPILL"))' : "";
  const list = (prefix, paths, form) => paths.map((path, index) => {
    params[`${prefix}_${index}`] = path;
    return `(${form} (param "${prefix}_${index}"))`;
  }).join(" ");
  const protectedPaths = policy.readOnly.map(({ path }) => path);
  const hidden = list("HIDDEN", policy.hidden, "subpath");
  const homeReadOnly = list("HOME_RO", policy.homeReadOnly, "subpath");
  const readOnly = list("READONLY", protectedPaths, "subpath");
  const writable = policy.writable.map(({ path }, index) => {
    params[`WRITABLE_${index}`] = path;
    const inner = list(
      `WRITABLE_${index}_RO`,
      protectedPaths.filter((inside) => inside !== path && isInside(inside, path)),
      "subpath"
    );
    const own = `(subpath (param "WRITABLE_${index}"))`;
    return inner ? ` (require-all ${own} (require-not (require-any ${inner})))` : ` ${own}`;
  }).join("");
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
    `(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "TMP"))${spill}${homeReadOnly ? ` ${homeReadOnly}` : ""})`,
    "; writes: the workspace minus .git and the protected paths, pitcrew's own folder, and a private temporary folder",
    `(allow file-write* (require-all (subpath (param "WORKSPACE"))${readOnly ? ` (require-not (require-any ${readOnly}))` : ""}) (subpath (param "TMP"))${writable})`
  ];
  const kept = [
    pinned,
    ...policy.writable.map((_, index) => `(literal (param "WRITABLE_${index}"))`)
  ].filter(Boolean);
  if (kept.length > 0) lines.push(`(deny file-write-unlink ${kept.join(" ")})`);
  lines.push("; no network rule at all: TCP, UDP, unix sockets and DNS stay denied");
  return { profile: lines.join("\n") + "\n", params };
}
function seatbeltArgv(program2, argv) {
  const defines = Object.entries(program2.params).map(([key, value]) => `-D${key}=${value}`);
  return [SANDBOX_EXEC, "-p", program2.profile, ...defines, "--", ...argv];
}

// src/sandbox/sandbox.ts
var SPILL_MAX_BYTES = 1024 * 1024 * 1024;
function spillFileName(name, attempt) {
  const base = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "output";
  return `${base}${attempt === 1 ? "" : `-${attempt}`}.txt`;
}
function writeSpillFile(folder, name, text) {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const file = spillFileName(name, attempt);
    try {
      writeFileSync2(join4(folder, file), text, { flag: "wx", mode: 256 });
      return file;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
  }
  throw new Error(`100 spill files named after ${name} exist already`);
}
function diskReserveNotice(reserveBytes) {
  const mib = Math.round(reserveBytes / (1024 * 1024));
  return `
[disk-reserve-reached: the command was killed because the disk holding the workspace was down to less than ${mib} MiB free, which pitcrew keeps for the push and the run's notes. What it wrote is still there: delete what is not needed (build outputs, caches, large generated files) with rm, then run it again writing less.]
`;
}
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
function realOrNull(path) {
  try {
    return realpathSync3(path);
  } catch {
    return null;
  }
}
function refuseStateInWorkspace(workspace) {
  const base = realOrNull(tmpdir2());
  const real = realOrNull(workspace);
  if (base === null || real === null || !isInside(base, real)) return;
  throw new PitcrewError(
    "sandbox-state-inside-workspace",
    `The temporary folder ${base} (TMPDIR) lies inside the workspace ${real}, where every command may write, so the sandbox's own files would not be safe from the agent. Point TMPDIR outside the checkout (on GitHub runners, leave it unset or use RUNNER_TEMP).`
  );
}
async function createSandbox(settings, options) {
  refuseStateInWorkspace(options.workspace);
  const stateDir = mkdtempSync2(join4(tmpdir2(), "pitcrew-sandbox-"));
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
      const seccomp = arch ? seccompFilter(arch) : void 0;
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
              seccompFd: seccomp ? 3 : void 0,
              maskedSockets
            })
          ],
          seccomp,
          maskedSockets,
          killGroup: false,
          env: BWRAP_ENV
        };
      };
    } else if (policy.backend === "seatbelt") {
      const tmp = join4(stateDir, "tmp");
      mkdirSync3(tmp, { mode: 448 });
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
    let spilledBytes = 0;
    return {
      backend: policy.backend,
      policy,
      probe,
      prepare: wrap,
      async run(request) {
        verifyProtected(policy);
        const spawn = (prepared2) => runContained({
          argv: prepared2.argv,
          env: prepared2.env,
          cwd: policy.backend === "bwrap" ? void 0 : request.cwd ?? policy.workspace,
          stdin: request.stdin,
          inheritStdio: request.inheritStdio,
          fd3Data: prepared2.seccomp,
          timeoutMs: request.timeoutMs ?? policy.timeoutMs,
          outputBytes: policy.limits.outputBytes,
          signal: request.signal,
          killGroup: prepared2.killGroup,
          diskReserve: { path: policy.workspace, freeBytes: policy.limits.diskReserveBytes }
        });
        const prepared = wrap(request);
        let result = await spawn(prepared);
        if (lostMaskRace(result, prepared.maskedSockets ?? [])) result = await spawn(wrap(request));
        if (!result.diskReserveReached) return result;
        const notice = diskReserveNotice(policy.limits.diskReserveBytes);
        if (request.inheritStdio) process.stderr.write(notice);
        return { ...result, stderr: { ...result.stderr, text: result.stderr.text + notice } };
      },
      spill(name, text) {
        const fail = (reason, cause) => new PitcrewError("sandbox-spill-failed", `No spill file was written: ${reason}.`, {
          cause
        });
        if (policy.spill === null) throw fail("this sandbox has no spill folder");
        const bytes = Buffer.byteLength(text);
        if (spilledBytes + bytes > SPILL_MAX_BYTES) {
          throw fail(`this run's saved outputs would pass ${SPILL_MAX_BYTES} bytes`);
        }
        let file;
        try {
          file = writeSpillFile(policy.spill.source, name, text);
        } catch (error) {
          throw fail(error instanceof Error ? error.message : String(error), error);
        }
        spilledBytes += bytes;
        return join4(policy.spill.target, file);
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

export {
  createSandbox
};
