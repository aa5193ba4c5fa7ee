/**
 * Layer 4, the handoff note: the request that asks the model for it (the current view plus one
 * final message, so the call is itself served from the prefix cache), and the view that follows —
 * the system prompt, the note, and the newest whole rounds within a share of the window. Pure.
 */
import type { Message } from "../domain/messages.ts";

export const HANDOFF_REQUEST = `Stop working for a moment and write a handoff note for yourself: the conversation will be cut here and this note will stand in for everything before the last few steps. Use exactly these sections:

## Goal
## What happened
(what you did, what you tried and abandoned, and why)
## Files touched
## State
(what works now, what is still broken, the last test results)
## Next
(the next concrete steps)
## The user's messages
(every message from the person who asked, verbatim)
## Errors and fixes
(errors you hit and how you fixed them)

Answer with the note only; do not call a tool.`;

/** The note as the message that replaces the history it summarises. */
export function noteMessage(note: string): Message {
  return {
    role: "user",
    content: `[Handoff note: earlier parts of this session were compacted into this note. The files are as they were left; re-read any file before editing it.]\n\n${note.trim()}`,
  };
}

/** The leading system messages: kept through every compaction. */
export function systemMessages(history: readonly Message[]): Message[] {
  const first = history.findIndex((message) => message.role !== "system");
  return history.slice(0, first === -1 ? history.length : first);
}

/**
 * Where the kept tail starts: the earliest round boundary (a user or assistant message) from which
 * the rest fits in `budget` tokens. At least the newest round is kept.
 */
export function keepFrom(
  history: readonly Message[],
  start: number,
  budget: number,
  estimate: (message: Message) => number,
): number {
  let total = 0;
  let from = history.length;
  for (let index = history.length - 1; index >= start; index--) {
    const message = history[index];
    if (message === undefined) continue;
    total += estimate(message);
    const boundary = message.role === "assistant" || message.role === "user";
    if (boundary) {
      if (total > budget && from < history.length) break;
      from = index;
    }
  }
  return Math.max(from === history.length ? start : from, start);
}
