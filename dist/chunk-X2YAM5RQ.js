import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  defuseInline,
  defuseMarkdown,
  longestRun
} from "./chunk-D5FAEQPC.js";

// src/domain/task.ts
function threadNumber(thread) {
  return thread.kind === "issue" || thread.kind === "pr" ? thread.number : void 0;
}

// src/present/text.ts
var SUMMARY_LIMIT = 8e3;
var SENTENCE_LIMIT = 1e3;
var HEADLINES = {
  working: "pitcrew is working on it",
  done: "pitcrew finished",
  stopped: "pitcrew stopped early",
  "no-changes": "pitcrew finished without changing anything",
  failed: "pitcrew failed",
  refused: "pitcrew did not start"
};
function cut(text, limit) {
  if (text.length <= limit) return text;
  const lineEnd = text.lastIndexOf("\n", limit);
  const kept = text.slice(0, lineEnd > limit / 2 ? lineEnd : limit).trimEnd();
  return `${kept}

\u2026 (${(text.length - kept.length).toLocaleString("en-US")} more characters cut)`;
}
function quotedMarkdown(text, audience, limit = SUMMARY_LIMIT) {
  return defuseMarkdown(cut(text.replace(/\r\n?/g, "\n").trim(), limit), audience);
}
function quotedLine(text, audience, limit = 120) {
  const line = text.replace(/\s+/g, " ").trim();
  return defuseInline(line.length > limit ? `${line.slice(0, limit - 1)}\u2026` : line, audience);
}
function codeSpan(text) {
  const line = text.replace(/\s+/g, " ");
  const ticks = "`".repeat(longestRun(line, "`") + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${ticks}${pad}${line}${pad}${ticks}`;
}
function codeBlock(text) {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  return `${fence}text
${text.replace(/\s+$/, "")}
${fence}`;
}
function continueSentence(where) {
  return `Reply \`/agent continue\`${where === void 0 ? "" : ` on ${where}`} to go on from here.`;
}
function pullLink(pull) {
  return `[#${pull.number}](${pull.url})${pull.draft ? " (draft)" : ""}`;
}
function requestWords(task) {
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
function requestLine(task, audience) {
  const words = requestWords(task);
  const asked = task.kind === "dispatch" || task.kind === "ci-repair" || task.kind === "flaky-triage" ? words : codeSpan(words);
  const instruction = task.instruction.trim();
  return `@${task.requester.login} asked for ${asked}${instruction === "" ? "" : `: \u201C${quotedLine(instruction, audience)}\u201D`}`;
}
function threadRef(task) {
  const number = threadNumber(task.thread);
  return number === void 0 ? void 0 : `#${number}`;
}

export {
  threadNumber,
  SENTENCE_LIMIT,
  HEADLINES,
  quotedMarkdown,
  quotedLine,
  codeSpan,
  codeBlock,
  continueSentence,
  pullLink,
  requestLine,
  threadRef
};
