/**
 * What the agent loop says while it works (events) and what it hands back (its result and why it
 * stopped). The loop (agent/loop.ts) produces them; the notes, the progress comment, the report
 * and the CLI read them. Types only.
 */
import type { PitcrewError } from "../errors.ts";
import type { Message, ToolCall } from "./messages.ts";
import type { Todo } from "./todos.ts";
import type { ToolOutcome } from "./tools.ts";
import type { Usage } from "./usage.ts";

export type StopReason =
  | "done"
  | "max_turns"
  | "time_budget"
  | "cost_budget"
  | "token_budget"
  | "cancelled"
  | "model_error";

/** A compaction: the handoff note that replaced the older history. */
export interface Compaction {
  note: string;
  /** Stored-history index where the messages kept after the note start. */
  from: number;
}

export type LoopEvent =
  | { type: "turn_start"; turn: number }
  | { type: "assistant"; turn: number; content: string; toolCalls: ToolCall[] }
  | { type: "tool_start"; turn: number; call: ToolCall }
  | { type: "tool_end"; turn: number; call: ToolCall; outcome: ToolOutcome; durationMs: number }
  | {
      type: "usage";
      turn: number;
      usage: Usage;
      cost: number;
      totalUsage: Usage;
      totalCost: number;
    }
  | { type: "context"; turn: number; fired: string[]; tokens: number }
  | { type: "compaction"; turn: number; compaction: Compaction }
  | { type: "stop"; reason: StopReason; error?: PitcrewError };

export interface LoopResult {
  stopReason: StopReason;
  /** The model's final answer when it finished; otherwise the last thing it said. */
  summary: string;
  /** The whole history, the given messages first. */
  messages: Message[];
  usage: Usage;
  cost: number;
  /** Model requests that were answered (one the model never answered is not counted). */
  turns: number;
  /** The named error behind `model_error` (or a cancellation). */
  error?: PitcrewError;
}

/** A session's result: the loop's, with the todo list as the model left it. */
export interface SessionResult extends LoopResult {
  todos: Todo[];
}
