/**
 * The repository's deny rules (`permissions.deny`) against one command's words. A rule's first
 * word is a command name, matched against the name's last path part (`/usr/bin/npm`,
 * `./node_modules/.bin/npm`); its other words must appear in the command's other words in order,
 * with anything between them (`npm --registry=x publish`, `npm -w pkg publish`, `npm publish
 * --tag x` all match `npm publish`). A rule word that is an option (`--hard`) also matches the
 * abbreviations getopt and git accept (`--har`), `--hard=…`, and a letter in a cluster (`-f` in
 * `-uf`), and npm's subcommands match their starts as npm takes them (`npm pub`). A glob matches the rule words it could expand to (`publis?`). A word only known when it
 * runs (`$X`, `"$@"`, `$(…)`) could be any words at all, so a command that holds one could match
 * any rule whose other words it does not already rule out: that is a possible match. Which words
 * are the command (wrappers, git's global options) is for the command rules to say.
 */
import { posix } from "node:path";
import { globPattern } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";

/** A rule as its words, e.g. `["npm", "publish"]`. */
export type DenyRule = readonly string[];

/** The first rule the words match for certain, else the first they could match, else null. */
export type DenyMatch = { rule: string; certain: boolean } | null;

/** What one of the command's words can stand for, as far as matching goes. */
type Item =
  | { kind: "word"; value: string }
  | { kind: "option"; value: string }
  | { kind: "glob"; pattern: RegExp }
  | { kind: "unknown" };

function item(word: Word): Item {
  if (word.value === null) return { kind: "unknown" };
  const pattern = globPattern(word);
  if (pattern) return { kind: "glob", pattern };
  if (word.value.length > 1 && word.value.startsWith("-")) {
    return { kind: "option", value: word.value };
  }
  return { kind: "word", value: word.value };
}

/** Commands that take any unambiguous start of a subcommand's name (`npm pub` is publish). */
const ABBREVIATING = new Set(["npm"]);

/** Whether the command word `item` stands for the rule word `expected`. */
function same(item: Item, expected: string, abbreviates: boolean): boolean {
  switch (item.kind) {
    case "unknown":
      return false;
    case "glob":
      return item.pattern.test(expected);
    case "word":
      return (
        item.value === expected ||
        (abbreviates && item.value.length >= 2 && expected.startsWith(item.value))
      );
    case "option":
      return expected.startsWith("-") && sameOption(item.value, expected);
  }
}

/** `--har` for `--hard`, `--hard=x`, `-uf` for `-f`: what a parser would take as `expected`. */
function sameOption(given: string, expected: string): boolean {
  if (given === expected) return true;
  if (expected.startsWith("--") && given.startsWith("--")) {
    const name = given.split("=")[0] as string;
    return name.length > 2 && expected.startsWith(name);
  }
  if (/^-[^-]$/.test(expected) && /^-[^-]/.test(given)) return given.includes(expected[1] ?? "");
  return false;
}

/** Whether the command name `word` could be the rule's command `name`. */
export function nameMatches(word: Word, name: string): "yes" | "maybe" | "no" {
  if (word.value === null) return "maybe";
  const pattern = globPattern(word);
  const base = posix.basename(name);
  if (pattern) {
    const last = globPattern({ ...word, segments: lastPart(word) });
    return (last ?? pattern).test(base) ? "yes" : "no";
  }
  return word.value === name || posix.basename(word.value) === base ? "yes" : "no";
}

/** The segments after the word's last `/`, for matching a glob's file name alone. */
function lastPart(word: Word): Word["segments"] {
  const segments = [...word.segments];
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (!segment?.literal) continue;
    const slash = segment.text.lastIndexOf("/");
    if (slash < 0) continue;
    return [{ ...segment, text: segment.text.slice(slash + 1) }, ...segments.slice(i + 1)];
  }
  return segments;
}

/**
 * Matches `rules` against a command: `name` is its first word, `args` the rest. With `fixed`,
 * the rule's second word must be the first argument (git's subcommand) rather than any later one.
 */
export function matchDeny(
  rules: readonly DenyRule[],
  name: Word,
  args: readonly Word[],
  fixed = false,
): DenyMatch {
  let possible: DenyMatch = null;
  const items = args.map(item);
  const unknownAt = items.findIndex((entry) => entry.kind === "unknown");
  for (const rule of rules) {
    const [first, ...rest] = rule;
    if (first === undefined) continue;
    const named = nameMatches(name, first);
    if (named === "no") continue;
    const abbreviates = ABBREVIATING.has(posix.basename(first));
    // Greedy in order: each rule word takes the first command word after the last one taken.
    let at = 0;
    let taken = 0;
    for (const expected of rest) {
      const window = fixed && taken === 0 ? items.slice(0, 1) : items.slice(at);
      const index = window.findIndex((entry) => same(entry, expected, abbreviates));
      if (index < 0) break;
      at += index + 1;
      taken++;
    }
    const all = taken === rest.length;
    if (named === "yes" && all) return { rule: rule.join(" "), certain: true };
    // An unknown word reached before the rule ran out could be the words still missing.
    const reachable = unknownAt >= 0 && (!fixed || taken > 0 || unknownAt === 0);
    if (possible === null && (all || named === "maybe" || reachable)) {
      possible = { rule: rule.join(" "), certain: false };
    }
  }
  return possible;
}
