/**
 * What a run tells people besides the progress comment, as effects: the job summary written to the
 * run's page, the action's outputs; and the one decision about the tally that delivery needs. The
 * words are present/'s (job-summary.ts, pull-request.ts, text.ts).
 */
import * as core from "@actions/core";
import type { Conclusion, PullLink } from "../domain/ending.ts";
import { totalTokens } from "../domain/usage.ts";
import type { Totals } from "../domain/usage.ts";
import { describeError } from "../errors.ts";
import { renderJobSummary } from "../present/job-summary.ts";
import type { JobReport } from "../present/job-summary.ts";

export interface ActionOutputs {
  conclusion: Conclusion;
  pull?: PullLink;
  branch?: string;
  totals?: Totals;
}

/** The rule is the run state's (domain/run-state.ts), shared with the CLI. */
export { allToolCallsFailed } from "../domain/run-state.ts";

/**
 * The job summary on the run's page. It is a view of the run: a failure to write it is a warning,
 * never a failed run.
 */
export async function writeJobSummary(
  report: JobReport,
  log: { warning(message: string): void },
  /** The final text's last pass before it is written (the secret check, as for comments). */
  withhold: (text: string) => string = (text) => text,
): Promise<void> {
  try {
    await core.summary
      .emptyBuffer()
      .addRaw(withhold(renderJobSummary(report)))
      .write();
  } catch (error) {
    core.summary.emptyBuffer();
    log.warning(`Could not write the job summary: ${describeError(error)}`);
  }
}

/**
 * The action's outputs, all of them every time (empty or zero when there is nothing to say), so a
 * later step can read them without checking which exist.
 */
export function setOutputs(outputs: ActionOutputs): void {
  const { pull, totals } = outputs;
  core.setOutput("conclusion", outputs.conclusion);
  core.setOutput("pr-url", pull?.url ?? "");
  core.setOutput("pr-number", pull === undefined ? "" : String(pull.number));
  core.setOutput("pull-request-operation", pull?.operation ?? "none");
  core.setOutput("branch", outputs.branch ?? "");
  core.setOutput("turns", String(totals?.turns ?? 0));
  core.setOutput("tokens", String(totals === undefined ? 0 : totalTokens(totals.usage)));
  core.setOutput("cost", (totals?.cost ?? 0).toFixed(4));
}
