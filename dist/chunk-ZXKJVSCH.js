import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  actionNamespaces,
  runNamespaces
} from "./chunk-MQQI2LR5.js";
import "./chunk-CSVVNRY6.js";
import "./chunk-UBIXNM57.js";
import "./chunk-3WPQHTFM.js";
import "./chunk-4CVXQSD5.js";
import "./chunk-VAFVJKRZ.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-RORLQNC6.js";
import "./chunk-DN34JNOW.js";
import "./chunk-DVEDXINL.js";
import "./chunk-QQV5CYGB.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  actionNamespaces,
  runNamespaces
};
