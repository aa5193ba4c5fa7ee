/**
 * The rules for one simple command, layer by layer: denied prefixes and privileged commands are
 * refused at every layer, wrappers (`env`, `timeout`, `xargs`, `command`, `find -exec`) are
 * unwrapped, scripts handed to a shell (`bash -c`, `eval`, `trap`, a heredoc fed to `sh`) are
 * parsed and checked in turn, and what is left goes to the git and file rules. Shell syntax is
 * the walk's business (shell/walk.ts); the sentences are in reasons.ts.
 */
import { posix } from "node:path";
import type { ShellParser } from "../shell/parse.ts";
import { has, optionValues, parseOptions } from "../shell/options.ts";
import type { OptionSpec } from "../shell/options.ts";
import { walk } from "../shell/walk.ts";
import type { Scope, Stdin } from "../shell/walk.ts";
import { literalWord, unknownWord } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { checkFileChanges } from "./files.ts";
import { checkGit } from "./git.ts";
import { checkRedirectTarget, checkTargets } from "./paths.ts";
import { REASONS, refuse } from "./reasons.ts";

/** What the rules stand on: the parser, the workspace, `$HOME`, the denied prefixes as words. */
export interface Rules {
  parser: ShellParser;
  workspace: string;
  home: string;
  deny: string[][];
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
    },
    parsed.root,
    scope,
  );
}

/** Commands that run another with more privileges than the sandbox grants. */
const PRIVILEGED = new Set(["sudo", "su", "doas", "pkexec", "run0"]);
/** Shells whose `-c` script or standard input is a script to check. */
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
        checkGit(args, (script) =>
          checkScript(rules, script, { cwd, depth: scope.depth + 1 }, "git alias"),
        );
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

/** Refuses `words` when they start with a prefix the repository's config denies. */
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
