import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/run/ends/local-exit.ts
var EXIT_FAILED = 1;
var EXIT_USAGE = 2;
var EXIT_STOPPED_EARLY = 3;
var EXIT_CANCELLED = 130;
function exitCodeFor(reason) {
  if (reason === "done") return 0;
  if (reason === "cancelled") return EXIT_CANCELLED;
  if (reason === "model_error") return EXIT_FAILED;
  return EXIT_STOPPED_EARLY;
}

export {
  EXIT_FAILED,
  EXIT_USAGE,
  EXIT_CANCELLED,
  exitCodeFor
};
