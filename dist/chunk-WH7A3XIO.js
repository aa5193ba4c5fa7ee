import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  localGitData
} from "./chunk-RT5U4QBF.js";
import "./chunk-UBIXNM57.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";
export {
  localGitData
};
