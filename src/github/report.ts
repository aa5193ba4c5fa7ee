/**
 * What a run tells people besides the progress comment: the pull request's title and body, the job
 * summary, the action's outputs, and the tally of tool calls behind them. Also the text rules they
 * all share, so that the model's (or anyone's) words cannot break the page they land on. Creating
 * or updating the pull request itself is not done here.
 */
import * as core from "@actions/core";
import type { StopReason } from "../domain/loop.ts";
import type { ToolTally } from "../domain/run-state.ts";
import { STOP_CAUSES, formatTotals } from "../present/describe.ts";
import { totalTokens } from "../domain/usage.ts";
import type { Totals } from "../domain/usage.ts";
import { describeError } from "../errors.ts";
import { TODO_WRITE } from "../domain/todos.ts";
import type { Task } from "../domain/task.ts";
import { PITCREW_COMMENT_MARKER } from "../domain/conversation.ts";
import {
  audienceOf,
  defuseInline,
  defuseMarkdown,
  defusePlain,
  longestRun,
  neutraliseClosing,
} from "./defuse.ts";
import type { Audience } from "./defuse.ts";
import type { FinalPhase, FinalState, Phase, PullLink } from "./progress.ts";

/** The action's `conclusion` output. `skipped`: the event asked nothing of pitcrew. */
export type Conclusion = "success" | "stopped" | "no-changes" | "failure" | "refused" | "skipped";

export interface PullRequestFacts {
  task: Task;
  /** The issue's (or PR's) title on an issue or PR thread. */
  issueTitle?: string;
  /** The model's final answer: what was wrong, what changed, how it was checked. */
  summary: string;
  stopReason: StopReason;
  /** `git diff --stat` of the branch against its base. */
  diffstat: string;
  runUrl: string;
  totals: Totals;
}

export type JobReport = FinalState & {
  tally: ToolTally;
  /** The thread's branch, when it was pushed. */
  branch?: string;
};

export interface ActionOutputs {
  conclusion: Conclusion;
  pull?: PullLink;
  branch?: string;
  totals?: Totals;
}

/** The most of the model's summary any page shows; GitHub refuses bodies over 65,536 characters. */
export const SUMMARY_LIMIT = 8000;
/** The most of an error's or a refusal's sentence shown. */
export const SENTENCE_LIMIT = 1000;
const TITLE_LIMIT = 72;

/** The first line of every report, per phase. */
export const HEADLINES: Record<Phase, string> = {
  working: "pitcrew is working on it",
  done: "pitcrew finished",
  stopped: "pitcrew stopped early",
  "no-changes": "pitcrew finished without changing anything",
  failed: "pitcrew failed",
  refused: "pitcrew did not start",
};

const CONCLUSIONS: Record<FinalPhase, Conclusion> = {
  done: "success",
  stopped: "stopped",
  "no-changes": "no-changes",
  failed: "failure",
  refused: "refused",
};

export function conclusionOf(phase: FinalPhase): Conclusion {
  return CONCLUSIONS[phase];
}

// ---- Text rules -------------------------------------------------------------------------------

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const lineEnd = text.lastIndexOf("\n", limit);
  const kept = text.slice(0, lineEnd > limit / 2 ? lineEnd : limit).trimEnd();
  return `${kept}\n\n… (${(text.length - kept.length).toLocaleString("en-US")} more characters cut)`;
}

/**
 * Markdown someone else wrote (the model's summary), made safe to embed: at most `limit`
 * characters, defused for its audience (defuse.ts: no closing keyword for another issue, no
 * mention, no image or link to another host, no raw HTML), and a code fence it left open closed,
 * so what follows it still renders as written.
 */
export function quotedMarkdown(text: string, audience: Audience, limit = SUMMARY_LIMIT): string {
  return defuseMarkdown(cut(text.replace(/\r\n?/g, "\n").trim(), limit), audience);
}

/** Someone else's words on one line: whitespace collapsed, at most `limit` characters, defused. */
export function quotedLine(text: string, audience: Audience, limit = 120): string {
  const line = text.replace(/\s+/g, " ").trim();
  return defuseInline(line.length > limit ? `${line.slice(0, limit - 1)}…` : line, audience);
}

/** Inline code that survives backticks in the text. */
export function codeSpan(text: string): string {
  const line = text.replace(/\s+/g, " ");
  const ticks = "`".repeat(longestRun(line, "`") + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

/** A fenced block that survives fences in the text. */
export function codeBlock(text: string): string {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  return `${fence}text\n${text.replace(/\s+$/, "")}\n${fence}`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** How to go on after an early stop; `where` names the thread when the text is not on it. */
export function continueSentence(where?: string): string {
  return `Reply \`/agent continue\`${where === undefined ? "" : ` on ${where}`} to go on from here.`;
}

/** `[#34](url) (draft)` */
export function pullLink(pull: PullLink): string {
  return `[#${pull.number}](${pull.url})${pull.draft ? " (draft)" : ""}`;
}

/** What was asked, as people would have typed it: `/agent fix`, `/agent continue`, … */
export function requestWords(task: Pick<Task, "kind">): string {
  switch (task.kind) {
    case "fix":
      return "/agent fix";
    case "continue":
      return "/agent continue";
    case "instruction":
      return "/agent";
    case "dispatch":
      return "a workflow dispatch";
  }
}

/** `@alice asked for `/agent fix`: “the words after it”` */
export function requestLine(
  task: Pick<Task, "kind" | "instruction" | "requester">,
  audience: Audience,
): string {
  const words = requestWords(task);
  const asked = task.kind === "dispatch" ? words : codeSpan(words);
  const instruction = task.instruction.trim();
  return `@${task.requester.login} asked for ${asked}${instruction === "" ? "" : `: “${quotedLine(instruction, audience)}”`}`;
}

// ---- Pull request -----------------------------------------------------------------------------

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

function shortTitle(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_LIMIT) return line;
  const space = line.lastIndexOf(" ", TITLE_LIMIT - 1);
  return `${line.slice(0, space > TITLE_LIMIT / 2 ? space : TITLE_LIMIT - 1)}…`;
}

/** Where the thread is, for "Fixes #12" and "reply on #12". */
function threadRef(task: Pick<Task, "thread">): string | undefined {
  return task.thread.kind === "dispatch" ? undefined : `#${task.thread.number}`;
}

/**
 * The pull request's title and body. The title is the issue's for `fix` and otherwise the
 * instruction's first line; the body leads with the model's summary, then the changes, the issue
 * link (`Fixes` only when the work is done: an early stop is `Part of` and says it is unfinished),
 * who asked, the run and what it cost.
 */
export function pullRequestText(facts: PullRequestFacts): { title: string; body: string } {
  const { task, stopReason } = facts;
  const instruction = firstLine(task.instruction);
  const source =
    task.kind === "fix"
      ? (facts.issueTitle ?? instruction)
      : instruction === ""
        ? facts.issueTitle
        : instruction;
  const audience = audienceOf(task, facts.runUrl);
  const title = defusePlain(
    shortTitle(
      source === undefined || source.trim() === "" ? `pitcrew: ${task.threadKey}` : source,
    ),
    audience,
  );

  const ref = threadRef(task);
  const done = stopReason === "done";
  const sections = [PITCREW_COMMENT_MARKER];
  if (!done) {
    sections.push(
      `> [!WARNING]\n> **Unfinished:** pitcrew stopped early (${STOP_CAUSES[stopReason]}); this draft holds the work so far. ${continueSentence(ref)}`,
    );
  }
  sections.push(
    facts.summary.trim() === ""
      ? "_The agent left no summary._"
      : quotedMarkdown(facts.summary, audience),
  );
  // File names can hold words too; a squash merge may copy the block into a commit message.
  const diffstat = neutraliseClosing(facts.diffstat, audience, false);
  if (diffstat.trim() !== "") sections.push(`### Changes\n\n${codeBlock(diffstat)}`);
  if (task.thread.kind === "issue") sections.push(`${done ? "Fixes" : "Part of"} ${ref}`);
  if (task.thread.kind === "pr") sections.push(`For ${ref}`);
  sections.push(
    `---\n${requestLine(task, audience)} · [workflow run](${facts.runUrl})\n\n${formatTotals(facts.totals)}`,
  );
  return { title, body: sections.join("\n\n") };
}

// ---- Tool tally -------------------------------------------------------------------------------

/**
 * Whether the agent never managed to touch the workspace: it made calls, and every one failed.
 * The todo list is left out (it runs without the sandbox, so it succeeds even when nothing else
 * can). A run like that changed nothing, but "no changes" would be a lie: it is a failure.
 */
export function allToolCallsFailed(tally: ToolTally): boolean {
  const workspace = tally.filter((count) => count.name !== TODO_WRITE);
  return workspace.length > 0 && workspace.every((count) => count.failures === count.calls);
}

// ---- Job summary and outputs ------------------------------------------------------------------

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
  return facts.map((fact) => `- ${fact}`).join("\n");
}

/**
 * The job summary on the run's page: a heading, the facts, the model's summary and a table of the
 * tool calls. It is a view of the run: a failure to write it is a warning, never a failed run.
 */
export async function writeJobSummary(
  report: JobReport,
  log: { warning(message: string): void },
  /** The final text's last pass before it is written (the secret check, as for comments). */
  withhold: (text: string) => string = (text) => text,
): Promise<void> {
  const summary = core.summary
    .addHeading(HEADLINES[report.phase], 2)
    .addRaw(`\n${factsOf(report)}\n`, true);
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
  try {
    const text = withhold(summary.stringify());
    await summary.emptyBuffer().addRaw(text).write();
  } catch (error) {
    summary.emptyBuffer();
    log.warning(`Could not write the job summary: ${describeError(error)}`);
  }
}

/**
 * The action's outputs, all of them every time (empty or zero when there is nothing to say), so a
 * later step can read them without checking which exist.
 */
export function setOutputs(outputs: ActionOutputs): void {
  const { pull, totals } = outputs;
  core.setOutput("conclusion", outputs.conclusion);
  core.setOutput("pr-url", pull?.url ?? "");
  core.setOutput("pr-number", pull === undefined ? "" : String(pull.number));
  core.setOutput("pull-request-operation", pull?.operation ?? "none");
  core.setOutput("branch", outputs.branch ?? "");
  core.setOutput("turns", String(totals?.turns ?? 0));
  core.setOutput("tokens", String(totals === undefined ? 0 : totalTokens(totals.usage)));
  core.setOutput("cost", (totals?.cost ?? 0).toFixed(4));
}
