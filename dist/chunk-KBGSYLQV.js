import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  callArguments,
  callSubject
} from "./chunk-EYJLS7SB.js";
import {
  totalTokens
} from "./chunk-RORLQNC6.js";

// src/present/describe.ts
var STOP_CAUSES = {
  max_turns: "the turn limit was reached",
  time_budget: "the time budget ran out",
  cost_budget: "the cost budget ran out",
  token_budget: "the token budget ran out",
  cancelled: "the run was cancelled",
  model_error: "the model call failed"
};
function stopWords(reason) {
  return reason === "done" ? "finished" : `stopped: ${STOP_CAUSES[reason]}`;
}
function describeCall(call) {
  const args = callArguments(call);
  if (args === null) return `${call.name} (unreadable arguments)`;
  const fallback = Array.isArray(args.todos) ? `${args.todos.length} items` : "";
  const text = (callSubject(call) ?? fallback).replace(/\s+/g, " ").trim();
  return `${call.name} ${text.length > 100 ? `${text.slice(0, 99)}\u2026` : text}`.trim();
}
function formatTotals(totals) {
  const { promptTokens, cachedTokens, completionTokens } = totals.usage;
  const cached = promptTokens === 0 ? 0 : Math.round(cachedTokens / promptTokens * 100);
  const tokens = totalTokens(totals.usage).toLocaleString("en-US");
  return `turns: ${totals.turns} \xB7 tokens: ${tokens} (prompt ${promptTokens.toLocaleString("en-US")}, ${cached}% cached; completion ${completionTokens.toLocaleString("en-US")}) \xB7 cost: $${totals.cost.toFixed(4)}`;
}

export {
  STOP_CAUSES,
  stopWords,
  describeCall,
  formatTotals
};
