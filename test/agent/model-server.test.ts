/**
 * The scripted model server itself, spoken to with plain fetch: replies, OpenAI's validation
 * errors, the prefix-cache numbers, and every fault it can play.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  cachedTokensOf,
  callTools,
  estimateTokens,
  say,
  serializePrompt,
  startModelServer,
  type ChatRequest,
  type ContextShape,
  type ModelServer,
  type Turn,
} from "../support/model-server.ts";

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function post(server: ModelServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json } satisfies Answer;
}

/** `error.message` of an OpenAI-shaped error body. */
function errorMessage(answer: Answer): string {
  const body = answer.json as { error?: { message?: string } };
  return body.error?.message ?? "";
}

const user = (content: string) => ({ role: "user", content });
const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: "gpt-test",
  messages,
  ...extra,
});

async function withServer<T>(script: Turn[], run: (server: ModelServer) => Promise<T>): Promise<T> {
  const server = await startModelServer(script);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

describe("replies", () => {
  test("a text reply in OpenAI's shape, with usage", async () => {
    await withServer([say("hello")], async (server) => {
      const answer = await post(server, chat([user("hi")]));
      assert.equal(answer.status, 200);
      const body = answer.json as {
        model: string;
        choices: { message: { role: string; content: string }; finish_reason: string }[];
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      assert.equal(body.model, "gpt-test");
      assert.deepEqual(body.choices[0]?.message.role, "assistant");
      assert.equal(body.choices[0]?.message.content, "hello");
      assert.equal(body.choices[0]?.finish_reason, "stop");
      const prompt = serializePrompt({ messages: [user("hi")] as ChatRequest["messages"] });
      assert.equal(body.usage.prompt_tokens, estimateTokens(prompt));
      assert.equal(body.usage.completion_tokens, estimateTokens("hello"));
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]?.turn, 0);
      assert.equal(server.requests[0]?.headers.authorization, "Bearer sk-test");
    });
  });

  test("tool calls keep broken argument text verbatim and get predictable ids", async () => {
    const script = [
      callTools([
        { name: "bash", arguments: '{"command":"ls"}' },
        { name: "read", arguments: '{"path": "a.ts"' },
      ]),
    ];
    await withServer(script, async (server) => {
      const answer = await post(server, chat([user("go")]));
      const body = answer.json as {
        choices: {
          message: { content: null; tool_calls: { id: string; function: { arguments: string } }[] };
          finish_reason: string;
        }[];
      };
      const choice = body.choices[0];
      assert.equal(choice?.finish_reason, "tool_calls");
      assert.equal(choice?.message.content, null);
      assert.deepEqual(
        choice?.message.tool_calls.map((call) => [call.id, call.function.arguments]),
        [
          ["call_0_0", '{"command":"ls"}'],
          ["call_0_1", '{"path": "a.ts"'],
        ],
      );
    });
  });

  test("reasoning tokens count in the completion; usage shapes can be DeepSeek's or absent", async () => {
    const script: Turn[] = [
      { kind: "reply", content: "ok", reasoningTokens: 50, completionTokens: 10 },
      { kind: "reply", content: "ok", usageShape: "deepseek" },
      { kind: "reply", content: "ok", usageShape: "none" },
    ];
    await withServer(script, async (server) => {
      const first = (await post(server, chat([user("a")]))).json as {
        usage: {
          completion_tokens: number;
          completion_tokens_details: { reasoning_tokens: number };
        };
      };
      assert.equal(first.usage.completion_tokens, 60);
      assert.equal(first.usage.completion_tokens_details.reasoning_tokens, 50);
      const second = (await post(server, chat([user("a")]))).json as { usage: object };
      assert.ok("prompt_cache_hit_tokens" in second.usage);
      assert.ok(!("prompt_tokens_details" in second.usage));
      const third = (await post(server, chat([user("a")]))).json as object;
      assert.ok(!("usage" in third));
    });
  });

  test("a script function sees the request and its index", async () => {
    const seen: [number, string][] = [];
    const server = await startModelServer((request, index) => {
      seen.push([index, String(request.messages[0]?.content)]);
      return say(`turn ${index}`);
    });
    try {
      await post(server, chat([user("one")]));
      const answer = await post(server, chat([user("two")]));
      assert.deepEqual(seen, [
        [0, "one"],
        [1, "two"],
      ]);
      assert.match(answer.text, /turn 1/);
    } finally {
      await server.close();
    }
  });

  test("a script that runs out answers a 400 naming the missing turn", async () => {
    await withServer([say("only")], async (server) => {
      await post(server, chat([user("a")]));
      const answer = await post(server, chat([user("b")]));
      assert.equal(answer.status, 400);
      assert.match(errorMessage(answer), /no turn 1 \(it has 1\)/);
    });
  });

  test("the recorded headers include the SDK's retry count when sent", async () => {
    await withServer([say("a")], async (server) => {
      await post(server, chat([user("a")]), { "x-stainless-retry-count": "2" });
      assert.equal(server.requests[0]?.headers["x-stainless-retry-count"], "2");
    });
  });

  test("with an apiKey option, any other key gets OpenAI's 401", async () => {
    const server = await startModelServer([say("a")], { apiKey: "sk-right" });
    try {
      const wrong = await post(server, chat([user("a")]));
      assert.equal(wrong.status, 401);
      assert.match(errorMessage(wrong), /Incorrect API key provided/);
      const right = await post(server, chat([user("a")]), { authorization: "Bearer sk-right" });
      assert.equal(right.status, 200);
    } finally {
      await server.close();
    }
  });
});

describe("validation: OpenAI's 400s", () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer(() => say("fine"));
  });
  after(() => server.close());

  async function rejected(body: unknown): Promise<string> {
    const answer = await post(server, body);
    assert.equal(answer.status, 400, `expected a 400 for ${JSON.stringify(body)}`);
    assert.equal(answer.headers.get("x-should-retry"), "false");
    const error = (answer.json as { error: { type: string } }).error;
    assert.equal(error.type, "invalid_request_error");
    return errorMessage(answer);
  }

  const assistantCalls = (...ids: string[]) => ({
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({
      id,
      type: "function",
      function: { name: "bash", arguments: "{}" },
    })),
  });
  const toolReply = (id: string) => ({ role: "tool", tool_call_id: id, content: "done" });

  test("a well-formed round with parallel calls is accepted", async () => {
    const answer = await post(
      server,
      chat([
        { role: "system", content: "be brief" },
        user("go"),
        assistantCalls("a", "b"),
        toolReply("b"),
        toolReply("a"),
        { role: "assistant", content: "done" },
        user("thanks"),
      ]),
    );
    assert.equal(answer.status, 200, answer.text);
  });

  test("a body that is not JSON", async () => {
    assert.match(await rejected("{not json"), /could not parse the JSON body/);
  });

  test("stream: true is refused and says so", async () => {
    assert.match(
      await rejected(chat([user("a")], { stream: true })),
      /stream: true is not supported/,
    );
  });

  test("missing model, missing or empty messages", async () => {
    assert.equal(await rejected({ messages: [user("a")] }), "you must provide a model parameter");
    assert.equal(await rejected({ model: "m" }), "Missing required parameter: 'messages'.");
    assert.equal(await rejected(chat([])), "[] is too short - 'messages'");
  });

  test("an unknown role, a missing content", async () => {
    assert.match(
      await rejected(chat([{ role: "robot", content: "x" }])),
      /Invalid value: '"robot"'/,
    );
    assert.equal(
      await rejected(chat([{ role: "user" }])),
      "Missing required parameter: 'messages[0].content'.",
    );
    assert.equal(
      await rejected(chat([user("a"), { role: "assistant", content: null }])),
      "Invalid value for 'content': expected a string, got null.",
    );
  });

  test("tool calls left unanswered before the next message", async () => {
    const message = await rejected(
      chat([user("go"), assistantCalls("a", "b"), toolReply("a"), user("?")]),
    );
    assert.equal(
      message,
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: b",
    );
  });

  test("tool calls left unanswered at the end", async () => {
    assert.match(
      await rejected(chat([user("go"), assistantCalls("a")])),
      /did not have response messages: a$/,
    );
  });

  test("an orphan tool message, and a tool message after another turn", async () => {
    const orphan =
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    assert.equal(await rejected(chat([user("go"), toolReply("x")])), orphan);
    assert.equal(
      await rejected(chat([user("go"), assistantCalls("a"), toolReply("a"), toolReply("a")])),
      orphan,
    );
    assert.equal(await rejected(chat([user("go"), assistantCalls("a"), toolReply("zz")])), orphan);
  });

  test("malformed tool calls and tool messages", async () => {
    assert.equal(
      await rejected(chat([user("go"), { role: "tool", content: "x" }])),
      "Missing required parameter: 'messages[1].tool_call_id'.",
    );
    assert.match(
      await rejected(chat([user("go"), { role: "assistant", tool_calls: [] }])),
      /empty array/,
    );
    assert.equal(
      await rejected(
        chat([
          user("go"),
          {
            role: "assistant",
            tool_calls: [{ id: "a", type: "function", function: { name: "bash" } }],
          },
        ]),
      ),
      "Missing required parameter: 'messages[1].tool_calls[0].function.arguments'.",
    );
    assert.match(
      await rejected(
        chat([
          user("go"),
          {
            role: "assistant",
            tool_calls: [{ id: "a", type: "function", function: { name: "bash", arguments: {} } }],
          },
        ]),
      ),
      /Invalid type for 'messages\[1\]\.tool_calls\[0\]\.function\.arguments': expected a string/,
    );
  });

  const tool = (name: string, parameters: unknown) => ({
    type: "function",
    function: { name, description: "d", parameters },
  });

  test("tools: empty, bad names, duplicate names", async () => {
    assert.equal(await rejected(chat([user("a")], { tools: [] })), "[] is too short - 'tools'");
    assert.match(
      await rejected(chat([user("a")], { tools: [tool("has space", { type: "object" })] })),
      /does not match pattern/,
    );
    assert.match(
      await rejected(
        chat([user("a")], {
          tools: [tool("x", { type: "object" }), tool("x", { type: "object" })],
        }),
      ),
      /duplicate function name 'x'/,
    );
  });

  test("tools: parameters must be a JSON schema of type object", async () => {
    assert.equal(
      await rejected(chat([user("a")], { tools: [tool("bash", { type: "string" })] })),
      `Invalid schema for function 'bash': schema must be a JSON Schema of 'type: "object"', got 'type: "string"'.`,
    );
    assert.match(
      await rejected(chat([user("a")], { tools: [tool("bash", "nope")] })),
      /Invalid schema for function 'bash': "nope" is not of type 'object'/,
    );
    assert.match(
      await rejected(
        chat([user("a")], {
          tools: [tool("bash", { type: "object", properties: { command: { type: "strin" } } })],
        }),
      ),
      /In context=\('properties', 'command'\), "strin" is not valid/,
    );
    assert.match(
      await rejected(
        chat([user("a")], {
          tools: [tool("bash", { type: "object", properties: { command: 5 } })],
        }),
      ),
      /is not of type 'object', 'boolean'/,
    );
  });

  test("parallel_tool_calls only with tools", async () => {
    assert.match(
      await rejected(chat([user("a")], { parallel_tool_calls: true })),
      /only allowed when 'tools' are specified/,
    );
  });

  test("rejected requests are recorded and consume no turn", async () => {
    const before = server.requests.length;
    await rejected(chat([]));
    const record = server.requests[before];
    assert.equal(record?.turn, undefined);
    assert.equal(record?.rejected, "[] is too short - 'messages'");
  });

  test("an unknown path answers OpenAI's 404", async () => {
    const response = await fetch(`${server.url}/completions`, { method: "POST", body: "{}" });
    assert.equal(response.status, 404);
    assert.match(await response.text(), /Invalid URL \(POST \/v1\/completions\)/);
  });
});

describe("the prefix-cache rule", () => {
  test("pure: under 1024 common tokens counts nothing; above, multiples of 128", () => {
    const long = "x".repeat(4 * 2000);
    assert.equal(cachedTokensOf(undefined, long), 0);
    assert.equal(cachedTokensOf("x".repeat(4 * 1023), long), 0);
    assert.equal(cachedTokensOf("x".repeat(4 * 1024), long), 1024);
    assert.equal(cachedTokensOf("x".repeat(4 * 1300), long), 1280);
    assert.equal(cachedTokensOf(long, long), 1920);
    assert.equal(cachedTokensOf(`${"x".repeat(4 * 1500)}y`, `${"x".repeat(4 * 1500)}z`), 1408);
  });

  test("served: the second request under the same key shares the prefix; another key does not", async () => {
    const big = "a".repeat(8000); // 2000 tokens of shared prefix
    const first = chat([{ role: "system", content: big }, user("one")], {
      prompt_cache_key: "run-1",
    });
    const second = chat(
      [
        { role: "system", content: big },
        user("one"),
        { role: "assistant", content: "x" },
        user("two"),
      ],
      {
        prompt_cache_key: "run-1",
      },
    );
    const other = { ...second, prompt_cache_key: "run-2" };
    await withServer([say("x"), say("y"), say("z"), say("w")], async (server) => {
      type Usage = { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
      const usage = async (body: unknown) =>
        ((await post(server, body)).json as { usage: Usage }).usage;
      assert.equal((await usage(first)).prompt_tokens_details.cached_tokens, 0);
      const hit = await usage(second);
      const common = serializePrompt(first as ChatRequest).length - "]".length; // all but the closing bracket
      const expected = Math.floor(Math.floor(common / 4) / 128) * 128;
      assert.ok(expected >= 1024);
      assert.equal(hit.prompt_tokens_details.cached_tokens, expected);
      assert.equal(hit.prompt_tokens, estimateTokens(serializePrompt(second as ChatRequest)));
      assert.equal((await usage(other)).prompt_tokens_details.cached_tokens, 0);
      // A changed tool definition changes the very first bytes: nothing is cached.
      const withTools = {
        ...second,
        tools: [{ type: "function", function: { name: "t", parameters: { type: "object" } } }],
      };
      assert.equal((await usage(withTools)).prompt_tokens_details.cached_tokens, 0);
    });
  });
});

describe("faults", () => {
  test("429 with retry-after and retry-after-ms", async () => {
    await withServer(
      [{ kind: "rate-limit", retryAfter: 2, retryAfterMs: 1500 }],
      async (server) => {
        const answer = await post(server, chat([user("a")]));
        assert.equal(answer.status, 429);
        assert.equal(answer.headers.get("retry-after"), "2");
        assert.equal(answer.headers.get("retry-after-ms"), "1500");
        assert.equal(
          (answer.json as { error: { code: string } }).error.code,
          "rate_limit_exceeded",
        );
      },
    );
  });

  test("the fixed error bodies", async () => {
    const cases: [Turn, number, RegExp][] = [
      [{ kind: "server-error", status: 500 }, 500, /The server had an error/],
      [{ kind: "server-error", status: 503 }, 503, /overloaded/],
      [{ kind: "server-error", status: 502 }, 502, /<title>502 Bad Gateway<\/title>/],
      [{ kind: "invalid-key" }, 401, /"code":"invalid_api_key"/],
      [{ kind: "model-not-found" }, 404, /The model `gpt-test` does not exist/],
      [{ kind: "quota-exhausted" }, 429, /"code":"insufficient_quota"/],
      [
        { kind: "tokens-per-minute" },
        429,
        /Request too large for gpt-test .* tokens per min \(TPM\)/,
      ],
      [{ kind: "content-policy" }, 400, /"code":"content_policy_violation"/],
      [{ kind: "content-policy", provider: "azure" }, 400, /"code":"content_filter"/],
      [{ kind: "error", status: 418, body: "teapot" }, 418, /^teapot$/],
    ];
    await withServer(
      cases.map(([turn]) => turn),
      async (server) => {
        for (const [turn, status, pattern] of cases) {
          const answer = await post(server, chat([user("a")]));
          assert.equal(answer.status, status, JSON.stringify(turn));
          assert.match(answer.text, pattern);
        }
      },
    );
  });

  test("a finish_reason content_filter reply and a refusal", async () => {
    const script: Turn[] = [
      { kind: "reply", content: "", finishReason: "content_filter" },
      { kind: "reply", content: null, refusal: "I can't help with that." },
    ];
    await withServer(script, async (server) => {
      assert.match(
        (await post(server, chat([user("a")]))).text,
        /"finish_reason":"content_filter"/,
      );
      assert.match(
        (await post(server, chat([user("a")]))).text,
        /"refusal":"I can't help with that."/,
      );
    });
  });

  test("context too long in each provider's shape", async () => {
    const expected: Record<ContextShape, RegExp> = {
      openai: /maximum context length is 128000 tokens.*"code":"context_length_exceeded"/,
      vllm: /^\{"object":"error","message":"This model's maximum context length is 32768 tokens.*"code":400\}$/,
      deepseek: /maximum context length is 65536 tokens.*"code":"invalid_request_error"/,
      "llama.cpp":
        /exceeds the available context size.*"type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096/,
      anthropic:
        /^\{"type":"error","error":\{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"\}\}$/,
      gemini:
        /^\[\{"error":\{"code":400,"message":"The input token count \(1200000\) exceeds the maximum number of tokens allowed \(1048576\)\."/,
    };
    const shapes = Object.keys(expected) as ContextShape[];
    await withServer(
      shapes.map((shape) => ({ kind: "context-too-long", shape })),
      async (server) => {
        for (const shape of shapes) {
          const answer = await post(server, chat([user("a")]));
          assert.equal(answer.status, 400, shape);
          assert.match(answer.text, expected[shape], shape);
        }
      },
    );
  });

  test("a connection reset destroys the socket without an answer", async () => {
    await withServer([{ kind: "reset" }], async (server) => {
      await assert.rejects(post(server, chat([user("a")])), TypeError);
      assert.equal(server.requests.length, 1);
    });
  });

  test("a slow response is held back by delayMs", async () => {
    await withServer([{ kind: "reply", content: "late", delayMs: 150 }], async (server) => {
      const start = performance.now();
      const answer = await post(server, chat([user("a")]));
      assert.equal(answer.status, 200);
      assert.ok(performance.now() - start >= 140);
    });
  });

  test("close() does not wait for a response still being held back", async () => {
    const server = await startModelServer([{ kind: "reply", content: "never", delayMs: 60_000 }]);
    const pending = post(server, chat([user("a")])).catch((error: unknown) => error);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const start = performance.now();
    await server.close();
    assert.ok(performance.now() - start < 1000);
    assert.ok((await pending) instanceof Error);
  });
});
