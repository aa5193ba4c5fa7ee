/**
 * The run's todo list: the model keeps it with the `todo_write` tool, people see it, the notes
 * carry it to the next run. The shape, the tool's name, and the one reader that recovers a list
 * from a recorded call (so the notes, the checkpoint and the progress comment agree on it).
 */
import { callArguments } from "./messages.ts";
import type { ToolCall } from "./messages.ts";
import type { ToolOutcome } from "./tools.ts";

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface Todo {
  content: string;
  status: TodoStatus;
}

/** The name of the tool that replaces the list (agent/tools/todo-write.ts). */
export const TODO_WRITE = "todo_write";

/** The list an accepted `todo_write` call set; undefined for any other call (or a refused one). */
export function acceptedTodos(call: ToolCall, outcome: ToolOutcome): Todo[] | undefined {
  if (call.name !== TODO_WRITE || outcome.isError) return undefined;
  const todos = callArguments(call)?.todos;
  return Array.isArray(todos) ? todos.filter(isTodo) : undefined;
}

function isTodo(value: unknown): value is Todo {
  if (value === null || typeof value !== "object") return false;
  const { content, status } = value as Record<string, unknown>;
  return (
    typeof content === "string" &&
    (status === "pending" || status === "in_progress" || status === "completed")
  );
}
