/**
 * The memory and skills namespaces (`/memory/…`, `/skills/…`) exist only for the read, write
 * and edit tools: the harness keeps them outside the sandbox, where a command naming one finds
 * no such file (nor can it make one). Any word of a command line that names a path under one is
 * refused with a reason that points to the tools: a command's words (`--file=/memory/a`,
 * `-I/skills`, `@/memory/a`, a quoted path in inline code like `open('/memory/a')`, a relative
 * one after `cd /`), redirections read or written, assignments, `[[ … ]]`, `for … in`, `case`
 * and the defaults of `${X:-…}`. A glob whose first name could only be one of them (`/mem*`) is
 * refused too; brace expansion (`/{memory,skills}`) and values only known when the command runs
 * are not seen. A search pattern (`grep /memory/ src`, `sed -n '/memory/p'`) is no path and
 * passes. Which words are a command's and where it runs is the walk's business (shell/walk.ts).
 */
import { posix } from "node:path";
import { MEMORY_ROOT, SKILLS_ROOT } from "../../domain/memory.ts";
import type { ShellNode } from "../shell/parse.ts";
import { has, parseOptions } from "../shell/options.ts";
import type { OptionSpec } from "../shell/options.ts";
import { globPattern, wordsOf } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { REASONS, refuse } from "./reasons.ts";
import { WRAPPERS } from "./wrappers.ts";

type Literal = Extract<Word["segments"][number], { literal: true }>;

/** The namespaces, as their folders without the trailing slash (`/memory`). */
const ROOTS = [MEMORY_ROOT, SKILLS_ROOT].map((root) => root.replace(/\/$/, ""));

/** Whether a text holds a namespace's name. */
const NAMES = new RegExp(ROOTS.map((root) => root.slice(1)).join("|"));

/** The namespace `path` (normalised, absolute) lies in, or null. */
function rootOf(path: string): string | null {
  return ROOTS.find((root) => path === root || path.startsWith(`${root}/`)) ?? null;
}

/**
 * Refuses when `word` names a path under a namespace. `cwd` resolves a relative path (`cd / &&
 * cat memory/a`); null leaves relative paths alone.
 */
export function checkNamespaceWord(word: Word, cwd: string | null): void {
  const text = word.value ?? word.known;
  // Most words name neither namespace, nor can they: only a glob may without the name in it.
  if (!NAMES.test(text) && (word.exact || !text.startsWith("/"))) return;
  for (const piece of pieces(text)) {
    if (piece === "" || (!piece.startsWith("/") && cwd === null)) continue;
    const path = piece.startsWith("/") ? posix.normalize(piece) : posix.resolve(cwd ?? "/", piece);
    const bare = path.length > 1 ? path.replace(/\/$/, "") : path;
    const root = rootOf(bare);
    if (root === null) continue;
    // A word only partly known (`/memory$X`) counts once its literal start reaches into the folder.
    if (word.value === null && bare === root && !piece.endsWith("/")) continue;
    refuseNamespace(word.exact ? path : word.text, root);
  }
  if (word.value !== null) {
    // Inline code names a path as a quoted string: `python3 -c "open('/memory/a.md')"`.
    for (const match of word.value.matchAll(/(['"`])(\/(?:(?!\1).)*)\1/g)) {
      const path = posix.normalize(match[2] ?? "/");
      const root = rootOf(path.length > 1 ? path.replace(/\/$/, "") : path);
      if (root !== null) refuseNamespace(path, root);
    }
  }
  const glob = firstNameGlob(word);
  const root = glob === null ? undefined : ROOTS.find((candidate) => glob.test(candidate.slice(1)));
  if (root !== undefined) refuseNamespace(word.text, root);
}

/**
 * Where a word may hold a path: itself, after an option's `=` (`--file=…`, `if=…`, `F=…`),
 * after a short option's letter (`-I/skills`), after each `:` of a list (`PATH=…:/skills/bin`),
 * each also without a leading `@` (`-d @/memory/a`).
 */
function pieces(text: string): string[] {
  const found = [text];
  const equals = text.indexOf("=");
  if (equals >= 0) found.push(text.slice(equals + 1));
  if (/^-[A-Za-z]\//.test(text)) found.push(text.slice(2));
  found.push(...text.split(":").slice(1));
  return found.flatMap((piece) => (piece.startsWith("@") ? [piece, piece.slice(1)] : [piece]));
}

/**
 * `/mem*` or `/?kills/x`: the glob its first name makes, when that name holds at least three
 * characters that are not wildcards (so `/*` and `/m*`, which list the sandbox's root, pass).
 */
function firstNameGlob(word: Word): RegExp | null {
  if (word.value === null || word.exact || !word.value.startsWith("/")) return null;
  const name: Literal[] = [];
  for (const segment of word.segments) {
    if (!segment.literal) return null;
    const text = name.length === 0 ? segment.text.slice(1) : segment.text;
    const slash = text.indexOf("/");
    name.push({ ...segment, text: slash < 0 ? text : text.slice(0, slash) });
    if (slash >= 0) break;
  }
  // Characters that are not wildcards; the parser may split `[ms]` over several segments.
  let literal = 0;
  let inClass = false;
  for (const segment of name) {
    for (const char of segment.text) {
      if (segment.quoted) literal += inClass ? 0 : 1;
      else if (inClass) inClass = char !== "]";
      else if (char === "[") inClass = true;
      else if (char !== "*" && char !== "?") literal++;
    }
  }
  return literal < 3 ? null : globPattern({ ...word, segments: name });
}

function refuseNamespace(path: string, root: string): never {
  const folder = path === root || path === `${root}/`;
  refuse(root === ROOTS[0] ? REASONS.memory(path, folder) : REASONS.skills(path, folder));
}

/** A search's options: those whose value is its pattern, those that read patterns from files. */
interface Search extends OptionSpec {
  patterns: readonly string[];
  files: readonly string[];
}
type SearchName = "grep" | "rg" | "sed" | "awk";

/** Searches whose pattern or script is a word that may look like a path (`grep /memory/ src`). */
const SEARCHES: Record<SearchName, Search> = {
  grep: {
    valued: "efmABCdD",
    long: [
      "regexp",
      "file",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "label",
      "include",
      "exclude",
      "exclude-dir",
      "exclude-from",
      "devices",
      "directories",
      "binary-files",
      "group-separator",
    ],
    patterns: ["e", "regexp"],
    files: ["f", "file"],
  },
  rg: {
    valued: "eftTgAMBCjmErd",
    long: [
      "regexp",
      "file",
      "type",
      "type-not",
      "glob",
      "iglob",
      "after-context",
      "before-context",
      "context",
      "max-count",
      "max-columns",
      "max-depth",
      "max-filesize",
      "replace",
      "encoding",
      "threads",
      "type-add",
      "sort",
      "sortr",
      "pre",
      "pre-glob",
      "ignore-file",
      "context-separator",
      "path-separator",
    ],
    patterns: ["e", "regexp"],
    files: ["f", "file", "files"],
  },
  sed: {
    valued: "efl",
    attached: "i",
    long: ["expression", "file", "line-length"],
    patterns: ["e", "expression"],
    files: ["f", "file"],
  },
  awk: {
    valued: "fvFe",
    long: ["file", "assign", "field-separator", "source", "include", "load"],
    patterns: ["e", "source"],
    files: ["f", "file"],
  },
};
const SEARCH_NAMES = new Map<string, SearchName>([
  ["grep", "grep"],
  ["egrep", "grep"],
  ["fgrep", "grep"],
  ["zgrep", "grep"],
  ["rg", "rg"],
  ["sed", "sed"],
  ["awk", "awk"],
  ["gawk", "awk"],
  ["mawk", "awk"],
  ["nawk", "awk"],
]);

/** Commands that run the command in their words: a search may follow them (`git grep …`). */
const RUNNERS = new Set([...Object.keys(WRAPPERS), "env", "command", "git", "find"]);

/**
 * Refuses when a word of a command (its name and arguments, as the walk hands them on) names a
 * path under a namespace, leaving out the pattern of a search. The search is the command, or the
 * first word named like one after a command that runs another (`timeout 5 grep …`, `git grep
 * …`, `xargs grep …`, `find … -exec grep …`).
 */
export function checkNamespaceCommand(words: readonly Word[], cwd: string | null): void {
  const runs = RUNNERS.has(posix.basename(words[0]?.value ?? ""));
  const at = words.findIndex(
    (word, index) =>
      (index === 0 || runs) && word.value !== null && SEARCH_NAMES.has(posix.basename(word.value)),
  );
  if (at < 0) {
    for (const word of words) checkNamespaceWord(word, cwd);
    return;
  }
  for (const word of words.slice(0, at + 1)) checkNamespaceWord(word, cwd);
  const spec = SEARCHES[SEARCH_NAMES.get(posix.basename(words[at]?.value ?? "")) ?? "grep"];
  const parsed = parseOptions(words.slice(at + 1), spec, false);
  for (const option of parsed.options) {
    if (option.value !== null && !spec.patterns.includes(option.name)) {
      checkNamespaceWord(option.value, cwd);
    }
  }
  // Without `-e` or `-f`, the first operand is the pattern (or the script); the rest are files.
  const given = has(parsed, ...spec.patterns, ...spec.files);
  const files = given ? parsed.operands : parsed.operands.slice(1);
  for (const word of files) checkNamespaceWord(word, cwd);
}

/** Word parts as the parser names them: adjacent ones make one shell word. */
const WORD_PARTS = new Set([
  "word",
  "number",
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "brace_expression",
]);

/**
 * Refuses when a word that is no command's own names a path under a namespace: redirections (read
 * or written), assignments and arrays, `[[ … ]]`, `for … in`, `case` and the defaults inside
 * `${…}`, anywhere in the script, with relative paths left alone. The words of commands are the
 * walk's to hand to checkNamespaceCommand, with the directory they run in; here they are only
 * searched for the `${…}` inside them.
 */
export function checkNamespaceTree(root: ShellNode, home: string): void {
  // A stack, not recursion: a long `a && b && …` nests as deep as it is long.
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (holdsWords(node)) checkWordsIn(node, home);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ShellNode);
  }
}

/** Whether the children of `node` are words of their own: not so within a word, but in `${…}`. */
function holdsWords(node: ShellNode): boolean {
  if (node.type === "expansion") return true;
  return !WORD_PARTS.has(node.type) && node.type !== "command_name";
}

/** Checks the words among the children of `node`, but a command's own and patterns. */
function checkWordsIn(node: ShellNode, home: string): void {
  const skip = new Set<ShellNode>();
  if (node.type === "command") {
    for (const child of node.children) {
      if (child.type === "command_name" || child.field === "argument") skip.add(child);
    }
  }
  if (node.type === "herestring_redirect" || node.type === "case_item") {
    // A here-string is text, not a path; a case item's words are patterns.
    for (const child of node.children) skip.add(child);
  }
  if (node.type === "binary_expression") {
    // `[[ $f == /memory/* ]]`: the right side of a comparison is a pattern.
    const operator = node.children.find((child) => child.field === "operator")?.text ?? "";
    if (["==", "!=", "=", "=~"].includes(operator)) {
      for (const child of node.children) if (child.field === "right") skip.add(child);
    }
  }
  let run: ShellNode[] = [];
  const flush = (): void => {
    for (const word of wordsOf(run, home)) checkNamespaceWord(word, null);
    run = [];
  };
  for (const child of node.children) {
    if (WORD_PARTS.has(child.type) && !skip.has(child)) run.push(child);
    else flush();
  }
  flush();
}
