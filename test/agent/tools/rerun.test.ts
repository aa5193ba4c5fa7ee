/**
 * The `rerun` tool over a real bwrap sandbox: it runs the command the asked number of times and
 * counts the failures itself (exit codes, a timeout), records each batch with the changes hash it
 * was given, stops at the batch's time limit, refuses what the permission rules refuse, and the
 * `flaky_verdict` tool records the last decision.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { flakyVerdictTool } from "../../../src/agent/tools/flaky-verdict.ts";
import { RERUN_BATCH_MS, rerunTool } from "../../../src/agent/tools/rerun.ts";
import type { FlakeVerdict, RerunBatch } from "../../../src/domain/flaky.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

function tool(batches: RerunBatch[], now?: () => number) {
  return rerunTool({
    defaultRuns: 6,
    changes: () => Promise.resolve("hash-1"),
    record: (batch) => batches.push(batch),
    now,
  });
}

describe("the rerun tool", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    // A counter kept in the workspace: runs 2 and 5 of every six fail.
    h = await toolHarness("rerun", undefined, {
      files: {
        "flaky.sh":
          'n=$(cat .count 2>/dev/null || echo 0); n=$((n+1)); echo $n > .count; echo "run $n"; [ $((n % 3)) -ne 2 ]\n',
      },
    });
  });
  after(() => h.dispose());

  test("runs the default number of times and counts the failures", async () => {
    const batches: RerunBatch[] = [];
    const outcome = await h.call(tool(batches), {
      command: "bash flaky.sh",
      condition: "isolated",
    });
    assert.equal(outcome.isError, false, outcome.content);
    assert.deepEqual(batches, [
      { condition: "isolated", command: "bash flaky.sh", runs: 6, failures: 2, changes: "hash-1" },
    ]);
    assert.match(outcome.content, /^isolated: 2\/6 failed \(33%; 95% interval \d+–\d+%\)/);
    assert.match(outcome.content, /exits: 0 ×4, 1 ×2/);
    assert.match(outcome.content, /the first failing run ended with:\nrun 2/);
  });

  test("a passing batch says how high a rate it rules out", async () => {
    const batches: RerunBatch[] = [];
    const outcome = await h.call(tool(batches), { command: "true", condition: "fixed", runs: 10 });
    assert.equal(batches[0]?.failures, 0);
    assert.match(
      outcome.content,
      /0\/10 failed \(a rate above 26% would have shown with 95% confidence\)/,
    );
  });

  test("a timeout is a failure", async () => {
    const batches: RerunBatch[] = [];
    const outcome = await h.call(tool(batches), {
      command: "sleep 5",
      condition: "slow",
      runs: 2,
      timeout_ms: 200,
    });
    assert.equal(batches[0]?.failures, 2, outcome.content);
    assert.match(outcome.content, /exits: timeout ×2/);
  });

  test("the batch stops starting runs at its time limit and says how many ran", async () => {
    const batches: RerunBatch[] = [];
    let clock = 0;
    const outcome = await h.call(
      tool(batches, () => (clock += RERUN_BATCH_MS / 3)),
      { command: "true", condition: "long", runs: 50 },
    );
    assert.equal(batches[0]?.runs, 2);
    assert.match(outcome.content, /only 2 of the 50 runs asked for ran/);
  });

  test("a command the permission rules refuse runs not once and records nothing", async () => {
    const batches: RerunBatch[] = [];
    const outcome = await h.call(
      tool(batches),
      { command: "git push", condition: "x" },
      { gate: { check: () => ({ allowed: false, reason: "pushing is the harness's job." }) } },
    );
    assert.equal(outcome.isError, true);
    assert.match(
      outcome.content,
      /refused by the permission rules: pushing is the harness's job; nothing was run/,
    );
    assert.deepEqual(batches, []);
  });
});

describe("the flaky_verdict tool", () => {
  test("records the decision, the last call standing", async () => {
    let recorded: FlakeVerdict | undefined;
    const verdictTool = flakyVerdictTool((verdict) => (recorded = verdict));
    const h = {
      call: (args: unknown) => verdictTool.run(verdictTool.schema.parse(args), {} as never),
    };
    await h.call({
      category: "time",
      action: "fix",
      condition: "isolated",
      because: "a tight budget",
    });
    const outcome = await h.call({ category: "unknown", action: "none", because: "never failed" });
    assert.deepEqual(recorded, { category: "unknown", action: "none", because: "never failed" });
    assert.match(outcome.content, /Recorded: none \(unknown\)/);
    assert.throws(() =>
      verdictTool.schema.parse({ category: "cosmic rays", action: "fix", because: "x" }),
    );
  });
});
