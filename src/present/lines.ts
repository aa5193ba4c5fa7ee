/**
 * The run as lines of text: the action's job log (a line per tool call, the session's end) and the
 * CLI's terminal (a line per call and its result, the spinner's label, the closing account of a
 * run). Words only; where and when they are written is the caller's (log-groups.ts,
 * commands/progress.ts, commands/run.ts).
 */
import { describeError } from "../errors.ts";
import type { PitcrewError } from "../errors.ts";
import type { StopReason } from "../domain/loop.ts";
import type { ToolCall } from "../domain/messages.ts";
import type { ToolOutcome } from "../domain/tools.ts";
import type { Totals } from "../domain/usage.ts";
import { describeCall, formatTotals, stopWords } from "./describe.ts";

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").slice(0, 120);
}

// ---- The job log ------------------------------------------------------------------------------

/** `bash npm test (failed, 1.2 s)` */
export function logToolLine(call: ToolCall, outcome: ToolOutcome, durationMs: number): string {
  return `${describeCall(call)} (${outcome.isError ? "failed, " : ""}${seconds(durationMs)})`;
}

export const LOG_ANSWERED = "the model answered without a tool call: its summary";

/** `agent session finished`, `agent session stopped: the turn limit was reached` */
export function logStopLine(reason: StopReason): string {
  return `agent session ${stopWords(reason)}`;
}

// ---- The terminal -----------------------------------------------------------------------------

export function spinnerLabel(turn: number): string {
  return `turn ${turn}: waiting for the model`;
}

/** `→ bash npm test` */
export function terminalCallLine(call: ToolCall): string {
  return `→ ${describeCall(call)}`;
}

/** `  ✗ the first line of the failure (1.2 s)` */
export function terminalResultLine(outcome: ToolOutcome, durationMs: number): string {
  const status = outcome.isError ? `✗ ${firstLine(outcome.content)}` : firstLine(outcome.content);
  return `  ${status} (${seconds(durationMs)})`;
}

export const TERMINAL_COMPACTED =
  "↻ the conversation was compacted into a handoff note; work continues from it";

/** What `pitcrew run` leaves on the run's branch. */
export interface LocalDelivery {
  branch: string;
  committed: boolean;
  sha?: string;
  diffstat: string;
  /** The branch stays (it holds this run's commit or an earlier run's). */
  kept: boolean;
}

/** The account `pitcrew run` prints at the end: the answer, how it ended, the branch, the cost. */
export function terminalReport(facts: {
  summary: string;
  stopReason: StopReason;
  error?: PitcrewError;
  delivery: LocalDelivery;
  totals: Totals;
  /** All runs on the branch, when this run continued earlier ones. */
  thread?: Totals & { runs: number };
}): string {
  const { delivery } = facts;
  const out: string[] = [];
  if (facts.summary) out.push(facts.summary, "");
  out.push(`${stopWords(facts.stopReason)}.`);
  if (facts.error) out.push(describeError(facts.error));
  if (delivery.committed) {
    out.push(
      `branch: ${delivery.branch} (commit ${delivery.sha?.slice(0, 12)})`,
      delivery.diffstat,
    );
  } else if (delivery.kept) {
    out.push(`branch: ${delivery.branch} (no new changes in this run)`);
  } else {
    out.push("No changes: the agent left the repository as it was, so no branch was kept.");
  }
  if (delivery.kept) out.push(`Continue from here: git switch ${delivery.branch}`);
  if (facts.stopReason !== "done")
    out.push('Or let the agent carry on: pitcrew run --continue ["what to do next"]');
  out.push(formatTotals(facts.totals));
  if (facts.thread)
    out.push(`all ${facts.thread.runs} runs on this branch: ${formatTotals(facts.thread)}`);
  return `${out.join("\n")}\n`;
}
