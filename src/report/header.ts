/**
 * The report's header: what the thread was asked and where it ran, how it ended, and what all its
 * runs took (turns, tokens, cached share, cost, time), from the transcript, with the state file's
 * fields where the transcript lacks them (each field checked, none trusted). The only links of
 * the page are built here, from the URLs the caller gives, and only when they are http(s).
 */
import type { Usage } from "../domain/usage.ts";
import { escapeHtml, foldedPre } from "./html.ts";
import { isAnswered } from "./transcript.ts";
import type { ReportData } from "./transcript.ts";
import {
  between,
  dollars,
  duration,
  firstLine,
  grouped,
  percent,
  requestOf,
  shortCount,
  stopWords,
  when,
} from "./words.ts";

/** A URL that may become a live link: http: or https: only, normalised; undefined otherwise. */
export function webLink(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function link(url: string | undefined, label: string): string | undefined {
  if (url === undefined || url.trim() === "") return undefined;
  const href = webLink(url);
  if (href === undefined)
    return `<span class="bad-link">${escapeHtml(url)} (not a web link, shown as text)</span>`;
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
}

/** What the state file says that the header can use, each field checked on its own. */
interface StateFacts {
  threadKey?: string;
  repository?: string;
  branch?: string;
  prNumber?: number;
  stopReason?: string | null;
  cumulative?: { runs: number; turns: number; cost: number; usage: Usage };
}

function stateFacts(state: unknown): StateFacts {
  if (state === null || typeof state !== "object") return {};
  const s = state as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const number = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
  const facts: StateFacts = {
    threadKey: text(s.threadKey),
    repository: text(s.repository),
    branch: text(s.branch),
    prNumber: Number.isInteger(s.prNumber) ? number(s.prNumber) : undefined,
  };
  if (s.stopReason === null || typeof s.stopReason === "string") facts.stopReason = s.stopReason;
  const cumulative = s.cumulative as Record<string, unknown> | null | undefined;
  const usage = cumulative?.usage as Record<string, unknown> | null | undefined;
  const [runs, turns, cost] = [
    number(cumulative?.runs),
    number(cumulative?.turns),
    number(cumulative?.cost),
  ];
  const [prompt, cached, completion] = [
    number(usage?.promptTokens),
    number(usage?.cachedTokens),
    number(usage?.completionTokens),
  ];
  if (
    runs !== undefined &&
    turns !== undefined &&
    cost !== undefined &&
    prompt !== undefined &&
    cached !== undefined &&
    completion !== undefined
  )
    facts.cumulative = {
      runs,
      turns,
      cost,
      usage: {
        promptTokens: prompt,
        cachedTokens: cached,
        completionTokens: completion,
        reasoningTokens: 0,
      },
    };
  return facts;
}

/** What the header says, all runs together. */
export interface Summary {
  task: string;
  threadKey?: string;
  repository?: string;
  branch?: string;
  prNumber?: number;
  stopReason: string | null | undefined;
  runs: number;
  turns: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  cost: number;
  /** ms, the runs that recorded both ends together; undefined when none did. */
  durationMs?: number;
  /** Runs with a start but no end. */
  unfinished: number;
  started?: string;
  /** The totals are the state's (the transcript was cut, so its own sums fall short). */
  fromState: boolean;
}

/** What the page is given besides the transcript that the header shows. */
export interface HeaderInput {
  state?: unknown;
  title?: string;
  links?: { run?: string; pull?: string };
}

/** The header's values: the transcript's sums, the state's where the transcript lacks them. */
export function summarize(data: ReportData, input: HeaderInput): Summary {
  const facts = stateFacts(input.state);
  const starts = data.runs.flatMap((run) => (run.start === undefined ? [] : [run.start]));
  const newest = starts.at(-1);
  const opening = data.runs.find((run) => run.opening.length > 0)?.opening[0];
  const summary: Summary = {
    task: input.title?.trim() || (opening === undefined ? "" : requestOf(opening)),
    threadKey: newest?.threadKey ?? facts.threadKey,
    repository: newest?.repository ?? facts.repository,
    branch: newest?.branch ?? facts.branch,
    prNumber: facts.prNumber,
    stopReason: data.runs.at(-1)?.end?.stopReason ?? facts.stopReason,
    runs: data.runs.length,
    turns: 0,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    cost: 0,
    unfinished: 0,
    started: starts[0]?.at,
    fromState: false,
  };
  for (const run of data.runs) {
    for (const turn of run.turns) {
      if (isAnswered(turn)) summary.turns += 1;
      summary.promptTokens += turn.usage?.promptTokens ?? 0;
      summary.cachedTokens += turn.usage?.cachedTokens ?? 0;
      summary.completionTokens += turn.usage?.completionTokens ?? 0;
      summary.cost += turn.cost ?? 0;
    }
    const ms = run.start && run.end ? between(run.start.at, run.end.at) : undefined;
    if (ms !== undefined) summary.durationMs = (summary.durationMs ?? 0) + ms;
    if (run.start !== undefined && run.end === undefined) summary.unfinished += 1;
  }
  const whole = facts.cumulative;
  if (data.dropped > 0 && whole !== undefined && whole.turns >= summary.turns) {
    Object.assign(summary, {
      runs: Math.max(whole.runs, summary.runs),
      turns: whole.turns,
      promptTokens: whole.usage.promptTokens,
      cachedTokens: whole.usage.cachedTokens,
      completionTokens: whole.usage.completionTokens,
      cost: whole.cost,
      fromState: true,
    });
  }
  return summary;
}

function fact(term: string, value: string): string {
  return `<div><dt>${term}</dt><dd>${value}</dd></div>`;
}

/** The page's <header>: the task as its heading, then the facts of the thread. */
export function header(summary: Summary, input: HeaderInput): string {
  const task = summary.task === "" ? "A pitcrew run" : summary.task;
  const line = firstLine(task);
  const whole =
    line === task.trim()
      ? ""
      : `<details class="task"><summary>the whole request</summary>${foldedPre(task, "text")}</details>`;
  const tokens = summary.promptTokens + summary.completionTokens;
  const pull =
    link(
      input.links?.pull,
      summary.prNumber === undefined ? (input.links?.pull ?? "") : `#${summary.prNumber}`,
    ) ?? (summary.prNumber === undefined ? undefined : `#${summary.prNumber}`);
  const run = link(input.links?.run, "workflow run");
  const took =
    summary.durationMs === undefined
      ? "not recorded"
      : duration(summary.durationMs) +
        (summary.unfinished > 0 ? " (a run has no end recorded)" : "");
  const facts = [
    fact("thread", escapeHtml(summary.threadKey ?? "unknown")),
    fact("repository", escapeHtml(summary.repository ?? "unknown")),
    fact("branch", escapeHtml(summary.branch ?? "unknown")),
    ...(pull === undefined ? [] : [fact("pull request", pull)]),
    ...(run === undefined ? [] : [fact("workflow", run)]),
    fact("ended", escapeHtml(stopWords(summary.stopReason))),
    fact("runs", grouped(summary.runs)),
    fact("turns", grouped(summary.turns)),
    fact(
      "tokens",
      `${grouped(tokens)} <span class="meta">(${shortCount(summary.promptTokens)} in, ${shortCount(summary.completionTokens)} out)</span>`,
    ),
    fact("cached", percent(summary.cachedTokens, summary.promptTokens)),
    fact("cost", dollars(summary.cost)),
    fact("duration", escapeHtml(took)),
    ...(summary.started === undefined ? [] : [fact("started", escapeHtml(when(summary.started)))]),
  ];
  const fromState = summary.fromState
    ? '<p class="meta">Runs, turns, tokens and cost are the thread\'s totals from its state file: the transcript was cut.</p>'
    : "";
  return `<header><p class="kicker">pitcrew run report</p><h1>${escapeHtml(line)}</h1>${whole}<dl class="facts">${facts.join("")}</dl>${fromState}</header>`;
}
