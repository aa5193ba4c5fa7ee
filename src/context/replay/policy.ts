/**
 * What the replay harness asks of a context policy: given the history before one model call, the
 * messages that call would send. The harness owns counting, caching and cost; a policy only
 * decides the view. Shipped here: the naive policy (send the whole history), the baseline every
 * other policy is measured against, and the stand-in summary that compaction uses in replay (no
 * model is called during a replay).
 */
import type { Message } from "../../domain/messages.ts";
import type { ToolDefinition } from "../../domain/tools.ts";

export interface PolicyView {
  /** The messages this request would send, tools excluded (the harness adds them in front). */
  messages: Message[];
  /** True when the policy compacted before this request (a handoff). Counted as a compaction. */
  compacted?: boolean;
  /**
   * When compacting costs a model call of its own (the summary request: the current prefix plus
   * one instruction), its messages. The harness counts it as a request made just before this one:
   * its tokens, its cache hits and its size against the window.
   */
  summaryRequest?: Message[];
  /**
   * The message a policy appends to every request and never stores (pitcrew's reminder): sent
   * last, so never cached. The harness counts its tokens apart, to tell what the layers cost from
   * what the reminder does.
   */
  reminder?: Message;
}

export interface ReplayPolicy {
  name: string;
  /**
   * Called once per request, in order; returns the messages that would be sent. May keep state
   * across calls (sticky decisions). `history` is everything recorded before the request, never
   * changed by the harness; `window` is the context window in tokens. May be async (a policy
   * built on the loop's own context manager is); the harness awaits each view before the next.
   */
  view(history: readonly Message[], window: number): PolicyView | Promise<PolicyView>;
  /**
   * After each request of the loop (not a summary call): its prompt tokens as the harness counted
   * them, what the API would have reported. A policy that anchors on reported usage learns it here.
   */
  record?(promptTokens: number): void;
}

/** The window a replay runs at unless told otherwise. */
export const DEFAULT_WINDOW = 128_000;

/** What a policy is built for: one recorded session at one window. */
export interface PolicySetup {
  window: number;
  /** The tool definitions every request of the session sends in front of its messages. */
  tools: readonly ToolDefinition[];
}

/** A fresh policy for one recorded session (policies keep state, so sessions never share one). */
export type PolicyFactory = (setup: PolicySetup) => ReplayPolicy;

/** Send the whole history every time: what an append-only agent does. */
export function naivePolicy(): ReplayPolicy {
  return { name: "naive", view: (history) => ({ messages: [...history] }) };
}

/** The size of the stand-in summary, in o200k tokens (checked by the tests). */
export const STAND_IN_SUMMARY_TOKENS = 2_000;

/**
 * The summary a compaction produces in replay: deterministic text of exactly
 * STAND_IN_SUMMARY_TOKENS o200k tokens, so a replay measures where and how often a policy
 * compacts, not what a model would have written. " note" is one token per word.
 */
export const STAND_IN_SUMMARY = `[replay: stand-in for the handoff summary]${" note".repeat(
  STAND_IN_SUMMARY_TOKENS - 12,
)}`;
