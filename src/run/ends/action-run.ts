/**
 * What every action entry gives and gets back (work.ts for a thread, ci-repair.ts for a failed
 * run): the options, and the outcome read off a run's ending.
 */
import type { Config } from "../../config/config.ts";
import { conclusionOf } from "../../domain/ending.ts";
import type { Conclusion, Ending } from "../../domain/ending.ts";
import type { GitDataPort } from "../../domain/memory.ts";
import type { Task } from "../../domain/task.ts";
import type { GitHubApi } from "../../github/api.ts";
import type { NotesPlace } from "./action-notes.ts";

export interface WorkOptions {
  task: Task;
  notes: NotesPlace;
  config: Config;
  api: GitHubApi;
  workspace: string;
  runUrl: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /**
   * What the agent may not change or push: the repository's rules (protectedPatterns) and the
   * running action's own files when they lie in the checkout (ownActionPaths).
   */
  protectedPaths: readonly string[];
  /** The Git Data API memory is kept through (the `pitcrew-memory` branch); none: no memory. */
  memory?: GitDataPort;
  /** The job log, folded by phase and by turn (the runner's groups in the action). */
  log: {
    info(message: string): void;
    warning(message: string): void;
    startGroup(name: string): void;
    endGroup(): void;
  };
}

export interface WorkOutcome {
  conclusion: Conclusion;
  /** Set when the run failed: the named error's sentence. */
  error?: string;
}

/** What the action reports of a run's ending. */
export function outcomeOf(ending: Ending): WorkOutcome {
  const conclusion = conclusionOf(ending.phase);
  return ending.phase === "failed" ? { conclusion, error: ending.error } : { conclusion };
}
