/**
 * The hard window guarantee's pieces: a message cut to a number of tokens, whatever its role (a
 * looping answer, a pasted log, a result bigger than the window), and the largest cap under which
 * every message of a request fits one budget (water-filling). Decisions only: the manager says
 * when they apply, and the stored history keeps every message whole. Pure.
 */
import { callArguments } from "../domain/messages.ts";
import type { Message, ToolCall } from "../domain/messages.ts";
import { keepEnds } from "./cap.ts";

/** Tool-call arguments longer than this (write contents) are slimmed when they must shrink. */
export const BULKY_ARGUMENT_CHARS = 1_000;

/** A call with its long string arguments replaced by their length (still JSON: the API parses it). */
export function slimArguments(call: ToolCall): ToolCall {
  if (call.arguments.length <= BULKY_ARGUMENT_CHARS) return call;
  const args = callArguments(call);
  if (args !== null) {
    const slim: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(args)) {
      slim[key] =
        typeof value === "string" && value.length > 200
          ? `[cleared: ${value.length} chars]`
          : value;
    }
    return { ...call, arguments: JSON.stringify(slim) };
  }
  return { ...call, arguments: `{"cleared": "${call.arguments.length} chars of arguments"}` };
}

/** Where the part of a message that was cut can be had again, by role. */
function whereWhole(message: Message): string {
  if (message.role === "tool") return "run the command again or re-read the file to see it whole";
  if (message.role === "assistant") return "it was your own earlier message";
  return "the whole text is kept in the run's transcript";
}

/**
 * `message` sent in at most `maxTokens` (by `estimate`): bulky call arguments slimmed, then the
 * text's head and tail kept around a notice of what was cut. A budget smaller than the notice
 * alone gets the notice alone. The message itself when it fits.
 */
export function capMessage(
  message: Message,
  maxTokens: number,
  estimate: (message: Message) => number,
): Message {
  if (estimate(message) <= maxTokens) return message;
  const slim: Message =
    message.role === "assistant"
      ? { ...message, toolCalls: message.toolCalls.map(slimArguments) }
      : message;
  if (estimate(slim) <= maxTokens) return slim;
  const text = slim.content;
  const cut = (keep: number): Message => ({
    ...slim,
    content: keepEnds(text, keep, [
      `[… ${text.length - 2 * keep} of ${text.length} characters of this message cut here to fit the context window; ${whereWhole(message)} …]`,
    ]),
  });
  // The most characters kept at each end that still fit (more kept never costs fewer tokens).
  const fits = (keep: number): boolean => estimate(cut(keep)) <= maxTokens;
  return cut(fits(0) ? largest(0, Math.floor(text.length / 2), fits) : 0);
}

/** The largest whole number in [low, high] for which `fits` holds, `fits(low)` being true. */
function largest(low: number, high: number, fits: (value: number) => boolean): number {
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

const cuts = new WeakMap<Message, Map<number, Message>>();

/**
 * `capMessage`, made once per message and cap: a message cut to the same cap in a later request
 * is the very same object, so the prefix stays byte-identical and its estimate is memoised.
 */
export function capOnce(
  message: Message,
  maxTokens: number,
  estimate: (message: Message) => number,
): Message {
  if (estimate(message) <= maxTokens) return message;
  const known = cuts.get(message) ?? new Map<number, Message>();
  cuts.set(message, known);
  let cut = known.get(maxTokens);
  if (cut === undefined) {
    cut = capMessage(message, maxTokens, estimate);
    known.set(maxTokens, cut);
  }
  return cut;
}

/**
 * The largest cap `c` at least `floor` for which `Σ min(size, c)` stays within `budget`, or null
 * when even `floor` does not fit. Infinity when everything fits as it is.
 */
export function waterLevel(sizes: readonly number[], budget: number, floor: number): number | null {
  const filled = (cap: number): number => sizes.reduce((sum, size) => sum + Math.min(size, cap), 0);
  if (filled(Number.POSITIVE_INFINITY) <= budget) return Number.POSITIVE_INFINITY;
  if (filled(floor) > budget) return null;
  return largest(floor, Math.max(floor, ...sizes), (cap) => filled(cap) <= budget);
}
