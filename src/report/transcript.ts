/**
 * The transcript (JSONL, every run of a thread) read back into what the report shows: runs, each
 * with its start, its opening messages, its turns (the request's context and usage, the model's
 * text, each call with its result and duration) and its end. Pure and forgiving: a line that is not
 * a transcript entry is skipped and counted, never trusted; nothing here renders.
 */
import type { ToolCall } from "../domain/messages.ts";
import type { Usage } from "../domain/usage.ts";
import type { RunStart } from "../domain/notes.ts";

/** One call of a turn and what came back; `call` is a stand-in when only the result survived. */
export interface CallView {
  call: ToolCall;
  result?: { content: string; isError: boolean };
  durationMs?: number;
}

/** One model request and its answer, with what the harness said just before it. */
export interface TurnView {
  turn: number;
  /** Reminders sent with this request (user messages starting `<reminder>`). */
  reminders: string[];
  /** Other user messages that arrived before this request. */
  said: string[];
  /** The handoff note of a compaction made before this request. */
  compaction?: string;
  /** The request as sent: estimated tokens and the context layers that fired. */
  context?: { tokens: number; fired: string[] };
  usage?: Usage;
  cost?: number;
  /** The model's text; undefined when its answer is not in the transcript. */
  text?: string;
  calls: CallView[];
}

export interface RunView {
  run: number;
  start?: Omit<RunStart, "type" | "run">;
  end?: { at: string; stopReason: string | null };
  /** System prompts and the user messages before the first answer. */
  system: string[];
  opening: string[];
  /** By turn number, ascending. */
  turns: TurnView[];
}

export interface ReportData {
  runs: RunView[];
  /** Lines an earlier cut of the transcript dropped (its first line says so). */
  dropped: number;
  /** Lines that were not transcript entries (broken JSON, unknown shapes). */
  skipped: number;
}

/** What a run is while it is read: turns by number, calls by id, the turn messages count up to. */
interface Reading {
  view: RunView;
  turns: Map<number, TurnView>;
  calls: Map<string, CallView>;
  /** The turn of the last assistant message. */
  turn: number;
  /** A turn an entry named since the last assistant message: the next answer is that turn's. */
  upcoming: number | undefined;
}

type Entry = Record<string, unknown>;

const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === "string";
const count = (value: unknown): number => (isNumber(value) && value > 0 ? value : 0);

function usageOf(value: unknown): Usage | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const usage = value as Entry;
  if (!isNumber(usage.promptTokens) || !isNumber(usage.completionTokens)) return undefined;
  return {
    promptTokens: count(usage.promptTokens),
    cachedTokens: count(usage.cachedTokens),
    completionTokens: count(usage.completionTokens),
    reasoningTokens: count(usage.reasoningTokens),
  };
}

function callsOf(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  const calls: ToolCall[] = [];
  for (const item of value as unknown[]) {
    if (item === null || typeof item !== "object") continue;
    const call = item as Entry;
    calls.push({
      id: isString(call.id) ? call.id : "",
      name: isString(call.name) ? call.name : "(unnamed tool)",
      arguments: isString(call.arguments) ? call.arguments : "",
    });
  }
  return calls;
}

function reading(runs: Map<number, Reading>, run: number): Reading {
  let found = runs.get(run);
  if (found === undefined) {
    found = {
      view: { run, system: [], opening: [], turns: [] },
      turns: new Map(),
      calls: new Map(),
      turn: 0,
      upcoming: undefined,
    };
    runs.set(run, found);
  }
  return found;
}

function turnOf(run: Reading, turn: number): TurnView {
  let found = run.turns.get(turn);
  if (found === undefined) {
    found = { turn, reminders: [], said: [], calls: [] };
    run.turns.set(turn, found);
  }
  return found;
}

/** An entry that names a turn before its answer: the answer that follows is that turn's. */
function named(run: Reading, turn: unknown): TurnView | undefined {
  if (!isNumber(turn) || !Number.isInteger(turn) || turn < 1) return undefined;
  if (turn > run.turn) run.upcoming = turn;
  return turnOf(run, turn);
}

/** Reads one message entry into its run; false when it is not a message. */
function readMessage(run: Reading, value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const message = value as Entry;
  if (!isString(message.content)) return false;
  const content = message.content;
  switch (message.role) {
    case "system":
      run.view.system.push(content);
      return true;
    case "user": {
      const answered = run.turn > 0 || run.upcoming !== undefined;
      if (content.startsWith("<reminder>"))
        turnOf(run, run.upcoming ?? run.turn + 1).reminders.push(content);
      else if (!answered) run.view.opening.push(content);
      else turnOf(run, run.upcoming ?? run.turn + 1).said.push(content);
      return true;
    }
    case "assistant": {
      run.turn = run.upcoming ?? run.turn + 1;
      run.upcoming = undefined;
      const turn = turnOf(run, run.turn);
      turn.text = turn.text === undefined ? content : `${turn.text}\n\n${content}`;
      for (const call of callsOf(message.toolCalls)) {
        const view: CallView = { call };
        turn.calls.push(view);
        if (call.id !== "") run.calls.set(call.id, view);
      }
      return true;
    }
    case "tool": {
      const id = isString(message.toolCallId) ? message.toolCallId : "";
      const result = { content, isError: message.isError === true };
      const known = id === "" ? undefined : run.calls.get(id);
      if (known !== undefined && known.result === undefined) {
        known.result = result;
      } else {
        const name = isString(message.name) ? message.name : "(unknown tool)";
        const orphan: CallView = { call: { id, name, arguments: "" }, result };
        turnOf(run, Math.max(run.turn, 1)).calls.push(orphan);
      }
      return true;
    }
    default:
      return false;
  }
}

/** Reads one parsed line; false when it is no entry the report knows. */
function readEntry(
  runs: Map<number, Reading>,
  entry: Entry,
  durations: Map<string, number>,
): boolean {
  if (!isNumber(entry.run)) return false;
  const run = reading(runs, entry.run);
  switch (entry.type) {
    case "run": {
      const { at, threadKey, repository, branch, window, compactAt } = entry;
      if (!isString(at) || !isString(threadKey) || !isString(repository) || !isString(branch))
        return false;
      if (!isNumber(window) || !isNumber(compactAt)) return false;
      run.view.start = { at, threadKey, repository, branch, window, compactAt };
      return true;
    }
    case "message":
      return readMessage(run, entry.message);
    case "usage": {
      const usage = usageOf(entry.usage);
      const turn = usage === undefined ? undefined : named(run, entry.turn);
      if (turn === undefined) return false;
      turn.usage = usage;
      turn.cost = count(entry.cost);
      return true;
    }
    case "context": {
      const fired = Array.isArray(entry.fired) ? (entry.fired as unknown[]).filter(isString) : [];
      const turn = isNumber(entry.tokens) ? named(run, entry.turn) : undefined;
      if (turn === undefined) return false;
      turn.context = { tokens: count(entry.tokens), fired };
      return true;
    }
    case "compaction": {
      const turn = isString(entry.note) ? named(run, entry.turn) : undefined;
      if (turn === undefined) return false;
      turn.compaction = entry.note as string;
      return true;
    }
    case "tool":
      if (!isString(entry.callId) || !isNumber(entry.durationMs)) return false;
      durations.set(`${entry.run}\0${entry.callId}`, count(entry.durationMs));
      return true;
    case "end":
      if (!isString(entry.at)) return false;
      run.view.end = {
        at: entry.at,
        stopReason: isString(entry.stopReason) ? entry.stopReason : null,
      };
      return true;
    default:
      return false;
  }
}

/** The transcript's runs, turns and calls; bad lines are skipped and counted. */
export function readTranscript(text: string): ReportData {
  const runs = new Map<number, Reading>();
  const durations = new Map<string, number>();
  let dropped = 0;
  let skipped = 0;
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf("\n", from);
    if (to === -1) to = text.length;
    const line = text.slice(from, to).trim();
    from = to + 1;
    if (line === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      skipped += 1;
      continue;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      skipped += 1;
      continue;
    }
    const entry = parsed as Entry;
    if (entry.type === "dropped" && isNumber(entry.lines)) {
      dropped += count(entry.lines);
      continue;
    }
    if (!readEntry(runs, entry, durations)) skipped += 1;
  }
  const views: RunView[] = [];
  for (const run of runs.values()) {
    for (const [id, call] of run.calls) {
      const duration = durations.get(`${run.view.run}\0${id}`);
      if (duration !== undefined) call.durationMs = duration;
    }
    run.view.turns = [...run.turns.values()].sort((a, b) => a.turn - b.turn);
    views.push(run.view);
  }
  return { runs: views, dropped, skipped };
}

/** Whether a turn counts as one: the model answered it (its usage or its text is recorded). */
export function isAnswered(turn: TurnView): boolean {
  return turn.usage !== undefined || turn.text !== undefined;
}

/** The requests of a run in order (answered or at least sent): the chart's points. */
export function requestsOf(run: RunView): TurnView[] {
  return run.turns.filter((turn) => turn.usage !== undefined || turn.context !== undefined);
}
