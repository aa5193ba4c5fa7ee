/**
 * When a stub pays (src/context/stubs.ts, through the view): a stub is sent uncached once and
 * saves its result at the cached price in every later request, so early in a session only a large
 * result is worth it; a stub that would take a request under the provider's cache minimum never
 * is; results left whole are stubbed together once the session has run long enough; and without
 * economics every result the model moved past is stubbed at once, as before.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CACHE_MIN_TOKENS, SMALL_RESULT_CHARS } from "../../src/context/stubs.ts";
import { EMPTY_VIEW_STATE, buildView } from "../../src/context/view.ts";
import type { ViewState } from "../../src/context/view.ts";
import type { Message } from "../../src/domain/messages.ts";
import { HEAD, bashRound, estimate } from "../support/history.ts";

const round = (n: number, chars: number): Message[] =>
  bashRound(n, `exit code: 0\n${"word ".repeat(Math.ceil(chars / 5))}`, {
    command: `cat part${n}.txt`,
    text: `step ${n}`,
  });

/** A history well above the cache minimum: a large first result the model moved past long ago. */
const PADDED: Message[] = [...HEAD, ...round(0, 12_000)];
const BIG = 1_000_000;

const view = (history: Message[], requests: number, state: ViewState = EMPTY_VIEW_STATE) =>
  buildView(history, state, { budget: BIG, estimate, economics: { requests, cachedPrice: 0.1 } });

const stubbed = (messages: Message[], id: string): boolean =>
  messages.some(
    (m) => m.role === "tool" && m.toolCallId === id && m.content.startsWith("[stub: bash"),
  );

describe("when a stub pays", () => {
  test("early in a session a middling result stays whole; later the same result is stubbed", () => {
    const history = [...PADDED, ...round(1, 1_200), ...round(2, 100)];
    const early = view(history, 1, { ...EMPTY_VIEW_STATE, kept: new Set(["call_0"]) });
    assert.equal(stubbed(early.messages, "call_1"), false, "one request in: it would not pay");
    assert.ok(early.state.kept.has("call_1"));
    const late = view(history, 40, { ...EMPTY_VIEW_STATE, stubbed: new Set(["call_0"]) });
    assert.equal(stubbed(late.messages, "call_1"), true, "forty requests in: it pays");
    assert.deepEqual(late.fired, ["stub"]);
  });

  test("a large result pays at once", () => {
    const history = [...PADDED, ...round(1, 40_000), ...round(2, 100)];
    const first = view(history, 1, { ...EMPTY_VIEW_STATE, stubbed: new Set(["call_0"]) });
    assert.equal(stubbed(first.messages, "call_1"), true);
  });

  test("a stub that would take the request under the cache minimum does not pay", () => {
    // About 1,500 tokens with the result whole, under 1,024 with it stubbed.
    const task: Message = { role: "user", content: "Fix the failing test. ".repeat(100) };
    const history = [HEAD[0] as Message, task, ...round(1, 3_500), ...round(2, 100)];
    const sizes = history.reduce((sum, m) => sum + estimate(m), 0);
    assert.ok(sizes > CACHE_MIN_TOKENS && sizes - 500 < CACHE_MIN_TOKENS, `${sizes} tokens`);
    const built = view(history, 10);
    assert.equal(stubbed(built.messages, "call_1"), false);
    assert.deepEqual(built.fired, []);
  });

  test("results left whole are stubbed together once the session has run long enough", () => {
    const history = [...PADDED, ...round(1, 1_500), ...round(2, 1_500), ...round(3, 100)];
    const first = view(history, 1);
    assert.ok(["call_0", "call_1", "call_2"].every((id) => first.state.kept.has(id)));
    let state = first.state;
    let requests = 1;
    while (state.kept.size > 0 && requests < 500) state = view(history, ++requests, state).state;
    assert.ok(requests < 500, "they were stubbed in the end");
    assert.ok(["call_0", "call_1", "call_2"].every((id) => state.stubbed.has(id)));
    assert.ok(requests > 5, `not at once: after ${requests} requests`);
  });

  test("without economics every result moved past is stubbed at once; small ones never", () => {
    const history = [
      ...HEAD,
      ...round(1, 2_400),
      ...round(2, SMALL_RESULT_CHARS - 50),
      ...round(3, 0),
    ];
    const built = buildView(history, EMPTY_VIEW_STATE, { budget: BIG, estimate });
    assert.equal(stubbed(built.messages, "call_1"), true);
    assert.equal(stubbed(built.messages, "call_2"), false, "small: sent whole forever");
  });
});
