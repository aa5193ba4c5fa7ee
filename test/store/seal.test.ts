/**
 * The notes' seal: this key's seal of these files holds; a change to any file, bytes moved from
 * one file to another, another key, or a malformed seal file does not.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { NotesText } from "../../src/store/notes.ts";
import { seal, sealKey, sealMatches } from "../../src/store/seal.ts";

const KEY = sealKey("sk-the-workflow-api-key-0123456789");
const TEXT: NotesText = {
  note: "## Goal\nFix add().",
  state: '{\n  "version": 1\n}\n',
  transcript: '{"type":"message","run":1,"message":{"role":"user","content":"fix"}}\n',
};

describe("seal", () => {
  test("the seal of the files, by the same key, matches", () => {
    const sealed = seal(KEY, TEXT);
    assert.match(sealed, /^hmac-sha256:[0-9a-f]{64}\n$/);
    assert.equal(sealMatches(KEY, TEXT, sealed), true);
    assert.equal(sealMatches(sealKey("sk-the-workflow-api-key-0123456789"), TEXT, sealed), true);
  });

  test("a changed note, state or transcript is rejected", () => {
    const sealed = seal(KEY, TEXT);
    for (const part of ["note", "state", "transcript"] as const) {
      const changed = { ...TEXT, [part]: `${TEXT[part]} ` };
      assert.equal(sealMatches(KEY, changed, sealed), false, part);
    }
  });

  test("text moved from one file into the next is rejected (each part is length-prefixed)", () => {
    const sealed = seal(KEY, TEXT);
    const moved = {
      ...TEXT,
      note: TEXT.note.slice(0, -1),
      state: TEXT.note.slice(-1) + TEXT.state,
    };
    assert.equal(sealMatches(KEY, moved, sealed), false);
  });

  test("another key's seal, and a key that is the secret itself, are rejected", () => {
    const other = seal(sealKey("notes-key-from-another-repository"), TEXT);
    assert.equal(sealMatches(KEY, TEXT, other), false);
    assert.notDeepEqual(KEY, Buffer.from("sk-the-workflow-api-key-0123456789"));
  });

  test("a malformed seal file is no seal", () => {
    const sealed = seal(KEY, TEXT).trim();
    for (const bad of [
      "",
      sealed.toUpperCase(),
      `${sealed}00`,
      sealed.slice(0, -2),
      sealed.replace("hmac-sha256", "sha256"),
    ]) {
      assert.equal(sealMatches(KEY, TEXT, bad), false, bad);
    }
  });
});
