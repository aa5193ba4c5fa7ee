/**
 * The text rules every page pitcrew writes shares — the progress comment, the pull request, the
 * job summary, the CLI's lines: the model's (or anyone's) words quoted so they cannot break the page
 * they land on or act on another thread (defuse.ts), code that survives backticks, how a request and
 * a pull request are named, the headline of each phase. Pure functions over text.
 */
import type { Phase, PullLink } from "../domain/ending.ts";
import type { Task } from "../domain/task.ts";
import { threadNumber } from "../domain/task.ts";
import { defuseInline, defuseMarkdown, longestRun } from "./defuse.ts";
import type { Audience } from "./defuse.ts";

/** The most of the model's summary any page shows; GitHub refuses bodies over 65,536 characters. */
export const SUMMARY_LIMIT = 8000;
/** The most of an error's or a refusal's sentence shown. */
export const SENTENCE_LIMIT = 1000;

/** The first line of every report, per phase. */
export const HEADLINES: Record<Phase, string> = {
  working: "pitcrew is working on it",
  done: "pitcrew finished",
  stopped: "pitcrew stopped early",
  "no-changes": "pitcrew finished without changing anything",
  failed: "pitcrew failed",
  refused: "pitcrew did not start",
};

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
    case "ci-repair":
      return "a repair of the failed CI run";
    case "flaky-triage":
      return "a flaky-test triage";
  }
}

/** `@alice asked for `/agent fix`: “the words after it”` */
export function requestLine(
  task: Pick<Task, "kind" | "instruction" | "requester">,
  audience: Audience,
): string {
  const words = requestWords(task);
  const asked =
    task.kind === "dispatch" || task.kind === "ci-repair" || task.kind === "flaky-triage"
      ? words
      : codeSpan(words);
  const instruction = task.instruction.trim();
  return `@${task.requester.login} asked for ${asked}${instruction === "" ? "" : `: “${quotedLine(instruction, audience)}”`}`;
}

/** Where the thread is, for "Fixes #12" and "reply on #12". */
export function threadRef(task: Pick<Task, "thread">): string | undefined {
  const number = threadNumber(task.thread);
  return number === undefined ? undefined : `#${number}`;
}
