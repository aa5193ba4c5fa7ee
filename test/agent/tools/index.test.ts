/** The tool list the model sees: names in a stable order, JSON schemas that match the contract. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TOOLS, toolDefinitions } from "../../../src/agent/tools/index.ts";

const CONTRACT: Record<string, { properties: string[]; required: string[] }> = {
  bash: { properties: ["command", "timeout_ms"], required: ["command"] },
  read: { properties: ["path", "offset", "limit"], required: ["path"] },
  write: { properties: ["path", "content"], required: ["path", "content"] },
  edit: {
    properties: ["path", "old_string", "new_string", "replace_all"],
    required: ["path", "old_string", "new_string"],
  },
  todo_write: { properties: ["todos"], required: ["todos"] },
};

describe("toolDefinitions", () => {
  test("the tools, in their stable order", () => {
    const names = ["bash", "read", "write", "edit", "todo_write"];
    assert.deepEqual(
      TOOLS.map((tool) => tool.name),
      names,
    );
    assert.deepEqual(
      toolDefinitions().map((definition) => definition.name),
      names,
    );
  });

  test("each has a description and an object schema with the contract's properties", () => {
    for (const { name, description, parameters } of toolDefinitions()) {
      const contract = CONTRACT[name];
      assert.ok(contract, name);
      assert.ok(description.length > 80, `${name} has a real description`);
      assert.equal(parameters.type, "object", name);
      assert.equal(parameters.additionalProperties, false, name);
      assert.equal(parameters.$schema, undefined, name);
      const properties = parameters.properties as Record<string, { description?: string }>;
      assert.deepEqual(Object.keys(properties), contract.properties, name);
      assert.deepEqual(parameters.required, contract.required, name);
      for (const [property, schema] of Object.entries(properties)) {
        assert.ok(schema.description, `${name}.${property} is described for the model`);
      }
    }
  });

  test("the todo items and the parameter types are what the contract says", () => {
    const byName = Object.fromEntries(toolDefinitions().map((d) => [d.name, d.parameters]));
    const props = (name: string) =>
      (byName[name] as { properties: Record<string, Record<string, unknown>> }).properties;
    assert.equal(props("bash").command?.type, "string");
    assert.equal(props("bash").timeout_ms?.type, "integer");
    assert.equal(props("read").offset?.type, "integer");
    assert.equal(props("edit").replace_all?.type, "boolean");
    const items = props("todo_write").todos?.items as Record<string, unknown>;
    assert.deepEqual(items.required, ["content", "status"]);
    assert.deepEqual((items.properties as Record<string, { enum?: string[] }>).status?.enum, [
      "pending",
      "in_progress",
      "completed",
    ]);
  });

  test("two calls give byte-identical JSON (the schemas sit in the cached prompt prefix)", () => {
    assert.equal(JSON.stringify(toolDefinitions()), JSON.stringify(toolDefinitions()));
  });
});
