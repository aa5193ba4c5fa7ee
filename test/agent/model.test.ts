/**
 * The model client, through the real `openai` SDK against the scripted model server: replies,
 * tool-call round trips, retries and what is never retried, every named error, context overflow
 * in each provider's shape, usage and the prefix cache, cancellation, stable tool definitions.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { PitcrewError } from "../../src/errors.ts";
import type { Message } from "../../src/domain/messages.ts";
import {
  createModelClient,
  type ModelClient,
  type ModelConfig,
  type ModelRequest,
} from "../../src/agent/model.ts";
import type { ToolDefinition } from "../../src/domain/tools.ts";
import {
  CONTEXT_TOO_LONG_SENTENCE,
  ContextTooLongError,
  contextOverflow,
  isContextTooLong,
  retryAfterMs,
} from "../../src/agent/model-errors.ts";
import {
  callTools,
  say,
  startModelServer,
  type ContextShape,
  type ModelServer,
  type Script,
} from "../support/model-server.ts";

const API_KEY = "sk-test-0123456789abcdef";

const TOOLS: ToolDefinition[] = [
  {
    name: "bash",
    description: "Run a command.",
    parameters: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    },
  },
  {
    name: "read",
    description: "Read a file.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { messages, tools: TOOLS, promptCacheKey: "pitcrew-test", ...extra };
}

const ask = (text: string): Message[] => [
  { role: "system", content: "You are a test." },
  { role: "user", content: text },
];

async function withClient(
  script: Script,
  run: (client: ModelClient, server: ModelServer) => Promise<void>,
  config: Partial<ModelConfig> = {},
): Promise<void> {
  const server = await startModelServer(script, { apiKey: API_KEY });
  try {
    const client = createModelClient({
      apiKey: API_KEY,
      model: "gpt-4o",
      baseUrl: server.url,
      backoffMs: 10,
      ...config,
    });
    await run(client, server);
  } finally {
    await server.close();
  }
}

/** Asserts that `promise` rejects with a PitcrewError of `code`, and returns it. */
async function failsWith(promise: Promise<unknown>, code: string): Promise<PitcrewError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof PitcrewError, `expected a PitcrewError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

describe("replies", () => {
  test("a plain reply: content, usage, cost, and what was sent", async () => {
    await withClient([say("Hello there.")], async (client, server) => {
      const response = await client.complete(request(ask("hi")));
      assert.equal(response.content, "Hello there.");
      assert.deepEqual(response.toolCalls, []);
      assert.equal(response.finishReason, "stop");
      const reported = server.requests[0]?.usage;
      assert.ok(reported);
      assert.deepEqual(response.usage, {
        promptTokens: reported.prompt_tokens,
        cachedTokens: 0,
        completionTokens: reported.completion_tokens,
        reasoningTokens: 0,
      });
      const expectedCost = (reported.prompt_tokens * 2.5 + reported.completion_tokens * 10) / 1e6;
      assert.ok(Math.abs(response.cost - expectedCost) < 1e-12);

      const sent = server.requests[0];
      assert.equal(sent?.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal(sent?.headers["x-stainless-retry-count"], "0");
      assert.equal(sent?.body.model, "gpt-4o");
      assert.equal(sent?.body.prompt_cache_key, "pitcrew-test");
      assert.equal(sent?.body.parallel_tool_calls, true);
      assert.equal(sent?.body.stream, undefined);
      assert.deepEqual(sent?.body.messages, [
        { role: "system", content: "You are a test." },
        { role: "user", content: "hi" },
      ]);
    });
  });

  test("without tools, neither tools nor parallel_tool_calls is sent", async () => {
    await withClient([say("ok")], async (client, server) => {
      await client.complete(request(ask("hi"), { tools: [] }));
      const body = server.requests[0]?.body;
      assert.equal(body?.tools, undefined);
      assert.equal(body?.parallel_tool_calls, undefined);
    });
  });

  test("tool calls round trip, broken argument text kept verbatim", async () => {
    const script = [
      callTools(
        [
          { name: "bash", arguments: '{"command":"ls -la"}' },
          { name: "read", arguments: '{"path": "src/a.ts"', id: "call_broken" },
        ],
        "Looking around.",
      ),
      say("Done."),
    ];
    await withClient(script, async (client, server) => {
      const first = await client.complete(request(ask("look")));
      assert.equal(first.finishReason, "tool_calls");
      assert.equal(first.content, "Looking around.");
      assert.deepEqual(first.toolCalls, [
        { id: "call_0_0", name: "bash", arguments: '{"command":"ls -la"}' },
        { id: "call_broken", name: "read", arguments: '{"path": "src/a.ts"' },
      ]);

      const history: Message[] = [
        ...ask("look"),
        { role: "assistant", content: first.content, toolCalls: first.toolCalls },
        {
          role: "tool",
          toolCallId: "call_broken",
          name: "read",
          content: "bad JSON",
          isError: true,
        },
        { role: "tool", toolCallId: "call_0_0", name: "bash", content: "a.ts", isError: false },
      ];
      const second = await client.complete(request(history));
      assert.equal(second.content, "Done.");
      assert.equal(server.requests[1]?.rejected, undefined);
      assert.deepEqual(server.requests[1]?.body.messages.slice(2), [
        {
          role: "assistant",
          content: "Looking around.",
          tool_calls: [
            {
              id: "call_0_0",
              type: "function",
              function: { name: "bash", arguments: '{"command":"ls -la"}' },
            },
            {
              id: "call_broken",
              type: "function",
              function: { name: "read", arguments: '{"path": "src/a.ts"' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_broken", content: "bad JSON" },
        { role: "tool", tool_call_id: "call_0_0", content: "a.ts" },
      ]);
    });
  });

  test("an assistant message with calls and no text sends content null", async () => {
    await withClient([say("ok")], async (client, server) => {
      await client.complete(
        request([
          ...ask("go"),
          {
            role: "assistant",
            content: "",
            toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }],
          },
          { role: "tool", toolCallId: "c1", name: "bash", content: "", isError: false },
        ]),
      );
      assert.equal(server.requests[0]?.rejected, undefined);
      assert.equal(server.requests[0]?.body.messages[2]?.content, null);
    });
  });

  test("tool definitions are sent byte-identically, in the given order, on every call", async () => {
    await withClient([say("a"), say("b")], async (client, server) => {
      await client.complete(request(ask("one")));
      await client.complete(
        request([...ask("one"), { role: "assistant", content: "a", toolCalls: [] }]),
      );
      const expected = JSON.stringify(
        TOOLS.map((tool) => ({
          type: "function",
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
      );
      for (const sent of server.requests) {
        assert.ok(sent.raw.includes(`"tools":${expected}`), sent.raw);
      }
      assert.deepEqual(
        server.requests[0]?.body.tools?.map((tool) => tool.function.name),
        ["bash", "read"],
      );
    });
  });
});

/** A wait between attempts that records what was asked for and returns at once. */
function recordedWaits(): { waits: number[]; wait: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

describe("retries", () => {
  test("429 with retry-after: waits as asked, then succeeds", async () => {
    const { waits, wait } = recordedWaits();
    await withClient(
      [{ kind: "rate-limit", retryAfter: 1 }, say("ok")],
      async (client, server) => {
        const response = await client.complete(request(ask("hi")));
        assert.equal(response.content, "ok");
        assert.equal(server.requests.length, 2);
        const [first, second] = server.requests;
        assert.ok(first && second);
        assert.deepEqual(waits, [1000]);
        assert.equal(first.headers["x-stainless-retry-count"], "0");
        assert.equal(second.headers["x-stainless-retry-count"], "1");
      },
      { wait },
    );
  });

  test("retry-after-ms wins over retry-after", async () => {
    const { waits, wait } = recordedWaits();
    const script: Script = [{ kind: "rate-limit", retryAfter: 30, retryAfterMs: 50 }, say("ok")];
    await withClient(
      script,
      async (client, server) => {
        await client.complete(request(ask("hi")));
        assert.deepEqual(waits, [50]);
        assert.equal(server.requests.length, 2);
      },
      { wait },
    );
  });

  test("500, 502 and 503 are retried with backoff", async () => {
    const script: Script = [
      { kind: "server-error", status: 500 },
      { kind: "server-error", status: 502 },
      { kind: "server-error", status: 503 },
      say("ok"),
    ];
    const { waits, wait } = recordedWaits();
    await withClient(
      script,
      async (client, server) => {
        assert.equal((await client.complete(request(ask("hi")))).content, "ok");
        assert.equal(server.requests.length, 4);
        // Doubling from backoffMs (10 in these tests), each less up to 25% jitter.
        assert.equal(waits.length, 3);
        for (const [attempt, ms] of waits.entries()) {
          const base = 10 * 2 ** attempt;
          assert.ok(ms > 0.75 * base - 1e-9 && ms <= base, `wait ${attempt}: ${ms} ms`);
        }
      },
      { wait },
    );
  });

  test("a connection reset is retried", async () => {
    await withClient([{ kind: "reset" }, say("ok")], async (client, server) => {
      assert.equal((await client.complete(request(ask("hi")))).content, "ok");
      assert.equal(server.requests.length, 2);
    });
  });

  test("a timeout is retried, and named when it persists", async () => {
    const slow = { kind: "reply", content: "late", delayMs: 2000 } as const;
    await withClient(
      [slow, say("ok")],
      async (client, server) => {
        assert.equal((await client.complete(request(ask("hi")))).content, "ok");
        assert.equal(server.requests.length, 2);
      },
      { timeoutMs: 100 },
    );
    await withClient(
      [slow, slow],
      async (client, server) => {
        const error = await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.match(error.message, /timed out \(2 attempts\)/);
        assert.equal(server.requests.length, 2);
      },
      { timeoutMs: 100, maxRetries: 1 },
    );
  });

  test("a 400 is never retried", async () => {
    const script: Script = [
      { kind: "error", status: 400, body: { error: { message: "Unsupported parameter: 'x'." } } },
      say("never"),
    ];
    await withClient(script, async (client, server) => {
      const error = await failsWith(client.complete(request(ask("hi"))), "model-bad-request");
      assert.match(error.message, /HTTP 400: Unsupported parameter: 'x'\./);
      assert.equal(server.requests.length, 1);
    });
  });

  test("a request the server finds malformed is a bad request, sent once", async () => {
    await withClient([say("never")], async (client, server) => {
      const orphan: Message[] = [
        ...ask("hi"),
        { role: "tool", toolCallId: "nobody", name: "bash", content: "x", isError: false },
      ];
      const error = await failsWith(client.complete(request(orphan)), "model-bad-request");
      assert.match(error.message, /must be a response to a preceeding message with 'tool_calls'/);
      assert.equal(server.requests.length, 1);
    });
  });

  test("transient failures that outlive the retries: model-unavailable, saying what and how to go on", async () => {
    const script: Script = () => ({ kind: "server-error", status: 503 });
    await withClient(
      script,
      async (client, server) => {
        const error = await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.equal(server.requests.length, 4);
        assert.match(error.message, /HTTP 503: The engine is currently overloaded/);
        assert.match(error.message, /4 attempts/);
        assert.match(error.message, /nothing was lost; try again once it answers/);
        assert.ok(error.message.includes(server.url));
      },
      { maxRetries: 3 },
    );
  });

  test("a 502 HTML page is reduced to its words", async () => {
    await withClient(
      () => ({ kind: "server-error", status: 502 }),
      async (client) => {
        const error = await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.match(error.message, /HTTP 502: 502 Bad Gateway 502 Bad Gateway cloudflare/);
        assert.doesNotMatch(error.message, /</);
      },
      { maxRetries: 0 },
    );
  });

  test("a retry-after longer than a minute is not waited for", async () => {
    const { waits, wait } = recordedWaits();
    await withClient(
      [{ kind: "rate-limit", retryAfter: 120 }, say("never")],
      async (client, server) => {
        const error = await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.deepEqual(waits, []);
        assert.match(error.message, /asked to wait 120 s/);
        assert.equal(server.requests.length, 1);
      },
      { wait },
    );
  });

  test("the default is four retries", async () => {
    await withClient(
      () => ({ kind: "server-error", status: 500 }),
      async (client, server) => {
        await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.equal(server.requests.length, 5);
      },
    );
  });
});

describe("named errors", () => {
  test("401: model-invalid-key, naming the secret to set, not retried", async () => {
    await withClient([{ kind: "invalid-key" }, say("never")], async (client, server) => {
      const error = await failsWith(client.complete(request(ask("hi"))), "model-invalid-key");
      assert.match(error.message, /OPENAI_API_KEY/);
      assert.match(error.message, /api-key/);
      assert.equal(server.requests.length, 1);
    });
  });

  test("a wrong key against a server that checks it", async () => {
    await withClient(
      [say("never")],
      async (client) => {
        await failsWith(client.complete(request(ask("hi"))), "model-invalid-key");
      },
      { apiKey: "sk-wrong-key-000000" },
    );
  });

  test("404: model-not-found, naming the model and the base URL", async () => {
    await withClient([{ kind: "model-not-found" }], async (client, server) => {
      const error = await failsWith(client.complete(request(ask("hi"))), "model-not-found");
      assert.ok(error.message.includes('"gpt-4o"'));
      assert.ok(error.message.includes(server.url));
      assert.match(error.message, /check the model and base-url inputs/);
      assert.match(error.cliMessage ?? "", /check --model \(or PITCREW_MODEL\) and --base-url/);
      assert.equal(server.requests.length, 1);
    });
  });

  test("429 insufficient_quota: model-quota-exhausted, never retried", async () => {
    await withClient([{ kind: "quota-exhausted" }, say("never")], async (client, server) => {
      const error = await failsWith(client.complete(request(ask("hi"))), "model-quota-exhausted");
      assert.match(error.message, /billing/);
      assert.equal(server.requests.length, 1);
    });
  });

  test("402 (DeepSeek's Insufficient Balance) is a quota error too", async () => {
    const body = {
      error: {
        message: "Insufficient Balance",
        type: "unknown_error",
        code: "invalid_request_error",
      },
    };
    await withClient([{ kind: "error", status: 402, body }], async (client) => {
      await failsWith(client.complete(request(ask("hi"))), "model-quota-exhausted");
    });
  });

  for (const provider of ["openai", "azure"] as const) {
    test(`a ${provider} content-policy 400: model-content-refused`, async () => {
      await withClient([{ kind: "content-policy", provider }], async (client, server) => {
        await failsWith(client.complete(request(ask("hi"))), "model-content-refused");
        assert.equal(server.requests.length, 1);
      });
    });
  }

  test("finish_reason content_filter and a refusal: model-content-refused", async () => {
    const script: Script = [
      { kind: "reply", content: "partial", finishReason: "content_filter" },
      { kind: "reply", content: null, refusal: "I can't help with that." },
    ];
    await withClient(script, async (client) => {
      await failsWith(client.complete(request(ask("hi"))), "model-content-refused");
      const refusal = await failsWith(client.complete(request(ask("hi"))), "model-content-refused");
      assert.match(refusal.message, /I can't help with that\./);
    });
  });

  test("a 200 that is not a completion (a web page, an error object): model-bad-request", async () => {
    const script: Script = [
      { kind: "error", status: 200, body: "<html><body>Welcome to nginx!</body></html>" },
      { kind: "error", status: 200, body: { error: { message: "Upstream provider failed" } } },
    ];
    await withClient(script, async (client) => {
      const page = await failsWith(client.complete(request(ask("hi"))), "model-bad-request");
      assert.match(page.message, /answered without a reply; check that the base-url/);
      const gateway = await failsWith(client.complete(request(ask("hi"))), "model-bad-request");
      assert.match(gateway.message, /without a reply: Upstream provider failed/);
    });
  });

  test("the API key never appears in a sentence, whatever the server echoes", async () => {
    const body = { error: { message: `Key ${API_KEY} is not allowed for this parameter.` } };
    await withClient([{ kind: "error", status: 400, body }], async (client) => {
      const error = await failsWith(client.complete(request(ask("hi"))), "model-bad-request");
      assert.ok(!error.message.includes(API_KEY));
      assert.match(error.message, /Key \*\*\* is not allowed/);
    });
  });
});

describe("context too long", () => {
  const shapes: [ContextShape, { limit: number; requested: number }][] = [
    ["openai", { limit: 128000, requested: 130123 }],
    ["vllm", { limit: 32768, requested: 33000 }],
    ["deepseek", { limit: 65536, requested: 70000 }],
    ["llama.cpp", { limit: 4096, requested: 5000 }],
    ["anthropic", { limit: 200000, requested: 215000 }],
    ["gemini", { limit: 1048576, requested: 1200000 }],
  ];
  for (const [shape, numbers] of shapes) {
    test(`${shape}: model-context-too-long with the exact sentence and the numbers`, async () => {
      await withClient(
        [{ kind: "context-too-long", shape }, say("never")],
        async (client, server) => {
          const error = await failsWith(
            client.complete(request(ask("hi"))),
            "model-context-too-long",
          );
          assert.equal(error.message, CONTEXT_TOO_LONG_SENTENCE);
          assert.equal(
            error.message,
            "This conversation is too long for the model to read at once; continue in a new run; everything built so far is kept.",
          );
          assert.ok(error instanceof ContextTooLongError);
          assert.deepEqual({ limit: error.limit, requested: error.requested }, numbers);
          assert.ok(isContextTooLong(error));
          assert.equal(server.requests.length, 1);
        },
      );
    });
  }

  test("the TPM 'Request too large' is a rate limit: retried, then unavailable, never an overflow", async () => {
    await withClient(
      () => ({ kind: "tokens-per-minute" }),
      async (client, server) => {
        const error = await failsWith(client.complete(request(ask("hi"))), "model-unavailable");
        assert.match(error.message, /rate limited .*tokens per min/);
        assert.ok(!isContextTooLong(error));
        assert.equal(server.requests.length, 2);
      },
      { maxRetries: 1 },
    );
  });

  test("detection on raw error values (the context layer's entry point)", () => {
    const tpm = {
      status: 429,
      code: "rate_limit_exceeded",
      message:
        "429 Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 50000.",
    };
    assert.equal(isContextTooLong(tpm), false);
    // Even a 400 that words a TPM failure is not an overflow.
    assert.equal(isContextTooLong({ ...tpm, status: 400 }), false);
    assert.equal(
      isContextTooLong({
        status: 400,
        code: "string_above_max_length",
        message: "maximum context length",
      }),
      false,
    );
    assert.equal(
      isContextTooLong({ status: 400, code: "context_length_exceeded", message: "" }),
      true,
    );
    assert.deepEqual(
      contextOverflow({ status: 400, code: "context_length_exceeded", message: "" }),
      {},
    );
    assert.deepEqual(
      contextOverflow({
        status: 400,
        message:
          "400 Please reduce the length of the messages or completion. Current length is 9000 while limit is 8192",
      }),
      { limit: 8192, requested: 9000 },
    );
    assert.ok(
      contextOverflow({ status: 400, message: "Input is longer than the model's context length" }),
    );
    assert.ok(contextOverflow({ status: 500, message: "maximum input length is 4096 tokens" }));
    assert.equal(isContextTooLong(new Error("connection reset")), false);
    assert.equal(isContextTooLong("prompt is too long"), false);
    assert.equal(isContextTooLong(new PitcrewError("model-bad-request", "x")), false);
  });
});

describe("usage and the prefix cache", () => {
  const big = "The repository's conventions, repeated for size. ".repeat(200); // ~10,000 characters

  test("a shared prefix of at least 1024 tokens is reported cached; another key is not", async () => {
    await withClient([say("one"), say("two"), say("three")], async (client, server) => {
      const base: Message[] = [
        { role: "system", content: big },
        { role: "user", content: "first" },
      ];
      const first = await client.complete(request(base));
      assert.equal(first.usage.cachedTokens, 0);
      const next: Message[] = [
        ...base,
        { role: "assistant", content: "one", toolCalls: [] },
        { role: "user", content: "second" },
      ];
      const second = await client.complete(request(next));
      assert.ok(second.usage.cachedTokens >= 1024);
      assert.equal(second.usage.cachedTokens % 128, 0);
      assert.equal(
        second.usage.cachedTokens,
        server.requests[1]?.usage?.prompt_tokens_details.cached_tokens,
      );
      assert.ok(second.usage.cachedTokens < second.usage.promptTokens);
      // Cached tokens are cheaper: gpt-4o's cached input is half price.
      const { promptTokens, cachedTokens, completionTokens } = second.usage;
      const expected =
        ((promptTokens - cachedTokens) * 2.5 + cachedTokens * 1.25 + completionTokens * 10) / 1e6;
      assert.ok(Math.abs(second.cost - expected) < 1e-12);

      const other = await client.complete(request(next, { promptCacheKey: "another-run" }));
      assert.equal(other.usage.cachedTokens, 0);
    });
  });

  test("DeepSeek's prompt_cache_hit_tokens stand in for cached_tokens; reasoning is read", async () => {
    const script: Script = [
      say("one"),
      { kind: "reply", content: "two", usageShape: "deepseek", reasoningTokens: 40 },
    ];
    await withClient(script, async (client, server) => {
      const base: Message[] = [
        { role: "system", content: big },
        { role: "user", content: "first" },
      ];
      await client.complete(request(base));
      const second = await client.complete(
        request([
          ...base,
          { role: "assistant", content: "one", toolCalls: [] },
          { role: "user", content: "more" },
        ]),
      );
      const reported = server.requests[1]?.usage;
      assert.ok(reported && reported.prompt_tokens_details.cached_tokens > 0);
      assert.equal(second.usage.cachedTokens, reported.prompt_tokens_details.cached_tokens);
      assert.equal(second.usage.reasoningTokens, 40);
      assert.equal(second.usage.completionTokens, reported.completion_tokens);
    });
  });

  test("missing usage counts zero", async () => {
    await withClient([{ kind: "reply", content: "x", usageShape: "none" }], async (client) => {
      const response = await client.complete(request(ask("hi")));
      assert.deepEqual(response.usage, {
        promptTokens: 0,
        cachedTokens: 0,
        completionTokens: 0,
        reasoningTokens: 0,
      });
      assert.equal(response.cost, 0);
    });
  });

  test("an unknown model costs 0; a user price table is used", async () => {
    await withClient(
      [say("x"), say("y")],
      async (client) => {
        assert.equal((await client.complete(request(ask("hi")))).cost, 0);
      },
      { model: "local-llama" },
    );
    await withClient(
      [say("x")],
      async (client) => {
        const response = await client.complete(request(ask("hi")));
        const { promptTokens, completionTokens } = response.usage;
        assert.ok(response.cost > 0);
        assert.ok(Math.abs(response.cost - (promptTokens + completionTokens) / 1e6) < 1e-12);
      },
      {
        model: "local-llama",
        prices: { "local-llama": { input: 1, cachedInput: 0.5, output: 1 } },
      },
    );
  });
});

describe("cancellation", () => {
  // Had the abort not cut the response short, "late" would have arrived: the outcome says it.
  test("an abort during a slow response: model-cancelled, not the late answer", async () => {
    await withClient([{ kind: "reply", content: "late", delayMs: 5000 }], async (client) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await failsWith(
        client.complete(request(ask("hi"), { signal: controller.signal })),
        "model-cancelled",
      );
    });
  });

  test("an abort during the wait before a retry", async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    await withClient(
      [{ kind: "rate-limit", retryAfter: 30 }, say("never")],
      async (client, server) => {
        await failsWith(
          client.complete(request(ask("hi"), { signal: controller.signal })),
          "model-cancelled",
        );
        assert.deepEqual(waits, [30_000]);
        assert.equal(server.requests.length, 1, "the retry was never sent");
      },
      {
        // The real timer, aborted once the 30 s wait has begun.
        wait: (ms, signal) => {
          waits.push(ms);
          const waiting = sleep(ms, undefined, { signal });
          controller.abort();
          return waiting;
        },
      },
    );
  });

  test("an already-aborted signal sends nothing", async () => {
    await withClient([say("never")], async (client, server) => {
      await failsWith(
        client.complete(request(ask("hi"), { signal: AbortSignal.abort() })),
        "model-cancelled",
      );
      assert.equal(server.requests.length, 0);
    });
  });
});

describe("retry-after parsing", () => {
  test("milliseconds, seconds, a date, and nonsense", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "250" }), now), 250);
    assert.equal(retryAfterMs(new Headers({ "retry-after": "1.5" }), now), 1500);
    assert.equal(
      retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now),
      10_000,
    );
    assert.equal(retryAfterMs(new Headers({ "retry-after": "soon" }), now), undefined);
    assert.equal(retryAfterMs(new Headers(), now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });
});
