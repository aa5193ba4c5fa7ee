import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  TODO_WRITE
} from "./chunk-6DBGH7EK.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";

// src/agent/tools/tool.ts
function defineTool(tool) {
  return tool;
}
function parametersOf(tool) {
  const schema2 = external_exports.toJSONSchema(tool.schema, {
    target: "draft-7",
    // zod bounds every integer by the safe-integer range; that says nothing and costs tokens.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    }
  });
  delete schema2.$schema;
  return schema2;
}
function failure(content) {
  return { content, isError: true };
}

// src/agent/tools/todo-write.ts
var schema = external_exports.object({
  todos: external_exports.array(
    external_exports.object({
      content: external_exports.string().min(1).describe("What the step is, in a few words."),
      status: external_exports.enum(["pending", "in_progress", "completed"]).describe("pending, in_progress (at most one step at a time) or completed.")
    }).strict()
  ).describe("The whole list, in order; it replaces the previous one.")
}).strict();
var MARK = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]"
};
function formatTodos(todos) {
  if (todos.length === 0) return "The todo list is empty.";
  const count = (status) => todos.filter((todo) => todo.status === status).length;
  const items = todos.map(
    ({ content, status }) => `- ${MARK[status]} ${content.replace(/\s*\n\s*/g, " ")}${status === "in_progress" ? " (in progress)" : ""}`
  );
  const summary = `${count("completed")} of ${todos.length} completed, ${count("in_progress")} in progress, ${count("pending")} pending`;
  return `Todo list (${summary}):
${items.join("\n")}`;
}
var todoWriteTool = defineTool({
  name: TODO_WRITE,
  description: [
    "Replace the task's todo list with the given steps (send the whole list each time). The people watching the run see it.",
    "Use it for any task of more than a couple of steps: mark one step in_progress when you start it (at most one at a time) and completed as soon as it is done.",
    "Returns the list as a checklist: [x] completed, [~] in progress, [ ] pending."
  ].join(" "),
  schema,
  run(args, context) {
    const working = args.todos.filter((todo) => todo.status === "in_progress");
    if (working.length > 1) {
      return Promise.resolve(
        failure(
          `${working.length} steps are in_progress; at most one may be. Mark the others pending or completed and send the list again. The list was not changed.`
        )
      );
    }
    const todos = args.todos.map(({ content, status }) => ({ content, status }));
    context.todos.set(todos);
    return Promise.resolve({ content: formatTodos(todos), isError: false, details: { todos } });
  }
});

export {
  defineTool,
  parametersOf,
  failure,
  formatTodos,
  todoWriteTool
};
