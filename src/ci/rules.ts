/**
 * Which lines of a CI log are errors, per tool, and the failing test ids the tools print. Each rule
 * has a weight: 3 for a tool's own statement of a failure with its cause (a compiler's
 * `file:line:col: error:`, pytest's `FAILED x::y - why`, a timeout), 2 for an exception or an
 * assertion's message, 1 for a generic marker (`##[error]`, make's `Error 1`, ninja's `FAILED:`).
 * The first error is the first line of the highest weight found. Pure.
 */
import type { LineWords } from "./log.ts";

export interface Rule {
  tool: string;
  weight: 1 | 2 | 3;
  pattern: RegExp;
  /** The failing test id the line names, if it names one. */
  test?: (match: RegExpExecArray) => string | undefined;
  /**
   * A cheap regex every line the pattern matches also matches, tried first: for a pattern slow to
   * fail (a lazy scan of the whole line for `file:line:col`), which then is kept out of the unions.
   */
  needs?: RegExp;
}

export const RULES: readonly Rule[] = [
  // Compilers and type checkers: gcc/clang, msvc, tsc, rustc, go build, javac, kotlinc.
  {
    tool: "gcc/clang",
    weight: 3,
    pattern: /^\S.*?:\d+:\d+: (?:fatal )?error: /,
    needs: /:\d+:\d+: (?:fatal )?error: /,
  },
  {
    tool: "msvc",
    weight: 3,
    pattern: /^\S.*?\(\d+(?:,\d+)?\): (?:fatal )?error [A-Z]+\d+:/,
    needs: /\): (?:fatal )?error [A-Z]+\d+:/,
  },
  {
    tool: "tsc",
    weight: 3,
    pattern: /^\S.*?(?:\(\d+,\d+\)|:\d+:\d+)(?: -)? error TS\d+:/,
    needs: / error TS\d+:/,
  },
  {
    tool: "rustc",
    weight: 3,
    pattern: /^error(?:\[E\d{4}\])?: (?!test failed|could not compile|aborting)/,
  },
  {
    tool: "javac",
    weight: 3,
    pattern:
      /^\S+\.(?:java|kt):(?:\d+:)?(?:\d+:)? error: |^\[ERROR\] \S+\.(?:java|kt):\[\d+,\d+\] /,
  },
  { tool: "go build", weight: 3, pattern: /^\S+\.go:\d+:\d+: (?!warning)/ },
  // Test runners.
  {
    tool: "pytest",
    weight: 3,
    pattern: /^(?:FAILED|ERROR) (?:\[[\d.]+s\] )?(\S+::\S+|\S+\.py)(?: - .*)?$/,
    test: (match) => match[1],
  },
  {
    tool: "pytest",
    weight: 1,
    pattern: /^(\S+\.py::\S+) (?:FAILED|ERROR)\b/,
    test: (match) => match[1],
  },
  {
    tool: "jest",
    weight: 3,
    pattern: /^\s*● (?!Console$|Test suite failed to run$)(.+)$/,
    test: (match) => match[1]?.trim(),
  },
  { tool: "jest", weight: 1, pattern: /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\b/ },
  {
    tool: "vitest",
    weight: 3,
    pattern: /^\s*(?:FAIL|×|❯)\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(.+?)(?:\s+\d+m?s)?$/,
    test: (match) => `${match[1]} > ${match[2]}`,
  },
  {
    tool: "node:test",
    weight: 3,
    pattern: /^\s*not ok \d+ - (.+?)(?: # .*)?$/,
    test: (match) => match[1],
  },
  {
    tool: "node:test",
    weight: 2,
    pattern: /^\s*✖ (.+?) \([\d.]+m?s\)$/,
    test: (match) => match[1],
  },
  { tool: "mocha", weight: 1, pattern: /^\s+\d+\) (.+):$/, test: (match) => match[1] },
  { tool: "go test", weight: 3, pattern: /^\s*--- FAIL: (\S+)/, test: (match) => match[1] },
  {
    tool: "cargo test",
    weight: 3,
    pattern: /^test (\S+) \.\.\. FAILED$/,
    test: (match) => match[1],
  },
  {
    tool: "nextest",
    weight: 3,
    pattern: /^\s+(?:FAIL|TIMEOUT) \[\s*[\d.]+s\] (\S+ \S+)$/,
    test: (match) => match[1],
  },
  { tool: "rust", weight: 2, pattern: /^thread '.+' panicked at / },
  {
    tool: "surefire",
    weight: 3,
    pattern:
      /^\[ERROR\]\s+([\w$.]+)\.([\w$]+)(?:\(\))?\s+(?:--\s+)?Time elapsed: .*<<< (?:FAILURE|ERROR)!/,
    test: (match) => `${match[1]}.${match[2]}`,
  },
  { tool: "surefire", weight: 2, pattern: /<<< (?:FAILURE|ERROR)!/ },
  {
    tool: "gradle",
    weight: 3,
    pattern: /^([\w$.]+) > (.+) FAILED$/,
    test: (match) => `${match[1]}.${match[2]}`,
  },
  {
    tool: "unittest",
    weight: 3,
    pattern: /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/,
    test: (match) => `${match[2]}.${match[1]}`,
  },
  // Linters.
  { tool: "eslint", weight: 3, pattern: /^\s+\d+:\d+\s+error\s+\S/ },
  { tool: "ruff/flake8", weight: 3, pattern: /^\S+\.py:\d+:\d+: [A-Z]{1,3}\d{2,4}\b/ },
  { tool: "shellcheck", weight: 3, pattern: /^In \S+ line \d+:$/ },
  { tool: "shellcheck", weight: 3, pattern: /\bSC\d{4}\b.*\(error\)/ },
  { tool: "golangci-lint", weight: 3, pattern: /^\S+\.go:\d+:\d+: .+ \(\w+\)$/ },
  { tool: "prettier", weight: 2, pattern: /^\[(?:warn|error)\] \S+\.\w+$/ },
  // Timeouts and signals: the runner's and the shell's.
  {
    tool: "runner",
    weight: 3,
    pattern:
      /has timed out after \d+ minutes|has exceeded the maximum execution time|The operation was canceled|The runner has received a shutdown signal/,
  },
  {
    tool: "signal",
    weight: 2,
    pattern: /\bSegmentation fault\b|\bcore dumped\b|exit code 13[79]\b|\bSIGKILL\b|Out of memory/,
  },
  { tool: "signal", weight: 2, pattern: /^Killed$/ },
  // Exceptions and assertions, any language.
  {
    tool: "exception",
    weight: 2,
    pattern:
      /^\s*(?:[\w.]+(?:Error|Exception)(?: \[[A-Z_]+\])?|AssertionError|panic): |^Traceback \(most recent call last\):|^\s*Error: |^\s*(?:E|>)\s{2,}\w*(?:Error|assert)/,
  },
  {
    tool: "npm",
    weight: 2,
    pattern: /^npm (?:ERR!|error) (?!code\b|A complete log|Lifecycle|errno)/,
  },
  // Generic markers.
  {
    tool: "make",
    weight: 1,
    pattern: /^(?:g?make(?:\[\d+\])?|ninja): \*\*\* .*Error \d+|^FAILED: /,
  },
  { tool: "runner", weight: 1, pattern: /^##\[error\]/ },
  { tool: "generic", weight: 1, pattern: /\b(?:error|ERROR|FAILED|FATAL)\b[:!]/ },
  { tool: "generic", weight: 1, pattern: /^(?:FAIL|FAILED)\b/ },
];

/** Rules as one regex: one test answers "does any of them match?". */
function union(rules: readonly Rule[]): RegExp {
  return new RegExp(rules.map((rule) => `(?:${rule.pattern.source})`).join("|"));
}

/**
 * Whether every top-level alternative of a pattern starts with `^`. V8 tries a union of such
 * alternatives at the line's start only, and one unanchored alternative makes it try them all at
 * every position: so each weight has two unions, and a rule is one or the other (test/ci/rules.test.ts).
 */
export function anchored(pattern: RegExp): boolean {
  const source = pattern.source;
  let depth = 0;
  let inClass = false;
  let start = true;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (start && char !== "^") return false;
    start = false;
    if (char === "\\") i++;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "|" && depth === 0) start = true;
  }
  return !start;
}

/**
 * Words a line needs for any rule to match it (each rule's literal part): the common ones, the
 * glyphs test runners mark failures with, and the rare ones. Kept in short regexes: V8 runs a
 * union of few literals far faster than one of many, so three short ones cost less than one long
 * one. No `^` or `$`: the excerpt looks for them in the whole log's raw text (`JobLog.linesWith`),
 * and only the lines that hold one are read and tried. Every rule's examples hold one
 * (test/ci/rules.test.ts).
 */
const COMMON_WORDS = /rror|RR|FAIL|panic|Traceback|Exception|assert|\.py:\d|\.go:\d/;
const GLYPHS = ["●", "✖", "×", "❯"];
const GLYPH = new RegExp(`[${GLYPHS.join("")}]`);
const RARE_WORDS = [
  /not ok|timed out|execution time|canceled|shutdown signal|Segmentation|core dumped|Killed|exit code|SIGKILL|Out of memory|TIMEOUT|\[warn\]|FATAL| line \d+:/,
  /\d\) /,
];
export const RULE_WORDS: LineWords = {
  scans: [new RegExp(COMMON_WORDS.source, "g"), ...GLYPHS],
  rest: RARE_WORDS,
};

/**
 * Rules a line is tried against only when `any` matches it: a weight's anchored rules (their
 * union), the rest (theirs), or the rules gated by one `needs`.
 */
interface Group {
  rules: ReadonlySet<Rule>;
  any: RegExp;
}

interface Weight {
  weight: 1 | 2 | 3;
  groups: readonly Group[];
  rules: readonly Rule[];
  /** Its rules that name a test, and their union. */
  naming: Group | null;
  /** The rules to try, in their order in RULES, by the set of groups that matched (a bit each). */
  tried: Map<number, Tried>;
}

interface Tried {
  rules: readonly Rule[];
  /**
   * The rules that may still name a test once one of `rules` matched without naming one: those of
   * `rules` and of the lighter weights (a heavier rule that matched would have been found first).
   */
  naming: Group | null;
}

function groupOf(rules: readonly Rule[], any = union(rules)): Group | null {
  return rules.length > 0 ? { rules: new Set(rules), any } : null;
}

/** Heaviest first. */
const BY_WEIGHT: readonly Weight[] = ([3, 2, 1] as const).map((weight) => {
  const rules = RULES.filter((rule) => rule.weight === weight);
  const open = rules.filter((rule) => rule.needs === undefined);
  const groups = [
    groupOf(open.filter((rule) => anchored(rule.pattern))),
    groupOf(open.filter((rule) => !anchored(rule.pattern))),
    // The gated rules behind one union of their gates: a line that passes it tries them all.
    groupOf(
      rules.filter((rule) => rule.needs !== undefined),
      new RegExp(
        rules.flatMap((rule) => (rule.needs ? [`(?:${rule.needs.source})`] : [])).join("|"),
      ),
    ),
  ].filter((group) => group !== null);
  const naming = groupOf(rules.filter((rule) => rule.test !== undefined));
  return { weight, groups, rules, naming, tried: new Map() };
});

function triedFor(weight: Weight, matched: number): Tried {
  let tried = weight.tried.get(matched);
  if (tried === undefined) {
    const rules = weight.rules.filter((rule) =>
      weight.groups.some((group, bit) => (matched & (1 << bit)) !== 0 && group.rules.has(rule)),
    );
    const naming = RULES.filter(
      (rule) => rule.test !== undefined && (rule.weight < weight.weight || rules.includes(rule)),
    );
    tried = { rules, naming: groupOf(naming) };
    weight.tried.set(matched, tried);
  }
  return tried;
}

export interface RuleMatch {
  weight: number;
  tool: string;
  test?: string;
}

/** Whether a line may match a rule: false means no rule matches it. */
export function mayMatch(line: string): boolean {
  return (
    COMMON_WORDS.test(line) || GLYPH.test(line) || RARE_WORDS.some((words) => words.test(line))
  );
}

export interface MatchOptions {
  /**
   * The lightest weight whose match is wanted: a lighter rule's match is reported only for the
   * test it names (the excerpt, once it holds all the light error lines it keeps).
   */
  lightest?: 1 | 2 | 3;
  /** The line is known to hold one of the rules' words (`JobLog.linesWith`): no need to look. */
  screened?: boolean;
}

/** The first of `rules` (in their order) that matches the line and names a test. */
function namingMatch(line: string, weight: number, naming: Group | null): RuleMatch | undefined {
  if (naming === null || !naming.any.test(line)) return undefined;
  for (const rule of naming.rules) {
    const match = rule.pattern.exec(line);
    const test = match === null ? undefined : rule.test!(match);
    if (test !== undefined) return { weight, tool: rule.tool, test };
  }
  return undefined;
}

/** The heaviest rule a line matches, with the test it names (a lighter rule's, if need be). */
export function matchLine(line: string, options: MatchOptions = {}): RuleMatch | undefined {
  if (line.length > 4000 || (options.screened !== true && !mayMatch(line))) return undefined;
  const lightest = options.lightest ?? 1;
  for (const weight of BY_WEIGHT) {
    if (weight.weight < lightest) {
      const named = namingMatch(line, weight.weight, weight.naming);
      if (named !== undefined) return named;
      continue;
    }
    let matched = 0;
    for (let bit = 0; bit < weight.groups.length; bit++) {
      if (weight.groups[bit]!.any.test(line)) matched |= 1 << bit;
    }
    if (matched === 0) continue;
    const tried = triedFor(weight, matched);
    for (const rule of tried.rules) {
      const match = rule.pattern.exec(line);
      if (match === null) continue;
      const test = rule.test?.(match);
      if (test !== undefined) return { weight: weight.weight, tool: rule.tool, test };
      const named = namingMatch(line, weight.weight, tried.naming);
      return { weight: weight.weight, tool: rule.tool, test: named?.test };
    }
    // A gate passed is no match: the next weight may hold one.
  }
  return undefined;
}
