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
