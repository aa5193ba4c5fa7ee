/**
 * The run as the people watching it see it, as data: the work so far (todo list, current activity,
 * cost), how the run ended, and the phase the progress comment and the reports show. Types only;
 * progress.ts keeps the comment up to date with it, report.ts words the endings.
 */
import type { StopReason } from "../domain/loop.ts";
import type { Task } from "../domain/task.ts";
import type { Todo } from "../domain/todos.ts";
import type { Totals } from "../domain/usage.ts";

export interface PullLink {
  number: number;
  url: string;
  draft: boolean;
  /** What this run did to it: opened it, or pushed to it or edited it (the PR was there before). */
  operation: PullOperation;
}

/** What a run did to its thread's pull request: an output as peter-evans/create-pull-request has. */
export type PullOperation = "created" | "updated";

/** What the agent has done so far, as the loop's events tell it. */
export interface Work {
  todos: readonly Todo[];
  /** The latest thing the agent did, one line of Markdown. */
  activity?: string;
  totals?: Totals;
  /** All runs on the thread together, this one included (from the thread's notes). */
  thread?: Totals & { runs: number };
}

/** How a run ended, with the facts each ending needs. The caller decides which one it was. */
export type Ending =
  | { phase: "done"; summary: string; pull: PullLink }
  | { phase: "stopped"; stopReason: Exclude<StopReason, "done">; summary: string; pull?: PullLink }
  /** The agent finished and changed nothing; its summary may say why. */
  | { phase: "no-changes"; summary: string }
  /** `error`: the named error's sentence (`describeError`). */
  | { phase: "failed"; error: string; pull?: PullLink }
  /** `reason`: why the requester may not ask, as authorisation says it. */
  | { phase: "refused"; reason: string };

export type ProgressState = Work & {
  task: Pick<Task, "kind" | "instruction" | "requester" | "thread">;
  /** The workflow run's page. */
  runUrl: string;
} & ({ phase: "working" } | Ending);

export type Phase = ProgressState["phase"];
export type FinalPhase = Ending["phase"];
export type FinalState = Extract<ProgressState, { phase: FinalPhase }>;
