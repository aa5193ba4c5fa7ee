/**
 * What a model call costs in tokens, and what a run has spent: the words the loop, the notes, the
 * budgets and every report share. Types and tiny pure sums only.
 */

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

/** Prompt and completion tokens together: what a budget or an output counts. */
export function totalTokens(usage: Usage): number {
  return usage.promptTokens + usage.completionTokens;
}

/** What a run has spent so far, or in all. */
export interface Totals {
  turns: number;
  usage: Usage;
  cost: number;
}
