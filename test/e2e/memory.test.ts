/**
 * Memory across runs, end to end with the built action: run 1 (a `workflow_dispatch` task) writes
 * `/memory/db.md` through the write tool, which the harness commits on the `pitcrew-memory` branch
 * of the fake GitHub through its Git Data API (a real ref, real git objects); run 2, on a fresh
 * runner, is told of the file in its system prompt and reads it back. A skill committed in
 * `.github/pitcrew/skills/` is listed too, and bash cannot reach either namespace.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { fixtureGit } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Turn } from "../support/model-server.ts";
import { workflowDispatchPayload } from "../support/payloads.ts";
import { runAction } from "./harness.ts";
import { args, closeWorlds, world } from "./scenes.ts";

after(closeWorlds);

const LEARNED = "The integration tests need `make db` first.\n";

const SCRIPT: readonly Turn[] = [
  // Run 1: learns something and writes it down; bash cannot look.
  callTools([{ name: "bash", arguments: args({ command: "cat /memory/db.md" }) }]),
  callTools([{ name: "write", arguments: args({ path: "/memory/db.md", content: LEARNED }) }]),
  say("Note how to run the integration tests\n\nWrote /memory/db.md for later runs."),
  // Run 2: reads what run 1 wrote.
  callTools([{ name: "read", arguments: args({ path: "/memory/db.md" }) }]),
  say("Nothing to change\n\nThe memory says to run make db first."),
];

function withSkill(repo: string): void {
  mkdirSync(join(repo, ".github", "pitcrew", "skills"), { recursive: true });
  writeFileSync(join(repo, ".github/pitcrew/skills/testing.md"), "# Run the tests with npm test\n");
  fixtureGit(repo, "add", ".");
  fixtureGit(repo, "commit", "-q", "-m", "a skill");
}

describe("memory with the built action", needsBwrap(), () => {
  test("run 1 writes /memory/db.md on the pitcrew-memory branch; run 2 is told of it and reads it", async () => {
    const made = await world(SCRIPT, withSkill);
    const dispatch = (task: string) => {
      const payload = workflowDispatchPayload({ task });
      payload.repository.default_branch = "main";
      return payload;
    };
    const first = await runAction(made, {
      eventName: "workflow_dispatch",
      payload: dispatch("find out how the integration tests run"),
      runId: "5001",
    });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    // bash was refused before the sandbox, with the hint to use read.
    const messages = (
      made.model.requests[1]?.body as { messages: { role: string; content: string }[] }
    ).messages;
    assert.match(
      messages.findLast((one) => one.role === "tool")?.content ?? "",
      /refused by the permission rules: \/memory\/db\.md is pitcrew's memory, not a file in the sandbox: use the read tool/,
    );

    const ref = made.github.refSha("heads/pitcrew-memory");
    assert.ok(ref !== undefined, "the memory branch exists");
    const log = fixtureGit(made.origin, "log", "--format=%B", "pitcrew-memory");
    assert.match(log, /pitcrew memory: write db\.md/);
    assert.match(log, /Pitcrew-Run: \S+\/actions\/runs\/5001/);
    assert.match(log, /Pitcrew-Thread: dispatch-5001/);
    assert.equal(fixtureGit(made.origin, "show", "pitcrew-memory:db.md"), LEARNED.trimEnd());

    const second = await runAction(made, {
      eventName: "workflow_dispatch",
      payload: dispatch("set up the integration tests"),
      runId: "5002",
    });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    const start = made.model.requests[3]!;
    const system = JSON.stringify(start.body);
    assert.match(system, /\/memory\/db\.md — The integration tests need `make db` first/);
    assert.match(system, /\/skills\/testing\.md — # Run the tests with npm test/);
    const readBack = JSON.stringify(made.model.requests[4]?.body ?? "");
    assert.match(readBack, /1\\tThe integration tests need `make db` first\./);
  });
});
