/**
 * Keeps tool results bounded: the one place that decides how a long text is cut before the model
 * sees it. Pure functions over strings; a later layer (the spill file) replaces `cutMiddle`.
 */

/** About how many characters of one tool result reach the model. */
export const RESULT_MAX_CHARS = 30_000;

/** How far back (or forward) a cut may move to land on a line break. */
const LINE_SNAP = 2_000;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves `index` off the middle of a surrogate pair (never splits one character in two). */
function onCharBoundary(text: string, index: number): number {
  return index > 0 && index < text.length && isLowSurrogate(text.charCodeAt(index))
    ? index - 1
    : index;
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/**
 * `text` when it fits in `maxChars`; otherwise its head and tail (half each, cut at line breaks
 * where one is near) around a line that says how many characters and lines were dropped.
 */
export function cutMiddle(text: string, maxChars: number = RESULT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  let headEnd = onCharBoundary(text, half);
  const headBreak = text.lastIndexOf("\n", headEnd - 1);
  if (headBreak !== -1 && headEnd - headBreak <= LINE_SNAP) headEnd = headBreak + 1;
  let tailStart = onCharBoundary(text, text.length - half);
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak - tailStart < LINE_SNAP) tailStart = tailBreak + 1;
  const dropped = text.slice(headEnd, tailStart);
  const marker = `[… ${dropped.length} characters (${countLines(dropped)} lines) cut from the middle of this result …]\n`;
  const head = text.slice(0, headEnd);
  return `${head}${head.endsWith("\n") ? "" : "\n"}${marker}${text.slice(tailStart)}`;
}

/** Milliseconds as a person reads them: `90 s`, `1.5 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** `1 line`, `3 lines`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
