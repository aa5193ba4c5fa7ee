/** cutAround, the spill notice and the small formatting helpers the tools share. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  INLINE_MAX_CHARS,
  countLines,
  cutAround,
  formatDuration,
  plural,
  spillNotice,
} from "../../../src/agent/tools/format.ts";

const NOTICE = "[the notice]";

describe("cutAround", () => {
  test("a text that fits is returned as it is, without the notice", () => {
    assert.equal(cutAround("short\n", [NOTICE]), "short\n");
    const full = "x".repeat(INLINE_MAX_CHARS);
    assert.equal(cutAround(full, [NOTICE]), full);
  });

  test("keeps about 4000 characters of head and of tail at line breaks, the notice between", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${String(i).padStart(4, "0")}`).join(
      "\n",
    );
    const cut = cutAround(text, [NOTICE, "[a second line]"]);
    const [head, tail] = cut.split("\n[the notice]\n[a second line]\n");
    assert.ok(head !== undefined && tail !== undefined, cut);
    assert.ok(head.length <= 4000 && head.length > 3000, `head ${head.length}`);
    assert.ok(tail.length <= 4000 && tail.length > 3000, `tail ${tail.length}`);
    assert.match(head, /^line 0000\n/);
    assert.match(head, /\nline \d{4}$/, "the head ends with a whole line");
    assert.match(tail, /^line \d{4}\n/, "the tail starts with a whole line");
    assert.match(tail, /line 4999$/);
    assert.ok(text.startsWith(head) && text.endsWith(tail));
  });

  test("a text without line breaks is cut by characters, never inside a surrogate pair", () => {
    const cut = cutAround("😀".repeat(INLINE_MAX_CHARS), [NOTICE]);
    assert.doesNotMatch(
      cut,
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
    );
    assert.ok(cut.length < 8100, `${cut.length}`);
    assert.match(cut, /\n\[the notice\]\n/);
  });
});

describe("spillNotice and countLines", () => {
  test("the notice has the one shape later layers parse", () => {
    assert.equal(
      spillNotice("a\nb\n", "/tmp/pitcrew-spill/call_1.txt"),
      "[full output, 4 chars, 2 lines: /tmp/pitcrew-spill/call_1.txt — page it with head, tail, sed -n 'A,Bp' or grep]",
    );
  });

  test("lines are counted as wc -l does, plus a last line without a break", () => {
    assert.equal(countLines(""), 0);
    assert.equal(countLines("a"), 1);
    assert.equal(countLines("a\n"), 1);
    assert.equal(countLines("a\nb"), 2);
    assert.equal(countLines("\n\n"), 2);
  });
});

describe("formatDuration and plural", () => {
  test("durations", () => {
    assert.equal(formatDuration(400), "400 ms");
    assert.equal(formatDuration(60_000), "60 s");
    assert.equal(formatDuration(1500), "1.5 s");
  });
  test("plurals", () => {
    assert.equal(plural(1, "byte"), "1 byte");
    assert.equal(plural(0, "byte"), "0 bytes");
  });
});
