import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  commitAll
} from "./chunk-4T7JQQBK.js";
import {
  EXIT_FAILED,
  EXIT_USAGE,
  exitCodeFor
} from "./chunk-F6PWWVW3.js";
import {
  afterTitleLine,
  firstLine,
  shortTitle,
  summaryTitle
} from "./chunk-SPDCL3MM.js";
import "./chunk-X2YAM5RQ.js";
import {
  toolCallsFailure
} from "./chunk-C25ETWY6.js";
import "./chunk-6R2W5LJA.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import "./chunk-RORLQNC6.js";
import "./chunk-6DBGH7EK.js";
import "./chunk-UBIXNM57.js";
import "./chunk-D5FAEQPC.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/present/commit-message.ts
function taskSubject({
  task,
  continuing
}) {
  return firstLine(task).slice(0, 72) || (continuing ? "Carry on (pitcrew run --continue)" : "pitcrew run");
}
function localCommitMessage(facts) {
  const given = facts.stopReason === "done" ? summaryTitle(facts.summary) : void 0;
  if (given === void 0) return `${taskSubject(facts)}

${facts.summary}`.trim();
  const rest = afterTitleLine(facts.summary);
  const first = firstLine(facts.task);
  const asked = first !== "" ? `Task: ${first}` : facts.continuing ? "Continued with pitcrew run --continue." : "";
  return [shortTitle(given), rest, asked].filter((part) => part !== "").join("\n\n");
}

// src/run/ends/local-delivery.ts
function localDelivery(options) {
  const { view } = options;
  const asked = { task: options.task, continuing: options.continue };
  return {
    observe: (event, state) => view.onEvent(event, state),
    handOver: async (result, state, workspace) => {
      view.stop();
      const message = localCommitMessage({
        ...asked,
        summary: result.summary,
        stopReason: result.stopReason
      });
      const commit = await commitAll(workspace.worktree, message);
      const kept = workspace.existed || commit.committed;
      const toolFailure = toolCallsFailure(state);
      return {
        outcome: {
          kind: "ran",
          result,
          delivery: { branch: workspace.branch, ...commit, kept },
          ...toolFailure ? { toolFailure } : {},
          exitCode: toolFailure ? EXIT_FAILED : exitCodeFor(result.stopReason)
        },
        headSha: commit.sha ?? null,
        prNumber: null
      };
    },
    salvage: async (error, workspace) => {
      view.stop();
      const commit = workspace === void 0 ? null : await commitAll(
        workspace.worktree,
        `pitcrew run (interrupted): ${taskSubject(asked).slice(0, 60)}`
      ).catch(() => null);
      const nothingToContinue = error instanceof PitcrewError && error.code === "run-nothing-to-continue";
      return {
        outcome: {
          kind: "failed",
          error,
          keptOn: workspace !== void 0 && commit?.committed ? workspace.branch : void 0,
          // `--continue` with nothing to continue is a usage error rather than a failure.
          exitCode: nothingToContinue ? EXIT_USAGE : EXIT_FAILED
        },
        headSha: commit?.sha ?? null,
        prNumber: null
      };
    },
    report: (outcome, { state, notes }) => {
      const cumulative = options.continue ? notes?.state.cumulative : void 0;
      view.ended(outcome, state, cumulative);
      return Promise.resolve();
    }
  };
}
export {
  localDelivery
};
