/**
 * `pitcrew run`'s progress on stderr: a line per tool call and its result, a spinner while the
 * model thinks (only on a terminal; logs get plain lines).
 */
import type { LoopEvent } from "../domain/loop.ts";
import { describeCall } from "../present/describe.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").slice(0, 120);
}

export function progressPrinter(stream: NodeJS.WriteStream): {
  onEvent: (event: LoopEvent) => void;
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
    onEvent: (event) => {
      switch (event.type) {
        case "turn_start":
          spin(`turn ${event.turn}: waiting for the model`);
          break;
        case "assistant":
          clearSpinner();
          break;
        case "tool_start":
          stream.write(`→ ${describeCall(event.call)}\n`);
          break;
        case "tool_end": {
          const seconds = (event.durationMs / 1000).toFixed(1);
          const status = event.outcome.isError
            ? `✗ ${firstLine(event.outcome.content)}`
            : firstLine(event.outcome.content);
          stream.write(`  ${status} (${seconds} s)\n`);
          break;
        }
        case "stop":
          clearSpinner();
          break;
        case "compaction":
          clearSpinner();
          stream.write(
            "↻ the conversation was compacted into a handoff note; work continues from it\n",
          );
          break;
        case "usage":
        case "context":
          break;
      }
    },
    stop: clearSpinner,
  };
}
