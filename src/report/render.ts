/**
 * The report of a thread's runs as one self-contained HTML page: a header (the task, where, how it
 * ended, what it cost), per run the context and cost charts and a timeline of its turns (the
 * model's text, each call with its arguments and result, reminders, compactions), the handoff note
 * and the final diff. Every text of the transcript is untrusted: it is escaped, kept out of the
 * script and of every URL attribute, and a strict Content-Security-Policy allows only the page's
 * own style and script, by hash. Pure string building; writing the file is the caller's.
 */
import { createHash } from "node:crypto";
import { SCRIPT, STYLE } from "./assets.ts";
import { header, summarize } from "./header.ts";
import { escapeHtml } from "./html.ts";
import { endPart, notices, runPart } from "./timeline.ts";
import type { Counter } from "./timeline.ts";
import { readTranscript } from "./transcript.ts";
import { firstLine } from "./words.ts";

export { readTranscript } from "./transcript.ts";
export type { CallView, ReportData, RunView, TurnView } from "./transcript.ts";
export { summarize, webLink } from "./header.ts";
export type { Summary } from "./header.ts";
export { resultKind, spillMarks } from "./timeline.ts";
export type { ResultKind } from "./timeline.ts";

export interface ReportInput {
  /** JSONL, all runs of a thread. */
  transcript: string;
  /** The notes' state.json parsed, if known: shown where it has the fields expected, never trusted. */
  state?: unknown;
  /** The thread's latest handoff note. */
  note?: string;
  /** The final diff (unified), if known. */
  diff?: string;
  /** URLs for the header; only http: and https: ones become links. */
  links?: { run?: string; pull?: string };
  /** The task, when known apart from the transcript. */
  title?: string;
}

/** The base64 SHA-256 of a text, as a CSP source names an inline script or style. */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The page's policy: nothing but its own style and script (by hash) and data: images. */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    `script-src ${cspHash(SCRIPT)}`,
    `style-src ${cspHash(STYLE)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const BAR =
  '<nav class="bar" aria-label="Search and keys"><div>' +
  '<input id="q" type="search" placeholder="Search turns (press /)" aria-label="Search turns" autocomplete="off" spellcheck="false">' +
  '<span id="count" aria-live="polite"></span>' +
  '<span class="keys"><kbd>j</kbd>/<kbd>k</kbd> next/previous entry (or <kbd>n</kbd>/<kbd>p</kbd>) · <kbd>/</kbd> search · <kbd>Enter</kbd> first match · <kbd>Esc</kbd> clear · <kbd>o</kbd> open/close outputs · <kbd>t</kbd> theme</span>' +
  "</div></nav>";

/** One self-contained HTML document: the report of every run in `input.transcript`. */
export function renderReport(input: ReportInput): string {
  const data = readTranscript(input.transcript);
  const summary = summarize(data, input);
  const counter: Counter = { next: 0 };
  const runs = data.runs.map((run, index) => runPart(counter, run, index)).join("");
  const title =
    summary.task === "" ? "pitcrew run report" : `pitcrew: ${firstLine(summary.task, 80)}`;
  return (
    "<!doctype html>\n" +
    '<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body>` +
    header(summary, input) +
    BAR +
    `<main>${notices(data)}${runs}${endPart(counter, input)}</main>` +
    "<footer>Written by pitcrew. Everything quoted here came from the run and is shown as text.</footer>" +
    `<script>${SCRIPT}</script></body></html>\n`
  );
}
