/**
 * The transcript: every message and every turn's usage of every run of a thread, one JSON object a
 * line. Pure: what a run adds to it, how it is cut to its cap, and the two things a later run reads
 * back from it (the thread's task as first given, the previous run's last words).
 */
import type { LoopEvent } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import type { TurnUsage } from "../domain/run-state.ts";
import type { RunStart, TranscriptEntry } from "../domain/notes.ts";

/** The first line of a cut transcript: JSON like the rest, so the file stays JSONL. */
interface DroppedLine {
  type: "dropped";
  lines: number;
}

function droppedLine(lines: number): string {
  const line: DroppedLine = { type: "dropped", lines };
  return `${JSON.stringify(line)}\n`;
}

/** Lines an earlier cut already dropped, read from a transcript's first line. */
function droppedBefore(line: string): number {
  if (!line.startsWith('{"type":"dropped"')) return 0;
  try {
    const parsed = JSON.parse(line) as Partial<DroppedLine>;
    return typeof parsed.lines === "number" ? parsed.lines : 0;
  } catch {
    return 0;
  }
}

/**
 * The newest whole lines of a JSONL text within `limit` bytes, after a first line saying how many
 * were dropped (counting any an earlier cut dropped). A text within the limit comes back as is.
 */
export function capTranscript(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const earlier = droppedBefore(lines[0] ?? "");
  const entries = earlier > 0 ? lines.slice(1) : lines;
  // Room for the first line at its longest: every line dropped.
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
  return droppedLine(earlier + from) + kept.map((line) => `${line}\n`).join("");
}

/** What the report reads of a run besides its messages and usage (src/report/). */
export interface RunRecord {
  start?: RunStart;
  /** The loop's events: the context each request was sent with, compactions, tool timings. */
  events?: readonly LoopEvent[];
  end?: { at: string; stopReason: string | null };
}

/**
 * A run's part of the transcript, as JSONL: its start (window, thread), its messages in order,
 * each turn's context (tokens sent, layers fired), compaction and usage just before the assistant
 * message that turn produced (the loop adds one per turn), each tool result's duration after it,
 * and how it ended. `run` is the thread's run number (the state's `attempts` once this run is saved).
 */
export function transcriptLines(
  run: number,
  messages: readonly Message[],
  usage: readonly TurnUsage[],
  record: RunRecord = {},
): string {
  const byTurn = new Map(usage.map((one) => [one.turn, one]));
  const events = record.events ?? [];
  const contexts = new Map<number, TranscriptEntry>();
  const compactions = new Map<number, TranscriptEntry>();
  const durations = new Map<string, TranscriptEntry>();
  for (const event of events) {
    if (event.type === "context") {
      const { turn, tokens, fired } = event;
      contexts.set(turn, { type: "context", run, turn, tokens, fired: [...fired] });
    } else if (event.type === "compaction") {
      const { turn } = event;
      compactions.set(turn, { type: "compaction", run, turn, note: event.compaction.note });
    } else if (event.type === "tool_end") {
      const { turn, durationMs } = event;
      durations.set(event.call.id, { type: "tool", run, turn, callId: event.call.id, durationMs });
    }
  }
  const entries: TranscriptEntry[] = record.start === undefined ? [] : [record.start];
  let turn = 0;
  for (const message of messages) {
    if (message.role === "assistant") {
      turn += 1;
      for (const extra of [compactions.get(turn), contexts.get(turn)]) {
        if (extra !== undefined) entries.push(extra);
      }
      const one = byTurn.get(turn);
      if (one) {
        entries.push({ type: "usage", run, turn, usage: one.usage, cost: one.cost });
        byTurn.delete(turn);
      }
    }
    entries.push({ type: "message", run, message });
    const timed = message.role === "tool" ? durations.get(message.toolCallId) : undefined;
    if (timed !== undefined) entries.push(timed);
  }
  // Usage whose answer is not in `messages` (a checkpoint taken mid-turn) still counts.
  for (const one of byTurn.values())
    entries.push({ type: "usage", run, turn: one.turn, usage: one.usage, cost: one.cost });
  if (record.end !== undefined) entries.push({ type: "end", run, ...record.end });
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
}

/**
 * The history so far as the loop builds it, from the start messages and its events: what a
 * checkpoint taken during a run can save (the loop hands out its messages only at the end).
 */
export function messagesFromEvents(
  start: readonly Message[],
  events: readonly LoopEvent[],
): Message[] {
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
        isError: event.outcome.isError,
      });
  }
  return messages;
}

/** The transcript's message entries, oldest first; lines that are not one are skipped. */
function* messageEntries(transcript: string): Generator<{ run: number; message: Message }> {
  for (const line of transcript.split("\n")) {
    if (!line.startsWith('{"type":"message"')) continue;
    try {
      const entry = JSON.parse(line) as { run?: unknown; message?: Partial<Message> };
      if (typeof entry.run === "number" && typeof entry.message?.content === "string")
        yield { run: entry.run, message: entry.message as Message };
    } catch {
      continue;
    }
  }
}

/** The thread's first task: its first run's first user message ("" when it was cut away). */
export function threadTask(transcript: string): string {
  for (const { message } of messageEntries(transcript))
    if (message.role === "user") return message.content;
  return "";
}

/** The last thing the newest run in the transcript said ("" when it said nothing). */
export function lastWords(transcript: string): string {
  let newest = 0;
  let words = "";
  for (const { run, message } of messageEntries(transcript)) {
    if (run !== newest) [newest, words] = [run, ""];
    if (message.role === "assistant" && message.content.trim() !== "") words = message.content;
  }
  return words;
}
