/**
 * The action's log in folds: one group per phase of a run (preparing, agent session, delivery,
 * notes) and one per turn of the loop, as peter-evans/create-pull-request folds its steps. The
 * runner cannot nest groups, so opening one ends the one before. It writes through the log it is
 * given (the runner's `::group::` commands in the action) and knows nothing of the loop's inner
 * workings beyond its events.
 */
import type { LoopEvent } from "./domain/loop.ts";
import { describeCall, stopWords } from "./present/describe.ts";

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
      else if (event.type === "tool_end") {
        const seconds = (event.durationMs / 1000).toFixed(1);
        log.info(
          `${describeCall(event.call)} (${event.outcome.isError ? "failed, " : ""}${seconds} s)`,
        );
      } else if (event.type === "assistant" && event.toolCalls.length === 0) {
        log.info("the model answered without a tool call: its summary");
      } else if (event.type === "stop") {
        close();
        log.info(`agent session ${stopWords(event.reason)}`);
      }
    },
  };
}
