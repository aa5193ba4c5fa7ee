/**
 * The rules a setting's value must keep, written once for both places a setting can come from:
 * the action's inputs (inputs.ts) and `.github/pitcrew.yml` (repo-config.ts), so the two say the
 * same thing about the same mistake. Pure; reading and merging happen elsewhere.
 */
import { LEDGER_BOUNDS } from "../ci/ledger.ts";
import { classifyPattern } from "./ci-repair.ts";

export interface Rule<T> {
  /** What the setting takes, completing "Input 'max-turns' takes …". */
  takes: string;
  /** Why `value` breaks the rule, or undefined when it keeps it. */
  problem(value: T): string | undefined;
}

/** "takes …" plus the reason, or undefined when `value` keeps the rule. */
export function complaint<T>(rule: Rule<T>, value: T): string | undefined {
  const problem = rule.problem(value);
  if (problem === undefined) return undefined;
  return problem === "" ? `takes ${rule.takes}` : `takes ${rule.takes} (${problem})`;
}

function numberRule(takes: string, holds: (value: number) => boolean): Rule<number> {
  return { takes, problem: (value) => (Number.isFinite(value) && holds(value) ? undefined : "") };
}

export const WHOLE_ABOVE_ZERO = numberRule(
  "a whole number above 0",
  (value) => Number.isInteger(value) && value > 0,
);
export const ABOVE_ZERO = numberRule("a number above 0", (value) => value > 0);
/** Budgets: 0 switches the budget off. */
export const BUDGET = numberRule("a number, 0 or more (0: no budget)", (value) => value >= 0);
export const WHOLE_BUDGET = numberRule(
  "a whole number, 0 or more (0: no budget)",
  (value) => Number.isInteger(value) && value >= 0,
);
export const DISK_RESERVE = numberRule(
  "a whole number of MiB, 0 or more (0: no reserve)",
  (value) => Number.isInteger(value) && value >= 0,
);

/**
 * Caps that count one failure's attempts (`attempts-per-sha`, `attempts-per-signature`): the
 * ledger keeps a failure's last LEDGER_BOUNDS.attempts, so a higher cap would never be reached.
 */
export const FAILURE_ATTEMPTS = numberRule(
  `a whole number from 1 to ${LEDGER_BOUNDS.attempts}`,
  (value) => Number.isInteger(value) && value >= 1 && value <= LEDGER_BOUNDS.attempts,
);

export const FLAG_TAKES = "true or false";

/** GitHub keeps run logs 90 days by default, and lists at most 1,000 runs a query. */
export const LOOKBACK_DAYS = numberRule(
  "a whole number of days from 1 to 90",
  (value) => Number.isInteger(value) && value >= 1 && value <= 90,
);

/** Reruns per condition: too few prove nothing (0 of 5 only bounds the rate under 45%). */
export const RERUNS = numberRule(
  "a whole number from 5 to 500",
  (value) => Number.isInteger(value) && value >= 5 && value <= 500,
);

/** A workflow as the runs API takes it: the file's name in .github/workflows/. */
export const WORKFLOW_FILE: Rule<string> = {
  takes: "a workflow file name such as ci.yml",
  problem: (name) =>
    /^[\w.-]+\.ya?ml$/.test(name) ? undefined : "the file's name only, ending in .yml or .yaml",
};

/** A GitHub label: up to 50 characters, not blank, no comma (the issues API splits on it). */
export const ISSUE_LABEL: Rule<string> = {
  takes: "a label name of 1 to 50 characters without commas",
  problem: (label) =>
    label.trim() === "" || label.length > 50 || label.includes(",") ? "" : undefined,
};

/** A branch name like the ones pitcrew makes (`issue-<N>`, `pr-<N>`, `task-<run>`), to try a prefix on. */
const SAMPLE_BRANCH = "issue-1";

/**
 * The prefix of every branch pitcrew pushes. Never empty: the prefix keeps pitcrew's branches
 * apart from people's, so it never pushes over a branch someone else works on.
 */
export const BRANCH_PREFIX: Rule<string> = {
  takes: "the start of a git branch name, such as pitcrew/",
  problem: (prefix) =>
    prefix === "" ? "it may not be empty" : branchNameProblem(`${prefix}${SAMPLE_BRANCH}`),
};

/**
 * A `ci-repair.branches` entry: a branch name, or a glob with `*` and `**` (config/ci-repair.ts)
 * that could match one — git's rules on the name with each `*` read as a letter.
 */
export const BRANCH_PATTERN: Rule<string> = {
  takes: "a branch name or a glob (* within a name, ** across /)",
  problem: (pattern) => {
    if (pattern === "") return "it may not be empty";
    if (pattern.startsWith("!")) return "no negation with !: list the branches to repair";
    if (/[?[\]]/.test(pattern)) return "the only wildcards are * and **";
    return branchNameProblem(pattern.replace(/\*/g, "x"));
  },
};

/** A `ci-repair.classify` entry's `match`. */
export const CLASSIFY_MATCH: Rule<string> = {
  takes: "a piece of the first error or of a failing test's id, or /a regular expression/",
  problem: (match) => {
    const pattern = classifyPattern(match);
    return typeof pattern === "object" && "problem" in pattern ? pattern.problem : undefined;
  },
};

/** Besides control characters and space: DEL and the characters git gives a meaning in revisions. */
const REFUSED_CHARACTERS = new Set(["\x7f", "~", "^", ":", "?", "*", "[", "\\"]);

/**
 * Why git would refuse `name` as a branch name, or undefined: the rules of
 * `git check-ref-format --branch`, checked without running git.
 */
export function branchNameProblem(name: string): string | undefined {
  if ([...name].some((char) => char <= " " || REFUSED_CHARACTERS.has(char))) {
    return "no spaces, control characters or any of ~ ^ : ? * [ \\";
  }
  if (name.startsWith("-")) return "it may not start with '-'";
  if (name.includes("..")) return "no '..'";
  if (name.includes("@{")) return "no '@{'";
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) {
    return "no '/' at the start or end and no '//'";
  }
  if (name.endsWith(".")) return "it may not end with '.'";
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return "no part between slashes may start with '.'";
    if (part.endsWith(".lock")) return "no part between slashes may end with '.lock'";
  }
  return undefined;
}
