import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  CACHED_READ_RATIOS,
  CACHE_MIN_TOKENS,
  CACHE_STEP_TOKENS,
  EMPTY_TALLY,
  MESSAGE_FRAMING_TOKENS,
  TOKENIZER,
  TokenCounter,
  addTally,
  cachedTokens,
  commonPrefixTokens,
  countText,
  distributionOf,
  fileReport,
  inputCost,
  messageText,
  pairingProblem,
  quantile,
  replaySession,
  replaySessions,
  statsOf,
  toolsText
} from "./chunk-U2SFCJGL.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  CACHED_READ_RATIOS,
  CACHE_MIN_TOKENS,
  CACHE_STEP_TOKENS,
  EMPTY_TALLY,
  MESSAGE_FRAMING_TOKENS,
  TOKENIZER,
  TokenCounter,
  addTally,
  cachedTokens,
  commonPrefixTokens,
  countText,
  distributionOf,
  fileReport,
  inputCost,
  messageText,
  pairingProblem,
  quantile,
  replaySession,
  replaySessions,
  statsOf,
  toolsText
};
