/**
 * What a CI repair asks of the agent: the failing step run red in the sandbox first (its exit code
 * and output go into the prompt), the evidence of the failed run, and a check before a finished
 * answer is accepted — a repair that weakens the tests is refused by name, and one after which the
 * failing step still fails is sent back once more with its output.
 */
import { ciRepairPrompt } from "../../agent/ci-prompt.ts";
import { fence } from "../../present/fence.ts";
import type { Config } from "../../config/config.ts";
import { findWeakenings } from "../../ci/weakened.ts";
import type { ProofRun, Weakening } from "../../domain/ci.ts";
import type { Task } from "../../domain/task.ts";
import { git } from "../../git/git.ts";
import { CI_WORDS } from "../../present/ci-words.ts";
import { createSandbox } from "../../sandbox/sandbox.ts";
import type { SandboxSettings } from "../../sandbox/policy.ts";
import type { RequestPort } from "../ports.ts";
import { sessionSettings } from "./action-request.ts";
import type { ThreadWorkspace } from "./action-workspace.ts";
import type { Evidence, JobEvidence } from "./ci-evidence.ts";
import { passed, runProof } from "./ci-proof.ts";
import type { RunnableStep } from "./ci-proof.ts";

/** A proof run may take as long as a test suite does, far longer than one agent command. */
export const PROOF_TIMEOUT_MS = 15 * 60_000;

/** What the request learns that the delivery reports: the red run, the last check's refusals. */
export interface RepairRecord {
  red?: ProofRun;
  weakenings: Weakening[];
}

/**
 * The repair's diff from where the failing branch and the fix branch meet, new files included
 * (marked intent-to-add, which changes nothing that is committed).
 */
export async function repairDiff(workspace: string, baseSha: string): Promise<string> {
  await git(workspace, ["add", "--all", "--intent-to-add"]);
  const base = (await git(workspace, ["merge-base", "HEAD", baseSha])).stdout.trim();
  const diff = await git(workspace, [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "-M",
    base,
  ]);
  return diff.stdout;
}

/** Runs the step in a sandbox of its own, the session's settings. */
export async function proofInSandbox(
  settings: SandboxSettings,
  workspace: string,
  step: RunnableStep,
  options: {
    env: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    log: { info(message: string): void; warning(message: string): void };
  },
): Promise<ProofRun> {
  const sandbox = await createSandbox(settings, { workspace, env: options.env, log: options.log });
  try {
    return await runProof(sandbox, step, { timeoutMs: PROOF_TIMEOUT_MS, signal: options.signal });
  } finally {
    sandbox.dispose();
  }
}

export function ciRequest(options: {
  task: Task;
  config: Config;
  evidence: Evidence;
  /** The jobs whose failures this repair is for (the caps let them go). */
  jobs: JobEvidence[];
  /** What was tried on these failures before, one line each. */
  earlier: string[];
  record: RepairRecord;
  protectedPaths: readonly string[];
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  log: { info(message: string): void; warning(message: string): void };
}): RequestPort<ThreadWorkspace> {
  const { task, config, evidence, record, log } = options;
  const run = task.failedRun!;
  const step = evidence.proof;
  return {
    threadKey: task.threadKey,
    brief: async (workspace) => {
      const session = sessionSettings(config, task, options.protectedPaths, log);
      if (step.runnable) {
        log.info(`proof: running ${step.job} › ${step.step} in the sandbox before the agent`);
        record.red = await proofInSandbox(session.sandbox, workspace.path, step, options);
        log.info(
          `proof: before the agent, ${record.red.timedOut ? "timed out" : `exit ${record.red.exitCode}`}`,
        );
      } else {
        log.info(`proof: the failing step cannot run in the sandbox: ${step.why}`);
      }
      return {
        prompt: ciRepairPrompt({
          run,
          jobs: options.jobs.map((job) => ({
            name: job.name,
            step: job.step,
            excerpt: job.excerpt,
          })),
          proof: { step, red: record.red },
          sinceGreen: evidence.sinceGreen,
          earlier: options.earlier,
          repositoryInstructions: config.instructions,
        }),
        session: {
          ...session,
          checkDone: async (sandbox) => {
            record.weakenings = findWeakenings(await repairDiff(workspace.path, workspace.baseSha));
            if (record.weakenings.length > 0) {
              log.warning(CI_WORDS.refusedWeakening(record.weakenings));
              return CI_WORDS.refusedWeakening(record.weakenings);
            }
            if (!step.runnable || record.red === undefined || passed(record.red)) return undefined;
            const again = await runProof(sandbox, step, {
              timeoutMs: PROOF_TIMEOUT_MS,
              signal: options.signal,
            });
            if (passed(again)) return undefined;
            return `${CI_WORDS.stillRed(again)}\n\n${fence("What the failing step printed in the sandbox", again.excerpt)}`;
          },
        },
      };
    },
  };
}
