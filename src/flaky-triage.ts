/**
 * Scheduled flaky-test triage, the action's answer to `schedule` (and to a manual run whose task is
 * `flaky-triage`): the history of the configured workflows on the default branch, read from GitHub
 * alone (run/ends/flaky-history.ts), becomes flakes and broken tests (flaky/detect.ts), merged into
 * the ledger in the triage thread's notes (flaky/ledger.ts). Tracking issues that already exist
 * hear of new failures (reopened when closed), are closed once a merged fix held through the
 * look-back window, or propose lifting a quarantine. Then the top-ranked open flakes each get the
 * agent, through the one Run, on their tracking issue's thread: it reruns the test in the sandbox,
 * names a cause, and fixes or quarantines it — checked against the reruns the harness counted.
 * Broken tests are reported, never quarantined.
 */
import * as core from "@actions/core";
import { detectFlakes } from "./flaky/detect.ts";
import {
  EMPTY_FLAKE_LEDGER,
  FLAKE_LEDGER_NAME,
  dueForClosing,
  dueForUnquarantine,
  flakeLedgerFromNotes,
  mergeDetection,
  rankEntries,
  recordOutcome,
} from "./flaky/ledger.ts";
import type { FlakeEntry, FlakeLedger } from "./domain/flaky.ts";
import type { Notes } from "./domain/notes.ts";
import type { Task } from "./domain/task.ts";
import { describeError, PitcrewError } from "./errors.ts";
import type { CiApi } from "./github/ci.ts";
import type { FlakyApi, TrackedIssue } from "./github/flaky.ts";
import { setOutputs } from "./github/report.ts";
import { git } from "./git/git.ts";
import { knownSecrets, withholdSecrets } from "./git/secret-scan.ts";
import { createLogGroups, phasedLog } from "./log-groups.ts";
import {
  brokenComment,
  closingComment,
  flakedAgainComment,
  markedKey,
  trackingBody,
  trackingTitle,
  triageSummary,
  unquarantineComment,
} from "./present/flaky-report.ts";
import type { TriageSummary } from "./present/flaky-report.ts";
import { runTask } from "./run/run.ts";
import { threadNotes } from "./run/ends/action-notes.ts";
import { outcomeOf } from "./run/ends/action-run.ts";
import type { WorkOptions, WorkOutcome } from "./run/ends/action-run.ts";
import { threadWorkspace } from "./run/ends/action-workspace.ts";
import { saveLedgers } from "./run/ends/ci-notes.ts";
import { flakyDelivery } from "./run/ends/flaky-delivery.ts";
import type { DeliveredVerdict } from "./run/ends/flaky-delivery.ts";
import { gatherHistory } from "./run/ends/flaky-history.ts";
import type { History } from "./run/ends/flaky-history.ts";
import { flakyRequest } from "./run/ends/flaky-request.ts";
import { actionNamespaces } from "./run/ends/namespaces.ts";
import { actionReport } from "./run/ends/action-report.ts";
import type { TriageRecord } from "./run/ends/flaky-request.ts";

export interface FlakyTriageOptions extends WorkOptions {
  ci: CiApi;
  flaky: FlakyApi;
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Excerpts of an entry's latest failures put in the prompt. */
const EXCERPTS_SHOWN = 2;

type Log = WorkOptions["log"];

/** The triage thread's ledger; one that fails its check is a warning and starts empty. */
function ledgerOf(notes: Notes | undefined, log: Log): FlakeLedger {
  if (notes === undefined) return EMPTY_FLAKE_LEDGER;
  try {
    return flakeLedgerFromNotes(notes.state.ledgers);
  } catch (error) {
    log.warning(`the flaky-test ledger was not used: ${describeError(error)}`);
    return EMPTY_FLAKE_LEDGER;
  }
}

/**
 * Tracking issues found by their marker, for entries the ledger names no issue for (notes that
 * expired). Anyone may open an issue with the marker in it, so only those opened by a bot account
 * (the token's: GitHub Actions or an App) with the triage's label count; a person's is left alone.
 */
function issuesByKey(issues: readonly TrackedIssue[]): Map<string, TrackedIssue> {
  const found = new Map<string, TrackedIssue>();
  for (const issue of issues) {
    const key = markedKey(issue.body);
    if (key === undefined || issue.author.type !== "Bot" || found.has(key)) continue;
    found.set(key, issue);
  }
  return found;
}

/** The page of run `id`, from this run's page (`<server>/<owner>/<repo>/actions/runs/<id>`). */
function runPages(runUrl: string): (id: number) => string {
  const base = runUrl.replace(/\/actions\/runs\/[^/]*$/, "/actions/runs");
  return (id) => `${base}/${id}`;
}

/** The newest log excerpts of an entry's failures. */
function excerptsFor(
  entry: FlakeEntry,
  history: History,
): { job: string; runId: number; text: string }[] {
  const wanted = new Set(entry.occurrences.map((one) => `${one.runId}/${one.job}`));
  return [...history.excerpts.values()]
    .filter((excerpt) => wanted.has(`${excerpt.runId}/${excerpt.job}`))
    .sort((a, b) => b.runId - a.runId)
    .slice(0, EXCERPTS_SHOWN);
}

export async function triageFlakes(options: FlakyTriageOptions): Promise<WorkOutcome> {
  const { task, config, api, flaky, log } = options;
  const settings = config.flakyTriage;
  const nowMs = (options.now ?? Date.now)();
  const now = new Date(nowMs).toISOString();
  const lookbackMs = settings.lookbackDays * DAY_MS;
  const secrets = knownSecrets(options.env, config);
  const withhold = (text: string): string => withholdSecrets(text, secrets);
  const runUrl = runPages(options.runUrl);
  if (settings.workflows.length === 0) {
    throw new PitcrewError(
      "config-invalid",
      "Flaky-test triage reads the history of the workflows you name: add `flaky-triage:` with `workflows: [ci.yml]` (the files in .github/workflows/ that run your tests) to .github/pitcrew.yml.",
    );
  }

  const notes = threadNotes(options.notes, task.threadKey, log);
  const [restored, history, labelled] = await Promise.all([
    notes.restore(),
    gatherHistory({
      flaky,
      ci: options.ci,
      workflows: settings.workflows,
      branch: task.repository.defaultBranch,
      since: new Date(nowMs - lookbackMs).toISOString(),
      log,
    }),
    flaky.labelledIssues(settings.label),
  ]);
  const detection = detectFlakes(history.runs);
  const merged = mergeDetection(ledgerOf(restored, log), detection, now);
  let ledger = merged.ledger;
  const found = issuesByKey(labelled);
  const issueOf = (key: string): number | undefined =>
    ledger.entries[key]?.issue ?? found.get(key)?.number;
  const updated = new Set<number>();
  const closed: number[] = [];
  const comment = (issue: number, body: string): Promise<unknown> =>
    api.createComment(issue, withhold(body)).then(() => updated.add(issue));

  // What the history added to entries that already have an issue: one comment each, no new issue.
  for (const change of merged.changes) {
    const entry = ledger.entries[change.key];
    const issue = issueOf(change.key);
    if (entry === undefined || issue === undefined) continue;
    ledger = recordOutcome(ledger, change.key, { issue }, now);
    if (change.reopened) await flaky.updateIssue(issue, { state: "open", stateReason: "reopened" });
    if (change.added.length > 0)
      await comment(issue, flakedAgainComment(change.added, change.reopened, runUrl));
    if (entry.status === "broken") {
      const broken = detection.broken.filter((one) => entry.tests.includes(one.test));
      if (broken.length > 0) await comment(issue, brokenComment(broken));
    }
  }

  // Fixes that held through the window close their issue; quarantines that did propose their end.
  for (const [key, entry] of Object.entries(ledger.entries)) {
    const issue = issueOf(key);
    if (entry.pullRequest === undefined || issue === undefined) continue;
    if (entry.status !== "fix-proposed" && entry.status !== "quarantined") continue;
    const pull = await flaky.pullMerged(entry.pullRequest);
    const mergedAt = pull.merged ? (pull.mergedAt ?? undefined) : undefined;
    if (dueForClosing(entry, now, lookbackMs, mergedAt)) {
      await comment(issue, closingComment(mergedAt!, settings.lookbackDays));
      await flaky.updateIssue(issue, { state: "closed", stateReason: "completed" });
      ledger = recordOutcome(ledger, key, { status: "closed" }, now);
      closed.push(issue);
    } else if (dueForUnquarantine(entry, now, lookbackMs, mergedAt)) {
      await comment(issue, unquarantineComment(mergedAt!, settings.lookbackDays));
      ledger = recordOutcome(ledger, key, { unquarantineProposedAt: now }, now);
    }
  }

  // The top open flakes not tried since their last failure get the agent, one after another.
  const ranked = rankEntries(ledger, now)
    .filter(({ entry }) => {
      const newest = entry.occurrences.at(-1)?.at ?? "";
      return entry.triedAt === undefined || newest > entry.triedAt;
    })
    .slice(0, settings.top);
  const handled: TriageSummary["handled"] = [];
  let last: WorkOutcome = { conclusion: "success" };
  for (const { key } of ranked) {
    const result = await handle(options, { key, ledger, history, found, runUrl, now, withhold });
    ledger = result.ledger;
    handled.push(result.handled);
    last = result.outcome;
    if (result.handled.issue !== undefined) updated.add(result.handled.issue);
  }

  const place = {
    threadKey: task.threadKey,
    repository: `${task.repository.owner}/${task.repository.repo}`,
    branch: `${config.branchPrefix}${task.threadKey}`,
    baseBranch: task.repository.defaultBranch,
    baseSha: (await git(options.workspace, ["rev-parse", "HEAD"])).stdout.trim(),
  };
  await saveLedgers(options.notes.store, restored, place, { [FLAKE_LEDGER_NAME]: ledger }).then(
    () => options.notes.onSaved?.(),
    (error: unknown) => log.warning(`The flaky-test ledger was not saved: ${describeError(error)}`),
  );
  const summary = triageSummary({
    workflows: settings.workflows,
    lookbackDays: settings.lookbackDays,
    runs: history.runs.length,
    commits: detection.commits,
    flaky: Object.values(ledger.entries).filter((entry) => entry.status !== "broken").length,
    broken: detection.broken,
    handled,
    updated: [...updated],
    closed,
  });
  log.info(`flaky triage: ${summary.split("\n").slice(1).join("; ")}`);
  try {
    await core.summary
      .addHeading("pitcrew flaky-test triage", 2)
      .addRaw(`\n${withhold(summary)}\n`, true)
      .write();
  } catch (error) {
    core.summary.emptyBuffer();
    log.warning(`Could not write the job summary: ${describeError(error)}`);
  }
  if (ranked.length === 0) setOutputs({ conclusion: "success" });
  return last;
}

interface Handling {
  key: string;
  ledger: FlakeLedger;
  history: History;
  found: Map<string, TrackedIssue>;
  runUrl: (id: number) => string;
  now: string;
  withhold: (text: string) => string;
}

/** One flake through the agent: its tracking issue first (the quarantine links it), then the Run. */
async function handle(
  options: FlakyTriageOptions,
  handling: Handling,
): Promise<{
  ledger: FlakeLedger;
  handled: TriageSummary["handled"][number];
  outcome: WorkOutcome;
}> {
  const { task, config, api, flaky, log } = options;
  const { key, now, withhold } = handling;
  const settings = config.flakyTriage;
  let ledger = handling.ledger;
  let entry = ledger.entries[key]!;
  const title = trackingTitle(entry);
  const body = (verdict?: TriageRecord["verdict"], pullUrl?: string): string =>
    withhold(
      trackingBody({
        key,
        entry,
        verdict,
        runUrl: handling.runUrl,
        pullUrl,
        lookbackDays: settings.lookbackDays,
      }),
    );
  let issue = entry.issue ?? handling.found.get(key)?.number;
  let issueUrl = handling.found.get(key)?.htmlUrl;
  if (issue === undefined) {
    const created = await flaky.createIssue({
      title: withhold(title),
      body: body(),
      labels: [settings.label],
    });
    issue = created.number;
    issueUrl = created.htmlUrl;
    log.info(`flaky triage: opened the tracking issue #${issue} for ${title}`);
  }
  issueUrl ??= (await api.issue(issue)).htmlUrl;
  ledger = recordOutcome(ledger, key, { issue }, now);

  const entryTask: Task = {
    ...task,
    thread: { kind: "issue", number: issue },
    threadKey: `issue-${issue}`,
  };
  const record: TriageRecord = { batches: [], diff: "", weakenings: [] };
  const checked: DeliveredVerdict = { holds: false };
  const groups = createLogGroups({ ...log, info: (message) => log.info(withhold(message)) });
  const { ending } = await runTask({
    namespaces: actionNamespaces(options, entryTask),
    request: flakyRequest({
      task: entryTask,
      config,
      facts: { entry, issueUrl, excerpts: excerptsFor(entry, handling.history) },
      record,
      protectedPaths: options.protectedPaths,
      log,
    }),
    workspace: threadWorkspace({
      task: entryTask,
      config,
      checkout: options.workspace,
      pull: () => Promise.resolve(undefined),
      log,
      base: task.repository.defaultBranch,
    }),
    // Each flake's session starts fresh: the triage's ledger is what carries over.
    notes: { store: options.notes.store, restore: () => Promise.resolve(undefined) },
    delivery: flakyDelivery(
      {
        publishReport: actionReport(options, entryTask),
        task: entryTask,
        config,
        api,
        workspace: options.workspace,
        runUrl: options.runUrl,
        secrets: knownSecrets(options.env, config),
        protectedPaths: options.protectedPaths,
        groups,
        log,
        entry,
        record,
        issueUrl,
        reruns: settings.reruns,
        quarantineAllowed: settings.quarantine,
      },
      checked,
    ),
    log: phasedLog(log, groups),
    env: options.env,
    signal: options.signal,
  });

  const verdict = record.verdict;
  const pull = "pull" in ending ? ending.pull : undefined;
  const status =
    checked.holds && pull !== undefined && verdict?.action === "fix"
      ? "fix-proposed"
      : checked.holds && pull !== undefined && verdict?.action === "quarantine"
        ? "quarantined"
        : "open";
  ledger = recordOutcome(
    ledger,
    key,
    {
      status,
      category: verdict?.category,
      reruns: record.batches,
      triedAt: now,
      ...(pull === undefined ? {} : { pullRequest: pull.number }),
    },
    now,
  );
  entry = ledger.entries[key]!;
  await flaky.updateIssue(issue, { body: body(verdict, pull?.url) });
  const outcome =
    status === "fix-proposed"
      ? `fix proposed in #${pull!.number}`
      : status === "quarantined"
        ? `quarantined in #${pull!.number}`
        : verdict?.action === "none"
          ? "no change: not reproduced or no plausible cause (evidence in the issue)"
          : `no fix or quarantine accepted${checked.problem === undefined ? "" : `: ${checked.problem}`}`;
  return { ledger, handled: { title, issue, outcome }, outcome: outcomeOf(ending) };
}
