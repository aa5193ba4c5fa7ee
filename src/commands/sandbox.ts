/**
 * `pitcrew sandbox`: runs one command in the workspace under the policy the agent gets, with the
 * caller's environment standing in for the harness's, so people can see what their build does
 * inside the walls.
 */
import { PitcrewError, describeError } from "../errors.ts";
import { explainPolicy } from "../sandbox/explain.ts";
import { notFoundHint } from "../sandbox/not-found.ts";
import { DEFAULT_SETTINGS, SANDBOX_CHOICES, sandboxChoice } from "../sandbox/policy.ts";
import { STDERR_LOG } from "./log.ts";
import type { SandboxSettings } from "../sandbox/policy.ts";
import { shellStatus } from "../sandbox/runner.ts";
import { createSandbox } from "../sandbox/sandbox.ts";

export const EXIT_TIMED_OUT = 124;
export const EXIT_SANDBOX_FAILED = 125;
export const EXIT_USAGE = 2;

/** The longest `--timeout`: a day (Node's timers cannot wait much past 24 days anyway). */
export const MAX_TIMEOUT_SECONDS = 86_400;

export const SANDBOX_USAGE_LINE = `usage: pitcrew sandbox [--workspace DIR] [--explain] [--sandbox ${SANDBOX_CHOICES.join("|")}] [--timeout SECONDS] -- CMD [ARG...]`;

export const SANDBOX_HELP = `${SANDBOX_USAGE_LINE}

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
                     (default ${DEFAULT_SETTINGS.timeoutMs / 1000}, as the action's command-timeout). When it passes,
                     the command and everything it started are killed
  -h, --help         print this and exit

Options go before the command; put the command after -- so its own options reach it:
  pitcrew sandbox --timeout 300 -- npm test -- --watch=false

exit status: the command's; ${EXIT_TIMED_OUT} when it timed out; ${EXIT_SANDBOX_FAILED} when the sandbox cannot start;
${EXIT_USAGE} for a bad command line.
`;

interface Parsed {
  settings: SandboxSettings;
  workspace: string;
  explain: boolean;
  argv: string[];
}

/** What the command line asked for: the help, or a run (or an explanation). */
type Request = { help: true } | ({ help: false } & Parsed);

const VALUE_OPTIONS = new Set(["--workspace", "--sandbox", "--timeout"]);
const FLAG_OPTIONS = new Set(["--explain", "--help", "-h"]);

function badOption(message: string): PitcrewError {
  return new PitcrewError("cli-bad-option", message);
}

/** Seconds above 0 and at most a day, written as a plain number (`300`, `1.5`). */
function timeoutSeconds(value: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw badOption(
      `--timeout takes a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (a day), for example --timeout 300; '${value}' is not one.`,
    );
  }
  return seconds;
}

/**
 * Reads the command line as \`parseArgs\` would (options before \`--\`, anywhere among the command's
 * words), but says what is wrong in pitcrew's own words.
 */
export function parseSandboxArgs(args: readonly string[], cwd = process.cwd()): Request {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
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
    const inline = name === arg ? undefined : arg.slice(equals + 1);
    if (FLAG_OPTIONS.has(name)) {
      if (inline !== undefined) throw badOption(`${name} takes no value; write it alone.`);
      flags.add(name === "-h" ? "--help" : name);
      continue;
    }
    if (VALUE_OPTIONS.has(name)) {
      const value = inline ?? args[index + 1];
      if (inline === undefined) index++;
      const missing =
        value === undefined ||
        value === "" ||
        (inline === undefined &&
          (value === "--" ||
            VALUE_OPTIONS.has(value.split("=")[0] ?? "") ||
            FLAG_OPTIONS.has(value)));
      if (missing) {
        const example = { "--workspace": "DIR", "--sandbox": "bwrap", "--timeout": "300" }[name];
        throw badOption(`${name} needs a value, for example ${name} ${example}.`);
      }
      values.set(name, value);
      continue;
    }
    if (positionals.length === 0) {
      throw badOption(
        `${name} is not an option of pitcrew sandbox; its options are --workspace, --explain, --sandbox, --timeout and --help.`,
      );
    }
    const command = [...positionals, ...args.slice(index)].join(" ");
    throw badOption(
      `${name} is not an option of pitcrew sandbox. If it is meant for the command, put the command after --, as in: pitcrew sandbox -- ${command}`,
    );
  }
  if (flags.has("--help")) return { help: true };
  const backend = sandboxChoice(values.get("--sandbox") ?? "auto", "cli-bad-option", "--sandbox");
  const timeout = values.get("--timeout");
  const seconds =
    timeout === undefined ? DEFAULT_SETTINGS.timeoutMs / 1000 : timeoutSeconds(timeout);
  const explain = flags.has("--explain");
  if (positionals.length === 0 && !explain) {
    throw new PitcrewError(
      "cli-no-command",
      "Name the command to run after --, for example: pitcrew sandbox -- npm test",
    );
  }
  return {
    help: false,
    settings: { ...DEFAULT_SETTINGS, backend, timeoutMs: seconds * 1000 },
    workspace: values.get("--workspace") ?? cwd,
    explain,
    argv: positionals.length > 0 ? positionals : ["true"],
  };
}

export async function sandboxCommand(args: string[]): Promise<number> {
  let request: Request;
  try {
    request = parseSandboxArgs(args);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}\n${SANDBOX_USAGE_LINE}\n`);
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
      log: STDERR_LOG,
    });
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}\n`);
    return EXIT_SANDBOX_FAILED;
  }
  try {
    if (parsed.explain) {
      // `pitcrew sandbox --explain | head` closes the pipe early: that is not an error.
      process.stdout.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE") throw error;
      });
      process.stdout.write(explainPolicy(sandbox.policy, sandbox.prepare({ argv: parsed.argv })));
      if (sandbox.probe)
        process.stdout.write(`bwrap: ${sandbox.probe.bwrapPath} (${sandbox.probe.version})\n`);
      return 0;
    }
    const result = await sandbox.run({ argv: parsed.argv, inheritStdio: true });
    if (result.timedOut) {
      process.stderr.write(
        `pitcrew sandbox: timed out after ${parsed.settings.timeoutMs / 1000} s; the command and everything it started were killed.\n`,
      );
      return EXIT_TIMED_OUT;
    }
    const status = shellStatus(result);
    const hint = notFoundHint(sandbox.policy, parsed.argv, status);
    if (hint !== null) process.stderr.write(`pitcrew sandbox: ${hint}\n`);
    return status;
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}\n`);
    return EXIT_SANDBOX_FAILED;
  } finally {
    sandbox.dispose();
  }
}
