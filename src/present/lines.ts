/**
 * The run as lines of text: the action's job log (a line per tool call, the session's end) and the
 * CLI's closing account of a run (its progress lines are progress.ts's), a failure's lines, the
 * verdict on a run whose every tool call failed. Words only; where and when they are written is
 * the caller's (log-groups.ts, run/ends/local-delivery.ts).
 */
import { describeErrorForCli } from "../errors.ts";
import type { PitcrewError } from "../errors.ts";
import type { StopReason } from "../domain/loop.ts";
import type { ToolCall } from "../domain/messages.ts";
import type { ToolOutcome } from "../domain/tools.ts";
import type { Totals } from "../domain/usage.ts";
import { describeCall, formatTotals, stopWords } from "./describe.ts";
import { cutAtWord } from "./progress.ts";

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

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

/** The first line of the commit that holds the checkout's uncommitted changes (--include-uncommitted). */
export const SNAPSHOT_MESSAGE =
  "pitcrew run: the checkout's uncommitted changes, as the run found them";

/** Why a run whose every tool call failed is a failure: `4/4 tool calls failed: <the first error>`. */
export function toolFailureWords(failure: { calls: number; error: string }): string {
  const error = cutAtWord(failure.error.split("\n").find((line) => line.trim() !== "") ?? "", 300);
  return `${failure.calls}/${failure.calls} tool calls failed${error === "" ? "" : `: ${error}`}`;
}

/** What `pitcrew run` leaves on the run's branch. */
export interface LocalDelivery {
  branch: string;
  committed: boolean;
  sha?: string;
  diffstat: string;
  /** The branch stays (it holds this run's commit or an earlier run's). */
  kept: boolean;
}

/** How a local run ended, for its account (terminalReport) and its last JSON event. */
export interface RunEnd {
  summary: string;
  stopReason: StopReason;
  error?: PitcrewError;
  /** Set when every tool call failed: the run failed, whatever the model said. */
  toolFailure?: { calls: number; error: string };
  delivery: LocalDelivery;
  totals: Totals;
}

/** The account `pitcrew run` prints at the end: the answer, how it ended, the branch, the cost. */
export function terminalReport(
  facts: RunEnd & {
    /** All runs on the branch, when this run continued earlier ones. */
    thread?: Totals & { runs: number };
  },
): string {
  const { delivery, toolFailure } = facts;
  const out: string[] = [];
  if (facts.summary) out.push(facts.summary, "");
  const verdict = toolFailure
    ? `failed: ${toolFailureWords(toolFailure)}`
    : stopWords(facts.stopReason);
  out.push(`${verdict.replace(/\.$/, "")}.`);
  if (facts.error) out.push(describeErrorForCli(facts.error));
  if (delivery.committed) {
    out.push(
      `branch: ${delivery.branch} (commit ${delivery.sha?.slice(0, 12)})`,
      delivery.diffstat,
    );
  } else if (delivery.kept) {
    out.push(`branch: ${delivery.branch} (no new changes in this run)`);
  } else if (facts.totals.turns === 0) {
    out.push("Nothing changed: the model never answered, so no branch was kept.");
  } else {
    out.push("No changes: the agent left the repository as it was, so no branch was kept.");
  }
  if (delivery.kept) out.push(`Continue from here: git switch ${delivery.branch}`);
  // Going on helps only where work was under way: not before the first answer, not when no call worked.
  if (facts.stopReason !== "done" && facts.totals.turns > 0 && toolFailure === undefined)
    out.push('Or let the agent carry on: pitcrew run --continue ["what to do next"]');
  out.push(formatTotals(facts.totals));
  if (facts.thread)
    out.push(`all ${facts.thread.runs} runs on this branch: ${formatTotals(facts.thread)}`);
  return `${out.join("\n")}\n`;
}

/** What a run that failed before its end says on stderr: the error, and where its work is kept. */
export function failureLines(error: unknown, keptOn: string | undefined): string {
  const kept =
    keptOn === undefined
      ? ""
      : `pitcrew run: the changes made so far are kept on branch ${keptOn}\n`;
  return `pitcrew run: ${describeErrorForCli(error)}\n${kept}`;
}
