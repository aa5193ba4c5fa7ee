/**
 * A bash parser for the permission rules: tree-sitter-bash run by web-tree-sitter (WebAssembly),
 * its tree copied into plain `ShellNode`s so that the rules never touch wasm memory. It only
 * parses; deciding what a command may do is permissions.ts's job.
 *
 * The two wasm files are read from beside the running module first (dist/, where
 * scripts/build.mjs copies them next to the bundles) and from node_modules otherwise (running
 * the sources).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import type { TreeCursor } from "web-tree-sitter";
import { PitcrewError } from "../../errors.ts";
import { SHELL_PARSER_ASSETS } from "./assets.ts";

/** One node of the syntax tree, as tree-sitter-bash names it (`command`, `word`, `string`…). */
export interface ShellNode {
  type: string;
  /** False for punctuation and keywords (`>`, `&&`, `$(`, `then`). */
  named: boolean;
  /** The field this node fills in its parent (`name`, `argument`, `destination`…), if any. */
  field: string | null;
  /** UTF-16 offsets into the parsed source. */
  start: number;
  end: number;
  text: string;
  children: ShellNode[];
}

export type ShellParse = { ok: true; root: ShellNode } | { ok: false; error: string };

export interface ShellParser {
  /** Parses `source`; a syntax error (tree-sitter's ERROR or MISSING nodes) is `ok: false`. */
  parse(source: string): ShellParse;
}

/** Named so as not to clash with the `require` the bundle's banner declares. */
const packageRequire = createRequire(import.meta.url);

function readAsset(file: string, module: string): Uint8Array {
  const beside = new URL(`./${file}`, import.meta.url);
  if (existsSync(beside)) return readFileSync(beside);
  let path: string;
  try {
    path = packageRequire.resolve(module);
  } catch (error) {
    throw new PitcrewError(
      "shell-parser-missing",
      `The shell parser's ${file} is neither in ${fileURLToPath(new URL(".", import.meta.url))} nor installed in node_modules; run \`npm run build\` (or \`npm ci\` when running the sources).`,
      { cause: error },
    );
  }
  return readFileSync(path);
}

let loading: Promise<ShellParser> | undefined;

/** Loads the parser once per process; later calls share it. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= load();
  return loading;
}

async function load(): Promise<ShellParser> {
  const [runtime, grammar] = SHELL_PARSER_ASSETS.map(({ file, module }) => readAsset(file, module));
  if (runtime === undefined || grammar === undefined)
    throw new Error("SHELL_PARSER_ASSETS lost a file");
  await Parser.init({ wasmBinary: runtime });
  const bash = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(bash);
  return {
    parse(source: string): ShellParse {
      const tree = parser.parse(source);
      if (tree === null) return { ok: false, error: "the parser gave up" };
      try {
        return copyTree(tree.walk(), source);
      } finally {
        tree.delete();
      }
    },
  };
}

/** Copies the tree under `cursor` into plain nodes, without recursion (lists nest deeply). */
function copyTree(cursor: TreeCursor, source: string): ShellParse {
  // The first MISSING token says best what is wrong; failing that, the first ERROR node.
  let missing: string | null = null;
  let unexpected: string | null = null;
  const end = source.trimEnd().length;
  const node = (): ShellNode => {
    const type = cursor.nodeType;
    if (missing === null && (type === "ERROR" || cursor.nodeIsMissing)) {
      const { row, column } = cursor.startPosition;
      const where = `line ${row + 1}, column ${column + 1}`;
      const near = source.slice(cursor.startIndex).split("\n")[0]?.trim() ?? "";
      const shown = near.length > 24 ? `${near.slice(0, 24)}…` : near;
      if (cursor.nodeIsMissing) missing = `expected \`${type}\` at ${where}`;
      else if (!near) unexpected ??= `unexpected end at ${where}`;
      else if (cursor.endIndex >= end) unexpected ??= `\`${shown}\` is not finished (${where})`;
      else unexpected ??= `unexpected \`${shown}\` at ${where}`;
    }
    return {
      type,
      named: cursor.nodeIsNamed,
      field: cursor.currentFieldName,
      start: cursor.startIndex,
      end: cursor.endIndex,
      text: source.slice(cursor.startIndex, cursor.endIndex),
      children: [],
    };
  };
  const root = node();
  const stack: ShellNode[] = [root];
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = node();
        stack.at(-1)?.children.push(child);
        stack.push(child);
        continue;
      }
      for (;;) {
        stack.pop();
        if (stack.length === 0) break;
        if (cursor.gotoNextSibling()) {
          const sibling = node();
          stack.at(-1)?.children.push(sibling);
          stack.push(sibling);
          break;
        }
        cursor.gotoParent();
      }
      if (stack.length === 0) break;
    }
  } finally {
    cursor.delete();
  }
  const error = missing ?? unexpected;
  return error === null ? { ok: true, root } : { ok: false, error };
}
