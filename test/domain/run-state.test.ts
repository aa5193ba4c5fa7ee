/**
 * The one fold over the loop's events (src/domain/run-state.ts): a scripted run — two turns, a
 * refused and an accepted todo list, writes and edits, a failing call, a compaction, the stop —
 * gives the state every reader reads: todos, totals, per-turn usage, tool tally, activity, files
 * written, the handoff note.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LoopEvent, LoopResult } from "../../src/domain/loop.ts";
import type { ToolCall } from "../../src/domain/messages.ts";
import {
  RUN_START,
  allToolCallsFailed,
  foldEvent,
  settle,
  toolCallsFailure,
} from "../../src/domain/run-state.ts";
import type { RunState } from "../../src/domain/run-state.ts";
import type { Todo } from "../../src/domain/todos.ts";
import type { Usage } from "../../src/domain/usage.ts";

const usage = (prompt: number, completion: number): Usage => ({
  promptTokens: prompt,
  cachedTokens: 0,
  completionTokens: completion,
  reasoningTokens: 0,
});
const call = (id: string, name: string, args: object): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify(args),
});
const PLAN: Todo[] = [
  { content: "Reproduce", status: "in_progress" },
  { content: "Fix", status: "pending" },
];
const TWO_AT_ONCE: Todo[] = PLAN.map((todo) => ({ ...todo, status: "in_progress" }));

const todoOk = call("t1", "todo_write", { todos: PLAN });
const todoRefused = call("t2", "todo_write", { todos: TWO_AT_ONCE });
const writeA = call("w1", "write", { path: "src/a.ts", content: "x" });
const editA = call("e1", "edit", { path: "./src/a.ts", old_string: "x", new_string: "y" });
const editB = call("e2", "edit", { path: "b.ts", old_string: "q", new_string: "r" });
const bash = call("b1", "bash", { command: "npm test" });

/** The events, with the state the fold must give after each. */
const SCRIPT: [LoopEvent, (state: RunState) => void][] = [
  [
    { type: "turn_start", turn: 1 },
    (s) => assert.deepEqual(s.activity, { kind: "model", turn: 1 }),
  ],
  [
    {
      type: "usage",
      turn: 1,
      usage: usage(100, 10),
      cost: 0.5,
      totalUsage: usage(100, 10),
      totalCost: 0.5,
    },
    (s) => assert.deepEqual(s.totals, { turns: 1, usage: usage(100, 10), cost: 0.5 }),
  ],
  [
    { type: "assistant", turn: 1, content: "", toolCalls: [todoRefused, todoOk, writeA] },
    (s) => assert.equal(s.todos, undefined, "no list yet"),
  ],
  [{ type: "tool_start", turn: 1, call: todoRefused }, () => undefined],
  [
    {
      type: "tool_end",
      turn: 1,
      call: todoRefused,
      // A refused list never counts, whatever the outcome carries.
      outcome: { content: "2 in progress", isError: true, details: { todos: TWO_AT_ONCE } },
      durationMs: 1,
    },
    (s) => assert.equal(s.todos, undefined, "a refused list changes nothing"),
  ],
  [
    {
      type: "tool_end",
      turn: 1,
      call: todoOk,
      outcome: { content: "list", isError: false, details: { todos: PLAN } },
      durationMs: 2,
    },
    (s) => assert.deepEqual(s.todos, PLAN),
  ],
  [
    { type: "tool_start", turn: 1, call: writeA },
    (s) => assert.deepEqual(s.activity, { kind: "tool", call: writeA }),
  ],
  [
    {
      type: "tool_end",
      turn: 1,
      call: writeA,
      outcome: { content: "Created", isError: false, details: { written: "src/a.ts" } },
      durationMs: 4,
    },
    (s) => assert.deepEqual(s.written, ["src/a.ts"]),
  ],
  [{ type: "turn_start", turn: 2 }, (s) => assert.equal(s.turn, 2)],
  [
    {
      type: "usage",
      turn: 2,
      usage: usage(200, 20),
      cost: 1,
      totalUsage: usage(300, 30),
      totalCost: 1.5,
    },
    (s) => assert.deepEqual(s.totals, { turns: 2, usage: usage(300, 30), cost: 1.5 }),
  ],
  [
    {
      type: "tool_end",
      turn: 2,
      call: editA,
      outcome: { content: "Replaced", isError: false, details: { written: "src/a.ts" } },
      durationMs: 8,
    },
    (s) => assert.deepEqual(s.written, ["src/a.ts"], "a file counts once"),
  ],
  [
    {
      type: "tool_end",
      turn: 2,
      call: editB,
      outcome: { content: "not found", isError: true },
      durationMs: 16,
    },
    (s) => assert.deepEqual(s.written, ["src/a.ts"], "a failed edit wrote nothing"),
  ],
  [
    {
      type: "tool_end",
      turn: 2,
      call: bash,
      outcome: { content: "exit 1", isError: true },
      durationMs: 32,
    },
    () => undefined,
  ],
  [
    { type: "compaction", turn: 2, compaction: { note: "## Goal\nfix", from: 3 } },
    (s) => {
      assert.deepEqual(s.activity, { kind: "compacting" });
      assert.equal(s.note, "## Goal\nfix");
    },
  ],
  [{ type: "context", turn: 2, fired: ["clear"], tokens: 900 }, () => undefined],
  [{ type: "stop", reason: "max_turns" }, () => undefined],
];

describe("foldEvent", () => {
  test("a scripted run: each event gives the state its readers expect", () => {
    let state = RUN_START;
    for (const [event, check] of SCRIPT) {
      const before = state;
      state = foldEvent(state, event);
      check(state);
      if (event.type === "context" || event.type === "stop" || event.type === "assistant")
        assert.equal(state, before, `${event.type} changes nothing`);
    }
    assert.deepEqual(state.tally, [
      { name: "todo_write", calls: 2, failures: 1, totalMs: 3 },
      { name: "write", calls: 1, failures: 0, totalMs: 4 },
      { name: "edit", calls: 2, failures: 1, totalMs: 24 },
      { name: "bash", calls: 1, failures: 1, totalMs: 32 },
    ]);
    assert.deepEqual(state.perTurn, [
      { turn: 1, usage: usage(100, 10), cost: 0.5 },
      { turn: 2, usage: usage(200, 20), cost: 1 },
    ]);
    assert.deepEqual(state.todos, PLAN);
    // The refused todo list came first, but only a workspace call's failure is remembered.
    assert.deepEqual(state.firstFailure, { name: "edit", error: "not found" });
    assert.equal(toolCallsFailure(state), undefined, "the write worked");
    assert.equal(RUN_START.tally.length, 0, "the start state is never changed");
  });

  test("every workspace call failed: a failure for the action and the CLI, with the first error", () => {
    const ended = (id: string, name: string, isError: boolean, content: string): LoopEvent => ({
      type: "tool_end",
      turn: 1,
      call: call(id, name, {}),
      outcome: { content, isError },
      durationMs: 1,
    });
    const events = [
      ended("a", "todo_write", false, "saved"),
      ended("b", "bash", true, "The sandbox could not start the command\nmore"),
      ended("c", "read", true, "Failed while reading x"),
      ended("d", "bash", true, "again"),
    ];
    const state = events.reduce(foldEvent, RUN_START);
    assert.equal(allToolCallsFailed(state.tally), true, "the todo list does not count");
    assert.deepEqual(toolCallsFailure(state), {
      calls: 3,
      error: "The sandbox could not start the command\nmore",
    });
    const oneWorked = foldEvent(state, ended("e", "read", false, "1 line"));
    assert.equal(allToolCallsFailed(oneWorked.tally), false);
    assert.equal(toolCallsFailure(oneWorked), undefined);
    assert.equal(toolCallsFailure(RUN_START), undefined, "no calls: the model only answered");
  });

  test("settle: nothing under way, and the session's own totals", () => {
    const working = SCRIPT.map(([event]) => event).reduce(foldEvent, RUN_START);
    const result: LoopResult = {
      stopReason: "max_turns",
      summary: "",
      messages: [],
      usage: usage(310, 31),
      cost: 1.6,
      turns: 2,
    };
    const settled = settle(working, result);
    assert.equal(settled.activity, undefined);
    assert.deepEqual(settled.totals, { turns: 2, usage: usage(310, 31), cost: 1.6 });
    assert.deepEqual(settled.tally, working.tally);
  });
});
