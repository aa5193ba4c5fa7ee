import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  DEFAULT_WINDOW,
  STAND_IN_SUMMARY,
  STAND_IN_SUMMARY_TOKENS,
  naivePolicy
} from "./chunk-A3SZIK73.js";
import "./chunk-RBSLSBJN.js";
export {
  DEFAULT_WINDOW,
  STAND_IN_SUMMARY,
  STAND_IN_SUMMARY_TOKENS,
  naivePolicy
};
