/**
 * The excerpt (src/ci/excerpt.ts over rules.ts and log.ts) on a job log in the runner's own format
 * — BOM, timestamps, ANSI colours, `##[group]` step headers, the generic exit-code line — for every
 * tool the rules know: the failing tests and the first error come out, the first error is in the
 * excerpt, the runner's generic line is not, repeats are left out, and the budget holds.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { estimateText } from "../../src/context/tokens.ts";
import { excerptText } from "../../src/ci/excerpt.ts";
import { runnerLog } from "../support/runner-log.ts";

interface Case {
  tool: string;
  command: string;
  output: string[];
  tests: string[];
  first: RegExp;
}

const CASES: Case[] = [
  {
    tool: "jest",
    command: "npx jest",
    output: [
      "\u001b[1m\u001b[31m FAIL \u001b[39m\u001b[22m src/sum.test.ts",
      "  sum",
      "    ✕ adds (3 ms)",
      "  ● sum › adds",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "    Expected: 5",
      "    Received: -1",
      "Tests:       1 failed, 3 passed, 4 total",
    ],
    tests: ["sum › adds"],
    first: /● sum › adds/,
  },
  {
    tool: "vitest",
    command: "npx vitest run",
    output: [
      " ❯ src/sum.test.ts (2 tests | 1 failed) 4ms",
      "   × sum > adds 3ms",
      " FAIL  src/sum.test.ts > sum > adds",
      "AssertionError: expected -1 to be 5 // Object.is equality",
    ],
    tests: ["src/sum.test.ts > sum > adds"],
    first: /FAIL {2}src\/sum\.test\.ts > sum > adds/,
  },
  {
    tool: "mocha",
    command: "npx mocha",
    output: [
      "  2 passing (8ms)",
      "  1 failing",
      "",
      "  1) sum adds:",
      "     AssertionError [ERR_ASSERTION]: -1 == 5",
      "      at Context.<anonymous> (test/sum.js:6:12)",
    ],
    tests: ["sum adds"],
    first: /AssertionError \[ERR_ASSERTION\]: -1 == 5/,
  },
  {
    tool: "node:test",
    command: "node --test",
    output: [
      "TAP version 13",
      "# Subtest: adds",
      "not ok 1 - adds",
      "  ---",
      "  error: 'Expected values to be strictly equal:\\n\\n-1 !== 5\\n'",
      "  ...",
    ],
    tests: ["adds"],
    first: /not ok 1 - adds/,
  },
  {
    tool: "pytest",
    command: "pytest",
    output: [
      "tests/test_sum.py::test_adds FAILED                                       [ 50%]",
      "=================================== FAILURES ===================================",
      "    def test_adds():",
      ">       assert add(2, 3) == 5",
      "E       assert -1 == 5",
      "=========================== short test summary info ============================",
      "FAILED tests/test_sum.py::test_adds - assert -1 == 5",
      "========================= 1 failed, 1 passed in 0.12s =========================",
    ],
    tests: ["tests/test_sum.py::test_adds"],
    first: /^FAILED tests\/test_sum\.py::test_adds - assert -1 == 5$/,
  },
  {
    tool: "unittest",
    command: "python -m unittest",
    output: [
      "F.",
      "======================================================================",
      "FAIL: test_adds (tests.test_sum.SumTest.test_adds)",
      "----------------------------------------------------------------------",
      "AssertionError: -1 != 5",
    ],
    tests: ["tests.test_sum.SumTest.test_adds.test_adds"],
    first: /^FAIL: test_adds/,
  },
  {
    tool: "go test",
    command: "go test ./...",
    output: [
      "=== RUN   TestAdd",
      "    sum_test.go:9: add(2, 3) = -1, want 5",
      "--- FAIL: TestAdd (0.00s)",
      "FAIL",
      "FAIL\texample.com/sum\t0.002s",
    ],
    tests: ["TestAdd"],
    first: /--- FAIL: TestAdd/,
  },
  {
    tool: "cargo test",
    command: "cargo test",
    output: [
      "running 2 tests",
      "test tests::adds ... FAILED",
      "test tests::subs ... ok",
      "failures:",
      "---- tests::adds stdout ----",
      "thread 'tests::adds' panicked at src/lib.rs:12:9:",
      "assertion `left == right` failed",
      "test result: FAILED. 1 passed; 1 failed",
    ],
    tests: ["tests::adds"],
    first: /^test tests::adds \.\.\. FAILED$/,
  },
  {
    tool: "nextest",
    command: "cargo nextest run",
    output: [
      "        PASS [   0.004s] sum tests::subs",
      "        FAIL [   0.005s] sum tests::adds",
      "thread 'tests::adds' panicked at src/lib.rs:12:9:",
    ],
    tests: ["sum tests::adds"],
    first: /FAIL \[ {3}0\.005s\] sum tests::adds/,
  },
  {
    tool: "maven surefire",
    command: "mvn -B test",
    output: [
      "[INFO] Running com.example.SumTest",
      "[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.03 s <<< FAILURE! - in com.example.SumTest",
      "[ERROR] com.example.SumTest.adds  Time elapsed: 0.01 s  <<< FAILURE!",
      "org.opentest4j.AssertionFailedError: expected: <5> but was: <-1>",
      "[ERROR] Failures: ",
      "[ERROR]   SumTest.adds:12 expected: <5> but was: <-1>",
    ],
    tests: ["com.example.SumTest.adds"],
    first: /com\.example\.SumTest/,
  },
  {
    tool: "gradle",
    command: "./gradlew test",
    output: [
      "> Task :test FAILED",
      "SumTest > adds() FAILED",
      "    org.opentest4j.AssertionFailedError at SumTest.java:12",
      "FAILURE: Build failed with an exception.",
    ],
    tests: ["SumTest.adds()"],
    first: /^SumTest > adds\(\) FAILED$/,
  },
  {
    tool: "tsc",
    command: "npx tsc --noEmit",
    output: [
      "src/sum.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "Found 1 error in src/sum.ts:3",
    ],
    tests: [],
    first: /^src\/sum\.ts\(3,5\): error TS2322/,
  },
  {
    tool: "eslint",
    command: "npx eslint .",
    output: [
      "/home/runner/work/r/r/src/sum.ts",
      "  3:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars",
      "✖ 1 problem (1 error, 0 warnings)",
    ],
    tests: [],
    first: /3:7 {2}error {2}'unused'/,
  },
  {
    tool: "gcc",
    command: "make",
    output: [
      "gcc -c sum.c -o sum.o",
      "sum.c:3:12: error: 'b' undeclared (first use in this function)",
      "make: *** [Makefile:4: sum.o] Error 1",
    ],
    tests: [],
    first: /^sum\.c:3:12: error: 'b' undeclared/,
  },
  {
    tool: "msvc",
    command: "msbuild",
    output: ["sum.cpp(3,12): error C2065: 'b': undeclared identifier [D:\\a\\r\\r\\sum.vcxproj]"],
    tests: [],
    first: /^sum\.cpp\(3,12\): error C2065/,
  },
  {
    tool: "ninja",
    command: "ninja -C build",
    output: [
      "[1/2] Building C object CMakeFiles/sum.dir/sum.c.o",
      "FAILED: CMakeFiles/sum.dir/sum.c.o",
      "../sum.c:3:12: error: use of undeclared identifier 'b'",
      "ninja: build stopped: subcommand failed.",
    ],
    tests: [],
    first: /^\.\.\/sum\.c:3:12: error: use of undeclared identifier 'b'/,
  },
  {
    tool: "rustc",
    command: "cargo build",
    output: [
      "   Compiling sum v0.1.0",
      "error[E0308]: mismatched types",
      " --> src/lib.rs:2:5",
      "error: could not compile `sum` (lib) due to 1 previous error",
    ],
    tests: [],
    first: /^error\[E0308\]: mismatched types$/,
  },
  {
    tool: "ruff",
    command: "ruff check .",
    output: ["sum.py:3:5: F841 Local variable `x` is assigned to but never used", "Found 1 error."],
    tests: [],
    first: /^sum\.py:3:5: F841/,
  },
  {
    tool: "a timeout",
    command: "npm test",
    output: [
      "running 12 tests",
      "##[error]The job running on runner GitHub Actions 2 has exceeded the maximum execution time of 360 minutes.",
    ],
    tests: [],
    first: /exceeded the maximum execution time of 360 minutes/,
  },
  {
    tool: "a signal",
    command: "./run-tests",
    output: ["starting", "Segmentation fault (core dumped)"],
    tests: [],
    first: /Segmentation fault/,
  },
];

describe("excerpts per tool", () => {
  for (const one of CASES) {
    test(one.tool, () => {
      const excerpt = excerptText(runnerLog(one.command, one.output));
      assert.deepEqual(excerpt.failingTests, one.tests);
      assert.match(excerpt.firstError ?? "", one.first);
      assert.ok(excerpt.excerpt.includes(excerpt.firstError!), "the first error is in the excerpt");
      assert.match(
        excerpt.excerpt,
        new RegExp(`##\\[group\\]Run ${one.command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
      assert.doesNotMatch(excerpt.excerpt, /Process completed with exit code/);
      assert.ok(!excerpt.excerpt.includes("\u001b") && !excerpt.excerpt.includes("\ufeff"));
      assert.doesNotMatch(excerpt.excerpt, /2026-12-02T/);
    });
  }
});

describe("the excerpt's limits", () => {
  test("repeats are left out and counted", () => {
    const output = Array.from({ length: 50 }, (_, i) => `Error: connection ${i} refused`);
    const excerpt = excerptText(runnerLog("npm test", output));
    assert.match(excerpt.excerpt, /repeated line\(s\) left out/);
    assert.ok(excerpt.excerpt.split("\n").filter((line) => line.startsWith("Error:")).length <= 2);
  });

  test("a huge log stays within the budget, and its one real failure is the first error", () => {
    const noise = Array.from(
      { length: 200_000 },
      (_, i) => `ok ${i} - test number ${i} passes quietly`,
    );
    noise.splice(150_000, 0, "src/deep.ts(9,1): error TS2304: Cannot find name 'missing'.");
    const many = Array.from({ length: 5000 }, (_, i) => `warning: thing ${i} error: ignored`);
    const excerpt = excerptText(runnerLog("npm run build", [...noise, ...many]), {
      maxTokens: 2000,
    });
    assert.match(excerpt.firstError ?? "", /error TS2304: Cannot find name 'missing'/);
    assert.ok(excerpt.excerpt.includes(excerpt.firstError!));
    assert.ok(estimateText(excerpt.excerpt) <= 2000, `${estimateText(excerpt.excerpt)} tokens`);
  });

  test("JUnit reports name the failing tests before the console does", () => {
    const excerpt = excerptText(runnerLog("pytest", ["FAILED tests/a.py::b - boom"]), {
      reports: {
        "r/junit.xml":
          '<testsuite><testcase classname="tests.a" name="b"><failure message="boom"/></testcase></testsuite>',
        "r/other.xml": "<html>not a report</html>",
      },
    });
    assert.deepEqual(excerpt.failingTests, ["tests.a.b"]);
  });

  test("a log no rule matches shows the end of the failed step", () => {
    const excerpt = excerptText(
      runnerLog("./check", ["step one", "step two", "something went sideways"]),
    );
    assert.equal(excerpt.firstError, null);
    assert.match(excerpt.excerpt, /something went sideways/);
  });
});
