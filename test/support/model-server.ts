/**
 * A scripted OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 that
 * answers `POST /v1/chat/completions` from a script of turns. It checks what the harness sends
 * the way OpenAI does (a 400 with OpenAI's wording when a message, a tool call pairing or a tool
 * schema is wrong), reports `usage` with OpenAI's prefix-cache rule, and can play every fault a
 * real endpoint produces. It is not a model: it never reads the meaning of a request.
 *
 * Non-streaming only (`stream: true` is refused with a 400 that says so).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

// ---------------------------------------------------------------------------------------------
// What arrives (the wire format, loosely typed: the server checks it before the script sees it)

export interface WireToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface WireTool {
  type: string;
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  parallel_tool_calls?: boolean;
  prompt_cache_key?: string;
  stream?: boolean;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// The script

export interface ScriptedToolCall {
  name: string;
  /** Sent verbatim: may be deliberately broken JSON. */
  arguments: string;
  /** Default: `call_<turn>_<position>`. */
  id?: string;
}

/** The context-overflow error bodies of the providers in context.md §3.2. */
export type ContextShape = "openai" | "vllm" | "deepseek" | "llama.cpp" | "anthropic" | "gemini";

export type TurnBody =
  /** An assistant reply. `finishReason` defaults to `tool_calls` when there are calls, else `stop`. */
  | {
      kind: "reply";
      content?: string | null;
      toolCalls?: ScriptedToolCall[];
      finishReason?: string;
      /** Sets `message.refusal` (OpenAI's structured refusal). */
      refusal?: string;
      /** Added to the completion tokens (reasoning is part of the completion). */
      reasoningTokens?: number;
      /** Overrides the estimate of the visible completion's tokens. */
      completionTokens?: number;
      /** `openai` (default): `prompt_tokens_details.cached_tokens`; `deepseek`:
       * `prompt_cache_hit_tokens`/`prompt_cache_miss_tokens`; `none`: no usage at all. */
      usageShape?: "openai" | "deepseek" | "none";
    }
  /** 429 `rate_limit_exceeded` with `retry-after` (seconds) and/or `retry-after-ms`. */
  | { kind: "rate-limit"; retryAfter?: number; retryAfterMs?: number }
  /** 429 "Request too large … tokens per min (TPM)": a rate limit, not a context overflow. */
  | { kind: "tokens-per-minute" }
  /** 500 and 503 with OpenAI's bodies, 502 with a proxy's HTML page. */
  | { kind: "server-error"; status: 500 | 502 | 503; retryAfter?: number }
  /** 401 `invalid_api_key`. */
  | { kind: "invalid-key" }
  /** 404 `model_not_found` for the requested model. */
  | { kind: "model-not-found" }
  /** 429 `insufficient_quota`: billing, not a rate limit; must not be retried. */
  | { kind: "quota-exhausted" }
  /** 400 `content_policy_violation` (OpenAI) or `content_filter` (Azure). */
  | { kind: "content-policy"; provider?: "openai" | "azure" }
  /** 400 context overflow in one provider's shape; `limit`/`requested` go into its text. */
  | { kind: "context-too-long"; shape: ContextShape; limit?: number; requested?: number }
  /** The socket is destroyed without an answer. */
  | { kind: "reset" }
  /** Anything else: a status, a body (a string is sent as text/plain) and headers. */
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> };

/** One answer. `delayMs` holds it back first (a slow server; the client may time out). */
export type Turn = TurnBody & { delayMs?: number };

export type Script =
  readonly Turn[] | ((request: ChatRequest, index: number) => Turn | Promise<Turn>);

export function say(content: string): Turn {
  return { kind: "reply", content };
}

export function callTools(calls: ScriptedToolCall[], content: string | null = null): Turn {
  return { kind: "reply", content, toolCalls: calls };
}

// ---------------------------------------------------------------------------------------------
// What is recorded

export interface RecordedRequest {
  /** The parsed body (`{}` when it was not JSON; see `raw`). */
  body: ChatRequest;
  raw: string;
  /** Lower-case header names, as node:http gives them (`authorization`, `x-stainless-retry-count`). */
  headers: IncomingHttpHeaders;
  /** `performance.now()` when the request arrived. */
  at: number;
  /** The script turn that answered it; undefined when it was rejected before the script. */
  turn?: number;
  /** OpenAI's error text when the request was rejected as invalid. */
  rejected?: string;
  /** The numbers reported with a reply, in OpenAI's shape whatever `usageShape` sent. */
  usage?: ReportedUsage;
}

export interface ReportedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export interface ModelServer {
  /** The base URL, ending in `/v1`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /** When set, any other bearer token gets OpenAI's 401. */
  apiKey?: string;
}

// ---------------------------------------------------------------------------------------------
// Token accounting (deterministic, so tests can compute the numbers)

/** The server's token estimate: one token per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The prompt as the cache sees it: tools first, then the messages, in order. */
export function serializePrompt(request: Pick<ChatRequest, "tools" | "messages">): string {
  return JSON.stringify(request.tools ?? []) + JSON.stringify(request.messages);
}

/**
 * OpenAI's prefix-cache rule: the tokens of the common prefix with the previous request under the
 * same `prompt_cache_key`, counted only from 1024 tokens on, in steps of 128.
 */
export function cachedTokensOf(previous: string | undefined, current: string): number {
  if (previous === undefined) return 0;
  let chars = 0;
  const end = Math.min(previous.length, current.length);
  while (chars < end && previous.charCodeAt(chars) === current.charCodeAt(chars)) chars++;
  const tokens = Math.floor(chars / 4);
  if (tokens < 1024) return 0;
  return Math.min(Math.floor(tokens / 128) * 128, estimateTokens(current));
}

// ---------------------------------------------------------------------------------------------
// The server

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const UNSUPPORTED_STREAM =
  "scripted model server: stream: true is not supported here; send a non-streaming request.";

export async function startModelServer(
  script: Script,
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const cache = new Map<string, string>();
  const closing = new AbortController();
  let turns = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      handle(req.method ?? "", req.url ?? "", req.headers, raw, res, req.socket).catch(
        (error: unknown) => {
          if (!res.headersSent) send(res, { status: 500, body: openAiError(String(error)) });
        },
      );
    });
  });

  async function handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    raw: string,
    res: ServerResponse,
    socket: Socket,
  ): Promise<void> {
    const record: RecordedRequest = {
      body: {} as ChatRequest,
      raw,
      headers,
      at: performance.now(),
    };
    requests.push(record);

    if (method !== "POST" || path.replace(/\?.*$/, "") !== "/v1/chat/completions") {
      return reject(404, `Invalid URL (${method} ${path})`);
    }
    if (options.apiKey !== undefined && headers.authorization !== `Bearer ${options.apiKey}`) {
      const answer = fault({ kind: "invalid-key" }, record.body);
      record.rejected = "invalid api key";
      return send(res, answer);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return reject(
        400,
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      );
    }
    if (isObject(body)) record.body = body as ChatRequest;
    const invalid = validateRequest(body);
    if (invalid) return reject(400, invalid.message, invalid.param, invalid.code);
    const request = body as ChatRequest;

    const index = turns++;
    record.turn = index;
    let turn: Turn | undefined;
    try {
      turn = typeof script === "function" ? await script(request, index) : script[index];
    } catch (error) {
      return reject(
        400,
        `scripted model server: the script threw on turn ${index}: ${String(error)}`,
      );
    }
    if (!turn) {
      const has =
        typeof script === "function" ? "the script returned nothing" : `it has ${script.length}`;
      return reject(400, `scripted model server: the script has no turn ${index} (${has})`);
    }

    if (turn.delayMs) {
      try {
        await sleep(turn.delayMs, undefined, { signal: closing.signal });
      } catch {
        return;
      }
      if (socket.destroyed) return;
    }
    if (turn.kind === "reset") {
      socket.destroy();
      return;
    }
    if (turn.kind !== "reply") return send(res, fault(turn, request));

    const prompt = serializePrompt(request);
    const key = request.prompt_cache_key ?? "";
    const cached = cachedTokensOf(cache.get(key), prompt);
    cache.set(key, prompt);
    const { body: reply, usage } = completion(turn, request, index, prompt, cached);
    record.usage = usage;
    return send(res, { status: 200, body: reply });

    function reject(status: number, message: string, param: string | null = null, code = null) {
      record.rejected = message;
      send(res, {
        status,
        body: openAiError(message, "invalid_request_error", param, code),
        headers: { "x-should-retry": "false" },
      });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  const type =
    typeof answer.body !== "string"
      ? "application/json"
      : text.startsWith("<")
        ? "text/html"
        : "text/plain";
  res.writeHead(answer.status, {
    "content-type": type,
    "x-request-id": `req_scripted_${Math.random().toString(16).slice(2, 10)}`,
    ...answer.headers,
  });
  res.end(text);
}

function completion(
  turn: Extract<TurnBody, { kind: "reply" }>,
  request: ChatRequest,
  index: number,
  prompt: string,
  cached: number,
): { body: unknown; usage: ReportedUsage | undefined } {
  const calls = (turn.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const content = turn.content === undefined ? (calls.length ? null : "") : turn.content;
  const visible =
    (content ?? "") + calls.map((call) => call.function.name + call.function.arguments).join("");
  const reasoning = turn.reasoningTokens ?? 0;
  const completionTokens = (turn.completionTokens ?? estimateTokens(visible)) + reasoning;
  const promptTokens = estimateTokens(prompt);
  const usage: ReportedUsage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
  const shape = turn.usageShape ?? "openai";
  const wireUsage =
    shape === "none"
      ? undefined
      : shape === "deepseek"
        ? {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            prompt_cache_hit_tokens: cached,
            prompt_cache_miss_tokens: promptTokens - cached,
            completion_tokens_details: { reasoning_tokens: reasoning },
          }
        : {
            ...usage,
            prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: reasoning,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          };
  const body = {
    id: `chatcmpl-scripted-${index}`,
    object: "chat.completion",
    created: 1_700_000_000 + index,
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          refusal: turn.refusal ?? null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: turn.finishReason ?? (calls.length ? "tool_calls" : "stop"),
      },
    ],
    ...(wireUsage ? { usage: wireUsage } : {}),
    system_fingerprint: "fp_scripted",
  };
  return { body, usage: wireUsage ? usage : undefined };
}

// ---------------------------------------------------------------------------------------------
// Faults: the bodies real endpoints send

function openAiError(
  message: string,
  type = "invalid_request_error",
  param: string | null = null,
  code: string | null = null,
): unknown {
  return { error: { message, type, param, code } };
}

function fault(
  turn: Exclude<TurnBody, { kind: "reply" } | { kind: "reset" }>,
  request: ChatRequest,
): Answer {
  switch (turn.kind) {
    case "rate-limit": {
      const headers: Record<string, string> = {};
      if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
      if (turn.retryAfterMs !== undefined) headers["retry-after-ms"] = String(turn.retryAfterMs);
      return {
        status: 429,
        headers,
        body: openAiError(
          `Rate limit reached for ${request.model} in organization org-scripted on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in ${turn.retryAfter ?? 1}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          "requests",
          null,
          "rate_limit_exceeded",
        ),
      };
    }
    case "tokens-per-minute":
      return {
        status: 429,
        body: openAiError(
          `Request too large for ${request.model} in organization org-scripted on tokens per min (TPM): Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          "tokens",
          null,
          "rate_limit_exceeded",
        ),
      };
    case "server-error": {
      const headers: Record<string, string> = {};
      if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
      if (turn.status === 502) {
        return {
          status: 502,
          headers,
          body: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n",
        };
      }
      const message =
        turn.status === 503
          ? "The engine is currently overloaded, please try again later."
          : "The server had an error while processing your request. Sorry about that!";
      return { status: turn.status, headers, body: openAiError(message, "server_error") };
    }
    case "invalid-key":
      return {
        status: 401,
        body: openAiError(
          "Incorrect API key provided: sk-scrip***********tted. You can find your API key at https://platform.openai.com/account/api-keys.",
          "invalid_request_error",
          null,
          "invalid_api_key",
        ),
      };
    case "model-not-found":
      return {
        status: 404,
        body: openAiError(
          `The model \`${request.model}\` does not exist or you do not have access to it.`,
          "invalid_request_error",
          null,
          "model_not_found",
        ),
      };
    case "quota-exhausted":
      return {
        status: 429,
        body: openAiError(
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
          "insufficient_quota",
          null,
          "insufficient_quota",
        ),
      };
    case "content-policy":
      return turn.provider === "azure"
        ? {
            status: 400,
            body: openAiError(
              "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
              "invalid_request_error",
              "prompt",
              "content_filter",
            ),
          }
        : {
            status: 400,
            body: openAiError(
              "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
              "invalid_request_error",
              null,
              "content_policy_violation",
            ),
          };
    case "context-too-long":
      return contextTooLong(turn.shape, turn.limit, turn.requested);
    case "error":
      return { status: turn.status, body: turn.body, headers: turn.headers };
  }
}

function contextTooLong(shape: ContextShape, limit?: number, requested?: number): Answer {
  switch (shape) {
    case "openai":
      return {
        status: 400,
        body: openAiError(
          `This model's maximum context length is ${limit ?? 128000} tokens. However, your messages resulted in ${requested ?? 130123} tokens. Please reduce the length of the messages.`,
          "invalid_request_error",
          "messages",
          "context_length_exceeded",
        ),
      };
    case "vllm": {
      const total = requested ?? 33000;
      return {
        status: 400,
        body: {
          object: "error",
          message: `This model's maximum context length is ${limit ?? 32768} tokens. However, you requested ${total} tokens (${total - 1000} in the messages, 1000 in the completion). Please reduce the length of the messages or completion.`,
          type: "BadRequestError",
          param: null,
          code: 400,
        },
      };
    }
    case "deepseek": {
      const total = requested ?? 70000;
      return {
        status: 400,
        body: openAiError(
          `This model's maximum context length is ${limit ?? 65536} tokens. However, you requested ${total} tokens (${total} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`,
          "invalid_request_error",
          null,
          "invalid_request_error",
        ),
      };
    }
    case "llama.cpp":
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: "the request exceeds the available context size, try increasing it",
            type: "exceed_context_size_error",
            n_prompt_tokens: requested ?? 5000,
            n_ctx: limit ?? 4096,
          },
        },
      };
    case "anthropic":
      return {
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: `prompt is too long: ${requested ?? 215000} tokens > ${limit ?? 200000} maximum`,
          },
        },
      };
    case "gemini":
      // Gemini's OpenAI-compatible endpoint wraps its error in a list.
      return {
        status: 400,
        body: [
          {
            error: {
              code: 400,
              message: `The input token count (${requested ?? 1200000}) exceeds the maximum number of tokens allowed (${limit ?? 1048576}).`,
              status: "INVALID_ARGUMENT",
            },
          },
        ],
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Validation: what OpenAI rejects, with its wording

interface Invalid {
  message: string;
  param: string | null;
  code: null;
}

const ROLES = ["system", "developer", "user", "assistant", "tool", "function"];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SCHEMA_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a decimal";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function invalid(message: string, param: string | null = null): Invalid {
  return { message, param, code: null };
}

/** Checks a request body as OpenAI does; undefined when it is acceptable. */
export function validateRequest(body: unknown): Invalid | undefined {
  if (!isObject(body)) {
    return invalid(`Invalid type for body: expected an object, but got ${typeName(body)} instead.`);
  }
  if (body.stream === true) return invalid(UNSUPPORTED_STREAM, "stream");
  if (typeof body.model !== "string" || body.model === "") {
    return invalid("you must provide a model parameter");
  }
  const { messages, tools } = body;
  if (messages === undefined) return invalid("Missing required parameter: 'messages'.", "messages");
  if (!Array.isArray(messages)) {
    return invalid(
      `Invalid type for 'messages': expected an array of objects, but got ${typeName(messages)} instead.`,
      "messages",
    );
  }
  if (messages.length === 0) return invalid("[] is too short - 'messages'", "messages");
  for (const [index, message] of messages.entries()) {
    const problem = validateMessage(message, index);
    if (problem) return problem;
  }
  const pairing = validatePairing(messages as WireMessage[]);
  if (pairing) return pairing;

  if (tools !== undefined) {
    const problem = validateTools(tools);
    if (problem) return problem;
  } else if (body.parallel_tool_calls !== undefined) {
    return invalid(
      "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
      "parallel_tool_calls",
    );
  }
  if (body.prompt_cache_key !== undefined && typeof body.prompt_cache_key !== "string") {
    return invalid(
      `Invalid type for 'prompt_cache_key': expected a string, but got ${typeName(body.prompt_cache_key)} instead.`,
      "prompt_cache_key",
    );
  }
  return undefined;
}

function validateContent(value: unknown, param: string, nullable: boolean): Invalid | undefined {
  if (typeof value === "string" || (nullable && value === null)) return undefined;
  if (Array.isArray(value)) {
    for (const [index, part] of value.entries()) {
      if (!isObject(part) || typeof part.type !== "string") {
        return invalid(
          `Missing required parameter: '${param}[${index}].type'.`,
          `${param}[${index}].type`,
        );
      }
      if (part.type === "text" && typeof part.text !== "string") {
        return invalid(
          `Missing required parameter: '${param}[${index}].text'.`,
          `${param}[${index}].text`,
        );
      }
    }
    return undefined;
  }
  return invalid(
    `Invalid type for '${param}': expected one of a string or array of objects, but got ${typeName(value)} instead.`,
    param,
  );
}

function validateMessage(message: unknown, index: number): Invalid | undefined {
  const at = `messages[${index}]`;
  if (!isObject(message)) {
    return invalid(
      `Invalid type for '${at}': expected an object, but got ${typeName(message)} instead.`,
      at,
    );
  }
  if (message.role === undefined)
    return invalid(`Missing required parameter: '${at}.role'.`, `${at}.role`);
  if (typeof message.role !== "string" || !ROLES.includes(message.role)) {
    return invalid(
      `Invalid value: '${JSON.stringify(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
      `${at}.role`,
    );
  }
  switch (message.role) {
    case "assistant":
      return validateAssistant(message, index);
    case "tool":
      if (message.tool_call_id === undefined) {
        return invalid(`Missing required parameter: '${at}.tool_call_id'.`, `${at}.tool_call_id`);
      }
      if (typeof message.tool_call_id !== "string") {
        return invalid(
          `Invalid type for '${at}.tool_call_id': expected a string, but got ${typeName(message.tool_call_id)} instead.`,
          `${at}.tool_call_id`,
        );
      }
      if (message.content === undefined) {
        return invalid(`Missing required parameter: '${at}.content'.`, `${at}.content`);
      }
      return validateContent(message.content, `${at}.content`, false);
    default:
      if (message.content === undefined) {
        return invalid(`Missing required parameter: '${at}.content'.`, `${at}.content`);
      }
      return validateContent(message.content, `${at}.content`, false);
  }
}

function validateAssistant(message: Record<string, unknown>, index: number): Invalid | undefined {
  const at = `messages[${index}]`;
  const calls = message.tool_calls;
  if (message.content !== undefined) {
    const problem = validateContent(message.content, `${at}.content`, true);
    if (problem) return problem;
  }
  if (calls === undefined) {
    if (message.content === undefined || message.content === null) {
      return invalid(
        "Invalid value for 'content': expected a string, got null.",
        `messages.[${index}].content`,
      );
    }
    return undefined;
  }
  if (!Array.isArray(calls)) {
    return invalid(
      `Invalid type for '${at}.tool_calls': expected an array of objects, but got ${typeName(calls)} instead.`,
      `${at}.tool_calls`,
    );
  }
  if (calls.length === 0) {
    return invalid(
      `Invalid '${at}.tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
      `${at}.tool_calls`,
    );
  }
  for (const [position, call] of calls.entries()) {
    const here = `${at}.tool_calls[${position}]`;
    if (!isObject(call)) {
      return invalid(
        `Invalid type for '${here}': expected an object, but got ${typeName(call)} instead.`,
        here,
      );
    }
    for (const field of ["id", "type", "function"]) {
      if (call[field] === undefined) {
        return invalid(`Missing required parameter: '${here}.${field}'.`, `${here}.${field}`);
      }
    }
    if (typeof call.id !== "string") {
      return invalid(
        `Invalid type for '${here}.id': expected a string, but got ${typeName(call.id)} instead.`,
        `${here}.id`,
      );
    }
    if (call.type !== "function") {
      return invalid(
        `Invalid value: '${String(call.type)}'. Supported values are: 'function' and 'custom'.`,
        `${here}.type`,
      );
    }
    const fn = call.function;
    if (!isObject(fn)) {
      return invalid(
        `Invalid type for '${here}.function': expected an object, but got ${typeName(fn)} instead.`,
        `${here}.function`,
      );
    }
    for (const field of ["name", "arguments"]) {
      if (fn[field] === undefined) {
        return invalid(
          `Missing required parameter: '${here}.function.${field}'.`,
          `${here}.function.${field}`,
        );
      }
      if (typeof fn[field] !== "string") {
        return invalid(
          `Invalid type for '${here}.function.${field}': expected a string, but got ${typeName(fn[field])} instead.`,
          `${here}.function.${field}`,
        );
      }
    }
  }
  return undefined;
}

/**
 * Every assistant `tool_calls` answered by a `tool` message, before the next user or assistant
 * message; no `tool` message without a call to answer.
 */
function validatePairing(messages: WireMessage[]): Invalid | undefined {
  let outstanding = new Set<string>();
  let caller = -1;
  const unanswered = () =>
    invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...outstanding].join(", ")}`,
      `messages.[${caller}].role`,
    );
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      const id = message.tool_call_id ?? "";
      if (!outstanding.delete(id)) {
        return invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      continue;
    }
    if (outstanding.size > 0) return unanswered();
    outstanding = new Set();
    if (message.role === "assistant" && message.tool_calls) {
      outstanding = new Set(message.tool_calls.map((call) => call.id));
      caller = index;
    }
  }
  if (outstanding.size > 0) return unanswered();
  return undefined;
}

function validateTools(tools: unknown): Invalid | undefined {
  if (!Array.isArray(tools)) {
    return invalid(
      `Invalid type for 'tools': expected an array of objects, but got ${typeName(tools)} instead.`,
      "tools",
    );
  }
  if (tools.length === 0) return invalid("[] is too short - 'tools'", "tools");
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isObject(tool)) {
      return invalid(
        `Invalid type for '${at}': expected an object, but got ${typeName(tool)} instead.`,
        at,
      );
    }
    if (tool.type !== "function") {
      return invalid(
        `Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`,
        `${at}.type`,
      );
    }
    const fn = tool.function;
    if (!isObject(fn))
      return invalid(`Missing required parameter: '${at}.function'.`, `${at}.function`);
    if (typeof fn.name !== "string" || !TOOL_NAME.test(fn.name)) {
      return invalid(
        `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `${at}.function.name`,
      );
    }
    if (names.has(fn.name)) {
      return invalid(
        `scripted model server: duplicate function name '${fn.name}' in 'tools'.`,
        `${at}.function.name`,
      );
    }
    names.add(fn.name);
    if (fn.description !== undefined && typeof fn.description !== "string") {
      return invalid(
        `Invalid type for '${at}.function.description': expected a string, but got ${typeName(fn.description)} instead.`,
        `${at}.function.description`,
      );
    }
    if (fn.parameters !== undefined) {
      const parameters = fn.parameters;
      if (!isObject(parameters)) {
        return invalid(
          `Invalid schema for function '${fn.name}': ${JSON.stringify(parameters)} is not of type 'object'.`,
          `${at}.function.parameters`,
        );
      }
      if (parameters.type !== "object") {
        return invalid(
          `Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(parameters.type)}"'.`,
          `${at}.function.parameters`,
        );
      }
      const problem = schemaProblem(parameters, []);
      if (problem) {
        return invalid(
          `Invalid schema for function '${fn.name}': ${problem}`,
          `${at}.function.parameters`,
        );
      }
    }
  }
  return undefined;
}

/** The first thing in a JSON schema that is not valid JSON schema, in OpenAI's wording. */
function schemaProblem(schema: unknown, context: string[]): string | undefined {
  const where = `In context=(${context.map((part) => `'${part}'`).join(", ")}${context.length === 1 ? "," : ""})`;
  if (typeof schema === "boolean") return undefined;
  if (!isObject(schema))
    return `${where}, ${JSON.stringify(schema)} is not of type 'object', 'boolean'.`;
  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    for (const name of types) {
      if (typeof name !== "string" || !SCHEMA_TYPES.includes(name)) {
        return `${where}, ${JSON.stringify(type)} is not valid under any of the given schemas.`;
      }
    }
  }
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) {
      return `${where}, ${JSON.stringify(schema.properties)} is not of type 'object'.`;
    }
    for (const [name, property] of Object.entries(schema.properties)) {
      const problem = schemaProblem(property, [...context, "properties", name]);
      if (problem) return problem;
    }
  }
  if (schema.required !== undefined) {
    const required = schema.required;
    if (!Array.isArray(required) || required.some((name) => typeof name !== "string")) {
      return `${where}, ${JSON.stringify(required)} is not of type 'array' of strings.`;
    }
  }
  if (schema.items !== undefined) {
    const problem = schemaProblem(schema.items, [...context, "items"]);
    if (problem) return problem;
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `${where}, ${JSON.stringify(list)} is not of type 'array'.`;
    for (const [index, entry] of list.entries()) {
      const problem = schemaProblem(entry, [...context, keyword, String(index)]);
      if (problem) return problem;
    }
  }
  return undefined;
}
