/**
 * Handoff notes with the built action and the real @actions/artifact client against the fake
 * artifact service: a run stopped by the turn limit leaves a draft PR and a notes artifact, and
 * `/agent continue` restores them and finishes on the same PR with the thread's cumulative cost;
 * a run cancelled mid-turn (SIGTERM) or killed outright (then the post step uploads) still leaves
 * notes the next run restores; damaged notes mean a fresh start with a warning, never a crash.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script } from "../support/model-server.ts";
import { runAction } from "./harness.ts";
import type { World } from "./harness.ts";
import { FIX, args, closeWorlds, commentEvent, progressComment, world } from "./scenes.ts";

after(closeWorlds);

function notesOf(made: World): { name: string; runId: number }[] {
  return made.github.artifacts
    .artifacts()
    .filter((artifact) => artifact.name === "pitcrew-notes-issue-1")
    .map((artifact) => ({ name: artifact.name, runId: artifact.runId }));
}

/** Resolves once the model server has received `count` requests. */
async function requestsArrived(made: World, count: number): Promise<void> {
  while (made.model.requests.length < count) await new Promise((r) => setTimeout(r, 20));
}

describe("handoff notes across runs", needsBwrap(), () => {
  test("max-turns → draft PR + notes; /agent continue restores, finishes, same PR, cumulative cost", async () => {
    const made = await world(FIX);
    const first = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      inputs: { "max-turns": "2" },
    });
    assert.equal(first.outputs.conclusion, "stopped", first.stdout);
    assert.equal(made.github.pulls()[0]?.draft, true);
    assert.deepEqual(notesOf(made), [{ name: "pitcrew-notes-issue-1", runId: 1001 }]);
    assert.match(first.post, /saved the handoff notes/);

    const second = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent continue"),
      runId: "1002",
    });
    assert.equal(second.outputs.conclusion, "success", second.stdout);
    assert.match(second.stdout, /notes: restored from artifact \d+ of run 1001/);
    assert.equal(made.github.pulls().length, 1);
    assert.equal(second.outputs["pr-number"], first.outputs["pr-number"]);
    assert.equal(made.github.pulls()[0]?.draft, false, "finished: out of draft");
    // The continuing run was given where the first one ended.
    const told = made.model.requests[2]?.raw ?? "";
    assert.match(told, /continuing work an earlier pitcrew run started/);
    assert.match(told, /turn limit/);
    assert.match(told, /Fix add\(\)/, "the first run's todo list");
    // The comment adds both runs up; the newest notes are run 1002's.
    assert.match(progressComment(made, 1, 2), /All 2 runs on this thread: turns: 4/);
    assert.deepEqual(
      notesOf(made).map((notes) => notes.runId),
      [1001, 1002],
    );
  });

  test("SIGTERM mid-turn: the run stops, saves its notes, and the next run restores them", async () => {
    const script: Script = [
      callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
      { ...say("never sent"), delayMs: 60_000 },
    ];
    const made = await world(script);
    const cancelled = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      onSpawn: (child) => {
        void requestsArrived(made, 2).then(() => child.kill("SIGTERM"));
      },
    });
    assert.match(cancelled.stdout, /SIGTERM received/);
    assert.equal(cancelled.outputs.conclusion, "stopped", cancelled.stdout);
    assert.deepEqual(notesOf(made), [{ name: "pitcrew-notes-issue-1", runId: 1001 }]);
    assert.match(progressComment(made), /\/agent continue/);

    const next = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent continue"),
      runId: "1002",
    });
    assert.match(next.stdout, /notes: restored from artifact \d+ of run 1001/);
    assert.match(made.model.requests.at(-1)?.raw ?? "", /cancelled/);
  });

  test("killed outright after a turn: the post step uploads the local notes", async () => {
    const script: Script = [
      callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
      { ...say("never sent"), delayMs: 60_000 },
    ];
    const made = await world(script);
    const killed = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      onSpawn: (child) => {
        void requestsArrived(made, 2).then(() => child.kill("SIGKILL"));
      },
    });
    assert.notEqual(killed.code, 0);
    assert.match(killed.post, /saved the handoff notes the main step could not .*1 turns so far/);
    assert.deepEqual(notesOf(made), [{ name: "pitcrew-notes-issue-1", runId: 1001 }]);
  });

  test("damaged notes (unreadable, oversized): a fresh start with a warning", async () => {
    const made = await world([say("Nothing to change."), say("Nothing to change.")]);
    made.github.artifacts.putArtifact({
      name: "pitcrew-notes-issue-1",
      runId: 900,
      files: { "note.md": "", "state.json": "{ not json", "transcript.jsonl": "" },
    });
    const unreadable = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent continue"),
    });
    assert.equal(unreadable.code, 0, unreadable.stdout);
    assert.match(unreadable.stdout, /::warning::notes: starting fresh: .*state\.json/);

    made.github.artifacts.putArtifact({
      name: "pitcrew-notes-issue-1",
      runId: 1500,
      files: { "note.md": "", "state.json": `${" ".repeat(300 * 1024)}{}`, "transcript.jsonl": "" },
    });
    const oversized = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent continue"),
      runId: "1002",
    });
    assert.equal(oversized.code, 0, oversized.stdout);
    assert.match(
      oversized.stdout,
      /::warning::notes: starting fresh: .*state\.json: \d+ bytes, over the cap/,
    );
  });
});
