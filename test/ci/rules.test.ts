/**
 * The rules (src/ci/rules.ts) and the shortcuts that make them fast: every rule has an example
 * line it matches; the words `mayMatch` screens by are in every line any rule matches; `anchored`
 * sorts patterns right; a rule's `needs` holds wherever its pattern does; and `matchLine`, with its
 * unions, gates and options, answers as trying every rule in order would, on the examples and on
 * lines made from their pieces.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { anchored, matchLine, mayMatch, RULES } from "../../src/ci/rules.ts";
import type { Rule, RuleMatch } from "../../src/ci/rules.ts";
import { seeded } from "../support/random.ts";

/** A line of real tool output per rule (by its tool and pattern), and the test it names. */
const EXAMPLES: { line: string; tool: string; test?: string }[] = [
  {
    line: "src/main.c:12:5: error: 'x' undeclared (first use in this function)",
    tool: "gcc/clang",
  },
  { line: "lib/a.cpp:3:10: fatal error: 'missing.h' file not found", tool: "gcc/clang" },
  { line: "C:\\src\\main.cpp(12,5): error C2065: 'x': undeclared identifier", tool: "msvc" },
  // tsc's `file(9,1): error TS…` is msvc's shape too, and msvc's rule comes first: the same weight.
  { line: "src/index.ts:9:1 - error TS2304: Cannot find name 'missing'.", tool: "tsc" },
  { line: "error[E0308]: mismatched types", tool: "rustc" },
  { line: "error: cannot find value `x` in this scope", tool: "rustc" },
  { line: "src/Main.java:7: error: cannot find symbol", tool: "javac" },
  { line: "[ERROR] /repo/src/Main.java:[7,9] cannot find symbol", tool: "javac" },
  { line: "./main.go:8:2: undefined: fmt.Printn", tool: "go build" },
  {
    line: "FAILED tests/test_sum.py::test_adds - assert -1 == 5",
    tool: "pytest",
    test: "tests/test_sum.py::test_adds",
  },
  {
    line: "tests/test_sum.py::test_adds FAILED                     [ 50%]",
    tool: "pytest",
    test: "tests/test_sum.py::test_adds",
  },
  { line: "  ● sum › adds", tool: "jest", test: "sum › adds" },
  { line: " FAIL  src/sum.test.ts", tool: "jest" },
  {
    line: " FAIL  src/sum.test.ts > sum > adds",
    tool: "vitest",
    test: "src/sum.test.ts > sum > adds",
  },
  { line: "not ok 3 - sum adds", tool: "node:test", test: "sum adds" },
  { line: "✖ sum adds (1.2ms)", tool: "node:test", test: "sum adds" },
  { line: "  1) sum adds:", tool: "mocha", test: "sum adds" },
  { line: "--- FAIL: TestSum (0.00s)", tool: "go test", test: "TestSum" },
  { line: "test tests::adds ... FAILED", tool: "cargo test", test: "tests::adds" },
  {
    line: "        FAIL [   0.012s] mycrate tests::adds",
    tool: "nextest",
    test: "mycrate tests::adds",
  },
  { line: "thread 'tests::adds' panicked at src/lib.rs:9:5:", tool: "rust" },
  {
    line: "[ERROR] com.example.SumTest.adds  Time elapsed: 0.01 s  <<< FAILURE!",
    tool: "surefire",
    test: "com.example.SumTest.adds",
  },
  { line: "Tests run: 3, Failures: 1, Errors: 0 <<< FAILURE!", tool: "surefire" },
  { line: "SumTest > adds() FAILED", tool: "gradle", test: "SumTest.adds()" },
  {
    line: "FAIL: test_adds (tests.test_sum.SumTest)",
    tool: "unittest",
    test: "tests.test_sum.SumTest.test_adds",
  },
  { line: "   3:7  error  'x' is assigned a value but never used  no-unused-vars", tool: "eslint" },
  {
    line: "sum.py:3:5: F841 Local variable `x` is assigned to but never used",
    tool: "ruff/flake8",
  },
  { line: "In ./build.sh line 4:", tool: "shellcheck" },
  { line: "  ^-- SC2086 (error): Double quote to prevent globbing", tool: "shellcheck" },
  { line: "main.go:9:2: ineffectual assignment to err (ineffassign)", tool: "go build" },
  { line: "[warn] src/index.ts", tool: "prettier" },
  {
    line: "##[error]The job running on runner GitHub Actions 2 has exceeded the maximum execution time of 360 minutes.",
    tool: "runner",
  },
  { line: "Error: The operation was canceled.", tool: "runner" },
  { line: "Segmentation fault (core dumped)", tool: "signal" },
  { line: "Killed", tool: "signal" },
  { line: "TypeError: Cannot read properties of undefined (reading 'x')", tool: "exception" },
  { line: "Traceback (most recent call last):", tool: "exception" },
  { line: "E       assert -1 == 5", tool: "exception" },
  { line: 'npm ERR! Missing script: "tset"', tool: "npm" },
  { line: "make: *** [Makefile:12: all] Error 2", tool: "make" },
  { line: "FAILED: CMakeFiles/app.dir/main.cpp.o", tool: "make" },
  { line: "##[error]Something broke", tool: "runner" },
  { line: "warning: deprecated; ERROR: the build is broken", tool: "generic" },
  { line: "FAIL github.com/acme/sum 0.01s", tool: "generic" },
];

/** The reference: each weight heaviest first, its first rule (in RULES order) that matches. */
function reference(line: string): RuleMatch | undefined {
  if (line.length > 4000) return undefined;
  const naming = (rules: readonly Rule[]): string | undefined => {
    for (const rule of rules) {
      const match = rule.pattern.exec(line);
      const named = match === null ? undefined : rule.test?.(match);
      if (named !== undefined) return named;
    }
    return undefined;
  };
  for (const weight of [3, 2, 1]) {
    const rule = RULES.find((one) => one.weight === weight && one.pattern.test(line));
    if (rule === undefined) continue;
    const match = rule.pattern.exec(line)!;
    const named = rule.test?.(match) ?? naming(RULES.filter((one) => one.weight <= weight));
    return { weight, tool: rule.tool, test: named };
  }
  return undefined;
}

/** Lines made from the examples' pieces: cut, joined and prefixed at random (seeded). */
function pieced(count: number): string[] {
  const next = seeded(7);
  const random = (n: number): number => Math.floor(next() * n);
  const pieces = EXAMPLES.flatMap(({ line }) => line.split(/(?<=[ :.(\]])/));
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Array.from({ length: 1 + random(5) }, () => pieces[random(pieces.length)]!);
    const prefix = ["", " ", "    ", "x "][random(4)]!;
    lines.push(prefix + parts.join(""));
  }
  return lines;
}

const LINES = [...EXAMPLES.map(({ line }) => line), ...pieced(20_000)];

describe("the rules", () => {
  test("each rule matches one of the examples, and each example its rule with its test", () => {
    for (const rule of RULES) {
      assert.ok(
        EXAMPLES.some(({ line }) => rule.pattern.test(line)),
        `no example for ${rule.tool} ${rule.pattern}`,
      );
    }
    for (const example of EXAMPLES) {
      const match = matchLine(example.line);
      assert.equal(match?.tool, example.tool, example.line);
      assert.equal(match?.test, example.test, example.line);
    }
  });

  test("mayMatch is true of every line any rule matches", () => {
    let matched = 0;
    for (const line of LINES) {
      if (!RULES.some((rule) => rule.pattern.test(line))) continue;
      matched++;
      assert.ok(mayMatch(line), `mayMatch misses ${JSON.stringify(line)}`);
    }
    assert.ok(matched > 500, `only ${matched} lines matched: the generated lines are too tame`);
  });

  test("a rule's gate holds wherever its pattern does", () => {
    for (const rule of RULES.filter((one) => one.needs !== undefined)) {
      for (const line of LINES.filter((one) => rule.pattern.test(one))) {
        assert.ok(rule.needs!.test(line), `${rule.tool}: ${line}`);
      }
    }
  });

  test("anchored is true only where every top-level alternative starts with ^", () => {
    assert.equal(anchored(/^a|^b/), true);
    assert.equal(anchored(/^(?:a|b)c/), true);
    assert.equal(anchored(/^a[|]b/), true);
    assert.equal(anchored(/^a\|b/), true);
    assert.equal(anchored(/^a|b/), false);
    assert.equal(anchored(/a|^b/), false);
    assert.equal(anchored(/^(a|b)|c/), false);
    assert.equal(anchored(/^a|/), false);
  });

  test("matchLine answers as trying every rule in order, screened or not", () => {
    for (const line of LINES) {
      const want = reference(line);
      assert.deepEqual(matchLine(line), want, line);
      if (mayMatch(line)) assert.deepEqual(matchLine(line, { screened: true }), want, line);
    }
  });

  test("with lightest: 2, a lighter match counts only for the test it names", () => {
    for (const line of LINES) {
      const want = reference(line);
      const heavy = matchLine(line, { lightest: 2 });
      if (want !== undefined && want.weight >= 2) assert.deepEqual(heavy, want, line);
      else if (heavy === undefined) assert.equal(want?.test, undefined, line);
      else assert.deepEqual([heavy.weight, heavy.test], [want!.weight, want!.test], line);
    }
  });
});
