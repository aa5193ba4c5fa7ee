// Bundles the action and the CLI into dist/ with every dependency inside, so a clean checkout
// runs `node dist/cli.js` without `npm ci`. Output is deterministic: check-dist compares it byte
// for byte against a fresh build.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { SHELL_PARSER_ASSETS } from "../src/agent/shell/assets.ts";

const outdir = process.argv[2] ?? "dist";
// A clean folder each time, so files of an earlier build never linger in the commit.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { index: "src/index.ts", post: "src/post-index.ts", cli: "src/cli.ts" },
  outdir,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  // Shared code sits in chunks beside the entry points (the shell parser finds its WebAssembly
  // next to whichever file holds it), and lazily imported modules load only when used.
  splitting: true,
  chunkNames: "chunk-[hash]",
  legalComments: "linked",
  // Bundled CommonJS dependencies still call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);",
  },
  // `pitcrew --version` (src/version.ts): the version is baked in, so the bundle never reads
  // package.json, which need not lie beside a copied dist/.
  define: {
    PITCREW_BUILD_VERSION: JSON.stringify(
      JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version,
    ),
  },
  logLevel: "warning",
});

// The shell parser's WebAssembly files, beside the bundles: src/agent/shell/parse.ts looks for
// them next to the running module (import.meta.url) before trying node_modules.
const require = createRequire(import.meta.url);
for (const { file, module } of SHELL_PARSER_ASSETS) {
  writeFileSync(join(outdir, file), readFileSync(require.resolve(module)));
}
