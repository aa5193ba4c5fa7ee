/**
 * How long building one request's view takes as the history grows: buildView (stubs, clearing,
 * dropping) over a synthetic session of 100, 1,000 and 10,000 messages, with the sticky state of
 * the request before, as the loop calls it, with a budget of a tenth of the session so that
 * every layer runs at every size. Goal: at most 1 ms at 1,000 messages, growing linearly (the
 * per-message cost at 10,000 close to that at 1,000).
 */
import type { Message } from "../src/domain/messages.ts";
import { estimateMessage } from "../src/context/tokens.ts";
import { EMPTY_VIEW_STATE, buildView } from "../src/context/view.ts";
import type { BenchOptions } from "./run.ts";
import { stats } from "./rounds.ts";

export const name = "context-view";
export const description = "building one request's view at 100, 1,000 and 10,000 messages";

const GOAL_MS_AT_1000 = 1;
const SIZES = [100, 1_000, 10_000];

/** A session of `count` messages: system, task, then rounds of a bash call and its result. */
function session(count: number): Message[] {
  const messages: Message[] = [
    { role: "system", content: "You are pitcrew.".repeat(200) },
    { role: "user", content: "Fix the failing test in src/parse.ts." },
  ];
  for (let n = 0; messages.length < count; n++) {
    const id = `call_${n}`;
    messages.push({
      role: "assistant",
      content: `Step ${n}: looking at the next file.`,
      toolCalls: [
        { id, name: "bash", arguments: JSON.stringify({ command: `grep -rn item${n} src` }) },
      ],
    });
    messages.push({
      role: "tool",
      toolCallId: id,
      name: "bash",
      content: `exit code: 0\n${`src/file${n}.ts:${n}: const item${n} = compute(${n});\n`.repeat(n % 7 === 0 ? 80 : 4)}`,
      isError: false,
    });
  }
  return messages.slice(0, count);
}

export function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? 50;
  const warmup = options.warmup ?? 5;
  const rows: { size: number; median: number; perMessage: number }[] = [];
  for (const size of SIZES) {
    const history = session(size);
    // A budget of a tenth of the session, so every size runs the same layers (stubs, clearing,
    // dropping) and the sizes compare like for like.
    const budget = Math.ceil(
      history.reduce((sum, message) => sum + estimateMessage(message), 0) / 10,
    );
    const before = buildView(history.slice(0, -2), EMPTY_VIEW_STATE, {
      budget,
      estimate: estimateMessage,
    }).state;
    const samples: number[] = [];
    for (let index = 0; index < warmup + runs; index++) {
      const started = performance.now();
      buildView(history, before, { budget, estimate: estimateMessage });
      const elapsed = performance.now() - started;
      if (index >= warmup) samples.push(elapsed);
    }
    const { median, p10, p90 } = stats(samples);
    rows.push({ size, median, perMessage: (median * 1000) / size });
    process.stdout.write(
      `  ${String(size).padStart(6)} messages: median ${median.toFixed(3)} ms (p10 ${p10.toFixed(3)}, p90 ${p90.toFixed(3)}), ${((median * 1000) / size).toFixed(2)} µs per message\n`,
    );
  }
  const at1000 = rows.find((row) => row.size === 1_000);
  const at10000 = rows.find((row) => row.size === 10_000);
  if (at1000 && at10000) {
    const growth = at10000.median / at1000.median;
    process.stdout.write(
      `goal: ≤ ${GOAL_MS_AT_1000} ms at 1,000 messages: ${at1000.median.toFixed(3)} ms, ${at1000.median <= GOAL_MS_AT_1000 ? "met" : "NOT met"}\n`,
    );
    process.stdout.write(`growth 1,000 → 10,000 messages: ${growth.toFixed(1)}× (10× is linear)\n`);
  }
  return Promise.resolve();
}
