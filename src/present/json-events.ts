/**
 * `pitcrew run --json`: the run as one JSON object per line on stdout, for scripts. The shapes
 * are documented in docs/agent.md ("pitcrew run --json"); each has a `type`, and names are
 * snake_case. Pure builders; commands/progress.ts writes them.
 */
import { PitcrewError, describeError } from "../errors.ts";
import { TODO_WRITE } from "../domain/todos.ts";
import type { ToolTally } from "../domain/run-state.ts";
import { ZERO_USAGE, totalTokens } from "../domain/usage.ts";
import type { Totals, Usage } from "../domain/usage.ts";
import { callLine, callParts } from "./progress.ts";
import type { CallFacts } from "./progress.ts";
import type { RunEnd } from "./lines.ts";
import { toolFailureWords } from "./lines.ts";

/** Dollars to a millionth, without float noise (0.0077540000000000005 → 0.007754). */
const dollars = (cost: number): number => Math.round(cost * 1e6) / 1e6;

function tokens(usage: Usage): Record<string, number> {
  return {
    prompt: usage.promptTokens,
    cached: usage.cachedTokens,
    completion: usage.completionTokens,
    total: totalTokens(usage),
  };
}

export function startEvent(start: {
  worktree: string;
  branch: string;
  base: string;
  continued: boolean;
  uncommitted: { files: number; included: boolean };
}): object {
  return { type: "start", ...start };
}

export function turnEvent(turn: number, maxTurns: number, elapsedMs: number): object {
  return { type: "turn", turn, max_turns: maxTurns, elapsed_ms: Math.round(elapsedMs) };
}

export function toolEvent(facts: CallFacts): object {
  const { subject, result, detail } = callParts(facts);
  const command = facts.outcome.details?.command;
  return {
    type: "tool",
    turn: facts.turn,
    max_turns: facts.maxTurns,
    elapsed_ms: Math.round(facts.elapsedMs),
    name: facts.call.name,
    subject,
    ok: !facts.outcome.isError,
    result,
    detail,
    exit_code: command === undefined ? null : command.exitCode,
    duration_ms: Math.round(facts.durationMs),
    text: callLine(facts),
  };
}

export function usageEvent(turn: number, totals: Totals): object {
  return { type: "usage", turn, tokens: tokens(totals.usage), cost: dollars(totals.cost) };
}

export function compactionEvent(turn: number, elapsedMs: number): object {
  return { type: "compaction", turn, elapsed_ms: Math.round(elapsedMs) };
}

function calls(tally: ToolTally): { total: number; failed: number } {
  const counted = tally.filter((count) => count.name !== TODO_WRITE);
  return {
    total: counted.reduce((sum, count) => sum + count.calls, 0),
    failed: counted.reduce((sum, count) => sum + count.failures, 0),
  };
}

function errorOf(error: unknown): { code: string; message: string } | null {
  if (error === undefined) return null;
  if (error instanceof PitcrewError) {
    return { code: error.code, message: error.cliMessage ?? error.message };
  }
  return { code: "unexpected", message: describeError(error) };
}

/** The last event of a run that reached its end (finished, stopped, or failed in its tools). */
export function endEvent(facts: RunEnd & { tally: ToolTally; exitCode: number }): object {
  const { delivery, toolFailure } = facts;
  const outcome =
    toolFailure !== undefined || facts.stopReason === "model_error"
      ? "failed"
      : facts.stopReason === "done"
        ? "finished"
        : "stopped";
  return {
    type: "end",
    outcome,
    stop_reason: facts.stopReason,
    error:
      toolFailure !== undefined
        ? { code: "run-tools-failed", message: toolFailureWords(toolFailure) }
        : errorOf(facts.error),
    summary: facts.summary,
    branch: delivery.kept ? delivery.branch : null,
    commit: delivery.committed ? (delivery.sha ?? null) : null,
    diffstat: delivery.diffstat,
    turns: facts.totals.turns,
    tokens: tokens(facts.totals.usage),
    cost: dollars(facts.totals.cost),
    tool_calls: calls(facts.tally),
    exit_code: facts.exitCode,
  };
}

/** The last event of a run that failed before its end (a config error, git, the sandbox). */
export function failedEvent(facts: {
  error: unknown;
  keptOn: string | undefined;
  totals: Totals | undefined;
  tally: ToolTally;
  exitCode: number;
}): object {
  const totals = facts.totals ?? { turns: 0, usage: ZERO_USAGE, cost: 0 };
  return {
    type: "end",
    outcome: "failed",
    stop_reason: null,
    error: errorOf(facts.error),
    summary: "",
    branch: facts.keptOn ?? null,
    commit: null,
    diffstat: "",
    turns: totals.turns,
    tokens: tokens(totals.usage),
    cost: dollars(totals.cost),
    tool_calls: calls(facts.tally),
    exit_code: facts.exitCode,
  };
}
