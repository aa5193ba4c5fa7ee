/**
 * The cap + spill layer's decisions: what a long result keeps inline (cutAround), the notice
 * later layers parse, and the result as sent once the whole text was spilled or could not be.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  INLINE_MAX_CHARS,
  capped,
  countLines,
  cutAround,
  spillNotice,
  toSpill,
} from "../../src/context/cap.ts";

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

describe("toSpill and capped", () => {
  const long = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join("\n");

  test("a text that fits is not spilled; a longer one is spilled whole, with a final line break", () => {
    assert.equal(toSpill("x".repeat(INLINE_MAX_CHARS)), null);
    assert.equal(toSpill(long), `${long}\n`);
  });

  test("spilled: head and tail around the notice naming the path, sized on the whole text", () => {
    const sent = capped(long, { path: "/tmp/pitcrew-spill/c.txt" }, []);
    assert.ok(sent.startsWith("row 0\n") && sent.endsWith("row 2999"));
    assert.ok(sent.includes(`\n${spillNotice(`${long}\n`, "/tmp/pitcrew-spill/c.txt")}\n`));
    assert.ok(sent.length < 8_300, `${sent.length}`);
  });

  test("not saved: the notice says so and why, and names no path a later layer would parse", () => {
    const sent = capped(long, { notSaved: "sandbox-spill-failed: disk full." }, []);
    assert.match(
      sent,
      /\n\[output cut to its head and tail \(\d+ chars, 3000 lines in all\) and not saved; sandbox-spill-failed: disk full\.\]\n/,
    );
    assert.doesNotMatch(sent, /full output/);
  });

  test("a stream the sandbox's ceiling already cut gets its own line after the notice", () => {
    const sent = capped(long, { path: "/p" }, [{ label: "stdout", bytes: 12_000_000 }]);
    assert.match(
      sent,
      /or grep\]\n\[the sandbox's output ceiling had already dropped the middle of stdout \(12000000 bytes written\); that part is lost\./,
    );
  });
});
