/**
 * What the `ci-repair` settings decide by themselves: whether a failed run's branch is one to
 * repair (`branchMatches`) and the class a person gave a kind of failure (`classifyOverride`).
 * Pure; the settings are read and checked in repo-config.ts (rules.ts holds their value rules)
 * and merged over the defaults in load.ts.
 */
import type { FailureClass } from "../domain/ci.ts";
import type { CiRepairSettings } from "./config.ts";

/**
 * A branch glob as a regular expression over the whole name: `**` is any run of characters, `*`
 * any run without `/`, as in a workflow's `on.push.branches` — so a pattern copied from there
 * means the same here. Every other character is itself.
 */
function branchRegex(pattern: string): RegExp {
  const source = pattern
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${source}$`);
}

/** Does `branch` match one of `patterns` (see branchRegex)? */
export function branchMatches(patterns: readonly string[], branch: string): boolean {
  return patterns.some((pattern) => branchRegex(pattern).test(branch));
}

/** Flags a `classify` regular expression may carry: `g` and `y` would make a test stateful. */
const REGEX_FLAGS = /^[imsu]*$/;

/**
 * A `classify` entry's `match` as it is tested: `/source/flags` a regular expression, anything
 * else a substring; `problem` when it is neither.
 */
export function classifyPattern(match: string): RegExp | string | { problem: string } {
  if (match === "") return { problem: "it may not be empty" };
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(match);
  if (!literal) return match;
  const [, source = "", flags = ""] = literal;
  if (!REGEX_FLAGS.test(flags)) return { problem: "the flags after / may be i, m, s and u" };
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: /, "");
    return { problem: `not a regular expression: ${why}` };
  }
}

/**
 * The class of the first `classify` entry whose `match` is in the first error line or in one of
 * the failing test ids, or undefined when none is (the harness's and the agent's class stand).
 */
export function classifyOverride(
  settings: Pick<CiRepairSettings, "classify">,
  firstError: string | null,
  tests: readonly string[],
): FailureClass | undefined {
  const texts = firstError === null ? tests : [firstError, ...tests];
  const found = settings.classify.find((rule) => {
    const pattern = classifyPattern(rule.match);
    if (typeof pattern === "string") return texts.some((text) => text.includes(pattern));
    // A match that is neither was refused when the file was read; it matches nothing.
    return pattern instanceof RegExp && texts.some((text) => pattern.test(text));
  });
  return found?.class;
}
