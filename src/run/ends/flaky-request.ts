/**
 * What a flaky-test triage asks of the agent: the test's failures in CI and their log excerpts,
 * the `rerun` tool (the harness counts every batch, tied to the workspace's changes when it ran)
 * and the `flaky_verdict` tool, and a check before a finished answer is accepted — the verdict must
 * hold against the reruns and the diff (flaky/verdict.ts), or the agent is told what is missing.
 */
import { createHash } from "node:crypto";
import { flakyTriagePrompt } from "../../agent/flaky-prompt.ts";
import type { FlakyFacts } from "../../agent/flaky-prompt.ts";
import { flakyVerdictTool } from "../../agent/tools/flaky-verdict.ts";
import { rerunTool } from "../../agent/tools/rerun.ts";
import type { Config } from "../../config/config.ts";
import { findWeakenings } from "../../ci/weakened.ts";
import type { Weakening } from "../../domain/ci.ts";
import type { FlakeVerdict, RerunBatch } from "../../domain/flaky.ts";
import type { Task } from "../../domain/task.ts";
import { verdictProblem } from "../../flaky/verdict.ts";
import { CI_WORDS } from "../../present/ci-words.ts";
import type { RequestPort } from "../ports.ts";
import { sessionSettings } from "./action-request.ts";
import type { ThreadWorkspace } from "./action-workspace.ts";
import { repairDiff } from "./ci-request.ts";

/** What the session measured and decided, for the delivery and the tracking issue. */
export interface TriageRecord {
  batches: RerunBatch[];
  verdict?: FlakeVerdict;
  /** The diff and its weakenings at the last check. */
  diff: string;
  weakenings: Weakening[];
}

/** The hash a rerun batch is tied to: the diff from the base, new files included. */
export function changesHash(diff: string): string {
  return createHash("sha256").update(diff).digest("hex").slice(0, 16);
}

/** What a verdict is checked against besides the record: the triage's settings and the issue. */
export interface VerdictRules {
  reruns: number;
  quarantineAllowed: boolean;
  issueUrl: string;
}

/**
 * Reads the workspace's diff into the record and checks the verdict against it and the reruns:
 * the sentence that sends the agent back, or undefined when the verdict stands.
 */
export async function checkVerdict(
  record: TriageRecord,
  workspace: Pick<ThreadWorkspace, "path" | "baseSha">,
  rules: VerdictRules,
): Promise<string | undefined> {
  record.diff = await repairDiff(workspace.path, workspace.baseSha);
  record.weakenings = findWeakenings(record.diff);
  return verdictProblem({
    ...rules,
    verdict: record.verdict,
    batches: record.batches,
    changes: changesHash(record.diff),
    diff: record.diff,
    weakenings: record.weakenings,
    refused: CI_WORDS.refusedWeakening,
  });
}

export function flakyRequest(options: {
  task: Task;
  config: Config;
  facts: Omit<
    FlakyFacts,
    "reruns" | "quarantineAllowed" | "lookbackDays" | "repositoryInstructions"
  >;
  record: TriageRecord;
  protectedPaths: readonly string[];
  log: { info(message: string): void; warning(message: string): void };
}): RequestPort<ThreadWorkspace> {
  const { task, config, record, log } = options;
  const settings = config.flakyTriage;
  return {
    threadKey: task.threadKey,
    brief: (workspace) => {
      const session = sessionSettings(config, task, options.protectedPaths, log);
      const diffNow = (): Promise<string> => repairDiff(workspace.path, workspace.baseSha);
      return Promise.resolve({
        prompt: flakyTriagePrompt({
          ...options.facts,
          reruns: settings.reruns,
          quarantineAllowed: settings.quarantine,
          lookbackDays: settings.lookbackDays,
          repositoryInstructions: config.instructions,
        }),
        session: {
          ...session,
          tools: [
            rerunTool({
              defaultRuns: settings.reruns,
              changes: async () => changesHash(await diffNow()),
              record: (batch) => {
                record.batches.push(batch);
                log.info(`rerun: ${batch.condition}: ${batch.failures}/${batch.runs} failed`);
              },
            }),
            flakyVerdictTool((verdict) => {
              record.verdict = verdict;
              log.info(`verdict: ${verdict.action} (${verdict.category})`);
            }),
          ],
          checkDone: async () => {
            const problem = await checkVerdict(record, workspace, {
              reruns: settings.reruns,
              quarantineAllowed: settings.quarantine,
              issueUrl: options.facts.issueUrl,
            });
            if (problem !== undefined) log.warning(`verdict not accepted: ${problem}`);
            return problem;
          },
        },
      });
    },
  };
}
