/**
 * The secret scan decodes before it matches, end to end with the built action (issue 10 §3): the
 * scripted model writes the job's secrets encoded — the token base64-encoded inside a gzip file
 * made with the sandbox's own gzip, the API key as hex split across lines, a folder named with
 * the token reversed — and fixes the bug. The run pushes nothing, opens no pull request, and the
 * progress comment names each place (file:line, or the name withheld) and kind, never a value.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { callTools } from "../support/model-server.ts";
import { API_KEY, GITHUB_TOKEN, runAction } from "./harness.ts";
import {
  FIX,
  args,
  closeWorlds,
  commentEvent,
  originBranches,
  progressComment,
  world,
} from "./scenes.ts";

after(closeWorlds);

/** The token at byte offset 1 of a base64 run, as a Basic header for another user would carry it. */
const TOKEN_BASE64 = Buffer.from(`u:${GITHUB_TOKEN}`).toString("base64");
const KEY_HEX = Buffer.from(API_KEY).toString("hex");
const REVERSED = [...GITHUB_TOKEN].reverse().join("");

describe("the decoding secret scan with the built action", needsBwrap(), () => {
  test("encoded secrets in files and names: nothing pushed, each named without its value", async () => {
    const script = [
      callTools([
        {
          name: "bash",
          arguments: args({
            command: `mkdir -p cache && printf 'user: u\\nauth: ${TOKEN_BASE64}\\n' | gzip > cache/auth.gz`,
          }),
        },
        {
          name: "write",
          arguments: args({
            path: "fixtures/blob.txt",
            content: `// fixture\nconst blob =\n  "${KEY_HEX.slice(0, 40)}" +\n  "${KEY_HEX.slice(40)}";\n`,
          }),
        },
        {
          name: "write",
          arguments: args({ path: `notes/${REVERSED}/todo.md`, content: "- done\n" }),
        },
      ]),
      ...FIX.slice(1),
    ];
    const made = await world(script);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });

    assert.equal(run.outputs.conclusion, "failure", run.stdout);
    assert.deepEqual(originBranches(made), ["main"]);
    assert.deepEqual(made.github.pulls(), []);
    const body = progressComment(made);
    assert.match(body, /push-blocked-secret/);
    assert.match(
      body,
      /cache\/auth\.gz:2 \(a secret pitcrew holds, base64-encoded, inside gzip data\)/,
    );
    assert.match(body, /fixtures\/blob\.txt:3 \(a secret pitcrew holds, hex-encoded\)/);
    assert.match(
      body,
      /the name notes\/\[name withheld\]\/todo\.md \(a secret pitcrew holds, reversed\)/,
    );
    // `::add-mask::` lines tell the runner what to mask: the one place a value is meant to be.
    const stdout = run.stdout.replace(/^::add-mask::.*$/gm, "");
    const shown = { body, stdout, stderr: run.stderr, summary: run.summary };
    for (const [where, text] of Object.entries(shown)) {
      for (const [form, value] of Object.entries({
        GITHUB_TOKEN,
        API_KEY,
        TOKEN_BASE64,
        KEY_HEX,
        REVERSED,
      })) {
        const at = text.indexOf(value);
        assert.equal(at, -1, `${form} shown in ${where}: ${text.slice(Math.max(0, at - 200), at)}`);
      }
    }
  });
});
