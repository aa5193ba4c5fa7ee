/** cutMiddle and the small formatting helpers the tools share. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cutMiddle, formatDuration, plural } from "../../../src/agent/tools/format.ts";

describe("cutMiddle", () => {
  test("a text that fits is returned as it is", () => {
    assert.equal(cutMiddle("short\n", 100), "short\n");
    assert.equal(cutMiddle("x".repeat(100), 100), "x".repeat(100));
  });

  test("keeps head and tail at line breaks, and says how much was dropped", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, "0")}`).join(
      "\n",
    );
    const cut = cutMiddle(text, 1000);
    assert.ok(cut.length < 1100, `${cut.length}`);
    assert.match(cut, /^line 0000\n/);
    assert.match(cut, /line 0999$/);
    const match =
      /\n\[… (\d+) characters \((\d+) lines\) cut from the middle of this result …\]\n/.exec(cut);
    assert.ok(match, cut);
    const [head, tail] = cut.split(match[0]);
    assert.match(head ?? "", /line \d{4}$/, "the head ends with a whole line");
    assert.match(tail ?? "", /^line \d{4}\n/, "the tail starts with a whole line");
    assert.equal((head ?? "").length + 1 + Number(match[1]) + (tail ?? "").length, text.length);
  });

  test("a text without line breaks is cut by characters, never inside a surrogate pair", () => {
    const cut = cutMiddle("😀".repeat(1000), 101);
    assert.doesNotMatch(
      cut,
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
    );
    assert.match(cut, /cut from the middle/);
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
