/**
 * Builders for a thread's notes as the store saves them: a valid state for a thread with one run
 * behind it, and notes around it, each changed only where a test says. Tests name what they
 * care about and take the rest from here.
 */
import type { Notes, ThreadState } from "../../src/domain/notes.ts";

/** A thread's state after one run; `threadKey` also names the branch unless `changes` does. */
export function threadState(changes: Partial<ThreadState> = {}): ThreadState {
  const threadKey = changes.threadKey ?? "issue-1";
  return {
    version: 1,
    threadKey,
    repository: "Codertocat/Hello-World",
    branch: `pitcrew/${threadKey}`,
    baseBranch: "main",
    baseSha: "a".repeat(40),
    headSha: null,
    prNumber: null,
    attempts: 1,
    cumulative: {
      runs: 1,
      turns: 3,
      usage: { promptTokens: 100, cachedTokens: 0, completionTokens: 20, reasoningTokens: 0 },
      cost: 0.01,
    },
    todos: [],
    stopReason: "done",
    savedAt: "2025-01-02T03:04:05.000Z",
    ledgers: {},
    ...changes,
  };
}

/** One transcript line: the message a run began with. */
export function transcriptLine(content: string): string {
  return `${JSON.stringify({ type: "message", run: 1, message: { role: "user", content } })}\n`;
}

/** Notes whose note is `note` and whose transcript holds it as the first message. */
export function threadNotes(note: string, state: Partial<ThreadState> = {}): Notes {
  return { note, state: threadState(state), transcript: transcriptLine(note) };
}
