import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  runTask
} from "./chunk-HP2BGUFL.js";
import "./chunk-YY3SSYDK.js";
import "./chunk-6BQ7F7WX.js";
import "./chunk-C25ETWY6.js";
import "./chunk-FGBOK63L.js";
import "./chunk-6CPZM6MN.js";
import "./chunk-TDBHGGXH.js";
import "./chunk-NGIHAK4Q.js";
import "./chunk-FSDONFOK.js";
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
  runTask
};
