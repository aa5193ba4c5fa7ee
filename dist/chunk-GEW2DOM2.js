import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  runTask
} from "./chunk-H2G7FLNI.js";
import "./chunk-WNOXP3YX.js";
import "./chunk-6BQ7F7WX.js";
import "./chunk-7UHINFIT.js";
import "./chunk-C25ETWY6.js";
import "./chunk-6R2W5LJA.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-FGBOK63L.js";
import "./chunk-6CPZM6MN.js";
import "./chunk-RORLQNC6.js";
import "./chunk-SWYE5LNS.js";
import "./chunk-NGIHAK4Q.js";
import "./chunk-AYN3Q6DD.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-FSDONFOK.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import "./chunk-4CVXQSD5.js";
import "./chunk-M5FB47AC.js";
import "./chunk-D5FAEQPC.js";
import "./chunk-6LOFZIYU.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  runTask
};
