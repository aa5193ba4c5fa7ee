import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/todos.ts
var TODO_WRITE = "todo_write";

export {
  TODO_WRITE
};
