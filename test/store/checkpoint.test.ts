/**
 * The run's checkpoints, with the real local store and real folders: every turn is written to the
 * local copy (what the post step uploads), every compaction is saved to the store with its note,
 * the final save counts the run once on top of what was restored, and a store that fails only
 * warns.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { LoopEvent } from "../../src/domain/loop.ts";
import type { Message } from "../../src/domain/messages.ts";
import type { Usage } from "../../src/domain/usage.ts";
import { PitcrewError } from "../../src/errors.ts";
import { RUN_START, foldEvent } from "../../src/domain/run-state.ts";
import { createCheckpoint } from "../../src/store/checkpoint.ts";
import type { Checkpoint, RunPlace } from "../../src/store/checkpoint.ts";
import { createLocalStore } from "../../src/store/local.ts";
import { readNotesFolder } from "../../src/store/notes.ts";
import type { Notes } from "../../src/domain/notes.ts";
import type { NotesStore } from "../../src/store/store.ts";

const base = mkdtempSync(join(tmpdir(), "pitcrew-checkpoint-"));
after(() => rmSync(base, { recursive: true, force: true }));
let folders = 0;
const folder = (): string => join(base, `f-${++folders}`);

const PLACE: RunPlace = {
  threadKey: "issue-1",
  repository: "octo/demo",
  branch: "pitcrew/issue-1",
  baseBranch: "main",
  baseSha: "a".repeat(40),
};
const START: Message[] = [
  { role: "system", content: "system" },
  { role: "user", content: "fix issue 1" },
];
const usage = (prompt: number): Usage => ({
  promptTokens: prompt,
  cachedTokens: 0,
  completionTokens: 10,
  reasoningTokens: 0,
});

/** One turn as the loop reports it: the usage (running totals), the answer, the tool's result. */
function turn(n: number): LoopEvent[] {
  const call = { id: `call-${n}`, name: "bash", arguments: '{"command":"npm test"}' };
  return [
    {
      type: "usage",
      turn: n,
      usage: usage(100),
      cost: 0.01,
      totalUsage: { ...usage(100 * n), completionTokens: 10 * n },
      totalCost: 0.01 * n,
    },
    { type: "assistant", turn: n, content: "", toolCalls: [call] },
    {
      type: "tool_end",
      turn: n,
      call,
      outcome: { content: "ok", isError: false },
      durationMs: 5,
    },
  ];
}

/** Feeds the checkpoint as the Run does: each event with the run's state after it. */
function feeder(checkpoint: Checkpoint): (event: LoopEvent) => void {
  let state = RUN_START;
  return (event) => {
    state = foldEvent(state, event);
    checkpoint.observe(event, state);
  };
}

function recordingLog(): { warnings: string[]; warning(message: string): void } {
  const warnings: string[] = [];
  return { warnings, warning: (message) => void warnings.push(message) };
}

describe("createCheckpoint", () => {
  test("every turn reaches the local copy; a compaction is saved with its note", async () => {
    const root = folder();
    const store = createLocalStore(root);
    const localDir = join(folder(), "local");
    const checkpoint = createCheckpoint({
      store,
      localDir,
      restored: undefined,
      place: PLACE,
      start: START,
      log: recordingLog(),
    });
    const feed = feeder(checkpoint);
    const todoCall = {
      id: "call-todo",
      name: "todo_write",
      arguments: JSON.stringify({ todos: [{ content: "Fix add()", status: "in_progress" }] }),
    };
    feed({
      type: "tool_end",
      turn: 1,
      call: todoCall,
      outcome: {
        content: "1 item",
        isError: false,
        details: { todos: [{ content: "Fix add()", status: "in_progress" }] },
      },
      durationMs: 1,
    });
    for (const event of turn(1)) feed(event);
    const local = readNotesFolder(localDir);
    assert.equal(local.state.cumulative.turns, 1);
    assert.equal(local.state.stopReason, null, "a checkpoint, not an ending");
    assert.deepEqual(local.state.todos, [{ content: "Fix add()", status: "in_progress" }]);
    assert.equal((await store.restore("issue-1")).found, false, "turns are not uploaded");

    for (const event of turn(2)) feed(event);
    feed({
      type: "compaction",
      turn: 2,
      compaction: { note: "## Goal\nfix", from: 3 },
    });
    await checkpoint.finish({ stopReason: "max_turns", headSha: "b".repeat(40), prNumber: 7 });
    const saved = await store.restore("issue-1");
    assert.ok(saved.found);
    assert.equal(saved.notes.note, "## Goal\nfix");
    assert.equal(saved.notes.state.stopReason, "max_turns");
    assert.equal(saved.notes.state.prNumber, 7);
    assert.equal(saved.notes.state.cumulative.turns, 2);
    assert.match(saved.notes.transcript, /"content":"fix issue 1"/);
  });

  test("a continued run adds itself once to what it restored, and keeps the old transcript", async () => {
    const store = createLocalStore(folder());
    const first = createCheckpoint({
      store,
      localDir: join(folder(), "local"),
      restored: undefined,
      place: PLACE,
      start: START,
      log: recordingLog(),
    });
    const feedFirst = feeder(first);
    for (const event of turn(1)) feedFirst(event);
    await first.finish({ stopReason: "max_turns", headSha: null, prNumber: null });
    const restored = await store.restore("issue-1");
    assert.ok(restored.found);

    const second = createCheckpoint({
      store,
      localDir: join(folder(), "local"),
      restored: restored.notes,
      place: PLACE,
      start: [START[0] as Message, { role: "user", content: "carry on" }],
      log: recordingLog(),
    });
    const feedSecond = feeder(second);
    for (const event of turn(1)) feedSecond(event);
    assert.equal(second.current().state.cumulative.runs, 2, "a checkpoint counts the run once");
    await second.finish({ stopReason: "done", headSha: null, prNumber: null });
    const both = await store.restore("issue-1");
    assert.ok(both.found);
    assert.equal(both.notes.state.cumulative.runs, 2);
    assert.equal(both.notes.state.cumulative.turns, 2);
    assert.ok(Math.abs(both.notes.state.cumulative.cost - 0.02) < 1e-9);
    assert.match(both.notes.transcript, /"run":1.*fix issue 1/);
    assert.match(both.notes.transcript, /"run":2.*carry on/);
  });

  test("a store that fails only warns, and the local copy still holds the notes", async () => {
    const failing: NotesStore = {
      save: () => Promise.reject(new PitcrewError("notes-save-failed", "the service said 503")),
      restore: () => Promise.resolve({ found: false, reason: "none" }),
      threads: () => Promise.resolve([]),
    };
    const log = recordingLog();
    const localDir = join(folder(), "local");
    const checkpoint = createCheckpoint({
      store: failing,
      localDir,
      restored: undefined,
      place: PLACE,
      start: START,
      log,
    });
    const feed = feeder(checkpoint);
    for (const event of turn(1)) feed(event);
    const saved = await checkpoint.finish({
      stopReason: "cancelled",
      headSha: null,
      prNumber: null,
    });
    assert.equal(saved, false);
    assert.deepEqual(log.warnings, [
      "The handoff notes were not saved: notes-save-failed: the service said 503",
    ]);
    const local: Notes = readNotesFolder(localDir);
    assert.equal(local.state.stopReason, "cancelled");
  });
});
