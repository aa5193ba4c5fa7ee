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

export interface JobLog {
  /** The lines people read: no BOM, timestamp, ANSI escape, step header or `##[endgroup]`. */
  lines: string[];
  /** When each line was written, in ms since the epoch; NaN where it had no timestamp. */
  times: Float64Array;
  /** Each line's number (1-based) in the log as downloaded. */
  numbers: Int32Array;
  /** The index in `steps` of each line's step. */
  stepOf: Int32Array;
  steps: LogStep[];
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

/** Where a timestamp's digits are: `YYYY-MM-DDTHH:MM:SS`. */
const STAMP_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * Where the text after a `YYYY-MM-DDTHH:MM:SS.fffffffZ ` prefix starts (0: the line has none),
 * its time in ms since the epoch left in `stampedAt` (NaN: none): no object per line. Read by character codes: a regex per line
 * would cost more than the rest of the normalising.
 */
function timestampOf(line: string): number {
  stampedAt = Number.NaN;
  if (line.length < 21) return 0;
  if (line.charCodeAt(4) !== 45 || line.charCodeAt(7) !== 45 || line.charCodeAt(10) !== 84) {
    return 0;
  }
  if (line.charCodeAt(13) !== 58 || line.charCodeAt(16) !== 58) return 0;
  for (const at of STAMP_DIGITS) {
    const d = line.charCodeAt(at) - 48;
    if (d < 0 || d > 9) return 0;
  }
  const digit = (at: number): number => line.charCodeAt(at) - 48;
  let i = 19;
  let ms = 0;
  if (line.charCodeAt(i) === 46) {
    i++;
    let scale = 100;
    while (i < line.length) {
      const d = line.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      ms += d * scale;
      scale /= 10;
      i++;
    }
  }
  if (line.charCodeAt(i) !== 90) return 0;
  // The day changes rarely within a log: Date.UTC once per day, the rest by arithmetic.
  const day =
    (digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)) * 10000 +
    (digit(5) * 10 + digit(6)) * 100 +
    digit(8) * 10 +
    digit(9);
  if (day !== lastDay) {
    lastDay = day;
    lastDayMs = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100);
  }
  stampedAt =
    lastDayMs +
    (digit(11) * 10 + digit(12)) * 3_600_000 +
    (digit(14) * 10 + digit(15)) * 60_000 +
    (digit(17) * 10 + digit(18)) * 1000 +
    ms;
  return line.charCodeAt(i + 1) === 32 ? i + 2 : i + 1;
}

/** The text a terminal would show: no escapes, and only what the last carriage return left. */
function visible(text: string): string {
  let line = text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
  if (line.includes("\x1b")) line = line.replace(ANSI, "");
  const cr = line.lastIndexOf("\r");
  return cr === -1 ? line : line.slice(cr + 1);
}

/** The time of the line timestampOf read last. */
let stampedAt = Number.NaN;
/** The day (YYYYMMDD) of the last timestamp read, and its midnight in ms since the epoch. */
let lastDay = -1;
let lastDayMs = 0;

/** A raw line's text as shown; its time is left in `stampedAt`. */
function rawText(line: string): string {
  const rest = timestampOf(line);
  return visible(rest === 0 ? line : line.slice(rest));
}

/** Splits a log's text into its raw lines: no BOM, no empty last line. */
function rawLines(text: string): string[] {
  const split = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split("\n");
  if (split.at(-1) === "") split.pop();
  return split;
}

/** A job log grown step by step, sized for all its raw lines at once. */
class Builder {
  readonly lines: string[] = [];
  readonly times: Float64Array;
  readonly numbers: Int32Array;
  readonly stepOf: Int32Array;
  readonly steps: LogStep[] = [];

  constructor(capacity: number) {
    this.times = new Float64Array(capacity);
    this.numbers = new Int32Array(capacity);
    this.stepOf = new Int32Array(capacity);
  }

  step(name: string): void {
    const last = this.steps.at(-1);
    if (last !== undefined) last.end = this.lines.length;
    const start = this.lines.length;
    this.steps.push({ name, start, end: start, failed: false, exitCode: null });
  }

  current(): LogStep {
    if (this.steps.length === 0) this.step("");
    return this.steps.at(-1)!;
  }

  /** Reads one log's raw lines into the open step; a step header starts a new one. */
  read(split: readonly string[]): void {
    let header = -1;
    for (let index = 0; index < split.length; index++) {
      // The step's echoed script, `shell:` and `env:`, up to its `##[endgroup]`.
      if (index <= header) continue;
      const line = rawText(split[index]!);
      const at = stampedAt;
      if (line.startsWith("##[")) {
        if (line.startsWith(STEP_HEADER)) {
          this.step(line.slice(GROUP.length).trim());
          header = headerEnd(split, index);
          continue;
        }
        if (line === END_GROUP) continue;
        if (line.startsWith("##[error]")) {
          const step = this.current();
          step.failed = true;
          const exit = EXIT_LINE.exec(line);
          if (exit !== null) {
            step.exitCode = Number(exit[1]);
            if (step.exitCode <= SIGNAL_EXIT) continue;
          }
        }
      }
      const slot = this.lines.length;
      if (this.steps.length === 0) this.step("");
      this.lines.push(line);
      this.times[slot] = at;
      this.numbers[slot] = index + 1;
      this.stepOf[slot] = this.steps.length - 1;
    }
  }

  done(): JobLog {
    this.current().end = this.lines.length;
    const count = this.lines.length;
    return {
      lines: this.lines,
      times: this.times.subarray(0, count),
      numbers: this.numbers.subarray(0, count),
      stepOf: this.stepOf.subarray(0, count),
      steps: this.steps,
    };
  }
}

/** The raw index of the `##[endgroup]` that closes the header at `start`, or `start` alone. */
function headerEnd(split: readonly string[], start: number): number {
  const last = Math.min(split.length - 1, start + HEADER_REACH);
  for (let index = start + 1; index <= last; index++) {
    const line = split[index]!;
    if (!line.includes("##[")) continue;
    const text = rawText(line);
    if (text === END_GROUP) return index;
    if (text.startsWith(GROUP)) return start;
  }
  return start;
}

/** A downloaded job log (`GET …/jobs/{id}/logs`), or any saved console output, as lines. */
export function readJobLog(text: string): JobLog {
  const split = rawLines(text);
  const builder = new Builder(split.length);
  builder.read(split);
  return builder.done();
}

/** One job's per-step files from a run-logs zip, each a step, in order. */
export function readStepLogs(steps: readonly { name: string; text: string }[]): JobLog {
  const splits = steps.map((step) => rawLines(step.text));
  const builder = new Builder(splits.reduce((sum, split) => sum + split.length, 0));
  steps.forEach((step, index) => {
    builder.step(step.name);
    builder.read(splits[index]!);
  });
  return builder.done();
}

/** How long nothing was written before line `index` (ms): 0 without timestamps to tell. */
export function silenceBefore(log: JobLog, index: number): number {
  const at = log.times[index] ?? Number.NaN;
  if (Number.isNaN(at)) return 0;
  for (let before = index - 1; before >= 0; before--) {
    const then = log.times[before]!;
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
