/**
 * The conversation as pitcrew stores it: its own message type, converted to a provider's format
 * only at the call boundary (model.ts). The stored history is append-only; nothing here is
 * rewritten after it is written.
 */

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (JSON text, possibly broken). */
  arguments: string;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

export interface Usage {
  /** Prompt tokens, cached ones included (the API's `prompt_tokens`). */
  promptTokens: number;
  /** The part of the prompt served from the provider's cache. */
  cachedTokens: number;
  completionTokens: number;
  /** Reasoning tokens, a part of the completion tokens. */
  reasoningTokens: number;
}

export const ZERO_USAGE: Usage = {
  promptTokens: 0,
  cachedTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
};

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/** A tool call's arguments as an object, or null when the model sent something else. */
export function callArguments(call: ToolCall): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** What a call works on, for people and stubs: its `command` or `path` argument, if any. */
export function callSubject(call: ToolCall): string | null {
  const args = callArguments(call);
  const subject = [args?.command, args?.path].find((value) => typeof value === "string");
  return typeof subject === "string" ? subject.replace(/\s+/g, " ") : null;
}
