import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  CONTEXT_USAGE,
  DEFAULT_REPLAY_POLICY,
  EXIT_FAILED,
  EXIT_USAGE,
  REPLAY_POLICIES,
  contextCommand,
  formatReport,
  loadSession
} from "./chunk-UEXP7TTN.js";
import "./chunk-FONUG7OL.js";
import "./chunk-A3SZIK73.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  CONTEXT_USAGE,
  DEFAULT_REPLAY_POLICY,
  EXIT_FAILED,
  EXIT_USAGE,
  REPLAY_POLICIES,
  contextCommand,
  formatReport,
  loadSession
};
