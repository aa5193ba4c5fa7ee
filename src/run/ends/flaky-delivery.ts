/**
 * The delivery of a flaky-test triage: the thread delivery (push, PR, progress comment on the
 * tracking issue, job summary) with the verdict checked once more on the final diff — the loop
 * accepts an answer after two refusals, the delivery does not. A fix that holds is a ready PR
 * titled as a fix; a quarantine that holds a ready PR titled and marked as a quarantine, never as a
 * fix; anything else that changed code is a draft that says what is missing; "none" changes
 * nothing and opens nothing.
 */
import type { FlakeEntry } from "../../domain/flaky.ts";
import { flakyPullSection, trackingTitle } from "../../present/flaky-report.ts";
import { codeSpan } from "../../present/text.ts";
import type { DeliveryPort } from "../ports.ts";
import { threadDelivery } from "./action-delivery.ts";
import type { Delivered, ThreadDeliveryOptions } from "./action-delivery.ts";
import type { ThreadWorkspace } from "./action-workspace.ts";
import { checkVerdict } from "./flaky-request.ts";
import type { TriageRecord, VerdictRules } from "./flaky-request.ts";

export interface FlakyDeliveryOptions
  extends Omit<ThreadDeliveryOptions, "beforeDeliver" | "issueTitle">, VerdictRules {
  entry: FlakeEntry;
  record: TriageRecord;
}

/** Whether the delivered work is the fix or the quarantine the verdict says, once delivered. */
export interface DeliveredVerdict {
  holds: boolean;
  problem?: string;
}

export function flakyDelivery(
  options: FlakyDeliveryOptions,
  checked: DeliveredVerdict = { holds: false },
): DeliveryPort<ThreadWorkspace, Delivered> {
  const { entry, record } = options;
  const title = trackingTitle(entry);
  return threadDelivery({
    ...options,
    issueTitle: () => Promise.resolve(title),
    beforeDeliver: async (_result, workspace) => {
      const problem = await checkVerdict(record, workspace, options);
      checked.holds = problem === undefined;
      checked.problem = problem;
      const verdict = record.verdict;
      if (problem === undefined && verdict !== undefined && verdict.action !== "none") {
        const what = verdict.action === "fix" ? "Fix" : "Quarantine (not a fix)";
        return {
          title: `${what}: ${title}`,
          section: flakyPullSection({
            verdict,
            batches: record.batches,
            issueUrl: options.issueUrl,
          }),
          draft: false,
        };
      }
      return {
        title: `Unconfirmed change: ${title}`,
        section: [
          "### Flaky-test triage",
          `> [!WARNING]\n> **Not confirmed:** the harness could not accept this change as a fix or a quarantine: ${codeSpan(problem ?? "no verdict")}. It is kept as a draft so nothing is lost; ${options.issueUrl} tracks the test.`,
        ].join("\n\n"),
        draft: true,
      };
    },
  });
}
