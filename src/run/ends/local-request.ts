/**
 * What `pitcrew run` was asked: the task from the command line (or, with `--continue`, what to do
 * now), quoted in the prompt beside the repository's instructions, and the session's settings
 * from the options and the repository's setup at the run's base (read, and so checked, by the
 * workspace before the worktree is made: local-workspace.ts).
 */
import { createModelClient } from "../../agent/model.ts";
import { cachedPriceRatio } from "../../agent/pricing.ts";
import { localTaskPrompt } from "../../agent/prompt.ts";
import { DEFAULT_SETTINGS } from "../../sandbox/policy.ts";
import { protectedPatterns } from "../../sandbox/protected-paths.ts";
import type { RequestPort } from "../ports.ts";
import { LOCAL_THREAD } from "./local-notes.ts";
import type { LocalWorkspace } from "./local-workspace.ts";

/** The task and the settings the command line gave. */
export interface LocalTask {
  model: string;
  baseUrl: string | undefined;
  maxTurns: number;
  /** The model's context window, in tokens. */
  contextWindow: number;
  sandbox: "auto" | "bwrap" | "seatbelt" | "none";
  /** The task; with `--continue`, what to do now ("" to carry on). */
  task: string;
  continue: boolean;
  apiKey: string;
}

export function localRequest(asked: LocalTask): RequestPort<LocalWorkspace> {
  return {
    threadKey: LOCAL_THREAD,
    continuing: asked.continue ? { instruction: asked.task } : undefined,
    brief: (workspace) => {
      const { worktree, setup } = workspace;
      const { instructions, config } = setup;
      return Promise.resolve({
        prompt: localTaskPrompt({ task: asked.task, repositoryInstructions: instructions }),
        session: {
          sandbox: {
            ...DEFAULT_SETTINGS,
            backend: asked.sandbox,
            protectedPaths: protectedPatterns(
              config["protected-paths"] ?? [],
              config["allow-protected-changes"] ?? false,
            ),
          },
          model: createModelClient({
            apiKey: asked.apiKey,
            model: asked.model,
            baseUrl: asked.baseUrl,
          }),
          limits: { maxTurns: asked.maxTurns },
          window: { window: asked.contextWindow, cachedPrice: cachedPriceRatio(asked.model) },
          deny: config.permissions.deny,
          promptCacheKey: `pitcrew-run-${worktree.branch}`,
        },
      });
    },
  };
}
