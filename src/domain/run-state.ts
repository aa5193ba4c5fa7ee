/**
 * The run's state, and the one fold that builds it from the loop's events: the todo list, the
 * totals, the tool tally (and the rule that a run whose every tool call failed is a failure), what
 * the agent is doing now, the files it wrote, the first failed call, the latest handoff note.
 * The progress comment, the job summary, the checkpoint, the log groups and the CLI's lines all
 * read this state; none of them keeps a tally of its own. Pure data and pure functions: it sits with
 * the vocabulary so that every layer above can read it. How the state is worded is present/'s.
 */
import type { LoopEvent, LoopResult } from "./loop.ts";
import type { ToolCall } from "./messages.ts";
import { TODO_WRITE } from "./todos.ts";
import type { Todo } from "./todos.ts";
import type { Totals, Usage } from "./usage.ts";

/** What the agent is doing now. */
export type Activity =
  { kind: "model"; turn: number } | { kind: "tool"; call: ToolCall } | { kind: "compacting" };

/** One tool's calls in a run. */
export interface ToolCount {
  name: string;
  calls: number;
  failures: number;
  totalMs: number;
}

/** Every tool the model called, in the order of first use. */
export type ToolTally = readonly ToolCount[];

/** What one model call cost (the transcript records it per turn). */
export interface TurnUsage {
  turn: number;
  usage: Usage;
  cost: number;
}

export interface RunState {
  /** The turn under way; 0 before the first. */
  turn: number;
  /** The list the agent set in this run; undefined until it sets one. */
  todos?: readonly Todo[];
  /** Undefined before the first turn and once the session has returned. */
  activity?: Activity;
  /** This run's totals: running totals while it works, the session's own once it returned. */
  totals?: Totals;
  perTurn: readonly TurnUsage[];
  tally: ToolTally;
  /** Files the agent's `write` and `edit` calls changed, relative to the workspace, first-write order. */
  written: readonly string[];
  /** The handoff note of this run's latest compaction. */
  note?: string;
  /** The first failed call that touches the workspace (any tool but the todo list): its error. */
  firstFailure?: { name: string; error: string };
}

export const RUN_START: RunState = { turn: 0, perTurn: [], tally: [], written: [] };

/** The state after one more loop event. */
export function foldEvent(state: RunState, event: LoopEvent): RunState {
  switch (event.type) {
    case "turn_start":
      return { ...state, turn: event.turn, activity: { kind: "model", turn: event.turn } };
    case "tool_start":
      return { ...state, activity: { kind: "tool", call: event.call } };
    case "tool_end": {
      const { details, isError } = event.outcome;
      const written = details?.written;
      return {
        ...state,
        tally: tallied(state.tally, event.call.name, isError, event.durationMs),
        firstFailure:
          state.firstFailure ??
          (isError && event.call.name !== TODO_WRITE
            ? { name: event.call.name, error: event.outcome.content }
            : undefined),
        // Only a list the tool accepted is the agent's list; a refused one changed nothing.
        todos: isError || details?.todos === undefined ? state.todos : details.todos,
        written:
          isError || written === undefined || state.written.includes(written)
            ? state.written
            : [...state.written, written],
      };
    }
    case "usage":
      return {
        ...state,
        totals: { turns: event.turn, usage: event.totalUsage, cost: event.totalCost },
        perTurn: [...state.perTurn, { turn: event.turn, usage: event.usage, cost: event.cost }],
      };
    case "compaction":
      return { ...state, activity: { kind: "compacting" }, note: event.compaction.note };
    case "assistant":
    case "context":
    case "stop":
      return state;
  }
}

/** The state once the session has returned: nothing under way, and the session's own totals. */
export function settle(state: RunState, result: LoopResult): RunState {
  const { turns, usage, cost } = result;
  return { ...state, activity: undefined, totals: { turns, usage, cost } };
}

/**
 * Whether the agent never managed to touch the workspace: it made calls, and every one failed.
 * The todo list is left out (it runs without the sandbox, so it succeeds even when nothing else
 * can). A run like that changed nothing, but "no changes" or "finished" would be a lie: it is a
 * failure, for the action and the CLI alike.
 */
export function allToolCallsFailed(tally: ToolTally): boolean {
  const workspace = tally.filter((count) => count.name !== TODO_WRITE);
  return workspace.length > 0 && workspace.every((count) => count.failures === count.calls);
}

/** When every call that touches the workspace failed: how many there were, and the first error. */
export function toolCallsFailure(state: RunState): { calls: number; error: string } | undefined {
  if (!allToolCallsFailed(state.tally)) return undefined;
  const calls = state.tally
    .filter((count) => count.name !== TODO_WRITE)
    .reduce((sum, count) => sum + count.calls, 0);
  return { calls, error: state.firstFailure?.error ?? "" };
}

function tallied(tally: ToolTally, name: string, isError: boolean, ms: number): ToolTally {
  const counted = tally.some((count) => count.name === name)
    ? tally
    : [...tally, { name, calls: 0, failures: 0, totalMs: 0 }];
  return counted.map((count) =>
    count.name === name
      ? {
          name,
          calls: count.calls + 1,
          failures: count.failures + (isError ? 1 : 0),
          totalMs: count.totalMs + ms,
        }
      : count,
  );
}
