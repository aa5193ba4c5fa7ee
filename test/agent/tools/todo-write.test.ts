/** The todo_write tool: it replaces the list, renders a checklist, and allows one step in progress. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatTodos, todoWriteTool } from "../../../src/agent/tools/todo-write.ts";
import type { Todo } from "../../../src/domain/todos.ts";
import type { ToolContext } from "../../../src/agent/tools/tool.ts";

function context(list: Todo[]): ToolContext {
  return {
    // todo_write touches no file: it must not reach the sandbox or the gate.
    sandbox: undefined as never,
    gate: undefined as never,
    workspace: "/nowhere",
    todos: { get: () => [...list], set: (next) => void list.splice(0, list.length, ...next) },
  };
}

function call(list: Todo[], args: unknown) {
  return todoWriteTool.run(todoWriteTool.schema.parse(args), context(list));
}

describe("todo_write", () => {
  test("replaces the list and returns it as a checklist", async () => {
    const list: Todo[] = [{ content: "old step", status: "pending" }];
    const todos: Todo[] = [
      { content: "Reproduce the failure", status: "completed" },
      { content: "Fix the parser", status: "in_progress" },
      { content: "Run the tests", status: "pending" },
    ];
    const outcome = await call(list, { todos });
    assert.deepEqual(list, todos);
    assert.deepEqual(outcome, {
      content: [
        "Todo list (1 of 3 completed, 1 in progress, 1 pending):",
        "- [x] Reproduce the failure",
        "- [~] Fix the parser (in progress)",
        "- [ ] Run the tests",
      ].join("\n"),
      isError: false,
      details: { todos },
    });
  });

  test("more than one step in progress is an error and leaves the list as it was", async () => {
    const list: Todo[] = [{ content: "keep me", status: "pending" }];
    const outcome = await call(list, {
      todos: [
        { content: "a", status: "in_progress" },
        { content: "b", status: "in_progress" },
      ],
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /2 steps are in_progress; at most one may be/);
    assert.deepEqual(list, [{ content: "keep me", status: "pending" }]);
  });

  test("an empty list clears it", async () => {
    const list: Todo[] = [{ content: "x", status: "completed" }];
    const outcome = await call(list, { todos: [] });
    assert.deepEqual(list, []);
    assert.deepEqual(outcome, {
      content: "The todo list is empty.",
      isError: false,
      details: { todos: [] },
    });
  });

  test("the schema refuses unknown statuses, empty steps and extra fields", () => {
    for (const bad of [
      { todos: [{ content: "a", status: "done" }] },
      { todos: [{ content: "", status: "pending" }] },
      { todos: [{ content: "a", status: "pending", priority: "high" }] },
      { todos: "a, b" },
    ]) {
      assert.equal(todoWriteTool.schema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  test("the stored list is a copy: later changes to the arguments do not reach it", async () => {
    const list: Todo[] = [];
    const args = todoWriteTool.schema.parse({ todos: [{ content: "a", status: "pending" }] });
    await todoWriteTool.run(args, context(list));
    (args as { todos: Todo[] }).todos[0]!.content = "changed";
    assert.equal(list[0]?.content, "a");
  });

  test("formatTodos keeps one line per step", () => {
    assert.equal(
      formatTodos([{ content: "two\nlines", status: "pending" }]),
      "Todo list (0 of 1 completed, 0 in progress, 1 pending):\n- [ ] two lines",
    );
  });
});
