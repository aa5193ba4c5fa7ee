/**
 * The conversation as pitcrew stores it: its own message type, converted to a provider's format
 * only at the call boundary (agent/model.ts). The stored history is append-only; nothing here is
 * rewritten after it is written. Types and two pure readers of a call's arguments, nothing else.
 */

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (JSON text, possibly broken). */
  arguments: string;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

/** A tool call's arguments as an object, or null when the model sent something else. */
export function callArguments(call: ToolCall): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** What a call works on, for people and stubs: its `command` or `path` argument, if any. */
export function callSubject(call: ToolCall): string | null {
  const args = callArguments(call);
  const subject = [args?.command, args?.path].find((value) => typeof value === "string");
  return typeof subject === "string" ? subject.replace(/\s+/g, " ") : null;
}
