/**
 * The job summary's context chart (src/report/mermaid.ts): a ```mermaid xychart-beta block whose
 * bars are the newest run's requests (tokens sent, the cached part) and whose line is the window,
 * built from the fixture thread (test/fixtures/report/thread.jsonl); nothing when there are no
 * requests, and nothing of the transcript but numbers.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { contextMermaid } from "../../src/report/mermaid.ts";

const TRANSCRIPT = readFileSync(
  new URL("../fixtures/report/thread.jsonl", import.meta.url),
  "utf8",
);

interface UsageLine {
  type: string;
  run: number;
  turn: number;
  usage: { promptTokens: number; cachedTokens: number };
}
const USAGE = TRANSCRIPT.trim()
  .split("\n")
  .map((line) => JSON.parse(line) as UsageLine)
  .filter((entry) => entry.type === "usage");

/** The numbers of the block's line that starts with `prefix` (`bar [1, 2]` → [1, 2]). */
function series(block: string, prefix: string): number[][] {
  return block
    .split("\n")
    .filter((line) => line.trimStart().startsWith(prefix))
    .map((line) => JSON.parse(line.slice(line.indexOf("["))) as number[]);
}

const usageLine = (run: number, turn: number, promptTokens: number, cachedTokens: number) =>
  JSON.stringify({
    type: "usage",
    run,
    turn,
    usage: { promptTokens, cachedTokens, completionTokens: 5, reasoningTokens: 0 },
    cost: 0.001,
  });

describe("contextMermaid", () => {
  test("the newest run's requests as bars (sent, then cached) and the window as a line", () => {
    const block = contextMermaid(TRANSCRIPT);
    assert.ok(block !== undefined);
    const lines = block.split("\n");
    assert.equal(lines[0], "```mermaid");
    assert.equal(lines.at(-1), "```");
    assert.ok(lines.includes("xychart-beta"));
    const newest = USAGE.filter((entry) => entry.run === 2);
    assert.deepEqual(series(block, "bar"), [
      newest.map((entry) => entry.usage.promptTokens),
      newest.map((entry) => entry.usage.cachedTokens),
    ]);
    assert.deepEqual(series(block, "line"), [[200000, 200000]]);
    assert.deepEqual(series(block, "x-axis"), [newest.map((entry) => entry.turn)]);
    assert.match(block, /\n {2}y-axis "tokens" 0 --> 250000\n/);
    assert.match(block, /title "Context per request, run 2: /);
  });

  test("another run when asked for by number", () => {
    const block = contextMermaid(TRANSCRIPT, { run: 1 }) ?? "";
    const first = USAGE.filter((entry) => entry.run === 1);
    assert.deepEqual(
      series(block, "bar")[0],
      first.map((entry) => entry.usage.promptTokens),
    );
    assert.equal(contextMermaid(TRANSCRIPT, { run: 9 }), undefined);
  });

  test("undefined when the run made no request", () => {
    assert.equal(contextMermaid(""), undefined);
    const messages = JSON.stringify({
      type: "message",
      run: 1,
      message: { role: "user", content: "hello" },
    });
    assert.equal(contextMermaid(`${messages}\n`), undefined);
  });

  test("many requests get a range axis; no run start, no window line", () => {
    const lines = Array.from({ length: 60 }, (_, index) =>
      usageLine(1, index + 1, 1000 * (index + 1), 500 * index),
    );
    const block = contextMermaid(lines.join("\n")) ?? "";
    assert.match(block, /\n {2}x-axis "request" 1 --> 60\n/);
    assert.equal(series(block, "bar")[0]?.length, 60);
    assert.deepEqual(series(block, "line"), []);
    assert.match(block, /y-axis "tokens" 0 --> 80000/);
  });

  test("nothing of the transcript but numbers reaches the block", () => {
    const hostile = '"] \n```\n<script>alert(1)</script>';
    const lines = [
      JSON.stringify({
        type: "run",
        run: 1,
        at: hostile,
        threadKey: hostile,
        repository: hostile,
        branch: hostile,
        window: 1000,
        compactAt: 0.5,
      }),
      JSON.stringify({ type: "context", run: 1, turn: 1, tokens: 10, fired: [hostile] }),
      usageLine(1, 1, 100, 50),
      JSON.stringify({
        type: "message",
        run: 1,
        message: { role: "assistant", content: hostile, toolCalls: [] },
      }),
    ];
    const block = contextMermaid(lines.join("\n")) ?? "";
    assert.doesNotMatch(block, /script|alert/);
    assert.equal(block.split("```").length, 3, "one fence opens, one closes");
    assert.deepEqual(series(block, "bar"), [[100], [50]]);
  });
});
