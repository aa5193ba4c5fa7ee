/**
 * OutputCapture: everything under the ceiling, head and tail over it, the byte count always.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OutputCapture } from "../../src/sandbox/output.ts";

/** Deterministic, position-revealing bytes: byte i is "a".."z" by i mod 26, a newline every 80. */
function bytes(length: number, start = 0): Buffer {
  const out = Buffer.alloc(length);
  for (let index = 0; index < length; index++) {
    const position = start + index;
    out[index] = position % 80 === 79 ? 0x0a : 0x61 + (position % 26);
  }
  return out;
}

function capture(ceiling: number, chunks: readonly Buffer[]): ReturnType<OutputCapture["result"]> {
  const output = new OutputCapture(ceiling);
  for (const chunk of chunks) output.push(chunk);
  return output.result();
}

/** Splits `data` into chunks of the given sizes, cycling. */
function chunked(data: Buffer, sizes: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0, turn = 0; offset < data.length; turn++) {
    const size = sizes[turn % sizes.length] ?? 1;
    out.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}

function splitMarker(text: string): { head: string; dropped: number; tail: string } {
  const match = /\n\[… (\d+) bytes of output dropped by the sandbox's output ceiling …\]\n/.exec(
    text,
  );
  assert.ok(match, "a truncated result names what it dropped");
  return {
    head: text.slice(0, match.index),
    dropped: Number(match[1]),
    tail: text.slice(match.index + match[0].length),
  };
}

describe("OutputCapture under the ceiling", () => {
  test("nothing written: empty, zero bytes, not truncated", () => {
    assert.deepEqual(capture(100, []), { text: "", bytes: 0, truncated: false });
    assert.deepEqual(capture(100, [Buffer.alloc(0)]), { text: "", bytes: 0, truncated: false });
  });

  test("output below and exactly at the ceiling is kept whole, in one chunk or many", () => {
    for (const length of [1, 49, 50, 51, 99, 100]) {
      const data = bytes(length);
      for (const sizes of [[length], [1], [3, 7], [50, 1]]) {
        const result = capture(100, chunked(data, sizes));
        assert.deepEqual(
          result,
          { text: data.toString(), bytes: length, truncated: false },
          `${length} ${sizes.join(",")}`,
        );
      }
    }
  });

  test("an odd ceiling keeps the extra byte in the head", () => {
    const data = bytes(101);
    assert.equal(capture(101, [data]).text, data.toString());
    const over = splitMarker(capture(101, [bytes(102)]).text);
    assert.equal(over.head.length, 51);
    assert.equal(over.tail.length, 50);
  });
});

describe("OutputCapture over the ceiling", () => {
  test("one byte over: head and tail halves kept exactly, one byte dropped", () => {
    const data = bytes(101);
    const result = capture(100, [data]);
    assert.equal(result.truncated, true);
    assert.equal(result.bytes, 101);
    const { head, dropped, tail } = splitMarker(result.text);
    assert.equal(head, data.subarray(0, 50).toString());
    assert.equal(tail, data.subarray(51).toString());
    assert.equal(dropped, 1);
  });

  test("head and tail are exact whatever the chunking", () => {
    const data = bytes(10_000);
    for (const sizes of [[10_000], [1], [7], [49, 1, 2], [50], [51], [333, 4096], [3, 5000]]) {
      const result = capture(100, chunked(data, sizes));
      const { head, dropped, tail } = splitMarker(result.text);
      assert.equal(head, data.subarray(0, 50).toString(), sizes.join(","));
      assert.equal(tail, data.subarray(9950).toString(), sizes.join(","));
      assert.equal(dropped, 9900);
      assert.equal(result.bytes, 10_000);
    }
  });

  test("a flood in many small chunks keeps only the ceiling's head and tail and counts every byte", () => {
    const output = new OutputCapture(1024);
    const chunk = bytes(13);
    const count = 200_000;
    for (let index = 0; index < count; index++) output.push(chunk);
    const result = output.result();
    assert.equal(result.bytes, 13 * count);
    assert.equal(result.truncated, true);
    const { head, dropped, tail } = splitMarker(result.text);
    assert.equal(head.length, 512);
    assert.equal(tail.length, 512);
    assert.equal(dropped, 13 * count - 1024);
    const all = Buffer.concat(Array.from({ length: 80 }, () => chunk));
    assert.equal(head, all.subarray(0, 512).toString());
    assert.equal(
      tail,
      all.subarray(all.length - 512).toString(),
      "the tail ends with the last chunk",
    );
  });

  test("a ceiling of 1 keeps one head byte and no tail", () => {
    const result = capture(1, [Buffer.from("abc"), Buffer.from("def")]);
    const { head, dropped, tail } = splitMarker(result.text);
    assert.deepEqual([head, dropped, tail], ["a", 5, ""]);
    assert.equal(result.bytes, 6);
  });

  test("a ceiling of 0 keeps nothing but still counts", () => {
    const result = capture(0, [Buffer.from("abc")]);
    assert.equal(result.bytes, 3);
    assert.equal(result.truncated, true);
    const { head, dropped, tail } = splitMarker(result.text);
    assert.deepEqual([head, dropped, tail], ["", 3, ""]);
  });
});

describe("OutputCapture and multibyte text", () => {
  test("a character split across chunks is decoded whole", () => {
    const text = "zoë 日本語 🚀 done";
    const data = Buffer.from(text);
    const result = capture(1000, chunked(data, [1]));
    assert.equal(result.text, text);
    assert.equal(result.bytes, data.length);
    assert.ok(result.bytes > text.length, "bytes, not characters, are counted");
  });

  test("the ceiling counts bytes: 4-byte characters over it are cut at byte offsets", () => {
    const rocket = Buffer.from("🚀"); // 4 bytes
    const data = Buffer.concat(Array.from({ length: 10 }, () => rocket)); // 40 bytes
    const result = capture(10, chunked(data, [3]));
    assert.equal(result.bytes, 40);
    assert.equal(result.truncated, true);
    const { head, dropped, tail } = splitMarker(result.text);
    assert.equal(dropped, 30);
    // 5 head bytes: one whole rocket and a fragment; 5 tail bytes: a fragment and one rocket.
    // The fragments decode as U+FFFD; nothing else is lost or invented.
    assert.equal(head, "🚀\uFFFD");
    assert.equal(tail, "\uFFFD🚀");
  });
});
