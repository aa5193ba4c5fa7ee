import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/memory.ts
var MEMORY_ROOT = "/memory/";
var SKILLS_ROOT = "/skills/";

export {
  MEMORY_ROOT,
  SKILLS_ROOT
};
