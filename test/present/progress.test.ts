/**
 * The words of `pitcrew run`'s progress (src/present/progress.ts): the time so far, a cut that
 * never splits a word, the one line that says how a command went (stderr first, trouble first
 * after a failure, noise left out), a call's line per tool, and the status line.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ToolCall } from "../../src/domain/messages.ts";
import { RUN_START } from "../../src/domain/run-state.ts";
import type { CommandEnd, ToolOutcome } from "../../src/domain/tools.ts";
import { callLine, clock, cutAtWord, statusLine, tellingLine } from "../../src/present/progress.ts";

const call = (name: string, args: object): ToolCall => ({
  id: "c",
  name,
  arguments: JSON.stringify(args),
});
const ended = (exitCode: number | null, stdoutTail: string, stderrTail = ""): CommandEnd => ({
  exitCode,
  signal: exitCode === null ? "SIGKILL" : null,
  timedOut: false,
  stdoutTail,
  stderrTail,
});
const line = (c: ToolCall, outcome: ToolOutcome, turn = 3, elapsedMs = 42_300) =>
  callLine({ turn, maxTurns: 50, elapsedMs, call: c, outcome, durationMs: 1600 });

/** What Node prints for a failed `assert.equal` in an ES module (v24). */
const NODE_ASSERTION = `node:internal/modules/run_main:107
    triggerUncaughtException(
    ^

AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

-1 !== 5

    at file:///tmp/fx/calc.test.js:3:8
    at ModuleJob.run (node:internal/modules/esm/module_job:561:25)
    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:101:5) {
  generatedMessage: true,
  code: 'ERR_ASSERTION',
  actual: -1,
  expected: 5,
  operator: 'strictEqual',
  diff: 'simple'
}

Node.js v24.22.3`;

describe("clock and cutAtWord", () => {
  test("m:ss under an hour, h:mm:ss over it", () => {
    assert.equal(clock(0), "0:00");
    assert.equal(clock(42_999), "0:42");
    assert.equal(clock(12 * 60_000 + 5_000), "12:05");
    assert.equal(clock(3_723_000), "1:02:03");
  });

  test("a cut ends at a word, never inside one", () => {
    const text = "old_string was not found in calc.js. It must match the file exactly, whitespace";
    for (let limit = 20; limit < text.length; limit++) {
      const cut = cutAtWord(text, limit);
      assert.ok(cut.length <= limit, `${limit}: ${cut}`);
      assert.ok(cut.endsWith("…"));
      const kept = cut.slice(0, -1);
      assert.ok(text.startsWith(kept), cut);
      assert.match(text.slice(kept.length), /^[\s,;:.-]/, `${limit}: '${cut}' splits a word`);
    }
    assert.equal(cutAtWord("short  and\nsweet", 40), "short and sweet");
  });
});

describe("tellingLine", () => {
  test("Node's assertion failure: its message and the values, not the banner or the dump", () => {
    assert.equal(
      tellingLine(ended(1, "", NODE_ASSERTION)),
      "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: -1 !== 5",
    );
  });

  test("stderr first, then stdout; after a failure the line that reads like trouble", () => {
    const jest =
      "PASS test/a.test.js\nFAIL test/sum.test.js\n  ● sum(2,3) = -1\n\nTests: 1 failed, 1 passed";
    assert.equal(tellingLine(ended(1, "", jest)), "Tests: 1 failed, 1 passed");
    assert.equal(tellingLine(ended(0, "all good\n\n", "")), "all good");
    assert.equal(tellingLine(ended(0, "out", "a warning")), "a warning");
    assert.equal(
      tellingLine(ended(2, "compiling\nerror: no such crate\nsee --help", "")),
      "error: no such crate",
    );
  });

  test("npm's epilogue and punctuation-only lines are noise", () => {
    const npm = [
      "Error: boom",
      "npm error Lifecycle script `test` failed with error:",
      "npm error code 1",
      "npm error path /repo",
      "npm error command failed",
      "npm error command sh -c node t.js",
      "----",
    ].join("\n");
    assert.equal(tellingLine(ended(1, "", npm)), "Error: boom");
    assert.equal(
      tellingLine(ended(1, "", 'npm error Missing script: "tst"')),
      'npm error Missing script: "tst"',
    );
    assert.equal(tellingLine(ended(0, "", "")), "");
  });
});

describe("callLine", () => {
  test("bash: the exit code and the telling line", () => {
    const outcome: ToolOutcome = {
      content: "exit code: 1",
      isError: false,
      details: { command: ended(1, "", NODE_ASSERTION) },
    };
    assert.equal(
      line(call("bash", { command: "npm test" }), outcome),
      "[3/50 0:42] bash: npm test → exit 1 (1.6 s) · AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: -1 !== 5",
    );
    const killed: ToolOutcome = {
      content: "",
      isError: true,
      details: { command: ended(null, "") },
    };
    assert.equal(
      line(call("bash", { command: "yes" }), killed, 1, 0),
      "[1/50 0:00] bash: yes → killed by SIGKILL (1.6 s)",
    );
  });

  test("read: the path and the lines; write and edit: the path", () => {
    const read: ToolOutcome = {
      content: "…",
      isError: false,
      details: { lines: { from: 1, to: 40, total: 120 } },
    };
    assert.equal(
      line(call("read", { path: "src/calc.js" }), read),
      "[3/50 0:42] read: src/calc.js → lines 1–40 of 120 (1.6 s)",
    );
    const done: ToolOutcome = { content: "Wrote", isError: false, details: { written: "a.js" } };
    assert.equal(
      line(call("write", { path: "a.js", content: "x" }), done),
      "[3/50 0:42] write: a.js → written (1.6 s)",
    );
    assert.equal(
      line(call("edit", { path: "a.js" }), done),
      "[3/50 0:42] edit: a.js → edited (1.6 s)",
    );
  });

  test("a failure: its first line, cut at a word; a long command is cut at a word too", () => {
    const failed: ToolOutcome = {
      content:
        "old_string was not found in calc.js. It must match the file exactly, whitespace and indentation included, without the line numbers.\nmore",
      isError: true,
    };
    const text = line(call("edit", { path: "calc.js" }), failed);
    assert.match(
      text,
      /^\[3\/50 0:42\] edit: calc\.js → failed \(1\.6 s\) · old_string was not found in calc\.js\. It must match .*\w…$/,
    );
    const detail = text.slice(text.indexOf(" · ") + 3, -1);
    assert.ok(failed.content.startsWith(detail), "cut where a word ends");
    assert.match(failed.content.slice(detail.length), /^\s/);
    const long = `npm test -- ${"--grep something ".repeat(8)}`;
    const ok: ToolOutcome = { content: "", isError: false, details: { command: ended(0, "ok") } };
    const subject = /bash: (.*) → /.exec(line(call("bash", { command: long }), ok))?.[1] ?? "";
    assert.ok(subject.endsWith("…") && subject.length <= 60, subject);
    assert.ok(long.startsWith(subject.slice(0, -1)));
  });

  test("an unknown tool and unreadable arguments still get a line", () => {
    const failed: ToolOutcome = { content: 'There is no tool named "x".', isError: true };
    assert.equal(
      line(call("x", {}), failed),
      '[3/50 0:42] x → failed (1.6 s) · There is no tool named "x".',
    );
    const broken: ToolCall = { id: "c", name: "bash", arguments: "{not json" };
    assert.match(line(broken, failed), /^\[3\/50 0:42\] bash: \(unreadable arguments\) → failed/);
  });
});

describe("statusLine", () => {
  test("turn, time, tokens, cost and what runs now", () => {
    const working = {
      ...RUN_START,
      turn: 3,
      totals: {
        turns: 2,
        usage: { promptTokens: 12_000, cachedTokens: 0, completionTokens: 345, reasoningTokens: 0 },
        cost: 0.0123,
      },
      activity: { kind: "tool" as const, call: call("bash", { command: "npm test" }) },
    };
    assert.equal(
      statusLine("⠙", working, 50, 42_000),
      "⠙ turn 3/50 · 0:42 · 12,345 tokens · $0.0123 · bash: npm test",
    );
    assert.equal(
      statusLine("⠋", { ...RUN_START, turn: 1, activity: { kind: "model", turn: 1 } }, 8, 0),
      "⠋ turn 1/8 · 0:00 · 0 tokens · $0.0000 · waiting for the model",
    );
  });
});
