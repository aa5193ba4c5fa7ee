/**
 * A run put into words for people: a tool call in one line, why the loop stopped, and the totals
 * (turns, tokens, cache, cost). One wording for the CLI, the progress comment, the pull request and
 * the job summary; how each of them lays the words out is theirs.
 */
import type { StopReason } from "../domain/loop.ts";
import { callArguments, callSubject } from "../domain/messages.ts";
import type { ToolCall } from "../domain/messages.ts";
import { totalTokens } from "../domain/usage.ts";
import type { Totals } from "../domain/usage.ts";

/** Why the loop stopped before the model finished, as the end of "stopped: …". */
export const STOP_CAUSES: Record<Exclude<StopReason, "done">, string> = {
  max_turns: "the turn limit was reached",
  time_budget: "the time budget ran out",
  cost_budget: "the cost budget ran out",
  token_budget: "the token budget ran out",
  cancelled: "the run was cancelled",
  model_error: "the model call failed",
};

/** `finished`, or `stopped: <cause>`. */
export function stopWords(reason: StopReason): string {
  return reason === "done" ? "finished" : `stopped: ${STOP_CAUSES[reason]}`;
}

/** A short, one-line view of a tool call's arguments. */
export function describeCall(call: ToolCall): string {
  const args = callArguments(call);
  if (args === null) return `${call.name} (unreadable arguments)`;
  const fallback = Array.isArray(args.todos) ? `${args.todos.length} items` : "";
  const text = (callSubject(call) ?? fallback).replace(/\s+/g, " ").trim();
  return `${call.name} ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`.trim();
}

/** `turns: 12 · tokens: 48,210 (prompt 45,000, 81% cached; completion 3,210) · cost: $0.0412` */
export function formatTotals(totals: Totals): string {
  const { promptTokens, cachedTokens, completionTokens } = totals.usage;
  const cached = promptTokens === 0 ? 0 : Math.round((cachedTokens / promptTokens) * 100);
  const tokens = totalTokens(totals.usage).toLocaleString("en-US");
  return `turns: ${totals.turns} · tokens: ${tokens} (prompt ${promptTokens.toLocaleString("en-US")}, ${cached}% cached; completion ${completionTokens.toLocaleString("en-US")}) · cost: $${totals.cost.toFixed(4)}`;
}
