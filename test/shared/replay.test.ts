/**
 * The replay harness on the five real mini-swe-agent trajectories in ../shared/trajectories: the
 * naive baseline must replay every recorded model call and give plausible totals. Where ../shared
 * is not checked out the tests skip saying why (fail under CI=true).
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { describe, test } from "node:test";
import { toolDefinitions } from "../../src/agent/tools/index.ts";
import { loadSession } from "../../src/commands/context.ts";
import { pitcrewPolicy } from "../../src/context/replay/pitcrew-policy.ts";
import { naivePolicy } from "../../src/context/replay/policy.ts";
import { DEFAULT_WINDOW } from "../../src/context/replay/policy.ts";
import { replaySessions } from "../../src/context/replay/replay.ts";
import { SHARED, needsShared } from "../support/shared.ts";
import { distributionLines, statsLine } from "../support/replay-lines.ts";

const DIR = join(SHARED, "trajectories");

/** Model calls per file, from the README's table. */
const MODEL_CALLS: Record<string, number> = {
  "django__django-11163.traj.json": 13,
  "django__django-12276.traj.json": 36,
  "sympy__sympy-13091.traj.json": 129,
  "pytest-dev__pytest-6197.traj.json": 92,
  "pylint-dev__pylint-6528.traj.json": 97,
};

describe("replay of the shared trajectories", needsShared("trajectories"), () => {
  test("naive: one request per recorded model call, sane totals, in seconds", async () => {
    const started = performance.now();
    const files = Object.keys(MODEL_CALLS);
    const sessions = await Promise.all(
      files.map((file) => loadSession(join(DIR, file), toolDefinitions())),
    );
    const report = await replaySessions(sessions, naivePolicy, DEFAULT_WINDOW);
    const seconds = (performance.now() - started) / 1000;

    for (const [index, file] of files.entries()) {
      const row = report.files[index];
      assert.ok(row);
      assert.equal(row.requests, MODEL_CALLS[file], file);
      assert.equal(row.reported?.calls, MODEL_CALLS[file], `${file}: reported usage`);
      assert.equal(row.tokens_ratio, 1, file);
      assert.equal(row.cost_ratio_r01, 1, file);
      assert.equal(row.cost_ratio_r025, 1, file);
      // o200k needs fewer tokens than Gemini's tokenizer on this traffic (about 0.86×).
      const share = row.tokens_sent / (row.reported?.prompt_tokens ?? NaN);
      assert.ok(share > 0.7 && share < 1.0, `${file}: o200k / reported prompt tokens = ${share}`);
      // Append-only requests cache all but the newest round (ideal exact-prefix caching).
      assert.ok(row.cache_hit_ratio > 0.85 && row.cache_hit_ratio < 1, `${file}: cache`);
      assert.equal(row.over_window, 0, file);
      assert.equal(row.compactions, 0, file);
    }
    const total = report.total;
    assert.equal(total.requests, 13 + 36 + 129 + 92 + 97);
    assert.equal(total.tokens_sent, total.naive_tokens_sent);
    assert.equal(
      total.tokens_sent,
      report.files.reduce((sum, row) => sum + row.tokens_sent, 0),
    );
    assert.equal(total.peak_tokens, Math.max(...report.files.map((row) => row.peak_tokens)));
    assert.ok(
      total.peak_tokens > 60_000 && total.peak_tokens < 96_172,
      `peak ${total.peak_tokens}`,
    );
    assert.ok(seconds < 30, `replayed in ${seconds.toFixed(1)} s`);
  });

  test("pitcrew's policy as it runs meets the issue's goals at a 32,000-token window, and report 128,000", async (t) => {
    const sessions = await Promise.all(
      Object.keys(MODEL_CALLS).map((file) => loadSession(join(DIR, file), toolDefinitions())),
    );
    for (const window of [32_000, 128_000]) {
      const report = await replaySessions(sessions, pitcrewPolicy, window);
      for (const file of report.files)
        t.diagnostic(statsLine(`window ${window} ${basename(file.file)}`, file));
      const { total, distribution } = report;
      t.diagnostic(statsLine(`window ${window} all`, total));
      for (const line of distributionLines(`window ${window}`, distribution)) t.diagnostic(line);
      assert.equal(total.over_window, 0, `window ${window}`);
      assert.equal(distribution.over_window.max, 0, `window ${window}: no session over`);
      if (window !== 32_000) continue;
      assert.ok(total.cost_ratio_r01 <= 0.75, `cost_ratio_r01 ${total.cost_ratio_r01}`);
      assert.ok(total.cost_ratio_r025 <= 0.65, `cost_ratio_r025 ${total.cost_ratio_r025}`);
      assert.ok(total.tokens_ratio <= 0.7, `tokens_ratio ${total.tokens_ratio}`);
      // Per session: the median session at most 0.80 of naive at 0.1×, none above naive.
      assert.ok(
        distribution.cost_ratio_r01.median <= 0.8,
        `median ${distribution.cost_ratio_r01.median}`,
      );
      assert.equal(distribution.costlier_than_naive, 0, "no session costlier than naive");
      // The context issue's cache-hit goals (≥ 0.90, and never more than 5 points below naive),
      // with the reminder a live request ends with when it has news (never cached: the next
      // request puts the model's answer where it stood). The replay is deterministic, so the goals
      // are asserted as they stand, with no tolerance: 0.9282 and 4.91 points when measured, a
      // margin of 0.0082 and of 0.09 points that any change to the policy must keep. (The gap is
      // above the 4 points the window-guarantee issue asks: docs/context.md says why a 32k window
      // does not close it; at 128k it is 2.4.)
      assert.ok(total.cache_hit_ratio >= 0.92, `cache_hit_ratio ${total.cache_hit_ratio}`);
      assert.ok(total.cache_hit_gap <= 0.05, `cache_hit_gap ${total.cache_hit_gap}`);
    }
  });
});
