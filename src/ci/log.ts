/**
 * A GitHub Actions job log as the excerpt reads it: lines without the BOM, the runner's timestamps
 * (kept apart, for hang detection) and ANSI escapes, cut into the job's steps at their
 * `##[group]Run …` headers, with the runner's generic `Process completed with exit code N.` line
 * dropped (its step is marked failed and keeps the code). Also the run-logs zip the API hands out
 * (`<n>_<job>.txt`, `<job>/<n>_<step>.txt`). Pure: text or bytes in; no rule of any tool here.
 */
import type { Buffer } from "node:buffer";
import { PitcrewError } from "../errors.ts";
import { unpack, unpackBudget } from "../git/secret-unpack.ts";

/** One step of the job: the lines `[start, end)` of `JobLog.lines`. */
export interface LogStep {
  /** Its header's title (`Run npm test`, `Run actions/checkout@v4`); "" before the first header. */
  name: string;
  start: number;
  end: number;
  /** It printed a `##[error]` line, the runner's exit-code line included. */
  failed: boolean;
  /** The code of the runner's `Process completed with exit code N.`, when it printed one. */
  exitCode: number | null;
}

/**
 * The lines people read — no BOM, timestamp, ANSI escape, step header or `##[endgroup]` — kept as
 * offsets into the log's text and made into strings when asked for: a 50 MB log is 600,000 lines,
 * and holding a string for each costs more in garbage collection than reading them.
 */
export interface JobLog {
  count: number;
  /** Line `index` as shown. */
  line(index: number): string;
  /** When line `index` was written, in ms since the epoch; NaN where it had no timestamp. */
  time(index: number): number;
  /** Each line's number (1-based) in the log as downloaded. */
  numbers: Int32Array;
  /** The index in `steps` of each line's step. */
  stepOf: Int32Array;
  steps: LogStep[];
  /**
   * The lines (ascending) whose raw text holds one of `words`, and every line with an escape
   * sequence, whose shown text may join what its raw text splits: a superset of the lines whose
   * shown text holds one.
   */
  linesWith(words: LineWords): Int32Array;
}

/**
 * Words to find lines by, none with `^` or `$` (a line's raw text has its timestamp first) or a
 * newline. V8 runs one pass over a whole log for a short union, or `indexOf` for a character,
 * faster than a test per line; but a test per line for a long union of rare words faster than a
 * pass (measured by `npm run bench -- log-excerpt`).
 */
export interface LineWords {
  /** Each found by one pass over the whole text: a global regex, or a string (by `indexOf`). */
  scans: readonly (RegExp | string)[];
  /** Tried on each line the scans did not find. */
  rest: readonly RegExp[];
}

/** The runner's own last word on a failed step: it says nothing the lines before do not. */
const EXIT_LINE = /^##\[error\]Process completed with exit code (\d+)\.$/;
/** Exit codes above 128 name a signal (137 SIGKILL, 139 SIGSEGV): those lines stay. */
const SIGNAL_EXIT = 128;
const STEP_HEADER = "##[group]Run ";
const GROUP = "##[group]";
const END_GROUP = "##[endgroup]";
/** How far past a step header its `##[endgroup]` may be (the echoed script, `shell:`, `env:`). */
const HEADER_REACH = 400;
// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and two-byte escapes.
// eslint-disable-next-line no-control-regex
export const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

/**
 * The time of the line `stampEnd` read last, in ms since the epoch (NaN: it had none). In a typed
 * array, since a module variable holding a non-integer number allocates on every write.
 */
const stamped = new Float64Array(1);
/** The day (YYYYMMDD) of the last timestamp read, and its midnight in ms since the epoch. */
let lastDay = -1;
let lastDayMs = 0;

/** The value of the two digits at `at`, or a negative number where they are not two digits. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens < 0 || tens > 9 || ones < 0 || ones > 9 ? -1000 : tens * 10 + ones;
}

/**
 * Where the text after a `YYYY-MM-DDTHH:MM:SS.fffffffZ ` prefix of the line `[start, end)` of
 * `text` starts (`start`: it has none), its time left in `stamped`: no object per line. Read by
 * character codes, without closures: this runs once per line of a 50 MB log.
 */
function stampEnd(text: string, start: number, end: number): number {
  stamped[0] = Number.NaN;
  if (end - start < 20) return start;
  if (
    text.charCodeAt(start + 4) !== 45 ||
    text.charCodeAt(start + 7) !== 45 ||
    text.charCodeAt(start + 10) !== 84 ||
    text.charCodeAt(start + 13) !== 58 ||
    text.charCodeAt(start + 16) !== 58
  ) {
    return start;
  }
  const century = twoDigits(text, start);
  const year = twoDigits(text, start + 2);
  const month = twoDigits(text, start + 5);
  const date = twoDigits(text, start + 8);
  const hours = twoDigits(text, start + 11);
  const minutes = twoDigits(text, start + 14);
  const seconds = twoDigits(text, start + 17);
  if ((century | year | month | date | hours | minutes | seconds) < 0) return start;
  let i = start + 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    i++;
    let scale = 100;
    while (i < end) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
      i++;
    }
  }
  if (i >= end || text.charCodeAt(i) !== 90) return start;
  // The day changes rarely within a log: Date.UTC once per day, the rest by arithmetic.
  const day = (century * 100 + year) * 10000 + month * 100 + date;
  if (day !== lastDay) {
    lastDay = day;
    lastDayMs = Date.UTC(century * 100 + year, month - 1, date);
  }
  stamped[0] = lastDayMs + hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + ms;
  return i + 1 < end && text.charCodeAt(i + 1) === 32 ? i + 2 : i + 1;
}

/**
 * Where the escape sequence at `at` ends, by the grammar of `ANSI` (which stays the reference:
 * test/ci/log.test.ts holds the two alike); `at + 1` where no sequence starts there.
 */
function escapeEnd(line: string, at: number): number {
  const kind = line.charCodeAt(at + 1);
  if (kind === 0x5b) {
    // CSI: parameter bytes, intermediate bytes, one final byte; without it, no sequence.
    let i = at + 2;
    while (i < line.length && line.charCodeAt(i) >= 0x30 && line.charCodeAt(i) <= 0x3f) i++;
    while (i < line.length && line.charCodeAt(i) >= 0x20 && line.charCodeAt(i) <= 0x2f) i++;
    const final = line.charCodeAt(i);
    return final >= 0x40 && final <= 0x7e ? i + 1 : at + 1;
  }
  if (kind === 0x5d) {
    // OSC: up to BEL or ST (ESC and a backslash), either of which it may lack.
    let i = at + 2;
    while (i < line.length && line.charCodeAt(i) !== 0x07 && line.charCodeAt(i) !== 0x1b) i++;
    if (line.charCodeAt(i) === 0x07) return i + 1;
    return line.charCodeAt(i) === 0x1b && line.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
  }
  return (kind >= 0x40 && kind <= 0x5a) || (kind >= 0x5c && kind <= 0x5f) ? at + 2 : at + 1;
}

/** A line without its escape sequences: the same as `line.replace(ANSI, "")`, without a regex. */
function withoutEscapes(line: string): string {
  let at = line.indexOf("\x1b");
  if (at === -1) return line;
  let out = "";
  let from = 0;
  while (at !== -1) {
    const end = escapeEnd(line, at);
    out += line.slice(from, end === at + 1 ? end : at);
    from = end;
    at = line.indexOf("\x1b", from);
  }
  return out + line.slice(from);
}

/** The runner's timestamp, as `stampEnd` reads it. */
const STAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d*)?Z ?/y;

/**
 * Where the line `[start, end)` of `text` starts past its timestamp: `stampEnd` without reading
 * the time, by one sticky regex, which costs less than its character codes.
 */
function contentStart(text: string, start: number, end: number): number {
  if (end - start < 20) return start;
  STAMP.lastIndex = start;
  if (!STAMP.test(text)) return start;
  return Math.min(STAMP.lastIndex, end);
}

/**
 * The text a terminal would show of the line `[start, end)` of `text`: no timestamp, no escapes, and only what the last carriage return left. One slice of
 * the log per line in the common case: a line that is a slice of a slice costs twice.
 */
function shownAt(text: string, start: number, end: number): string {
  const from = contentStart(text, start, end);
  let until = end;
  if (until > from && text.charCodeAt(until - 1) === 13) until--;
  let line = withoutEscapes(text.slice(from, until));
  const cr = line.lastIndexOf("\r");
  if (cr !== -1) line = line.slice(cr + 1);
  return line;
}

/** A guess at a log's number of lines, to size the arrays once in the common case. */
function capacityFor(length: number): number {
  return Math.ceil(length / 48) + 16;
}

/** Where the line starting at `start` ends: its newline, or the end of the text. */
function lineEnd(text: string, start: number): number {
  const newline = text.indexOf("\n", start);
  return newline === -1 ? text.length : newline;
}

/** An Int32Array twice as long, holding the same values. */
function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(Math.max(16, array.length * 2));
  bigger.set(array);
  return bigger;
}

/** A job log read from one text: its kept lines' offsets, grown part by part (step files). */
class Builder implements JobLog {
  count = 0;
  /** Each kept line's `[starts, ends)` in the text, its newline left out. */
  private starts: Int32Array;
  private ends: Int32Array;
  /** The kept lines holding an escape character, ascending. */
  private escaped: Int32Array = new Int32Array(16);
  private escapedCount = 0;
  numbers: Int32Array;
  stepOf: Int32Array;
  readonly steps: LogStep[] = [];

  private readonly text: string;

  constructor(text: string) {
    this.text = text;
    const capacity = capacityFor(text.length);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.numbers = new Int32Array(capacity);
    this.stepOf = new Int32Array(capacity);
  }

  line(index: number): string {
    return shownAt(this.text, this.starts[index]!, this.ends[index]!);
  }

  time(index: number): number {
    stampEnd(this.text, this.starts[index]!, this.ends[index]!);
    return stamped[0]!;
  }

  step(name: string): void {
    const last = this.steps.at(-1);
    if (last !== undefined) last.end = this.count;
    this.steps.push({ name, start: this.count, end: this.count, failed: false, exitCode: null });
  }

  private current(): LogStep {
    if (this.steps.length === 0) this.step("");
    return this.steps.at(-1)!;
  }

  private push(start: number, end: number, number: number, escaped: boolean): void {
    const slot = this.count;
    if (slot === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
      this.numbers = grown(this.numbers);
      this.stepOf = grown(this.stepOf);
    }
    if (escaped) {
      if (this.escapedCount === this.escaped.length) this.escaped = grown(this.escaped);
      this.escaped[this.escapedCount++] = slot;
    }
    this.current();
    this.starts[slot] = start;
    this.ends[slot] = end;
    this.numbers[slot] = number;
    this.stepOf[slot] = this.steps.length - 1;
    this.count++;
  }

  /**
   * Reads the part `[from, to)` of the text — a BOM, then lines; an empty last line is none — into
   * the open step; a step header starts a new one. Only a line holding `##[` is made a string
   * here (the runner writes its markers whole; an escape inside one is not read as one).
   */
  read(from: number, to: number): void {
    const text = this.text;
    let start = text.charCodeAt(from) === 0xfeff ? from + 1 : from;
    let number = 0;
    let marker = -2;
    let escape = -2;
    while (start < to) {
      const end = Math.min(lineEnd(text, start), to);
      number++;
      if (marker !== -1 && marker < start) marker = text.indexOf("##[", start);
      if (escape !== -1 && escape < start) escape = text.indexOf("\x1b", start);
      const escaped = escape !== -1 && escape < end;
      if (marker !== -1 && marker < end) {
        const line = shownAt(text, start, end);
        if (line.startsWith(STEP_HEADER)) {
          this.step(line.slice(GROUP.length).trim());
          // The step's echoed script, `shell:` and `env:`, up to its `##[endgroup]`.
          const header = headerEnd(text, end + 1, to);
          start = header?.next ?? end + 1;
          number += header?.lines ?? 0;
          continue;
        }
        if (line === END_GROUP || this.exitLine(line)) {
          start = end + 1;
          continue;
        }
      }
      this.push(start, end, number, escaped);
      start = end + 1;
    }
  }

  /** Marks the step failed on an `##[error]` line; true for the generic exit-code line. */
  private exitLine(line: string): boolean {
    if (!line.startsWith("##[error]")) return false;
    const step = this.current();
    step.failed = true;
    const exit = EXIT_LINE.exec(line);
    if (exit === null) return false;
    step.exitCode = Number(exit[1]);
    return step.exitCode <= SIGNAL_EXIT;
  }

  done(): JobLog {
    this.current().end = this.count;
    this.numbers = this.numbers.subarray(0, this.count);
    this.stepOf = this.stepOf.subarray(0, this.count);
    return this;
  }

  linesWith(words: LineWords): Int32Array {
    const text = this.text;
    const marked = new Uint8Array(this.count);
    for (let at = 0; at < this.escapedCount; at++) marked[this.escaped[at]!] = 1;
    for (const scan of words.scans) {
      let line = 0;
      let from = 0;
      while (line < this.count) {
        let at: number;
        if (typeof scan === "string") {
          at = text.indexOf(scan, from);
          if (at === -1) break;
        } else {
          scan.lastIndex = from;
          if (!scan.test(text)) break;
          // The match's last character: a word holds no newline, so its line is this one's.
          at = scan.lastIndex - 1;
        }
        while (line < this.count && this.ends[line]! < at) line++;
        if (line === this.count) break;
        if (this.starts[line]! <= at) {
          marked[line] = 1;
          from = this.ends[line]! + 1;
        } else {
          from = this.starts[line]!;
        }
      }
    }
    let total = 0;
    for (let index = 0; index < this.count; index++) {
      if (marked[index] === 0 && words.rest.length > 0) {
        const raw = text.slice(this.starts[index], this.ends[index]);
        if (words.rest.some((word) => word.test(raw))) marked[index] = 1;
      }
      total += marked[index]!;
    }
    const lines = new Int32Array(total);
    let slot = 0;
    for (let index = 0; index < this.count; index++) if (marked[index] === 1) lines[slot++] = index;
    return lines;
  }
}

/**
 * The step header's `##[endgroup]`, when one closes it within `HEADER_REACH` lines of `start` (the
 * line after the header) and before `to`, and no other group opens first: where the line after
 * it starts, and how many lines it skips. Finds `##[` once per occurrence, not once per line.
 */
function headerEnd(
  text: string,
  start: number,
  to: number,
): { next: number; lines: number } | null {
  let marker = -2;
  let from = start;
  for (let lines = 1; lines <= HEADER_REACH && from < to; lines++) {
    const end = Math.min(lineEnd(text, from), to);
    if (marker !== -1 && marker < from) marker = text.indexOf("##[", from);
    if (marker !== -1 && marker < end) {
      const line = shownAt(text, from, end);
      if (line === END_GROUP) return { next: end + 1, lines };
      if (line.startsWith(GROUP)) return null;
    }
    from = end + 1;
  }
  return null;
}

/** A downloaded job log (`GET …/jobs/{id}/logs`), or any saved console output, as lines. */
export function readJobLog(text: string): JobLog {
  const builder = new Builder(text);
  builder.read(0, text.length);
  return builder.done();
}

/** One job's per-step files from a run-logs zip, each a step, in order. */
export function readStepLogs(steps: readonly { name: string; text: string }[]): JobLog {
  // One text for all the files, each ending in a newline, so a line is offsets into it.
  const texts = steps.map((step) =>
    step.text === "" || step.text.endsWith("\n") ? step.text : `${step.text}\n`,
  );
  const builder = new Builder(texts.join(""));
  let from = 0;
  steps.forEach((step, index) => {
    builder.step(step.name);
    const to = from + texts[index]!.length;
    builder.read(from, to);
    from = to;
  });
  return builder.done();
}

/** How long nothing was written before line `index` (ms): 0 without timestamps to tell. */
export function silenceBefore(log: JobLog, index: number): number {
  const at = log.time(index);
  if (Number.isNaN(at)) return 0;
  for (let before = index - 1; before >= 0; before--) {
    const then = log.time(before);
    if (!Number.isNaN(then)) return Math.max(0, at - then);
  }
  return 0;
}

/** One job of a run-logs zip. */
export interface ZippedJob {
  name: string;
  log: JobLog;
}

const LOG_FILE = /^(\d+)_(.+)\.txt$/;

interface ZipEntry {
  order: number;
  whole: string | null;
  steps: { order: number; name: string; text: string }[];
}

/**
 * The jobs of a run-logs zip (`GET …/runs/{id}/logs`): each `<n>_<job>.txt` at the top, in `n`
 * order; a job with only step files (`<job>/<n>_<step>.txt`; GitHub leaves some out, and the
 * whole-job file is the one to trust) is those, in order, each a step named by its file. The zip
 * is read by the secret scan's unpacker (git/secret-unpack.ts) within its bounds (32 MiB a member,
 * 256 MiB in all); one it cannot read, or that holds no job log, is `ci-log-unreadable`.
 */
export function readRunLogs(bytes: Buffer, file = "logs.zip"): ZippedJob[] {
  const { contents, problems } = unpack(file, bytes, unpackBudget());
  const problem = problems[0];
  if (problem !== undefined) {
    throw new PitcrewError(
      "ci-log-unreadable",
      `${problem.names.join(": ")}: ${problem.kind.replace(" to scan", "")}.`,
    );
  }
  const jobs = new Map<string, ZipEntry>();
  const entry = (name: string): ZipEntry => {
    let found = jobs.get(name);
    if (found === undefined) {
      found = { order: Number.MAX_SAFE_INTEGER, whole: null, steps: [] };
      jobs.set(name, found);
    }
    return found;
  };
  for (const content of contents) {
    const parts = content.names.slice(1).join("/").split("/");
    const named = LOG_FILE.exec(parts.at(-1) ?? "");
    if (named === null || parts.length > 2) continue;
    const text = content.bytes.toString("utf8");
    if (parts.length === 1) {
      const job = entry(named[2]!);
      job.order = Number(named[1]);
      job.whole = text;
    } else {
      entry(parts[0]!).steps.push({ order: Number(named[1]), name: named[2]!, text });
    }
  }
  if (jobs.size === 0) {
    throw new PitcrewError(
      "ci-log-unreadable",
      `${file}: it holds no job log (a run-logs zip has <n>_<job>.txt files).`,
    );
  }
  return [...jobs.entries()]
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([name, job]) => ({
      name,
      log:
        job.whole !== null
          ? readJobLog(job.whole)
          : readStepLogs(job.steps.sort((a, b) => a.order - b.order)),
    }));
}
