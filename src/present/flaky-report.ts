/**
 * The words of a flaky-test triage on GitHub: the tracking issue (a hidden marker that finds it
 * again, the status, the cause, the pull request, an evidence table of every failure and the
 * confirmation's numbers), the comments of later triages (it flaked again, it is broken, it stayed
 * green and is closed, its quarantine may go), the pull request's section, and the job summary.
 * Test ids and error lines come from logs: they are shown as code, never as Markdown. Pure.
 */
import type { BrokenTest, FlakeEntry, FlakeOccurrence, RerunBatch } from "../domain/flaky.ts";
import type { FlakeVerdict } from "../domain/flaky.ts";
import { fixConfidence } from "../stats/confidence.ts";
import { rerunWords } from "./rerun-words.ts";
import { codeSpan } from "./text.ts";

/** The hidden line a tracking issue is found by: its entry's key. */
export function trackingMarker(key: string): string {
  return `<!-- pitcrew:flaky-test ${key} -->`;
}

/** The key a tracking issue's body names, or undefined when it has no marker. */
export function markedKey(body: string | null): string | undefined {
  return /<!-- pitcrew:flaky-test ([0-9a-f]{12}) -->/.exec(body ?? "")?.[1];
}

/** Rows of the evidence table shown at most; the ledger keeps more. */
const ROWS_SHOWN = 30;
const TESTS_IN_TITLE = 2;

/** A cell of a Markdown table: code, with the pipe escaped (GitHub splits cells on it even there). */
function cell(text: string): string {
  return text === "" ? "" : codeSpan(text.slice(0, 160)).replace(/\|/g, "\\|");
}

const EVIDENCE = {
  "rerun-passed": "passed on re-run",
  "other-run-passed": "passed in another run",
  "junit-retry": "passed on the runner's retry",
} as const;

const STATUS = {
  open: "open: confirming",
  "fix-proposed": "a fix is proposed",
  quarantined: "quarantined (skipped, not fixed)",
  broken: "broken: it fails on every attempt of a commit, so it is not quarantined",
  closed: "closed: green through the look-back window after its fix",
} as const;

export function trackingTitle(entry: Pick<FlakeEntry, "tests">): string {
  const shown = entry.tests.slice(0, TESTS_IN_TITLE).join(", ");
  const more =
    entry.tests.length > TESTS_IN_TITLE ? ` and ${entry.tests.length - TESTS_IN_TITLE} more` : "";
  return `Flaky test${entry.tests.length > 1 ? "s" : ""}: ${shown}${more}`.slice(0, 200);
}

/** The table of failures, newest first, with each run linked. */
export function occurrenceTable(
  occurrences: readonly FlakeOccurrence[],
  runUrl: (runId: number) => string,
): string {
  const rows = [...occurrences]
    .reverse()
    .slice(0, ROWS_SHOWN)
    .map(
      (one) =>
        `| ${one.at.slice(0, 10)} | [${one.runId}](${runUrl(one.runId)}) #${one.attempt} | ${cell(one.job)} | \`${one.headSha.slice(0, 12)}\` | ${EVIDENCE[one.evidence]} | ${cell(one.firstError)} \`${one.signature}\` |`,
    );
  const left = occurrences.length - rows.length;
  return [
    "| date | run, attempt | job | commit | then | error (signature) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    ...(left > 0 ? [`\n…and ${left} older failure(s).`] : []),
  ].join("\n");
}

/** The confirmation's reruns, as a table and the confidence of a fix. */
export function rerunTable(batches: readonly RerunBatch[], verdict?: FlakeVerdict): string {
  if (batches.length === 0) return "_No reruns in the sandbox yet._";
  const rows = batches.map(
    (batch) =>
      `| ${cell(batch.condition)} | ${batch.runs} | ${batch.failures} | ${cell(batch.command)} | ${rerunWords(batch).replace(/^[^:]*: /, "")} |`,
  );
  const lines = [
    "| condition | runs | failures | command | what it says |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ];
  const condition = verdict?.action === "fix" ? verdict.condition : undefined;
  const before = batches.find((batch) => batch.condition === condition && batch.failures > 0);
  const after = batches.findLast((batch) => batch.condition === condition && batch.failures === 0);
  const confidence =
    before === undefined || after === undefined ? undefined : fixConfidence(before, after);
  if (confidence !== undefined) {
    lines.push(
      "",
      `Under ${cell(condition ?? "")} it failed ${before!.failures} of ${before!.runs} runs before the fix and 0 of ${after!.runs} after: had nothing changed, ${after!.runs} runs would have shown a failure with ${Math.round(confidence * 100)}% probability.`,
    );
  }
  return lines.join("\n");
}

export interface TrackingFacts {
  key: string;
  entry: FlakeEntry;
  verdict?: FlakeVerdict;
  runUrl: (runId: number) => string;
  pullUrl?: string;
  lookbackDays: number;
}

/** The tracking issue's body, rewritten by each triage that works on it. */
export function trackingBody(facts: TrackingFacts): string {
  const { entry } = facts;
  const tests = entry.tests.map((test) => `- ${codeSpan(test)}`).join("\n");
  const lines = [
    trackingMarker(facts.key),
    `pitcrew's flaky-test triage found ${entry.tests.length > 1 ? "these tests failing together" : "this test"} failing on the default branch and then passing on the same code.`,
    tests,
    `**Status:** ${STATUS[entry.status]}`,
    ...(entry.category === undefined ? [] : [`**Cause:** ${entry.category}`]),
    ...(facts.verdict === undefined ? [] : [`**Why:** ${codeSpan(facts.verdict.because)}`]),
    ...(entry.pullRequest === undefined
      ? []
      : [
          `**Pull request:** #${entry.pullRequest}${facts.pullUrl === undefined ? "" : ` (${facts.pullUrl})`}`,
        ]),
    `### Failures in CI (${entry.occurrences.length})`,
    occurrenceTable(entry.occurrences, facts.runUrl),
    "### Reruns in the sandbox",
    rerunTable(entry.reruns ?? [], facts.verdict),
    `_This issue is closed by a later triage once the fix is merged and the test stays green for ${facts.lookbackDays} days; a new failure reopens it. Each later failure is a comment here._`,
  ];
  return lines.join("\n\n");
}

/** A later triage saw it fail again. */
export function flakedAgainComment(
  added: readonly FlakeOccurrence[],
  reopened: boolean,
  runUrl: (runId: number) => string,
): string {
  return [
    reopened
      ? `**Reopened:** it failed again after this issue was closed (${added.length} new failure(s)).`
      : `It failed again: ${added.length} new failure(s).`,
    occurrenceTable(added, runUrl),
  ].join("\n\n");
}

export function brokenComment(broken: readonly BrokenTest[]): string {
  const lines = broken.map(
    (one) =>
      `- ${codeSpan(one.test)} failed on every attempt at \`${one.headSha.slice(0, 12)}\` (${one.attempts.join(", ")})`,
  );
  return [
    "**Broken, not flaky:** it now fails on every attempt of a commit, so it is not quarantined; a code change broke it.",
    ...lines,
  ].join("\n");
}

export function closingComment(mergedAt: string, lookbackDays: number): string {
  return `Closing: the fix was merged on ${mergedAt.slice(0, 10)} and the test has not failed since, through the whole look-back window (${lookbackDays} days). A new failure reopens this issue.`;
}

export function unquarantineComment(mergedAt: string, lookbackDays: number): string {
  return `The quarantine was merged on ${mergedAt.slice(0, 10)} and nothing in its group has failed for ${lookbackDays} days. If the cause has been fixed since, remove the skip marker and let the next triage watch it.`;
}

/** The pull request's section: which it is, the cause and the numbers. */
export function flakyPullSection(facts: {
  verdict: FlakeVerdict;
  batches: readonly RerunBatch[];
  issueUrl: string;
}): string {
  const { verdict } = facts;
  const head =
    verdict.action === "quarantine"
      ? `> [!WARNING]\n> **Quarantine, not a fix:** this skips the flaky test with its framework's own marker so it stops turning builds red. The cause is still there; ${facts.issueUrl} tracks it.`
      : `A fix for a flaky test, proved in the sandbox by the reruns below; ${facts.issueUrl} tracks it.`;
  return [
    "### Flaky-test triage",
    head,
    `**Cause:** ${verdict.category} — ${codeSpan(verdict.because)}`,
    rerunTable(facts.batches, verdict),
  ].join("\n\n");
}

export interface TriageSummary {
  workflows: string[];
  lookbackDays: number;
  runs: number;
  commits: { total: number; redOnlyFromFlakes: number };
  flaky: number;
  broken: readonly BrokenTest[];
  handled: { title: string; issue?: number; outcome: string }[];
  updated: number[];
  closed: number[];
}

/** The job summary of a triage. */
export function triageSummary(facts: TriageSummary): string {
  const share =
    facts.commits.total === 0
      ? "no commits"
      : `${facts.commits.redOnlyFromFlakes} of ${facts.commits.total} (${Math.round((facts.commits.redOnlyFromFlakes / facts.commits.total) * 100)}%)`;
  return [
    `Read ${facts.runs} run(s) of ${facts.workflows.map(codeSpan).join(", ")} on the default branch over the last ${facts.lookbackDays} days.`,
    `- commits whose only red builds were flakes: ${share}`,
    `- flaky tests (or groups) in the ledger: ${facts.flaky}`,
    `- broken tests (failed every attempt of a commit; never quarantined): ${facts.broken.length === 0 ? "none" : facts.broken.map((one) => codeSpan(one.test)).join(", ")}`,
    ...facts.handled.map(
      (one) =>
        `- handled: ${codeSpan(one.title)}${one.issue === undefined ? "" : ` (#${one.issue})`}: ${one.outcome}`,
    ),
    ...(facts.updated.length === 0
      ? []
      : [`- tracking issues updated: ${facts.updated.map((n) => `#${n}`).join(", ")}`]),
    ...(facts.closed.length === 0
      ? []
      : [`- tracking issues closed: ${facts.closed.map((n) => `#${n}`).join(", ")}`]),
  ].join("\n");
}
