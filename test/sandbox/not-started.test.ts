/**
 * notStarted: the sandbox wrapper's own "could not execute" line is told apart from a command
 * that ran and failed (the real case, bash missing from the sandbox's PATH, is in
 * test/agent/tools/bash.test.ts).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { notStarted } from "../../src/sandbox/not-started.ts";

const stream = (text: string) => ({ text, bytes: Buffer.byteLength(text), truncated: false });
const ran = (exitCode: number | null, stdout: string, stderr: string) => ({
  exitCode,
  stdout: stream(stdout),
  stderr: stream(stderr),
});

describe("notStarted", () => {
  test("each wrapper's complaint, alone on stderr, is a command that never ran", () => {
    for (const said of [
      "bwrap: execvp bash: No such file or directory",
      "prlimit: failed to execute bash: No such file or directory",
      "sandbox-exec: execvp() of 'bash' failed: No such file or directory",
    ]) {
      assert.equal(notStarted(ran(1, "", `${said}\n`)), said);
    }
  });

  test("output, more lines, success or other words mean the command ran", () => {
    const line = "bwrap: execvp bash: No such file or directory\n";
    assert.equal(notStarted(ran(1, "partial", line)), undefined);
    assert.equal(notStarted(ran(0, "", line)), undefined);
    assert.equal(notStarted(ran(1, "", `${line}and then more\n`)), undefined);
    assert.equal(notStarted(ran(1, "", "bash: line 1: nosuch: command not found\n")), undefined);
    assert.equal(notStarted(ran(1, "", "")), undefined);
  });
});
