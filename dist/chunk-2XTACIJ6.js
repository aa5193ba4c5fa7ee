import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/git/secret-unpack.ts
import { gunzipSync, inflateRawSync, zstdDecompressSync } from "node:zlib";
var MIB = 1024 * 1024;
var UNPACK_LIMITS = {
  /** What one gzip stream, zstd frame or zip member may unpack to. */
  memberBytes: 32 * MIB,
  /** What all compressed data in one push may unpack to, together. */
  totalBytes: 256 * MIB,
  /** Compressed data inside compressed data, this many layers deep. */
  depth: 4,
  /** Members of one zip archive. */
  members: 1e4
};
function unpackBudget() {
  return { bytesLeft: UNPACK_LIMITS.totalBytes };
}
var PROBLEM_KINDS = {
  tooLarge: `compressed data too large to scan (over ${UNPACK_LIMITS.memberBytes / MIB} MiB unpacked, ${UNPACK_LIMITS.totalBytes / MIB} MiB in all, or ${UNPACK_LIMITS.depth} layers deep)`,
  broken: "compressed data that does not unpack",
  encrypted: "an encrypted zip member, which pitcrew cannot read"
};
function compressionOf(bytes) {
  if (bytes[0] === 31 && bytes[1] === 139) return "gzip";
  if (bytes.readUInt32LE(0) === 67324752) return "zip";
  if (bytes.readUInt32LE(0) === 4247762216) return "zstd";
  return void 0;
}
var Problem = class extends Error {
  kind;
  constructor(kind) {
    super(kind);
    this.kind = kind;
  }
};
function inflate(budget, run) {
  const limit = Math.min(UNPACK_LIMITS.memberBytes, budget.bytesLeft);
  if (limit <= 0) throw new Problem(PROBLEM_KINDS.tooLarge);
  let out;
  try {
    out = run(limit);
  } catch (error) {
    const code = error.code;
    throw new Problem(
      code === "ERR_BUFFER_TOO_LARGE" ? PROBLEM_KINDS.tooLarge : PROBLEM_KINDS.broken
    );
  }
  if (out.length > limit) throw new Problem(PROBLEM_KINDS.tooLarge);
  budget.bytesLeft -= out.length;
  return out;
}
var END_OF_DIRECTORY = 101010256;
var DIRECTORY_ENTRY = 33639248;
var LOCAL_HEADER = 67324752;
var STORED = 0;
var DEFLATED = 8;
var ZSTD = 93;
function endOfDirectory(bytes) {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65535); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new Problem(PROBLEM_KINDS.broken);
}
function zipMembers(bytes, budget) {
  const end = endOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 65535 || at === 4294967295) throw new Problem(PROBLEM_KINDS.tooLarge);
  if (count > UNPACK_LIMITS.members) throw new Problem(PROBLEM_KINDS.tooLarge);
  const members = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new Problem(PROBLEM_KINDS.broken);
    }
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const packedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at = next;
    if (name.endsWith("/")) continue;
    if ((flags & 1) !== 0) throw new Problem(PROBLEM_KINDS.encrypted);
    if (packedSize === 4294967295 || local === 4294967295) {
      throw new Problem(PROBLEM_KINDS.tooLarge);
    }
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
      throw new Problem(PROBLEM_KINDS.broken);
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const packed = bytes.subarray(start, start + packedSize);
    if (packed.length !== packedSize) throw new Problem(PROBLEM_KINDS.broken);
    const unpacked = method === STORED ? inflate(budget, () => packed) : method === DEFLATED ? inflate(budget, (limit) => inflateRawSync(packed, { maxOutputLength: limit })) : method === ZSTD ? inflate(budget, (limit) => zstdDecompressSync(packed, { maxOutputLength: limit })) : void 0;
    if (unpacked === void 0) throw new Problem(PROBLEM_KINDS.broken);
    members.push({ name, bytes: unpacked });
  }
  return members;
}
function unpackLayer(layer, bytes, budget) {
  switch (layer) {
    case "gzip":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => gunzipSync(bytes, { maxOutputLength: limit }))
        }
      ];
    case "zstd":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => zstdDecompressSync(bytes, { maxOutputLength: limit }))
        }
      ];
    case "zip":
      return zipMembers(bytes, budget);
  }
}
function unpack(name, bytes, budget) {
  const contents = [];
  const problems = [];
  const visit = (names, layers, data) => {
    const layer = data.length >= 4 ? compressionOf(data) : void 0;
    if (layer === void 0) {
      contents.push({ names, layers, bytes: data });
      return;
    }
    const inner = [...layers, layer];
    if (inner.length > UNPACK_LIMITS.depth) {
      problems.push({ names, layers: inner, kind: PROBLEM_KINDS.tooLarge });
      return;
    }
    let members;
    try {
      members = unpackLayer(layer, data, budget);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push({ names, layers: inner, kind: error.kind });
      return;
    }
    for (const member of members) {
      visit(member.name === "" ? names : [...names, member.name], inner, member.bytes);
    }
  };
  visit([name], [], bytes);
  return { contents, problems };
}

// src/ci/log.ts
var EXIT_LINE = /^##\[error\]Process completed with exit code (\d+)\.$/;
var SIGNAL_EXIT = 128;
var STEP_HEADER = "##[group]Run ";
var GROUP = "##[group]";
var END_GROUP = "##[endgroup]";
var HEADER_REACH = 400;
var ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
var STAMP_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
function timestampOf(line) {
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
  const digit = (at) => line.charCodeAt(at) - 48;
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
  const day = (digit(0) * 1e3 + digit(1) * 100 + digit(2) * 10 + digit(3)) * 1e4 + (digit(5) * 10 + digit(6)) * 100 + digit(8) * 10 + digit(9);
  if (day !== lastDay) {
    lastDay = day;
    lastDayMs = Date.UTC(Math.floor(day / 1e4), Math.floor(day / 100) % 100 - 1, day % 100);
  }
  stampedAt = lastDayMs + (digit(11) * 10 + digit(12)) * 36e5 + (digit(14) * 10 + digit(15)) * 6e4 + (digit(17) * 10 + digit(18)) * 1e3 + ms;
  return line.charCodeAt(i + 1) === 32 ? i + 2 : i + 1;
}
function visible(text) {
  let line = text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
  if (line.includes("\x1B")) line = line.replace(ANSI, "");
  const cr = line.lastIndexOf("\r");
  return cr === -1 ? line : line.slice(cr + 1);
}
var stampedAt = Number.NaN;
var lastDay = -1;
var lastDayMs = 0;
function rawText(line) {
  const rest = timestampOf(line);
  return visible(rest === 0 ? line : line.slice(rest));
}
function rawLines(text) {
  const split = (text.charCodeAt(0) === 65279 ? text.slice(1) : text).split("\n");
  if (split.at(-1) === "") split.pop();
  return split;
}
var Builder = class {
  lines = [];
  times;
  numbers;
  stepOf;
  steps = [];
  constructor(capacity) {
    this.times = new Float64Array(capacity);
    this.numbers = new Int32Array(capacity);
    this.stepOf = new Int32Array(capacity);
  }
  step(name) {
    const last = this.steps.at(-1);
    if (last !== void 0) last.end = this.lines.length;
    const start = this.lines.length;
    this.steps.push({ name, start, end: start, failed: false, exitCode: null });
  }
  current() {
    if (this.steps.length === 0) this.step("");
    return this.steps.at(-1);
  }
  /** Reads one log's raw lines into the open step; a step header starts a new one. */
  read(split) {
    let header = -1;
    for (let index = 0; index < split.length; index++) {
      if (index <= header) continue;
      const line = rawText(split[index]);
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
  done() {
    this.current().end = this.lines.length;
    const count = this.lines.length;
    return {
      lines: this.lines,
      times: this.times.subarray(0, count),
      numbers: this.numbers.subarray(0, count),
      stepOf: this.stepOf.subarray(0, count),
      steps: this.steps
    };
  }
};
function headerEnd(split, start) {
  const last = Math.min(split.length - 1, start + HEADER_REACH);
  for (let index = start + 1; index <= last; index++) {
    const line = split[index];
    if (!line.includes("##[")) continue;
    const text = rawText(line);
    if (text === END_GROUP) return index;
    if (text.startsWith(GROUP)) return start;
  }
  return start;
}
function readJobLog(text) {
  const split = rawLines(text);
  const builder = new Builder(split.length);
  builder.read(split);
  return builder.done();
}
function readStepLogs(steps) {
  const splits = steps.map((step) => rawLines(step.text));
  const builder = new Builder(splits.reduce((sum, split) => sum + split.length, 0));
  steps.forEach((step, index) => {
    builder.step(step.name);
    builder.read(splits[index]);
  });
  return builder.done();
}
function silenceBefore(log, index) {
  const at = log.times[index] ?? Number.NaN;
  if (Number.isNaN(at)) return 0;
  for (let before = index - 1; before >= 0; before--) {
    const then = log.times[before];
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
  UNPACK_LIMITS,
  unpackBudget,
  compressionOf,
  unpack,
  ANSI,
  readJobLog,
  silenceBefore,
  readRunLogs
};
