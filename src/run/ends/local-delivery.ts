/**
 * The CLI's delivery: progress on the terminal while the agent works, then whatever it changed
 * committed on the run's branch (also after a failure: what exists is kept), and an account of how
 * it went, with the exit status it means. A run whose every tool call failed is a failure, whatever
 * the model claimed (the run state's rule, shared with the action).
 */
import { PitcrewError } from "../../errors.ts";
import type { LoopEvent, SessionResult } from "../../domain/loop.ts";
import { toolCallsFailure } from "../../domain/run-state.ts";
import type { RunState } from "../../domain/run-state.ts";
import type { Totals } from "../../domain/usage.ts";
import { commitAll } from "../../git/worktree.ts";
import { localCommitMessage, taskSubject } from "../../present/commit-message.ts";
import type { LocalDelivery } from "../../present/lines.ts";
import type { DeliveryPort } from "../ports.ts";
import type { LocalWorkspace } from "./local-workspace.ts";
import { EXIT_FAILED, EXIT_USAGE, exitCodeFor } from "./local-exit.ts";

/** What the run came to, for the account and the exit status. */
export type LocalOutcome =
  | {
      kind: "ran";
      result: SessionResult;
      delivery: LocalDelivery;
      /** Set when every tool call failed. */
      toolFailure?: { calls: number; error: string };
      exitCode: number;
    }
  | { kind: "failed"; error: unknown; keptOn: string | undefined; exitCode: number };

/** How the run is shown: progress while it works, then its end (commands/progress.ts). */
export interface LocalView {
  onEvent(event: LoopEvent, state: RunState): void;
  /** The live part of the display is cleared (before the account, and on a failure). */
  stop(): void;
  /** `thread`: all runs on the branch, when this run continued earlier ones. */
  ended(
    outcome: LocalOutcome,
    state: RunState,
    thread: (Totals & { runs: number }) | undefined,
  ): void;
}

export function localDelivery(options: {
  /** The task as given (its first line titles the commit unless the agent gave a title). */
  task: string;
  continue: boolean;
  view: LocalView;
}): DeliveryPort<LocalWorkspace, LocalOutcome> {
  const { view } = options;
  const asked = { task: options.task, continuing: options.continue };
  return {
    observe: (event, state) => view.onEvent(event, state),
    handOver: async (result, state, workspace) => {
      view.stop();
      const message = localCommitMessage({
        ...asked,
        summary: result.summary,
        stopReason: result.stopReason,
      });
      const commit = await commitAll(workspace.worktree, message);
      const kept = workspace.existed || commit.committed;
      const toolFailure = toolCallsFailure(state);
      return {
        outcome: {
          kind: "ran",
          result,
          delivery: { branch: workspace.branch, ...commit, kept },
          ...(toolFailure ? { toolFailure } : {}),
          exitCode: toolFailure ? EXIT_FAILED : exitCodeFor(result.stopReason),
        },
        headSha: commit.sha ?? null,
        prNumber: null,
      };
    },
    salvage: async (error, workspace) => {
      view.stop();
      const commit =
        workspace === undefined
          ? null
          : await commitAll(
              workspace.worktree,
              `pitcrew run (interrupted): ${taskSubject(asked).slice(0, 60)}`,
            ).catch(() => null);
      const nothingToContinue =
        error instanceof PitcrewError && error.code === "run-nothing-to-continue";
      return {
        outcome: {
          kind: "failed",
          error,
          keptOn: workspace !== undefined && commit?.committed ? workspace.branch : undefined,
          // `--continue` with nothing to continue is a usage error rather than a failure.
          exitCode: nothingToContinue ? EXIT_USAGE : EXIT_FAILED,
        },
        headSha: commit?.sha ?? null,
        prNumber: null,
      };
    },
    report: (outcome, { state, notes }) => {
      const cumulative = options.continue ? notes?.state.cumulative : undefined;
      view.ended(outcome, state, cumulative);
      return Promise.resolve();
    },
  };
}
