/**
 * The CLI's delivery: progress lines on the terminal while the agent works, then whatever it
 * changed committed on the run's branch (also after a failure: what exists is kept), and a
 * printed account of how it went.
 */
import { PitcrewError, describeError } from "../../errors.ts";
import type { LoopEvent, SessionResult } from "../../domain/loop.ts";
import type { RunState } from "../../domain/run-state.ts";
import { commitAll } from "../../git/worktree.ts";
import { terminalReport } from "../../present/lines.ts";
import type { LocalDelivery } from "../../present/lines.ts";
import type { DeliveryPort } from "../ports.ts";
import type { LocalWorkspace } from "./local-workspace.ts";

export type LocalOutcome =
  | { kind: "ran"; result: SessionResult; delivery: LocalDelivery }
  /** `nothingToContinue`: `--continue` found no notes, a usage error rather than a failure. */
  | { kind: "failed"; nothingToContinue: boolean };

export function localDelivery(options: {
  /** The task as given (its first line titles the commit). */
  task: string;
  continue: boolean;
  /** The terminal's progress lines. */
  printer: { onEvent(event: LoopEvent, state: RunState): void; stop(): void };
}): DeliveryPort<LocalWorkspace, LocalOutcome> {
  const { printer } = options;
  const firstLine = (options.task.split("\n")[0] ?? "").slice(0, 72);
  /** The first line of the commit message. */
  const title = options.continue
    ? firstLine || "Carry on (pitcrew run --continue)"
    : firstLine || "pitcrew run";
  return {
    observe: (event, state) => printer.onEvent(event, state),
    handOver: async (result, _state, workspace) => {
      printer.stop();
      const message = `${title}\n\n${result.summary}`.trim();
      const commit = await commitAll(workspace.worktree, message);
      const kept = workspace.existed || commit.committed;
      return {
        outcome: { kind: "ran", result, delivery: { branch: workspace.branch, ...commit, kept } },
        headSha: commit.sha ?? null,
        prNumber: null,
      };
    },
    salvage: async (error, workspace) => {
      printer.stop();
      process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
      const commit =
        workspace === undefined
          ? null
          : await commitAll(
              workspace.worktree,
              `pitcrew run (interrupted): ${title.slice(0, 60)}`,
            ).catch(() => null);
      if (workspace !== undefined && commit?.committed)
        process.stderr.write(
          `pitcrew run: the changes made so far are kept on branch ${workspace.branch}\n`,
        );
      const nothingToContinue =
        error instanceof PitcrewError && error.code === "run-nothing-to-continue";
      return {
        outcome: { kind: "failed", nothingToContinue },
        headSha: commit?.sha ?? null,
        prNumber: null,
      };
    },
    report: (outcome, { notes }) => {
      if (outcome.kind !== "ran") return Promise.resolve();
      const { result, delivery } = outcome;
      process.stdout.write(
        terminalReport({
          summary: result.summary,
          stopReason: result.stopReason,
          error: result.error,
          delivery,
          totals: result,
          thread: options.continue ? notes?.state.cumulative : undefined,
        }),
      );
      return Promise.resolve();
    },
  };
}
