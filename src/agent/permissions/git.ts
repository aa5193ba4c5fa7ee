/**
 * The harness owns git: `git commit`, `git push` and `git reset --hard` are refused, whatever
 * global options come first and through aliases given with `-c alias.NAME=…`. Other git commands
 * are left to the sandbox.
 */
import { literalWord } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { REASONS, refuse } from "./reasons.ts";

/** Global options that take the next word as their value. */
const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);

/**
 * Refuses `git ARGS…` when it commits, pushes or resets hard. An alias that runs a shell command
 * (`!…`) is handed to `shellAlias` to be checked as a script instead.
 */
export function checkGit(args: Word[], shellAlias: (script: string) => void): void {
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
      shellAlias(alias.slice(1));
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
