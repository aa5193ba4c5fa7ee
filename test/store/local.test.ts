/**
 * The folder store on real files: save and restore, replacement by a later save without leftovers,
 * a failed save leaving the last notes whole, a crash between the two renames, and unusable
 * content answered with a reason instead of an exception.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createLocalStore } from "../../src/store/local.ts";
import { NOTE_CAP } from "../../src/store/notes.ts";
import { notesName } from "../../src/store/store.ts";
import type { Notes } from "../../src/domain/notes.ts";
import { threadNotes } from "../support/notes.ts";

const base = mkdtempSync(join(tmpdir(), "pitcrew-local-store-"));
after(() => rmSync(base, { recursive: true, force: true }));
let roots = 0;
const newRoot = (): string => join(base, `root-${++roots}`, "notes");

function notes(threadKey: string, note: string): Notes {
  return threadNotes(note, { threadKey, repository: "octo/demo" });
}

describe("createLocalStore", () => {
  test("restores what was saved, one folder per thread named by notesName", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "one"));
    await store.save(notes("pr-2", "two"));
    assert.deepEqual(readdirSync(root).sort(), [notesName("issue-1"), notesName("pr-2")]);
    const restored = await store.restore("issue-1");
    assert.ok(restored.found);
    assert.deepEqual(restored.notes, notes("issue-1", "one"));
    assert.equal(restored.from, `folder ${join(root, notesName("issue-1"))}`);
  });

  test("a half-written folder a killed save left behind is removed by the next save", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "one"));
    mkdirSync(join(root, `${notesName("issue-1")}.saving-Ab12Cd`));
    await store.save(notes("issue-1", "two"));
    assert.deepEqual(readdirSync(root), [notesName("issue-1")]);
    const restored = await store.restore("issue-1");
    assert.equal(restored.found && restored.notes.note, "two");
  });

  test("nothing saved: not found, and the reason says so", async () => {
    const restored = await createLocalStore(newRoot()).restore("issue-1");
    assert.equal(restored.found, false);
    assert.match(!restored.found ? restored.reason : "", /no notes saved for issue-1/);
    assert.equal(!restored.found && restored.damaged, undefined, "a plain fresh start");
  });

  test("a later save replaces the earlier whole and leaves nothing beside it", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "first"));
    await store.save(notes("issue-1", "second"));
    const restored = await store.restore("issue-1");
    assert.ok(restored.found);
    assert.equal(restored.notes.note, "second");
    assert.deepEqual(readdirSync(root), [notesName("issue-1")]);
  });

  test("a failed save leaves the last notes as they were and no temporary folder", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "kept"));
    await assert.rejects(store.save(notes("issue-1", "x".repeat(NOTE_CAP + 1))), {
      code: "notes-too-large",
    });
    const restored = await store.restore("issue-1");
    assert.ok(restored.found);
    assert.equal(restored.notes.note, "kept");
    assert.deepEqual(readdirSync(root), [notesName("issue-1")]);
  });

  test("a crash between the two renames: the last save's notes are restored, then replaced", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "before the crash"));
    const folder = join(root, notesName("issue-1"));
    renameSync(folder, `${folder}.previous`);
    const restored = await store.restore("issue-1");
    assert.ok(restored.found);
    assert.equal(restored.notes.note, "before the crash");

    await store.save(notes("issue-1", "after"));
    assert.deepEqual(readdirSync(root), [notesName("issue-1")]);
    const again = await store.restore("issue-1");
    assert.ok(again.found);
    assert.equal(again.notes.note, "after");
  });

  test("unusable content: not found, with the file and the fault named", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "one"));
    writeFileSync(join(root, notesName("issue-1"), "state.json"), "{not json");
    const restored = await store.restore("issue-1");
    assert.equal(restored.found, false);
    assert.match(
      !restored.found ? restored.reason : "",
      /unusable: notes-invalid: state\.json: not JSON/,
    );
    assert.equal(!restored.found && restored.damaged, true);

    await store.save(notes("issue-1", "one"));
    rmSync(join(root, notesName("issue-1"), "transcript.jsonl"));
    const missing = await store.restore("issue-1");
    assert.match(!missing.found ? missing.reason : "", /transcript\.jsonl: missing/);
  });

  test("a folder holding another thread's notes is not restored for this one", async () => {
    const root = newRoot();
    const store = createLocalStore(root);
    await store.save(notes("issue-1", "one"));
    renameSync(join(root, notesName("issue-1")), join(root, notesName("issue-9")));
    const restored = await store.restore("issue-9");
    assert.equal(restored.found, false);
    assert.match(!restored.found ? restored.reason : "", /belong to issue-1, not issue-9/);
    assert.equal(!restored.found && restored.damaged, true);
    assert.ok(existsSync(join(root, notesName("issue-9"))));
  });
});
