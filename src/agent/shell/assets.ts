/**
 * The WebAssembly files the shell parser loads: the name each has beside the bundle in dist/, and
 * where it lies in node_modules. Read by parse.ts at run time and by scripts/build.mjs, which
 * copies them into dist/; nothing else.
 */
export const SHELL_PARSER_ASSETS: readonly { file: string; module: string }[] = [
  { file: "web-tree-sitter.wasm", module: "web-tree-sitter/web-tree-sitter.wasm" },
  { file: "tree-sitter-bash.wasm", module: "tree-sitter-bash/tree-sitter-bash.wasm" },
];
