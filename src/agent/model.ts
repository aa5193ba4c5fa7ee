/**
 * The model client: one Chat Completions request per `complete`, against any OpenAI-compatible
 * base URL, through the `openai` SDK. pitcrew's messages become the SDK's parameters only here.
 * Transient failures are retried here (backoff with jitter, `retry-after` honoured); everything
 * else becomes a named error (model-errors.ts). It keeps no history and decides nothing about
 * what is sent: that is the loop's and the context layer's.
 */
import { setTimeout as sleep } from "node:timers/promises";
import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ToolDefinition } from "../domain/tools.ts";
import { PitcrewError } from "../errors.ts";
import { MODEL_WORDS } from "../present/model-words.ts";
import type { Message, ToolCall } from "../domain/messages.ts";
import type { Usage } from "../domain/usage.ts";
import { classifyFailure, redactKey, type Endpoint } from "./model-errors.ts";
import { costOf, withDefaultPrices, type PriceTable } from "./pricing.ts";

export interface ModelConfig {
  apiKey: string;
  model: string;
  /** Default: OpenAI's `https://api.openai.com/v1` (the SDK's OPENAI_BASE_URL is not read). */
  baseUrl?: string;
  /** Retries of a transient failure after the first attempt. Default 4. */
  maxRetries?: number;
  /** One attempt's limit. Default 10 minutes. */
  timeoutMs?: number;
  /** Merged over the default prices (pricing.ts). */
  prices?: PriceTable;
  /**
   * The first retry's wait when the server names none; it doubles per retry up to 8 s, less up to
   * 25% jitter. Default 500 ms. Tests shorten it.
   */
  backoffMs?: number;
  /**
   * The wait between attempts, which the request's signal cuts short (rejecting). Default a real
   * timer; tests pass one that records the waits asked for instead of taking them.
   */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ModelRequest {
  messages: Message[];
  tools: ToolDefinition[];
  /** A stable per-run key that routes requests to the same prefix cache. Never a secret. */
  promptCacheKey: string;
  signal?: AbortSignal;
}

export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The API's `finish_reason`: `stop`, `tool_calls`, `length`, … */
  finishReason: string;
  /** USD, from the price table; 0 for a model the table does not know. */
  cost: number;
}

export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelResponse>;
}

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;
/** A server that asks for a longer wait than this is not waited for. */
const MAX_RETRY_AFTER_MS = 60_000;

export function createModelClient(config: ModelConfig): ModelClient {
  const baseUrl = config.baseUrl || DEFAULT_BASE_URL;
  const endpoint: Endpoint = { model: config.model, baseUrl, apiKey: config.apiKey };
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  const backoffMs = config.backoffMs ?? DEFAULT_BACKOFF_MS;
  const wait =
    config.wait ??
    ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, signal ? { signal } : {}));
  const prices = withDefaultPrices(config.prices);
  // The SDK's own retries are off: it would retry a 429 insufficient_quota and cannot be told
  // how long to back off. This module retries instead, with the same rules plus those two.
  const sdk = new OpenAI({
    apiKey: config.apiKey,
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });

  async function complete(request: ModelRequest): Promise<ModelResponse> {
    const params = toParams(config.model, request);
    const { signal } = request;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw cancelled(signal.reason);
      let completion: ChatCompletion;
      try {
        completion = await sdk.chat.completions.create(params, {
          ...(signal ? { signal } : {}),
          headers: { "X-Stainless-Retry-Count": String(attempt) },
        });
      } catch (error) {
        if (signal?.aborted) throw cancelled(error);
        const failure = classifyFailure(error, endpoint);
        if (!failure) throw error;
        if (!failure.transient) throw failure.error;
        const tries = `${attempt + 1} attempt${attempt ? "s" : ""}`;
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_AFTER_MS) {
          throw unavailable(
            `${failure.what}, and the server asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s before trying again`,
            error,
          );
        }
        if (attempt >= maxRetries) throw unavailable(`${failure.what} (${tries})`, error);
        try {
          await wait(failure.retryAfterMs ?? backoff(attempt), signal);
        } catch (sleepError) {
          throw cancelled(sleepError);
        }
        continue;
      }
      return fromCompletion(completion);
    }
  }

  function unavailable(what: string, cause: unknown): PitcrewError {
    const words = MODEL_WORDS.noAnswer(baseUrl, what);
    return new PitcrewError("model-unavailable", redactKey(words.action, config.apiKey), {
      cause,
      cli: redactKey(words.cli, config.apiKey),
    });
  }

  function backoff(attempt: number): number {
    const base = Math.min(backoffMs * 2 ** attempt, MAX_BACKOFF_MS);
    return base * (1 - Math.random() * 0.25);
  }

  function fromCompletion(completion: ChatCompletion): ModelResponse {
    // A wrong base URL can answer 200 with a web page (the SDK then returns the text), and some
    // gateways answer 200 with an error object instead of choices.
    const choice = typeof completion === "object" ? completion.choices?.[0] : undefined;
    if (!choice) {
      const body: unknown = completion;
      const said =
        typeof body === "object" && body !== null && "error" in body
          ? (body.error as { message?: unknown } | null)?.message
          : undefined;
      const detail = typeof said === "string" ? `: ${redactKey(said, config.apiKey)}` : "";
      const words = MODEL_WORDS.noReply(baseUrl, detail);
      throw new PitcrewError("model-bad-request", words.action, { cli: words.cli });
    }
    const { message } = choice;
    const finishReason = String(choice.finish_reason ?? "stop");
    if (finishReason === "content_filter" || message.refusal) {
      const detail = message.refusal
        ? `the model refused: ${message.refusal}`
        : "the reply was stopped by the content filter";
      throw new PitcrewError(
        "model-content-refused",
        `The provider's content filter refused this request (${detail}); rephrase the task or the instructions and start a new run.`,
      );
    }
    const toolCalls: ToolCall[] = [];
    for (const [position, call] of (message.tool_calls ?? []).entries()) {
      if (call.type !== "function") continue;
      const args: unknown = call.function.arguments;
      toolCalls.push({
        // A few servers leave ids out; the pairing rules need one.
        id: call.id || `call_${completion.id}_${position}`,
        name: call.function.name,
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      });
    }
    const usage = usageOf(completion);
    return {
      content: message.content ?? "",
      toolCalls,
      usage,
      finishReason,
      cost: costOf(usage, config.model, prices),
    };
  }

  return { complete };
}

function cancelled(cause: unknown): PitcrewError {
  return new PitcrewError("model-cancelled", "The model request was cancelled.", { cause });
}

/** pitcrew's request as Chat Completions parameters. Tools keep their order; nothing is sorted. */
export function toParams(
  model: string,
  request: ModelRequest,
): ChatCompletionCreateParamsNonStreaming {
  const params: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: request.messages.map(toMessageParam),
  };
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool): ChatCompletionFunctionTool => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    params.parallel_tool_calls = true;
  }
  if (request.promptCacheKey) params.prompt_cache_key = request.promptCacheKey;
  return params;
}

function toMessageParam(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "assistant":
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

/**
 * Usage in pitcrew's terms. OpenAI's `prompt_tokens_details.cached_tokens`, else DeepSeek's
 * `prompt_cache_hit_tokens`; anything missing counts 0.
 */
export function usageOf(completion: Pick<ChatCompletion, "usage">): Usage {
  const usage: unknown = completion.usage;
  const cached = count(usage, "prompt_tokens_details", "cached_tokens");
  return {
    promptTokens: count(usage, "prompt_tokens") ?? 0,
    cachedTokens: cached ?? count(usage, "prompt_cache_hit_tokens") ?? 0,
    completionTokens: count(usage, "completion_tokens") ?? 0,
    reasoningTokens: count(usage, "completion_tokens_details", "reasoning_tokens") ?? 0,
  };
}

/** A token count at `path`, or undefined when a server left it out (or sent something odd). */
function count(value: unknown, ...path: string[]): number | undefined {
  let here = value;
  for (const key of path) {
    if (typeof here !== "object" || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return typeof here === "number" && Number.isFinite(here) && here >= 0 ? here : undefined;
}
