import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  ZERO_USAGE,
  addUsage
} from "./chunk-RORLQNC6.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/store/transcript.ts
function droppedLine(lines) {
  const line = { type: "dropped", lines };
  return `${JSON.stringify(line)}
`;
}
function droppedBefore(line) {
  if (!line.startsWith('{"type":"dropped"')) return 0;
  try {
    const parsed = JSON.parse(line);
    return typeof parsed.lines === "number" ? parsed.lines : 0;
  } catch {
    return 0;
  }
}
function capTranscript(text, limit) {
  if (Buffer.byteLength(text) <= limit) return text;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const earlier = droppedBefore(lines[0] ?? "");
  const entries = earlier > 0 ? lines.slice(1) : lines;
  const room = limit - Buffer.byteLength(droppedLine(earlier + entries.length));
  let used = 0;
  let from = entries.length;
  while (from > 0) {
    const size = Buffer.byteLength(entries[from - 1] ?? "") + 1;
    if (used + size > room) break;
    used += size;
    from -= 1;
  }
  const kept = entries.slice(from);
  return droppedLine(earlier + from) + kept.map((line) => `${line}
`).join("");
}
function transcriptLines(run, messages, usage, record = {}) {
  const byTurn = new Map(usage.map((one) => [one.turn, one]));
  const events = record.events ?? [];
  const contexts = /* @__PURE__ */ new Map();
  const compactions = /* @__PURE__ */ new Map();
  const durations = /* @__PURE__ */ new Map();
  for (const event of events) {
    if (event.type === "context") {
      const { turn: turn2, tokens, fired } = event;
      contexts.set(turn2, { type: "context", run, turn: turn2, tokens, fired: [...fired] });
    } else if (event.type === "compaction") {
      const { turn: turn2 } = event;
      compactions.set(turn2, { type: "compaction", run, turn: turn2, note: event.compaction.note });
    } else if (event.type === "tool_end") {
      const { turn: turn2, durationMs } = event;
      durations.set(event.call.id, { type: "tool", run, turn: turn2, callId: event.call.id, durationMs });
    }
  }
  const entries = record.start === void 0 ? [] : [record.start];
  let turn = 0;
  for (const message of messages) {
    if (message.role === "assistant") {
      turn += 1;
      for (const extra of [compactions.get(turn), contexts.get(turn)]) {
        if (extra !== void 0) entries.push(extra);
      }
      const one = byTurn.get(turn);
      if (one) {
        entries.push({ type: "usage", run, turn, usage: one.usage, cost: one.cost });
        byTurn.delete(turn);
      }
    }
    entries.push({ type: "message", run, message });
    const timed = message.role === "tool" ? durations.get(message.toolCallId) : void 0;
    if (timed !== void 0) entries.push(timed);
  }
  for (const one of byTurn.values())
    entries.push({ type: "usage", run, turn: one.turn, usage: one.usage, cost: one.cost });
  if (record.end !== void 0) entries.push({ type: "end", run, ...record.end });
  return entries.map((entry) => `${JSON.stringify(entry)}
`).join("");
}
function messagesFromEvents(start, events) {
  const messages = [...start];
  for (const event of events) {
    if (event.type === "assistant")
      messages.push({ role: "assistant", content: event.content, toolCalls: event.toolCalls });
    if (event.type === "tool_end")
      messages.push({
        role: "tool",
        toolCallId: event.call.id,
        name: event.call.name,
        content: event.outcome.content,
        isError: event.outcome.isError
      });
  }
  return messages;
}
function* messageEntries(transcript) {
  for (const line of transcript.split("\n")) {
    if (!line.startsWith('{"type":"message"')) continue;
    try {
      const entry = JSON.parse(line);
      if (typeof entry.run === "number" && typeof entry.message?.content === "string")
        yield { run: entry.run, message: entry.message };
    } catch {
      continue;
    }
  }
}
function threadTask(transcript) {
  for (const { message } of messageEntries(transcript))
    if (message.role === "user") return message.content;
  return "";
}
function lastWords(transcript) {
  let newest = 0;
  let words = "";
  for (const { run, message } of messageEntries(transcript)) {
    if (run !== newest) [newest, words] = [run, ""];
    if (message.role === "assistant" && message.content.trim() !== "") words = message.content;
  }
  return words;
}

// src/store/notes.ts
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync
} from "node:fs";
import { join } from "node:path";
var NOTE_FILE = "note.md";
var STATE_FILE = "state.json";
var TRANSCRIPT_FILE = "transcript.jsonl";
var STATE_CAP = 256 * 1024;
var NOTE_CAP = 256 * 1024;
var TRANSCRIPT_CAP = 64 * 1024 * 1024;
var STOP_REASONS = {
  done: "done",
  max_turns: "max_turns",
  time_budget: "time_budget",
  cost_budget: "cost_budget",
  token_budget: "token_budget",
  cancelled: "cancelled",
  model_error: "model_error"
};
var count = external_exports.number().int().nonnegative();
var usageSchema = external_exports.strictObject({
  promptTokens: count,
  cachedTokens: count,
  completionTokens: count,
  reasoningTokens: count
});
var threadStateSchema = external_exports.strictObject({
  version: external_exports.literal(1),
  threadKey: external_exports.string().min(1),
  repository: external_exports.string().regex(/^[^/\s]+\/[^/\s]+$/, "expected owner/name"),
  branch: external_exports.string().min(1),
  baseBranch: external_exports.string().min(1),
  baseSha: external_exports.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id"),
  headSha: external_exports.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id").nullable(),
  prNumber: external_exports.number().int().positive().nullable(),
  attempts: count,
  cumulative: external_exports.strictObject({
    runs: count,
    turns: count,
    usage: usageSchema,
    cost: external_exports.number().finite().nonnegative()
  }),
  todos: external_exports.array(
    external_exports.strictObject({
      content: external_exports.string(),
      status: external_exports.enum(["pending", "in_progress", "completed"])
    })
  ),
  stopReason: external_exports.enum(STOP_REASONS).nullable(),
  savedAt: external_exports.iso.datetime(),
  ledgers: external_exports.record(external_exports.string(), external_exports.unknown())
});
function notesInvalid(file, what) {
  return new PitcrewError("notes-invalid", `${file}: ${what}`);
}
function readCapped(dir, file, cap) {
  let fd;
  try {
    fd = openSync(join(dir, file), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = error.code;
    if (code === "ENOENT") throw notesInvalid(file, "missing");
    if (code === "ELOOP") throw notesInvalid(file, "a link, which is never followed");
    throw notesInvalid(file, `cannot be read (${code})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notesInvalid(file, "not a plain file");
    checkSize(file, stats.size, cap);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}
function checkSize(file, size, cap) {
  if (size > cap) throw notesInvalid(file, `${size} bytes, over the cap of ${cap}`);
}
function parseState(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw notesInvalid(STATE_FILE, `not JSON (${error.message})`);
  }
  const checked = threadStateSchema.safeParse(json);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : void 0;
  const path = [...issue?.path ?? [], ...unknownKey === void 0 ? [] : [unknownKey]];
  const field = path.join(".") || "(top level)";
  const what = unknownKey === void 0 ? issue?.message ?? "invalid" : "not a known field";
  throw notesInvalid(STATE_FILE, `${field}: ${what}`);
}
function readNotesText(dir) {
  const state = readCapped(dir, STATE_FILE, STATE_CAP);
  const note = readCapped(dir, NOTE_FILE, NOTE_CAP);
  return { note, state, transcript: readCapped(dir, TRANSCRIPT_FILE, TRANSCRIPT_CAP) };
}
function notesFromText(text) {
  return { note: text.note, state: parseState(text.state), transcript: text.transcript };
}
function readNotesFolder(dir) {
  return notesFromText(readNotesText(dir));
}
function notesText(notes) {
  const state = `${JSON.stringify(notes.state, null, 2)}
`;
  if (Buffer.byteLength(state) > STATE_CAP)
    throw new PitcrewError(
      "notes-too-large",
      `${STATE_FILE}: ${Buffer.byteLength(state)} bytes, over the cap of ${STATE_CAP}; the ledgers hold too much.`
    );
  if (Buffer.byteLength(notes.note) > NOTE_CAP)
    throw new PitcrewError(
      "notes-too-large",
      `${NOTE_FILE}: ${Buffer.byteLength(notes.note)} bytes, over the cap of ${NOTE_CAP}.`
    );
  const transcript = capTranscript(notes.transcript, TRANSCRIPT_CAP);
  return { note: notes.note, state, transcript };
}
function writeNotesFolder(dir, notes) {
  const text = notesText(notes);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, STATE_FILE), text.state);
  writeFileSync(join(dir, NOTE_FILE), text.note);
  writeFileSync(join(dir, TRANSCRIPT_FILE), text.transcript);
  return text;
}
function nextState(previous, facts, now = /* @__PURE__ */ new Date()) {
  if (previous && (previous.threadKey !== facts.threadKey || previous.repository !== facts.repository)) {
    throw new PitcrewError(
      "notes-mismatch",
      `The restored notes belong to ${previous.repository} thread ${previous.threadKey}, not ${facts.repository} thread ${facts.threadKey}; they were not used.`
    );
  }
  const before = previous?.cumulative ?? { runs: 0, turns: 0, usage: ZERO_USAGE, cost: 0 };
  return {
    version: 1,
    threadKey: facts.threadKey,
    repository: facts.repository,
    branch: facts.branch,
    baseBranch: facts.baseBranch,
    baseSha: facts.baseSha,
    headSha: facts.headSha,
    prNumber: facts.prNumber,
    attempts: (previous?.attempts ?? 0) + 1,
    cumulative: {
      runs: before.runs + 1,
      turns: before.turns + facts.turns,
      usage: addUsage(before.usage, facts.usage),
      cost: before.cost + facts.cost
    },
    todos: facts.todos,
    stopReason: facts.stopReason,
    savedAt: now.toISOString(),
    ledgers: { ...previous?.ledgers, ...facts.ledgers }
  };
}

export {
  transcriptLines,
  messagesFromEvents,
  threadTask,
  lastWords,
  NOTE_FILE,
  STATE_FILE,
  TRANSCRIPT_FILE,
  STATE_CAP,
  NOTE_CAP,
  TRANSCRIPT_CAP,
  notesInvalid,
  readCapped,
  checkSize,
  readNotesText,
  notesFromText,
  readNotesFolder,
  notesText,
  writeNotesFolder,
  nextState
};
