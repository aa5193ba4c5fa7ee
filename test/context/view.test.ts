/**
 * The view layers as pure functions: depth-1 stubs, batched clearing, dropping whole turns and
 * rounds; sticky decisions, whole rounds, the budget, the first messages.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Message } from "../../src/domain/messages.ts";
import { HEAD, bashRound, estimate } from "../support/history.ts";
import {
  CLEAR_AT_LEAST_RESULTS,
  EMPTY_VIEW_STATE,
  SMALL_RESULT_CHARS,
  buildView,
  stubOf,
} from "../../src/context/view.ts";
import type { ViewState } from "../../src/context/view.ts";

/** One round: an assistant message calling bash, and its result of `size` characters. */
const round = (n: number, size: number, command = `step ${n}`): Message[] =>
  bashRound(
    n,
    `exit code: ${n % 2}\nline one of ${n}\n${"x".repeat(Math.max(0, size - 40))}\nError: boom ${n}`,
    { command },
  );

function history(rounds: number, size: number): Message[] {
  return [...HEAD, ...Array.from({ length: rounds }, (_, n) => round(n + 1, size)).flat()];
}

/** Every tool call in the view has its result right after its assistant message, and no orphan. */
function assertWholeRounds(messages: readonly Message[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      assert.equal(open.size, 0, "a call was separated from its result");
      for (const call of message.toolCalls) open.add(call.id);
    } else if (message.role === "tool") {
      assert.ok(open.delete(message.toolCallId), `orphan result ${message.toolCallId}`);
    } else {
      assert.equal(open.size, 0, "a call was separated from its result");
    }
  }
}

const BIG = 100_000;

describe("stubs (layer 2)", () => {
  test("a result the model moved past is stubbed; the newest and small results stay whole", () => {
    const h = [...history(2, 3000), ...round(3, SMALL_RESULT_CHARS - 100)];
    h.push({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_4", name: "bash", arguments: '{"command":"ls"}' }],
    });
    h.push({
      role: "tool",
      toolCallId: "call_4",
      name: "bash",
      content: "y".repeat(5000),
      isError: false,
    });
    const view = buildView(h, EMPTY_VIEW_STATE, { budget: BIG, estimate });
    assert.deepEqual([...view.state.stubbed], ["call_1", "call_2"]);
    assert.deepEqual(view.fired, ["stub"]);
    const tools = view.messages.filter((message) => message.role === "tool");
    assert.match(tools[0]?.content ?? "", /^\[stub: bash `step 1`/);
    assert.equal(tools[2]?.content, h[7]?.content, "small results are never stubbed");
    assert.equal(tools[3]?.content.length, 5000, "the newest result is sent whole");
  });

  test("the stub names tool, key argument, exit code, first and error line, and the spill path", () => {
    const result = {
      role: "tool" as const,
      toolCallId: "c",
      name: "bash",
      isError: false,
      content: `exit code: 1\n> jest\n${"PASS a\n".repeat(400)}FAIL src/parse.test.ts: TypeError: x is undefined\nTests: 1 failed\n[full output, 51234 chars: /work/.pitcrew/spill/c.txt]`,
    };
    const stub = stubOf(result, {
      id: "c",
      name: "bash",
      arguments: '{"command":"npm test -- --runInBand"}',
    });
    assert.match(stub, /^\[stub: bash `npm test -- --runInBand`, exit 1, \d+ chars, \d+ lines\]/);
    assert.match(stub, /first: exit code: 1/);
    assert.match(stub, /error: FAIL src\/parse\.test\.ts: TypeError/);
    assert.match(stub, /full output: \/work\/\.pitcrew\/spill\/c\.txt/);
    assert.ok(stub.length <= 420, `${stub.length} chars`);
  });

  test("decisions are sticky: each request's prefix is the previous request's, but where a layer fired", () => {
    const full = history(6, 2000);
    let state: ViewState = EMPTY_VIEW_STATE;
    let previous: Message[] = [];
    for (let end = 4; end <= full.length; end += 2) {
      const view = buildView(full.slice(0, end), state, { budget: BIG, estimate });
      // Only the result the model just moved past may differ from what was sent before.
      const changed = previous.findIndex(
        (message, index) => JSON.stringify(message) !== JSON.stringify(view.messages[index]),
      );
      if (changed !== -1)
        assert.equal(changed, previous.length - 1, "only the newest old result changed");
      state = view.state;
      previous = view.messages;
    }
    assert.equal(state.stubbed.size, 5);
  });
});

describe("clearing (layer 3)", () => {
  test("over budget: the oldest results are cleared in one batch of at least four, the newest kept", () => {
    // One fan-out of twelve calls in the newest round: nothing to stub, so clearing must act.
    const calls = Array.from({ length: 12 }, (_, n) => ({
      id: `call_${n + 1}`,
      name: "bash",
      arguments: JSON.stringify({ command: `cat part${n + 1}` }),
    }));
    const h: Message[] = [
      ...HEAD,
      { role: "assistant", content: "", toolCalls: calls },
      ...calls.map((call): Message => ({
        role: "tool",
        toolCallId: call.id,
        name: "bash",
        content: `exit code: 0\n${"x".repeat(4000)}`,
        isError: false,
      })),
    ];
    const view = buildView(h, EMPTY_VIEW_STATE, { budget: 9000, estimate });
    assert.deepEqual(view.fired, ["clear"]);
    const cleared = [...view.state.cleared];
    assert.ok(cleared.length >= CLEAR_AT_LEAST_RESULTS);
    assert.deepEqual(
      cleared,
      cleared.map((_, n) => `call_${n + 1}`),
      "oldest first",
    );
    assert.ok(!view.state.cleared.has("call_12"), "the newest result is kept");
    const total = view.messages.reduce((sum, message) => sum + estimate(message), 0);
    assert.ok(total <= 9000, `${total} tokens`);
    assertWholeRounds(view.messages);
    assert.deepEqual(view.messages.slice(0, 2), HEAD, "the first messages are kept");
    assert.match(view.messages[3]?.content ?? "", /^\[cleared to save space: bash `cat part1`/);
  });

  test("results hardly larger than the notice are not cleared", () => {
    const h = [
      ...history(1, 60),
      ...history(8, 4000)
        .slice(2)
        .map((m) => m),
    ];
    const view = buildView(h, EMPTY_VIEW_STATE, { budget: 5000, estimate });
    assert.ok(!view.state.cleared.has("call_1"));
  });

  test("bulky write arguments are cleared with their result; the history is untouched", () => {
    const content = "z".repeat(20_000);
    const h: Message[] = [
      ...HEAD,
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "w", name: "write", arguments: JSON.stringify({ path: "big.txt", content }) },
        ],
      },
      {
        role: "tool",
        toolCallId: "w",
        name: "write",
        content: `Created big.txt: 20000 bytes written.\n${"-".repeat(700)}`,
        isError: false,
      },
      ...history(6, 3000).slice(2),
    ];
    const snapshot = JSON.stringify(h);
    const view = buildView(h, EMPTY_VIEW_STATE, { budget: 4000, estimate });
    assert.ok(view.state.cleared.has("w"));
    const call = view.messages.find((m) => m.role === "assistant" && m.toolCalls[0]?.id === "w");
    assert.ok(call?.role === "assistant");
    assert.deepEqual(JSON.parse(call.toolCalls[0]?.arguments ?? ""), {
      path: "big.txt",
      content: "[cleared: 20000 chars]",
    });
    assert.equal(JSON.stringify(h), snapshot, "the stored history never changes");
  });
});

describe("dropping whole turns and rounds (layer 3, last resort)", () => {
  test("within one long turn: first messages, a notice, and the newest whole rounds that fit", () => {
    const h = history(30, 1000);
    const view = buildView(h, EMPTY_VIEW_STATE, { budget: 1200, estimate });
    assert.ok(view.fired.includes("drop"));
    assert.deepEqual(view.messages.slice(0, 2), HEAD);
    assert.match(view.messages[2]?.content ?? "", /Earlier turns were dropped/);
    assert.equal(view.messages[3]?.role, "assistant", "the kept tail starts with a whole round");
    assertWholeRounds(view.messages);
    const total = view.messages.reduce((sum, message) => sum + estimate(message), 0);
    assert.ok(total <= 1200, `${total} tokens`);

    const next = buildView([...h, ...round(31, 1000)], view.state, { budget: 1200, estimate });
    assert.ok(next.state.dropBefore >= view.state.dropBefore, "a drop is never undone");
  });

  test("with several user turns, whole user turns are dropped first", () => {
    const h: Message[] = [
      ...history(6, 3000),
      { role: "user", content: "Also update the docs." },
      ...history(3, 3000)
        .slice(2)
        .map((m) => m),
    ];
    const ids = new Set<string>();
    const unique = h.map((message) => {
      if (message.role === "assistant")
        return {
          ...message,
          toolCalls: message.toolCalls.map((call) => ({
            ...call,
            id: ids.has(call.id) ? `${call.id}b` : (ids.add(call.id), call.id),
          })),
        };
      return message;
    });
    let seen = 0;
    const fixed = unique.map((message) => {
      if (message.role !== "tool") return message;
      seen += 1;
      return seen > 6 ? { ...message, toolCallId: `${message.toolCallId}b` } : message;
    });
    const view = buildView(fixed, EMPTY_VIEW_STATE, { budget: 1000, estimate });
    assert.ok(view.fired.includes("drop"), view.fired.join());
    assert.equal(fixed[view.state.dropBefore]?.role, "user", "cut at the start of a user turn");
    assert.match(view.messages[3]?.content ?? "", /Also update the docs/);
    assertWholeRounds(view.messages);
  });
});
