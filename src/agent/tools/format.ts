/**
 * Keeps tool results bounded: the one place that decides how a long text is cut before the model
 * sees it, and how the notice naming the full text's spill file reads. Pure functions over strings.
 */

/** Results longer than this many characters are cut; the whole text goes to a spill file. */
export const INLINE_MAX_CHARS = 10_000;

/** Characters kept inline from the start, and from the end, of a cut result. */
const KEEP_CHARS = 4_000;

/** How far back (or forward) a cut may move to land on a line break. */
const LINE_SNAP = 1_000;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Moves `index` off the middle of a surrogate pair (never splits one character in two). */
function onCharBoundary(text: string, index: number): number {
  return index > 0 && index < text.length && isLowSurrogate(text.charCodeAt(index))
    ? index - 1
    : index;
}

/** Lines as `wc -l` counts them, plus a last line without a line break. */
export function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return text.length > 0 && !text.endsWith("\n") ? lines + 1 : lines;
}

/**
 * The line that stands for the cut middle of a result. Later layers parse this exact shape:
 * `[full output, <N> chars, <L> lines: <path> — page it with head, tail, sed -n 'A,Bp' or grep]`.
 */
export function spillNotice(whole: string, path: string): string {
  return `[full output, ${whole.length} chars, ${countLines(whole)} lines: ${path} — page it with head, tail, sed -n 'A,Bp' or grep]`;
}

/**
 * `text` when it fits in `INLINE_MAX_CHARS`; otherwise its first and last `KEEP_CHARS`
 * characters (cut at line breaks where one is near) around the `notice` lines.
 */
export function cutAround(text: string, notice: readonly string[]): string {
  if (text.length <= INLINE_MAX_CHARS) return text;
  let headEnd = onCharBoundary(text, KEEP_CHARS);
  const headBreak = text.lastIndexOf("\n", headEnd - 1);
  if (headBreak !== -1 && headEnd - headBreak <= LINE_SNAP) headEnd = headBreak + 1;
  let tailStart = onCharBoundary(text, text.length - KEEP_CHARS);
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak - tailStart < LINE_SNAP) tailStart = tailBreak + 1;
  const head = text.slice(0, headEnd);
  return `${head}${head.endsWith("\n") ? "" : "\n"}${notice.join("\n")}\n${text.slice(tailStart)}`;
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
