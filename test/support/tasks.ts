/**
 * Builders for what a run is about and what it used: a `/agent fix` on issue #12 of acme/app,
 * asked by @alice, and the totals of a seven-turn run. Tests change only what they are about.
 */
import type { Task } from "../../src/domain/task.ts";
import type { Totals } from "../../src/domain/usage.ts";

export const RUN_URL = "https://github.com/acme/app/actions/runs/4242";

export function issueTask(changes: Partial<Task> = {}): Task {
  return {
    kind: "fix",
    thread: { kind: "issue", number: 12 },
    threadKey: "issue-12",
    instruction: "",
    requester: { login: "alice", id: 101, type: "User", association: "OWNER" },
    comment: { id: 9001, htmlUrl: "https://github.com/acme/app/issues/12#issuecomment-9001" },
    repository: { owner: "acme", repo: "app", defaultBranch: "main" },
    ...changes,
  };
}

/** Seven turns, 42,000 tokens (75% of the prompt cached), $0.01234. */
export const SEVEN_TURNS: Totals = {
  turns: 7,
  usage: {
    promptTokens: 40_000,
    cachedTokens: 30_000,
    completionTokens: 2_000,
    reasoningTokens: 0,
  },
  cost: 0.01234,
};
