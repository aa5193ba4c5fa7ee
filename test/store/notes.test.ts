/**
 * The notes' file format on real files: a round trip, every way a folder can be unusable (each a
 * named `notes-invalid` saying which file and what), the caps, and the thread's next state.
 */
import assert from "node:assert/strict";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import {
  NOTE_CAP,
  NOTE_FILE,
  STATE_CAP,
  STATE_FILE,
  TRANSCRIPT_CAP,
  TRANSCRIPT_FILE,
  nextState,
  readNotesFolder,
  writeNotesFolder,
} from "../../src/store/notes.ts";
import type { RunFacts } from "../../src/store/notes.ts";
import type { Notes, ThreadState } from "../../src/domain/notes.ts";

const root = mkdtempSync(join(tmpdir(), "pitcrew-notes-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = (): string => join(root, `notes-${++folders}`);

const SHA = "a".repeat(40);
const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  cachedTokens: 0,
  completionTokens,
  reasoningTokens: 0,
});

const STATE: ThreadState = {
  version: 1,
  threadKey: "issue-12",
  repository: "octo/demo",
  branch: "pitcrew/issue-12",
  baseBranch: "main",
  baseSha: SHA,
  headSha: "b".repeat(40),
  prNumber: 7,
  attempts: 2,
  cumulative: { runs: 2, turns: 31, usage: usage(90_000, 4_000), cost: 0.42 },
  todos: [
    { content: "read the failing test", status: "completed" },
    { content: "fix parse()", status: "in_progress" },
  ],
  stopReason: "max_turns",
  savedAt: "2025-01-02T03:04:05.678Z",
  ledgers: { ciRepair: { attempts: [{ sha: SHA, failed: ["test/a.test.ts"] }] } },
};

const NOTES: Notes = {
  note: "## Goal\nFix parse() — ünïcode kept\n",
  state: STATE,
  transcript: '{"type":"message","run":1,"message":{"role":"user","content":"fix it"}}\n',
};

/** A folder written by the real writer, then changed by `change` (given the folder's path). */
function written(change: (dir: string) => void = () => undefined): string {
  const dir = folder();
  writeNotesFolder(dir, NOTES);
  change(dir);
  return dir;
}

function refused(dir: string, file: string, what: RegExp): void {
  assert.throws(
    () => readNotesFolder(dir),
    (error: unknown) => {
      assert.ok(error instanceof PitcrewError, `not a PitcrewError: ${String(error)}`);
      assert.equal(error.code, "notes-invalid");
      assert.ok(error.message.startsWith(`${file}: `), error.message);
      assert.match(error.message, what);
      return true;
    },
  );
}

/** state.json with `edit` applied to the valid state's JSON. */
function withState(edit: (state: Record<string, unknown>) => void): string {
  return written((dir) => {
    const state = JSON.parse(JSON.stringify(STATE)) as Record<string, unknown>;
    edit(state);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));
  });
}

describe("writeNotesFolder and readNotesFolder", () => {
  test("round trip: the three files, read back as they were written", () => {
    const dir = written();
    assert.deepEqual(readNotesFolder(dir), NOTES);
    assert.equal(readFileSync(join(dir, NOTE_FILE), "utf8"), NOTES.note);
    assert.equal(readFileSync(join(dir, TRANSCRIPT_FILE), "utf8"), NOTES.transcript);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8")), STATE);
  });

  test("an empty note (no compaction yet) and nulls before a push round-trip", () => {
    const dir = folder();
    const first: Notes = {
      note: "",
      state: { ...STATE, headSha: null, prNumber: null, stopReason: null, todos: [], ledgers: {} },
      transcript: "",
    };
    writeNotesFolder(dir, first);
    assert.deepEqual(readNotesFolder(dir), first);
  });

  for (const file of [STATE_FILE, NOTE_FILE, TRANSCRIPT_FILE]) {
    test(`${file} missing`, () => {
      refused(
        written((dir) => rmSync(join(dir, file))),
        file,
        /missing/,
      );
    });

    test(`${file} a link (never followed, even to a good file)`, () => {
      const dir = written((dir) => {
        const target = join(dir, "..", `target-${folders}`);
        writeFileSync(target, readFileSync(join(dir, file)));
        rmSync(join(dir, file));
        symlinkSync(target, join(dir, file));
      });
      refused(dir, file, /a link/);
    });

    test(`${file} a folder`, () => {
      const dir = written((dir) => {
        rmSync(join(dir, file));
        mkdirSync(join(dir, file));
      });
      refused(dir, file, /not a plain file/);
    });
  }

  test("the whole folder missing: state.json is named", () => {
    refused(join(root, "never-written"), STATE_FILE, /missing/);
  });

  const caps: [string, number][] = [
    [STATE_FILE, STATE_CAP],
    [NOTE_FILE, NOTE_CAP],
    [TRANSCRIPT_FILE, TRANSCRIPT_CAP],
  ];
  for (const [file, cap] of caps) {
    test(`${file} one byte over its cap of ${cap} is refused before it is read`, () => {
      // Sparse: the size is there, the bytes are not, so the check must come before the read.
      refused(
        written((dir) => truncateSync(join(dir, file), cap + 1)),
        file,
        new RegExp(`${cap + 1} bytes, over the cap of ${cap}`),
      );
    });
  }

  test("a note exactly at its cap is read", () => {
    const dir = written((dir) => writeFileSync(join(dir, NOTE_FILE), "x".repeat(NOTE_CAP)));
    assert.equal(readNotesFolder(dir).note.length, NOTE_CAP);
  });

  test("state.json not JSON", () => {
    refused(
      written((dir) => writeFileSync(join(dir, STATE_FILE), '{"version": 1,')),
      STATE_FILE,
      /not JSON/,
    );
  });

  test("state.json JSON but not an object", () => {
    refused(
      written((dir) => writeFileSync(join(dir, STATE_FILE), "[1, 2]")),
      STATE_FILE,
      /\(top level\)/,
    );
  });

  const schemaCases: [string, (state: Record<string, unknown>) => void, RegExp][] = [
    ["another version", (state) => (state.version = 2), /^state\.json: version: /],
    ["an unknown top-level key", (state) => (state.extra = true), /extra: not a known field/],
    [
      "an unknown key inside cumulative",
      (state) => ((state.cumulative as Record<string, unknown>).bonus = 1),
      /cumulative\.bonus: not a known field/,
    ],
    [
      "an unknown key inside usage",
      (state) => ((state.cumulative as { usage: Record<string, unknown> }).usage.audioTokens = 3),
      /cumulative\.usage\.audioTokens: not a known field/,
    ],
    [
      "an unknown key inside a todo",
      (state) => ((state.todos as Record<string, unknown>[])[0]!.priority = "high"),
      /todos\.0\.priority: not a known field/,
    ],
    ["a missing field", (state) => delete state.branch, /branch: /],
    ["a negative attempt count", (state) => (state.attempts = -1), /attempts: /],
    [
      "a fractional turn count",
      (state) => ((state.cumulative as { turns: number }).turns = 1.5),
      /cumulative\.turns: /,
    ],
    ["a stop reason pitcrew never gives", (state) => (state.stopReason = "bored"), /stopReason: /],
    [
      "a todo status pitcrew never gives",
      (state) => ((state.todos as { status: string }[])[0]!.status = "blocked"),
      /todos\.0\.status: /,
    ],
    [
      "a base that is not a commit id",
      (state) => (state.baseSha = "--upload-pack=evil"),
      /baseSha: expected a commit id/,
    ],
    [
      "a repository that is not owner/name",
      (state) => (state.repository = "demo"),
      /repository: expected owner\/name/,
    ],
    ["a save time that is not ISO", (state) => (state.savedAt = "yesterday"), /savedAt: /],
    ["a PR number of 0", (state) => (state.prNumber = 0), /prNumber: /],
    ["ledgers that are not an object", (state) => (state.ledgers = [1]), /ledgers: /],
  ];
  for (const [name, edit, what] of schemaCases) {
    test(`state.json with ${name}`, () => refused(withState(edit), STATE_FILE, what));
  }

  test("inside ledgers any keys are kept: they belong to later features", () => {
    const dir = withState((state) => {
      state.ledgers = { flakes: { "test/x.test.ts": { seen: 3, nested: { deep: [null] } } } };
    });
    assert.deepEqual(readNotesFolder(dir).state.ledgers, {
      flakes: { "test/x.test.ts": { seen: 3, nested: { deep: [null] } } },
    });
  });

  test("writing: an over-long transcript is cut to its cap, newest lines kept", () => {
    const line = `${JSON.stringify({ type: "message", run: 1, message: { role: "user", content: "x".repeat(1000) } })}\n`;
    const lines = Math.ceil(TRANSCRIPT_CAP / line.length) + 10;
    const dir = folder();
    writeNotesFolder(dir, { ...NOTES, transcript: line.repeat(lines - 1) + '{"last":true}\n' });
    const transcript = readNotesFolder(dir).transcript;
    assert.ok(Buffer.byteLength(transcript) <= TRANSCRIPT_CAP);
    const [first, ...rest] = transcript.trimEnd().split("\n");
    const dropped = (JSON.parse(first ?? "") as { lines: number }).lines;
    assert.equal(dropped + rest.length, lines);
    assert.equal(rest.at(-1), '{"last":true}');
  });

  test("writing: a note or state over its cap is refused by name, nothing written", () => {
    const dir = folder();
    assert.throws(
      () => writeNotesFolder(dir, { ...NOTES, note: "n".repeat(NOTE_CAP + 1) }),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "notes-too-large" &&
        error.message.startsWith(`${NOTE_FILE}: `),
    );
    assert.throws(
      () =>
        writeNotesFolder(dir, {
          ...NOTES,
          state: { ...STATE, ledgers: { big: "l".repeat(STATE_CAP) } },
        }),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "notes-too-large" &&
        error.message.startsWith(`${STATE_FILE}: `),
    );
    refused(dir, STATE_FILE, /missing/);
  });
});

describe("nextState", () => {
  const facts = (overrides: Partial<RunFacts> = {}): RunFacts => ({
    threadKey: "issue-12",
    repository: "octo/demo",
    branch: "pitcrew/issue-12",
    baseBranch: "main",
    baseSha: SHA,
    headSha: null,
    prNumber: null,
    turns: 5,
    usage: usage(10_000, 500),
    cost: 0.1,
    todos: [],
    stopReason: "done",
    ...overrides,
  });
  const at = new Date("2025-03-04T05:06:07.000Z");

  test("a thread's first run: one run, its own totals, the save time", () => {
    const state = nextState(undefined, facts(), at);
    assert.deepEqual(state, {
      version: 1,
      threadKey: "issue-12",
      repository: "octo/demo",
      branch: "pitcrew/issue-12",
      baseBranch: "main",
      baseSha: SHA,
      headSha: null,
      prNumber: null,
      attempts: 1,
      cumulative: { runs: 1, turns: 5, usage: usage(10_000, 500), cost: 0.1 },
      todos: [],
      stopReason: "done",
      savedAt: "2025-03-04T05:06:07.000Z",
      ledgers: {},
    });
  });

  test("a checkpoint and the final save of the same run count the run once", () => {
    const checkpoint = nextState(
      STATE,
      facts({ turns: 3, usage: usage(6_000, 200), cost: 0.05, stopReason: null }),
      at,
    );
    assert.equal(checkpoint.stopReason, null);
    assert.equal(checkpoint.cumulative.runs, 3);
    const final = nextState(STATE, facts({ headSha: "c".repeat(40), prNumber: 7 }), at);
    assert.equal(final.attempts, STATE.attempts + 1);
    assert.deepEqual(final.cumulative, {
      runs: 3,
      turns: 36,
      usage: usage(100_000, 4_500),
      cost: STATE.cumulative.cost + 0.1,
    });
    assert.equal(final.headSha, "c".repeat(40));
    assert.equal(final.stopReason, "done");
  });

  test("ledgers are kept; a run updates only those it names", () => {
    const state = nextState(STATE, facts({ ledgers: { flakes: { seen: 1 } } }), at);
    assert.deepEqual(state.ledgers, { ...STATE.ledgers, flakes: { seen: 1 } });
    assert.deepEqual(nextState(STATE, facts(), at).ledgers, STATE.ledgers);
  });

  test("what it returns passes the file's own check", () => {
    const dir = folder();
    const state = nextState(STATE, facts(), at);
    writeNotesFolder(dir, { ...NOTES, state });
    assert.deepEqual(readNotesFolder(dir).state, state);
  });

  test("another thread's or repository's state is refused by name", () => {
    for (const other of [{ threadKey: "issue-13" }, { repository: "octo/other" }]) {
      assert.throws(
        () => nextState(STATE, facts(other), at),
        (error: unknown) => error instanceof PitcrewError && error.code === "notes-mismatch",
      );
    }
  });
});
