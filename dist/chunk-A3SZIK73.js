import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/context/replay/policy.ts
var DEFAULT_WINDOW = 128e3;
function naivePolicy() {
  return { name: "naive", view: (history) => ({ messages: [...history] }) };
}
var STAND_IN_SUMMARY_TOKENS = 2e3;
var STAND_IN_SUMMARY = `[replay: stand-in for the handoff summary]${" note".repeat(
  STAND_IN_SUMMARY_TOKENS - 12
)}`;

export {
  DEFAULT_WINDOW,
  naivePolicy,
  STAND_IN_SUMMARY_TOKENS,
  STAND_IN_SUMMARY
};
