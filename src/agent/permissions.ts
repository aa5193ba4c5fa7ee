/**
 * The permission rules in front of the sandbox: every bash command the model asks for is parsed
 * with a real shell parser and refused, with a sentence the model can act on, when it would use
 * privileges (`sudo`), change files outside the workspace, do the harness's git work (`git
 * commit`, `git push`, `git reset --hard`) or run something the repository's config denies.
 * Nested commands are checked too: `$(…)`, backticks, `<(…)`, pipelines, lists, subshells,
 * function bodies, `bash -c '…'`, `eval`, and wrappers such as `env`, `timeout`, `xargs` and
 * `find -exec`.
 *
 * This is a lock, not the wall. The sandbox is what stops a command; these rules only catch the
 * worst early and say why, so the loop goes on. Where a word holds an expansion (`$X`, `$(…)`)
 * its value is unknown here: a target path that is not literal is allowed unless its literal
 * start already points outside the workspace (`/etc/$X`, `~/$X`, `$HOME/…`), and a command name
 * that is not literal is not matched at all. What reaches a shell through a pipe (`… | sh`) or a
 * script file (`bash x.sh`) is not seen either. Input the parser cannot read is refused, never
 * allowed.
 *
 * The parser: tree-sitter-bash through web-tree-sitter, chosen over mvdan-sh by
 * bench/permissions-parse.ts (`npm run bench -- permissions-parse`). Two runs on the 2-core dev
 * box (node 24, 226 agent commands, each parser bundled the way scripts/build.mjs bundles):
 *
 *                                       tree-sitter-bash            mvdan-sh (GopherJS)
 *   JS in each bundle                   75 KiB                      1272 KiB
 *   wasm beside the bundles             1532 KiB (two files, once)  none
 *   dist/ growth (index.js + cli.js)    1682 KiB                    2543 KiB
 *   node_modules                        24 MiB (C sources, native   1.5 MiB
 *                                       prebuilds; only the wasm
 *                                       is used)
 *   cold init (import + ready)          60–67 ms                    159–188 ms
 *   parse, median µs/command            8–11                        30–37
 *   parse + walk every node, median µs  10–14                       192–216
 *   hard constructs (heredoc, arithmetic, case, functions, process substitution…): both 18/18
 *   broken inputs reported              14/17                       17/17
 *
 * tree-sitter is 3× faster to parse, 15× faster to walk and smaller in dist/; mvdan-sh's npm
 * build is deprecated upstream (its code was deleted in mvdan/sh#1145) and stuck on an old Go.
 * tree-sitter recovers from errors instead of failing, so a tree with any ERROR or MISSING node is
 * refused; the three broken inputs it accepts are stray keywords (`fi`, `done`, `;;`), which bash
 * rejects before running anything. The whole check (parse, copy, rules) takes about 16 µs.
 */
import { homedir } from "node:os";
import { posix } from "node:path";
import { isInside } from "../sandbox/policy.ts";
import { loadShellParser } from "./shell/parse.ts";
import type { ShellNode, ShellParser } from "./shell/parse.ts";
import type { CommandGate } from "./tools/tool.ts";

export interface PermissionOptions {
  /** The workspace's real path: the only place files may be changed (besides /tmp). */
  workspace: string;
  /** Command prefixes the repository's config denies, e.g. `npm publish` or `curl`. */
  deny?: readonly string[];
  /** `$HOME` as commands see it, for `~` and `$HOME`; this process's home by default. */
  home?: string;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string };

/** Loads the shell parser (once per process) and returns the checker. */
export async function createPermissionChecker(options: PermissionOptions): Promise<CommandGate> {
  return permissionChecker(await loadShellParser(), options);
}

/** The checker over an already loaded parser. */
export function permissionChecker(parser: ShellParser, options: PermissionOptions): CommandGate {
  const rules: Rules = {
    parser,
    workspace: posix.resolve(options.workspace),
    home: posix.resolve(options.home ?? homedir()),
    deny: (options.deny ?? [])
      .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
      .filter((words) => words.length > 0),
  };
  return {
    check(command: string): Verdict {
      try {
        checkScript(rules, command, { cwd: rules.workspace, depth: 0 }, null);
        return { allowed: true };
      } catch (error) {
        if (error instanceof Refusal) return { allowed: false, reason: error.message };
        // A pathological input (nesting deep enough to overflow the stack) or a bug: fail closed.
        if (error instanceof RangeError) {
          return { allowed: false, reason: "this command nests too deeply to check; simplify it." };
        }
        const message = error instanceof Error ? error.message : String(error);
        return {
          allowed: false,
          reason: `could not check this command (${message}); simplify it.`,
        };
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reasons

const REASONS = {
  privileged: (name: string) =>
    `\`${name}\` is refused: commands run in a sandbox without privileges; the workflow must install system packages before pitcrew runs.`,
  gitCommit: () =>
    "`git commit` is refused: the harness commits, pushes and opens the pull request; just leave your changes in the working tree.",
  gitPush: () =>
    "`git push` is refused: the harness pushes and opens the pull request itself; just leave your changes in the working tree.",
  gitResetHard: () =>
    "`git reset --hard` is refused: it throws away work, and the harness owns the branch; to undo changes to a file use `git checkout -- <file>` or `git restore <file>`.",
  outside: (what: string, target: string, workspace: string) =>
    `\`${what}\` outside the workspace is refused: ${target} is outside ${workspace}; only files in the repository (and /tmp) may be changed.`,
  redirect: (target: string, workspace: string) =>
    `writing to ${target} is refused: it is outside ${workspace}; only files in the repository (and /tmp) may be changed.`,
  denied: (entry: string) =>
    `\`${entry}\` is refused: this repository's pitcrew configuration denies it; do the task without it or leave that step to a person.`,
  unparsable: (error: string, inner: string | null) =>
    `could not parse ${inner === null ? "this command" : `the script given to \`${inner}\``}: ${error}; simplify it (plain commands joined with &&, | or ;, arguments quoted).`,
  dynamicScript: (what: string) =>
    `\`${what}\` with an expansion in its script is refused: the script is only known when it runs, so it cannot be checked; write the commands out directly.`,
  tooDeep: () =>
    "this command nests shells too deeply to check (`bash -c` inside `bash -c`…); write the inner command out directly.",
  strayWords: () =>
    "could not parse this command: words after a redirection of a compound command; simplify it.",
};

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

// ---------------------------------------------------------------------------------------------
// State

interface Rules {
  parser: ShellParser;
  workspace: string;
  home: string;
  deny: string[][];
}

/** Where the walk is: the working directory if known (`cd` changes it), and the script nesting. */
interface Scope {
  cwd: string | null;
  depth: number;
}

/** Scripts inside scripts (`bash -c`, `eval`) are re-parsed up to this depth. */
const MAX_DEPTH = 4;

/** A script fed to a shell on standard input: a heredoc or here-string body, or null if unknown. */
type Stdin = { source: string | null } | null;

/**
 * One shell word after the parser: `value` is the word after quote removal (with `~` and
 * `$HOME` expanded) or null when it holds another expansion; `known` is its literal start, up
 * to the first expansion or unquoted glob character; `exact` says the whole word is literal and
 * names one path.
 */
interface Word {
  text: string;
  value: string | null;
  known: string;
  exact: boolean;
  /** Starts with an expansion whose value is unknown. */
  opaque: boolean;
  segments: readonly Segment[];
}

// ---------------------------------------------------------------------------------------------
// Walking the tree

function checkScript(rules: Rules, source: string, scope: Scope, inner: string | null): void {
  if (scope.depth > MAX_DEPTH) refuse(REASONS.tooDeep());
  const parsed = rules.parser.parse(source);
  if (!parsed.ok) refuse(REASONS.unparsable(parsed.error, inner));
  walk(rules, parsed.root, scope);
}

function walk(rules: Rules, node: ShellNode, scope: Scope): void {
  switch (node.type) {
    case "command":
      command(rules, node, scope, []);
      return;
    case "redirected_statement":
      redirected(rules, node, scope);
      return;
    case "file_redirect":
      fileRedirect(rules, node, scope);
      return;
    case "pipeline":
      // Every element runs in its own subshell.
      for (const child of node.children) walk(rules, child, { ...scope });
      return;
    case "subshell":
    case "command_substitution":
    case "process_substitution":
    case "function_definition": {
      const inner = { ...scope };
      for (const child of node.children) walk(rules, child, inner);
      return;
    }
    default:
      for (const child of node.children) walk(rules, child, scope);
  }
}

const REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);

/** `body > target`: the redirects are checked, and stray words after them join the command. */
function redirected(rules: Rules, node: ShellNode, scope: Scope): void {
  const body = node.children.find((child) => child.field === "body");
  const redirects = node.children.filter((child) => REDIRECTS.has(child.type));
  if (body?.type === "command") {
    command(rules, body, scope, redirects);
    return;
  }
  const extra = redirects.flatMap((redirect) => checkRedirect(rules, redirect, scope));
  if (extra.length > 0) refuse(REASONS.strayWords());
  if (body) walk(rules, body, scope);
}

function fileRedirect(rules: Rules, node: ShellNode, scope: Scope): void {
  if (checkRedirect(rules, node, scope).length > 0) refuse(REASONS.strayWords());
}

/**
 * A simple command: its assignments and redirects, then its words, then the rules for what it
 * runs. `outer` are redirects the parser hung on an enclosing `redirected_statement`.
 */
function command(rules: Rules, node: ShellNode, scope: Scope, outer: ShellNode[]): void {
  const parts: ShellNode[] = [];
  const redirects: ShellNode[] = [];
  for (const child of node.children) {
    if (child.type === "command_name") parts.push(...child.children);
    else if (child.field === "argument") parts.push(child);
    else if (REDIRECTS.has(child.type)) redirects.push(child);
    else if (child.named) walk(rules, child, scope); // assignments: `X=$(…) cmd`
  }
  // Substitutions inside the words run first, each in a subshell.
  for (const part of parts) walk(rules, part, { ...scope });
  const words = groupWords(parts).map((group) => wordOf(group, rules.home));
  let stdin: Stdin = null;
  for (const redirect of [...redirects, ...outer]) {
    words.push(...checkRedirect(rules, redirect, scope));
    if (redirect.type === "heredoc_redirect") stdin = { source: heredocBody(redirect) };
    if (redirect.type === "herestring_redirect") {
      const value = redirect.children.filter((c) => c.named);
      stdin = { source: value.length > 0 ? wordOf(value, rules.home).value : null };
    }
  }
  argv(rules, words, scope, stdin);
}

/**
 * Checks a redirect's target (writes outside the workspace are refused) and walks what it holds
 * (substitutions, heredoc bodies, commands the parser hung on a heredoc). Returns the words
 * after the target, which bash gives to the command as arguments.
 */
function checkRedirect(rules: Rules, node: ShellNode, scope: Scope): Word[] {
  if (node.type !== "file_redirect") {
    for (const child of node.children) walk(rules, child, { ...scope });
    return [];
  }
  const destination = node.children.filter((child) => child.field === "destination");
  for (const part of destination) walk(rules, part, { ...scope });
  const [target, ...extra] = groupWords(destination).map((group) => wordOf(group, rules.home));
  const operator = node.children.find((child) => !child.named)?.text ?? "";
  if (target && writes(operator, target)) {
    const location = locate(target, scope.cwd);
    if (!allowedWrite(rules, location)) {
      refuse(REASONS.redirect(describe(target, location), rules.workspace));
    }
  }
  return extra;
}

function writes(operator: string, target: Word): boolean {
  if ([">", ">>", "&>", "&>>", ">|"].includes(operator)) return true;
  // `>&2` duplicates a descriptor; `>& file` writes the file like `&>`.
  if (operator === ">&") return target.value !== null && !/^(\d+-?|-)$/.test(target.value);
  return false;
}

/** The text of a heredoc as the shell reading it sees it, or null if it holds expansions. */
function heredocBody(node: ShellNode): string | null {
  const start = node.children.find((child) => child.type === "heredoc_start");
  const body = node.children.find((child) => child.type === "heredoc_body");
  if (!body) return "";
  const quoted = start !== undefined && /['"\\]/.test(start.text);
  if (quoted) return body.text;
  if (body.children.some((child) => child.named && child.type !== "heredoc_content")) return null;
  return body.text.replace(/\\([$`\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

// ---------------------------------------------------------------------------------------------
// Words

/** Adjacent parts (no space between) are one shell word: `"r"m`, `$"x"`. */
function groupWords(parts: readonly ShellNode[]): ShellNode[][] {
  const groups: ShellNode[][] = [];
  let previous: ShellNode | undefined;
  for (const part of parts) {
    const last = groups.at(-1);
    if (last && previous && previous.end === part.start) last.push(part);
    else groups.push([part]);
    previous = part;
  }
  return groups;
}

type Segment = { literal: true; text: string; quoted: boolean } | { literal: false };

const UNKNOWN: Segment = { literal: false };

function wordOf(parts: readonly ShellNode[], home: string): Word {
  const segments: Segment[] = [];
  parts.forEach((part, index) => {
    const next = parts[index + 1];
    // `$"…"` (a translated string) comes as a `$` token before the string.
    if (!part.named && part.text === "$" && next?.type === "string") return;
    addSegments(part, home, segments);
  });
  // Tilde expansion: `~` or `~/…` at the start of an unquoted word.
  const first = segments[0];
  if (first?.literal && !first.quoted && first.text.startsWith("~")) {
    if (first.text === "~" || first.text.startsWith("~/")) {
      segments.splice(0, 1, { literal: true, text: home, quoted: true });
      if (first.text.length > 1) {
        segments.splice(1, 0, { literal: true, text: first.text.slice(1), quoted: false });
      }
    } else {
      segments.splice(0, 1, UNKNOWN);
    }
  }
  return wordFrom(segments, parts.map((part) => part.text).join(""));
}

function wordFrom(segments: readonly Segment[], text: string): Word {
  let value: string | null = "";
  let known = "";
  let open = true;
  let exact = true;
  for (const segment of segments) {
    if (!segment.literal) {
      value = null;
      open = false;
      exact = false;
      continue;
    }
    if (value !== null) value += segment.text;
    if (!open) continue;
    const glob = segment.quoted ? -1 : segment.text.search(/[*?[]/);
    if (glob >= 0) {
      known += segment.text.slice(0, glob);
      open = false;
      exact = false;
    } else {
      known += segment.text;
    }
  }
  return { text, value, known, exact, opaque: segments[0]?.literal === false, segments };
}

function addSegments(node: ShellNode, home: string, into: Segment[]): void {
  switch (node.type) {
    case "word":
    case "number":
    case "test_operator":
    case "extglob_pattern":
    case "regex":
      into.push(...unquoted(node.text));
      return;
    case "raw_string":
      into.push({ literal: true, text: node.text.slice(1, -1), quoted: true });
      return;
    case "ansi_c_string":
      into.push({ literal: true, text: ansiC(node.text.slice(2, -1)), quoted: true });
      return;
    case "string":
    case "translated_string": {
      // The literal text is what lies between the expansions inside the quotes.
      const open = node.text.indexOf('"') + 1;
      let at = node.start + open;
      const close = node.end - 1;
      const source = (from: number, to: number): string =>
        node.text.slice(from - node.start, to - node.start);
      for (const child of node.children) {
        if (!child.named || child.type === "string_content") continue;
        if (child.start > at) into.push(doubleQuoted(source(at, child.start)));
        into.push(expansion(child, home));
        at = child.end;
      }
      if (close > at) into.push(doubleQuoted(source(at, close)));
      return;
    }
    case "concatenation":
      for (const child of node.children) addSegments(child, home, into);
      return;
    case "simple_expansion":
    case "expansion":
      into.push(expansion(node, home));
      return;
    default:
      if (!node.named) into.push({ literal: true, text: node.text, quoted: false });
      else into.push(UNKNOWN); // substitutions, arithmetic, brace expansion
  }
}

function expansion(node: ShellNode, home: string): Segment {
  if (node.text === "$HOME" || node.text === "${HOME}") {
    return { literal: true, text: home, quoted: true };
  }
  return UNKNOWN;
}

/** An unquoted word: `\x` is a quoted x, a backslash-newline disappears. */
function unquoted(text: string): Segment[] {
  if (!text.includes("\\")) return [{ literal: true, text, quoted: false }];
  const segments: Segment[] = [];
  let plain = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    if (char !== "\\") {
      plain += char;
      continue;
    }
    const escaped = text[++i] ?? "";
    if (escaped === "\n") continue;
    if (plain) segments.push({ literal: true, text: plain, quoted: false });
    plain = "";
    segments.push({ literal: true, text: escaped, quoted: true });
  }
  if (plain) segments.push({ literal: true, text: plain, quoted: false });
  return segments;
}

function doubleQuoted(text: string): Segment {
  const value = text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
  return { literal: true, text: value, quoted: true };
}

const C_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The body of `$'…'` with its escapes decoded. */
function ansiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, escape: string) => {
      const kind = escape[0] ?? "";
      if (kind === "x" || kind === "u" || kind === "U") {
        return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(escape, 8) & 0xff);
      if (kind === "c") return String.fromCharCode((escape.charCodeAt(1) || 0) & 0x1f);
      return C_ESCAPES[kind] ?? whole;
    },
  );
}

/** A literal word, as `find -exec {}` and git aliases make them. */
function literalWord(value: string): Word {
  return wordFrom([{ literal: true, text: value, quoted: true }], value);
}

/** The part of `word` after its first `length` literal characters (`/x` of `of=/x`). */
function tail(word: Word, length: number): Word {
  const segments: Segment[] = [];
  let skip = length;
  for (const segment of word.segments) {
    if (skip > 0 && segment.literal) {
      if (segment.text.length <= skip) {
        skip -= segment.text.length;
        continue;
      }
      segments.push({ ...segment, text: segment.text.slice(skip) });
      skip = 0;
      continue;
    }
    skip = 0;
    segments.push(segment);
  }
  return wordFrom(segments, word.text.slice(length));
}

// ---------------------------------------------------------------------------------------------
// Paths

/** Where a target lies: one known path, somewhere under a known folder, or unknown. */
type Location = { path: string } | { under: string } | null;

function locate(word: Word, cwd: string | null): Location {
  const from = (path: string): string | null =>
    path.startsWith("/") ? posix.resolve(path) : cwd === null ? null : posix.resolve(cwd, path);
  if (word.exact && word.value !== null) {
    const path = from(word.value);
    return path === null ? null : { path };
  }
  if (word.opaque) return null;
  const folder = word.known.slice(0, word.known.lastIndexOf("/") + 1);
  const under = from(folder === "" ? "." : folder);
  return under === null ? null : { under };
}

const DEVICES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** Paths a command may change: the workspace, the sandbox's private /tmp, the output devices. */
function allowedWrite(rules: Rules, location: Location): boolean {
  if (location === null) return true; // unknown: the sandbox decides
  if ("path" in location) {
    const path = location.path;
    return (
      isInside(path, rules.workspace) ||
      isInside(path, "/tmp") ||
      DEVICES.has(path) ||
      path.startsWith("/dev/fd/")
    );
  }
  return isInside(location.under, rules.workspace) || isInside(location.under, "/tmp");
}

function describe(word: Word, location: Location): string {
  if (location === null) return word.text;
  return "path" in location ? location.path : `${word.text} (in ${location.under})`;
}

function checkTargets(rules: Rules, what: string, targets: readonly Word[], scope: Scope): void {
  for (const target of targets) {
    const location = locate(target, scope.cwd);
    if (!allowedWrite(rules, location)) {
      refuse(REASONS.outside(what, describe(target, location), rules.workspace));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Options

interface OptionSpec {
  /** Short options that take a value (attached or the next word). */
  valued?: string;
  /** Short options whose value may only be attached (`sed -i.bak`). */
  attached?: string;
  /** Long options that take the next word as value when written without `=`. */
  long?: readonly string[];
}

interface Parsed {
  /** Options in order: the name without dashes (`t`, `target-directory`) and its value. */
  options: { name: string; value: Word | null }[];
  operands: Word[];
  /** Index in the input of the first word after the leading options (for wrappers). */
  rest: number;
}

/**
 * GNU-style option parsing. With `leading`, stops at the first operand (a wrapper's command);
 * otherwise options and operands may mix. `--` ends the options; a word that is not literal is
 * an operand.
 */
function parseOptions(words: readonly Word[], spec: OptionSpec, leading: boolean): Parsed {
  const options: Parsed["options"] = [];
  const operands: Word[] = [];
  let i = 0;
  let ended = false;
  for (; i < words.length; i++) {
    const word = words[i] as Word;
    const value = word.value;
    if (ended || value === null || !value.startsWith("-") || value === "-") {
      if (leading) break;
      operands.push(word);
      continue;
    }
    if (value === "--") {
      ended = true;
      if (leading) {
        i++;
        break;
      }
      continue;
    }
    if (value.startsWith("--")) {
      const equals = value.indexOf("=");
      const name = value.slice(2, equals < 0 ? undefined : equals);
      if (equals >= 0) options.push({ name, value: tail(word, equals + 1) });
      else if (spec.long?.includes(name)) options.push({ name, value: words[++i] ?? null });
      else options.push({ name, value: null });
      continue;
    }
    for (let at = 1; at < value.length; at++) {
      const letter = value[at] as string;
      const rest = value.slice(at + 1);
      if (spec.valued?.includes(letter)) {
        options.push({ name: letter, value: rest ? tail(word, at + 1) : (words[++i] ?? null) });
        break;
      }
      if (spec.attached?.includes(letter)) {
        options.push({ name: letter, value: rest ? tail(word, at + 1) : null });
        break;
      }
      options.push({ name: letter, value: null });
    }
  }
  return { options, operands, rest: i };
}

function has(parsed: Parsed, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

function optionValues(parsed: Parsed, ...names: string[]): Word[] {
  return parsed.options
    .filter((option) => names.includes(option.name) && option.value !== null)
    .map((option) => option.value as Word);
}

// ---------------------------------------------------------------------------------------------
// Commands

const PRIVILEGED = new Set(["sudo", "su", "doas", "pkexec", "run0"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh"]);

/** Wrappers that run the rest of their words as a command: options, then the command. */
const WRAPPERS: Record<string, OptionSpec & { operands?: number }> = {
  nice: { valued: "n", long: ["adjustment"] },
  nohup: {},
  timeout: { valued: "sk", long: ["signal", "kill-after"], operands: 1 },
  time: { valued: "fo", long: ["format", "output"] },
  exec: { valued: "a" },
  builtin: {},
  coproc: {},
  setsid: {},
  stdbuf: { valued: "ioe", long: ["input", "output", "error"] },
  ionice: { valued: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  busybox: {},
  xargs: {
    valued: "adEILnPs",
    attached: "eil",
    long: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars"],
  },
};

/**
 * The rules for one command's words (after assignments), unwrapping wrappers one layer at a
 * time: `env X=1 timeout 5 xargs rm` checks `env`, `timeout`, `xargs` and `rm`.
 */
function argv(rules: Rules, words: Word[], scope: Scope, stdin: Stdin): void {
  let current = words;
  let cwd = scope.cwd;
  for (;;) {
    const name = current[0]?.value;
    if (name === undefined || name === null) return; // nothing to run, or unknown: the sandbox decides
    const base = posix.basename(name);
    checkDenied(rules, current);
    if (PRIVILEGED.has(base)) refuse(REASONS.privileged(base));
    const args = current.slice(1);
    const layer: Scope = { ...scope, cwd };

    if (base === "env") {
      const parsed = parseOptions(
        args,
        { valued: "uCS", long: ["unset", "chdir", "split-string"] },
        true,
      );
      let rest = args.slice(parsed.rest);
      while (rest[0]?.value != null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].value)) {
        rest = rest.slice(1);
      }
      for (const dir of optionValues(parsed, "C", "chdir")) cwd = changeDir(cwd, dir);
      const split = optionValues(parsed, "S", "split-string")[0];
      if (split) {
        if (split.value === null) refuse(REASONS.dynamicScript("env -S"));
        const source = [split.value, ...rest.map((word) => word.text)].join(" ");
        checkScript(rules, source, { cwd, depth: scope.depth + 1 }, "env -S");
        return;
      }
      current = rest;
      continue;
    }
    if (base === "command") {
      const parsed = parseOptions(args, {}, true);
      if (has(parsed, "v", "V")) return; // only looks the name up
      current = args.slice(parsed.rest);
      continue;
    }
    const wrapper = WRAPPERS[base];
    if (wrapper) {
      const parsed = parseOptions(args, wrapper, true);
      current = args.slice(parsed.rest + (wrapper.operands ?? 0));
      if (base === "xargs" && current.length === 0) return; // xargs alone runs echo
      continue;
    }
    if (SHELLS.has(base)) {
      shell(rules, base, args, layer, stdin);
      return;
    }
    switch (base) {
      case "eval": {
        if (args.some((word) => word.value === null)) refuse(REASONS.dynamicScript("eval"));
        const source = args.map((word) => word.value).join(" ");
        checkScript(rules, source, { cwd, depth: scope.depth + 1 }, "eval");
        return;
      }
      case "trap": {
        // `trap 'commands' SIGNAL…`: the first word is a script run later.
        const [action, ...signals] = parseOptions(args, {}, false).operands;
        if (!action || signals.length === 0 || action.value === "-") return;
        if (action.value === null) refuse(REASONS.dynamicScript("trap"));
        checkScript(rules, action.value, { cwd, depth: scope.depth + 1 }, "trap");
        return;
      }
      case "git":
        git(rules, args, layer);
        return;
      case "find":
        find(rules, args, layer);
        return;
      case "cd":
      case "pushd": {
        const operands = parseOptions(args, {}, false).operands;
        scope.cwd = operands[0] ? changeDir(cwd, operands[0]) : base === "cd" ? rules.home : cwd;
        return;
      }
      case "popd":
        scope.cwd = null;
        return;
      default:
        pathRules(rules, base, args, layer);
        return;
    }
  }
}

function changeDir(cwd: string | null, dir: Word): string | null {
  if (!dir.exact || dir.value === null || dir.value === "-") return null;
  if (dir.value.startsWith("/")) return posix.resolve(dir.value);
  return cwd === null ? null : posix.resolve(cwd, dir.value);
}

function checkDenied(rules: Rules, words: readonly Word[]): void {
  for (const entry of rules.deny) {
    if (entry.length > words.length) continue;
    const matches = entry.every((expected, index) => {
      const value = words[index]?.value;
      if (value === null || value === undefined) return false;
      return value === expected || (index === 0 && posix.basename(value) === expected);
    });
    if (matches) refuse(REASONS.denied(entry.join(" ")));
  }
}

/** `bash -c 'script'` re-parses the script; `bash <<EOF` reads the heredoc as the script. */
function shell(rules: Rules, name: string, args: Word[], scope: Scope, stdin: Stdin): void {
  let script = false;
  let operand: Word | undefined;
  let fromStdin = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const value = word.value;
    if (value === null || !/^[-+]/.test(value) || value === "-" || value === "--") {
      if (value === "-" || value === "--") {
        operand = args[i + 1];
        fromStdin = value === "-" && !script;
      } else {
        operand = word;
      }
      break;
    }
    if (value.startsWith("--")) {
      if (value === "--rcfile" || value === "--init-file") i++;
      continue;
    }
    const letters = value.slice(1);
    if (letters.includes("c")) script = true;
    if (letters.includes("s")) fromStdin = true;
    i += [...letters].filter((letter) => letter === "o" || letter === "O").length;
  }
  if (script) {
    if (operand === undefined) return; // bash reports the missing argument
    if (operand.value === null) refuse(REASONS.dynamicScript(`${name} -c`));
    checkScript(rules, operand.value, { cwd: scope.cwd, depth: scope.depth + 1 }, `${name} -c`);
    return;
  }
  if ((operand === undefined || fromStdin) && stdin !== null) {
    if (stdin.source === null) refuse(REASONS.dynamicScript(name));
    checkScript(rules, stdin.source, { cwd: scope.cwd, depth: scope.depth + 1 }, name);
  }
  // A script file or a pipe on standard input: not visible here; the sandbox decides.
}

const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);

/** The harness owns git: `commit`, `push` and `reset --hard` are refused, options or not. */
function git(rules: Rules, args: Word[], scope: Scope): void {
  const aliases = new Map<string, string>();
  let i = 0;
  for (; i < args.length; i++) {
    const value = args[i]?.value;
    if (value === null || value === undefined) return; // unknown subcommand
    if (!value.startsWith("-")) break;
    if (GIT_VALUED.has(value)) {
      const setting = args[++i]?.value;
      const alias = setting?.match(/^alias\.([^=]+)=(.*)$/s);
      if (value === "-c" && alias?.[1] && alias[2] !== undefined) aliases.set(alias[1], alias[2]);
    }
  }
  let subcommand = args[i]?.value;
  let rest = args.slice(i + 1);
  const alias = subcommand ? aliases.get(subcommand) : undefined;
  if (alias !== undefined) {
    if (alias.startsWith("!")) {
      checkScript(rules, alias.slice(1), { cwd: scope.cwd, depth: scope.depth + 1 }, "git alias");
      return;
    }
    const [first, ...more] = alias.trim().split(/\s+/);
    subcommand = first;
    rest = [...more.map(literalWord), ...rest];
  }
  if (subcommand === "commit") refuse(REASONS.gitCommit());
  if (subcommand === "push") refuse(REASONS.gitPush());
  if (subcommand === "reset" && rest.some((word) => word.value === "--hard")) {
    refuse(REASONS.gitResetHard());
  }
}

const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);

/** `find ROOTS… -exec CMD {} ;` checks CMD with `{}` standing for each root; `-delete` deletes. */
function find(rules: Rules, args: Word[], scope: Scope): void {
  let i = 0;
  while (i < args.length) {
    const value = args[i]?.value;
    if (value === "-H" || value === "-L" || value === "-P" || value?.startsWith("-O")) i++;
    else if (value === "-D") i += 2;
    else break;
  }
  const roots: Word[] = [];
  for (; i < args.length; i++) {
    const word = args[i] as Word;
    const value = word.value;
    if (value !== null && (value.startsWith("-") || ["(", ")", "!", ","].includes(value))) break;
    roots.push(word);
  }
  if (roots.length === 0) roots.push(literalWord("."));
  for (; i < args.length; i++) {
    const value = args[i]?.value;
    if (value === "-delete") checkTargets(rules, "find -delete", roots, scope);
    if (value && FIND_WRITES.has(value)) {
      checkTargets(rules, `find ${value}`, args.slice(i + 1, i + 2), scope);
    }
    if (!value || !FIND_ACTIONS.has(value)) continue;
    const end = args.findIndex(
      (word, index) => index > i && (word.value === ";" || word.value === "+"),
    );
    const segment = args.slice(i + 1, end < 0 ? undefined : end);
    for (const root of roots) {
      const command = segment.map((word) => {
        if (word.value === null || !word.value.includes("{}")) return word;
        if (root.exact && root.value !== null) {
          return literalWord(word.value.replaceAll("{}", root.value));
        }
        return wordFrom([UNKNOWN], word.text);
      });
      argv(rules, command, { ...scope }, null);
    }
    if (end < 0) return;
    i = end;
  }
}

/** Commands that delete or change files: which of their words are the files changed. */
function pathRules(rules: Rules, base: string, args: Word[], scope: Scope): void {
  const targets = (what: string, words: readonly Word[]): void =>
    checkTargets(rules, what, words, scope);
  switch (base) {
    case "rm":
    case "rmdir":
    case "unlink":
    case "tee":
      targets(base, parseOptions(args, {}, false).operands);
      return;
    case "shred":
      targets(
        base,
        parseOptions(args, { valued: "ns", long: ["iterations", "size"] }, false).operands,
      );
      return;
    case "truncate":
      targets(
        base,
        parseOptions(args, { valued: "sr", long: ["size", "reference"] }, false).operands,
      );
      return;
    case "mv": {
      const parsed = parseOptions(
        args,
        { valued: "tS", long: ["target-directory", "suffix"] },
        false,
      );
      targets(base, [...optionValues(parsed, "t", "target-directory"), ...parsed.operands]);
      return;
    }
    case "cp":
    case "ln":
    case "install": {
      const spec = {
        valued: "tSmog",
        long: ["target-directory", "suffix", "mode", "owner", "group"],
      };
      const parsed = parseOptions(args, spec, false);
      const directories = optionValues(parsed, "t", "target-directory");
      if (base === "install" && has(parsed, "d", "directory")) {
        targets(base, parsed.operands);
      } else if (directories.length > 0) {
        targets(base, directories);
      } else if (base === "ln" && parsed.operands.length === 1) {
        targets(base, [literalWord(".")]);
      } else {
        targets(base, parsed.operands.slice(-1));
      }
      return;
    }
    case "chmod":
    case "chown":
    case "chgrp": {
      // `chmod -x file`: a word that looks like an option but is not one is the mode.
      const flags = base === "chmod" ? /^-[cfvR]+$/ : /^-[cfvhHLPR]+$/;
      const words = args.map((word) =>
        word.value !== null &&
        word.value.startsWith("-") &&
        !word.value.startsWith("--") &&
        !flags.test(word.value)
          ? { ...word, value: `mode:${word.value}` }
          : word,
      );
      const parsed = parseOptions(words, {}, false);
      const byReference = has(parsed, "reference");
      targets(base, parsed.operands.slice(byReference ? 0 : 1));
      return;
    }
    case "dd":
      targets(
        "dd of=",
        args.filter((word) => word.known.startsWith("of=")).map((word) => tail(word, 3)),
      );
      return;
    case "sed": {
      const parsed = parseOptions(
        args,
        { valued: "efl", attached: "i", long: ["expression", "file", "line-length"] },
        false,
      );
      if (!has(parsed, "i", "in-place")) return;
      const scripted = has(parsed, "e", "f", "expression", "file");
      targets("sed -i", parsed.operands.slice(scripted ? 0 : 1));
      return;
    }
  }
}
