/**
 * Layer 1, cap + spill: a tool result longer than INLINE_MAX_CHARS is sent as its head and tail
 * around a notice, and its whole text is kept in a spill file the agent can page. The one place
 * that decides how a long text is cut before the model sees it and what the notices say. Pure:
 * the caller writes the spill file through its port (the bash tool through Sandbox.spill) and
 * hands back the path, or why there is none.
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
  return text.length <= INLINE_MAX_CHARS ? text : keepEnds(text, KEEP_CHARS, notice);
}

/**
 * The first and last `keep` characters of `text` (cut at line breaks where one is near, never
 * inside a character) around the `notice` lines; `text` itself when nothing would be cut.
 */
export function keepEnds(text: string, keep: number, notice: readonly string[]): string {
  if (text.length <= 2 * keep) return text;
  const snap = Math.min(LINE_SNAP, Math.floor(keep / 4));
  let headEnd = onCharBoundary(text, keep);
  const headBreak = text.lastIndexOf("\n", headEnd - 1);
  if (headBreak !== -1 && headEnd - headBreak <= snap) headEnd = headBreak + 1;
  let tailStart = onCharBoundary(text, text.length - keep);
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak - tailStart < snap) tailStart = tailBreak + 1;
  const head = text.slice(0, headEnd);
  const lines = notice.join("\n");
  return keep === 0
    ? lines
    : `${head}${head.endsWith("\n") ? "" : "\n"}${lines}\n${text.slice(tailStart)}`;
}

/**
 * Saves a long result's whole text and returns the path a command reads it at; throws a
 * PitcrewError when it cannot (Sandbox.spill is the real one).
 */
export type SpillPort = (whole: string) => string;

/** What became of a long result's whole text: saved at `path`, or not saved and why. */
export type Spilled = { path: string } | { notSaved: string };

/** A stream whose middle the sandbox's output ceiling dropped before the tool saw it. */
export interface CutStream {
  label: string;
  /** Bytes the command wrote to it in all. */
  bytes: number;
}

/** The whole text to spill when `text` is too long to send as it is; null when it fits. */
export function toSpill(text: string): string | null {
  return text.length <= INLINE_MAX_CHARS ? null : `${text}\n`;
}

/**
 * A long result as the model gets it: its head and tail around a notice naming the spill file
 * (or saying it could not be written, and why), and one saying when the sandbox's own output
 * ceiling had already dropped bytes.
 */
export function capped(text: string, spilled: Spilled, cut: readonly CutStream[]): string {
  const whole = `${text}\n`;
  const notice =
    "path" in spilled
      ? [spillNotice(whole, spilled.path)]
      : [
          `[output cut to its head and tail (${whole.length} chars, ${countLines(whole)} lines in all) and not saved; ${spilled.notSaved}]`,
        ];
  for (const stream of cut) {
    notice.push(
      `[the sandbox's output ceiling had already dropped the middle of ${stream.label} (${stream.bytes} bytes written); that part is lost. To keep everything, redirect it to a file under /tmp and search that in the same command]`,
    );
  }
  return cutAround(text, notice);
}
