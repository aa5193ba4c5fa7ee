/**
 * Building blocks for tests of the context layers: a predictable token estimate (characters / 4
 * plus 4 per message, arguments included) and the first two messages every history starts with.
 */
import type { Message } from "../../src/domain/messages.ts";

export const estimate = (message: Message): number =>
  Math.ceil(
    (message.content.length +
      (message.role === "assistant"
        ? message.toolCalls.reduce((sum, call) => sum + call.arguments.length, 0)
        : 0)) /
      4,
  ) + 4;

export const HEAD: Message[] = [
  { role: "system", content: "You are pitcrew." },
  { role: "user", content: "Fix the failing test." },
];

/**
 * One round: an assistant message (saying `text`) calling bash with `command`, and the call's
 * result, `result`. The tests of each layer shape the result their way.
 */
export function bashRound(
  n: number,
  result: string,
  { command = `step ${n}`, text = "" }: { command?: string; text?: string } = {},
): Message[] {
  const id = `call_${n}`;
  return [
    {
      role: "assistant",
      content: text,
      toolCalls: [{ id, name: "bash", arguments: JSON.stringify({ command }) }],
    },
    { role: "tool", toolCallId: id, name: "bash", content: result, isError: false },
  ];
}
