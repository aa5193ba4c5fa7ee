/**
 * The action. For now it brings up the sandbox the agent will work in — probing the runner,
 * repairing what it can, failing closed with a named error — and proves it with one command.
 * The agent loop plugs in here (issue: the agent loop).
 */
import * as core from "@actions/core";
import { PitcrewError, describeError } from "./errors.ts";
import { DEFAULT_SETTINGS, sandboxChoice } from "./sandbox/policy.ts";
import type { SandboxSettings } from "./sandbox/policy.ts";
import { createSandbox } from "./sandbox/sandbox.ts";

export function sandboxSettingsFromInputs(): SandboxSettings {
  const backend = sandboxChoice(
    core.getInput("sandbox") || "auto",
    "config-invalid",
    "Input 'sandbox'",
  );
  const timeoutInput =
    core.getInput("command-timeout") || String(DEFAULT_SETTINGS.timeoutMs / 1000);
  const seconds = Number(timeoutInput);
  if (!(seconds > 0)) {
    throw new PitcrewError(
      "config-invalid",
      `Input 'command-timeout' takes seconds above 0, not '${timeoutInput}'.`,
    );
  }
  return { ...DEFAULT_SETTINGS, backend, timeoutMs: seconds * 1000 };
}

export async function run(): Promise<void> {
  try {
    const settings = sandboxSettingsFromInputs();
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    const sandbox = await createSandbox(settings, {
      workspace,
      log: { info: (message) => core.info(message), warning: (message) => core.warning(message) },
    });
    try {
      if (sandbox.probe) {
        core.info(`sandbox: bwrap ${sandbox.probe.version} at ${sandbox.probe.bwrapPath}`);
        for (const fix of sandbox.probe.fixesApplied)
          core.info(`sandbox: fixed on this runner: ${fix}`);
      }
      const check = await sandbox.run({ argv: ["true"] });
      if (check.exitCode !== 0) {
        throw new PitcrewError(
          "sandbox-unavailable",
          `A trial command failed inside the sandbox: ${check.stderr.text.trim()}`,
        );
      }
      core.info(`sandbox: ${sandbox.backend} ready for ${sandbox.policy.workspace}`);
    } finally {
      sandbox.dispose();
    }
  } catch (error) {
    core.setFailed(describeError(error));
  }
}
