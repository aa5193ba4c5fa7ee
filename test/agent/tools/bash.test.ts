/**
 * The bash tool: the result text (pure), then real commands in a bwrap sandbox over a temporary
 * repository: exit codes, stdout and stderr, the working folder, timeouts, refusals, bounded output.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BASH_MAX_TIMEOUT_MS, bashTool, formatRun } from "../../../src/agent/tools/bash.ts";
import type { CommandGate } from "../../../src/agent/tools/tool.ts";
import type { RunResult } from "../../../src/sandbox/runner.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

function result(overrides: Partial<RunResult> = {}): RunResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    durationMs: 5,
    stdout: { text: "", bytes: 0, truncated: false },
    stderr: { text: "", bytes: 0, truncated: false },
    ...overrides,
  };
}

function stream(text: string, truncated = false, bytes = Buffer.byteLength(text)) {
  return { text, bytes, truncated };
}

describe("formatRun", () => {
  test("the exit code first, then stdout, then stderr, each labelled", () => {
    const text = formatRun(
      result({ exitCode: 2, stdout: stream("out\n"), stderr: stream("err") }),
      1000,
    );
    assert.equal(text, "exit code: 2\nstdout:\nout\nstderr:\nerr");
  });

  test("no output at all is said so", () => {
    assert.equal(formatRun(result(), 1000), "exit code: 0\n(no output)");
  });

  test("a signal gives the shell's status and names the signal", () => {
    const text = formatRun(result({ exitCode: null, signal: "SIGSEGV" }), 1000);
    assert.match(text, /^exit code: 139 \(killed by signal SIGSEGV\)/);
  });

  test("a timeout says how long, that everything was killed, and what to do", () => {
    const text = formatRun(
      result({ exitCode: null, signal: "SIGKILL", timedOut: true, stdout: stream("partial\n") }),
      90_000,
    );
    assert.match(
      text,
      /timed out after 90 s; the command and everything it started were killed; run long jobs with a larger timeout_ms .* or in smaller steps/,
    );
    assert.match(text, /stdout:\npartial/);
  });

  test("a stream the sandbox cut says how big it was", () => {
    const text = formatRun(result({ stdout: stream("head…tail", true, 9_000_000) }), 1000);
    assert.match(text, /stdout \(9000000 bytes; the sandbox kept only the head and the tail\):/);
  });

  test("a timeout above the cap is reported as capped", () => {
    const text = formatRun(result(), BASH_MAX_TIMEOUT_MS, 3_600_000);
    assert.match(text, /timeout_ms 3600000 is above the limit; the command ran with 600000/);
  });

  test("a long result keeps its head (the exit code) and tail within about 30000 characters", () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");
    const text = formatRun(result({ stdout: stream(long), stderr: stream("the error\n") }), 1000);
    assert.ok(text.length < 31_000, `${text.length} characters`);
    assert.match(text, /^exit code: 0\nstdout:\nline 0\n/);
    assert.match(text, /cut from the middle/);
    assert.match(text, /line 19999\nstderr:\nthe error$/);
  });
});

describe("the bash tool in the sandbox", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("bash");
  });
  after(() => h?.dispose());

  test("runs a command and returns exit code and stdout", async () => {
    const outcome = await h.call(bashTool, { command: "echo hello; printf 'two\\n'" });
    assert.deepEqual(outcome, { content: "exit code: 0\nstdout:\nhello\ntwo", isError: false });
  });

  test("a non-zero exit is a result to read, not a tool error; stderr is labelled", async () => {
    const outcome = await h.call(bashTool, {
      command: "echo visible; echo 'it broke' >&2; exit 3",
    });
    assert.equal(outcome.isError, false);
    assert.equal(outcome.content, "exit code: 3\nstdout:\nvisible\nstderr:\nit broke");
  });

  test("every command starts at the repository root; a cd does not carry over", async () => {
    const first = await h.call(bashTool, { command: "pwd; cd /; pwd" });
    assert.equal(first.content, `exit code: 0\nstdout:\n${h.workspace}\n/`);
    const second = await h.call(bashTool, { command: "pwd && ls README.md" });
    assert.equal(second.content, `exit code: 0\nstdout:\n${h.workspace}\nREADME.md`);
  });

  test("a command killed by a signal shows the shell's status", async () => {
    const outcome = await h.call(bashTool, { command: "kill -KILL $$" });
    assert.equal(outcome.isError, false);
    assert.match(outcome.content, /^exit code: 137\b/);
  });

  test("timeout_ms kills the command and says so plainly", async () => {
    const started = Date.now();
    const outcome = await h.call(bashTool, {
      command: "echo started; sleep 30 & sleep 30; echo never",
      timeout_ms: 400,
    });
    assert.ok(Date.now() - started < 10_000, "the command was killed at its timeout");
    assert.equal(outcome.isError, true);
    assert.match(
      outcome.content,
      /timed out after 400 ms; the command and everything it started were killed/,
    );
    assert.match(outcome.content, /stdout:\nstarted/);
    assert.doesNotMatch(outcome.content, /never/);
  });

  test("a timeout_ms above ten minutes is capped, and the result says so", async () => {
    const outcome = await h.call(bashTool, { command: "true", timeout_ms: 36_000_000 });
    assert.equal(outcome.isError, false);
    assert.match(
      outcome.content,
      /timeout_ms 36000000 is above the limit; the command ran with 600000/,
    );
  });

  test("a command the gate refuses is not run, and the result says why", async () => {
    const gate: CommandGate = {
      check: (command) =>
        /\bgit\s+commit\b/.test(command)
          ? { allowed: false, reason: "the harness commits; the agent never runs git commit." }
          : { allowed: true },
    };
    const outcome = await h.call(
      bashTool,
      { command: "touch ran-anyway && git commit -am sneaky" },
      { gate },
    );
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /the harness commits; the agent never runs git commit/);
    assert.match(outcome.content, /the command was not run/);
    assert.equal(existsSync(join(h.workspace, "ran-anyway")), false);
  });

  test("an empty command is an error", async () => {
    const outcome = await h.call(bashTool, { command: "  " });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /command is empty/);
  });

  test("a flood of output comes back bounded, head and tail kept", async () => {
    const outcome = await h.call(bashTool, { command: "seq 1 200000; echo done >&2" });
    assert.ok(outcome.content.length < 31_000, `${outcome.content.length} characters`);
    assert.match(outcome.content, /^exit code: 0\nstdout:\n1\n2\n3\n/);
    assert.match(outcome.content, /cut from the middle/);
    assert.match(outcome.content, /\n200000\nstderr:\ndone$/);
  });

  test("/tmp is private and emptied after each command, as the description says", async () => {
    await h.call(bashTool, { command: "echo kept > /tmp/note" });
    const outcome = await h.call(bashTool, { command: "cat /tmp/note" });
    assert.match(outcome.content, /^exit code: 1\b/);
  });

  test("cancellation kills the command and reports it", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await h.call(bashTool, { command: "sleep 30" }, { signal: controller.signal });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /cancelled/);
  });
});
