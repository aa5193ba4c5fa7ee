/**
 * The run's todo list: the model keeps it with the `todo_write` tool, people see it, the notes
 * carry it to the next run. The shape and the tool's name; the tool reports the list it set in its
 * outcome's details, which the run's state (run-state.ts) takes, so every reader agrees on it.
 */
export type TodoStatus = "pending" | "in_progress" | "completed";

export interface Todo {
  content: string;
  status: TodoStatus;
}

/** The name of the tool that replaces the list (agent/tools/todo-write.ts). */
export const TODO_WRITE = "todo_write";
