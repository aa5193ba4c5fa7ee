/**
 * The escape battery, part 5 (issue 10, T50–T59): what a command could reach on the host through
 * the harness's own files. The seccomp filter is handed over a fresh pipe, never re-read from a
 * file a command could rewrite, and the session's state folder never lies inside the workspace.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import { hostSeccompArch, seccompFilter } from "../../src/sandbox/seccomp.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { bash, useRunnerLayout } from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

/** A classic-BPF program of one instruction, `RET SECCOMP_RET_ALLOW`, as printf escapes. */
const ALLOW_ALL = String.raw`\x06\x00\x00\x00\x00\x00\xff\x7f`;

const PTRACE_DENIED = /^ptrace -1 Operation not permitted$/m;

describe("escape battery: the harness's own files (T56–T57)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  before(() => ({ layout, sandbox } = battery));

  test("T56 a filter rewritten where the file used to be does not reach the next command", async () => {
    // Where the filter file lived: the session's state folder. Plant a link from there into the
    // workspace, as a TMPDIR inside the checkout once made it, and let a command write through it.
    const stateDir = dirname(sandbox.policy.spill?.source ?? "");
    const planted = join(layout.project, "filter.bpf");
    writeFileSync(planted, seccompFilter(hostSeccompArch() ?? "x64"));
    rmSync(join(stateDir, "seccomp.bpf"), { force: true });
    symlinkSync(planted, join(stateDir, "seccomp.bpf"));
    battery.undo.push(() => {
      rmSync(join(stateDir, "seccomp.bpf"), { force: true });
      rmSync(planted, { force: true });
    });
    const rewrite = await bash(sandbox, `printf '${ALLOW_ALL}' > filter.bpf && echo rewritten`);
    assert.equal(rewrite.stdout.text, "rewritten\n", rewrite.stderr.text);
    const next = await bash(sandbox, `python3 ${layout.tools.syscalls}`);
    assert.match(next.stdout.text, PTRACE_DENIED, next.stderr.text);
    assert.match(next.stdout.text, /^keyctl -1 Operation not permitted$/m);
  });

  test("T57 a state folder inside the workspace (TMPDIR in the checkout) is refused by name", async () => {
    const saved = process.env.TMPDIR;
    const inside = join(layout.project, "tmp");
    mkdirSync(inside);
    process.env.TMPDIR = inside;
    try {
      await assert.rejects(
        createSandbox(
          { ...DEFAULT_SETTINGS, backend: "bwrap" },
          { workspace: layout.project, env: layout.env, allowSetup: false },
        ),
        (error: unknown) =>
          error instanceof PitcrewError &&
          error.code === "sandbox-state-inside-workspace" &&
          error.message.includes(inside) &&
          /TMPDIR/.test(error.message),
      );
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(inside, { recursive: true, force: true });
    }
  });
});
