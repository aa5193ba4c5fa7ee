/**
 * A tool as the model sees it and a tool's answer as the loop records it. The tools themselves
 * (schemas, sandboxed work) live in agent/tools/; these are only the shapes that cross layers.
 */

/** A function tool offered to the model: its name, what it does, its JSON schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool's answer: plain text for the model, and whether it reports a failure. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}
