import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  external_exports
} from "./chunk-V2YX4XL4.js";

// src/agent/tools/tool.ts
function defineTool(tool) {
  return tool;
}
function parametersOf(tool) {
  const schema = external_exports.toJSONSchema(tool.schema, {
    target: "draft-7",
    // zod bounds every integer by the safe-integer range; that says nothing and costs tokens.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    }
  });
  delete schema.$schema;
  return schema;
}
function failure(content) {
  return { content, isError: true };
}

export {
  defineTool,
  parametersOf,
  failure
};
