/**
 * The delivery of a CI repair: the thread delivery (push, PR, job summary) with the proof in
 * front of it. After the session the failing step runs `proof-runs` times in a fresh sandbox; the
 * PR into the failing branch carries the proof and is a draft unless the red went green every
 * time and nothing weakens the tests. The failing branch's open PR gets a comment that links the
 * fix; an agent that found no code cause and changed nothing leaves a comment instead of a PR.
 * Every way out records the attempt in the thread's failure ledger.
 */
import { CLASS_LINE } from "../../agent/ci-prompt.ts";
import type { Classified } from "../../domain/ci.ts";
import { LEDGER_NAME, recordAttempt } from "../../ci/ledger.ts";
import { findWeakenings } from "../../ci/weakened.ts";
import type {
  AttemptOutcome,
  FailureClass,
  FailureLedger,
  FailureSignature,
} from "../../domain/ci.ts";
import type { PullLink } from "../../domain/ending.ts";
import type { LoopEvent } from "../../domain/loop.ts";
import type { Task } from "../../domain/task.ts";
import { describeError } from "../../errors.ts";
import type { GitHubApi } from "../../github/api.ts";
import type { AgentRun, CiFacts, ProofReport } from "../../present/ci-report.ts";
import {
  ciFactsList,
  ciPullSection,
  fixPullComment,
  notCodeComment,
  proofHolds,
} from "../../present/ci-report.ts";
import type { SandboxSettings } from "../../sandbox/policy.ts";
import type { DeliveryPort } from "../ports.ts";
import { threadDelivery } from "./action-delivery.ts";
import type { Delivered, ThreadDeliveryOptions } from "./action-delivery.ts";
import type { ThreadWorkspace } from "./action-workspace.ts";
import type { Evidence } from "./ci-evidence.ts";
import { proofCommand } from "./ci-proof.ts";
import { proofInSandbox, repairDiff } from "./ci-request.ts";
import type { RepairRecord } from "./ci-request.ts";

/** The agent's own commands kept for a PR whose step could not be run: the last few. */
const AGENT_RUNS_SHOWN = 5;

export interface CiDeliveryOptions extends Omit<
  ThreadDeliveryOptions,
  "beforeDeliver" | "summarySection" | "issueTitle"
> {
  task: Task;
  api: GitHubApi;
  evidence: Evidence;
  /** The failures this repair is for (one per signature the caps let go). */
  signatures: FailureSignature[];
  classified: Classified;
  record: RepairRecord;
  /** The thread's own ledger, as restored. */
  ledger: FailureLedger;
  /** Attempts on the first signature before this one, across branches, and the cap. */
  attemptsBefore: number;
  cap: number;
  proofRuns: number;
  sandbox: () => SandboxSettings;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** When the run failed (ms since the epoch): the clock the summary's "time to PR" starts at. */
  failedAt: number;
  now?: () => number;
}

function agentRunOf(event: LoopEvent): AgentRun | undefined {
  if (event.type !== "tool_end" || event.call.name !== "bash") return undefined;
  const end = event.outcome.details?.command;
  if (end === undefined) return undefined;
  let command = "";
  try {
    const args = JSON.parse(event.call.arguments) as { command?: unknown };
    command = typeof args.command === "string" ? args.command : "";
  } catch {
    return undefined;
  }
  return { command: command.split("\n")[0] ?? "", exitCode: end.exitCode };
}

export function ciDelivery(options: CiDeliveryOptions): DeliveryPort<ThreadWorkspace, Delivered> {
  const { task, api, evidence, record, log } = options;
  const run = task.failedRun!;
  const now = options.now ?? Date.now;
  const agentRuns: AgentRun[] = [];
  let proof: ProofReport | undefined = evidence.proof.runnable
    ? undefined
    : { runnable: false, step: evidence.proof.step, why: evidence.proof.why };
  let classified = options.classified;
  let pull: PullLink | undefined;
  let costUsd = 0;
  /** The repair's diff as the session left it (handOver reads it once). */
  let repair = "";

  const facts = (): CiFacts => ({
    run,
    signatures: options.signatures,
    classified,
    proof,
    agentRuns: agentRuns.slice(-AGENT_RUNS_SHOWN),
    attempts: { count: options.attemptsBefore + 1, cap: options.cap },
    weakenings: record.weakenings,
    failureToPullMs: pull === undefined ? undefined : now() - options.failedAt,
    costUsd,
  });

  const ledgerWith = (outcome: AttemptOutcome): Record<string, unknown> => {
    const share = costUsd / Math.max(1, options.signatures.length);
    let ledger = options.ledger;
    for (const signature of options.signatures) {
      ledger = recordAttempt(ledger, signature, {
        runId: run.id,
        attempt: run.attempt,
        headSha: run.headSha,
        branch: run.headBranch,
        outcome,
        ...(pull === undefined ? {} : { pullRequest: pull.number }),
        costUsd: share,
        at: new Date(now()).toISOString(),
      });
    }
    return { [LEDGER_NAME]: ledger };
  };

  /** Where a failure's story is told on GitHub: the failing branch's open PR, if it has one. */
  const commentOnBranchPull = async (body: string): Promise<void> => {
    try {
      const open = await api.findOpenPull(run.headBranch);
      if (open === undefined || open.number === pull?.number) return;
      await api.createComment(open.number, body);
      log.info(`commented on #${open.number}, the open pull request of ${run.headBranch}`);
    } catch (error) {
      log.warning(
        `could not comment on the pull request of ${run.headBranch}: ${describeError(error)}`,
      );
    }
  };

  const base = threadDelivery({
    ...options,
    issueTitle: () => Promise.resolve(`CI: ${run.workflowName} failed on ${run.headBranch}`),
    beforeDeliver: async (_result, workspace) => {
      // handOver read the repair's diff just before; nothing changes the checkout in between.
      const diff = repair;
      record.weakenings = findWeakenings(diff);
      const step = evidence.proof;
      if (step.runnable && record.red !== undefined) {
        const after = [];
        if (diff.trim() !== "" && record.weakenings.length === 0) {
          for (let round = 1; round <= options.proofRuns; round++) {
            const green = await proofInSandbox(options.sandbox(), workspace.path, step, options);
            log.info(
              `proof: after the fix, run ${round}/${options.proofRuns}: ${green.timedOut ? "timed out" : `exit ${green.exitCode}`}`,
            );
            after.push(green);
          }
        }
        proof = { runnable: true, command: proofCommand(step), before: record.red, after };
      }
      const holds = step.runnable ? proofHolds(proof) : true;
      return {
        section: ciPullSection(facts()),
        draft: !holds || record.weakenings.length > 0,
      };
    },
    summarySection: () => `### CI repair\n\n${ciFactsList(facts())}`,
  });

  return {
    ...base,
    observe: (event, state) => {
      const agentRun = agentRunOf(event);
      if (agentRun !== undefined) agentRuns.push(agentRun);
      base.observe(event, state);
    },
    handOver: async (result, state, workspace) => {
      costUsd = result.cost;
      const said = CLASS_LINE.exec(result.summary)?.[1] as FailureClass | undefined;
      repair = await repairDiff(workspace.path, workspace.baseSha);
      if (said !== undefined && said !== "code" && repair.trim() === "") {
        // The agent looked and found no cause in the code: its answer is the evidence people get.
        classified = { class: said, because: "the agent found no cause in the code" };
        await commentOnBranchPull(
          notCodeComment(facts(), evidence.jobs[0]?.excerpt.firstError ?? null, result.summary),
        );
        return {
          outcome: { ending: { phase: "no-changes", summary: result.summary } },
          headSha: null,
          prNumber: null,
          ledgers: ledgerWith("commented"),
        };
      }
      const handed = await base.handOver(result, state, workspace);
      const { ending } = handed.outcome;
      pull = "pull" in ending ? ending.pull : undefined;
      if (pull !== undefined) await commentOnBranchPull(fixPullComment(facts(), pull));
      const outcome: AttemptOutcome =
        pull === undefined
          ? ending.phase === "failed"
            ? "failed"
            : "no-change"
          : record.weakenings.length > 0
            ? "refused-weakening"
            : pull.draft
              ? "draft"
              : "pull-request";
      return { ...handed, ledgers: ledgerWith(outcome) };
    },
    salvage: async (error, workspace) => {
      const handed = await base.salvage(error, workspace);
      return { ...handed, ledgers: ledgerWith("failed") };
    },
  };
}
