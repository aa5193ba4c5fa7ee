import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  LOCAL_THREAD,
  localNotes,
  repositoryNotes
} from "./chunk-W35AUT3S.js";
import "./chunk-ACUST24B.js";
import "./chunk-6CPZM6MN.js";
import "./chunk-RORLQNC6.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-UBIXNM57.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  LOCAL_THREAD,
  localNotes,
  repositoryNotes
};
