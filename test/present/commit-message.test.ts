/**
 * The message of `pitcrew run`'s commit: what changed when the agent finished with a title line,
 * the task otherwise; the agent's answer always in the body.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { localCommitMessage, taskSubject } from "../../src/present/commit-message.ts";

const ANSWER =
  "Fix add(): it subtracted instead of adding\n\nadd() returned a - b; npm test passes.";

describe("the local commit's message", () => {
  test("a finished run with a title line: that line is the subject, the task below the answer", () => {
    assert.equal(
      localCommitMessage({
        task: "make the calc test pass",
        continuing: false,
        summary: ANSWER,
        stopReason: "done",
      }),
      "Fix add(): it subtracted instead of adding\n\nadd() returned a - b; npm test passes.\n\nTask: make the calc test pass",
    );
  });

  test("a stop by a limit, or an answer with no title line: the task is the subject", () => {
    assert.equal(
      localCommitMessage({
        task: "make it pass\nand more",
        continuing: false,
        summary: ANSWER,
        stopReason: "max_turns",
      }),
      `make it pass\n\n${ANSWER}`,
    );
    assert.equal(
      localCommitMessage({
        task: "make it pass",
        continuing: false,
        summary: "Fixed calc.js; npm test passes.",
        stopReason: "done",
      }),
      "make it pass\n\nFixed calc.js; npm test passes.",
    );
  });

  test("a long title is cut at a word; no task is 'pitcrew run' or the continuation", () => {
    const long = `Fix ${"the parser's handling of empty input ".repeat(2).trim()}\n\nDone.`;
    const subject =
      localCommitMessage({ task: "", continuing: false, summary: long, stopReason: "done" }).split(
        "\n",
      )[0] ?? "";
    assert.ok(subject.length <= 72 && subject.endsWith("…"), subject);
    assert.match(
      localCommitMessage({ task: "", continuing: true, summary: ANSWER, stopReason: "done" }),
      /npm test passes\.\n\nContinued with pitcrew run --continue\.$/,
    );
    assert.equal(taskSubject({ task: "", continuing: false }), "pitcrew run");
    assert.equal(
      taskSubject({ task: "  ", continuing: true }),
      "Carry on (pitcrew run --continue)",
    );
  });
});
