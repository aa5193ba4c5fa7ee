/**
 * The commands that delete or change files (`rm`, `mv`, `cp`, `chmod`, `dd of=`, `sed -i`…) and
 * which of their words are the files changed, each checked against the workspace. Commands that
 * run other commands are not handled here.
 */
import { has, optionValues, parseOptions } from "../shell/options.ts";
import { literalWord, tail } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";
import { checkTargets } from "./paths.ts";

/** The commands whose files changed these rules know. */
export const FILE_COMMANDS: readonly string[] = [
  "rm",
  "rmdir",
  "unlink",
  "tee",
  "shred",
  "truncate",
  "mv",
  "cp",
  "ln",
  "install",
  "chmod",
  "chown",
  "chgrp",
  "dd",
  "sed",
];

/**
 * Refuses `base ARGS…` when a file it deletes or changes lies outside the workspace; a command
 * not listed here changes no file as far as these rules know.
 */
export function checkFileChanges(
  workspace: string,
  base: string,
  args: Word[],
  cwd: string | null,
): void {
  const targets = (what: string, words: readonly Word[]): void =>
    checkTargets(workspace, what, words, cwd);
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
