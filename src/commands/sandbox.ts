/**
 * `pitcrew sandbox`: runs one command in the workspace under the policy the agent gets, with the
 * caller's environment standing in for the harness's, so people can see what their build does
 * inside the walls.
 */
import { parseArgs } from "node:util";
import { PitcrewError, describeError } from "../errors.ts";
import { explainPolicy } from "../sandbox/explain.ts";
import { DEFAULT_SETTINGS, sandboxChoice } from "../sandbox/policy.ts";
import { STDERR_LOG } from "./log.ts";
import type { SandboxSettings } from "../sandbox/policy.ts";
import { shellStatus } from "../sandbox/runner.ts";
import { createSandbox } from "../sandbox/sandbox.ts";

export const EXIT_TIMED_OUT = 124;
export const EXIT_SANDBOX_FAILED = 125;

function parse(args: string[]): {
  settings: SandboxSettings;
  workspace: string;
  explain: boolean;
  argv: string[];
} {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      explain: { type: "boolean", default: false },
      sandbox: { type: "string", default: "auto" },
      timeout: { type: "string" },
    },
  });
  const backend = sandboxChoice(values.sandbox, "cli-bad-option", "--sandbox");
  const timeoutSeconds =
    values.timeout === undefined ? DEFAULT_SETTINGS.timeoutMs / 1000 : Number(values.timeout);
  if (!(timeoutSeconds > 0)) {
    throw new PitcrewError(
      "cli-bad-option",
      `--timeout takes a number of seconds above 0, not '${values.timeout}'.`,
    );
  }
  if (positionals.length === 0 && !values.explain) {
    throw new PitcrewError(
      "cli-no-command",
      "Name the command to run after --, for example: pitcrew sandbox -- npm test",
    );
  }
  return {
    settings: { ...DEFAULT_SETTINGS, backend, timeoutMs: timeoutSeconds * 1000 },
    workspace: values.workspace ?? process.cwd(),
    explain: values.explain,
    argv: positionals.length > 0 ? positionals : ["true"],
  };
}

export async function sandboxCommand(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}\n`);
    return 2;
  }
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
    return shellStatus(result);
  } catch (error) {
    process.stderr.write(`pitcrew sandbox: ${describeError(error)}\n`);
    return EXIT_SANDBOX_FAILED;
  } finally {
    sandbox.dispose();
  }
}
