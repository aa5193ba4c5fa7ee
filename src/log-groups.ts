/**
 * The action's log in folds: one group per phase of a run (preparing, agent session, delivery,
 * notes) and one per turn of the loop, as peter-evans/create-pull-request folds its steps. The
 * runner cannot nest groups, so opening one ends the one before. It writes through the log it is
 * given (the runner's `::group::` commands in the action) and knows nothing of the loop's inner
 * workings beyond its events.
 */
import type { LoopEvent } from "./domain/loop.ts";
import { LOG_ANSWERED, logStopLine, logToolLine } from "./present/lines.ts";
import type { RunLog, RunPhase } from "./run/ports.ts";

/** The action's log groups, one per phase of the Run. */
export const LOG_PHASES: Record<RunPhase, string> = {
  preparing: "preparing: access, branch, notes, thread",
  session: "agent session: sandbox and model",
  delivery: "delivery: commit, push, pull request",
  notes: "notes: saving the thread's handoff notes",
};

/** The log as the runner folds it: @actions/core's startGroup and endGroup in the action. */
export interface GroupedLog {
  info(message: string): void;
  startGroup(name: string): void;
  endGroup(): void;
}

export interface LogGroups {
  /** Ends the open group, if any, and starts this one. */
  open(name: string): void;
  /** Ends the open group, if any: every way out of a phase calls it. */
  close(): void;
  /** The loop's events: a group per turn, a line per tool call, the stop said last. */
  observe(event: LoopEvent): void;
}

export function createLogGroups(log: GroupedLog): LogGroups {
  let open = false;
  const close = (): void => {
    if (open) log.endGroup();
    open = false;
  };
  const start = (name: string): void => {
    close();
    log.startGroup(name);
    open = true;
  };
  return {
    open: start,
    close,
    observe(event) {
      if (event.type === "turn_start") start(`turn ${event.turn}`);
      else if (event.type === "tool_end")
        log.info(logToolLine(event.call, event.outcome, event.durationMs));
      else if (event.type === "assistant" && event.toolCalls.length === 0) log.info(LOG_ANSWERED);
      else if (event.type === "stop") {
        close();
        log.info(logStopLine(event.reason));
      }
    },
  };
}

/** The Run's log: the job log's lines, and its phases folded into the log's groups. */
export function phasedLog(
  log: GroupedLog & { warning(message: string): void },
  groups: { open(name: string): void; close(): void },
): RunLog {
  return {
    info: (message) => log.info(message),
    warning: (message) => log.warning(message),
    phase: (phase) => (phase === undefined ? groups.close() : groups.open(LOG_PHASES[phase])),
  };
}
