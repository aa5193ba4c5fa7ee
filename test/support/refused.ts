/**
 * The assertion of a named refusal: `run` throws a PitcrewError with `code` whose message starts
 * with `start` (a stored ledger's path in state.json, say), with both in the failure's words.
 */
import assert from "node:assert/strict";
import { PitcrewError } from "../../src/errors.ts";

export function assertRefused(run: () => unknown, code: string, start: string): void {
  assert.throws(run, (error) => {
    assert.ok(error instanceof PitcrewError);
    assert.equal(error.code, code);
    assert.ok(error.message.startsWith(start), `${error.message} should start with ${start}`);
    return true;
  });
}
