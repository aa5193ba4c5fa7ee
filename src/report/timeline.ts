/**
 * The timeline of each run: its start (system prompt, task), then each turn — the model's text,
 * every call with its arguments and its result (long output folded, spill-file markers marked,
 * errors, permission refusals and sandbox denials named), the reminder sent with it — with each
 * compaction's note before the turn it preceded; then the handoff note and the final diff. Every
 * entry is an <article class="entry"> the page's script moves between and filters.
 */
import { callArguments, callSubject } from "../domain/messages.ts";
import { contextChart, costChart, firedLayers, thresholdOf } from "./chart.ts";
import { diffSection } from "./diff.ts";
import { escapeHtml, foldedPre, lineAround, withoutAnsi } from "./html.ts";
import type { Mark } from "./html.ts";
import { isAnswered } from "./transcript.ts";
import type { CallView, ReportData, RunView, TurnView } from "./transcript.ts";
import {
  between,
  dollars,
  duration,
  firstLine,
  grouped,
  percent,
  stopWords,
  when,
} from "./words.ts";

const SPILL = /^\[full output, [\d,]+ chars, [\d,]+ lines: \S+/;
const DENIALS = ["Read-only file system", "Permission denied", "Operation not permitted"];
const REFUSAL = "refused by the permission rules:";

/** The spill-file markers in a result: where they are and the file each names. */
export function spillMarks(content: string): { marks: Mark[]; files: string[] } {
  const marks: Mark[] = [];
  const files: string[] = [];
  for (
    let at = content.indexOf("[full output, ");
    at !== -1;
    at = content.indexOf("[full output, ", at + 1)
  ) {
    const end = content.indexOf("\n", at);
    const line = content.slice(at, end === -1 ? undefined : end);
    const match = SPILL.exec(line);
    if (match === null) continue;
    const close = line.indexOf("]");
    marks.push({ from: at, to: at + (close === -1 ? line.length : close + 1), className: "spill" });
    files.push(match[0].slice(match[0].lastIndexOf(" ") + 1));
  }
  return { marks, files };
}

/** The exit code a bash result starts with (`exit code: N`), if it does. */
function exitCode(content: string): number | undefined {
  const match = /^exit code: (-?\d+)/.exec(content);
  return match === null ? undefined : Number(match[1]);
}

/** What a result was: fine, an error, a refusal by the permission rules, a sandbox denial. */
export type ResultKind = "ok" | "exit" | "error" | "refused" | "denied";

export function resultKind(result: { content: string; isError: boolean }): ResultKind {
  if (result.content.startsWith(REFUSAL)) return "refused";
  const code = exitCode(result.content);
  const failed = result.isError || (code !== undefined && code !== 0);
  if (failed && DENIALS.some((phrase) => result.content.includes(phrase))) return "denied";
  if (result.isError) return "error";
  return failed ? "exit" : "ok";
}

/** The lines of a denied result that say so. */
function denialMarks(content: string): Mark[] {
  const marks: Mark[] = [];
  for (const phrase of DENIALS) {
    for (let at = content.indexOf(phrase); at !== -1 && marks.length < 200;) {
      const line = lineAround(content, at);
      marks.push({ ...line, className: "deny" });
      at = content.indexOf(phrase, line.to);
    }
  }
  marks.sort((a, b) => a.from - b.from);
  return marks.filter((mark, index) => index === 0 || mark.from >= (marks[index - 1] as Mark).to);
}

const BADGES: Record<ResultKind, string> = {
  ok: "",
  exit: "",
  error: '<span class="badge b-error">error</span>',
  refused: '<span class="badge b-refused">refused by the permission rules</span>',
  denied: '<span class="badge b-denied">denied by the sandbox</span>',
};

/** Each argument of a call; the one its head already shows in full (its subject) is left out. */
function argumentsPart(call: CallView["call"], shown: string | undefined): string {
  if (call.arguments.trim() === "") return "";
  const args = callArguments(call);
  if (args === null)
    return `<div class="arg"><span class="k">arguments (not a JSON object):</span></div>${foldedPre(call.arguments, "args")}`;
  let out = "";
  for (const [key, value] of Object.entries(args)) {
    if (value === shown) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 1);
    const multi = text.includes("\n") || text.length > 160;
    out += multi
      ? `<div class="arg"><span class="k">${escapeHtml(key)}</span></div>${foldedPre(text, key === "command" ? "cmd" : "args")}`
      : `<div class="arg"><span class="k">${escapeHtml(key)}</span> <code>${escapeHtml(text)}</code></div>`;
  }
  return out;
}

function callPart(view: CallView): string {
  const { call, result } = view;
  const subject = callSubject(call);
  const line = subject === null ? undefined : firstLine(subject, 200);
  const kind = result === undefined ? "ok" : resultKind(result);
  let badges = BADGES[kind];
  let body = "";
  if (result === undefined) {
    body = '<p class="meta">No result recorded.</p>';
  } else {
    const content = withoutAnsi(result.content);
    const code = exitCode(content);
    if (code !== undefined && code !== 0)
      badges += `<span class="badge b-exit">exit ${code}</span>`;
    const spill = spillMarks(content);
    if (spill.files.length > 0)
      badges += `<span class="badge b-spill">output spilled to ${escapeHtml(spill.files.join(", "))}</span>`;
    const marks = kind === "denied" ? [...spill.marks, ...denialMarks(content)] : spill.marks;
    marks.sort((a, b) => a.from - b.from);
    body = content === "" ? '<p class="meta">(empty result)</p>' : foldedPre(content, "out", marks);
  }
  const took =
    view.durationMs === undefined ? "" : `<span class="dur">${duration(view.durationMs)}</span>`;
  const head =
    `<div class="call-head"><span class="tool">${escapeHtml(call.name)}</span>` +
    (line === undefined ? "" : `<code class="subject">${escapeHtml(line)}</code>`) +
    `${badges}${took}</div>`;
  return `<div class="call k-${kind}">${head}${argumentsPart(call, line)}${body}</div>`;
}

/** Numbers the page's entries: the ids the keyboard and the anchors use, never data. */
export interface Counter {
  next: number;
}

/** An entry of the timeline: what j/k move between and the search filters. */
function entry(
  counter: Counter,
  className: string,
  title: string,
  body: string,
  meta = "",
): string {
  const id = `e${(counter.next += 1)}`;
  return `<article class="entry ${className}" id="${id}" tabindex="-1"><h3><a href="#${id}">${title}</a>${meta}</h3>${body}</article>`;
}

function turnMeta(turn: TurnView): string {
  const parts: string[] = [];
  if (turn.usage !== undefined) {
    const { promptTokens, cachedTokens, completionTokens } = turn.usage;
    parts.push(`${grouped(promptTokens)} sent`, `${percent(cachedTokens, promptTokens)} cached`);
    parts.push(`${grouped(completionTokens)} out`);
  } else if (turn.context !== undefined) {
    parts.push(`about ${grouped(turn.context.tokens)} sent`);
  }
  if (turn.cost !== undefined) parts.push(dollars(turn.cost));
  const tools = turn.calls.reduce((sum, view) => sum + (view.durationMs ?? 0), 0);
  if (tools > 0) parts.push(`tools ${duration(tools)}`);
  const known = firedLayers(turn);
  const layers = known.map((layer) => `<span class="layer m-${layer}">${layer}</span>`).join("");
  const others = (turn.context?.fired ?? []).filter((name) => !(known as string[]).includes(name));
  const other =
    others.length === 0
      ? ""
      : `<span class="meta">also fired: ${escapeHtml(others.join(", "))}</span>`;
  return `<span class="meta">${parts.join(" · ")}</span>${layers}${other}`;
}

function turnPart(counter: Counter, turn: TurnView): string {
  let body = "";
  for (const said of turn.said) body += `<div class="who">user</div>${foldedPre(said, "text")}`;
  for (const reminder of turn.reminders)
    body += `<div class="who">reminder</div>${foldedPre(reminder, "reminder")}`;
  if (turn.text === undefined) body += '<p class="meta">No answer recorded for this request.</p>';
  else if (turn.text.trim() !== "")
    body += `<div class="who">model</div>${foldedPre(turn.text, "text")}`;
  for (const call of turn.calls) body += callPart(call);
  const worst = turn.calls.some((view) => view.result?.isError === true) ? " has-error" : "";
  return entry(counter, `turn${worst}`, `Turn ${turn.turn}`, body, turnMeta(turn));
}

function compactionPart(counter: Counter, turn: TurnView): string {
  const body =
    '<p class="meta">The older history was replaced by this handoff note:</p>' +
    foldedPre(turn.compaction ?? "", "text");
  return entry(counter, "compaction", `Compaction before turn ${turn.turn}`, body);
}

function openingPart(counter: Counter, run: RunView): string {
  if (run.system.length === 0 && run.opening.length === 0) return "";
  let body = "";
  for (const system of run.system)
    body += `<details><summary>system prompt (${grouped(system.length)} chars)</summary><pre class="text">${escapeHtml(system)}</pre></details>`;
  run.opening.forEach((message, index) => {
    body += `<div class="who">${index === 0 ? "task" : "user"}</div>${foldedPre(message, "text")}`;
  });
  return entry(counter, "opening", "Start", body);
}

function runFacts(run: RunView): string {
  const parts: string[] = [];
  if (run.start !== undefined) parts.push(`started ${when(run.start.at)}`);
  const ms = run.start && run.end ? between(run.start.at, run.end.at) : undefined;
  if (ms !== undefined) parts.push(`took ${duration(ms)}`);
  parts.push(
    `ended: ${run.end === undefined ? stopWords(undefined) : stopWords(run.end.stopReason)}`,
  );
  if (run.start !== undefined) {
    const threshold = thresholdOf(run.start);
    parts.push(
      `window ${grouped(run.start.window)} tokens` +
        (threshold === undefined ? "" : `, compaction at ${grouped(threshold)}`),
    );
  }
  const cost = run.turns.reduce((sum, turn) => sum + (turn.cost ?? 0), 0);
  parts.push(`${grouped(run.turns.filter(isAnswered).length)} turns`, dollars(cost));
  return `<p class="run-facts">${escapeHtml(parts.join(" · "))}</p>`;
}

/** A run's <section>: its facts, its charts, its start and its turns in order. */
export function runPart(counter: Counter, run: RunView, index: number): string {
  let out = `<section class="run" id="run-${index + 1}"><h2>Run ${escapeHtml(String(run.run))}</h2>`;
  out += runFacts(run) + contextChart(run) + costChart(run) + openingPart(counter, run);
  for (const turn of run.turns) {
    if (turn.compaction !== undefined) out += compactionPart(counter, turn);
    out += turnPart(counter, turn);
  }
  return `${out}</section>`;
}

/** What the page must say before the runs: a cut transcript, unreadable lines, no run at all. */
export function notices(data: ReportData): string {
  let out = "";
  if (data.dropped > 0)
    out += `<p class="notice">The transcript was cut to its size cap: its ${grouped(data.dropped)} oldest lines are not in it, so the first turns (and their part of the totals) may be missing.</p>`;
  if (data.skipped > 0)
    out += `<p class="notice">${data.skipped === 1 ? "1 line" : `${grouped(data.skipped)} lines`} of the transcript could not be read and ${data.skipped === 1 ? "is" : "are"} left out.</p>`;
  if (data.runs.length === 0) out += '<p class="notice">The transcript holds no run.</p>';
  return out;
}

/** Where the thread ended: the latest handoff note and the final diff, when given. */
export function endPart(counter: Counter, input: { note?: string; diff?: string }): string {
  let out = "";
  if (input.note !== undefined && input.note.trim() !== "")
    out += entry(counter, "handoff", "Handoff note", foldedPre(input.note, "text"));
  if (input.diff !== undefined && input.diff.trim() !== "")
    out += entry(counter, "final-diff", "Diff", diffSection(input.diff));
  return out === "" ? "" : `<section class="run" id="end"><h2>Where it ended</h2>${out}</section>`;
}
