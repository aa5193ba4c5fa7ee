import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  LOCAL_THREAD
} from "./chunk-W35AUT3S.js";
import {
  cachedPriceRatio,
  createModelClient
} from "./chunk-EYJE4XVM.js";
import "./chunk-ACUST24B.js";
import {
  localTaskPrompt
} from "./chunk-7UHINFIT.js";
import "./chunk-6R2W5LJA.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-6CPZM6MN.js";
import "./chunk-RORLQNC6.js";
import "./chunk-AYN3Q6DD.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-V2YX4XL4.js";
import {
  DEFAULT_SETTINGS
} from "./chunk-P5UMHJDW.js";
import {
  protectedPatterns
} from "./chunk-K5VWAPAE.js";
import "./chunk-UBIXNM57.js";
import "./chunk-M5FB47AC.js";
import "./chunk-D5FAEQPC.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/run/ends/local-request.ts
function localRequest(asked) {
  return {
    threadKey: LOCAL_THREAD,
    continuing: asked.continue ? { instruction: asked.task } : void 0,
    brief: (workspace) => {
      const { worktree, setup } = workspace;
      const { instructions, config } = setup;
      return Promise.resolve({
        prompt: localTaskPrompt({ task: asked.task, repositoryInstructions: instructions }),
        session: {
          sandbox: {
            ...DEFAULT_SETTINGS,
            backend: asked.sandbox,
            protectedPaths: protectedPatterns(
              config["protected-paths"] ?? [],
              config["allow-protected-changes"] ?? false
            )
          },
          model: createModelClient({
            apiKey: asked.apiKey,
            model: asked.model,
            baseUrl: asked.baseUrl
          }),
          limits: { maxTurns: asked.maxTurns },
          window: { window: asked.contextWindow, cachedPrice: cachedPriceRatio(asked.model) },
          deny: config.permissions.deny,
          promptCacheKey: `pitcrew-run-${worktree.branch}`
        }
      });
    }
  };
}
export {
  localRequest
};
