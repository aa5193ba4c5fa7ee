/**
 * pitcrew's own context layers as a replay policy: the same ContextManager the loop uses, with the
 * deterministic stand-in note in place of the model's handoff (its request is still counted).
 */
import type { Message } from "../../domain/messages.ts";
import { ContextManager } from "../manager.ts";
import { estimateMessage } from "../tokens.ts";
import type { ReplayPolicy } from "./policy.ts";
import { STAND_IN_SUMMARY } from "./policy.ts";

export function pitcrewPolicy(): ReplayPolicy {
  let manager: ContextManager | null = null;
  let summaryRequest: Message[] | undefined;
  return {
    name: "pitcrew",
    async view(history, window) {
      manager ??= new ContextManager({
        settings: { window },
        estimate: estimateMessage,
        compactor: (messages) => {
          summaryRequest = messages;
          return Promise.resolve(STAND_IN_SUMMARY);
        },
      });
      summaryRequest = undefined;
      const prepared = await manager.prepare(history);
      return {
        messages: prepared.messages,
        compacted: prepared.fired.includes("compact"),
        summaryRequest,
      };
    },
  };
}
