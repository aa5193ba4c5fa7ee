import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  TODO_WRITE
} from "./chunk-6DBGH7EK.js";

// src/domain/run-state.ts
var RUN_START = { turn: 0, perTurn: [], tally: [], written: [] };
function foldEvent(state, event) {
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
        firstFailure: state.firstFailure ?? (isError && event.call.name !== TODO_WRITE ? { name: event.call.name, error: event.outcome.content } : void 0),
        // Only a list the tool accepted is the agent's list; a refused one changed nothing.
        todos: isError || details?.todos === void 0 ? state.todos : details.todos,
        written: isError || written === void 0 || state.written.includes(written) ? state.written : [...state.written, written]
      };
    }
    case "usage":
      return {
        ...state,
        totals: { turns: event.turn, usage: event.totalUsage, cost: event.totalCost },
        perTurn: [...state.perTurn, { turn: event.turn, usage: event.usage, cost: event.cost }]
      };
    case "compaction":
      return { ...state, activity: { kind: "compacting" }, note: event.compaction.note };
    case "assistant":
    case "context":
    case "stop":
      return state;
  }
}
function settle(state, result) {
  const { turns, usage, cost } = result;
  return { ...state, activity: void 0, totals: { turns, usage, cost } };
}
function allToolCallsFailed(tally) {
  const workspace = tally.filter((count) => count.name !== TODO_WRITE);
  return workspace.length > 0 && workspace.every((count) => count.failures === count.calls);
}
function toolCallsFailure(state) {
  if (!allToolCallsFailed(state.tally)) return void 0;
  const calls = state.tally.filter((count) => count.name !== TODO_WRITE).reduce((sum, count) => sum + count.calls, 0);
  return { calls, error: state.firstFailure?.error ?? "" };
}
function tallied(tally, name, isError, ms) {
  const counted = tally.some((count) => count.name === name) ? tally : [...tally, { name, calls: 0, failures: 0, totalMs: 0 }];
  return counted.map(
    (count) => count.name === name ? {
      name,
      calls: count.calls + 1,
      failures: count.failures + (isError ? 1 : 0),
      totalMs: count.totalMs + ms
    } : count
  );
}

export {
  RUN_START,
  foldEvent,
  settle,
  allToolCallsFailed,
  toolCallsFailure
};
