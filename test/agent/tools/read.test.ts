/**
 * The read tool: the window's text (pure), then real files read through a bwrap sandbox:
 * numbering, offset and limit, long lines, the total, and every refusal.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  READ_LINE_CHARS,
  READ_MAX_CHARS,
  formatWindow,
  readTool,
} from "../../../src/agent/tools/read.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

describe("formatWindow", () => {
  test("numbers lines like cat -n and states the total and the end", () => {
    assert.equal(
      formatWindow({ lines: ["alpha", "", "gamma"], total: 3 }, 1, 2000),
      "     1\talpha\n     2\t\n     3\tgamma\n[lines 1-3 of 3; end of file]",
    );
  });

  test("a window in the middle says where to read on", () => {
    assert.equal(
      formatWindow({ lines: ["x", "y"], total: 100 }, 10, 2),
      "    10\tx\n    11\ty\n[lines 10-11 of 100; read more with offset=12]",
    );
  });

  test("an empty file says so", () => {
    assert.equal(formatWindow({ lines: [], total: 0 }, 1, 2000), "(the file is empty: 0 lines)");
  });

  test("a line longer than the limit is cut and marked", () => {
    const text = formatWindow({ lines: ["é".repeat(5000)], total: 1 }, 1, 10);
    const [line] = text.split("\n");
    assert.equal(
      line,
      `     1\t${"é".repeat(READ_LINE_CHARS)} … [line cut at ${READ_LINE_CHARS} characters]`,
    );
  });

  test("a cut never splits a character outside the BMP", () => {
    const text = formatWindow({ lines: ["a" + "😀".repeat(2000)], total: 1 }, 1, 10);
    assert.doesNotMatch(text, /[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  test("a window larger than the character budget stops at a line and says how to go on", () => {
    const lines = Array.from({ length: 2000 }, () => "x".repeat(1000));
    const text = formatWindow({ lines, total: 5000 }, 1, 2000);
    assert.ok(text.length <= READ_MAX_CHARS + 200, `${text.length} characters`);
    const footer = text.split("\n").at(-1) ?? "";
    const match =
      /^\[lines 1-(\d+) of 5000; the rest did not fit in one result .*read more with offset=(\d+)\]$/.exec(
        footer,
      );
    assert.ok(match, footer);
    assert.equal(Number(match[2]), Number(match[1]) + 1);
  });
});

describe("the read tool in the sandbox", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("read");
    const ws = h.workspace;
    writeFileSync(
      join(ws, "ten.txt"),
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
    );
    writeFileSync(join(ws, "no-final-newline.txt"), "one\ntwo");
    writeFileSync(join(ws, "empty.txt"), "");
    writeFileSync(join(ws, "long.txt"), `short\n${"z".repeat(50_000)}\nafter\n`);
    writeFileSync(join(ws, "binary.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    writeFileSync(
      join(ws, "late-nul.txt"),
      Buffer.concat([Buffer.from("a\n".repeat(10_000)), Buffer.from([0])]),
    );
    writeFileSync(
      join(ws, "big.txt"),
      Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join("\n") + "\n",
    );
    writeFileSync(join(ws, "unicode.txt"), "größe 😀\r\nzweite\r\n");
    writeFileSync(join(ws, "it's here.txt"), "quoted\n");
    writeFileSync(join(ws, "wide.txt"), `${"x".repeat(10_000)}\n`.repeat(2000));
    writeFileSync(join(ws, "wide-utf8.txt"), `${"é".repeat(5000)}\n`);
    mkdirSync(join(ws, "folder"));
    symlinkSync("missing-target", join(ws, "dangling"));
    execFileSync("mkfifo", [join(ws, "pipe")]);
    writeFileSync(join(ws, "secret.txt"), "no\n", { mode: 0o000 });
  });
  after(() => h?.dispose());

  test("reads a whole file, numbered, with the total", async () => {
    const outcome = await h.call(readTool, { path: "ten.txt" });
    assert.equal(outcome.isError, false);
    const lines = outcome.content.split("\n");
    assert.equal(lines[0], "     1\tline 1");
    assert.equal(lines[9], "    10\tline 10");
    assert.equal(lines[10], "[lines 1-10 of 10; end of file]");
  });

  test("offset and limit choose the window; the footer says how to read on", async () => {
    const outcome = await h.call(readTool, { path: "ten.txt", offset: 4, limit: 3 });
    assert.equal(
      outcome.content,
      "     4\tline 4\n     5\tline 5\n     6\tline 6\n[lines 4-6 of 10; read more with offset=7]",
    );
    // The lines shown, for the progress line (present/progress.ts).
    assert.deepEqual(outcome.details, { lines: { from: 4, to: 6, total: 10 } });
  });

  test("an absolute path inside the workspace works too", async () => {
    const outcome = await h.call(readTool, { path: join(h.workspace, "ten.txt"), offset: 10 });
    assert.equal(outcome.content, "    10\tline 10\n[lines 10-10 of 10; end of file]");
  });

  test("a last line without a newline counts", async () => {
    const outcome = await h.call(readTool, { path: "no-final-newline.txt" });
    assert.equal(outcome.content, "     1\tone\n     2\ttwo\n[lines 1-2 of 2; end of file]");
  });

  test("the default limit is 2000 lines", async () => {
    const outcome = await h.call(readTool, { path: "big.txt" });
    const lines = outcome.content.split("\n");
    assert.equal(lines.length, 2001);
    assert.equal(lines[1999], "  2000\trow 2000");
    assert.equal(lines[2000], "[lines 1-2000 of 5000; read more with offset=2001]");
  });

  test("long lines are cut at 2000 characters", async () => {
    const outcome = await h.call(readTool, { path: "long.txt" });
    const lines = outcome.content.split("\n");
    assert.equal(lines[1], `     2\t${"z".repeat(2000)} … [line cut at 2000 characters]`);
    assert.equal(lines[2], "     3\tafter");
  });

  test("a multi-byte line longer than the sandbox keeps is cut cleanly", async () => {
    const outcome = await h.call(readTool, { path: "wide-utf8.txt" });
    const [line] = outcome.content.split("\n");
    assert.equal(line, `     1\t${"é".repeat(2000)} … [line cut at 2000 characters]`);
  });

  test("a window of very long lines stops within the budget and says where to go on", async () => {
    const outcome = await h.call(readTool, { path: "wide.txt" });
    assert.equal(outcome.isError, false);
    assert.ok(outcome.content.length <= READ_MAX_CHARS + 200, `${outcome.content.length}`);
    const footer = outcome.content.split("\n").at(-1) ?? "";
    assert.match(
      footer,
      /^\[lines 1-\d+ of 2000; the rest did not fit in one result .*read more with offset=\d+\]$/,
    );
  });

  test("UTF-8 text and CRLF line endings come through", async () => {
    const outcome = await h.call(readTool, { path: "unicode.txt" });
    assert.equal(
      outcome.content,
      "     1\tgröße 😀\r\n     2\tzweite\r\n[lines 1-2 of 2; end of file]",
    );
  });

  test("a path with a quote in it is passed as an argument, not spliced", async () => {
    const outcome = await h.call(readTool, { path: "it's here.txt" });
    assert.equal(outcome.content, "     1\tquoted\n[lines 1-1 of 1; end of file]");
  });

  test("an empty file", async () => {
    const outcome = await h.call(readTool, { path: "empty.txt" });
    assert.deepEqual(outcome, {
      content: "(the file is empty: 0 lines)",
      isError: false,
      details: { lines: { from: 0, to: 0, total: 0 } },
    });
  });

  test("an offset past the end is an error that gives the line count", async () => {
    const outcome = await h.call(readTool, { path: "ten.txt", offset: 11 });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /offset 11 is past the end of ten\.txt: it has 10 lines/);
  });

  test("a missing file: no such file, and how to look", async () => {
    const outcome = await h.call(readTool, { path: "nope/missing.txt" });
    assert.equal(outcome.isError, true);
    assert.match(
      outcome.content,
      /^no such file: nope\/missing\.txt; check the path with `ls` or `find`/,
    );
  });

  test("a folder: a clear error that says to list it with ls", async () => {
    const outcome = await h.call(readTool, { path: "folder" });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /folder is a folder, not a file .*ls -la folder/);
  });

  test("binary files are refused, a NUL late in the file too", async () => {
    for (const path of ["binary.bin", "late-nul.txt"]) {
      const outcome = await h.call(readTool, { path });
      assert.equal(outcome.isError, true, path);
      assert.match(outcome.content, /is a binary file \(it contains NUL bytes\)/, path);
    }
  });

  test("a dangling symlink, a FIFO and an unreadable file each get their own error", async () => {
    const dangling = await h.call(readTool, { path: "dangling" });
    assert.match(dangling.content, /symbolic link to something that does not exist/);
    const fifo = await h.call(readTool, { path: "pipe" });
    assert.match(fifo.content, /not a regular file/);
    for (const outcome of [dangling, fifo]) assert.equal(outcome.isError, true);
    const secret = await h.call(readTool, { path: "secret.txt" });
    assert.equal(secret.isError, true);
    assert.match(secret.content, /cannot be read: permission denied/);
  });

  test("an empty path is an error", async () => {
    const outcome = await h.call(readTool, { path: "" });
    assert.equal(outcome.isError, true);
  });
});
