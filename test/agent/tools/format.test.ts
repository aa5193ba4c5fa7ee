/** The small formatting helpers the tools share. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatDuration, plural } from "../../../src/agent/tools/format.ts";

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
