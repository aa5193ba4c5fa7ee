/**
 * The disk reserve end to end with the built action (issue 10 §7b): the workflow's
 * `disk-reserve` reaches the sandbox. Set far above the runner's free space, a command that writes
 * 64 MiB is killed and the agent is told `disk-reserve-reached`; the agent's clean-up still runs
 * and the fix is delivered.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { BUGGY_LINE, FIXED_LINE } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script } from "../support/model-server.ts";
import { runAction } from "./harness.ts";
import { args, closeWorlds, commentEvent, world } from "./scenes.ts";

after(closeWorlds);

describe("disk-reserve with the built action", needsBwrap(), () => {
  test("a command past the workflow's reserve is killed, named to the agent, and the run goes on", async () => {
    const script: Script = [
      callTools([
        {
          name: "bash",
          arguments: args({ command: "head -c 64M /dev/zero > big.bin; sleep 5; echo done" }),
        },
      ]),
      callTools([
        { name: "bash", arguments: args({ command: "rm -f big.bin; echo cleaned" }) },
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        },
      ]),
      say("Fixed add() in calc.js."),
    ];
    const made = await world(script);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      // More MiB than any runner has free: every command starts below the reserve.
      inputs: { "disk-reserve": String(1024 * 1024 * 1024) },
    });
    assert.equal(run.outputs.conclusion, "success", run.stdout);

    const first = JSON.stringify(made.model.requests[1]?.body.messages.slice(-2));
    assert.match(first, /disk-reserve-reached: the command and everything it started were killed/);
    // The reserve is polled, so a write may finish before it is seen; the command is stopped
    // before it ends.
    assert.doesNotMatch(first, /done/, "the command was stopped before it ended");
    const second = JSON.stringify(made.model.requests[2]?.body.messages.slice(-3));
    assert.match(second, /cleaned/);
  });
});
