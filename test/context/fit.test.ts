/**
 * The window guarantee's pieces (src/context/fit.ts): a message of any role cut to a number of
 * tokens with a notice of what was cut, the same object each time it is cut to the same cap; the
 * water level under which a request fits; and, through the view and the manager, a message larger
 * than the window sent cut, and a request nothing can make fit refused by name.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  BULKY_ARGUMENT_CHARS,
  capMessage,
  capOnce,
  slimArguments,
  waterLevel,
} from "../../src/context/fit.ts";
import { ContextManager, requestLimit } from "../../src/context/manager.ts";
import { TokenLedger } from "../../src/context/tokens.ts";
import { EMPTY_VIEW_STATE, buildView } from "../../src/context/view.ts";
import type { Message } from "../../src/domain/messages.ts";
import { PitcrewError } from "../../src/errors.ts";
import { HEAD, estimate } from "../support/history.ts";

const LOG = Array.from({ length: 4_000 }, (_, n) => `line ${n}: the build step ran`).join("\n");

describe("capMessage", () => {
  for (const role of ["system", "user", "tool"] as const) {
    test(`a ${role} message keeps its head and tail within the cap, and says what was cut`, () => {
      const message: Message =
        role === "tool"
          ? { role, toolCallId: "c1", name: "bash", content: LOG, isError: false }
          : { role, content: LOG };
      const cut = capMessage(message, 500, estimate);
      assert.ok(estimate(cut) <= 500, `${estimate(cut)} tokens`);
      assert.ok(estimate(cut) > 450, "as much kept as fits");
      assert.ok(cut.content.startsWith("line 0: the build step ran"));
      assert.ok(cut.content.endsWith("line 3999: the build step ran"));
      assert.match(
        cut.content,
        /\[… \d+ of \d+ characters of this message cut here to fit the context window; /,
      );
      if (role === "tool") assert.match(cut.content, /run the command again or re-read the file/);
      else assert.match(cut.content, /the whole text is kept in the run's transcript/);
      assert.equal(message.content, LOG, "the stored message is untouched");
    });
  }

  test("an assistant message: bulky call arguments are slimmed first, the call and its id kept", () => {
    const write = JSON.stringify({ path: "big.txt", content: "x".repeat(20_000) });
    const message: Message = {
      role: "assistant",
      content: "Writing the file.",
      toolCalls: [{ id: "c9", name: "write", arguments: write }],
    };
    const cut = capMessage(message, 100, estimate);
    assert.ok(estimate(cut) <= 100);
    assert.equal(cut.content, "Writing the file.", "the text fits once the arguments are slim");
    assert.ok(cut.role === "assistant");
    assert.equal(cut.toolCalls[0]?.id, "c9");
    assert.deepEqual(JSON.parse(cut.toolCalls[0]?.arguments ?? ""), {
      path: "big.txt",
      content: "[cleared: 20000 chars]",
    });
  });

  test("a looping answer of 208,000 characters is cut to the cap", () => {
    const looping: Message = {
      role: "assistant",
      content: "I will check the file again. ".repeat(7_200),
      toolCalls: [],
    };
    const cut = capMessage(looping, 2_000, estimate);
    assert.ok(estimate(cut) <= 2_000);
    assert.match(
      cut.content,
      /cut here to fit the context window; it was your own earlier message/,
    );
  });

  test("a message that fits is itself; a cap below the notice gets the notice alone", () => {
    const small: Message = { role: "user", content: "hello" };
    assert.equal(capMessage(small, 100, estimate), small);
    const tiny = capMessage({ role: "user", content: LOG }, 5, estimate);
    assert.match(tiny.content, /^\[… \d+ of \d+ characters/);
  });

  test("capOnce: the same cut object for the same message and cap", () => {
    const message: Message = { role: "user", content: LOG };
    const first = capOnce(message, 300, estimate);
    assert.equal(capOnce(message, 300, estimate), first);
    assert.notEqual(capOnce(message, 400, estimate), first);
  });
});

describe("slimArguments", () => {
  test("long string arguments become their length; short calls are left as they are", () => {
    const short = { id: "a", name: "bash", arguments: '{"command":"ls"}' };
    assert.equal(slimArguments(short), short);
    const broken = {
      id: "b",
      name: "bash",
      arguments: `{"command": "${"y".repeat(BULKY_ARGUMENT_CHARS)}`,
    };
    assert.equal(
      slimArguments(broken).arguments,
      `{"cleared": "${broken.arguments.length} chars of arguments"}`,
    );
  });
});

describe("waterLevel", () => {
  test("the highest common cap at which the sizes fit the budget", () => {
    assert.equal(waterLevel([10, 20, 30], 100, 5), Number.POSITIVE_INFINITY);
    // 10 + 20 + min(30, c) + min(500, c) ≤ 100: c = 40.
    assert.equal(waterLevel([10, 20, 30, 500], 100, 5), 40);
    assert.equal(waterLevel([10, 20, 30, 500], 20, 8), null, "not even at the floor");
  });
});

describe("the window guarantee through the layers", () => {
  test("a tool result bigger than the window is sent cut, the same object in the next request", () => {
    const history: Message[] = [
      ...HEAD,
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      { role: "tool", toolCallId: "c1", name: "bash", content: LOG.repeat(10), isError: false },
    ];
    const options = { budget: 10_000, estimate, messageCap: 2_000 };
    const first = buildView(history, EMPTY_VIEW_STATE, options);
    assert.ok(estimate(first.messages.at(-1) as Message) <= 2_000);
    const second = buildView(history, first.state, options);
    assert.equal(second.messages.at(-1), first.messages.at(-1), "sticky: byte-identical");
  });

  test("a history whose every part is huge still fits the request limit", async () => {
    const huge = LOG.repeat(40);
    const history: Message[] = [
      { role: "system", content: huge },
      { role: "user", content: huge },
      {
        role: "assistant",
        content: huge,
        toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }],
      },
      { role: "tool", toolCallId: "c1", name: "bash", content: huge, isError: false },
    ];
    const settings = { window: 16_000 };
    const manager = new ContextManager({
      estimate,
      settings,
      ledger: new TokenLedger({ fixedTokens: 2_000 }),
    });
    const prepared = await manager.prepare(history, {
      reminder: () => ({ role: "user", content: `<reminder>\n${huge}\n</reminder>` }),
      compactor: () => Promise.resolve(huge),
    });
    const limit = requestLimit({ ...settings, compactAt: 0.85, keepAfterCompaction: 0.35 });
    assert.ok(prepared.tokens <= limit, `${prepared.tokens} of ${limit}`);
    assert.equal(prepared.messages.at(-1)?.role, "user", "the reminder still last");
  });

  test("tool definitions that leave no room: refused by name, nothing to send", async () => {
    const manager = new ContextManager({
      estimate,
      settings: { window: 8_000 },
      ledger: new TokenLedger({ fixedTokens: 9_000 }),
    });
    await assert.rejects(
      manager.prepare(HEAD),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "context-window-too-small" &&
        /the tool definitions take about \d+ tokens/.test(error.message) &&
        /Set the context window to the model's real window if it is larger \(the action's context-window input, pitcrew run's --context-window\)/.test(
          error.message,
        ),
    );
  });
});
