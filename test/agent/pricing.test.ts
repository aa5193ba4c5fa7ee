/**
 * Prices: lookup of dated and prefixed ids, unknown models, user tables over the defaults, and
 * the cost of a request's usage.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Usage } from "../../src/domain/usage.ts";
import {
  DEFAULT_PRICES,
  cachedPriceRatio,
  costOf,
  lookupPrice,
  withDefaultPrices,
} from "../../src/agent/pricing.ts";

const usage = (promptTokens: number, cachedTokens: number, completionTokens: number): Usage => ({
  promptTokens,
  cachedTokens,
  completionTokens,
  reasoningTokens: 0,
});

describe("lookupPrice", () => {
  test("the common OpenAI models are known", () => {
    for (const model of [
      "gpt-4.1",
      "gpt-4.1-mini",
      "gpt-4o",
      "gpt-4o-mini",
      "o3",
      "o4-mini",
      "gpt-5",
      "gpt-5-mini",
    ]) {
      assert.equal(lookupPrice(model).known, true, model);
    }
  });

  test("a dated id finds its base name; an exact dated entry wins", () => {
    assert.equal(lookupPrice("gpt-4o-2024-08-06").matched, "gpt-4o");
    assert.equal(lookupPrice("gpt-4o-mini-2024-07-18").matched, "gpt-4o-mini");
    assert.equal(lookupPrice("gpt-4.1-mini-2025-04-14").matched, "gpt-4.1-mini");
    assert.equal(lookupPrice("o3-2025-04-16").matched, "o3");
    assert.equal(lookupPrice("gpt-4o-2024-05-13").matched, "gpt-4o-2024-05-13");
    assert.equal(lookupPrice("gpt-4o-2024-05-13").price.input, 5);
  });

  test("a provider prefix and upper case are ignored", () => {
    assert.equal(lookupPrice("openai/gpt-4o").matched, "gpt-4o");
    assert.equal(lookupPrice("GPT-4o").matched, "gpt-4o");
  });

  test("an unknown model is free and says so", () => {
    const lookup = lookupPrice("llama-3.1-70b-instruct");
    assert.equal(lookup.known, false);
    assert.equal(lookup.matched, undefined);
    assert.deepEqual(lookup.price, { input: 0, cachedInput: 0, output: 0 });
  });
});

describe("withDefaultPrices", () => {
  test("user entries are added and replace defaults; the defaults are not changed", () => {
    const table = withDefaultPrices({
      "gpt-4o": { input: 1, cachedInput: 1, output: 1 },
      "My-Local": { input: 0.1, cachedInput: 0.01, output: 0.2 },
    });
    assert.deepEqual(table["gpt-4o"], { input: 1, cachedInput: 1, output: 1 });
    assert.equal(lookupPrice("my-local", table).known, true);
    assert.equal(lookupPrice("gpt-5", table).known, true);
    assert.equal(DEFAULT_PRICES["gpt-4o"]?.input, 2.5);
  });
});

describe("costOf", () => {
  test("uncached input, cached input and output at their prices", () => {
    // gpt-4.1: $2 input, $0.50 cached, $8 output per million.
    const cost = costOf(usage(1_000_000, 400_000, 100_000), "gpt-4.1");
    assert.ok(Math.abs(cost - (0.6 * 2 + 0.4 * 0.5 + 0.1 * 8)) < 1e-9);
  });

  test("reasoning is part of the completion and not charged twice", () => {
    const plain = costOf(usage(0, 0, 1000), "o3");
    const reasoning = costOf({ ...usage(0, 0, 1000), reasoningTokens: 900 }, "o3");
    assert.equal(plain, reasoning);
  });

  test("a dated id is priced as its base; an unknown model costs 0", () => {
    assert.equal(
      costOf(usage(1000, 0, 1000), "gpt-4o-2024-11-20"),
      costOf(usage(1000, 0, 1000), "gpt-4o"),
    );
    assert.equal(costOf(usage(1000, 0, 1000), "mystery-model"), 0);
  });

  test("cached tokens beyond the prompt (a confused server) are clamped", () => {
    assert.equal(costOf(usage(100, 500, 0), "gpt-4o"), costOf(usage(100, 100, 0), "gpt-4o"));
  });
});

describe("cachedPriceRatio", () => {
  test("a cached token's price against an uncached one, for the layers' stub decisions", () => {
    assert.equal(cachedPriceRatio("gpt-5"), 0.1);
    assert.equal(cachedPriceRatio("openai/gpt-4.1-2025-04-14"), 0.25);
    assert.equal(cachedPriceRatio("gpt-4o-2024-05-13"), 1, "no discount: a stub always pays");
    assert.equal(cachedPriceRatio("some-local-model"), undefined, "unknown: the layers assume 0.1");
  });
});
