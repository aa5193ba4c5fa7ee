import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/usage.ts
var ZERO_USAGE = {
  promptTokens: 0,
  cachedTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0
};
function addUsage(a, b) {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens
  };
}
function totalTokens(usage) {
  return usage.promptTokens + usage.completionTokens;
}

export {
  ZERO_USAGE,
  addUsage,
  totalTokens
};
