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
