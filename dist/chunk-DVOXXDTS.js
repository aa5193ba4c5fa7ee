import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  unpack,
  unpackBudget
} from "./chunk-JCMIJNXI.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/ci/log.ts
var EXIT_LINE = /^##\[error\]Process completed with exit code (\d+)\.$/;
var SIGNAL_EXIT = 128;
var STEP_HEADER = "##[group]Run ";
var GROUP = "##[group]";
var END_GROUP = "##[endgroup]";
var HEADER_REACH = 400;
var ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
var stamped = new Float64Array(1);
var lastDay = -1;
var lastDayMs = 0;
function twoDigits(text, at) {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens < 0 || tens > 9 || ones < 0 || ones > 9 ? -1e3 : tens * 10 + ones;
}
function stampEnd(text, start, end) {
  stamped[0] = Number.NaN;
  if (end - start < 20) return start;
  if (text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45 || text.charCodeAt(start + 10) !== 84 || text.charCodeAt(start + 13) !== 58 || text.charCodeAt(start + 16) !== 58) {
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
  const day = (century * 100 + year) * 1e4 + month * 100 + date;
  if (day !== lastDay) {
    lastDay = day;
    lastDayMs = Date.UTC(century * 100 + year, month - 1, date);
  }
  stamped[0] = lastDayMs + hours * 36e5 + minutes * 6e4 + seconds * 1e3 + ms;
  return i + 1 < end && text.charCodeAt(i + 1) === 32 ? i + 2 : i + 1;
}
function escapeEnd(line, at) {
  const kind = line.charCodeAt(at + 1);
  if (kind === 91) {
    let i = at + 2;
    while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 63) i++;
    while (i < line.length && line.charCodeAt(i) >= 32 && line.charCodeAt(i) <= 47) i++;
    const final = line.charCodeAt(i);
    return final >= 64 && final <= 126 ? i + 1 : at + 1;
  }
  if (kind === 93) {
    let i = at + 2;
    while (i < line.length && line.charCodeAt(i) !== 7 && line.charCodeAt(i) !== 27) i++;
    if (line.charCodeAt(i) === 7) return i + 1;
    return line.charCodeAt(i) === 27 && line.charCodeAt(i + 1) === 92 ? i + 2 : i;
  }
  return kind >= 64 && kind <= 90 || kind >= 92 && kind <= 95 ? at + 2 : at + 1;
}
function withoutEscapes(line) {
  let at = line.indexOf("\x1B");
  if (at === -1) return line;
  let out = "";
  let from = 0;
  while (at !== -1) {
    const end = escapeEnd(line, at);
    out += line.slice(from, end === at + 1 ? end : at);
    from = end;
    at = line.indexOf("\x1B", from);
  }
  return out + line.slice(from);
}
var STAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d*)?Z ?/y;
function contentStart(text, start, end) {
  if (end - start < 20) return start;
  STAMP.lastIndex = start;
  if (!STAMP.test(text)) return start;
  return Math.min(STAMP.lastIndex, end);
}
function shownAt(text, start, end) {
  const from = contentStart(text, start, end);
  let until = end;
  if (until > from && text.charCodeAt(until - 1) === 13) until--;
  let line = withoutEscapes(text.slice(from, until));
  const cr = line.lastIndexOf("\r");
  if (cr !== -1) line = line.slice(cr + 1);
  return line;
}
function capacityFor(length) {
  return Math.ceil(length / 48) + 16;
}
function lineEnd(text, start) {
  const newline = text.indexOf("\n", start);
  return newline === -1 ? text.length : newline;
}
function grown(array) {
  const bigger = new Int32Array(Math.max(16, array.length * 2));
  bigger.set(array);
  return bigger;
}
var Builder = class {
  count = 0;
  /** Each kept line's `[starts, ends)` in the text, its newline left out. */
  starts;
  ends;
  /** The kept lines holding an escape character, ascending. */
  escaped = new Int32Array(16);
  escapedCount = 0;
  numbers;
  stepOf;
  steps = [];
  text;
  constructor(text) {
    this.text = text;
    const capacity = capacityFor(text.length);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.numbers = new Int32Array(capacity);
    this.stepOf = new Int32Array(capacity);
  }
  line(index) {
    return shownAt(this.text, this.starts[index], this.ends[index]);
  }
  time(index) {
    stampEnd(this.text, this.starts[index], this.ends[index]);
    return stamped[0];
  }
  step(name) {
    const last = this.steps.at(-1);
    if (last !== void 0) last.end = this.count;
    this.steps.push({ name, start: this.count, end: this.count, failed: false, exitCode: null });
  }
  current() {
    if (this.steps.length === 0) this.step("");
    return this.steps.at(-1);
  }
  push(start, end, number, escaped) {
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
  read(from, to) {
    const text = this.text;
    let start = text.charCodeAt(from) === 65279 ? from + 1 : from;
    let number = 0;
    let marker = -2;
    let escape = -2;
    while (start < to) {
      const end = Math.min(lineEnd(text, start), to);
      number++;
      if (marker !== -1 && marker < start) marker = text.indexOf("##[", start);
      if (escape !== -1 && escape < start) escape = text.indexOf("\x1B", start);
      const escaped = escape !== -1 && escape < end;
      if (marker !== -1 && marker < end) {
        const line = shownAt(text, start, end);
        if (line.startsWith(STEP_HEADER)) {
          this.step(line.slice(GROUP.length).trim());
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
  exitLine(line) {
    if (!line.startsWith("##[error]")) return false;
    const step = this.current();
    step.failed = true;
    const exit = EXIT_LINE.exec(line);
    if (exit === null) return false;
    step.exitCode = Number(exit[1]);
    return step.exitCode <= SIGNAL_EXIT;
  }
  done() {
    this.current().end = this.count;
    this.numbers = this.numbers.subarray(0, this.count);
    this.stepOf = this.stepOf.subarray(0, this.count);
    return this;
  }
  linesWith(words) {
    const text = this.text;
    const marked = new Uint8Array(this.count);
    for (let at = 0; at < this.escapedCount; at++) marked[this.escaped[at]] = 1;
    for (const scan of words.scans) {
      let line = 0;
      let from = 0;
      while (line < this.count) {
        let at;
        if (typeof scan === "string") {
          at = text.indexOf(scan, from);
          if (at === -1) break;
        } else {
          scan.lastIndex = from;
          if (!scan.test(text)) break;
          at = scan.lastIndex - 1;
        }
        while (line < this.count && this.ends[line] < at) line++;
        if (line === this.count) break;
        if (this.starts[line] <= at) {
          marked[line] = 1;
          from = this.ends[line] + 1;
        } else {
          from = this.starts[line];
        }
      }
    }
    let total = 0;
    for (let index = 0; index < this.count; index++) {
      if (marked[index] === 0 && words.rest.length > 0) {
        const raw = text.slice(this.starts[index], this.ends[index]);
        if (words.rest.some((word) => word.test(raw))) marked[index] = 1;
      }
      total += marked[index];
    }
    const lines = new Int32Array(total);
    let slot = 0;
    for (let index = 0; index < this.count; index++) if (marked[index] === 1) lines[slot++] = index;
    return lines;
  }
};
function headerEnd(text, start, to) {
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
function readJobLog(text) {
  const builder = new Builder(text);
  builder.read(0, text.length);
  return builder.done();
}
function readStepLogs(steps) {
  const texts = steps.map(
    (step) => step.text === "" || step.text.endsWith("\n") ? step.text : `${step.text}
`
  );
  const builder = new Builder(texts.join(""));
  let from = 0;
  steps.forEach((step, index) => {
    builder.step(step.name);
    const to = from + texts[index].length;
    builder.read(from, to);
    from = to;
  });
  return builder.done();
}
function silenceBefore(log, index) {
  const at = log.time(index);
  if (Number.isNaN(at)) return 0;
  for (let before = index - 1; before >= 0; before--) {
    const then = log.time(before);
    if (!Number.isNaN(then)) return Math.max(0, at - then);
  }
  return 0;
}
var LOG_FILE = /^(\d+)_(.+)\.txt$/;
function readRunLogs(bytes, file = "logs.zip") {
  const { contents, problems } = unpack(file, bytes, unpackBudget());
  const problem = problems[0];
  if (problem !== void 0) {
    throw new PitcrewError(
      "ci-log-unreadable",
      `${problem.names.join(": ")}: ${problem.kind.replace(" to scan", "")}.`
    );
  }
  const jobs = /* @__PURE__ */ new Map();
  const entry = (name) => {
    let found = jobs.get(name);
    if (found === void 0) {
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
      const job = entry(named[2]);
      job.order = Number(named[1]);
      job.whole = text;
    } else {
      entry(parts[0]).steps.push({ order: Number(named[1]), name: named[2], text });
    }
  }
  if (jobs.size === 0) {
    throw new PitcrewError(
      "ci-log-unreadable",
      `${file}: it holds no job log (a run-logs zip has <n>_<job>.txt files).`
    );
  }
  return [...jobs.entries()].sort(([, a], [, b]) => a.order - b.order).map(([name, job]) => ({
    name,
    log: job.whole !== null ? readJobLog(job.whole) : readStepLogs(job.steps.sort((a, b) => a.order - b.order))
  }));
}

export {
  ANSI,
  readJobLog,
  silenceBefore,
  readRunLogs
};
