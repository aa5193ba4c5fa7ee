/**
 * The edit tool: `applyEdit` as a pure function (exactly once, replace_all, counts, line numbers,
 * CRLF, unicode), then edits through a bwrap sandbox: bytes the edit does not touch stay as they
 * were, and every refusal leaves the file unchanged.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { applyEdit } from "../../../src/domain/edit.ts";
import { editTool } from "../../../src/agent/tools/edit.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

describe("applyEdit", () => {
  test("replaces the one occurrence and gives its line", () => {
    assert.deepEqual(applyEdit("a\nb\nc\n", "b", "B"), {
      ok: true,
      text: "a\nB\nc\n",
      count: 1,
      lines: [2],
      crlf: false,
    });
  });

  test("several occurrences without replace_all: the count and their lines, nothing changed", () => {
    assert.deepEqual(applyEdit("x = 1\ny = 2\nx = 1\n\nx = 1", "x = 1", "x = 9"), {
      ok: false,
      problem: "ambiguous",
      count: 3,
      lines: [1, 3, 5],
    });
  });

  test("replace_all replaces every occurrence; lines are where the new text starts", () => {
    const result = applyEdit("foo\nfoo\nbar foo\n", "foo", "baz\nqux", true);
    assert.deepEqual(result, {
      ok: true,
      text: "baz\nqux\nbaz\nqux\nbar baz\nqux\n",
      count: 3,
      lines: [1, 3, 5],
      crlf: false,
    });
  });

  test("replace_all with a single occurrence is fine", () => {
    const result = applyEdit("one two", "two", "2", true);
    assert.equal(result.ok && result.text, "one 2");
  });

  test("occurrences do not overlap", () => {
    const result = applyEdit("aaaa", "aa", "b", true);
    assert.deepEqual(result.ok && [result.text, result.count], ["bb", 2]);
  });

  test("no match, an empty old_string and an unchanged edit are problems", () => {
    assert.deepEqual(applyEdit("abc", "x", "y"), { ok: false, problem: "not_found" });
    assert.deepEqual(applyEdit("abc", "", "y"), { ok: false, problem: "empty" });
    assert.deepEqual(applyEdit("abc", "b", "b"), { ok: false, problem: "unchanged" });
  });

  test("the match is exact: whitespace and case count", () => {
    assert.deepEqual(applyEdit("  indented\n", "indented\n  ", "x"), {
      ok: false,
      problem: "not_found",
    });
    assert.deepEqual(applyEdit("Hello", "hello", "x"), { ok: false, problem: "not_found" });
  });

  test("replacement text is literal: $& and $1 are not patterns", () => {
    const result = applyEdit("price", "price", "$& costs $1 $$");
    assert.equal(result.ok && result.text, "$& costs $1 $$");
  });

  test("an LF old_string matches in a CRLF file; the new text gets CRLF too", () => {
    const result = applyEdit("one\r\ntwo\r\nthree\r\n", "one\ntwo\n", "1\n2\n");
    assert.deepEqual(result, {
      ok: true,
      text: "1\r\n2\r\nthree\r\n",
      count: 1,
      lines: [1],
      crlf: true,
    });
  });

  test("in a file that is CRLF throughout, new lines inserted by a one-line match are CRLF", () => {
    const result = applyEdit("a\r\nb\r\n", "b", "b\nc");
    assert.equal(result.ok && result.text, "a\r\nb\r\nc\r\n");
  });

  test("an exact CRLF match is used as given", () => {
    const result = applyEdit("a\r\nb\r\n", "a\r\nb", "x\r\ny");
    assert.deepEqual(result.ok && [result.text, result.crlf], ["x\r\ny\r\n", false]);
  });

  test("a mixed file keeps bare LF in the replacement when the match was exact", () => {
    const result = applyEdit("a\r\nb\nc\n", "c", "c\nd");
    assert.deepEqual(result.ok && [result.text, result.crlf], ["a\r\nb\nc\nd\n", false]);
  });

  test("unicode: astral characters, combining marks, line numbers after them", () => {
    const text = "😀😀\ngröße\ne\u0301t\u00e9\n日本語\n";
    const result = applyEdit(text, "日本", "にほん");
    assert.deepEqual(result.ok && [result.text, result.lines], [
      "😀😀\ngröße\ne\u0301t\u00e9\nにほん語\n",
      [4],
    ]);
    // Precomposed and decomposed forms are different text: only the exact one matches.
    const decomposed = applyEdit(text, "e\u0301", "E");
    assert.equal(decomposed.ok && decomposed.count, 1);
    assert.deepEqual(applyEdit("\u00e9", "e\u0301", "E"), { ok: false, problem: "not_found" });
  });

  test("line numbers in a long file", () => {
    const text = Array.from({ length: 1000 }, (_, i) => (i % 250 === 99 ? "needle" : `l${i}`)).join(
      "\n",
    );
    const ambiguous = applyEdit(text, "needle", "pin");
    assert.deepEqual(ambiguous, {
      ok: false,
      problem: "ambiguous",
      count: 4,
      lines: [100, 350, 600, 850],
    });
    const all = applyEdit(text, "needle", "pin\npin", true);
    assert.deepEqual(all.ok && all.lines, [100, 351, 602, 853]);
  });
});

describe("the edit tool in the sandbox", needsBwrap(), () => {
  let h: ToolHarness;
  const file = (name: string): string => join(h.workspace, name);
  before(async () => {
    h = await toolHarness("edit");
  });
  after(() => h?.dispose());

  test("replaces one occurrence, says how many and where", async () => {
    writeFileSync(file("app.py"), "def f():\n    return 1\n\ndef g():\n    return 2\n");
    const outcome = await h.call(editTool, {
      path: "app.py",
      old_string: "    return 2",
      new_string: "    return 3",
    });
    assert.deepEqual(outcome, {
      content: "Replaced 1 occurrence in app.py; the new text starts at line 5.",
      isError: false,
      details: { written: "app.py" },
    });
    assert.equal(
      readFileSync(file("app.py"), "utf8"),
      "def f():\n    return 1\n\ndef g():\n    return 3\n",
    );
  });

  test("several matches: an error with the count and lines, file unchanged", async () => {
    const before = "x = 1\ny = 2\nx = 1\n";
    writeFileSync(file("dup.py"), before);
    const outcome = await h.call(editTool, {
      path: "dup.py",
      old_string: "x = 1",
      new_string: "x = 2",
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /matches 2 places in dup\.py \(lines 1 and 3\)/);
    assert.match(outcome.content, /more of the surrounding lines.*replace_all/);
    assert.equal(readFileSync(file("dup.py"), "utf8"), before);
  });

  test("replace_all replaces them all", async () => {
    writeFileSync(file("all.txt"), "cat\ndog\ncat\ncat\n");
    const outcome = await h.call(editTool, {
      path: "all.txt",
      old_string: "cat",
      new_string: "cow",
      replace_all: true,
    });
    assert.deepEqual(outcome, {
      content: "Replaced 3 occurrences in all.txt; the new text starts at lines 1, 3 and 4.",
      isError: false,
      details: { written: "all.txt" },
    });
    assert.equal(readFileSync(file("all.txt"), "utf8"), "cow\ndog\ncow\ncow\n");
  });

  test("no match: an error that says to read the file again; file unchanged", async () => {
    writeFileSync(file("miss.txt"), "alpha\n");
    const outcome = await h.call(editTool, {
      path: "miss.txt",
      old_string: "beta",
      new_string: "gamma",
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /old_string was not found in miss\.txt.*Read the file again/s);
    assert.equal(readFileSync(file("miss.txt"), "utf8"), "alpha\n");
  });

  test("old_string equal to new_string is an error", async () => {
    const outcome = await h.call(editTool, {
      path: "miss.txt",
      old_string: "alpha",
      new_string: "alpha",
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /are the same/);
  });

  test("bytes outside the edit are kept exactly: BOM, CRLF, no final newline, unicode, mode", async () => {
    const original = "\ufeffname,größe\r\n😀,1\r\nlast,2";
    writeFileSync(file("data.csv"), original);
    chmodSync(file("data.csv"), 0o755);
    const outcome = await h.call(editTool, {
      path: "data.csv",
      old_string: "😀,1",
      new_string: "🎉,10",
    });
    assert.equal(outcome.isError, false, outcome.content);
    assert.deepEqual(
      readFileSync(file("data.csv")),
      Buffer.from("\ufeffname,größe\r\n🎉,10\r\nlast,2", "utf8"),
    );
    assert.equal(statSync(file("data.csv")).mode & 0o777, 0o755);
  });

  test("an LF old_string edits a CRLF file and keeps its line endings", async () => {
    writeFileSync(file("win.txt"), "one\r\ntwo\r\nthree\r\n");
    const outcome = await h.call(editTool, {
      path: "win.txt",
      old_string: "one\ntwo\n",
      new_string: "1\n2\n",
    });
    assert.equal(outcome.isError, false, outcome.content);
    assert.match(outcome.content, /CRLF/);
    assert.equal(readFileSync(file("win.txt"), "utf8"), "1\r\n2\r\nthree\r\n");
  });

  test("a missing file, a folder, a binary file and invalid UTF-8 are errors", async () => {
    mkdirSync(file("dir"));
    writeFileSync(file("blob.bin"), Buffer.from([0x41, 0x00, 0x42]));
    writeFileSync(file("latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const cases: [string, RegExp][] = [
      ["gone.txt", /^no such file: gone\.txt; check the path with `ls` or `find`/],
      ["dir", /dir is a folder/],
      ["blob.bin", /binary file/],
      ["latin1.txt", /not valid UTF-8 text/],
    ];
    for (const [path, expected] of cases) {
      const outcome = await h.call(editTool, { path, old_string: "A", new_string: "a" });
      assert.equal(outcome.isError, true, path);
      assert.match(outcome.content, expected, path);
    }
    assert.deepEqual(readFileSync(file("latin1.txt")), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });

  test("a file larger than edit handles is refused with a pointer to bash", async () => {
    const max = Math.floor(h.sandbox.policy.limits.outputBytes / 2);
    writeFileSync(file("huge.txt"), "a".repeat(max + 1));
    const outcome = await h.call(editTool, {
      path: "huge.txt",
      old_string: "aaa",
      new_string: "b",
    });
    assert.equal(outcome.isError, true);
    assert.match(
      outcome.content,
      new RegExp(`huge\\.txt is ${max + 1} bytes, more than edit handles`),
    );
  });

  test("a file just under the limit edits exactly", async () => {
    const max = Math.floor(h.sandbox.policy.limits.outputBytes / 2);
    const body = `${"é".repeat((max - 20) / 2)}\nTARGET\n`;
    writeFileSync(file("big.txt"), body);
    const outcome = await h.call(editTool, {
      path: "big.txt",
      old_string: "TARGET",
      new_string: "done",
    });
    assert.equal(outcome.isError, false, outcome.content);
    assert.match(outcome.content, /line 2\./);
    assert.deepEqual(readFileSync(file("big.txt")), Buffer.from(body.replace("TARGET", "done")));
  });

  test("files under .git are read-only: the edit fails and says why", async () => {
    const config = readFileSync(file(".git/description"), "utf8");
    const outcome = await h.call(editTool, {
      path: ".git/description",
      old_string: config.slice(0, 10),
      new_string: "changed",
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /Read-only file system/);
    assert.equal(readFileSync(file(".git/description"), "utf8"), config);
  });
});

describe("the edit tool and protected paths", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("edit-protected", undefined, {
      files: {
        ".github/actions/setup/action.yml": "runs:\n  using: composite\n",
        "scripts/ci/deploy.sh": "echo deploy\n",
        ".github/pitcrew/notes.md": "draft\n",
      },
      settings: { protectedPaths: [".github", "scripts/ci"] },
    });
  });
  after(() => h?.dispose());

  test("a composite action and a file a protected-paths glob covers are refused, untouched", async () => {
    for (const [path, old] of [
      [".github/actions/setup/action.yml", "composite"],
      ["scripts/ci/deploy.sh", "deploy"],
    ] as const) {
      const before = readFileSync(join(h.workspace, path), "utf8");
      const outcome = await h.call(editTool, { path, old_string: old, new_string: "evil" });
      assert.equal(outcome.isError, true, path);
      assert.match(outcome.content, /^path-protected: /, path);
      assert.match(outcome.content, /Take another way/, path);
      assert.equal(readFileSync(join(h.workspace, path), "utf8"), before, path);
    }
  });

  test("pitcrew's own folder is edited as usual", async () => {
    const outcome = await h.call(editTool, {
      path: ".github/pitcrew/notes.md",
      old_string: "draft",
      new_string: "final",
    });
    assert.equal(outcome.isError, false, outcome.content);
    assert.equal(readFileSync(join(h.workspace, ".github/pitcrew/notes.md"), "utf8"), "final\n");
  });
});
