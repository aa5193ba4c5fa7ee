/**
 * The proof of a CI repair: the failing step's script run in the sandbox, with the workflow's
 * plain environment and `CI=true`, from its working directory — before the agent starts (it
 * should be red) and after it finishes (it should be green, `proof-runs` times). Each run is a
 * command like any of the agent's: no network, no secrets, nothing written outside the checkout.
 */
import { join } from "node:path";
import { excerptText } from "../../ci/excerpt.ts";
import { proofArgv } from "../../ci/proof-step.ts";
import type { ProofRun, ProofStep } from "../../domain/ci.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";

export type RunnableStep = Extract<ProofStep, { runnable: true }>;

/** The excerpt of a proof run the agent and the PR see: far less than a job's. */
const PROOF_EXCERPT_TOKENS = 2000;

/** The step as a person would type it: `cd app && npm test`, the script's lines joined. */
export function proofCommand(step: RunnableStep): string {
  const script = step.script.trim();
  return step.workingDirectory === "" ? script : `cd ${step.workingDirectory} && ${script}`;
}

/**
 * One run of the step. The runner sets `CI=true` and the step's `env:` for the script; `env`
 * sets them here, inside the sandbox, so no variable of the harness's comes along.
 */
export async function runProof(
  sandbox: Sandbox,
  step: RunnableStep,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ProofRun> {
  const argv = proofArgv(step);
  if (argv === undefined) throw new Error(`the proof cannot run the shell ${step.shell}`);
  const variables = Object.entries({ CI: "true", ...step.env }).map(
    ([name, value]) => `${name}=${value}`,
  );
  const result = await sandbox.run({
    argv: ["env", ...variables, ...argv],
    cwd: join(sandbox.policy.workspace, step.workingDirectory),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  const output = [result.stdout.text, result.stderr.text].filter((text) => text !== "").join("\n");
  return {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    excerpt: excerptText(output, { maxTokens: PROOF_EXCERPT_TOKENS }).excerpt,
  };
}

/** Green: the step exited 0 in time. */
export function passed(run: ProofRun): boolean {
  return run.exitCode === 0 && !run.timedOut;
}
