/**
 * Which lines of a CI log are errors, per tool, and the failing test ids the tools print. Each rule
 * has a weight: 3 for a tool's own statement of a failure with its cause (a compiler's
 * `file:line:col: error:`, pytest's `FAILED x::y - why`, a timeout), 2 for an exception or an
 * assertion's message, 1 for a generic marker (`##[error]`, make's `Error 1`, ninja's `FAILED:`).
 * The first error is the first line of the highest weight found. Pure.
 */

export interface Rule {
  tool: string;
  weight: 1 | 2 | 3;
  pattern: RegExp;
  /** The failing test id the line names, if it names one. */
  test?: (match: RegExpExecArray) => string | undefined;
}

export const RULES: readonly Rule[] = [
  // Compilers and type checkers: gcc/clang, msvc, tsc, rustc, go build, javac, kotlinc.
  { tool: "gcc/clang", weight: 3, pattern: /^\S.*?:\d+:\d+: (?:fatal )?error: / },
  { tool: "msvc", weight: 3, pattern: /^\S.*?\(\d+(?:,\d+)?\): (?:fatal )?error [A-Z]+\d+:/ },
  { tool: "tsc", weight: 3, pattern: /^\S.*?(?:\(\d+,\d+\)|:\d+:\d+)(?: -)? error TS\d+:/ },
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
  { tool: "shellcheck", weight: 3, pattern: /^In \S+ line \d+:$|\bSC\d{4}\b.*\(error\)/ },
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
    pattern:
      /\bSegmentation fault\b|\bcore dumped\b|^Killed$|exit code 13[79]\b|\bSIGKILL\b|Out of memory/,
  },
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
  {
    tool: "generic",
    weight: 1,
    pattern: /\b(?:error|ERROR|FAILED|FATAL)\b[:!]|^(?:FAIL|FAILED)\b/,
  },
];

/** Rules as one regex: one test answers "does any of them match?". */
function union(rules: readonly Rule[]): RegExp {
  return new RegExp(rules.map((rule) => `(?:${rule.pattern.source})`).join("|"));
}

/**
 * A plain test for a word every rule needs (its literal part): a regex of literals only, which V8
 * runs far faster than the rules' own patterns, so most lines of a big log stop here.
 */
const WORDS =
  /rror|FAIL|fail|●|not ok|✖|×|❯|panic|Traceback|timed out|execution time|canceled|shutdown signal|Segmentation|core dumped|Killed|exit code|SIGKILL|Out of memory|Exception|\) |In |SC\d|\.py:\d|\.go:\d|\[warn\]|\*\*\*|FATAL/;

/** Heaviest first: a line is tested against one union per weight, and the rules of the first that matches. */
const BY_WEIGHT = ([3, 2, 1] as const).map((weight) => {
  const rules = RULES.filter((rule) => rule.weight === weight);
  return { weight, rules, any: union(rules) };
});
const NAMING = RULES.filter((rule) => rule.test !== undefined);
const ANY_NAMING = union(NAMING);

export interface RuleMatch {
  weight: number;
  tool: string;
  test?: string;
}

/** The heaviest rule a line matches, with the test it names (a lighter rule's, if need be). */
export function matchLine(line: string): RuleMatch | undefined {
  if (line.length > 4000 || !WORDS.test(line)) return undefined;
  for (const { weight, rules, any } of BY_WEIGHT) {
    if (!any.test(line)) continue;
    let found: RuleMatch | undefined;
    for (const rule of rules) {
      const match = rule.pattern.exec(line);
      if (match === null) continue;
      found = { weight, tool: rule.tool, test: rule.test?.(match) };
      if (found.test !== undefined) return found;
      break;
    }
    if (found === undefined || !ANY_NAMING.test(line)) return found;
    for (const rule of NAMING) {
      const match = rule.pattern.exec(line);
      const test = match === null ? undefined : rule.test!(match);
      if (test !== undefined) return { ...found, test };
    }
    return found;
  }
  return undefined;
}
