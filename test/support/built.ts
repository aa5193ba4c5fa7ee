/**
 * pitcrew as it ships: scripts/build.mjs's bundle, built once per test process into a temporary
 * dist/ (the committed one stays as it is), so the tests that run the action or the CLI as a
 * person does run the bundle, not the sources.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let built: Promise<string> | undefined;

/** The built dist/ folder. */
function builtDist(): Promise<string> {
  built ??= new Promise((resolve, reject) => {
    const out = join(realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-dist-"))), "dist");
    execFile(process.execPath, ["scripts/build.mjs", out], { cwd: ROOT }, (error) => {
      if (error) reject(new Error(`the build failed: ${error.message}`));
      else resolve(out);
    });
  });
  return built;
}

/** The built action's entry, `dist/index.js`. */
export async function builtAction(): Promise<string> {
  return join(await builtDist(), "index.js");
}

/** The built CLI, `dist/cli.js`. */
export async function builtCli(): Promise<string> {
  return join(await builtDist(), "cli.js");
}
