#!/usr/bin/env node
import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  DEFAULT_SETTINGS,
  PitcrewError,
  createSandbox,
  describeError,
  shellStatus
} from "./chunks/chunk-WKYEE4YY.js";

// src/commands/sandbox.ts
import { parseArgs } from "node:util";

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
