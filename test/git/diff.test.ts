/** The unified-diff reader (src/git/diff.ts): paths as git prints them, lines numbered by side. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseDiff, unquotePath } from "../../src/git/diff.ts";

describe("parseDiff", () => {
  test("a changed file: removed lines by their old line, added and context by their new one", () => {
    const [file, ...rest] = parseDiff(
      [
        "diff --git a/src/a.ts b/src/a.ts",
        "index 1111111..2222222 100644",
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -3,3 +3,2 @@ export function a() {",
        " keep",
        "-gone one",
        "-gone two",
        "+new",
        "@@ -20 +19,0 @@",
        "-last",
        "",
      ].join("\n"),
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(file, {
      oldPath: "src/a.ts",
      newPath: "src/a.ts",
      binary: false,
      hunks: [
        {
          lines: [
            { kind: "context", text: "keep", line: 3 },
            { kind: "removed", text: "gone one", line: 4 },
            { kind: "removed", text: "gone two", line: 5 },
            { kind: "added", text: "new", line: 4 },
          ],
        },
        { lines: [{ kind: "removed", text: "last", line: 20 }] },
      ],
    });
  });

  test("new, deleted, renamed and binary files", () => {
    const files = parseDiff(
      [
        "diff --git a/new.txt b/new.txt",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/new.txt",
        "@@ -0,0 +1 @@",
        "+hello",
        "diff --git a/old.txt b/old.txt",
        "deleted file mode 100644",
        "--- a/old.txt",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-bye",
        "diff --git a/x/one.py b/y/two.py",
        "similarity index 100%",
        "rename from x/one.py",
        "rename to y/two.py",
        "diff --git a/logo.png b/logo.png",
        "Binary files a/logo.png and b/logo.png differ",
      ].join("\n"),
    );
    assert.deepEqual(
      files.map((file) => [file.oldPath, file.newPath, file.binary, file.hunks.length]),
      [
        [undefined, "new.txt", false, 1],
        ["old.txt", undefined, false, 1],
        ["x/one.py", "y/two.py", false, 0],
        ["logo.png", "logo.png", true, 0],
      ],
    );
  });

  test("quoted paths and the tab git ends a path holding a space with", () => {
    const [quoted, spaced] = parseDiff(
      [
        'diff --git "a/t\\303\\251st.py" "b/t\\303\\251st.py"',
        '--- "a/t\\303\\251st.py"',
        '+++ "b/t\\303\\251st.py"',
        "@@ -1 +1 @@",
        "-a",
        "+b",
        "diff --git a/my file.js b/my file.js",
        "--- a/my file.js\t",
        "+++ b/my file.js\t",
        "@@ -1 +1 @@",
        "-a",
        "+b",
      ].join("\n"),
    );
    assert.equal(quoted?.newPath, "tést.py");
    assert.equal(spaced?.oldPath, "my file.js");
    assert.equal(spaced?.newPath, "my file.js");
  });

  test("a hunk cut short ends where its lines stop", () => {
    const [file] = parseDiff("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-x\n");
    assert.deepEqual(file?.hunks[0]?.lines, [{ kind: "removed", text: "x", line: 1 }]);
  });
});

describe("unquotePath", () => {
  test("octal bytes as UTF-8, C escapes, and plain paths as they are", () => {
    assert.equal(unquotePath('"a/\\303\\244 \\"q\\"\\t\\\\.txt"'), 'a/ä "q"\t\\.txt');
    assert.equal(unquotePath("plain/path.txt"), "plain/path.txt");
  });
});
