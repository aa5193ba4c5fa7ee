/**
 * The `flaky_verdict` tool of a flaky-test triage: the agent's decision in fields the harness
 * reads — the root-cause category, fix / quarantine / nothing, the condition that made it fail —
 * rather than words in its summary. The harness then checks the decision against the reruns it
 * measured and the diff before anything is delivered (run/ends/flaky-request.ts).
 */
import { z } from "zod";
import { FLAKE_CATEGORIES } from "../../domain/flaky.ts";
import type { FlakeVerdict } from "../../domain/flaky.ts";
import type { ToolOutcome } from "../../domain/tools.ts";
import { defineTool } from "./tool.ts";
import type { AnyTool } from "./tool.ts";

const schema = z
  .object({
    category: z
      .enum(FLAKE_CATEGORIES)
      .describe("The root cause the reruns and the code show (`unknown` when neither does)."),
    action: z
      .enum(["fix", "quarantine", "none"])
      .describe(
        "`fix`: the change makes the test pass every rerun under the condition that made it fail. `quarantine`: skip it with its framework's own marker and a comment linking the tracking issue. `none`: no change (not reproduced and no plausible cause).",
      ),
    condition: z
      .string()
      .optional()
      .describe(
        "For a fix: the `condition` of the rerun batches that failed before the change and pass after it.",
      ),
    because: z
      .string()
      .min(1)
      .describe("One or two sentences: the cause, and the runs that show it."),
  })
  .strict();

export function flakyVerdictTool(record: (verdict: FlakeVerdict) => void): AnyTool {
  return defineTool({
    name: "flaky_verdict",
    description:
      "Record your decision on the flaky test before you finish: its root-cause category, the action (fix, quarantine or none), the failing condition for a fix, and why. Call it again to change it; the last call stands. The harness checks it against the rerun numbers and the diff.",
    schema,
    run(args): Promise<ToolOutcome> {
      record({ ...args });
      return Promise.resolve({
        content: `Recorded: ${args.action} (${args.category}). The harness checks it when you finish.`,
        isError: false,
      });
    },
  });
}
