/**
 * What a model call costs: a price table in USD per million tokens, a lookup that finds a dated
 * model id's base name, and `costOf` for one request's usage. It prices; it does not meter or
 * enforce a budget (the loop does that with the numbers it gets here).
 */
import type { Usage } from "../domain/usage.ts";

/** USD per million tokens. `cachedInput` is the price of prompt tokens served from the cache. */
export interface Price {
  input: number;
  cachedInput: number;
  output: number;
}

/** Model name (lower case, undated: `gpt-4o`) → its price. */
export type PriceTable = Record<string, Price>;

/**
 * OpenAI's published list prices (standard tier) for the models people most often point pitcrew
 * at. Prices change and other providers differ: users override or extend this table with their
 * own (the `prices` setting), which is merged over these entries. A model missing here costs 0
 * and is reported as unknown, never guessed.
 */
export const DEFAULT_PRICES: PriceTable = {
  "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
  "gpt-5-nano": { input: 0.05, cachedInput: 0.005, output: 0.4 },
  "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
  "gpt-4o": { input: 2.5, cachedInput: 1.25, output: 10 },
  // The first gpt-4o snapshot kept its launch price and never had cached-input pricing.
  "gpt-4o-2024-05-13": { input: 5, cachedInput: 5, output: 15 },
  "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  "o4-mini": { input: 1.1, cachedInput: 0.275, output: 4.4 },
};

export interface PriceLookup {
  /** The table entry used; all zeros when the model is unknown. */
  price: Price;
  /** False when no entry matched: the cost is reported as 0, not estimated. */
  known: boolean;
  /** The table key that matched, when one did. */
  matched?: string;
}

const FREE: Price = { input: 0, cachedInput: 0, output: 0 };

/** The defaults with the user's entries merged over them (a user entry replaces a default). */
export function withDefaultPrices(overrides: PriceTable = {}): PriceTable {
  const table: PriceTable = { ...DEFAULT_PRICES };
  for (const [name, price] of Object.entries(overrides)) table[name.toLowerCase()] = price;
  return table;
}

/**
 * Finds a model's price: the exact id first, then the id without a provider prefix
 * (`openai/gpt-4o`), then without a date suffix (`gpt-4o-2024-08-06` → `gpt-4o`,
 * `gpt-4-0613` → `gpt-4`).
 */
export function lookupPrice(model: string, table: PriceTable = DEFAULT_PRICES): PriceLookup {
  const id = model.trim().toLowerCase();
  const unprefixed = id.slice(id.lastIndexOf("/") + 1);
  const undated = unprefixed.replace(/-(\d{4}-\d{2}-\d{2}|\d{4})$/, "");
  for (const name of [id, unprefixed, undated]) {
    const price = table[name];
    if (price) return { price, known: true, matched: name };
  }
  return { price: FREE, known: false };
}

/**
 * A cached prompt token's price relative to an uncached one for `model` (gpt-5: 0.1, gpt-4.1:
 * 0.25), which tells the context layers when a stub pays; undefined for a model the table does
 * not know, so the layers assume the cheapest cache.
 */
export function cachedPriceRatio(
  model: string,
  table: PriceTable = DEFAULT_PRICES,
): number | undefined {
  const { price, known } = lookupPrice(model, table);
  return known && price.input > 0 ? price.cachedInput / price.input : undefined;
}

/**
 * USD for one request: uncached prompt tokens at the input price, cached ones at the cached
 * price, completion tokens (reasoning included: it is part of the completion) at the output price.
 */
export function costOf(usage: Usage, model: string, table: PriceTable = DEFAULT_PRICES): number {
  const { price } = lookupPrice(model, table);
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const uncached = usage.promptTokens - cached;
  return (
    (uncached * price.input + cached * price.cachedInput + usage.completionTokens * price.output) /
    1_000_000
  );
}
