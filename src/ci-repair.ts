/**
 * Failing-CI repair, the action's answer to a failed `workflow_run`: the guards (forks, branch
 * patterns, who started the run, bots), the evidence (jobs, logs, excerpts, signatures, the
 * commits since green), the class (code, flaky, infrastructure, configuration) and the ledger's
 * caps decide first, with the reason in the log and the job summary. A flaky failure gets its
 * failed jobs re-run, an infrastructure or configuration one a comment; only a code failure gets
 * the agent, through the one Run (run/run.ts) with the CI ends (run/ends/ci-*.ts): the proof red
 * before, green after, a PR from `pitcrew/ci-<branch>` into the failing branch.
 */
import * as core from "@actions/core";
import type { Classified } from "./domain/ci.ts";
import { classifyFailure } from "./ci/classify.ts";
import { LEDGER_NAME, recordAttempt, repairPlan, rerunOnCommit } from "./ci/ledger.ts";
import type { CiRepairSettings } from "./config/config.ts";
import { branchMatches, classifyOverride } from "./config/ci-repair.ts";
import type {
  AttemptOutcome,
  FailedRun,
  FailureLedger,
  FailureSignature,
  RepairCaps,
} from "./domain/ci.ts";
import type { Conclusion } from "./domain/ending.ts";
import { describeError } from "./errors.ts";
import type { CiApi } from "./github/ci.ts";
import { setOutputs } from "./github/report.ts";
import { knownSecrets, withholdSecrets } from "./git/secret-scan.ts";
import { createLogGroups, phasedLog } from "./log-groups.ts";
import type { CiFacts } from "./present/ci-report.ts";
import { ciFactsList, notCodeComment } from "./present/ci-report.ts";
import { runTask } from "./run/run.ts";
import { sessionSettings } from "./run/ends/action-request.ts";
import { threadBranch, threadWorkspace } from "./run/ends/action-workspace.ts";
import { ciDelivery } from "./run/ends/ci-delivery.ts";
import { gatherEvidence } from "./run/ends/ci-evidence.ts";
import type { Evidence } from "./run/ends/ci-evidence.ts";
import { ledgerOf, otherLedgers, saveLedgers, withOtherBranches } from "./run/ends/ci-notes.ts";
import { ciRequest } from "./run/ends/ci-request.ts";
import type { RepairRecord } from "./run/ends/ci-request.ts";
import { threadNotes } from "./run/ends/action-notes.ts";
import { WRITERS, isBot } from "./triggers/authorize.ts";
import { outcomeOf } from "./run/ends/action-run.ts";
import { actionNamespaces } from "./run/ends/namespaces.ts";
import { actionReport } from "./run/ends/action-report.ts";
import type { WorkOptions, WorkOutcome } from "./run/ends/action-run.ts";

export interface CiRepairOptions extends WorkOptions {
  ci: CiApi;
}

/** Why a run is not looked at at all, or undefined; forks in comment mode are looked at. */
async function guard(run: FailedRun, options: CiRepairOptions): Promise<string | undefined> {
  const { task, config, api } = options;
  const settings = config.ciRepair;
  const own = `${task.repository.owner}/${task.repository.repo}`;
  if (run.headRepository.toLowerCase() !== own.toLowerCase() && settings.forks === "ignore") {
    return (
      `the failed run's code comes from the fork ${run.headRepository || "(unknown)"}: a workflow_run job ` +
      "runs with this repository's secrets and write token, so pitcrew does not work on a fork's code " +
      "(set ci-repair.forks: comment for a comment with the analysis instead)"
    );
  }
  if (!branchMatches(settings.branches, run.headBranch)) {
    return `the branch ${run.headBranch} is not one ci-repair.branches lists (${settings.branches.join(", ")})`;
  }
  for (const login of new Set([run.actor, run.triggeringActor])) {
    if (isBot({ login, type: login === task.requester.login ? task.requester.type : "" })) {
      if (!config.allowedBots.some((bot) => bot.toLowerCase() === login.toLowerCase())) {
        return `the run was started by the bot @${login}, which allowed-bots does not list`;
      }
      continue;
    }
    const permission = await api.permission(login);
    if (!WRITERS.includes(permission)) {
      return `@${login} started the run and has ${permission} access, not write: pitcrew repairs only runs people with write access started`;
    }
  }
  return undefined;
}

/** The caps for this branch: one attempt at most on pitcrew's own fix branches, so fixes never chain. */
function capsFor(branch: string, settings: CiRepairSettings, prefix: string): RepairCaps {
  return branch.startsWith(prefix)
    ? { ...settings.caps, perBranch: Math.min(1, settings.caps.perBranch) }
    : settings.caps;
}

/** The harness's class, overruled by the repository's `ci-repair.classify` when one matches. */
function classOf(evidence: Evidence, run: FailedRun, settings: CiRepairSettings): Classified {
  for (const job of evidence.jobs) {
    const override = classifyOverride(settings, job.excerpt.firstError, job.excerpt.failingTests);
    if (override !== undefined) {
      return { class: override, because: "the repository's ci-repair.classify says so" };
    }
  }
  return classifyFailure({
    conclusion: run.conclusion,
    jobs: evidence.jobs,
    passedOnRerun: evidence.passedElsewhere,
  });
}

/** Earlier attempts on these failures, for the agent, one line each. */
function earlierLines(ledger: FailureLedger, signatures: readonly FailureSignature[]): string[] {
  return signatures.flatMap((signature) =>
    (ledger.failures[signature.key]?.attempts ?? []).map(
      (attempt) =>
        `run ${attempt.runId} on ${attempt.branch} at ${attempt.headSha.slice(0, 12)}: ${attempt.outcome}${attempt.pullRequest === undefined ? "" : ` (#${attempt.pullRequest})`}`,
    ),
  );
}

export async function repairFailedRun(options: CiRepairOptions): Promise<WorkOutcome> {
  const { task, config, api, ci, log } = options;
  const run = task.failedRun;
  if (run === undefined) throw new Error("a ci-repair task carries its failed run");
  const settings = config.ciRepair;
  const secrets = knownSecrets(options.env, config);
  const withhold = (text: string): string => withholdSecrets(text, secrets);

  /** The summary and outputs of a run that ends without the agent. */
  const ended = async (
    conclusion: Conclusion,
    headline: string,
    body: string,
  ): Promise<WorkOutcome> => {
    log.info(`ci-repair: ${headline}: ${body.split("\n")[0]}`);
    try {
      await core.summary
        .emptyBuffer()
        .addHeading(headline, 2)
        .addRaw(`\n${withhold(body)}\n`, true)
        .write();
    } catch (error) {
      core.summary.emptyBuffer();
      log.warning(`Could not write the job summary: ${describeError(error)}`);
    }
    setOutputs({ conclusion });
    return { conclusion };
  };
  const skipped = (why: string): Promise<WorkOutcome> =>
    ended("skipped", "pitcrew did not repair this failure", `Skipped: ${why}.`);

  const refusal = await guard(run, options);
  if (refusal !== undefined) return skipped(refusal);

  const notes = threadNotes(options.notes, task.threadKey, log);
  const [restored, others, evidence] = await Promise.all([
    notes.restore(),
    otherLedgers(options.notes.store, task.threadKey, log),
    gatherEvidence(ci, run, log),
  ]);
  if (evidence.jobs.length === 0) {
    return skipped(
      `no job of run ${run.id} attempt ${run.attempt} failed, so there is nothing to repair`,
    );
  }
  const ledger = ledgerOf(restored, log);
  // What the caps and the agent see: this branch's attempts and the other branches' on the same failures.
  const combined = withOtherBranches(ledger, others);
  const caps = capsFor(run.headBranch, settings, config.branchPrefix);
  const plan = repairPlan(
    combined,
    {
      runId: run.id,
      attempt: run.attempt,
      headSha: run.headSha,
      branch: run.headBranch,
      at: run.updatedAt,
    },
    evidence.jobs.map((job) => job.signature),
    caps,
  );
  const going = plan.filter((planned) => planned.decision.go).map((planned) => planned.signature);
  if (going.length === 0) {
    return skipped(
      plan
        .map(
          (planned) =>
            `failure ${planned.signature.key}: ${planned.decision.go ? "" : planned.decision.says}`,
        )
        .join("; "),
    );
  }
  const jobs = evidence.jobs.filter((job) =>
    going.some((signature) => signature.key === job.signature.key),
  );
  const classified = classOf(evidence, run, settings);
  const attemptsBefore =
    combined.failures[going[0]!.key]?.attempts.filter((attempt) => attempt.outcome !== "rerun")
      .length ?? 0;
  const place = {
    threadKey: task.threadKey,
    repository: `${task.repository.owner}/${task.repository.repo}`,
    branch: threadBranch(task, config.branchPrefix),
    baseBranch: run.headBranch,
    baseSha: run.headSha,
  };
  const facts: CiFacts = {
    run,
    signatures: going,
    classified,
    agentRuns: [],
    attempts: { count: attemptsBefore + 1, cap: caps.perSignature },
    weakenings: [],
    costUsd: 0,
  };
  /** Records an attempt that needed no agent, and says how it went. */
  const recorded = async (outcome: AttemptOutcome): Promise<void> => {
    let next = ledger;
    for (const signature of going) {
      next = recordAttempt(next, signature, {
        runId: run.id,
        attempt: run.attempt,
        headSha: run.headSha,
        branch: run.headBranch,
        outcome,
        costUsd: 0,
        at: new Date().toISOString(),
      });
    }
    await saveLedgers(options.notes.store, restored, place, { [LEDGER_NAME]: next }).catch(
      (error: unknown) => log.warning(`The failure ledger was not saved: ${describeError(error)}`),
    );
  };
  const isFork = run.headRepository.toLowerCase() !== place.repository.toLowerCase();

  if (classified.class === "flaky") {
    const rerunAlready = going.some((signature) =>
      rerunOnCommit(ledger, signature.key, run.headSha),
    );
    if (settings.rerunFlaky && !rerunAlready && !isFork) {
      await ci.rerunFailedJobs(run.id);
      await recorded("rerun");
      return ended(
        "success",
        "pitcrew re-ran the failed jobs",
        `The failure reads as flaky (${classified.because}), so the failed jobs of run ${run.id} were re-run once; no code was changed.\n\n${ciFactsList(facts)}`,
      );
    }
  }
  if (classified.class !== "code" || isFork) {
    const body = notCodeComment(
      facts,
      jobs[0]?.excerpt.firstError ?? null,
      undefined,
      isFork ? run.headRepository : undefined,
    );
    // A fork's pull request is found by its head, `owner:branch`; only read, never checked out.
    const open = await (
      isFork
        ? ci.openPullFrom(run.headRepository.split("/")[0] ?? "", run.headBranch)
        : api.findOpenPull(run.headBranch).then((pull) => pull?.number)
    ).catch((error: unknown) => {
      log.warning(`could not find the pull request of ${run.headBranch}: ${describeError(error)}`);
      return undefined;
    });
    if (open !== undefined) await api.createComment(open, withhold(body));
    await recorded("commented");
    return ended(
      "success",
      isFork
        ? "pitcrew analysed the fork's failure"
        : `pitcrew did not fix this failure: it reads as ${classified.class}`,
      body,
    );
  }

  const record: RepairRecord = { weakenings: [] };
  const groups = createLogGroups({ ...log, info: (message) => log.info(withhold(message)) });
  const session = (): ReturnType<typeof sessionSettings>["sandbox"] =>
    sessionSettings(config, task, options.protectedPaths, log).sandbox;
  const { ending } = await runTask({
    namespaces: actionNamespaces(options, task),
    request: ciRequest({
      task,
      config,
      evidence,
      jobs,
      earlier: earlierLines(combined, going),
      record,
      protectedPaths: options.protectedPaths,
      env: options.env,
      signal: options.signal,
      log,
    }),
    workspace: threadWorkspace({
      task,
      config,
      checkout: options.workspace,
      pull: () => Promise.resolve(undefined),
      log,
      base: run.headBranch,
    }),
    notes: { ...notes, restore: () => Promise.resolve(restored) },
    delivery: ciDelivery({
      publishReport: actionReport(options, task),
      task,
      config,
      api,
      workspace: options.workspace,
      runUrl: options.runUrl,
      secrets,
      protectedPaths: options.protectedPaths,
      groups,
      log,
      evidence,
      signatures: going,
      classified,
      record,
      ledger,
      attemptsBefore,
      cap: caps.perSignature,
      proofRuns: settings.proofRuns,
      sandbox: session,
      env: options.env,
      signal: options.signal,
      failedAt: Date.parse(run.updatedAt),
    }),
    log: phasedLog(log, groups),
    env: options.env,
    signal: options.signal,
  });
  return outcomeOf(ending);
}
