import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  TOOLS,
  toolDefinitions
} from "./chunk-SWYE5LNS.js";
import "./chunk-NGIHAK4Q.js";
import "./chunk-AYN3Q6DD.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-FSDONFOK.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import "./chunk-6LOFZIYU.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  TOOLS,
  toolDefinitions
};
