import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  toolsText
} from "./chunk-U2SFCJGL.js";
import {
  STAND_IN_SUMMARY
} from "./chunk-A3SZIK73.js";
import {
  layeredPolicy
} from "./chunk-WNOXP3YX.js";
import {
  estimateText
} from "./chunk-6BQ7F7WX.js";
import "./chunk-EYJLS7SB.js";
import {
  ZERO_USAGE
} from "./chunk-RORLQNC6.js";
import "./chunk-NGIHAK4Q.js";
import "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/context/replay/reminder.ts
var STARTED = Date.parse("2026-01-15T09:00:00Z");
var BRANCH = "pitcrew/issue-4127-fix-regression";
var PLAN = [
  "Reproduce the failure with the test named in the issue and note the exact error",
  "Find where the failing value is computed: grep the module, its callers and its tests",
  "Write a regression test beside the existing ones that fails for the reason in the issue",
  "Fix the computation without changing the public signature or the documented behaviour",
  "Run the module's whole test suite and fix anything the change broke",
  "Check the other callers of the changed function for the same mistake and fix them too",
  "Run the linters and the type checker the repository's CI runs, and fix what they report",
  "Read the whole diff: no stray debug output, docs and changelog updated if behaviour changed"
];
var CHANGED = ["src/module/core.py", "tests/test_core.py"];
var REQUESTS_PER_ITEM = 8;
var CHANGED_EVERY = 7;
function plan(request) {
  const current = Math.floor(request / REQUESTS_PER_ITEM);
  return PLAN.map((content, index) => ({
    content,
    status: index < current ? "completed" : index === current ? "in_progress" : "pending"
  }));
}
function replayReminder() {
  let request = 0;
  return () => {
    const n = request++;
    return Promise.resolve({
      now: new Date(STARTED + n * 6e4),
      branch: BRANCH,
      todos: plan(n),
      changedFiles: n > 0 && n % CHANGED_EVERY === 0 ? CHANGED : []
    });
  };
}

// src/context/replay/pitcrew-policy.ts
function pitcrewPolicy(setup) {
  const policy = layeredPolicy({
    settings: { window: setup.window },
    fixedTokens: estimateText(toolsText(setup.tools)),
    reminder: replayReminder()
  });
  let summaryRequest;
  const standIn = (messages) => {
    summaryRequest = messages;
    return Promise.resolve(STAND_IN_SUMMARY);
  };
  return {
    name: "pitcrew",
    async view(history) {
      summaryRequest = void 0;
      const view = await policy.view(history, standIn);
      return {
        messages: view.messages,
        compacted: view.compaction !== null,
        summaryRequest,
        reminder: view.reminder ?? void 0
      };
    },
    record(promptTokens) {
      policy.record({ ...ZERO_USAGE, promptTokens });
    }
  };
}
export {
  pitcrewPolicy
};
