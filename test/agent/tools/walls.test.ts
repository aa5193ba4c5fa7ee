/**
 * The walls hold for the tools as for any command: a symlink the agent plants cannot carry a
 * write or an edit out of the checkout, and the harness's credentials appear in no tool result.
 * The sandbox here is built from the harness's whole environment, as the action builds it.
 */
import assert from "node:assert/strict";
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { editTool } from "../../../src/agent/tools/edit.ts";
import { readTool } from "../../../src/agent/tools/read.ts";
import { writeTool } from "../../../src/agent/tools/write.ts";
import type { ToolOutcome } from "../../../src/domain/tools.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

const SECRETS = {
  OPENAI_API_KEY: "sk-test-pitcrew-openai-0123456789abcdef",
  GITHUB_TOKEN: "ghs_testPitcrewGithubToken0123456789",
};

describe("the walls, through the tools", needsBwrap(), () => {
  let h: ToolHarness;
  let outsideDir: string;
  let victim: string;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    h = await toolHarness("walls", (home) => ({ ...process.env, HOME: home }));
    // Under /var/tmp, not /tmp: the sandbox has a private /tmp, where the host's is not visible.
    outsideDir = mkdtempSync("/var/tmp/pitcrew-walls-");
    victim = join(outsideDir, "victim.txt");
    writeFileSync(victim, "original outside content\n");
  });
  after(() => {
    h?.dispose();
    if (outsideDir) rmSync(outsideDir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("a symlink planted through bash cannot carry write or edit outside the checkout", async () => {
    const plant = await h.call(bashTool, { command: `ln -s ${victim} escape && ls -l escape` });
    assert.match(plant.content, /^exit code: 0/, plant.content);
    assert.equal(readlinkSync(join(h.workspace, "escape")), victim);

    const written = await h.call(writeTool, { path: "escape", content: "pwned\n" });
    assert.equal(written.isError, true);
    assert.match(written.content, /Could not write escape: .*Read-only file system/);
    assert.match(written.content, /a symbolic link does not lead out of it/);

    const edited = await h.call(editTool, {
      path: "escape",
      old_string: "original",
      new_string: "pwned",
    });
    assert.equal(edited.isError, true);
    assert.match(edited.content, /Read-only file system/);

    const planted = await h.call(bashTool, { command: `ln -s ${outsideDir} outdir` });
    assert.match(planted.content, /^exit code: 0/);
    const through = await h.call(writeTool, { path: "outdir/new/file.txt", content: "x" });
    assert.equal(through.isError, true);
    assert.match(through.content, /Read-only file system/);

    assert.equal(readFileSync(victim, "utf8"), "original outside content\n");
    assert.deepEqual(readdirSync(outsideDir), ["victim.txt"], "nothing was created outside");
  });

  test("credentials in the harness's environment appear in no tool result", async () => {
    const outcomes: ToolOutcome[] = [
      await h.call(bashTool, { command: "env" }),
      await h.call(bashTool, { command: "cat /proc/1/environ | tr '\\0' '\\n'" }),
      await h.call(bashTool, { command: "for f in /proc/[0-9]*/environ; do cat $f; done 2>&1" }),
      await h.call(bashTool, { command: "cat .git/config; git config --list 2>&1" }),
      await h.call(readTool, { path: "/proc/self/environ" }),
      await h.call(readTool, { path: "/proc/1/environ" }),
    ];
    const env = outcomes[0]?.content ?? "";
    assert.match(env, /^exit code: 0\nstdout:\n/);
    assert.match(env, /\bPATH=/, "env printed the sandbox's environment");
    for (const outcome of outcomes) {
      for (const [name, value] of Object.entries(SECRETS)) {
        assert.ok(!outcome.content.includes(value), `${name} leaked: ${outcome.content}`);
        assert.ok(!outcome.content.includes(`${name}=`), `${name} is named: ${outcome.content}`);
      }
    }
  });
});
