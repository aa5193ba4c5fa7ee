/**
 * How a run on a thread ended, with the facts each ending needs, and the action's `conclusion` for
 * it: the words delivery decides on and the comment, the job summary and the outputs report.
 * Types and one table.
 */
import type { StopReason } from "./loop.ts";
import type { RunState } from "./run-state.ts";
import type { Task } from "./task.ts";
import type { Totals } from "./usage.ts";

/** What a run did to its thread's pull request: an output as peter-evans/create-pull-request has. */
export type PullOperation = "created" | "updated";

export interface PullLink {
  number: number;
  url: string;
  draft: boolean;
  /** What this run did to it: opened it, or pushed to it or edited it (the PR was there before). */
  operation: PullOperation;
}

/** How a run ended. The delivery decides which one it was. */
export type Ending =
  | { phase: "done"; summary: string; pull: PullLink }
  | { phase: "stopped"; stopReason: Exclude<StopReason, "done">; summary: string; pull?: PullLink }
  /** The agent finished and changed nothing; its summary may say why. */
  | { phase: "no-changes"; summary: string }
  /** `error`: the named error's sentence (`describeError`). */
  | { phase: "failed"; error: string; pull?: PullLink }
  /** `reason`: why the requester may not ask, as authorisation says it. */
  | { phase: "refused"; reason: string };

/** What the agent has done so far: the run's state, as far as people see it. */
export type Work = Pick<RunState, "todos" | "activity" | "totals"> & {
  /** All runs on the thread together, this one included (from the thread's notes). */
  thread?: Totals & { runs: number };
  /** The run's page (an artifact), once uploaded. */
  reportUrl?: string;
};

export const NO_WORK: Work = {};

/** What the progress comment shows: the request, the work, and the phase (working or an ending). */
export type ProgressState = Work & {
  task: Pick<Task, "kind" | "instruction" | "requester" | "thread">;
  /** The workflow run's page. */
  runUrl: string;
} & ({ phase: "working" } | Ending);

export type Phase = ProgressState["phase"];
export type FinalPhase = Ending["phase"];
export type FinalState = Extract<ProgressState, { phase: FinalPhase }>;

/** The action's `conclusion` output. `skipped`: the event asked nothing of pitcrew. */
export type Conclusion = "success" | "stopped" | "no-changes" | "failure" | "refused" | "skipped";

const CONCLUSIONS: Record<FinalPhase, Conclusion> = {
  done: "success",
  stopped: "stopped",
  "no-changes": "no-changes",
  failed: "failure",
  refused: "refused",
};

export function conclusionOf(phase: FinalPhase): Conclusion {
  return CONCLUSIONS[phase];
}
