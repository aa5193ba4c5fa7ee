/**
 * The pull request's title and body, from the facts of a run: the model's summary leads, then the
 * changes, the issue link, who asked, the run and what it cost. Opening or updating the pull
 * request is github/'s.
 */
import type { StopReason } from "../domain/loop.ts";
import type { Task } from "../domain/task.ts";
import type { Totals } from "../domain/usage.ts";
import { PITCREW_COMMENT_MARKER } from "../domain/conversation.ts";
import { audienceOf, defusePlain, neutraliseClosing } from "./defuse.ts";
import { STOP_CAUSES, formatTotals } from "./describe.ts";
import { codeBlock, continueSentence, quotedMarkdown, requestLine, threadRef } from "./text.ts";

export interface PullRequestFacts {
  task: Task;
  /** The issue's (or PR's) title on an issue or PR thread. */
  issueTitle?: string;
  /** The harness's title, over the model's (a flaky test's fix or quarantine says which it is). */
  title?: string;
  /** The model's final answer: what was wrong, what changed, how it was checked. */
  summary: string;
  stopReason: StopReason;
  /** `git diff --stat` of the branch against its base. */
  diffstat: string;
  runUrl: string;
  totals: Totals;
  /** Markdown of the harness's own, after the changes (a CI repair's proof); trusted text. */
  section?: string;
}

const TITLE_LIMIT = 72;

/** The first line that says something. */
export function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

/** A first line longer than this is a paragraph, not a title. */
const TITLE_LINE_MAX = 100;

/**
 * The title the model gave its work: the first line of its summary, as the system prompt asks
 * (heading marks, bold and a `Title:` label taken off), when it reads as one — a short line that
 * does not lead into a list, with the rest of the summary after it. Undefined otherwise.
 */
export function summaryTitle(summary: string): string | undefined {
  const lines = summary.split("\n").filter((line) => line.trim() !== "");
  if (lines.length < 2) return undefined;
  const line = (lines[0] ?? "")
    .replace(/^#+\s*/, "")
    .replace(/^\*\*(.*)\*\*$/, "$1")
    .replace(/^title:\s*/i, "")
    .trim();
  if (line.length < 8 || line.length > TITLE_LINE_MAX || /[:：]$/.test(line)) return undefined;
  return line.replace(/\.$/, "");
}

/** The summary less its first line (the one a title is taken from). */
export function afterTitleLine(summary: string): string {
  return summary.trim().split("\n").slice(1).join("\n").trim();
}

/** A title cut at a word to the length a title takes (72), marked with an ellipsis. */
export function shortTitle(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_LIMIT) return line;
  const space = line.lastIndexOf(" ", TITLE_LIMIT - 1);
  return `${line.slice(0, space > TITLE_LIMIT / 2 ? space : TITLE_LIMIT - 1)}…`;
}

/**
 * The pull request's title and body. When the work is done, the title is what the model says it
 * changed (its summary's first line); otherwise, or when that line is no title, the issue's for
 * `fix` and the instruction's first line for the rest. The body leads with the model's summary
 * (less the line the title took), then the changes, the issue link with the issue's title
 * (`Fixes` only when the work is done: an early stop is `Part of` and says it is unfinished), who
 * asked, the run and what it cost.
 */
export function pullRequestText(facts: PullRequestFacts): { title: string; body: string } {
  const { task, stopReason } = facts;
  const done = stopReason === "done";
  const instruction = firstLine(task.instruction);
  const given = done ? summaryTitle(facts.summary) : undefined;
  const source =
    facts.title ??
    given ??
    (task.kind === "fix"
      ? (facts.issueTitle ?? instruction)
      : instruction === ""
        ? facts.issueTitle
        : instruction);
  const audience = audienceOf(task, facts.runUrl);
  const title = defusePlain(
    shortTitle(
      source === undefined || source.trim() === "" ? `pitcrew: ${task.threadKey}` : source,
    ),
    audience,
  );
  // The line the title took is not said twice, unless it is all the summary says.
  const rest = afterTitleLine(facts.summary);
  const summary = given !== undefined && rest !== "" ? rest : facts.summary;

  const ref = threadRef(task);
  const sections = [PITCREW_COMMENT_MARKER];
  if (!done) {
    sections.push(
      `> [!WARNING]\n> **Unfinished:** pitcrew stopped early (${STOP_CAUSES[stopReason]}); this draft holds the work so far. ${continueSentence(ref)}`,
    );
  }
  sections.push(
    summary.trim() === "" ? "_The agent left no summary._" : quotedMarkdown(summary, audience),
  );
  // File names can hold words too; a squash merge may copy the block into a commit message.
  const diffstat = neutraliseClosing(facts.diffstat, audience, false);
  if (diffstat.trim() !== "") sections.push(`### Changes\n\n${codeBlock(diffstat)}`);
  if (facts.section !== undefined) sections.push(facts.section);
  // The thread's own title, after its link; untrusted text like the rest.
  const about =
    facts.issueTitle === undefined || facts.issueTitle.trim() === ""
      ? ""
      : `: ${defusePlain(shortTitle(facts.issueTitle), audience)}`;
  // A flaky test's tracking issue is closed by the triage once the test stayed green, not by a merge.
  const link = task.kind === "flaky-triage" ? "Tracked in" : done ? "Fixes" : "Part of";
  if (task.thread.kind === "issue") sections.push(`${link} ${ref}${about}`);
  if (task.thread.kind === "pr") sections.push(`For ${ref}${about}`);
  sections.push(
    `---\n${requestLine(task, audience)} · [workflow run](${facts.runUrl})\n\n${formatTotals(facts.totals)}`,
  );
  return { title, body: sections.join("\n\n") };
}
