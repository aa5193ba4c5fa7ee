/**
 * The few HTML pieces every part of the report builds with: escaping (every text of a transcript
 * is untrusted), long text folded into a closed <details>, and marks inside a text (spill-file
 * markers, the lines a sandbox denied) placed without ever leaving the text unescaped. Links are
 * render.ts's, which alone may build an href.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Text safe between tags and inside an attribute: every attribute of the page is quoted with `"`,
 * so `'` needs no escape (long outputs stay smaller without it).
 */
export function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (char) => ESCAPES[char] as string) : text;
}

/**
 * Terminal escapes (colours, cursor moves, titles), which only clutter a page. The same pattern as
 * ci/log.ts's ANSI, which this layer may not import.
 */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

export function withoutAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** An index in `text` that does not split a surrogate pair (moved back by one when it would). */
export function charBoundary(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** What stays in view of a long text; the rest goes into a closed <details>. */
export const FOLD_LINES = 40;
export const FOLD_CHARS = 4096;

/** A cut within `FOLD_CHARS`: at a line break when one is in its second half. */
function charCut(text: string): number {
  const lineEnd = text.lastIndexOf("\n", FOLD_CHARS - 1);
  return lineEnd > FOLD_CHARS / 2 ? lineEnd + 1 : charBoundary(text, FOLD_CHARS);
}

/** Where a long text is cut: after its first `FOLD_LINES` lines, within `FOLD_CHARS`. */
export function foldAt(text: string): number {
  let at = -1;
  for (let line = 0; line < FOLD_LINES; line++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return text.length <= FOLD_CHARS ? text.length : charCut(text);
    if (at >= FOLD_CHARS) return charCut(text);
  }
  return Math.min(at + 1, text.length);
}

function size(chars: number): string {
  return chars < 1024 ? `${chars} chars` : `${(chars / 1024).toFixed(chars < 10_240 ? 1 : 0)} KB`;
}

/** A span of a text to wrap in a <mark>: a spill-file marker, or a line a sandbox denied. */
export interface Mark {
  from: number;
  to: number;
  className: "spill" | "deny";
}

/** `text` escaped, with each mark (in order, not overlapping) wrapped in a <mark>. */
export function markedText(text: string, marks: readonly Mark[], offset = 0): string {
  let out = "";
  let at = 0;
  for (const mark of marks) {
    const from = Math.max(mark.from - offset, at);
    const to = Math.min(mark.to - offset, text.length);
    if (to <= from) continue;
    out += `${escapeHtml(text.slice(at, from))}<mark class="${mark.className}">${escapeHtml(text.slice(from, to))}</mark>`;
    at = to;
  }
  return out + escapeHtml(text.slice(at));
}

/**
 * A text in a <pre class="…">: whole when short, else its first lines in view and the rest in a
 * closed <details> saying how much more there is. Marks are positions in the whole text.
 */
export function foldedPre(text: string, className: string, marks: readonly Mark[] = []): string {
  const cut = foldAt(text);
  const head = text.slice(0, cut);
  const shown = `<pre class="${className}">${markedText(head, marks)}</pre>`;
  if (cut >= text.length) return shown;
  const rest = text.slice(cut);
  const lines = countLines(rest);
  const summary = `${lines === 1 ? "1 more line" : `${lines} more lines`} (${size(rest.length)})`;
  return `${shown}<details class="more"><summary>${summary}</summary><pre class="${className}">${markedText(rest, marks, cut)}</pre></details>`;
}

/** The start and end of the line of `text` that holds index `at`. */
export function lineAround(text: string, at: number): { from: number; to: number } {
  const from = text.lastIndexOf("\n", at - 1) + 1;
  const end = text.indexOf("\n", at);
  return { from, to: end === -1 ? text.length : end };
}
