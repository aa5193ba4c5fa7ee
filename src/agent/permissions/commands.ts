/**
 * The rules for one simple command, layer by layer: denied commands and privileged ones are
 * refused at every layer, wrappers (`env`, `timeout`, `xargs`, `command`, `find -exec`, the
 * table in wrappers.ts) are unwrapped, scripts handed to a shell (`bash -c`, `eval`, `trap`, a
 * heredoc fed to `sh`, `watch '…'`, an alias) are parsed and checked in turn, and what is left
 * goes to the git and file rules. When the repository denies commands, whatever runs a string
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
import { checkRedirectTarget, checkTargets } from "./paths.ts";
import { REASONS, refuse } from "./reasons.ts";
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
  walk(
    {
      home: rules.home,
      command: (words, at, stdin) => argv(rules, words, at, stdin),
      write: (target, at) => checkRedirectTarget(rules.workspace, target, at.cwd),
      stray: () => refuse(REASONS.strayWords()),
      assign: (name, value, at) => checkVariable(rules, name, value, at),
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

/** Builtins that run a string as a command: `mapfile -C`, `complete -C`, `bind -x`. */
const STRING_COMMANDS = new Set(["mapfile", "readarray", "complete", "compgen", "bind"]);

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
        checkVariable(rules, value.slice(0, equals), tail(rest[0], equals + 1), layer);
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
    if (SETS_BY_NAME.has(base)) setsByName(rules, base, args);
    if (STRING_COMMANDS.has(base)) {
      stringCommand(rules, base, args, layer);
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
          else if (equals > 0) aliasValue(rules, tail(word, equals + 1), layer);
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
        make(rules, args);
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

/** Refuses with `reason` when the repository denies commands (see `Rules.strict`). */
function unseen(rules: Rules, reason: string): void {
  if (rules.strict) refuse(reason);
}

/**
 * Variables whose value bash or git later runs as a command (`PROMPT_COMMAND`, `GIT_PAGER`): a
 * literal value is checked as a script, any other is unseen.
 */
const COMMAND_VARIABLES = new Set([
  "PROMPT_COMMAND",
  "GIT_PAGER",
  "PAGER",
  "MANPAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "EDITOR",
  "VISUAL",
  "GIT_SSH_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
]);
/**
 * Variables that make a shell or git read commands from somewhere the parser cannot see: a
 * startup file (`BASH_ENV`, `ENV`), prompts expanded with `$(…)` (`PS0`…`PS4`), alias and
 * command tables, git's configuration from the environment.
 */
const HIDDEN_VARIABLES = new Set([
  "BASH_ENV",
  "ENV",
  "PS0",
  "PS1",
  "PS2",
  "PS4",
  "BASH_ALIASES",
  "BASH_CMDS",
  "SHELLOPTS",
  "BASHOPTS",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_PARAMETERS",
  "GIT_EXEC_PATH",
]);

/** `NAME=value`, however it is set (`X=1 cmd`, `export X=1`, `env X=1 cmd`). */
function checkVariable(rules: Rules, name: string, value: Word | null, scope: Scope): void {
  if (!rules.strict) return;
  // `declare -n ref=PROMPT_COMMAND`: a name that later sets the variable it names.
  const target = value?.value ?? "";
  if (HIDDEN_VARIABLES.has(target) || COMMAND_VARIABLES.has(target)) {
    refuse(REASONS.unseen(`${name}=${target}`, "it names a variable that makes commands run"));
  }
  // A value holding `$(…)` runs it when expanded as a prompt or read as arithmetic
  // (`${X@P}`, `$(( X ))` with `X='a[$(…)]'`).
  if (value?.value != null && /\$\(|`/.test(value.value)) {
    refuse(REASONS.unseen(`${name}=`, "its value holds a command substitution that can run later"));
  }
  if (HIDDEN_VARIABLES.has(name))
    refuse(REASONS.unseen(`${name}=`, "it makes commands run from a string or file"));
  if (!COMMAND_VARIABLES.has(name) || value === null) return;
  if (value.value === null) refuse(REASONS.unseen(`${name}=`, "its command is an expansion"));
  checkScript(rules, value.value, { ...scope, depth: scope.depth + 1 }, `${name}=`);
}

/** Builtins that set a variable named by a word (`read X`, `printf -v X`, `declare X=…`). */
const SETS_BY_NAME = new Set([
  "read",
  "printf",
  "mapfile",
  "readarray",
  "declare",
  "typeset",
  "export",
  "local",
  "readonly",
]);

/** `read PROMPT_COMMAND`, `printf -v BASH_ENV …`: such a variable set from a value not seen. */
function setsByName(rules: Rules, base: string, args: Word[]): void {
  if (!rules.strict) return;
  const named =
    base === "printf" ? optionValues(parseOptions(args, { valued: "v" }, false), "v") : args;
  for (const word of named) {
    const name = word.value?.split("=")[0];
    if (name !== undefined && (HIDDEN_VARIABLES.has(name) || COMMAND_VARIABLES.has(name))) {
      refuse(REASONS.unseen(`${base} ${name}`, "it sets a variable that makes commands run"));
    }
  }
}

/** `alias NAME=VALUE`: the value runs with the words that follow the name, unknown here. */
function aliasValue(rules: Rules, value: Word, scope: Scope): void {
  if (!rules.strict) return;
  if (value.value === null) refuse(REASONS.unseen("alias", "its value is an expansion"));
  checkScript(rules, `${value.value} "$@"`, { ...scope, depth: scope.depth + 1 }, "alias");
}

function stringCommand(rules: Rules, name: string, args: Word[], scope: Scope): void {
  const bind = name === "bind";
  const parsed = parseOptions(
    args,
    bind ? { valued: "mfqurRxX" } : { valued: "CcdnOsutAGWFXPSo" },
    false,
  );
  const scripts = optionValues(parsed, bind ? "x" : "C");
  for (const script of scripts) {
    const flag = bind ? "-x" : "-C";
    // `bind -x` takes `"KEYS": command`; the others call the command with more words.
    const command = bind
      ? script.value?.replace(/^\s*"(?:[^"\\]|\\.)*"\s*:?\s*/, "")
      : script.value;
    if (command === null || command === undefined) {
      unseen(rules, REASONS.unseen(`${name} ${flag}`, "its command is an expansion"));
      continue;
    }
    if (!rules.strict) continue;
    const source = bind ? command : `${command} "$@"`;
    checkScript(rules, source, { ...scope, depth: scope.depth + 1 }, `${name} ${flag}`);
  }
}

/** Paths that are the command's standard input when read as a file. */
const STDIN_PATHS = /^\/(dev\/stdin|dev\/fd\/0|proc\/(self|\d+)\/fd\/0)$/;

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
 * `make -f -`, `-f /dev/stdin`, `-f <(…)`, `--eval=…`: a makefile whose recipes the parser
 * cannot see. A makefile in the repository is like a script file: not seen either.
 */
function make(rules: Rules, args: Word[]): void {
  if (!rules.strict) return;
  const parsed = parseOptions(
    args,
    { valued: "CfIjlLoOWE", long: ["directory", "file", "makefile", "eval", "include-dir"] },
    false,
  );
  for (const file of optionValues(parsed, "f", "file", "makefile")) {
    if (file.value === null || file.value === "-" || STDIN_PATHS.test(file.value)) {
      refuse(REASONS.unseen(`make -f ${file.text}`, "its makefile is only known when it runs"));
    }
  }
  if (has(parsed, "E", "eval")) refuse(REASONS.unseen("make --eval", "it runs makefile text"));
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
