/**
 * The `rerun` tool of a flaky-test triage: one command run many times in the sandbox under one
 * named condition, counted by the harness — so the numbers in the tracking issue and the pull
 * request are measured, not the model's word. Each batch is recorded with a hash of the
 * workspace's changes when it ran, which ties a green batch to the code that is delivered.
 */
import { z } from "zod";
import type { RerunBatch } from "../../domain/flaky.ts";
import type { ToolOutcome } from "../../domain/tools.ts";
import { rerunWords } from "../../present/rerun-words.ts";
import { BASH_MAX_TIMEOUT_MS, runLine } from "./bash.ts";
import { defineTool, failure } from "./tool.ts";
import type { AnyTool } from "./tool.ts";

/** The most runs one batch may ask for. */
export const RERUN_MAX_RUNS = 500;
/** A batch stops starting runs after this long, and says how many it ran. */
export const RERUN_BATCH_MS = 10 * 60 * 1000;
/** The lines of the first failing run's output shown to the model. */
const FAILURE_TAIL_LINES = 30;

export interface RerunToolOptions {
  /** Runs per batch when the model names none: the least a fix is accepted on. */
  defaultRuns: number;
  /** A hash of the workspace's changes now (RerunBatch.changes). */
  changes(): Promise<string>;
  record(batch: RerunBatch): void;
  now?: () => number;
}

function tailOf(text: string): string {
  return text.trimEnd().split("\n").slice(-FAILURE_TAIL_LINES).join("\n");
}

export function rerunTool(options: RerunToolOptions): AnyTool {
  const now = options.now ?? Date.now;
  const schema = z
    .object({
      command: z
        .string()
        .describe(
          "The command that runs the test (or its file, or its suite) and exits non-zero when it fails, run with `bash -c` at the repository root; put the condition in it (`TZ=Asia/Tokyo npx jest -t 'name'`, `pytest -p random_order --random-order-seed=7 tests/test_x.py`).",
        ),
      condition: z
        .string()
        .min(1)
        .max(80)
        .describe(
          "A short name for what this batch varies: `isolated`, `in its file`, `shuffled order`, `seed 7`, `TZ=Asia/Tokyo`, `under CPU load`. Batches with the same name are compared before and after a fix.",
        ),
      runs: z
        .number()
        .int()
        .min(1)
        .max(RERUN_MAX_RUNS)
        .optional()
        .describe(`How many times to run it (default ${options.defaultRuns}).`),
      timeout_ms: z
        .number()
        .int()
        .min(1)
        .max(BASH_MAX_TIMEOUT_MS)
        .optional()
        .describe("Milliseconds each run may take (default: the sandbox's per-command timeout)."),
    })
    .strict();
  return defineTool({
    name: "rerun",
    description: [
      "Run one command many times in the sandbox and count how often it fails (a non-zero exit, a timeout or a signal is a failure): the harness's own numbers, which the tracking issue and the pull request report.",
      "Use it to reproduce a flaky test under one condition per batch, and after a fix to show the test now passes every run under the condition that made it fail.",
      `The batch stops starting runs after ${RERUN_BATCH_MS / 60_000} minutes and says how many ran. The answer gives the failures, a 95% interval, and the end of the first failing run's output.`,
    ].join(" "),
    schema,
    async run(args, context): Promise<ToolOutcome> {
      if (args.command.trim() === "") return failure("command is empty; give the test's command.");
      const verdict = context.gate.check(args.command);
      if (!verdict.allowed) {
        return failure(
          `refused by the permission rules: ${verdict.reason.replace(/\.\s*$/, "")}; nothing was run.`,
        );
      }
      const wanted = args.runs ?? options.defaultRuns;
      const timeoutMs = args.timeout_ms ?? context.sandbox.policy.timeoutMs;
      const changes = await options.changes();
      const started = now();
      let runs = 0;
      let failures = 0;
      let firstFailure: string | undefined;
      const exits = new Map<string, number>();
      while (runs < wanted && now() - started < RERUN_BATCH_MS && !context.signal?.aborted) {
        const ran = await runLine(context, args.command, timeoutMs);
        if (!ran.ok) return ran.outcome;
        const { result } = ran;
        if (result.cancelled) break;
        runs++;
        const exit = result.timedOut ? "timeout" : String(result.exitCode ?? result.signal);
        exits.set(exit, (exits.get(exit) ?? 0) + 1);
        if (exit !== "0") {
          failures++;
          firstFailure ??= tailOf(`${result.stdout.text}\n${result.stderr.text}`);
        }
      }
      if (runs === 0) return failure("No run finished: the run is stopping.");
      const batch: RerunBatch = {
        condition: args.condition,
        command: args.command,
        runs,
        failures,
        changes,
      };
      options.record(batch);
      const lines = [
        rerunWords(batch),
        `exits: ${[...exits.entries()].map(([exit, count]) => `${exit} ×${count}`).join(", ")}`,
      ];
      if (runs < wanted) {
        lines.push(
          `only ${runs} of the ${wanted} runs asked for ran (the batch's ${RERUN_BATCH_MS / 60_000}-minute limit, or the run is stopping).`,
        );
      }
      if (firstFailure !== undefined)
        lines.push(`the first failing run ended with:\n${firstFailure}`);
      return { content: lines.join("\n"), isError: false };
    },
  });
}
