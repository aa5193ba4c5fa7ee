/**
 * pitcrew's own context policy as a replay policy: `layeredPolicy`, exactly as the session hands
 * it to the loop — the layers, the token ledger (told, after each request, the tokens the harness
 * counted for it, as the API would report them), the tool definitions' tokens, and a reminder of
 * a real run's size (reminder.ts here) — with the deterministic stand-in note in place of the
 * model's handoff (its request is still counted).
 */
import type { Message } from "../../domain/messages.ts";
import { ZERO_USAGE } from "../../domain/usage.ts";
import { layeredPolicy } from "../policy.ts";
import { estimateText } from "../tokens.ts";
import type { PolicySetup, ReplayPolicy } from "./policy.ts";
import { STAND_IN_SUMMARY } from "./policy.ts";
import { replayReminder } from "./reminder.ts";
import { toolsText } from "./replay.ts";

export function pitcrewPolicy(setup: PolicySetup): ReplayPolicy {
  const policy = layeredPolicy({
    settings: { window: setup.window },
    fixedTokens: estimateText(toolsText(setup.tools)),
    reminder: replayReminder(),
  });
  let summaryRequest: Message[] | undefined;
  const standIn = (messages: Message[]): Promise<string> => {
    summaryRequest = messages;
    return Promise.resolve(STAND_IN_SUMMARY);
  };
  return {
    name: "pitcrew",
    async view(history) {
      summaryRequest = undefined;
      const view = await policy.view(history, standIn);
      return {
        messages: view.messages,
        compacted: view.compaction !== null,
        summaryRequest,
        reminder: view.reminder ?? undefined,
      };
    },
    record(promptTokens) {
      policy.record({ ...ZERO_USAGE, promptTokens });
    },
  };
}
