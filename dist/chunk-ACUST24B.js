import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/store/store.ts
function notesName(threadKey) {
  return `pitcrew-notes-${threadKey}`;
}

export {
  notesName
};
