/**
 * The bash tool: the result text (pure), then real commands in a bwrap sandbox over a temporary
 * repository: exit codes, stdout and stderr, the working folder, timeouts, refusals, bounded output.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PitcrewError } from "../../../src/errors.ts";
import {
  BASH_MAX_TIMEOUT_MS,
  bashTool,
  formatRun,
  limitResult,
} from "../../../src/agent/tools/bash.ts";
import type { CommandGate } from "../../../src/agent/tools/tool.ts";
import type { RunResult } from "../../../src/sandbox/runner.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { git, toolHarness } from "./harness.ts";
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

  test("a command stopped by the disk reserve says so first, by name", () => {
    const text = formatRun(
      result({ exitCode: null, signal: "SIGKILL", diskReserveReached: true }),
      1000,
    );
    assert.match(text, /^exit code: 137 \(killed by signal SIGKILL\)\ndisk-reserve-reached: /);
  });

  test("a stream the sandbox cut says how big it was", () => {
    const text = formatRun(result({ stdout: stream("head…tail", true, 9_000_000) }), 1000);
    assert.match(text, /stdout \(9000000 bytes; the sandbox kept only the head and the tail\):/);
  });

  test("a timeout above the cap is reported as capped", () => {
    const text = formatRun(result(), BASH_MAX_TIMEOUT_MS, 3_600_000);
    assert.match(text, /timeout_ms 3600000 is above the limit; the command ran with 600000/);
  });
});

const NOTICE =
  /\n\[full output, (\d+) chars, (\d+) lines: (\S+) — page it with head, tail, sed -n 'A,Bp' or grep\]\n/;

describe("limitResult", () => {
  const long = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");

  test("a result of at most 10000 characters is unchanged and nothing is saved", () => {
    const text = "x".repeat(10_000);
    const saved: string[] = [];
    assert.equal(
      limitResult(text, result(), (whole) => {
        saved.push(whole);
        return "/nowhere";
      }),
      text,
    );
    assert.deepEqual(saved, []);
  });

  test("a longer one keeps about 4000 characters of head and of tail around the notice; the whole text is saved", () => {
    const text = formatRun(result({ stdout: stream(long), stderr: stream("the error\n") }), 1000);
    const saved: string[] = [];
    const cut = limitResult(text, result(), (whole) => {
      saved.push(whole);
      return "/tmp/pitcrew-spill/call_1.txt";
    });
    assert.deepEqual(saved, [`${text}\n`]);
    assert.ok(cut.length < 8_300, `${cut.length} characters`);
    assert.match(cut, /^exit code: 0\nstdout:\nline 0\n/);
    assert.match(cut, /line 19999\nstderr:\nthe error$/);
    const notice = NOTICE.exec(cut);
    assert.ok(notice, cut);
    assert.equal(Number(notice[1]), text.length + 1);
    assert.equal(Number(notice[2]), 20_004);
    assert.equal(notice[3], "/tmp/pitcrew-spill/call_1.txt");
  });

  test("when the text cannot be saved, it is still cut and the notice says why", () => {
    const cut = limitResult(long, result(), () => {
      throw new PitcrewError("sandbox-spill-failed", "No spill file was written: disk full.");
    });
    assert.ok(cut.length < 8_300);
    assert.match(
      cut,
      /\n\[output cut to its head and tail \(\d+ chars, 20000 lines in all\) and not saved; sandbox-spill-failed: No spill file was written: disk full\.\]\n/,
    );
    assert.doesNotMatch(cut, /full output/, "later layers read a path after `full output …:`");
  });

  test("a stream the sandbox's ceiling already cut is named beside the notice", () => {
    const cut = limitResult(
      long,
      result({ stderr: stream("…", true, 9_000_000) }),
      () => "/tmp/pitcrew-spill/x.txt",
    );
    assert.match(
      cut,
      /— page it with head, tail, sed -n 'A,Bp' or grep\]\n\[the sandbox's output ceiling had already dropped the middle of stderr \(9000000 bytes written\); that part is lost\. /,
    );
    assert.doesNotMatch(cut, /middle of stdout/);
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
    assert.deepEqual(outcome, {
      content: "exit code: 0\nstdout:\nhello\ntwo",
      isError: false,
      details: {
        command: {
          exitCode: 0,
          signal: null,
          timedOut: false,
          stdoutTail: "hello\ntwo",
          stderrTail: "",
        },
      },
    });
  });

  test("a non-zero exit is a result to read, not a tool error; stderr is labelled", async () => {
    const outcome = await h.call(bashTool, {
      command: "echo visible; echo 'it broke' >&2; exit 3",
    });
    assert.equal(outcome.isError, false);
    assert.equal(outcome.content, "exit code: 3\nstdout:\nvisible\nstderr:\nit broke");
    assert.equal(outcome.details?.command?.exitCode, 3);
    assert.equal(outcome.details?.command?.stderrTail, "it broke");
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
    const outcome = await h.call(bashTool, {
      command: "echo started; sleep 30 & sleep 30; echo never",
      timeout_ms: 400,
    });
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

  test("a flood of output comes back bounded, head and tail kept, the rest in a spill file", async () => {
    const outcome = await h.call(bashTool, { command: "seq 1 200000; echo done >&2" });
    assert.ok(outcome.content.length < 8_500, `${outcome.content.length} characters`);
    assert.match(outcome.content, /^exit code: 0\nstdout:\n1\n2\n3\n/);
    assert.match(outcome.content, NOTICE);
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

describe("the bash tool's spill files in the sandbox", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("bash-spill");
  });
  after(() => h?.dispose());

  const folder = (): string => h.sandbox.policy.spill?.source ?? "";
  /** 5000 lines of 10 characters: `row 00001` … `row 05000`. */
  const BIG = "seq -f 'row %05g' 1 5000";
  const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

  test("50,000 characters: head and tail inline, the whole text in the file the notice names", async () => {
    const outcome = await h.call(bashTool, { command: BIG }, { callId: "call_big/1" });
    assert.equal(outcome.isError, false);
    assert.ok(outcome.content.length <= 10_500, `${outcome.content.length} characters`);
    assert.match(outcome.content, /^exit code: 0\nstdout:\nrow 00001\nrow 00002\n/);
    assert.match(outcome.content, /\nrow 05000$/);
    const notice = NOTICE.exec(outcome.content);
    assert.ok(notice, outcome.content);
    assert.equal(notice[3], "/tmp/pitcrew-spill/call_big_1.txt");
    const whole = readFileSync(join(folder(), "call_big_1.txt"), "utf8");
    const rows = Array.from({ length: 5000 }, (_, i) => `row ${String(i + 1).padStart(5, "0")}\n`);
    assert.equal(whole, `exit code: 0\nstdout:\n${rows.join("")}`);
    assert.equal(Number(notice[1]), whole.length);
    assert.equal(Number(notice[2]), 5002);
  });

  test("cat, sed -n and grep of the named path inside the sandbox give the full text", async () => {
    const path = "/tmp/pitcrew-spill/call_big_1.txt";
    const whole = readFileSync(join(folder(), "call_big_1.txt"), "utf8");
    const cat = await h.call(bashTool, {
      command: `cat ${path} | sha256sum; echo "$(wc -l < ${path}) lines"`,
    });
    assert.equal(cat.content, `exit code: 0\nstdout:\n${sha256(whole)}  -\n5002 lines`);
    const sed = await h.call(bashTool, { command: `sed -n '2502,2504p' ${path}` });
    assert.equal(sed.content, "exit code: 0\nstdout:\nrow 02500\nrow 02501\nrow 02502");
    const grep = await h.call(bashTool, { command: `grep -n 'row 0333[0-2]' ${path}` });
    assert.equal(
      grep.content,
      "exit code: 0\nstdout:\n3332:row 03330\n3333:row 03331\n3334:row 03332",
    );
  });

  test("the agent can neither write nor delete a spill file", async () => {
    const path = "/tmp/pitcrew-spill/call_big_1.txt";
    const before = readFileSync(join(folder(), "call_big_1.txt"), "utf8");
    const outcome = await h.call(bashTool, {
      command: `echo x >> ${path}; echo "append=$?"; rm -f ${path}; echo "rm=$?"; echo y > /tmp/pitcrew-spill/other.txt; echo "create=$?"`,
    });
    assert.match(outcome.content, /^exit code: 0\nstdout:\nappend=1\nrm=1\ncreate=1\nstderr:\n/);
    assert.match(outcome.content, /Read-only file system/);
    assert.equal(readFileSync(join(folder(), "call_big_1.txt"), "utf8"), before);
    assert.deepEqual(readdirSync(folder()).sort(), ["call_big_1.txt"]);
  });

  test("a small output has no notice and no file", async () => {
    const outcome = await h.call(bashTool, { command: "seq 1 100" }, { callId: "call_small" });
    assert.doesNotMatch(outcome.content, /full output/);
    assert.deepEqual(readdirSync(folder()).sort(), ["call_big_1.txt"]);
  });

  test("re-running the command writes a fresh file; without a call id one is made up", async () => {
    const again = await h.call(bashTool, { command: BIG }, { callId: "call_big/1" });
    assert.equal(NOTICE.exec(again.content)?.[3], "/tmp/pitcrew-spill/call_big_1-2.txt");
    const anonymous = await h.call(bashTool, { command: BIG });
    assert.match(
      NOTICE.exec(anonymous.content)?.[3] ?? "",
      /^\/tmp\/pitcrew-spill\/bash-[\w-]+\.txt$/,
    );
  });

  test("past the sandbox's 4 MiB ceiling the result says that part is lost", async () => {
    const outcome = await h.call(bashTool, { command: "seq 1 1000000" }, { callId: "call_flood" });
    assert.match(outcome.content, /^exit code: 0\nstdout \(6888896 bytes; the sandbox kept only/);
    assert.match(
      outcome.content,
      /\n\[the sandbox's output ceiling had already dropped the middle of stdout \(6888896 bytes written\); that part is lost\./,
    );
    assert.match(outcome.content, /\n1000000$/);
    const whole = readFileSync(join(folder(), "call_flood.txt"), "utf8");
    assert.match(whole, /\[… \d+ bytes of output dropped by the sandbox's output ceiling …\]/);
    assert.equal(Number(NOTICE.exec(outcome.content)?.[1]), whole.length);
  });

  test("spill files never reach the workspace: git status stays clean", async () => {
    assert.ok(!folder().startsWith(h.workspace));
    assert.equal(git(h.workspace, "status", "--porcelain", "--ignored"), "");
    const outcome = await h.call(bashTool, {
      command:
        "git status --porcelain --ignored; find . -path ./.git -prune -o -name '*spill*' -print",
    });
    assert.equal(outcome.content, "exit code: 0\n(no output)");
  });

  test("dispose sweeps the spill folder", async () => {
    const other = await toolHarness("bash-spill-dispose");
    const outcome = await other.call(bashTool, { command: BIG }, { callId: "call_x" });
    assert.match(outcome.content, NOTICE);
    const source = other.sandbox.policy.spill?.source ?? "";
    assert.ok(existsSync(join(source, "call_x.txt")));
    other.sandbox.dispose();
    assert.equal(existsSync(source), false);
    other.dispose();
  });
});

describe("the bash tool when the sandbox cannot start the command", needsBwrap(), () => {
  test("no bash on the sandbox's PATH: a failure naming bwrap's complaint, not 'exit code: 1'", async () => {
    const h = await toolHarness("bash-no-shell", (home) => ({ HOME: home, PATH: "/nowhere" }));
    try {
      const outcome = await h.call(bashTool, { command: "echo never" });
      assert.equal(outcome.isError, true);
      assert.match(
        outcome.content,
        /^The sandbox could not start the command, so it did not run: bwrap: execvp bash: No such file or directory$/,
      );
      assert.equal(outcome.details, undefined);
    } finally {
      h.dispose();
    }
  });

  test("a command that itself fails with exit 1 is still an ordinary result", async () => {
    const h = await toolHarness("bash-exit-1");
    try {
      const outcome = await h.call(bashTool, {
        command: "echo 'bwrap: execvp lookalike' >&2; echo out; exit 1",
      });
      assert.equal(outcome.isError, false);
      assert.equal(outcome.details?.command?.exitCode, 1);
    } finally {
      h.dispose();
    }
  });
});
