/**
 * The job summary on the run's page: a heading, the facts (what was asked, how it ended, where the
 * work is, what it cost), the model's summary and a table of the tool calls. Built with the
 * toolkit's summary builder, which only assembles text; writing it is github/report.ts's.
 */
import * as core from "@actions/core";
import { conclusionOf } from "../domain/ending.ts";
import type { FinalState } from "../domain/ending.ts";
import type { ToolTally } from "../domain/run-state.ts";
import { audienceOf } from "./defuse.ts";
import { STOP_CAUSES, formatTotals } from "./describe.ts";
import {
  HEADLINES,
  SENTENCE_LIMIT,
  codeSpan,
  continueSentence,
  pullLink,
  quotedLine,
  quotedMarkdown,
  requestLine,
  threadRef,
} from "./text.ts";

export type JobReport = FinalState & {
  tally: ToolTally;
  /** The thread's branch, when it was pushed. */
  branch?: string;
  /** Markdown of the harness's own after the facts (a CI repair's signature, class and proof). */
  section?: string;
  /** A Mermaid chart of the context per request (report/mermaid.ts), which GitHub renders. */
  chart?: string;
};

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The facts as a Markdown list: what was asked, how it ended, where the work is, what it cost. */
function factsOf(report: JobReport): string {
  const audience = audienceOf(report.task, report.runUrl);
  const facts = [
    requestLine(report.task, audience),
    `Conclusion: \`${conclusionOf(report.phase)}\``,
  ];
  const pull =
    report.phase === "done" || report.phase === "stopped" || report.phase === "failed"
      ? report.pull
      : undefined;
  if (pull !== undefined) facts.push(`Pull request: ${pullLink(pull)}`);
  if (report.branch !== undefined) facts.push(`Branch: ${codeSpan(report.branch)}`);
  if (report.phase === "stopped")
    facts.push(
      `Stopped: ${STOP_CAUSES[report.stopReason]}. ${continueSentence(threadRef(report.task))}`,
    );
  if (report.phase === "failed")
    facts.push(`Error: ${quotedLine(report.error, audience, SENTENCE_LIMIT)}`);
  if (report.phase === "refused")
    facts.push(`Refused: ${quotedLine(report.reason, audience, SENTENCE_LIMIT)}`);
  if (report.totals !== undefined) facts.push(formatTotals(report.totals));
  if (report.reportUrl !== undefined)
    facts.push(`Run report: [the run's page](${report.reportUrl})`);
  return facts.map((fact) => `- ${fact}`).join("\n");
}

/** The summary's HTML and Markdown, as the toolkit would write it. */
export function renderJobSummary(report: JobReport): string {
  const summary = core.summary
    .emptyBuffer()
    .addHeading(HEADLINES[report.phase], 2)
    .addRaw(`\n${factsOf(report)}\n`, true);
  if (report.section !== undefined) summary.addRaw(`\n${report.section}\n`, true);
  if (report.chart !== undefined) {
    summary.addHeading("Context per request", 3).addRaw(`\n${report.chart}\n`, true);
  }
  const said =
    report.phase === "done" || report.phase === "stopped" || report.phase === "no-changes"
      ? report.summary
      : "";
  if (said.trim() !== "")
    summary
      .addHeading("Summary", 3)
      .addRaw(`\n${quotedMarkdown(said, audienceOf(report.task, report.runUrl))}\n`, true);
  if (report.tally.length > 0) {
    const header = ["Tool", "Calls", "Failed", "Time"].map((data) => ({ data, header: true }));
    const rows = report.tally.map((count) => [
      `<code>${escapeHtml(count.name)}</code>`,
      String(count.calls),
      String(count.failures),
      `${(count.totalMs / 1000).toFixed(1)} s`,
    ]);
    summary.addHeading("Tool calls", 3).addTable([header, ...rows]);
  }
  const text = summary.stringify();
  summary.emptyBuffer();
  return text;
}
