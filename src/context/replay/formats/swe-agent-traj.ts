/**
 * SWE-agent `.traj` files, read from their `history`: the messages SWE-agent sent the model and
 * got back, in order. Two shapes, both as tool calls and results. Function-calling runs (SWE-agent
 * 1.x) carry OpenAI `tool_calls` on the assistant and a `tool` message per call (`tool_call_ids`).
 * Text runs (0.x) carry the command the model wrote in `action`: that is one `bash` call
 * `{command}` (SWE-agent's commands are shell functions), the assistant's `thought` its text, and
 * the user message after it the call's output. Demonstrations (`is_demo`) and replies without a
 * command stay plain messages; so does SWE-agent's answer to them.
 */
import type { Message, ToolCall } from "../../../domain/messages.ts";
import { HistoryBuilder, isObject, textOf, toolCallOf } from "./common.ts";

/** A `.traj` object: a non-empty `history` of role-tagged messages. */
export function isSweAgentTrajectory(value: Record<string, unknown>): boolean {
  const history = value.history;
  return (
    Array.isArray(history) &&
    history.length > 0 &&
    history.every((entry) => isObject(entry) && typeof entry.role === "string")
  );
}

export function fromSweAgentTrajectory(history: readonly unknown[]): Message[] {
  const built = new HistoryBuilder();
  let textCall: ToolCall | undefined;
  let textCalls = 0;
  for (const [index, entry] of history.entries()) {
    const where = (): string => `history entry ${index + 1}`;
    if (!isObject(entry)) throw new Error(`${where()} is not an object`);
    const content = textOf(entry.content, where);
    const demo = entry.is_demo === true;
    switch (entry.role) {
      case "system":
        built.system(content, where);
        break;
      case "user":
        if (textCall && !demo) built.result(textCall.id, content, false, where);
        else built.user(content, where);
        textCall = undefined;
        break;
      case "tool": {
        const ids: unknown[] = Array.isArray(entry.tool_call_ids)
          ? (entry.tool_call_ids as unknown[])
          : [entry.tool_call_id];
        const [id] = ids;
        if (ids.length !== 1 || typeof id !== "string")
          throw new Error(`${where()} is a tool result without exactly one tool_call_ids entry`);
        built.result(id, content, false, where);
        break;
      }
      case "assistant": {
        const raw: unknown = entry.tool_calls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${where()} has tool_calls that is not a list`);
        const action = typeof entry.action === "string" ? entry.action.trim() : "";
        if (raw.length > 0) {
          built.assistant(
            content,
            raw.map((call) => toolCallOf(call, where)),
            where,
          );
        } else if (action !== "" && !demo) {
          textCalls++;
          textCall = {
            id: `call_${textCalls}`,
            name: "bash",
            arguments: JSON.stringify({ command: action }),
          };
          const thought = typeof entry.thought === "string" ? entry.thought : content;
          built.assistant(thought.trim(), [textCall], where);
        } else {
          built.assistant(content, [], where);
        }
        break;
      }
      default:
        throw new Error(`${where()} has role ${JSON.stringify(entry.role)}`);
    }
  }
  return built.messages;
}
