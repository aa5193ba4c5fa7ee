import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  runTask
} from "./chunk-5IUBOY7Z.js";
import "./chunk-3WUUTCS7.js";
import "./chunk-C25ETWY6.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-FGBOK63L.js";
import "./chunk-OMNSSNG6.js";
import "./chunk-6BQ7F7WX.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-KI3JXJFA.js";
import "./chunk-AYN3Q6DD.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-FSDONFOK.js";
import "./chunk-NGIHAK4Q.js";
import "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import "./chunk-MRWH7ZDE.js";
import "./chunk-RORLQNC6.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  runTask
};
