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
}

/** A tool's answer: plain text for the model, whether it reports a failure, details for people. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  details?: ToolDetails;
}
