import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  createSandbox
} from "./chunk-FGBOK63L.js";
import {
  shellStatus
} from "./chunk-FSDONFOK.js";
import {
  DEFAULT_SETTINGS,
  SANDBOX_CHOICES,
  isInside,
  sandboxChoice
} from "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/sandbox/explain.ts
function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
function spillLine({ spill }) {
  if (spill === null) return "(none)";
  return spill.target === spill.source ? spill.target : `${spill.target} (from ${spill.source})`;
}
function shown(policy, path, made) {
  return policy.createdDirs.includes(path) ? `${path} (${made})` : path;
}
var CREATED_READ_ONLY = "not in the checkout: created empty and protected for the session, so nothing can be added there; removed at the end";
var CREATED_WRITABLE = "not in the checkout: created empty for the session; removed at the end if still empty";
function explainPolicy(policy, prepared) {
  const list = (items) => items.length === 0 ? "  (none)" : items.map((item) => `  ${item}`).join("\n");
  const paths = (items, made) => items.map(({ path }) => shown(policy, path, made));
  return [
    `backend: ${policy.backend}`,
    `workspace (writable): ${policy.workspace}`,
    "read-only inside the workspace:",
    list(paths(policy.readOnly, CREATED_READ_ONLY)),
    "writable again inside a read-only folder (pitcrew's own):",
    list(paths(policy.writable, CREATED_WRITABLE)),
    "pinned (cannot be renamed or replaced; writable inside unless read-only above):",
    list(paths(policy.pinned, "created for the session, as above")),
    "git config replaced by a sanitised copy:",
    list(policy.overlays.map(({ target }) => target)),
    `home (hidden, private tmpfs): ${policy.home}`,
    "bound back read-only from home:",
    list(policy.homeReadOnly),
    "hidden (empty, read-only):",
    list(policy.hidden),
    `long outputs (read-only): ${spillLine(policy)}`,
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

// src/sandbox/not-found.ts
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
var EXIT_NOT_FOUND = 127;
var EXIT_BWRAP_EXEC_FAILED = 1;
function unseenReason(policy, path) {
  if (policy.backend !== "bwrap" || !isAbsolute(path)) return null;
  if (isInside(path, policy.workspace)) return null;
  if (policy.spill !== null && isInside(path, policy.spill.target)) return null;
  for (const [root, name] of [
    ["/tmp", "/tmp"],
    ["/dev/shm", "/dev/shm"]
  ]) {
    if (isInside(path, root)) {
      return `the sandbox's ${name} is private (a fresh, empty folder for each command)`;
    }
  }
  const hidden = policy.hidden.find((folder) => isInside(path, folder));
  if (hidden !== void 0) return `${hidden} is hidden inside the sandbox`;
  if (isInside(path, policy.home) && !policy.homeReadOnly.some((dir) => isInside(path, dir))) {
    return `your home folder ${policy.home} is hidden inside the sandbox`;
  }
  return null;
}
function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
function hostHits(name, pathVariable) {
  return pathVariable.split(":").filter((entry) => isAbsolute(entry) && isExecutableFile(join(entry, name)));
}
function advice(policy) {
  return `Put the tool where the sandbox can see it \u2014 in the checkout (${policy.workspace}), in a folder on your PATH under ${policy.home} (bound back read-only), or in /usr/local/bin \u2014 and run the command again.`;
}
function notFoundHint(policy, argv, status) {
  if (policy.backend !== "bwrap" || status === 0) return null;
  const pathVariable = policy.env.PATH ?? "";
  const program = argv[0] ?? "";
  if (status === EXIT_BWRAP_EXEC_FAILED || status === EXIT_NOT_FOUND) {
    if (program.includes("/")) {
      const reason = isAbsolute(program) ? unseenReason(policy, program) : null;
      if (reason !== null && isExecutableFile(program)) {
        return `\`${program}\` was not found inside the sandbox: it exists on the host, but ${reason}. ${advice(policy)}`;
      }
    } else if (program !== "") {
      const hits = hostHits(program, pathVariable);
      const reasons = hits.map((entry) => unseenReason(policy, entry));
      const [first2] = hits;
      if (first2 !== void 0 && reasons.every((reason) => reason !== null)) {
        return `\`${program}\` was not found inside the sandbox: ${first2} is on your PATH, but ${reasons[0]}. ${advice(policy)}`;
      }
    }
  }
  if (status !== EXIT_NOT_FOUND) return null;
  const words = new Set(argv.flatMap((arg) => arg.split(/[^\w.+-]+/)).filter(Boolean));
  const unseen = [];
  for (const entry of new Set(pathVariable.split(":"))) {
    const reason = unseenReason(policy, entry);
    if (reason === null) continue;
    let tools;
    try {
      tools = readdirSync(entry).filter((name) => isExecutableFile(join(entry, name)));
    } catch {
      continue;
    }
    if (tools.length === 0) continue;
    const named2 = tools.filter(
      (name) => words.has(name) && hostHits(name, pathVariable).every((hit) => unseenReason(policy, hit) !== null)
    );
    unseen.push({ entry, reason, named: named2 });
  }
  const named = unseen.filter((item) => item.named.length > 0);
  if (named.length > 0) {
    const [first2] = named;
    const tools = named.flatMap((item) => item.named).map((name) => `\`${name}\``);
    return `${tools.join(", ")} ${tools.length === 1 ? "was" : "were"} not found inside the sandbox (exit status 127): ${first2?.entry} is on your PATH, but ${first2?.reason}. ${advice(policy)}`;
  }
  const [first] = unseen;
  if (first === void 0) return null;
  const entries = unseen.map((item) => item.entry).join(", ");
  return `Exit status 127 usually means a command was not found. If it was one of the tools in ${entries}: ${unseen.length === 1 ? "that folder is" : "those folders are"} on your PATH, but ${first.reason}. ${advice(policy)}`;
}

// src/commands/log.ts
var STDERR_LOG = {
  info: (message) => void process.stderr.write(`pitcrew: ${message}
`),
  warning: (message) => void process.stderr.write(`pitcrew: WARNING: ${message}
`)
};

// src/commands/sandbox.ts
var EXIT_TIMED_OUT = 124;
var EXIT_SANDBOX_FAILED = 125;
var EXIT_USAGE = 2;
var MAX_TIMEOUT_SECONDS = 86400;
var SANDBOX_USAGE_LINE = `usage: pitcrew sandbox [--workspace DIR] [--explain] [--sandbox ${SANDBOX_CHOICES.join("|")}] [--timeout SECONDS] -- CMD [ARG...]`;
var SANDBOX_HELP = `${SANDBOX_USAGE_LINE}

Runs one command in the checkout under the sandbox policy the agent gets (pitcrew's defaults:
the checkout writable, .git and .github read-only, $HOME hidden, a private /tmp, no network),
with your environment standing in for the harness's.

options:
  --workspace DIR    the checkout to run in (default: the current folder)
  --explain          print what is readable, writable and hidden, and the exact command line;
                     run nothing (without CMD it explains \`true\`)
  --sandbox NAME     auto (bubblewrap on Linux, Seatbelt on macOS), bwrap, seatbelt, or none
                     (no sandbox at all; only on purpose). Default auto
  --timeout SECONDS  the command's wall-clock limit: a number above 0, at most ${MAX_TIMEOUT_SECONDS}
                     (default ${DEFAULT_SETTINGS.timeoutMs / 1e3}, as the action's command-timeout). When it passes,
                     the command and everything it started are killed
  -h, --help         print this and exit

Options go before the command; put the command after -- so its own options reach it:
  pitcrew sandbox --timeout 300 -- npm test -- --watch=false

exit status: the command's; ${EXIT_TIMED_OUT} when it timed out; ${EXIT_SANDBOX_FAILED} when the sandbox cannot start;
${EXIT_USAGE} for a bad command line.
`;
var VALUE_OPTIONS = /* @__PURE__ */ new Set(["--workspace", "--sandbox", "--timeout"]);
var FLAG_OPTIONS = /* @__PURE__ */ new Set(["--explain", "--help", "-h"]);
function badOption(message) {
  return new PitcrewError("cli-bad-option", message);
}
function timeoutSeconds(value) {
  const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw badOption(
      `--timeout takes a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (a day), for example --timeout 300; '${value}' is not one.`
    );
  }
  return seconds;
}
function parseSandboxArgs(args, cwd = process.cwd()) {
  const values = /* @__PURE__ */ new Map();
  const flags = /* @__PURE__ */ new Set();
  const positionals = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") && equals !== -1 ? arg.slice(0, equals) : arg;
    const inline = name === arg ? void 0 : arg.slice(equals + 1);
    if (FLAG_OPTIONS.has(name)) {
      if (inline !== void 0) throw badOption(`${name} takes no value; write it alone.`);
      flags.add(name === "-h" ? "--help" : name);
      continue;
    }
    if (VALUE_OPTIONS.has(name)) {
      const value = inline ?? args[index + 1];
      if (inline === void 0) index++;
      const missing = value === void 0 || value === "" || inline === void 0 && (value === "--" || VALUE_OPTIONS.has(value.split("=")[0] ?? "") || FLAG_OPTIONS.has(value));
      if (missing) {
        const example = { "--workspace": "DIR", "--sandbox": "bwrap", "--timeout": "300" }[name];
        throw badOption(`${name} needs a value, for example ${name} ${example}.`);
      }
      values.set(name, value);
      continue;
    }
    if (positionals.length === 0) {
      throw badOption(
        `${name} is not an option of pitcrew sandbox; its options are --workspace, --explain, --sandbox, --timeout and --help.`
      );
    }
    const command = [...positionals, ...args.slice(index)].join(" ");
    throw badOption(
      `${name} is not an option of pitcrew sandbox. If it is meant for the command, put the command after --, as in: pitcrew sandbox -- ${command}`
    );
  }
  if (flags.has("--help")) return { help: true };
  const backend = sandboxChoice(values.get("--sandbox") ?? "auto", "cli-bad-option", "--sandbox");
  const timeout = values.get("--timeout");
  const seconds = timeout === void 0 ? DEFAULT_SETTINGS.timeoutMs / 1e3 : timeoutSeconds(timeout);
  const explain = flags.has("--explain");
  if (positionals.length === 0 && !explain) {
    throw new PitcrewError(
      "cli-no-command",
      "Name the command to run after --, for example: pitcrew sandbox -- npm test"
    );
  }
  return {
    help: false,
    settings: { ...DEFAULT_SETTINGS, backend, timeoutMs: seconds * 1e3 },
    workspace: values.get("--workspace") ?? cwd,
    explain,
    argv: positionals.length > 0 ? positionals : ["true"]
  };
}
async function sandboxCommand(args) {
  let request;
  try {
    request = parseSandboxArgs(args);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
${SANDBOX_USAGE_LINE}
`);
    return EXIT_USAGE;
  }
  if (request.help) {
    process.stdout.write(SANDBOX_HELP);
    return 0;
  }
  const parsed = request;
  let sandbox;
  try {
    sandbox = await createSandbox(parsed.settings, {
      workspace: parsed.workspace,
      log: STDERR_LOG
    });
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
`);
    return EXIT_SANDBOX_FAILED;
  }
  try {
    if (parsed.explain) {
      process.stdout.on("error", (error) => {
        if (error.code !== "EPIPE") throw error;
      });
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
    const status = shellStatus(result);
    const hint = notFoundHint(sandbox.policy, parsed.argv, status);
    if (hint !== null) process.stderr.write(`pitcrew sandbox: ${hint}
`);
    return status;
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}
`);
    return EXIT_SANDBOX_FAILED;
  } finally {
    sandbox.dispose();
  }
}
export {
  EXIT_SANDBOX_FAILED,
  EXIT_TIMED_OUT,
  EXIT_USAGE,
  MAX_TIMEOUT_SECONDS,
  SANDBOX_HELP,
  SANDBOX_USAGE_LINE,
  parseSandboxArgs,
  sandboxCommand
};
