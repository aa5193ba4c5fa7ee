/**
 * The loop asks the context policy it is handed, and builds no context of its own: the real model
 * client against the scripted server, a recording policy whose views look nothing like the
 * history, and a tool that needs no sandbox. Each request must be exactly the policy's view; the
 * reported usage goes back to the policy; a too-long rejection asks it to compact (the note's
 * model call counted in the totals), then to drop the oldest.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { z } from "zod";
import { createModelClient } from "../../src/agent/model.ts";
import { runLoop } from "../../src/agent/loop.ts";
import type { LoopOptions } from "../../src/agent/loop.ts";
import { defineTool } from "../../src/agent/tools/tool.ts";
import type { ToolContext } from "../../src/agent/tools/tool.ts";
import { toolDefinitions } from "../../src/agent/tools/index.ts";
import type { ContextPolicy, RequestView } from "../../src/context/policy.ts";
import type { Compaction, LoopEvent } from "../../src/domain/loop.ts";
import type { Message } from "../../src/domain/messages.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";
import type { ModelServer, Script } from "../support/model-server.ts";

const servers: ModelServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

/** A tool that answers with its argument: the loop's tool round without a sandbox. */
const echo = defineTool({
  name: "echo",
  description: "Answers with its text.",
  schema: z.object({ text: z.string() }).strict(),
  run: (args) => Promise.resolve({ content: `echo: ${args.text}`, isError: false }),
});

/** Any use of the sandbox fails the test: nothing here may reach it. */
const NO_SANDBOX = new Proxy({} as Sandbox, {
  get: (_, key) => {
    throw new Error(`the sandbox was used (${String(key)})`);
  },
});

const CONTEXT: ToolContext = {
  sandbox: NO_SANDBOX,
  gate: { check: () => ({ allowed: true }) },
  workspace: "/nowhere",
  todos: { get: () => [], set: () => undefined },
};

const HISTORY: Message[] = [
  { role: "system", content: "You are pitcrew." },
  { role: "user", content: "Echo hello, then stop." },
];

interface Recording {
  policy: ContextPolicy;
  /** What the loop asked, in order: `view <history length>`, `record <prompt tokens>`, … */
  calls: string[];
  views: RequestView[];
  /** The messages each summarize call sent. */
  summaries: Message[][];
}

/**
 * A policy whose view is two messages naming the request and the history's length, so a request
 * built from the history instead is told apart at once. `compactInView`: the view at that call
 * (1-based) compacts through `summarize` first, as the layers do past the threshold.
 */
function recordingPolicy(compactInView?: number): Recording {
  const calls: string[] = [];
  const views: RequestView[] = [];
  const summaries: Message[][] = [];
  const note = async (
    history: readonly Message[],
    summarize: (messages: Message[]) => Promise<string>,
  ): Promise<Compaction> => {
    const request: Message[] = [
      { role: "system", content: "policy's system" },
      { role: "user", content: `write the note over ${history.length} messages` },
    ];
    summaries.push(request);
    return { note: await summarize(request), from: history.length };
  };
  const policy: ContextPolicy = {
    async view(history, summarize) {
      calls.push(`view ${history.length}`);
      const compaction = views.length + 1 === compactInView ? await note(history, summarize) : null;
      const view: RequestView = {
        messages: [
          { role: "system", content: "policy's system" },
          { role: "user", content: `request ${views.length + 1} over ${history.length} messages` },
        ],
        fired: compaction ? ["compact"] : [],
        tokens: 42,
        compaction,
        reminder: null,
      };
      views.push(view);
      return view;
    },
    record(usage) {
      calls.push(`record ${usage.promptTokens}`);
    },
    async compact(history, summarize) {
      calls.push("compact");
      return note(history, summarize);
    },
    dropOldest(history) {
      calls.push(`dropOldest ${history.length}`);
    },
  };
  return { policy, calls, views, summaries };
}

async function loop(
  script: Script,
  recording: Recording,
): Promise<{
  server: ModelServer;
  events: LoopEvent[];
  result: Awaited<ReturnType<typeof runLoop>>;
}> {
  const server = await startModelServer(script);
  servers.push(server);
  const events: LoopEvent[] = [];
  const options: LoopOptions = {
    model: createModelClient({
      apiKey: "sk-test",
      model: "gpt-4.1",
      baseUrl: server.url,
      backoffMs: 1,
    }),
    tools: [echo],
    definitions: toolDefinitions([echo]),
    context: CONTEXT,
    messages: HISTORY,
    limits: { maxTurns: 5 },
    promptCacheKey: "pitcrew-test",
    onEvent: (event) => events.push(event),
    policy: recording.policy,
  };
  return { server, events, result: await runLoop(options) };
}

/** A request's messages as role and text. */
function sent(server: ModelServer, index: number): { role: string; content: string }[] {
  return (server.requests[index]?.body.messages ?? []).map((message) => ({
    role: message.role,
    content: String(message.content),
  }));
}

describe("the loop and its context policy", () => {
  test("every request is the policy's view of the whole history, and its usage goes back to the policy", async () => {
    const recording = recordingPolicy();
    const { server, result } = await loop(
      [callTools([{ name: "echo", arguments: JSON.stringify({ text: "hello" }) }]), say("done")],
      recording,
    );
    assert.equal(result.stopReason, "done");
    assert.equal(server.requests.length, 2);
    for (const [index, view] of recording.views.entries()) {
      assert.deepEqual(
        sent(server, index),
        view.messages.map(({ role, content }) => ({ role, content })),
        `request ${index + 1} is the view, not the history`,
      );
    }
    const reported = server.requests.map((request) => request.usage?.prompt_tokens);
    assert.deepEqual(recording.calls, [
      "view 2",
      `record ${reported[0]}`,
      "view 4",
      `record ${reported[1]}`,
    ]);
    assert.equal(result.messages.length, 5, "the history itself: task, call, result, answer");
    assert.equal(result.messages[3]?.content, "echo: hello");
    assert.ok(result.messages.every((message) => !message.content.startsWith("request ")));
  });

  test("too long: the policy compacts (the note's call counted), then drops the oldest, then the request goes through", async () => {
    const recording = recordingPolicy();
    const { server, events, result } = await loop(
      [
        { kind: "context-too-long", shape: "openai" },
        say("## Goal\necho hello"),
        { kind: "context-too-long", shape: "openai" },
        say("done"),
      ],
      recording,
    );
    assert.equal(result.stopReason, "done");
    assert.deepEqual(recording.calls, [
      "view 2",
      "compact",
      "view 2",
      "dropOldest 2",
      "view 2",
      `record ${server.requests[3]?.usage?.prompt_tokens}`,
    ]);
    assert.deepEqual(
      sent(server, 1),
      recording.summaries[0]?.map(({ role, content }) => ({ role, content })),
      "the note's request is the one the policy asked for",
    );
    const compactions = events.filter((event) => event.type === "compaction");
    assert.deepEqual(compactions, [
      { type: "compaction", turn: 1, compaction: { note: "## Goal\necho hello", from: 2 } },
    ]);
    const summed = [1, 3].reduce(
      (sum, index) => sum + (server.requests[index]?.usage?.prompt_tokens ?? NaN),
      0,
    );
    assert.equal(result.usage.promptTokens, summed, "the note's call and the answer, both counted");
  });

  test("too long a third time: the named failure, after compacting and dropping", async () => {
    const recording = recordingPolicy();
    const { result } = await loop(
      [
        { kind: "context-too-long", shape: "openai" },
        say("## Goal\nnote"),
        { kind: "context-too-long", shape: "openai" },
        { kind: "context-too-long", shape: "openai" },
      ],
      recording,
    );
    assert.equal(result.stopReason, "model_error");
    assert.equal(result.error?.code, "model-context-too-long");
    assert.deepEqual(recording.calls, ["view 2", "compact", "view 2", "dropOldest 2", "view 2"]);
  });

  test("a view that compacted is reported as a compaction, then the layers that fired", async () => {
    const recording = recordingPolicy(2);
    const { server, events, result } = await loop(
      [
        callTools([{ name: "echo", arguments: JSON.stringify({ text: "a" }) }]),
        say("## Goal\nthe note"),
        say("done"),
      ],
      recording,
    );
    assert.equal(result.stopReason, "done");
    const turn2 = events.filter(
      (event) => "turn" in event && event.turn === 2 && event.type !== "usage",
    );
    assert.deepEqual(
      turn2.slice(0, 3).map((event) => event.type),
      ["turn_start", "compaction", "context"],
    );
    assert.deepEqual(sent(server, 1), [
      { role: "system", content: "policy's system" },
      { role: "user", content: "write the note over 4 messages" },
    ]);
    assert.equal(server.requests.length, 3);
    assert.equal(
      result.usage.promptTokens,
      server.requests.reduce((sum, request) => sum + (request.usage?.prompt_tokens ?? NaN), 0),
    );
  });
});
