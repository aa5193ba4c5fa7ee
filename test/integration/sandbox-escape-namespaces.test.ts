/**
 * The escape battery, the harness's namespaces (T68): `/memory/…` and `/skills/…` are paths the
 * read, write and edit tools hand to stores the harness keeps outside the sandbox. In bash they
 * do not exist and cannot be made (the root is read-only), so a command naming one would see
 * nothing or write nowhere; the permission rules refuse it before the sandbox runs anything.
 * Each command goes through the bash tool with the real checker over pitcrew's bwrap sandbox on
 * a scratch runner, as a session wires them; a marker the command writes first shows whether it
 * started. The forms refused are tabled in test/agent/permissions-namespaces.test.ts.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { createPermissionChecker } from "../../src/agent/permissions.ts";
import { bashTool } from "../../src/agent/tools/bash.ts";
import type { ToolContext } from "../../src/agent/tools/tool.ts";
import type { ToolOutcome } from "../../src/domain/tools.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { bash, present, useRunnerLayout } from "../support/runner-layout.ts";
import type { RunnerLayout } from "../support/runner-layout.ts";

describe("escape battery: the memory and skills namespaces (T68)", needsBwrap(), () => {
  const battery = useRunnerLayout();
  let layout: RunnerLayout;
  let sandbox: Sandbox;
  let context: ToolContext;
  before(async () => {
    ({ layout, sandbox } = battery);
    const workspace = sandbox.policy.workspace;
    // As runSession builds it: the sandbox's workspace, no deny rules.
    const gate = await createPermissionChecker({ workspace });
    context = { sandbox, gate, workspace, todos: { get: () => [], set: () => undefined } };
  });

  function run(command: string): Promise<ToolOutcome> {
    return bashTool.run(bashTool.schema.parse({ command }), context);
  }

  test("T68 bash cannot reach /memory/ or /skills/: refused before the sandbox, which has neither", async (t) => {
    const marker = join(layout.project, "t68-ran");
    const folder = join(layout.project, "memory");
    t.after(() => {
      rmSync(marker, { force: true });
      rmSync(folder, { recursive: true, force: true });
    });

    // Without the rules: neither namespace is there, and neither can be made.
    const bare = await bash(
      sandbox,
      `ls -d /memory /skills; echo "ls=$?"
echo x > /memory/a.md; echo "write=$?"
mkdir /skills; echo "mkdir=$?"`,
    );
    assert.equal(bare.stdout.text, "ls=2\nwrite=1\nmkdir=1\n");
    assert.match(bare.stderr.text, /cannot access '\/memory': No such file or directory/);
    assert.match(bare.stderr.text, /cannot access '\/skills': No such file or directory/);
    assert.match(bare.stderr.text, /\/memory\/a\.md: No such file or directory/);
    assert.match(bare.stderr.text, /cannot create directory ‘\/skills’: Read-only file system/);

    // A folder named memory in the checkout is the workspace's: the tool runs it, marker and all.
    const local = await run(
      "touch t68-ran; mkdir -p memory && echo note > memory/a.md && cat ./memory/a.md",
    );
    assert.equal(local.isError, false, local.content);
    assert.match(local.content, /^exit code: 0\n/);
    assert.match(local.content, /note/);
    assert.equal(readFileSync(join(folder, "a.md"), "utf8"), "note\n");
    assert.ok(present(marker), "the marker shows a command that ran");
    rmSync(marker);

    const attacks: [string, string][] = [
      ["cat /skills/fix.md", "/skills/fix.md is one of pitcrew's skills"],
      ["grep -r flaky /memory/", "/memory/ is pitcrew's memory"],
      ["ls /memory", "/memory is pitcrew's memory"],
      ["echo x > /memory/a.md", "/memory/a.md is pitcrew's memory"],
      ["cp /memory/a.md .", "/memory/a.md is pitcrew's memory"],
      ["find / -path '/memory/*'", "/memory/* is pitcrew's memory"],
      ["cd /memory && cat a.md", "/memory is pitcrew's memory"],
      ['cat "$(echo /skills)/fix.md"', "/skills is pitcrew's skills"],
      ["cat --show-ends --file=/memory/a.md", "/memory/a.md is pitcrew's memory"],
      ["cat </memory/a.md", "/memory/a.md is pitcrew's memory"],
      ['F=/memory/a.md; cat "$F"', "/memory/a.md is pitcrew's memory"],
      ["bash -c 'cat /skills/fix.md'", "/skills/fix.md is one of pitcrew's skills"],
      ["timeout 5 xargs cat /memory/a.md", "/memory/a.md is pitcrew's memory"],
      ["cd / && cat memory/a.md", "/memory/a.md is pitcrew's memory"],
    ];
    for (const [command, start] of attacks) {
      const outcome = await run(`touch t68-ran; ${command}`);
      assert.equal(outcome.isError, true, command);
      assert.ok(
        outcome.content.startsWith(`refused by the permission rules: ${start}, not a`),
        `${command}: ${outcome.content}`,
      );
      assert.match(
        outcome.content,
        /use the read tool .*; bash cannot reach it; the command was not run\.$/,
      );
      assert.ok(!present(marker), `${command} started in the sandbox`);
    }
  });
});
