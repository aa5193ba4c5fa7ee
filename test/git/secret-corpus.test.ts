/**
 * The decoding scan raises no false alarm on real code (issue 10 §3): with realistic held values
 * (an installation token, a project API key, a runtime JWT), every added line of this
 * repository's own history, every file it tracks (read whole, as a push's files are), its lock
 * file, and a slice of the sources and lock files under node_modules give zero findings. Each
 * source's size and findings are printed as diagnostics.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { addedLines } from "../../src/git/publish.ts";
import { scanStagedFiles } from "../../src/git/secret-files.ts";
import { stagedChanges } from "../../src/git/staged-checks.ts";
import { scanForSecrets } from "../../src/git/secret-scan.ts";
import type { Finding, ScanItem } from "../../src/git/secret-scan.ts";
import { fakeSecrets } from "../support/secret-fixtures.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const KNOWN = fakeSecrets();
/** git's empty tree: every tracked file differs from it, as an added file. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
/** Sources read under node_modules: a few thousand lines of ordinary code is the ask; more is fine. */
const MODULE_LINES = 40_000;
const CODE = /\.(?:js|mjs|cjs|ts|json|md)$/;
const LOCK = /^(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json)$/;

function lines(items: readonly ScanItem[]): number {
  return items.reduce((sum, item) => sum + item.text.split("\n").length, 0);
}

function report(t: TestContext, source: string, size: string, findings: readonly Finding[]): void {
  t.diagnostic(`${source}: ${size}, ${findings.length} findings`);
  assert.deepEqual(findings, [], `${source}: ${JSON.stringify(findings.slice(0, 5))}`);
}

/**
 * Files under node_modules in a fixed order: code and docs until `budget` lines, and every lock
 * file a package ships (few packages do, so they are looked for everywhere).
 */
function moduleFiles(budget: number): ScanItem[] {
  const items: ScanItem[] = [];
  let total = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (!stat?.isFile() || stat.size > 512 * 1024) continue;
      else if (LOCK.test(name) || (total < budget && CODE.test(name))) {
        const text = readFileSync(path, "utf8");
        items.push({ source: path.slice(ROOT.length), text });
        total += text.split("\n").length;
      }
    }
  };
  walk(join(ROOT, "node_modules"));
  return items;
}

describe("no false alarm on real code, with realistic held values", () => {
  test("every added line and commit message of this repository's history", (t) => {
    // dist/ is the bundle of src/ and node_modules, both read below; the whole-file test reads it.
    const log = execFileSync(
      "git",
      [
        "log",
        "-p",
        "-U0",
        "--text",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-renames",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--",
        ".",
        ":!dist",
      ],
      { cwd: ROOT, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024 },
    );
    const messages = execFileSync("git", ["log", "--format=%B%x00"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .map((text, index) => ({ source: `commit message ${index}`, text }));
    const items = [...addedLines(log), ...messages];
    assert.ok(messages.length > 10 && lines(items) > 10_000);
    const findings = scanForSecrets(items, KNOWN, { patterns: false });
    report(t, "history", `${messages.length} commits, ${lines(items)} added lines`, findings);
  });

  test("every file this repository tracks, read whole as a push reads its files", async (t) => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((path) => path !== "");
    assert.ok(files.length > 100);
    const findings = await scanStagedFiles(ROOT, await stagedChanges(ROOT, EMPTY_TREE), KNOWN);
    report(t, "tracked files", `${files.length} files, names and contents`, findings);
  });

  test("this repository's package-lock.json, every line as if added", (t) => {
    const text = readFileSync(join(ROOT, "package-lock.json"), "utf8");
    const items = [{ source: "package-lock.json", text }];
    report(t, "package-lock.json", `${lines(items)} lines`, scanForSecrets(items, KNOWN));
  });

  test("sources, docs and lock files under node_modules, every line as if added", (t) => {
    const items = moduleFiles(MODULE_LINES);
    assert.ok(lines(items) >= MODULE_LINES);
    assert.ok(items.some((item) => LOCK.test(item.source.split("/").pop() ?? "")));
    const findings = scanForSecrets(items, KNOWN);
    report(t, "node_modules", `${items.length} files, ${lines(items)} lines`, findings);
  });
});
