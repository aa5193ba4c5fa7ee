/**
 * The harness owns git: `git commit`, `git push` and `git reset --hard` (also `--har`, as git
 * takes any unambiguous start of a long option) are refused, whatever global options come first
 * and through aliases given with `-c alias.NAME=…`. The repository's deny rules for git are
 * matched against the subcommand git will really run, past its global options and their values
 * (`git -C push status` is `status`). When there are deny rules, configuration that makes git run
 * a command given as a string (`-c core.pager=…`) has that string checked, and what cannot be
 * seen (`--config-env`, `-c "$X"`, `include.path`) is refused. Other git commands are left to the
 * sandbox.
 */
import { literalWord } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { REASONS, refuse } from "./reasons.ts";

/** Global options that take the next word as their value (or `=value`). */
const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--exec-path",
  "--list-cmds",
  "--attr-source",
]);

/** Configuration whose value git runs as a shell command (a `!` in front is dropped). */
const COMMAND_KEYS = [
  /^core\.(pager|editor|sshcommand|askpass|fsmonitor)$/,
  /^pager\./,
  /^sequence\.editor$/,
  /^diff\.(external|.+\.(command|textconv))$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^credential\.(.+\.)?helper$/,
  /^gpg\.(.+\.)?program$/,
  /^uploadpack\.packobjectshook$/,
];
/** Configuration that makes git run something the parser cannot see. */
const HIDDEN_KEYS = [/^include\.path$/, /^includeif\..+\.path$/, /^help\.autocorrect$/];

/** Section and key of `section.sub.key` are case-insensitive; the subsection is not. */
function normalKey(key: string): string {
  const parts = key.split(".");
  if (parts.length < 2) return key.toLowerCase();
  const first = (parts[0] as string).toLowerCase();
  const last = (parts.at(-1) as string).toLowerCase();
  return [first, ...parts.slice(1, -1), last].join(".");
}

/** What git's rules need from the command rules. */
export interface GitChecks {
  /** Whether the repository denies commands (then what cannot be seen is refused). */
  strict: boolean;
  /** Checks `source` as a script that `what` runs (a `!` alias, `-c core.pager=…`). */
  script: (source: string, what: string) => void;
  /** Checks the words git really runs (`git SUBCOMMAND ARGS…`) against the deny rules. */
  denied: (words: Word[]) => void;
}

/** Checks `git ARGS…`; `name` is the word that named git. */
export function checkGit(checks: GitChecks, name: Word, args: Word[]): void {
  const { strict, script } = checks;
  const aliases = new Map<string, string>();
  const setting = (word: Word | undefined, option: string): void => {
    if (word === undefined) return;
    if (option === "--config-env" || word.value === null) {
      if (strict) refuse(REASONS.unseen(`git ${option}`, "its setting is only known when it runs"));
      return;
    }
    const equals = word.value.indexOf("=");
    const key = normalKey(equals < 0 ? word.value : word.value.slice(0, equals));
    const value = equals < 0 ? "true" : word.value.slice(equals + 1);
    if (key.startsWith("alias.")) aliases.set(key.slice(6), value);
    else if (strict && HIDDEN_KEYS.some((pattern) => pattern.test(key))) {
      refuse(REASONS.unseen(`git -c ${key}`, "it makes git run what it reads elsewhere"));
    } else if (strict && COMMAND_KEYS.some((pattern) => pattern.test(key))) {
      script(value.replace(/^!/, ""), `git -c ${key}`);
    }
  };
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as Word;
    const value = word.value;
    if (value === null) break; // the subcommand is unknown
    if (!value.startsWith("-")) break;
    const equals = value.indexOf("=");
    const option = equals < 0 ? value : value.slice(0, equals);
    if (!GIT_VALUED.has(option)) continue;
    if (equals >= 0) {
      if (option === "--config-env") setting(word, option);
      continue;
    }
    const next = args[++i];
    if (option === "-c" || option === "--config-env") setting(next, option);
  }
  let subcommand: Word | undefined = args[i];
  let rest = args.slice(i + 1);
  const alias = subcommand?.value ? aliases.get(subcommand.value.toLowerCase()) : undefined;
  if (alias !== undefined) {
    if (alias.startsWith("!")) {
      // The alias runs in a shell with the remaining words after it: unknown to its script.
      script(`${alias.slice(1)} "$@"`, "git alias");
      return;
    }
    const [first, ...more] = alias.trim().split(/\s+/);
    subcommand = first === undefined ? undefined : literalWord(first);
    rest = [...more.map(literalWord), ...rest];
  }
  if (subcommand === undefined) return;
  checks.denied([name, subcommand, ...rest]);
  if (subcommand.value === "commit") refuse(REASONS.gitCommit());
  if (subcommand.value === "push") refuse(REASONS.gitPush());
  if (subcommand.value === "reset" && rest.some((word) => isHard(word.value))) {
    refuse(REASONS.gitResetHard());
  }
}

/** `--hard` or a start of it git takes for it (`--har`, `--h`). */
function isHard(value: string | null): boolean {
  return value !== null && value.length > 2 && value.startsWith("--") && "--hard".startsWith(value);
}
