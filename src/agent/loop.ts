/**
 * The agent loop: request → tool calls → results → repeat, until the model answers without tool
 * calls (its summary) or a limit stops it. It knows nothing of GitHub: it emits events, and it
 * returns the history, the usage and a stop reason as values. What each request sends is the
 * context policy's business (context/policy.ts): the loop is handed one and asks it. Every tool call the model makes gets
 * exactly one tool message, whatever happens; a malformed call gets an error result naming the
 * problem, never a crash.
 */
import { PitcrewError } from "../errors.ts";
import type { LoopEvent, LoopResult, StopReason } from "../domain/loop.ts";
import type { Message, ToolCall } from "../domain/messages.ts";
import type { ToolDefinition, ToolOutcome } from "../domain/tools.ts";
import { ZERO_USAGE, addUsage } from "../domain/usage.ts";
import type { Usage } from "../domain/usage.ts";
import type { ModelRequest, ModelResponse } from "./model.ts";
import type { AnyTool, ToolContext } from "./tools/tool.ts";
import { runToolCall } from "./dispatch.ts";
import type { ContextPolicy } from "../context/policy.ts";

/** The model as the loop needs it (model.ts provides the real one). */
export interface ModelPort {
  complete(request: ModelRequest): Promise<ModelResponse>;
}

export interface Limits {
  /** Model requests at most. */
  maxTurns: number;
  /** Wall-clock budget for the whole loop, in ms. */
  timeBudgetMs?: number;
  /** Cost budget in USD (from the price table). */
  costBudget?: number;
  /** Total tokens (prompt + completion) at most. */
  tokenBudget?: number;
}

export interface LoopOptions {
  model: ModelPort;
  tools: readonly AnyTool[];
  definitions: readonly ToolDefinition[];
  context: ToolContext;
  /** The history to continue from: at least the system prompt and the task. */
  messages: readonly Message[];
  limits: Limits;
  promptCacheKey: string;
  signal?: AbortSignal;
  onEvent?: (event: LoopEvent) => void;
  now?: () => number;
  /** What each request sends: the view of the history, the reminder last (session.ts builds it). */
  policy: ContextPolicy;
  /**
   * Asked when the model answers without tool calls, before the run counts as done: a sentence is
   * the harness's refusal (a CI repair that weakens a test, a proof still red), sent to the model
   * as a user message so it goes on; undefined accepts. Asked at most MAX_DONE_REFUSALS times.
   */
  checkDone?: () => Promise<string | undefined>;
}

/** How often the harness may send a finished answer back before it accepts one anyway. */
export const MAX_DONE_REFUSALS = 2;

function limitReached(
  options: LoopOptions,
  state: { turns: number; cost: number; usage: Usage; started: number },
): StopReason | null {
  const { limits, signal } = options;
  if (signal?.aborted) return "cancelled";
  if (state.turns >= limits.maxTurns) return "max_turns";
  const now = (options.now ?? Date.now)();
  if (limits.timeBudgetMs !== undefined && now - state.started >= limits.timeBudgetMs)
    return "time_budget";
  if (limits.costBudget !== undefined && state.cost >= limits.costBudget) return "cost_budget";
  const tokens = state.usage.promptTokens + state.usage.completionTokens;
  if (limits.tokenBudget !== undefined && tokens >= limits.tokenBudget) return "token_budget";
  return null;
}

export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const emit = options.onEvent ?? (() => undefined);
  const messages: Message[] = [...options.messages];
  const state = { turns: 0, cost: 0, usage: ZERO_USAGE, started: (options.now ?? Date.now)() };
  let summary = "";
  let refusals = 0;

  const account = (response: ModelResponse): void => {
    state.usage = addUsage(state.usage, response.usage);
    state.cost += response.cost;
  };
  const request = (messages: Message[]): Promise<ModelResponse> =>
    options.model.complete({
      messages,
      tools: [...options.definitions],
      promptCacheKey: options.promptCacheKey,
      signal: options.signal,
    });
  /** The handoff note's model call: counted like any other request. */
  const summarize = async (messages: Message[]): Promise<string> => {
    const response = await request(messages);
    account(response);
    return response.content;
  };

  /**
   * One model request over the policy's view of the history. A too-long rejection is answered by
   * compacting and retrying once, then by dropping the oldest rounds and retrying; a third
   * rejection is the named failure.
   */
  const requestWithContext = async (turn: number): Promise<ModelResponse> => {
    const { policy } = options;
    for (let attempt = 0; ; attempt++) {
      const view = await policy.view(messages, summarize);
      if (view.compaction) emit({ type: "compaction", turn, compaction: view.compaction });
      if (view.fired.length > 0)
        emit({ type: "context", turn, fired: view.fired, tokens: view.tokens });
      try {
        const response = await request(view.messages);
        policy.record(response.usage);
        return response;
      } catch (error) {
        if (
          !(error instanceof PitcrewError) ||
          error.code !== "model-context-too-long" ||
          attempt >= 2
        )
          throw error;
        if (attempt === 0) {
          const compaction = await policy.compact(messages, summarize);
          emit({ type: "compaction", turn, compaction });
        } else policy.dropOldest(messages);
      }
    }
  };

  const stop = (reason: StopReason, error?: PitcrewError): LoopResult => {
    emit({ type: "stop", reason, error });
    return {
      stopReason: reason,
      summary,
      messages,
      usage: state.usage,
      cost: state.cost,
      turns: state.turns,
      error,
    };
  };

  for (;;) {
    const limit = limitReached(options, state);
    if (limit !== null) return stop(limit);

    state.turns += 1;
    const turn = state.turns;
    emit({ type: "turn_start", turn });
    let response: ModelResponse;
    try {
      response = await requestWithContext(turn);
    } catch (error) {
      // A request the model never answered is not a turn: a 401 on the first one is "turns: 0".
      state.turns = turn - 1;
      if (options.signal?.aborted) return stop("cancelled");
      const named =
        error instanceof PitcrewError
          ? error
          : new PitcrewError("model-unavailable", `The model call failed: ${String(error)}`, {
              cause: error,
            });
      return stop("model_error", named);
    }

    account(response);
    emit({
      type: "usage",
      turn,
      usage: response.usage,
      cost: response.cost,
      totalUsage: state.usage,
      totalCost: state.cost,
    });

    messages.push({ role: "assistant", content: response.content, toolCalls: response.toolCalls });
    if (response.content.trim() !== "") summary = response.content;
    emit({ type: "assistant", turn, content: response.content, toolCalls: response.toolCalls });
    if (response.toolCalls.length === 0) {
      const refusal =
        refusals < MAX_DONE_REFUSALS && options.checkDone ? await options.checkDone() : undefined;
      if (refusal === undefined) return stop("done");
      refusals += 1;
      messages.push({ role: "user", content: refusal });
      continue;
    }

    // Calls run one after another: two sandboxes setting up at once could race each other's
    // checks of the protected paths, and ordered effects are easier to follow.
    for (const call of response.toolCalls) {
      if (options.signal?.aborted) {
        messages.push(
          toolMessage(call, { content: "Not run: the run was cancelled.", isError: true }),
        );
        continue;
      }
      emit({ type: "tool_start", turn, call });
      const started = performance.now();
      const outcome = await runToolCall(call, options.tools, options.context);
      emit({ type: "tool_end", turn, call, outcome, durationMs: performance.now() - started });
      messages.push(toolMessage(call, outcome));
    }
  }
}

function toolMessage(call: ToolCall, outcome: ToolOutcome): Message {
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: outcome.content,
    isError: outcome.isError,
  };
}
