/**
 * What a failed model call means: transient (worth a retry) or one of the named errors a person
 * can act on. Pure functions over the SDK's error values and the server's error bodies; the
 * retrying itself is model.ts's. Context overflow is detected across providers here, so the
 * context layer can ask `isContextTooLong` without knowing any provider's wording.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { PitcrewError } from "../errors.ts";
import { MODEL_WORDS } from "../present/model-words.ts";
import type { Sentences } from "../present/model-words.ts";

export const CONTEXT_TOO_LONG_SENTENCE =
  "This conversation is too long for the model to read at once; continue in a new run; everything built so far is kept.";

/** `model-context-too-long`, with the window and the request size when the server said them. */
export class ContextTooLongError extends PitcrewError {
  /** The model's context window in tokens, when the error named it. */
  readonly limit: number | undefined;
  /** The size of the rejected request in tokens, when the error named it. */
  readonly requested: number | undefined;

  constructor(numbers: ContextNumbers, options?: { cause?: unknown }) {
    super("model-context-too-long", CONTEXT_TOO_LONG_SENTENCE, options);
    this.limit = numbers.limit;
    this.requested = numbers.requested;
  }
}

export interface ContextNumbers {
  limit?: number;
  requested?: number;
}

/** Where the call went, for the sentences (and the key, so no sentence can carry it). */
export interface Endpoint {
  model: string;
  baseUrl: string;
  apiKey: string;
}

export type Failure =
  | { transient: false; error: PitcrewError }
  | {
      transient: true;
      /** What happened, for the sentence if retries run out: "HTTP 503: overloaded". */
      what: string;
      /** The wait the server asked for (retry-after-ms / retry-after), in ms. */
      retryAfterMs?: number;
    };

// ---------------------------------------------------------------------------------------------
// Context overflow across providers (context.md §3.2)

/** LiteLLM's list (`is_error_str_context_window_exceeded`), lower case. */
const CONTEXT_TEXT: readonly RegExp[] = [
  /maximum context length/,
  /context_length_exceeded/,
  /exceeds the available context size/,
  /exceeds the maximum number of tokens allowed/,
  /is longer than the model's context length/,
  /input tokens exceed the configured limit/,
  /prompt is too long/,
  /model's maximum context limit/,
  /exceed context limit/,
  /current length is \d+ while limit is \d+/,
  /maximum input length is \d+ tokens/,
];

/** Parameter validation and per-minute rate limits that mention lengths or tokens. */
const NOT_CONTEXT_TEXT: readonly RegExp[] = [
  /string_above_max_length/,
  /invalid 'user'/,
  /tokens per min/,
  /request too large/,
];

const LIMIT_PATTERNS: readonly RegExp[] = [
  /maximum context length is (\d+)/,
  /\d+ tokens > (\d+)/,
  /maximum number of tokens allowed \((\d+)\)/,
  /while limit is (\d+)/,
  /maximum input length is (\d+)/,
  /context limit of (\d+)/,
];

const REQUESTED_PATTERNS: readonly RegExp[] = [
  /resulted in (\d+) tokens/,
  /you requested (\d+) tokens/,
  /(\d+) tokens > \d+/,
  /input token count \((\d+)\)/,
  /current length is (\d+)/,
];

interface ErrorFacts {
  status: number | undefined;
  code: unknown;
  type: unknown;
  /** Everything the error says, lower case: the message, code, type and the body. */
  text: string;
  body: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function factsOf(error: unknown): ErrorFacts | undefined {
  if (!isRecord(error)) return undefined;
  const status = typeof error.status === "number" ? error.status : undefined;
  const body = error.error;
  let text = [error.message, error.code, error.type]
    .filter((part) => typeof part === "string")
    .join(" ");
  try {
    if (body !== undefined) text += " " + JSON.stringify(body);
  } catch {
    // A body that does not serialise adds nothing to match on.
  }
  return { status, code: error.code, type: error.type, text: text.toLowerCase(), body };
}

/**
 * Whether a failed request was rejected because the prompt is larger than the model's window.
 * Accepts the SDK's errors, anything shaped like them, and pitcrew's own `model-context-too-long`.
 */
export function isContextTooLong(error: unknown): boolean {
  if (error instanceof PitcrewError) return error.code === "model-context-too-long";
  return contextOverflow(error) !== undefined;
}

/**
 * The overflow's numbers when `error` is a context overflow (an empty object when it is one but
 * names no numbers); undefined when it is anything else. Order: the code
 * `context_length_exceeded`, llama.cpp's error type, then the text list; a 429 and the
 * per-minute "Request too large" are rate limits, never overflows.
 */
export function contextOverflow(error: unknown): ContextNumbers | undefined {
  const facts = factsOf(error);
  if (!facts || facts.status === 429) return undefined;
  if (NOT_CONTEXT_TEXT.some((pattern) => pattern.test(facts.text))) return undefined;
  const matched =
    facts.code === "context_length_exceeded" ||
    facts.type === "exceed_context_size_error" ||
    CONTEXT_TEXT.some((pattern) => pattern.test(facts.text));
  if (!matched) return undefined;
  return numbersOf(facts);
}

function numbersOf(facts: ErrorFacts): ContextNumbers {
  const first = (patterns: readonly RegExp[]): number | undefined => {
    for (const pattern of patterns) {
      const match = pattern.exec(facts.text);
      if (match?.[1]) return Number(match[1]);
    }
    return undefined;
  };
  const numbers: ContextNumbers = {};
  // llama.cpp names both as fields beside its message.
  const body = isRecord(facts.body) ? facts.body : {};
  const limit = typeof body.n_ctx === "number" ? body.n_ctx : first(LIMIT_PATTERNS);
  const requested =
    typeof body.n_prompt_tokens === "number" ? body.n_prompt_tokens : first(REQUESTED_PATTERNS);
  if (limit !== undefined) numbers.limit = limit;
  if (requested !== undefined) numbers.requested = requested;
  return numbers;
}

// ---------------------------------------------------------------------------------------------
// Classification

const QUOTA_TEXT = [/exceeded your current quota/, /insufficient[_ ]balance/, /insufficient_quota/];
const CONTENT_CODES = ["content_policy_violation", "content_filter"];
const CONTENT_TEXT = [/content management policy/, /safety system/];

/**
 * Sorts a failed call: transient failures are worth a retry; the rest become named errors.
 * Cancellation is not decided here (model.ts knows its signal). An error that is not the SDK's
 * (a bug) is returned as is, for the caller to rethrow.
 */
export function classifyFailure(error: unknown, endpoint: Endpoint): Failure | undefined {
  const redact = (text: string) => redactKey(text, endpoint.apiKey);
  if (error instanceof APIUserAbortError) return undefined;
  if (error instanceof APIConnectionTimeoutError) {
    return { transient: true, what: "the request timed out" };
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? connectionCause(error.cause) : error.message;
    return { transient: true, what: redact(`the connection failed (${cause})`) };
  }
  if (!(error instanceof APIError) || typeof error.status !== "number") return undefined;
  const apiError = error as APIError<number, Headers | undefined>;

  const facts = factsOf(apiError)!;
  const status = apiError.status;
  const message = redact(serverMessage(apiError));
  const said = `HTTP ${status}: ${message}`;
  const named = (code: string, sentence: string | Sentences): Failure => ({
    transient: false,
    error:
      typeof sentence === "string"
        ? new PitcrewError(code, sentence, { cause: error })
        : new PitcrewError(code, sentence.action, { cause: error, cli: sentence.cli }),
  });
  const where = endpoint.baseUrl;

  if (status === 401) {
    return named("model-invalid-key", MODEL_WORDS.invalidKey(where));
  }
  if (
    status === 402 ||
    facts.code === "insufficient_quota" ||
    facts.type === "insufficient_quota" ||
    QUOTA_TEXT.some((pattern) => pattern.test(facts.text))
  ) {
    return named(
      "model-quota-exhausted",
      `The account behind the API key has no quota left at ${where} (${said}); add credit or raise the spending limit in the provider's billing settings, then continue the run.`,
    );
  }
  const overflow = contextOverflow(error);
  if (overflow)
    return { transient: false, error: new ContextTooLongError(overflow, { cause: error }) };
  if (
    CONTENT_CODES.includes(String(facts.code)) ||
    (status < 500 && CONTENT_TEXT.some((pattern) => pattern.test(facts.text)))
  ) {
    return named(
      "model-content-refused",
      `The provider's content filter refused this request (${said}); rephrase the task or the instructions and start a new run.`,
    );
  }
  if (status === 404 || facts.code === "model_not_found") {
    return named("model-not-found", MODEL_WORDS.notFound(endpoint.model, where, said));
  }

  const retryHeader = apiError.headers?.get("x-should-retry");
  const retryable =
    retryHeader === "true" ||
    (retryHeader !== "false" &&
      (status === 408 || status === 409 || status === 429 || status >= 500));
  if (retryable) {
    const failure: Failure = {
      transient: true,
      what: status === 429 ? `rate limited (${said})` : said,
    };
    const wait = retryAfterMs(apiError.headers);
    if (wait !== undefined) failure.retryAfterMs = wait;
    return failure;
  }
  if (status >= 500) {
    return named(
      "model-unavailable",
      `The model server at ${where} failed and asked not to be retried (${said}); the run can be continued once it is back.`,
    );
  }
  return named("model-bad-request", `The model server at ${where} rejected the request (${said}).`);
}

/** The wait a response asks for: `retry-after-ms`, else `retry-after` (seconds or a date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const millis = headers?.get("retry-after-ms");
  if (millis) {
    const value = Number.parseFloat(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers?.get("retry-after");
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The server's own words: the body's message, else the SDK's text without its status prefix. */
function serverMessage(error: APIError<number, Headers | undefined>): string {
  const body: unknown = error.error;
  let text: string;
  if (isRecord(body) && typeof body.message === "string") text = body.message;
  else text = error.message.replace(new RegExp(`^${error.status} `), "");
  text = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") text = "no message";
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

function connectionCause(cause: Error): string {
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = inner && "code" in inner ? String(inner.code) : undefined;
  return [cause.message, inner?.message, code].filter(Boolean).join(": ");
}

/** The key never appears in a sentence, whatever a server echoes back. */
export function redactKey(text: string, apiKey: string): string {
  return apiKey.length >= 8 ? text.split(apiKey).join("***") : text;
}
