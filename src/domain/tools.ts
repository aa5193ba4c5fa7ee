/**
 * A tool as the model sees it and a tool's answer as the loop records it. The tools themselves
 * (schemas, sandboxed work) live in agent/tools/; these are only the shapes that cross layers.
 */
import type { Todo } from "./todos.ts";

/** A function tool offered to the model: its name, what it does, its JSON schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * What a tool did, for the people watching and the run's state (domain/run-state.ts), beside the
 * text the model reads. Only what a reader needs and could otherwise get only by parsing the call.
 */
export interface ToolDetails {
  /** The todo list a `todo_write` call set. */
  todos?: Todo[];
  /** The file a `write` or `edit` call changed, relative to the workspace. */
  written?: string;
  /** What a `bash` command did: how it ended and the last lines of each stream. */
  command?: CommandEnd;
  /** The lines a `read` call showed (1-based, inclusive; 0 and 0 for an empty file). */
  lines?: { from: number; to: number; total: number };
}

export interface CommandEnd {
  /** Null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last few lines of stdout and of stderr (at most 40 lines and 4,000 characters each). */
  stdoutTail: string;
  stderrTail: string;
}

/** A tool's answer: plain text for the model, whether it reports a failure, details for people. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  details?: ToolDetails;
}
