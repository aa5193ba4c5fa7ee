/**
 * The `todo_write` tool: replaces the run's todo list (shown to the people watching and in the
 * reminder) and returns it as a checklist. It touches no file; the list lives in the context.
 */
import { z } from "zod";
import { TODO_WRITE } from "../../domain/todos.ts";
import type { Todo } from "../../domain/todos.ts";
import { defineTool, failure } from "./tool.ts";

const schema = z
  .object({
    todos: z
      .array(
        z
          .object({
            content: z.string().min(1).describe("What the step is, in a few words."),
            status: z
              .enum(["pending", "in_progress", "completed"])
              .describe("pending, in_progress (at most one step at a time) or completed."),
          })
          .strict(),
      )
      .describe("The whole list, in order; it replaces the previous one."),
  })
  .strict();

const MARK: Record<Todo["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};

/** The list as a Markdown-like checklist: `[x]` done, `[~]` in progress, `[ ]` pending. */
export function formatTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return "The todo list is empty.";
  const count = (status: Todo["status"]): number =>
    todos.filter((todo) => todo.status === status).length;
  const items = todos.map(
    ({ content, status }) =>
      `- ${MARK[status]} ${content.replace(/\s*\n\s*/g, " ")}${status === "in_progress" ? " (in progress)" : ""}`,
  );
  const summary = `${count("completed")} of ${todos.length} completed, ${count("in_progress")} in progress, ${count("pending")} pending`;
  return `Todo list (${summary}):\n${items.join("\n")}`;
}

export const todoWriteTool = defineTool({
  name: TODO_WRITE,
  description: [
    "Replace the task's todo list with the given steps (send the whole list each time). The people watching the run see it.",
    "Use it for any task of more than a couple of steps: mark one step in_progress when you start it (at most one at a time) and completed as soon as it is done.",
    "Returns the list as a checklist: [x] completed, [~] in progress, [ ] pending.",
  ].join(" "),
  schema,
  run(args, context) {
    const working = args.todos.filter((todo) => todo.status === "in_progress");
    if (working.length > 1) {
      return Promise.resolve(
        failure(
          `${working.length} steps are in_progress; at most one may be. Mark the others pending or completed and send the list again. The list was not changed.`,
        ),
      );
    }
    const todos: Todo[] = args.todos.map(({ content, status }) => ({ content, status }));
    context.todos.set(todos);
    return Promise.resolve({ content: formatTodos(todos), isError: false, details: { todos } });
  },
});
