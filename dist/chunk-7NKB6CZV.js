import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  describeCall,
  formatTotals,
  stopWords
} from "./chunk-KBGSYLQV.js";
import {
  callArguments,
  callSubject
} from "./chunk-EYJLS7SB.js";
import {
  totalTokens
} from "./chunk-RORLQNC6.js";
import {
  describeErrorForCli
} from "./chunk-QPB5RBCF.js";

// src/present/progress.ts
function clock(ms) {
  const total = Math.max(0, Math.floor(ms / 1e3));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
var seconds = (ms) => `${(ms / 1e3).toFixed(1)} s`;
function cutAtWord(text, limit) {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= limit) return line;
  const room = line.slice(0, limit - 1);
  const space = room.lastIndexOf(" ");
  const kept = space > limit / 3 ? room.slice(0, space) : room;
  return `${kept.replace(/[\s,;:.-]+$/, "")}\u2026`;
}
function firstLine(text) {
  return text.split("\n").find((line) => line.trim() !== "") ?? "";
}
var NOISE = [
  /^at\s/,
  /^Node\.js v\d/,
  /^npm (?:ERR!|error)(?: (?:code|path|command|errno|syscall|signal|workspace|location|A complete log|Lifecycle script|in workspace|at location)\b.*)?$/i,
  /^[^\p{L}\p{N}]*$/u
];
var TROUBLE = /\b(?:error|fail(?:ed|ure|s)?|exception|panic|fatal|not ok|assert\w*)\b|[✗✖]/i;
function meaningfulLines(text) {
  const kept = [];
  let inDump = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (inDump) {
      if (line === "}") inDump = false;
      continue;
    }
    if (line === "{" || /^at\s.*\{$/.test(line) && !line.includes("}")) {
      inDump = true;
      continue;
    }
    if (NOISE.some((pattern) => pattern.test(line))) continue;
    kept.push(line);
  }
  return kept;
}
function tellingLine(end) {
  const failed = end.exitCode !== 0;
  for (const stream of [end.stderrTail, end.stdoutTail]) {
    const lines = meaningfulLines(stream);
    if (lines.length === 0) continue;
    const at = failed ? lines.findLastIndex((line2) => TROUBLE.test(line2)) : -1;
    if (at === -1) return lines.at(-1) ?? "";
    const line = lines[at] ?? "";
    const next = lines[at + 1];
    return line.endsWith(":") && next !== void 0 ? `${line} ${next}` : line;
  }
  return "";
}
function commandStatus(end) {
  if (end.timedOut) return "timed out";
  if (end.exitCode === null) return `killed by ${end.signal ?? "a signal"}`;
  return `exit ${end.exitCode}`;
}
function subjectOf(call) {
  const args = callArguments(call);
  if (args === null) return "(unreadable arguments)";
  if (Array.isArray(args.todos)) return `${args.todos.length} items`;
  return cutAtWord(callSubject(call) ?? "", SUBJECT_LIMIT);
}
function resultOf(call, outcome) {
  const { details } = outcome;
  if (outcome.isError) {
    const said = details?.command ? tellingLine(details.command) : firstLine(outcome.content);
    const result = details?.command ? commandStatus(details.command) : "failed";
    return { result, detail: said };
  }
  if (details?.command) {
    return { result: commandStatus(details.command), detail: tellingLine(details.command) };
  }
  if (details?.lines) {
    const { from, to, total } = details.lines;
    return { result: total === 0 ? "empty file" : `lines ${from}\u2013${to} of ${total}`, detail: "" };
  }
  if (details?.todos) {
    const done = details.todos.filter((todo) => todo.status === "completed").length;
    return { result: `${done} of ${details.todos.length} done`, detail: "" };
  }
  if (call.name === "write") return { result: "written", detail: "" };
  if (call.name === "edit") return { result: "edited", detail: "" };
  return { result: "done", detail: "" };
}
var SUBJECT_LIMIT = 60;
var DETAIL_LIMIT = 90;
function callParts(facts) {
  const { result, detail } = resultOf(facts.call, facts.outcome);
  return { subject: subjectOf(facts.call), result, detail: cutAtWord(detail, DETAIL_LIMIT) };
}
function callLine(facts) {
  const { subject, result, detail } = callParts(facts);
  const where = `[${facts.turn}/${facts.maxTurns} ${clock(facts.elapsedMs)}]`;
  const what = subject === "" ? facts.call.name : `${facts.call.name}: ${subject}`;
  const tail = detail === "" ? "" : ` \xB7 ${detail}`;
  return `${where} ${what} \u2192 ${result} (${seconds(facts.durationMs)})${tail}`;
}
function compactionLine(turn, maxTurns, elapsedMs) {
  return `[${turn}/${maxTurns} ${clock(elapsedMs)}] \u21BB the conversation was compacted into a handoff note; work goes on from it`;
}
function statusLine(frame, state, maxTurns, elapsedMs) {
  const tokens = state.totals ? totalTokens(state.totals.usage) : 0;
  const cost = state.totals?.cost ?? 0;
  const activity = state.activity;
  const doing = activity === void 0 || activity.kind === "model" ? "waiting for the model" : activity.kind === "compacting" ? "writing the handoff note" : `${activity.call.name}: ${subjectOf(activity.call)}`;
  return `${frame} turn ${state.turn}/${maxTurns} \xB7 ${clock(elapsedMs)} \xB7 ${tokens.toLocaleString("en-US")} tokens \xB7 $${cost.toFixed(4)} \xB7 ${doing}`;
}
var START_WORDS = {
  /** The files changed since HEAD, left out of the run. */
  leftOut: (count) => `${count} ${count === 1 ? "file" : "files"} changed since HEAD ${count === 1 ? "is" : "are"} not included: commit or stash ${count === 1 ? "it" : "them"}, or pass --include-uncommitted`,
  /** The same files, included. */
  included: (count) => `including ${count} ${count === 1 ? "file" : "files"} changed since HEAD: committed on the run's branch first (your checkout, index and HEAD are not touched)`,
  working: (worktree, branch) => `working in ${worktree} on branch ${branch} (your checkout is not touched)`,
  continuing: (worktree, branch) => `continuing the last run in ${worktree} on branch ${branch} (your checkout is not touched)`,
  cancelling: "cancelling: the work so far will be committed (Ctrl-C again to quit at once)"
};

// src/present/lines.ts
var seconds2 = (ms) => `${(ms / 1e3).toFixed(1)} s`;
function logToolLine(call, outcome, durationMs) {
  return `${describeCall(call)} (${outcome.isError ? "failed, " : ""}${seconds2(durationMs)})`;
}
var LOG_ANSWERED = "the model answered without a tool call: its summary";
function logStopLine(reason) {
  return `agent session ${stopWords(reason)}`;
}
var SNAPSHOT_MESSAGE = "pitcrew run: the checkout's uncommitted changes, as the run found them";
function toolFailureWords(failure) {
  const error = cutAtWord(failure.error.split("\n").find((line) => line.trim() !== "") ?? "", 300);
  return `${failure.calls}/${failure.calls} tool calls failed${error === "" ? "" : `: ${error}`}`;
}
function terminalReport(facts) {
  const { delivery, toolFailure } = facts;
  const out = [];
  if (facts.summary) out.push(facts.summary, "");
  const verdict = toolFailure ? `failed: ${toolFailureWords(toolFailure)}` : stopWords(facts.stopReason);
  out.push(`${verdict.replace(/\.$/, "")}.`);
  if (facts.error) out.push(describeErrorForCli(facts.error));
  if (delivery.committed) {
    out.push(
      `branch: ${delivery.branch} (commit ${delivery.sha?.slice(0, 12)})`,
      delivery.diffstat
    );
  } else if (delivery.kept) {
    out.push(`branch: ${delivery.branch} (no new changes in this run)`);
  } else if (facts.totals.turns === 0) {
    out.push("Nothing changed: the model never answered, so no branch was kept.");
  } else {
    out.push("No changes: the agent left the repository as it was, so no branch was kept.");
  }
  if (delivery.kept) out.push(`Continue from here: git switch ${delivery.branch}`);
  if (facts.stopReason !== "done" && facts.totals.turns > 0 && toolFailure === void 0)
    out.push('Or let the agent carry on: pitcrew run --continue ["what to do next"]');
  out.push(formatTotals(facts.totals));
  if (facts.thread)
    out.push(`all ${facts.thread.runs} runs on this branch: ${formatTotals(facts.thread)}`);
  return `${out.join("\n")}
`;
}
function failureLines(error, keptOn) {
  const kept = keptOn === void 0 ? "" : `pitcrew run: the changes made so far are kept on branch ${keptOn}
`;
  return `pitcrew run: ${describeErrorForCli(error)}
${kept}`;
}

export {
  callParts,
  callLine,
  compactionLine,
  statusLine,
  START_WORDS,
  logToolLine,
  LOG_ANSWERED,
  logStopLine,
  SNAPSHOT_MESSAGE,
  toolFailureWords,
  terminalReport,
  failureLines
};
