/**
 * The transcript's pure helpers: a run's lines (usage beside the answer it paid for), the history a
 * checkpoint rebuilds from events, the cut to a cap, and what a later run reads back.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LoopEvent } from "../../src/domain/loop.ts";
import type { Message } from "../../src/domain/messages.ts";
import type { Usage } from "../../src/domain/usage.ts";
import {
  capTranscript,
  lastWords,
  messagesFromEvents,
  threadTask,
  transcriptLines,
} from "../../src/store/transcript.ts";

const usage = (promptTokens: number): Usage => ({
  promptTokens,
  cachedTokens: 0,
  completionTokens: 10,
  reasoningTokens: 0,
});
const call = { id: "call_1_0", name: "bash", arguments: '{"command":"npm test"}' };
const START: Message[] = [
  { role: "system", content: "You are pitcrew." },
  { role: "user", content: "fix the test" },
];
const HISTORY: Message[] = [
  ...START,
  { role: "assistant", content: "", toolCalls: [call] },
  { role: "tool", toolCallId: call.id, name: "bash", content: "1 failing", isError: true },
  { role: "assistant", content: "Fixed it.", toolCalls: [] },
];
const USAGE = [
  { turn: 1, usage: usage(100), cost: 0.001 },
  { turn: 2, usage: usage(200), cost: 0.002 },
];

const parse = (text: string): unknown[] =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);

describe("transcriptLines", () => {
  test("messages in order, each turn's usage just before its answer, the run on every line", () => {
    assert.deepEqual(parse(transcriptLines(2, HISTORY, USAGE)), [
      { type: "message", run: 2, message: HISTORY[0] },
      { type: "message", run: 2, message: HISTORY[1] },
      { type: "usage", run: 2, turn: 1, usage: usage(100), cost: 0.001 },
      { type: "message", run: 2, message: HISTORY[2] },
      { type: "message", run: 2, message: HISTORY[3] },
      { type: "usage", run: 2, turn: 2, usage: usage(200), cost: 0.002 },
      { type: "message", run: 2, message: HISTORY[4] },
    ]);
  });

  test("with the run's record: its start first, each turn's compaction and context before its usage, tool timings after results, the end last", () => {
    const start = {
      type: "run",
      run: 2,
      at: "2026-12-03T10:00:00.000Z",
      threadKey: "issue-1",
      repository: "o/r",
      branch: "pitcrew/issue-1",
      window: 32_000,
      compactAt: 0.85,
    } as const;
    const events: LoopEvent[] = [
      { type: "context", turn: 1, tokens: 900, fired: [] },
      {
        type: "tool_end",
        turn: 1,
        call,
        outcome: { content: "1 failing", isError: true },
        durationMs: 1500,
      },
      { type: "compaction", turn: 2, compaction: { note: "## Goal\nfix it", from: 2 } },
      { type: "context", turn: 2, tokens: 400, fired: ["compact"] },
    ];
    const lines = parse(
      transcriptLines(2, HISTORY, USAGE, {
        start,
        events,
        end: { at: "2026-12-03T10:05:00.000Z", stopReason: "done" },
      }),
    );
    assert.deepEqual(lines, [
      start,
      { type: "message", run: 2, message: HISTORY[0] },
      { type: "message", run: 2, message: HISTORY[1] },
      { type: "context", run: 2, turn: 1, tokens: 900, fired: [] },
      { type: "usage", run: 2, turn: 1, usage: usage(100), cost: 0.001 },
      { type: "message", run: 2, message: HISTORY[2] },
      { type: "message", run: 2, message: HISTORY[3] },
      { type: "tool", run: 2, turn: 1, callId: call.id, durationMs: 1500 },
      { type: "compaction", run: 2, turn: 2, note: "## Goal\nfix it" },
      { type: "context", run: 2, turn: 2, tokens: 400, fired: ["compact"] },
      { type: "usage", run: 2, turn: 2, usage: usage(200), cost: 0.002 },
      { type: "message", run: 2, message: HISTORY[4] },
      { type: "end", run: 2, at: "2026-12-03T10:05:00.000Z", stopReason: "done" },
    ]);
  });

  test("only turn, usage and cost of a usage event are kept; usage without its answer still counts", () => {
    const event = { ...USAGE[0]!, type: "usage", totalUsage: usage(999), totalCost: 9 } as const;
    const lines = parse(transcriptLines(1, START, [event]));
    assert.deepEqual(lines.at(-1), {
      type: "usage",
      run: 1,
      turn: 1,
      usage: usage(100),
      cost: 0.001,
    });
  });
});

describe("messagesFromEvents", () => {
  test("rebuilds the history the loop keeps, from the start messages and the events", () => {
    const events: LoopEvent[] = [
      { type: "turn_start", turn: 1 },
      { type: "usage", ...USAGE[0]!, totalUsage: usage(100), totalCost: 0.001 },
      { type: "assistant", turn: 1, content: "", toolCalls: [call] },
      { type: "tool_start", turn: 1, call },
      {
        type: "tool_end",
        turn: 1,
        call,
        outcome: { content: "1 failing", isError: true },
        durationMs: 5,
      },
      { type: "turn_start", turn: 2 },
      { type: "assistant", turn: 2, content: "Fixed it.", toolCalls: [] },
      { type: "stop", reason: "done" },
    ];
    assert.deepEqual(messagesFromEvents(START, events), HISTORY);
  });
});

describe("capTranscript", () => {
  const lines = Array.from({ length: 100 }, (_, index) => `{"n":${index}}\n`).join("");

  test("within the cap: unchanged", () => {
    assert.equal(capTranscript(lines, Buffer.byteLength(lines)), lines);
  });

  test("over the cap: a first line with the count dropped, then the newest whole lines", () => {
    const cut = capTranscript(lines, 200);
    assert.ok(Buffer.byteLength(cut) <= 200, cut);
    const [first, ...kept] = parse(cut) as { n?: number; type?: string; lines?: number }[];
    assert.equal(first?.type, "dropped");
    assert.equal((first?.lines ?? 0) + kept.length, 100);
    assert.equal(kept.at(-1)?.n, 99);
    assert.deepEqual(
      kept.map((line) => line.n),
      Array.from({ length: kept.length }, (_, index) => 100 - kept.length + index),
    );
  });

  test("cut again: the earlier count is carried into the new first line", () => {
    const once = capTranscript(lines, 400);
    const twice = capTranscript(`${once}{"n":100}\n{"n":101}\n`, 200);
    const [first, ...kept] = parse(twice) as { lines?: number; n?: number }[];
    assert.equal((first?.lines ?? 0) + kept.length, 102);
    assert.equal(kept.at(-1)?.n, 101);
  });
});

describe("threadTask and lastWords", () => {
  const transcript =
    transcriptLines(1, HISTORY, USAGE) +
    transcriptLines(
      2,
      [
        ...START.slice(0, 1),
        { role: "user", content: "carry on" },
        { role: "assistant", content: "Ran out of turns while checking.", toolCalls: [call] },
        { role: "tool", toolCallId: call.id, name: "bash", content: "ok", isError: false },
        { role: "assistant", content: "", toolCalls: [call] },
      ],
      [],
    );

  test("the task is the first run's first user message", () => {
    assert.equal(threadTask(transcript), "fix the test");
  });

  test("the last words are the newest run's last non-empty answer, never an older run's", () => {
    assert.equal(lastWords(transcript), "Ran out of turns while checking.");
    assert.equal(lastWords(transcriptLines(1, HISTORY, []) + transcriptLines(2, START, [])), "");
  });

  test("an empty or cut transcript gives empty answers", () => {
    assert.equal(threadTask(""), "");
    assert.equal(lastWords('{"type":"dropped","lines":9}\n'), "");
  });
});
