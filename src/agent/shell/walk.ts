/**
 * Walks a parsed bash script down to its simple commands, through lists, pipelines, subshells,
 * `$(…)`, backticks, `<(…)`, function bodies and redirects, and hands each command (its words
 * and what a heredoc feeds it) and each file a redirect writes to a visitor, in the order they
 * run. It decides nothing: what a command or a write may do is the visitor's business.
 */
import type { ShellNode } from "./parse.ts";
import { tail, wordOf, wordsOf } from "./words.ts";
import type { Word } from "./words.ts";

/**
 * Where the walk is: the working directory if known (`cd` changes it), the script nesting, and
 * whether standard input comes from another command or a file not written out (`… | bash`,
 * `bash < <(…)` read their script there).
 */
export interface Scope {
  cwd: string | null;
  depth: number;
  piped?: boolean;
}

/** A script fed to a shell on standard input: a heredoc or here-string body, or null if unknown. */
export type Stdin = { source: string | null } | null;

/** What the walk finds, handed on as it goes; `command` may change `scope.cwd` for what follows. */
export interface CommandVisitor {
  /** `$HOME` as commands see it, for `~` and `$HOME` in words. */
  home: string;
  /** A simple command's words (without its assignments), after the substitutions in them. */
  command(words: Word[], scope: Scope, stdin: Stdin): void;
  /** The target of a redirect that writes a file: `>`, `>>`, `&>`, `&>>`, `>|`, `>& file`. */
  write(target: Word, scope: Scope): void;
  /** Words left after a redirect that belongs to no simple command (`{ …; } > f x`). */
  stray(): never;
  /** A variable set (`X=…`, `export X=…`): its name and value (null when it has none). */
  assign(name: string, value: Word | null, scope: Scope): void;
  /** `${X@P}`: a value expanded as a prompt, which runs the `$(…)` in it. */
  prompt(text: string): void;
}

/** Walks `node` and everything under it; subshells get a copy of `scope`. */
export function walk(visitor: CommandVisitor, node: ShellNode, scope: Scope): void {
  switch (node.type) {
    case "command":
      command(visitor, node, scope, []);
      return;
    case "redirected_statement":
      redirected(visitor, node, scope);
      return;
    case "file_redirect":
      fileRedirect(visitor, node, scope);
      return;
    case "pipeline": {
      // Every element runs in its own subshell; all but the first read the pipe.
      const elements = node.children.filter((child) => child.named);
      elements.forEach((child, index) =>
        walk(visitor, child, { ...scope, piped: index > 0 || scope.piped === true }),
      );
      return;
    }
    case "variable_assignment":
      assignment(visitor, node, scope);
      return;
    case "expansion":
      if (/@P\}$/.test(node.text)) visitor.prompt(node.text);
      for (const child of node.children) walk(visitor, child, scope);
      return;
    case "declaration_command":
      declaration(visitor, node, scope);
      return;
    case "subshell":
    case "command_substitution":
    case "process_substitution":
    case "function_definition": {
      const inner = { ...scope };
      for (const child of node.children) walk(visitor, child, inner);
      return;
    }
    default:
      for (const child of node.children) walk(visitor, child, scope);
  }
}

/** `NAME=value` (also `NAME[i]=value`): handed on, and the substitutions in it walked. */
function assignment(visitor: CommandVisitor, node: ShellNode, scope: Scope): void {
  const nameNode = node.children.find((child) => child.field === "name");
  const name =
    nameNode?.type === "subscript"
      ? nameNode.children.find((child) => child.type === "variable_name")?.text
      : nameNode?.text;
  const value = node.children.filter((child) => child.field === "value");
  // `a[$(…)]=…`: the index is expanded too.
  for (const child of node.children) walk(visitor, child, { ...scope });
  if (name !== undefined) {
    visitor.assign(name, value.length > 0 ? wordOf(value, visitor.home) : null, scope);
  }
}

/** `export`/`declare`/`local`…: assignments, also those written as quoted words (`export "X=1"`). */
function declaration(visitor: CommandVisitor, node: ShellNode, scope: Scope): void {
  for (const child of node.children) {
    if (child.type === "variable_assignment") {
      assignment(visitor, child, scope);
      continue;
    }
    walk(visitor, child, { ...scope });
    if (!child.named || child.type === "variable_name") continue;
    const word = wordOf([child], visitor.home);
    const equals = word.value?.indexOf("=") ?? -1;
    if (word.value !== null && equals > 0 && !word.value.startsWith("-")) {
      visitor.assign(
        word.value.slice(0, equals).replace(/\[.*$/, ""),
        tail(word, equals + 1),
        scope,
      );
    }
  }
}

const REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);

/**
 * `body > target`: the redirects are walked; words after them join the body when it is a simple
 * command, and are `stray` otherwise.
 */
function redirected(visitor: CommandVisitor, node: ShellNode, scope: Scope): void {
  const body = node.children.find((child) => child.field === "body");
  const redirects = node.children.filter((child) => REDIRECTS.has(child.type));
  if (body?.type === "command") {
    command(visitor, body, scope, redirects);
    return;
  }
  const extra = redirects.flatMap((redirect) => visitRedirect(visitor, redirect, scope));
  if (extra.length > 0) visitor.stray();
  if (body) walk(visitor, body, scope);
}

/** A redirect standing alone: words after its target belong to no command. */
function fileRedirect(visitor: CommandVisitor, node: ShellNode, scope: Scope): void {
  if (visitRedirect(visitor, node, scope).length > 0) visitor.stray();
}

/**
 * A simple command: its assignments and the substitutions in its words and redirects, then the
 * command itself with the words and stdin its redirects add. `outer` are redirects the parser
 * hung on an enclosing `redirected_statement`.
 */
function command(visitor: CommandVisitor, node: ShellNode, scope: Scope, outer: ShellNode[]): void {
  const parts: ShellNode[] = [];
  const redirects: ShellNode[] = [];
  for (const child of node.children) {
    if (child.type === "command_name") parts.push(...child.children);
    else if (child.field === "argument") parts.push(child);
    else if (REDIRECTS.has(child.type)) redirects.push(child);
    else if (child.named) walk(visitor, child, scope); // assignments: `X=$(…) cmd`
  }
  // Substitutions inside the words run first, each in a subshell.
  for (const part of parts) walk(visitor, part, { ...scope });
  const words = wordsOf(parts, visitor.home);
  let stdin: Stdin = null;
  let fromCommand = false;
  for (const redirect of [...redirects, ...outer]) {
    words.push(...visitRedirect(visitor, redirect, scope));
    // `< <(…)`, `< "$F"`: standard input whose content only a command or a value decides.
    if (redirect.type === "file_redirect" && readsUnknown(redirect, visitor.home)) {
      fromCommand = true;
    }
    if (redirect.type === "heredoc_redirect") stdin = { source: heredocBody(redirect) };
    if (redirect.type === "herestring_redirect") {
      const value = redirect.children.filter((c) => c.named);
      stdin = { source: value.length > 0 ? wordOf(value, visitor.home).value : null };
    }
  }
  visitor.command(words, fromCommand ? { ...scope, piped: true } : scope, stdin);
}

/** Whether `redirect` (a `file_redirect`) feeds standard input from a file not written out. */
function readsUnknown(redirect: ShellNode, home: string): boolean {
  const operator = redirect.children.find((child) => !child.named)?.text;
  const descriptor = redirect.children.find((child) => child.type === "file_descriptor")?.text;
  if (operator !== "<" || (descriptor !== undefined && descriptor !== "0")) return false;
  const destination = redirect.children.filter((child) => child.field === "destination");
  return wordsOf(destination, home)[0]?.value === null;
}

/**
 * Walks what a redirect holds (substitutions, heredoc bodies, commands the parser hung on a
 * heredoc) and hands on the file it writes, if any. Returns the words after the target, which
 * bash gives to the command as arguments.
 */
function visitRedirect(visitor: CommandVisitor, node: ShellNode, scope: Scope): Word[] {
  if (node.type !== "file_redirect") {
    for (const child of node.children) walk(visitor, child, { ...scope });
    return [];
  }
  const destination = node.children.filter((child) => child.field === "destination");
  for (const part of destination) walk(visitor, part, { ...scope });
  const [target, ...extra] = wordsOf(destination, visitor.home);
  const operator = node.children.find((child) => !child.named)?.text ?? "";
  if (target && writes(operator, target)) visitor.write(target, scope);
  return extra;
}

/** Whether a redirect with `operator` writes to `target` as a file. */
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
