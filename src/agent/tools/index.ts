/**
 * The agent's tools, in the order the model sees them (stable: the schemas are part of the
 * cached prompt prefix), and their definitions as sent to the model.
 */
import type { ToolDefinition } from "../../domain/tools.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";
import { todoWriteTool } from "./todo-write.ts";
import type { AnyTool } from "./tool.ts";
import { parametersOf } from "./tool.ts";
import { writeTool } from "./write.ts";

export const TOOLS: AnyTool[] = [bashTool, readTool, writeTool, editTool, todoWriteTool];

/** Each tool as the model sees it: name, description and the JSON schema of its arguments. */
export function toolDefinitions(tools: readonly AnyTool[] = TOOLS): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool),
  }));
}
