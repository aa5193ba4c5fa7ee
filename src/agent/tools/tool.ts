/**
 * What every tool is: a name, a description the model reads, a zod schema for its arguments
 * (which also yields the JSON schema sent to the model), and `run`, which does its work through
 * the sandbox only. One file per tool beside this one.
 */
import { z } from "zod";
import type { VirtualFiles } from "../../domain/memory.ts";
import type { Todo } from "../../domain/todos.ts";
import type { ToolOutcome } from "../../domain/tools.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";

/** The permission rules in front of the sandbox (permissions.ts): refuses the worst commands. */
export interface CommandGate {
  check(command: string): { allowed: true } | { allowed: false; reason: string };
}

/** What a tool may touch: the sandbox (every workspace access), the todo list, cancellation. */
export interface ToolContext {
  sandbox: Sandbox;
  gate: CommandGate;
  /** The workspace's real path; relative tool paths are resolved against it. */
  workspace: string;
  todos: { get(): Todo[]; set(todos: Todo[]): void };
  signal?: AbortSignal;
  /** The model's id for this tool call; names the spill file of a long result. */
  callId?: string;
  /** The memory and skills namespaces: read, write and edit hand their paths over to them. */
  virtual?: VirtualFiles;
}

export interface Tool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: Schema;
  run(args: z.infer<Schema>, context: ToolContext): Promise<ToolOutcome>;
}

/** A tool with its argument type erased, for lists of tools. */
export type AnyTool = Tool<z.ZodType>;

export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): AnyTool {
  // `run` takes the schema's own argument type; dispatch only calls it with data that schema parsed.
  return tool;
}

/** The JSON schema the model sees, generated from the zod schema (deterministic output). */
export function parametersOf(tool: AnyTool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.schema, {
    target: "draft-7",
    // zod bounds every integer by the safe-integer range; that says nothing and costs tokens.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export function failure(content: string): ToolOutcome {
  return { content, isError: true };
}
