import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  actionNamespaces,
  runNamespaces
} from "./chunk-VICZT5NX.js";
import "./chunk-DCMTOHGV.js";
import "./chunk-UBIXNM57.js";
import "./chunk-3WPQHTFM.js";
import "./chunk-4CVXQSD5.js";
import "./chunk-M5FB47AC.js";
import "./chunk-D5FAEQPC.js";
import "./chunk-6LOFZIYU.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  actionNamespaces,
  runNamespaces
};
