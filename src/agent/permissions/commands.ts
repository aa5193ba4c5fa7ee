/**
 * The rules for one simple command, layer by layer: denied commands and privileged ones are
 * refused at every layer, wrappers (`env`, `timeout`, `xargs`, `command`, `find -exec`, the
 * table in wrappers.ts) are unwrapped, scripts handed to a shell (`bash -c`, `eval`, `trap`, a
 * heredoc fed to `sh`, `watch '…'`, an alias) are parsed and checked in turn, and what is left
 * goes to the git and file rules. Every word that names a path in the memory or skills namespaces
 * is refused first (namespaces.ts). When the repository denies commands, whatever runs a string
 * the parser cannot see (`source <(…)`, `$X publish`, `PROMPT_COMMAND=…`) is refused too, since
 * it could be a denied one. Shell syntax is the walk's business (shell/walk.ts); the sentences
 * are in reasons.ts.
 */
import { posix } from "node:path";
import type { ShellParser } from "../shell/parse.ts";
import { has, optionValues, parseOptions } from "../shell/options.ts";
import { walk } from "../shell/walk.ts";
import type { Scope, Stdin } from "../shell/walk.ts";
import { globPattern, literalWord, tail, unknownWord } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { matchDeny, nameMatches } from "./deny.ts";
import type { DenyRule } from "./deny.ts";
import { checkFileChanges, FILE_COMMANDS } from "./files.ts";
import { checkGit } from "./git.ts";
import { checkNamespaceCommand, checkNamespaceTree, checkNamespaceWord } from "./namespaces.ts";
import { checkRedirectTarget, checkTargets } from "./paths.ts";
import { REASONS, refuse } from "./reasons.ts";
import {
  aliasValue,
  checkVariable,
  make,
  SETS_BY_NAME,
  setsByName,
  STDIN_PATHS,
  STRING_COMMANDS,
  stringCommand,
  unseen,
} from "./strings.ts";
import type { Checks } from "./strings.ts";
import { parallelScripts, unwrap, WRAPPERS } from "./wrappers.ts";

/**
 * What the rules stand on: the parser, the workspace, `$HOME`, the denied commands as words, and
 * `strict`: whether there are any, so that what cannot be seen through must be refused.
 */
export interface Rules {
  parser: ShellParser;
  workspace: string;
  home: string;
  deny: readonly DenyRule[];
  strict: boolean;
}

/** What strings.ts needs: whether to fail closed, and how to check a script one level down. */
function checks(rules: Rules): Checks {
  return {
    strict: rules.strict,
    script: (source, scope, what) =>
      checkScript(rules, source, { ...scope, depth: scope.depth + 1 }, what),
  };
}

/** Scripts inside scripts (`bash -c`, `eval`) are re-parsed up to this depth. */
const MAX_DEPTH = 4;

/**
 * Parses `source` and checks every command and write in it; `inner` names the command that
 * handed it the script (`bash -c`), null for the command line itself.
 */
export function checkScript(
  rules: Rules,
  source: string,
  scope: Scope,
  inner: string | null,
): void {
  if (scope.depth > MAX_DEPTH) refuse(REASONS.tooDeep());
  const parsed = rules.parser.parse(source);
  if (!parsed.ok) refuse(REASONS.unparsable(parsed.error, inner));
  checkNamespaceTree(parsed.root, rules.home);
  walk(
    {
      home: rules.home,
      command: (words, at, stdin) => {
        checkNamespaceCommand(words, at.cwd);
        argv(rules, words, at, stdin);
      },
      write: (target, at) => {
        checkNamespaceWord(target, at.cwd);
        checkRedirectTarget(rules.workspace, target, at.cwd);
      },
      stray: () => refuse(REASONS.strayWords()),
      assign: (name, value, at) => checkVariable(checks(rules), name, value, at),
      prompt: (text) =>
        unseen(
          rules,
          REASONS.unseen(text, "it expands a value as a prompt, running the commands in it"),
        ),
    },
    parsed.root,
    scope,
  );
}

/** Commands that run another with more privileges than the sandbox grants. */
const PRIVILEGED = new Set(["sudo", "su", "doas", "pkexec", "run0"]);
/** Shells whose `-c` script or standard input is a script to check. */
const SHELLS = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "mksh",
  "rbash",
  "yash",
  "posh",
  "fish",
  "csh",
  "tcsh",
]);

/**
 * Every name these rules treat apart, so that a command name written as a glob (`/usr/bin/np?`,
 * `/bin/r?`) is checked as each of them it could be.
 */
const KNOWN = new Set([
  ...PRIVILEGED,
  ...SHELLS,
  ...Object.keys(WRAPPERS),
  ...STRING_COMMANDS,
  ...FILE_COMMANDS,
  "env",
  "command",
  "eval",
  "trap",
  "git",
  "find",
  "cd",
  "pushd",
  "popd",
  "source",
  ".",
  "alias",
  "hash",
  "make",
  "parallel",
]);

/**
 * The rules for one command's words (after assignments), unwrapping wrappers one layer at a
 * time: `env X=1 timeout 5 xargs rm` checks `env`, `timeout`, `xargs` and `rm`.
 */
function argv(rules: Rules, words: Word[], scope: Scope, stdin: Stdin): void {
  let current = words;
  let cwd = scope.cwd;
  for (;;) {
    const first = current[0];
    if (first === undefined) return; // nothing to run
    if (first.value === null) {
      // A command name only known when it runs (`$X publish`, `"$@"`): it could be anything.
      if (rules.strict) checkDenied(rules, current);
      return;
    }
    const glob = globPattern(first);
    if (glob) {
      const candidates = [...KNOWN, ...rules.deny.map((rule) => rule[0] ?? "")].filter(
        (name) => name !== "" && nameMatches(first, name) === "yes",
      );
      if (candidates.length > 0) {
        for (const name of new Set(candidates)) {
          argv(rules, [literalWord(name), ...current.slice(1)], { ...scope, cwd }, stdin);
        }
        return;
      }
    }
    const name = first.value;
    const base = posix.basename(name);
    if (base !== "git") checkDenied(rules, current);
    if (PRIVILEGED.has(base)) refuse(REASONS.privileged(base));
    const args = current.slice(1);
    const layer: Scope = { ...scope, cwd };
    const nested = (source: string, what: string): void =>
      checkScript(rules, source, { ...layer, depth: scope.depth + 1 }, what);

    if (base === "env") {
      const parsed = parseOptions(
        args,
        { valued: "uCS", long: ["unset", "chdir", "split-string"] },
        true,
      );
      let rest = args.slice(parsed.rest);
      while (rest[0]?.value != null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].value)) {
        const value = rest[0].value;
        const equals = value.indexOf("=");
        checkVariable(checks(rules), value.slice(0, equals), tail(rest[0], equals + 1), layer);
        rest = rest.slice(1);
      }
      for (const dir of optionValues(parsed, "C", "chdir")) cwd = changeDir(cwd, dir);
      const split = optionValues(parsed, "S", "split-string")[0];
      if (split) {
        if (split.value === null) refuse(REASONS.dynamicScript("env -S"));
        nested([split.value, ...rest.map((word) => word.text)].join(" "), "env -S");
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
    if (base === "parallel") {
      const scripts = parallelScripts(args);
      if (scripts === "stdin") readsScript(rules, base, layer, stdin);
      else for (const script of scripts) nested(script, base);
      return;
    }
    const wrapper = WRAPPERS[base];
    if (wrapper) {
      const unwrapped = unwrap(base, wrapper, args);
      if (unwrapped === null) return;
      if ("script" in unwrapped) {
        const what = `${base} ${unwrapped.flag}`.trim();
        if (unwrapped.script.value === null) {
          unseen(rules, REASONS.unseen(what, "its command is an expansion"));
          return;
        }
        nested(unwrapped.script.value, what);
        return;
      }
      if ("stdin" in unwrapped) {
        readsScript(rules, base, layer, stdin);
        return;
      }
      current = unwrapped.command;
      continue;
    }
    if (SHELLS.has(base)) {
      shell(rules, base, args, layer, stdin);
      return;
    }
    if (SETS_BY_NAME.has(base)) setsByName(checks(rules), base, args);
    if (STRING_COMMANDS.has(base)) {
      stringCommand(checks(rules), base, args, layer);
      return;
    }
    switch (base) {
      case "eval": {
        if (args.some((word) => word.value === null)) refuse(REASONS.dynamicScript("eval"));
        nested(args.map((word) => word.value).join(" "), "eval");
        return;
      }
      case "source":
      case ".":
        source(rules, base, args, layer, stdin);
        return;
      case "trap": {
        // `trap 'commands' SIGNAL…`: the first word is a script run later.
        const [action, ...signals] = parseOptions(args, {}, false).operands;
        if (!action || signals.length === 0 || action.value === "-") return;
        if (action.value === null) refuse(REASONS.dynamicScript("trap"));
        nested(action.value, "trap");
        return;
      }
      case "hash":
        // `hash -p /usr/bin/npm x` makes `x` run npm.
        if (has(parseOptions(args, { valued: "p" }, false), "p")) {
          unseen(rules, REASONS.unseen("hash -p", "it gives a program another name"));
        }
        return;
      case "alias":
        for (const word of args) {
          const equals = word.value?.indexOf("=") ?? -1;
          if (word.value === null) unseen(rules, REASONS.unseen("alias", "it is an expansion"));
          else if (equals > 0) aliasValue(checks(rules), tail(word, equals + 1), layer);
        }
        return;
      case "git":
        checkGit(
          {
            strict: rules.strict,
            script: nested,
            denied: (resolved) => checkDenied(rules, resolved, true),
          },
          first,
          args,
        );
        return;
      case "make":
        make(checks(rules), args);
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
        checkFileChanges(rules.workspace, base, args, cwd);
        return;
    }
  }
}

/** Where `cd DIR` leads from `cwd`, or null when that is not known. */
function changeDir(cwd: string | null, dir: Word): string | null {
  if (!dir.exact || dir.value === null || dir.value === "-") return null;
  if (dir.value.startsWith("/")) return posix.resolve(dir.value);
  return cwd === null ? null : posix.resolve(cwd, dir.value);
}

/**
 * Refuses `words` when they match a rule of the repository's deny list, or could match one
 * through a word only known when it runs.
 */
function checkDenied(rules: Rules, words: readonly Word[], fixed = false): void {
  const [name, ...args] = words;
  if (name === undefined || rules.deny.length === 0) return;
  const match = matchDeny(rules.deny, name, args, fixed);
  if (match === null) return;
  if (match.certain) refuse(REASONS.denied(match.rule));
  const unknown = words.find((word) => word.value === null)?.text ?? name.text;
  refuse(REASONS.couldBeDenied(words.map((word) => word.text).join(" "), unknown, match.rule));
}

/**
 * `source FILE` / `. FILE`: a literal file is like `bash FILE` (not seen here); standard input is
 * a script like a shell's; anything else (`<(…)`, `$X`) is unseen.
 */
function source(rules: Rules, name: string, args: Word[], scope: Scope, stdin: Stdin): void {
  const file = args.find((word) => word.value !== "--");
  if (file === undefined) return;
  if (file.value === null) {
    unseen(rules, REASONS.unseen(name, "the file it reads is only known when it runs"));
    return;
  }
  if (STDIN_PATHS.test(file.value)) readsScript(rules, `${name} ${file.value}`, scope, stdin);
}

/**
 * A shell reading its script from standard input: a heredoc or here-string is checked, a pipe
 * from another command is unseen; with neither, it reads nothing the agent wrote.
 */
function readsScript(rules: Rules, name: string, scope: Scope, stdin: Stdin): void {
  if (stdin !== null) {
    if (stdin.source === null) refuse(REASONS.dynamicScript(name));
    checkScript(rules, stdin.source, { ...scope, piped: false, depth: scope.depth + 1 }, name);
    return;
  }
  if (scope.piped) {
    unseen(
      rules,
      REASONS.unseen(name, "it reads its commands from a pipe or a file not written out"),
    );
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
  const nested = { ...scope, depth: scope.depth + 1 };
  if (script) {
    if (operand === undefined) return; // bash reports the missing argument
    if (operand.value === null) refuse(REASONS.dynamicScript(`${name} -c`));
    checkScript(rules, operand.value, nested, `${name} -c`);
    return;
  }
  if (operand === undefined || fromStdin) {
    readsScript(rules, name, scope, stdin);
    return;
  }
  // A script file: not visible here; the sandbox decides. Standard input or `<(…)` as the file
  // is a script that is.
  if (operand.value === null) {
    unseen(rules, REASONS.unseen(name, "the script it runs is only known when it runs"));
  } else if (STDIN_PATHS.test(operand.value)) {
    readsScript(rules, `${name} ${operand.value}`, scope, stdin);
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
    if (value === "-delete") checkTargets(rules.workspace, "find -delete", roots, scope.cwd);
    if (value && FIND_WRITES.has(value)) {
      checkTargets(rules.workspace, `find ${value}`, args.slice(i + 1, i + 2), scope.cwd);
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
        return unknownWord(word.text);
      });
      argv(rules, command, { ...scope }, null);
    }
    if (end < 0) return;
    i = end;
  }
}
