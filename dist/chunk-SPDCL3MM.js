import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  codeBlock,
  continueSentence,
  quotedMarkdown,
  requestLine,
  threadRef
} from "./chunk-X2YAM5RQ.js";
import {
  PITCREW_COMMENT_MARKER
} from "./chunk-6R2W5LJA.js";
import {
  STOP_CAUSES,
  formatTotals
} from "./chunk-KBGSYLQV.js";
import {
  audienceOf,
  defusePlain,
  neutraliseClosing
} from "./chunk-D5FAEQPC.js";

// src/present/pull-request.ts
var TITLE_LIMIT = 72;
function firstLine(text) {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}
var TITLE_LINE_MAX = 100;
function summaryTitle(summary) {
  const lines = summary.split("\n").filter((line2) => line2.trim() !== "");
  if (lines.length < 2) return void 0;
  const line = (lines[0] ?? "").replace(/^#+\s*/, "").replace(/^\*\*(.*)\*\*$/, "$1").replace(/^title:\s*/i, "").trim();
  if (line.length < 8 || line.length > TITLE_LINE_MAX || /[:：]$/.test(line)) return void 0;
  return line.replace(/\.$/, "");
}
function afterTitleLine(summary) {
  return summary.trim().split("\n").slice(1).join("\n").trim();
}
function shortTitle(text) {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_LIMIT) return line;
  const space = line.lastIndexOf(" ", TITLE_LIMIT - 1);
  return `${line.slice(0, space > TITLE_LIMIT / 2 ? space : TITLE_LIMIT - 1)}\u2026`;
}
function pullRequestText(facts) {
  const { task, stopReason } = facts;
  const done = stopReason === "done";
  const instruction = firstLine(task.instruction);
  const given = done ? summaryTitle(facts.summary) : void 0;
  const source = facts.title ?? given ?? (task.kind === "fix" ? facts.issueTitle ?? instruction : instruction === "" ? facts.issueTitle : instruction);
  const audience = audienceOf(task, facts.runUrl);
  const title = defusePlain(
    shortTitle(
      source === void 0 || source.trim() === "" ? `pitcrew: ${task.threadKey}` : source
    ),
    audience
  );
  const rest = afterTitleLine(facts.summary);
  const summary = given !== void 0 && rest !== "" ? rest : facts.summary;
  const ref = threadRef(task);
  const sections = [PITCREW_COMMENT_MARKER];
  if (!done) {
    sections.push(
      `> [!WARNING]
> **Unfinished:** pitcrew stopped early (${STOP_CAUSES[stopReason]}); this draft holds the work so far. ${continueSentence(ref)}`
    );
  }
  sections.push(
    summary.trim() === "" ? "_The agent left no summary._" : quotedMarkdown(summary, audience)
  );
  const diffstat = neutraliseClosing(facts.diffstat, audience, false);
  if (diffstat.trim() !== "") sections.push(`### Changes

${codeBlock(diffstat)}`);
  if (facts.section !== void 0) sections.push(facts.section);
  const about = facts.issueTitle === void 0 || facts.issueTitle.trim() === "" ? "" : `: ${defusePlain(shortTitle(facts.issueTitle), audience)}`;
  const link = task.kind === "flaky-triage" ? "Tracked in" : done ? "Fixes" : "Part of";
  if (task.thread.kind === "issue") sections.push(`${link} ${ref}${about}`);
  if (task.thread.kind === "pr") sections.push(`For ${ref}${about}`);
  sections.push(
    `---
${requestLine(task, audience)} \xB7 [workflow run](${facts.runUrl})

${formatTotals(facts.totals)}`
  );
  return { title, body: sections.join("\n\n") };
}

export {
  firstLine,
  summaryTitle,
  afterTitleLine,
  shortTitle,
  pullRequestText
};
