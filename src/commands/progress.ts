/**
 * How `pitcrew run` shows a run, in one of three modes. `tty` (stderr is a terminal): a line per
 * tool call, and a live status line — spinner, turn, time, tokens, cost, what runs now — redrawn
 * in place, cleared before any other line is written and at the end. `plain` (a log): the same
 * lines, no status line. `json`: one JSON event per line on stdout for scripts, the notes still on
 * stderr. Each reads the loop's events with the run's state after each (domain/run-state.ts); the
 * words are present/'s. The clock and the redraw timer are injected, so tests need no waiting.
 */
import type { LoopEvent } from "../domain/loop.ts";
import type { RunState } from "../domain/run-state.ts";
import {
  compactionEvent,
  endEvent,
  failedEvent,
  startEvent,
  toolEvent,
  turnEvent,
  usageEvent,
} from "../present/json-events.ts";
import { failureLines, terminalReport } from "../present/lines.ts";
import { START_WORDS, callLine, compactionLine, statusLine } from "../present/progress.ts";
import type { RunLog } from "../run/ports.ts";
import type { LocalView } from "../run/ends/local-delivery.ts";
import type { WorkspaceNotices } from "../run/ends/local-workspace.ts";

export type ViewMode = "tty" | "plain" | "json";

export interface RunView extends LocalView, WorkspaceNotices {
  /** The run's notes and warnings (`pitcrew: …` on stderr), written around the status line. */
  log: RunLog;
}

interface Output {
  write(text: string): unknown;
  /** A terminal's width, when it has one. */
  columns?: number;
}

export interface ViewOptions {
  mode: ViewMode;
  /** Progress, notes and warnings. */
  err: Output;
  /** The closing account, or the JSON events. */
  out: Output;
  maxTurns: number;
  /** Milliseconds on any steady clock; the run's time counts from the view's creation. */
  now?: () => number;
  /** Calls `redraw` every so often until the returned function is called. */
  every?: (redraw: () => void) => () => void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR = "\r\x1b[2K";

function realTimer(redraw: () => void): () => void {
  const timer = setInterval(redraw, 100);
  timer.unref();
  return () => clearInterval(timer);
}

export function createRunView(options: ViewOptions): RunView {
  const { mode, err, out, maxTurns } = options;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const elapsed = (): number => now() - started;
  const json = (event: object): void => void out.write(`${JSON.stringify(event)}\n`);

  // The status line (tty only): shown from the first turn until stop().
  let state: RunState | undefined;
  let shown = false;
  let frame = 0;
  let cancelTimer: (() => void) | undefined;
  const draw = (): void => {
    if (state === undefined) return;
    const text = statusLine(FRAMES[frame++ % FRAMES.length] ?? "", state, maxTurns, elapsed());
    // Wider than the terminal, it would wrap and never be cleared again.
    const width = Math.max(20, (err.columns || 80) - 1);
    err.write(`${CLEAR}${[...text].slice(0, width).join("")}`);
    shown = true;
  };
  const clear = (): void => {
    if (shown) err.write(CLEAR);
    shown = false;
  };
  /** A line on stderr, the status line cleared first and drawn again after. */
  const line = (text: string): void => {
    clear();
    err.write(`${text}\n`);
    if (cancelTimer !== undefined) draw();
  };
  const stop = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
    state = undefined;
    clear();
  };

  let uncommitted = { files: 0, included: false };
  const log: RunLog = {
    info: (message) => line(`pitcrew: ${message}`),
    warning: (message) => line(`pitcrew: WARNING: ${message}`),
  };

  return {
    log,
    uncommitted: (count, included) => {
      uncommitted = { files: count, included };
      if (included) log.info(START_WORDS.included(count));
      else log.warning(START_WORDS.leftOut(count));
    },
    started: (start) => {
      const { worktree, branch } = start;
      log.info(
        start.continued
          ? START_WORDS.continuing(worktree, branch)
          : START_WORDS.working(worktree, branch),
      );
      if (mode === "json") json(startEvent({ ...start, uncommitted }));
    },
    onEvent: (event: LoopEvent, after: RunState) => {
      if (mode === "tty" && event.type !== "stop") {
        state = after;
        cancelTimer ??= (options.every ?? realTimer)(draw);
      }
      switch (event.type) {
        case "turn_start":
          if (mode === "json") json(turnEvent(event.turn, maxTurns, elapsed()));
          else if (mode === "tty") draw();
          break;
        case "tool_start":
          if (mode === "tty") draw();
          break;
        case "tool_end": {
          const facts = { ...event, maxTurns, elapsedMs: elapsed() };
          if (mode === "json") json(toolEvent(facts));
          else line(callLine(facts));
          break;
        }
        case "usage":
          if (mode === "json" && after.totals) json(usageEvent(event.turn, after.totals));
          else if (mode === "tty") draw();
          break;
        case "compaction":
          if (mode === "json") json(compactionEvent(event.turn, elapsed()));
          else line(compactionLine(event.turn, maxTurns, elapsed()));
          break;
        case "stop":
          stop();
          break;
        case "assistant":
        case "context":
          break;
      }
    },
    stop,
    ended: (outcome, after, thread) => {
      stop();
      if (outcome.kind === "failed") {
        err.write(failureLines(outcome.error, outcome.keptOn));
        if (mode === "json") {
          json(
            failedEvent({
              error: outcome.error,
              keptOn: outcome.keptOn,
              totals: after.totals,
              tally: after.tally,
              exitCode: outcome.exitCode,
            }),
          );
        }
        return;
      }
      const { result, delivery, toolFailure } = outcome;
      const facts = {
        summary: result.summary,
        stopReason: result.stopReason,
        error: result.error,
        toolFailure,
        delivery,
        totals: result,
      };
      if (mode === "json") {
        json(endEvent({ ...facts, tally: after.tally, exitCode: outcome.exitCode }));
      } else out.write(terminalReport({ ...facts, thread }));
    },
  };
}
