import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/conversation.ts
var PITCREW_COMMENT_MARKER = "<!-- pitcrew -->";

export {
  PITCREW_COMMENT_MARKER
};
