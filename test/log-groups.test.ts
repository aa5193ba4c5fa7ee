/**
 * The action's log folds (src/log-groups.ts) from the loop's events: one group per phase and per
 * turn, never nested, each ended once, whatever way a phase ends.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LoopEvent } from "../src/domain/loop.ts";
import type { ToolCall } from "../src/domain/messages.ts";
import { createLogGroups } from "../src/log-groups.ts";

function recorded(): { lines: string[]; log: Parameters<typeof createLogGroups>[0] } {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (message) => lines.push(message),
      startGroup: (name) => lines.push(`::group::${name}`),
      endGroup: () => lines.push("::endgroup::"),
    },
  };
}

const call: ToolCall = {
  id: "c1",
  name: "bash",
  arguments: JSON.stringify({ command: "npm test" }),
};

describe("createLogGroups", () => {
  test("a group per turn after the session's own, a line per tool call, the stop said last", () => {
    const { lines, log } = recorded();
    const groups = createLogGroups(log);
    groups.open("agent session: sandbox and model");
    const events: LoopEvent[] = [
      { type: "turn_start", turn: 1 },
      { type: "assistant", turn: 1, content: "", toolCalls: [call] },
      { type: "tool_start", turn: 1, call },
      {
        type: "tool_end",
        turn: 1,
        call,
        outcome: { content: "exit 1", isError: true },
        durationMs: 1234,
      },
      { type: "turn_start", turn: 2 },
      { type: "assistant", turn: 2, content: "Fixed.", toolCalls: [] },
      { type: "stop", reason: "done" },
    ];
    for (const event of events) groups.observe(event);
    groups.close();
    assert.deepEqual(lines, [
      "::group::agent session: sandbox and model",
      "::endgroup::",
      "::group::turn 1",
      "bash npm test (failed, 1.2 s)",
      "::endgroup::",
      "::group::turn 2",
      "the model answered without a tool call: its summary",
      "::endgroup::",
      "agent session finished",
    ]);
  });

  test("closing twice, or with nothing open, ends nothing more", () => {
    const { lines, log } = recorded();
    const groups = createLogGroups(log);
    groups.close();
    groups.open("delivery: commit, push, pull request");
    groups.close();
    groups.close();
    assert.deepEqual(lines, ["::group::delivery: commit, push, pull request", "::endgroup::"]);
  });
});
