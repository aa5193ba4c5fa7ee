/**
 * `pitcrew run`'s progress in words: one line per tool call with the turn and the time so far
 * (`[3/50 0:42] bash: npm test → exit 1 (1.6 s) · AssertionError: …`), the live status line a
 * terminal redraws in place, and the notices before the work starts (uncommitted files, the
 * worktree). Words only; commands/progress.ts writes them, when and where.
 */
import type { RunState } from "../domain/run-state.ts";
import { callArguments, callSubject } from "../domain/messages.ts";
import type { ToolCall } from "../domain/messages.ts";
import type { CommandEnd, ToolOutcome } from "../domain/tools.ts";
import { totalTokens } from "../domain/usage.ts";

/** `0:42`, `12:05`, `1:02:03` */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n: number): string => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * At most `limit` characters of one line, cut at a word's end (never inside a word) with `…`;
 * a single word longer than the limit is cut where the limit falls, there being no better place.
 */
export function cutAtWord(text: string, limit: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= limit) return line;
  const room = line.slice(0, limit - 1);
  const space = room.lastIndexOf(" ");
  const kept = space > limit / 3 ? room.slice(0, space) : room;
  return `${kept.replace(/[\s,;:.-]+$/, "")}…`;
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "") ?? "";
}

/** Lines no one needs to see: stack frames, Node's version banner, npm's epilogue, punctuation. */
const NOISE: readonly RegExp[] = [
  /^at\s/,
  /^Node\.js v\d/,
  /^npm (?:ERR!|error)(?: (?:code|path|command|errno|syscall|signal|workspace|location|A complete log|Lifecycle script|in workspace|at location)\b.*)?$/i,
  /^[^\p{L}\p{N}]*$/u,
];

const TROUBLE = /\b(?:error|fail(?:ed|ure|s)?|exception|panic|fatal|not ok|assert\w*)\b|[✗✖]/i;

/** The lines of a stream worth showing, without Node's `{ code: …, actual: … }` property dump. */
function meaningfulLines(text: string): string[] {
  const kept: string[] = [];
  let inDump = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (inDump) {
      if (line === "}") inDump = false;
      continue;
    }
    if (line === "{" || (/^at\s.*\{$/.test(line) && !line.includes("}"))) {
      inDump = true;
      continue;
    }
    if (NOISE.some((pattern) => pattern.test(line))) continue;
    kept.push(line);
  }
  return kept;
}

/**
 * The one line that says the most about how a command went: stderr first, then stdout; after a
 * failure the last line that reads like trouble (with the line after it when it ends in a colon,
 * as Node's assertion message does), else the last meaningful line.
 */
export function tellingLine(end: CommandEnd): string {
  const failed = end.exitCode !== 0;
  for (const stream of [end.stderrTail, end.stdoutTail]) {
    const lines = meaningfulLines(stream);
    if (lines.length === 0) continue;
    const at = failed ? lines.findLastIndex((line) => TROUBLE.test(line)) : -1;
    if (at === -1) return lines.at(-1) ?? "";
    const line = lines[at] ?? "";
    const next = lines[at + 1];
    return line.endsWith(":") && next !== undefined ? `${line} ${next}` : line;
  }
  return "";
}

/** `exit 1`, `timed out`, `killed by SIGKILL` */
function commandStatus(end: CommandEnd): string {
  if (end.timedOut) return "timed out";
  if (end.exitCode === null) return `killed by ${end.signal ?? "a signal"}`;
  return `exit ${end.exitCode}`;
}

/** The call's own words: what it was about (a command, a path, a list). */
function subjectOf(call: ToolCall): string {
  const args = callArguments(call);
  if (args === null) return "(unreadable arguments)";
  if (Array.isArray(args.todos)) return `${args.todos.length} items`;
  return cutAtWord(callSubject(call) ?? "", SUBJECT_LIMIT);
}

/** What the call came to, and the detail after `·`. */
function resultOf(call: ToolCall, outcome: ToolOutcome): { result: string; detail: string } {
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
    return { result: total === 0 ? "empty file" : `lines ${from}–${to} of ${total}`, detail: "" };
  }
  if (details?.todos) {
    const done = details.todos.filter((todo) => todo.status === "completed").length;
    return { result: `${done} of ${details.todos.length} done`, detail: "" };
  }
  if (call.name === "write") return { result: "written", detail: "" };
  if (call.name === "edit") return { result: "edited", detail: "" };
  return { result: "done", detail: "" };
}

const SUBJECT_LIMIT = 60;
const DETAIL_LIMIT = 90;

export interface CallFacts {
  turn: number;
  maxTurns: number;
  /** Since the run started. */
  elapsedMs: number;
  call: ToolCall;
  outcome: ToolOutcome;
  durationMs: number;
}

/** The parts of a call's line, for the JSON event beside the line itself. */
export function callParts(facts: CallFacts): { subject: string; result: string; detail: string } {
  const { result, detail } = resultOf(facts.call, facts.outcome);
  return { subject: subjectOf(facts.call), result, detail: cutAtWord(detail, DETAIL_LIMIT) };
}

/** `[3/50 0:42] bash: npm test → exit 1 (1.6 s) · AssertionError [ERR_ASSERTION]: …` */
export function callLine(facts: CallFacts): string {
  const { subject, result, detail } = callParts(facts);
  const where = `[${facts.turn}/${facts.maxTurns} ${clock(facts.elapsedMs)}]`;
  const what = subject === "" ? facts.call.name : `${facts.call.name}: ${subject}`;
  const tail = detail === "" ? "" : ` · ${detail}`;
  return `${where} ${what} → ${result} (${seconds(facts.durationMs)})${tail}`;
}

/** `↻ [5/50 2:10] the conversation was compacted into a handoff note; work goes on from it` */
export function compactionLine(turn: number, maxTurns: number, elapsedMs: number): string {
  return `[${turn}/${maxTurns} ${clock(elapsedMs)}] ↻ the conversation was compacted into a handoff note; work goes on from it`;
}

/** `⠙ turn 3/50 · 0:42 · 12,345 tokens · $0.0123 · bash: npm test` */
export function statusLine(
  frame: string,
  state: RunState,
  maxTurns: number,
  elapsedMs: number,
): string {
  const tokens = state.totals ? totalTokens(state.totals.usage) : 0;
  const cost = state.totals?.cost ?? 0;
  const activity = state.activity;
  const doing =
    activity === undefined || activity.kind === "model"
      ? "waiting for the model"
      : activity.kind === "compacting"
        ? "writing the handoff note"
        : `${activity.call.name}: ${subjectOf(activity.call)}`;
  return `${frame} turn ${state.turn}/${maxTurns} · ${clock(elapsedMs)} · ${tokens.toLocaleString("en-US")} tokens · $${cost.toFixed(4)} · ${doing}`;
}

export const START_WORDS = {
  /** The files changed since HEAD, left out of the run. */
  leftOut: (count: number): string =>
    `${count} ${count === 1 ? "file" : "files"} changed since HEAD ${count === 1 ? "is" : "are"} not included: commit or stash ${count === 1 ? "it" : "them"}, or pass --include-uncommitted`,
  /** The same files, included. */
  included: (count: number): string =>
    `including ${count} ${count === 1 ? "file" : "files"} changed since HEAD: committed on the run's branch first (your checkout, index and HEAD are not touched)`,
  working: (worktree: string, branch: string): string =>
    `working in ${worktree} on branch ${branch} (your checkout is not touched)`,
  continuing: (worktree: string, branch: string): string =>
    `continuing the last run in ${worktree} on branch ${branch} (your checkout is not touched)`,
  cancelling: "cancelling: the work so far will be committed (Ctrl-C again to quit at once)",
};
