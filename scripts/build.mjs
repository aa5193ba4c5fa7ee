// Bundles the action and the CLI into dist/ with every dependency inside, so a clean checkout
// runs `node dist/cli.js` without `npm ci`. Output is deterministic: check-dist compares it byte
// for byte against a fresh build.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const outdir = process.argv[2] ?? "dist";
// A clean folder each time, so files of an earlier build never linger in the commit.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { index: "src/index.ts", cli: "src/cli.ts" },
  outdir,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  legalComments: "linked",
  // Bundled CommonJS dependencies still call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
