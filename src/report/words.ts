/**
 * The report's words and numbers: counts with thousands separators, short token counts for axes,
 * dollars, durations, how a run ended, and the task as the first user message asks it. Plain text
 * only; escaping for HTML is html.ts's.
 */
import { charBoundary } from "./html.ts";

/** 1234567 → "1,234,567". */
export function grouped(value: number): string {
  const whole = Math.round(value);
  const sign = whole < 0 ? "-" : "";
  const digits = String(Math.abs(whole));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    out = out === "" ? part : `${part},${out}`;
  }
  return sign + out;
}

/** 1234 → "1.23k", 2_500_000 → "2.5M", 250_000 → "250k": for axis labels and short totals. */
export function shortCount(value: number): string {
  const abs = Math.abs(value);
  const short = (scaled: number) =>
    Math.abs(scaled) >= 100 ? scaled.toFixed(0) : scaled.toFixed(2).replace(/\.?0+$/, "");
  if (abs >= 1_000_000) return `${short(value / 1_000_000)}M`;
  if (abs >= 1_000) return `${short(value / 1_000)}k`;
  return String(Math.round(value));
}

export function dollars(amount: number): string {
  if (amount === 0) return "$0.00";
  return `$${amount.toFixed(amount >= 1 ? 2 : amount >= 0.01 ? 3 : 4)}`;
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)}%` : "–";
}

/** 3_723_000 → "1h 2m 3s"; 42_300 → "42.3s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, "")}s`;
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : `${m}m ${s}s`;
}

/** Milliseconds between two ISO times, or undefined when either is not one or time ran back. */
export function between(from: string, to: string): number | undefined {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** An ISO time as people read it: "2025-06-01 14:03 UTC"; anything else as it is. */
export function when(iso: string): string {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const STOPS: Record<string, string> = {
  done: "done: the model finished",
  max_turns: "stopped at the turn limit",
  time_budget: "stopped at the time budget",
  cost_budget: "stopped at the cost budget",
  token_budget: "stopped at the token budget",
  cancelled: "cancelled",
  model_error: "stopped by a model error",
};

/** How a run ended, in words; a reason this report does not know is shown as it is. */
export function stopWords(reason: string | null | undefined): string {
  if (reason === null || reason === undefined) return "not recorded (interrupted or still going)";
  return Object.hasOwn(STOPS, reason) ? (STOPS[reason] as string) : reason;
}

/** The body of the first fence after `at` in `text` (```text … ```), if one starts right there. */
function fencedAt(text: string, at: number): string | undefined {
  const open = /^(`{3,})text\n/.exec(text.slice(at, at + 64));
  if (open === null) return undefined;
  const start = at + open[0].length;
  const end = text.indexOf(`\n${open[1]}`, start);
  return end === -1 ? undefined : text.slice(start, end);
}

/** The label's fence: the text after the first line of `text` that starts with `label`. */
function fenceAfter(text: string, label: string): string | undefined {
  const found = text.startsWith(label) ? 0 : text.indexOf(`\n${label}`);
  if (found === -1) return undefined;
  const lineEnd = text.indexOf("\n", found + 1);
  return lineEnd === -1 ? undefined : fencedAt(text, lineEnd + 1);
}

const LOCAL_TASK = "Your task, from the person running pitcrew:\n\n";
const INSTRUCTIONS = "\n\nThe repository's instructions for agents";

/**
 * What the first user message asks, as agent/prompt.ts writes it: the local task, the fenced
 * request that started the run, or the issue's title; otherwise the message itself.
 */
export function requestOf(message: string): string {
  if (message.startsWith(LOCAL_TASK)) {
    const end = message.indexOf(INSTRUCTIONS);
    return message.slice(LOCAL_TASK.length, end === -1 ? undefined : end).trim();
  }
  const request = fenceAfter(message, "The request from ");
  if (request !== undefined && request.trim() !== "") return request.trim();
  const issue = fenceAfter(message, "The title and description of ");
  if (issue !== undefined && issue.trim() !== "") return issue.trim();
  return message.trim();
}

/** The first line of `text`, at most `limit` characters (cut at a word, with "…"). */
export function firstLine(text: string, limit = 160): string {
  const trimmed = text.trimStart();
  const end = trimmed.indexOf("\n");
  const line = (end === -1 ? trimmed : trimmed.slice(0, end)).trimEnd();
  if (line.length <= limit) return line;
  const space = line.lastIndexOf(" ", limit - 1);
  return `${line.slice(0, space > limit / 2 ? space : charBoundary(line, limit - 1))}…`;
}
