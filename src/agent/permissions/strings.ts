/**
 * What runs a string as a command later or elsewhere, where the parser may not see it: variables
 * that hold a command or make a shell read one (`PROMPT_COMMAND`, `BASH_ENV`), aliases, builtins
 * that take a command string (`mapfile -C`, `bind -x`), a makefile from standard input. A literal
 * string is checked as a script; anything else is refused when the repository denies commands
 * (`Checks.strict`), since it could run a denied one. Shells, `source` and wrappers are
 * commands.ts's.
 */
import { has, optionValues, parseOptions } from "../shell/options.ts";
import type { Scope } from "../shell/walk.ts";
import type { Word } from "../shell/words.ts";
import { REASONS, refuse } from "./reasons.ts";

/** What these rules need from the command rules. */
export interface Checks {
  /** Whether the repository denies commands, so that what cannot be seen must be refused. */
  strict: boolean;
  /** Checks `source` as a script that `what` runs, one level deeper than `scope`. */
  script: (source: string, scope: Scope, what: string) => void;
}

/** Builtins that run a string as a command: `mapfile -C`, `complete -C`, `bind -x`. */
export const STRING_COMMANDS = new Set(["mapfile", "readarray", "complete", "compgen", "bind"]);

/** Refuses with `reason` when the repository denies commands (`Checks.strict`). */
export function unseen(checks: Pick<Checks, "strict">, reason: string): void {
  if (checks.strict) refuse(reason);
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
export function checkVariable(
  checks: Checks,
  name: string,
  value: Word | null,
  scope: Scope,
): void {
  if (!checks.strict) return;
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
  checks.script(value.value, scope, `${name}=`);
}

/** Builtins that set a variable named by a word (`read X`, `printf -v X`, `declare X=…`). */
export const SETS_BY_NAME = new Set([
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
export function setsByName(checks: Checks, base: string, args: Word[]): void {
  if (!checks.strict) return;
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
export function aliasValue(checks: Checks, value: Word, scope: Scope): void {
  if (!checks.strict) return;
  if (value.value === null) refuse(REASONS.unseen("alias", "its value is an expansion"));
  checks.script(`${value.value} "$@"`, scope, "alias");
}

export function stringCommand(checks: Checks, name: string, args: Word[], scope: Scope): void {
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
      unseen(checks, REASONS.unseen(`${name} ${flag}`, "its command is an expansion"));
      continue;
    }
    if (!checks.strict) continue;
    const source = bind ? command : `${command} "$@"`;
    checks.script(source, scope, `${name} ${flag}`);
  }
}

/** Paths that are the command's standard input when read as a file. */
export const STDIN_PATHS = /^\/(dev\/stdin|dev\/fd\/0|proc\/(self|\d+)\/fd\/0)$/;

/**
 * `make -f -`, `-f /dev/stdin`, `-f <(…)`, `--eval=…`: a makefile whose recipes the parser
 * cannot see. A makefile in the repository is like a script file: not seen either.
 */
export function make(checks: Checks, args: Word[]): void {
  if (!checks.strict) return;
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
