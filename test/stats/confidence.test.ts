/**
 * The numbers of a flake's confirmation (src/stats/confidence.ts), checked against values worked
 * out by hand: the Wilson interval, the rate a green batch rules out, the confidence a green batch
 * after a fix gives, and the words a report shows for a batch.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fixConfidence, neverFailedBound, wilson } from "../../src/stats/confidence.ts";
import { rerunWords } from "../../src/present/rerun-words.ts";

function near(actual: number | undefined, expected: number, digits = 3): void {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 0.5 * 10 ** -digits,
    `${actual} should be ${expected} to ${digits} digits`,
  );
}

describe("wilson", () => {
  test("3 failures in 20: 5.2% to 36.0%", () => {
    const { low, high } = wilson(3, 20);
    near(low, 0.052);
    near(high, 0.36);
  });

  test("0 in 20 starts at 0 and reaches past the rule of three; 20 in 20 ends at 1", () => {
    const none = wilson(0, 20);
    assert.equal(none.low, 0);
    near(none.high, 0.161);
    const all = wilson(20, 20);
    near(all.low, 0.839);
    near(all.high, 1, 9);
  });

  test("a wider z is a wider interval; no runs say nothing", () => {
    const narrow = wilson(5, 50, 1.645);
    const wide = wilson(5, 50);
    assert.ok(wide.low < narrow.low && wide.high > narrow.high);
    assert.deepEqual(wilson(0, 0), { low: 0, high: 1 });
  });
});

describe("neverFailedBound", () => {
  test("0 failures in 20 rules out rates above 13.9% at 95%, 20.6% at 99%", () => {
    near(neverFailedBound(20), 0.139);
    near(neverFailedBound(20, 0.99), 0.206);
  });

  test("more runs rule out more; no runs rule out nothing", () => {
    assert.ok(neverFailedBound(100) < neverFailedBound(20));
    near(neverFailedBound(100), 0.0295, 4);
    assert.equal(neverFailedBound(0), 1);
  });
});

describe("fixConfidence", () => {
  test("3/20 before, 0/20 after: 1 − 0.85^20", () => {
    near(fixConfidence({ runs: 20, failures: 3 }, { runs: 20, failures: 0 }), 0.961);
    assert.equal(
      fixConfidence({ runs: 20, failures: 3 }, { runs: 20, failures: 0 }),
      1 - 0.85 ** 20,
    );
  });

  test("a longer green batch is more sure; a rarer flake less", () => {
    const long = fixConfidence({ runs: 20, failures: 3 }, { runs: 50, failures: 0 })!;
    const rare = fixConfidence({ runs: 100, failures: 1 }, { runs: 20, failures: 0 })!;
    near(long, 1 - 0.85 ** 50, 6);
    near(rare, 1 - 0.99 ** 20, 6);
    assert.ok(long > 0.99 && rare < 0.2);
  });

  test("undefined when the fix's batch failed, or nothing failed before", () => {
    assert.equal(fixConfidence({ runs: 20, failures: 3 }, { runs: 20, failures: 1 }), undefined);
    assert.equal(fixConfidence({ runs: 20, failures: 0 }, { runs: 20, failures: 0 }), undefined);
  });
});

describe("rerunWords", () => {
  test("a batch that failed: the rate and its interval, in whole percents", () => {
    assert.equal(
      rerunWords({ condition: "shuffled", runs: 20, failures: 3 }),
      "shuffled: 3/20 failed (15%; 95% interval 5–36%)",
    );
    assert.equal(
      rerunWords({ condition: "TZ=Asia/Tokyo", runs: 20, failures: 20 }),
      "TZ=Asia/Tokyo: 20/20 failed (100%; 95% interval 84–100%)",
    );
  });

  test("a green batch: the rate it rules out", () => {
    assert.equal(
      rerunWords({ condition: "isolated", runs: 20, failures: 0 }),
      "isolated: 0/20 failed (a rate above 14% would have shown with 95% confidence)",
    );
  });

  test("a batch that never ran says so", () => {
    assert.equal(
      rerunWords({ condition: "in its file", runs: 0, failures: 0 }),
      "in its file: not run",
    );
  });
});
