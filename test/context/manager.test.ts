/**
 * The context manager: layers fire cheapest first (stubs, clearing, the handoff note, dropping),
 * the note replaces what it summarises, and the compaction request is the current view plus one
 * final message (so its prefix is cached). Pure apart from the compactor, a function here.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Message } from "../../src/domain/messages.ts";
import { HEAD, bashRound, estimate } from "../support/history.ts";
import { HANDOFF_REQUEST, keepFrom } from "../../src/context/compact.ts";
import { ContextManager, DEFAULT_CONTEXT } from "../../src/context/manager.ts";

const { compactAt, keepAfterCompaction } = DEFAULT_CONTEXT;

/** A small window whose answer room is 5% (the default's 1,024-token floor would dwarf it). */
const small = (window: number): { window: number; outputReserve: number } => ({
  window,
  outputReserve: Math.ceil(window * 0.05),
});

const round = (n: number, size: number): Message[] =>
  bashRound(n, `exit code: 0\n${"x".repeat(size)}`);

describe("ContextManager", () => {
  test("under the threshold only stubs fire, and the request prefix stays stable", async () => {
    const manager = new ContextManager({ estimate, settings: { window: 100_000 } });
    // A session some requests long, well above the cache minimum: by then a stub of a large
    // result pays for itself.
    const history: Message[] = [...HEAD, ...round(0, 6000)];
    for (let n = 0; n < 4; n++) await manager.prepare(history);
    history.push(...round(1, 3000), ...round(2, 3000));
    const first = await manager.prepare(history);
    assert.deepEqual(first.fired, ["stub"]);
    history.push(...round(3, 100));
    const second = await manager.prepare(history);
    assert.deepEqual(second.fired, ["stub"], "call_2 is stubbed now");
    assert.deepEqual(
      second.messages.slice(0, 6),
      first.messages.slice(0, 6),
      "the prefix before it is byte-identical",
    );
  });

  test("over the threshold with no clearing left: the handoff note replaces the old history", async () => {
    const sent: Message[][] = [];
    const manager = new ContextManager({ estimate, settings: small(4200) });
    const compactor = (messages: Message[]): Promise<string> => {
      sent.push(messages);
      return Promise.resolve("## Goal\nfix the test\n## Next\nrun npm test");
    };
    // Results under 600 characters (never stubbed) and too small to be worth clearing pile up
    // past the threshold: stubs and clearing cannot help.
    const history: Message[] = [
      ...HEAD,
      ...Array.from({ length: 30 }, (_, n) => round(n + 1, 500)).flat(),
    ];
    const prepared = await manager.prepare(history, { compactor });
    assert.ok(prepared.fired.includes("compact"), prepared.fired.join());
    assert.equal(manager.compactions, 1);
    assert.equal(sent.length, 1);
    assert.deepEqual(
      sent[0]?.at(-1),
      { role: "user", content: HANDOFF_REQUEST },
      "the view plus one final message",
    );
    assert.deepEqual(sent[0]?.slice(0, 2), HEAD, "the compaction call shares the request's prefix");
    assert.equal(prepared.messages[0]?.role, "system");
    assert.match(
      prepared.messages[1]?.content ?? "",
      /^\[Handoff note[\s\S]*## Goal\nfix the test/,
    );
    assert.ok(prepared.tokens <= 4200 * 0.95, `${prepared.tokens} tokens`);
    const kept = prepared.messages.slice(2);
    assert.ok(kept.length >= 2 && kept[0]?.role === "assistant", "the newest whole rounds");
    assert.ok(
      kept.reduce((sum, message) => sum + estimate(message), 0) <= 4200 * keepAfterCompaction,
      "within the share kept after a compaction",
    );
  });

  test("compact() on demand (a too-long rejection), then dropOldest halves the view", async () => {
    const manager = new ContextManager({ estimate, settings: { window: 10_000 } });
    // Results under 600 characters, never stubbed: 40 rounds pass the share a compaction keeps.
    const history = [...HEAD, ...Array.from({ length: 40 }, (_, n) => round(n + 1, 500)).flat()];
    await manager.compact(history, () => Promise.resolve("note"));
    assert.ok(manager.compaction !== null && manager.compaction.from > HEAD.length);
    const before = await manager.prepare(history);
    manager.dropOldest(history);
    const after = await manager.prepare(history);
    assert.ok(after.tokens < before.tokens);
    assert.match(
      after.messages.find((m) => /dropped/.test(m.content))?.content ?? "",
      /Earlier turns were dropped/,
    );
  });
});

describe("the reminder in the budget", () => {
  test("a history just under the threshold plus the reminder crosses it: the layers fire, the reminder stays last", async () => {
    // Results under 600 characters: nothing to stub, and clearing them would gain too little.
    const history = [...HEAD, ...Array.from({ length: 10 }, (_, n) => round(n + 1, 400)).flat()];
    const total = history.reduce((sum, message) => sum + estimate(message), 0);
    const window = Math.ceil((total + 5) / compactAt);
    const alone = await new ContextManager({ estimate, settings: small(window) }).prepare(history, {
      compactor: () => Promise.reject(new Error("no compaction without the reminder")),
    });
    assert.deepEqual(alone.fired, [], "the history alone fits under the threshold");
    assert.equal(alone.tokens, total);

    const short: Message = { role: "user", content: "<reminder>\ntime: now\n</reminder>" };
    const whole: Message = {
      role: "user",
      content: "<reminder>\ntime: now\nbranch: main\ntodo list:\n[ ] a longer line\n</reminder>",
    };
    const asked: boolean[] = [];
    const reminder = (rebased: boolean): Message => {
      asked.push(rebased);
      return rebased ? whole : short;
    };
    const manager = new ContextManager({ estimate, settings: small(window) });
    const notes: Message[][] = [];
    const compactor = (messages: Message[]): Promise<string> => {
      notes.push(messages);
      return Promise.resolve("## Goal\nthe note");
    };
    const prepared = await manager.prepare(history, { reminder, compactor });
    // Nothing to stub or clear: the handoff note is the layer that fires.
    assert.deepEqual(prepared.fired, ["compact"]);
    assert.equal(notes.length, 1);
    assert.deepEqual(asked, [true, true], "room reserved for the larger form; rebased, it is sent");
    assert.equal(prepared.messages.at(-1), whole);
    assert.ok(prepared.tokens <= window * 0.95, `${prepared.tokens} tokens, reminder included`);
    assert.equal(
      prepared.tokens,
      prepared.messages.reduce((sum, message) => sum + estimate(message), 0),
    );
  });
});

describe("the reminder's form", () => {
  test("the budget reserves the larger form; a request that did not rebase sends the short one", async () => {
    const short: Message = { role: "user", content: "<reminder>\ntime: now\n</reminder>" };
    const whole: Message = {
      role: "user",
      content: `<reminder>\n${"todo ".repeat(60)}\n</reminder>`,
    };
    const history = [...HEAD, ...Array.from({ length: 4 }, (_, n) => round(n + 1, 400)).flat()];
    const total = history.reduce((sum, message) => sum + estimate(message), 0);
    // The history and the short form fit under the threshold; with the larger form they would not.
    const window = Math.ceil((total + estimate(short) + 5) / compactAt);
    assert.ok(total + estimate(whole) > window * compactAt);
    const manager = new ContextManager({ estimate, settings: small(window) });
    const prepared = await manager.prepare(history, {
      reminder: (rebased) => (rebased ? whole : short),
      compactor: () => Promise.resolve("## Goal\nthe note"),
    });
    assert.ok(prepared.fired.includes("compact"), "the larger form counted: the layers fire");
    assert.equal(prepared.messages.at(-1), whole, "it compacted, so the larger form is sent");

    const calm = new ContextManager({ estimate, settings: small(window * 10) });
    const plain = await calm.prepare(history, { reminder: (rebased) => (rebased ? whole : short) });
    assert.deepEqual(plain.fired, []);
    assert.equal(plain.messages.at(-1), short);
  });
});

describe("the tail a compaction keeps", () => {
  test("is measured as it will be sent, stubbed: the share of the window is filled, not a few raw rounds", async () => {
    // Twenty rounds of 8,000-character results: raw, one round is ~2,000 tokens; stubbed, ~80.
    const history = [...HEAD, ...Array.from({ length: 20 }, (_, n) => round(n + 1, 8000)).flat()];
    const manager = new ContextManager({ estimate, settings: { window: 20_000 } });
    // A session long enough that its stubs pay: as many requests as rounds.
    for (let n = 1; n <= 20; n++) await manager.prepare(history.slice(0, 2 + 2 * n - 1));
    const compaction = await manager.compact(history, () => Promise.resolve("the note"));
    const keptRounds = (history.length - compaction.from) / 2;
    // 35% of 20,000 is 7,000 tokens: as sent, every round but the newest is a stub, so all fit.
    assert.equal(compaction.from, 1, `${keptRounds} rounds kept: all after the system prompt`);
    const after = await manager.prepare(history);
    assert.ok(
      after.tokens <= 20_000 * keepAfterCompaction + 200,
      `${after.tokens} tokens after the compaction`,
    );
  });
});

describe("keepFrom", () => {
  test("starts at a round boundary and keeps at least the newest round", () => {
    const history = [...HEAD, ...round(1, 400), ...round(2, 400), ...round(3, 400)];
    const from = keepFrom(history, 2, 150, estimate);
    assert.equal(history[from]?.role, "assistant");
    assert.equal(from, history.length - 2, "only the newest round fits");
    assert.equal(
      keepFrom(history, 2, 100_000, estimate),
      2,
      "everything fits: keep all after the head",
    );
  });
});
