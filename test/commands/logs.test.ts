/**
 * `pitcrew logs excerpt` (src/commands/logs.ts) on files on disk: a saved job log, a run's log zip
 * (each job under its name, deflated as GitHub serves it), a JUnit report; `--json` prints exactly the three contract fields;
 * usage errors are pitcrew's own sentence with the usage line and exit 2.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { logsCommand } from "../../src/commands/logs.ts";
import { zipFiles } from "../support/artifact-service.ts";
import { runnerLog } from "../support/runner-log.ts";

const dir = mkdtempSync(join(tmpdir(), "pitcrew-logs-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await logsCommand(args, {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
  });
  return { code, out, err };
}

describe("pitcrew logs excerpt", () => {
  test("--json prints exactly excerpt, failing_tests and first_error for a saved log", async () => {
    const file = join(dir, "job.log");
    writeFileSync(file, runnerLog("pytest", ["FAILED tests/test_a.py::test_b - assert 1 == 2"]));
    const { code, out } = await run(["excerpt", "--json", file]);
    assert.equal(code, 0);
    const parsed = JSON.parse(out) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ["excerpt", "failing_tests", "first_error"]);
    assert.deepEqual(parsed.failing_tests, ["tests/test_a.py::test_b"]);
    assert.equal(parsed.first_error, "FAILED tests/test_a.py::test_b - assert 1 == 2");
    assert.match(String(parsed.excerpt), /##\[group\]Run pytest/);
  });

  test("a run's log zip: each failing job under its name", async () => {
    const file = join(dir, "logs.zip");
    writeFileSync(
      file,
      zipFiles(
        {
          "0_lint.txt": runnerLog("npm run lint", ["all good"], 0).replace(/.*##\[error\].*\n/, ""),
          "1_test.txt": runnerLog("go test ./...", ["--- FAIL: TestAdd (0.00s)"]),
          "test/1_Set up job.txt": "step file",
        },
        true,
      ),
    );
    const { code, out } = await run(["excerpt", file]);
    assert.equal(code, 0);
    assert.match(out, /=== job test\n/);
    assert.doesNotMatch(out, /=== job lint/);
    assert.match(out, /failing tests: TestAdd\nfirst error: --- FAIL: TestAdd \(0\.00s\)/);
  });

  test("a JUnit report", async () => {
    const file = join(dir, "junit.xml");
    writeFileSync(
      file,
      '<?xml version="1.0"?><testsuites><testsuite name="s"><testcase classname="pkg.ATest" name="adds"><failure message="expected 5"/></testcase></testsuite></testsuites>',
    );
    const { code, out } = await run(["excerpt", "--json", file]);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), {
      excerpt: "pkg.ATest.adds: expected 5",
      failing_tests: ["pkg.ATest.adds"],
      first_error: "expected 5",
    });
  });

  test("usage errors: a missing file, a bad --max-tokens, no file, an unknown subcommand", async () => {
    const missing = await run(["excerpt", join(dir, "nope.log")]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /nope\.log does not exist\nusage: pitcrew logs excerpt/);
    const bad = await run(["excerpt", "--max-tokens", "-3", join(dir, "job.log")]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /max-tokens/);
    assert.doesNotMatch(bad.err, /ambiguous|ERR_PARSE_ARGS/);
    assert.equal((await run(["excerpt"])).code, 2);
    const unknown = await run(["tail"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown subcommand 'tail'/);
    const help = await run(["excerpt", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.out, /^usage: pitcrew logs excerpt/);
  });
});
