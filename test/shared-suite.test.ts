/**
 * The shared-data suite (test/shared/, `npm run test:shared`) run as CI and a developer run it,
 * with its data folder missing (PITCREW_SHARED pointed at a folder that does not exist): under
 * CI=true it fails naming what is missing, otherwise each test skips saying why.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

const ROOT = join(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "pitcrew-shared-"));
const MISSING = join(scratch, "no-shared-here");
after(() => rmSync(scratch, { recursive: true, force: true }));

function sharedSuite(ci: boolean): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PITCREW_SHARED: MISSING };
  // The child is a test run of its own, not a part of this one.
  delete env.NODE_TEST_CONTEXT;
  delete env.CI;
  if (ci) env.CI = "true";
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--test", "--test-reporter=tap", "test/shared/**/*.test.ts"],
      { cwd: ROOT, env },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, output: stdout + stderr });
      },
    );
  });
}

describe("the shared-data suite without its data", () => {
  test("under CI=true: fails, naming the missing folder and what to do", async () => {
    const { code, output } = await sharedSuite(true);
    assert.notEqual(code, 0, output);
    assert.ok(output.includes(`${join(MISSING, "trajectories")} not found`), output);
    assert.match(output, /the shared data is absent/);
    assert.match(output, /set PITCREW_SHARED to its folder/);
    assert.match(output, /CI=true: failing instead of skipping/);
  });

  test("without CI: every test skips, saying why", async () => {
    const { code, output } = await sharedSuite(false);
    assert.equal(code, 0, output);
    // Both files say so: the replay suite as a whole, each token-estimate test on its own.
    for (const name of ["replay of the shared trajectories", "every research sample"])
      assert.match(output, new RegExp(`ok \\d+ - ${name}.* # SKIP the shared data is absent \\(`));
    const tests = /^# tests (\d+)$/m.exec(output)?.[1];
    assert.ok(Number(tests) > 0, output);
    assert.match(output, new RegExp(`^# skipped ${tests}$`, "m"));
    assert.match(output, /^# pass 0$/m);
    assert.match(output, /^# fail 0$/m);
  });
});
