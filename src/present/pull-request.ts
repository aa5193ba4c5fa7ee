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
  /** The model's final answer: what was wrong, what changed, how it was checked. */
  summary: string;
  stopReason: StopReason;
  /** `git diff --stat` of the branch against its base. */
  diffstat: string;
  runUrl: string;
  totals: Totals;
}

const TITLE_LIMIT = 72;

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

function shortTitle(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_LIMIT) return line;
  const space = line.lastIndexOf(" ", TITLE_LIMIT - 1);
  return `${line.slice(0, space > TITLE_LIMIT / 2 ? space : TITLE_LIMIT - 1)}…`;
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
