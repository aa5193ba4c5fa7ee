/**
 * The run's view (src/commands/progress.ts) fed the loop's events through the one fold, with an
 * injected clock and redraw timer: a terminal's status line is drawn at each turn, redrawn by the
 * timer, cleared before every other line and at the end, and never wider than the terminal; a log
 * gets the same lines without a single escape; `--json` writes only JSON lines on stdout.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createRunView } from "../../src/commands/progress.ts";
import type { ViewMode } from "../../src/commands/progress.ts";
import type { LoopEvent } from "../../src/domain/loop.ts";
import { RUN_START, foldEvent } from "../../src/domain/run-state.ts";
import type { RunState } from "../../src/domain/run-state.ts";
import { START_WORDS } from "../../src/present/progress.ts";

const CLEAR = "\r\x1b[2K";
const bash = { id: "b", name: "bash", arguments: JSON.stringify({ command: "npm test" }) };
const usage = { promptTokens: 1000, cachedTokens: 0, completionTokens: 234, reasoningTokens: 0 };
const EVENTS: LoopEvent[] = [
  { type: "turn_start", turn: 1 },
  { type: "usage", turn: 1, usage, cost: 0.01, totalUsage: usage, totalCost: 0.01 },
  { type: "assistant", turn: 1, content: "", toolCalls: [bash] },
  { type: "tool_start", turn: 1, call: bash },
  {
    type: "tool_end",
    turn: 1,
    call: bash,
    outcome: {
      content: "exit code: 1",
      isError: false,
      details: {
        command: {
          exitCode: 1,
          signal: null,
          timedOut: false,
          stdoutTail: "",
          stderrTail: "Error: boom",
        },
      },
    },
    durationMs: 1600,
  },
  { type: "turn_start", turn: 2 },
  { type: "stop", reason: "done" },
];

/** Runs the events through a view in `mode`; `tick` fires the redraw timer between events. */
function show(mode: ViewMode, columns?: number) {
  let err = "";
  let out = "";
  let now = 1_000;
  let redraw: (() => void) | undefined;
  let timers = 0;
  const view = createRunView({
    mode,
    err: { write: (text: string) => (err += text), columns },
    out: { write: (text: string) => (out += text) },
    maxTurns: 50,
    now: () => now,
    every: (draw) => {
      timers++;
      redraw = draw;
      return () => (redraw = undefined);
    },
  });
  view.uncommitted(2, false);
  view.started({ worktree: "/tmp/w", branch: "pitcrew/run-1", base: "abc", continued: false });
  let state: RunState = RUN_START;
  for (const event of EVENTS) {
    now += 21_000;
    state = foldEvent(state, event);
    view.onEvent(event, state);
    if (event.type === "tool_start") redraw?.();
  }
  view.stop();
  return { err: () => err, out: () => out, redraw: () => redraw, timers: () => timers };
}

describe("the run's view", () => {
  test("a terminal: the status line at each turn, redrawn by the timer, cleared around lines", () => {
    const shown = show("tty");
    const err = shown.err();
    assert.equal(shown.timers(), 1, "one timer for the whole run");
    assert.equal(shown.redraw(), undefined, "the timer is stopped at the end");
    assert.ok(
      err.startsWith(
        "pitcrew: WARNING: 2 files changed since HEAD are not included: commit or stash them, or pass --include-uncommitted\npitcrew: working in /tmp/w on branch pitcrew/run-1 (your checkout is not touched)\n",
      ),
      err,
    );
    assert.ok(
      err.includes(`${CLEAR}⠋ turn 1/50 · 0:21 · 0 tokens · $0.0000 · waiting for the model`),
    );
    // The timer's redraw shows the call under way, with the next spinner frame.
    assert.ok(err.includes(`${CLEAR}⠹ turn 1/50 · 1:24 · 1,234 tokens · $0.0100 · bash: npm test`));
    // The call's line starts on a cleared line, and the status line comes back after it.
    const call = "[1/50 1:45] bash: npm test → exit 1 (1.6 s) · Error: boom\n";
    assert.ok(err.includes(`${CLEAR}${call}${CLEAR}⠼ turn 1/50 · 1:45`), JSON.stringify(err));
    assert.ok(err.endsWith(CLEAR), "cleared at the end: nothing is left on the screen");
    assert.equal(shown.out(), "");
  });

  test("a narrow terminal: the status line is cut to its width, so it never wraps", () => {
    const err = show("tty", 30).err();
    for (const part of err.split(CLEAR).slice(1)) {
      const status = part.split("\n").at(-1) ?? "";
      assert.ok([...status].length <= 29, JSON.stringify(status));
    }
  });

  test("a log: the same lines, not one escape", () => {
    const err = show("plain").err();
    assert.equal(
      err,
      [
        "pitcrew: WARNING: 2 files changed since HEAD are not included: commit or stash them, or pass --include-uncommitted",
        "pitcrew: working in /tmp/w on branch pitcrew/run-1 (your checkout is not touched)",
        "[1/50 1:45] bash: npm test → exit 1 (1.6 s) · Error: boom",
        "",
      ].join("\n"),
    );
  });

  test("--json: JSON lines on stdout only, the notes still on stderr", () => {
    const shown = show("json");
    const events = shown
      .out()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    assert.deepEqual(
      events.map((event) => event.type),
      ["start", "turn", "usage", "tool", "turn"],
    );
    assert.deepEqual(events[0], {
      type: "start",
      worktree: "/tmp/w",
      branch: "pitcrew/run-1",
      base: "abc",
      continued: false,
      uncommitted: { files: 2, included: false },
    });
    assert.deepEqual(events[3], {
      type: "tool",
      turn: 1,
      max_turns: 50,
      elapsed_ms: 105_000,
      name: "bash",
      subject: "npm test",
      ok: true,
      result: "exit 1",
      detail: "Error: boom",
      exit_code: 1,
      duration_ms: 1600,
      text: "[1/50 1:45] bash: npm test → exit 1 (1.6 s) · Error: boom",
    });
    assert.ok(!shown.err().includes("\x1b"));
    assert.doesNotMatch(shown.err(), /^\[/m);
  });
});

describe("the start's words", () => {
  test("one file left out or included reads as one", () => {
    assert.equal(
      START_WORDS.leftOut(1),
      "1 file changed since HEAD is not included: commit or stash it, or pass --include-uncommitted",
    );
    assert.match(START_WORDS.included(1), /^including 1 file changed since HEAD:/);
  });
});
