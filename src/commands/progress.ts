/**
 * `pitcrew run`'s progress on stderr: a line per tool call and its result, a spinner while the
 * model thinks (only on a terminal; logs get plain lines). It reads the loop's events with the run's
 * state after each; the words are present/lines.ts's.
 */
import type { LoopEvent } from "../domain/loop.ts";
import type { RunState } from "../domain/run-state.ts";
import {
  TERMINAL_COMPACTED,
  spinnerLabel,
  terminalCallLine,
  terminalResultLine,
} from "../present/lines.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function progressPrinter(stream: NodeJS.WriteStream): {
  onEvent: (event: LoopEvent, state: RunState) => void;
  stop: () => void;
} {
  const tty = stream.isTTY === true;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  const clearSpinner = (): void => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (tty) stream.write("\r\x1b[2K");
  };
  const spin = (label: string): void => {
    if (!tty) return;
    clearSpinner();
    timer = setInterval(() => {
      stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}`);
    }, 100);
  };
  return {
    onEvent: (event, state) => {
      switch (event.type) {
        case "turn_start":
          spin(spinnerLabel(state.turn));
          break;
        case "assistant":
        case "stop":
          clearSpinner();
          break;
        case "tool_start":
          stream.write(`${terminalCallLine(event.call)}\n`);
          break;
        case "tool_end":
          stream.write(`${terminalResultLine(event.outcome, event.durationMs)}\n`);
          break;
        case "compaction":
          clearSpinner();
          stream.write(`${TERMINAL_COMPACTED}\n`);
          break;
        case "usage":
        case "context":
          break;
      }
    },
    stop: clearSpinner,
  };
}
