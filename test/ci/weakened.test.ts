/**
 * The weakened-test check (src/ci/weakened.ts) on diffs real git makes: a repository is committed,
 * changed as a repair might change it, and `git diff` (with no context and with three lines) is
 * read. Each kind is found in each language it names, with its file and line; and the changes a
 * real fix makes — a moved or renamed test, a changed assertion, comments, strings, a fix to CI —
 * are not.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { WEAKENING_TEXT_LIMIT, findWeakenings } from "../../src/ci/weakened.ts";
import { fixtureGit } from "../support/fixture-repo.ts";

type Files = Record<string, string>;

/** What `git diff` says of `before` committed and then changed to `after` (null: deleted). */
function gitDiff(
  before: Files,
  after: Record<string, string | null>,
  { context = 0, renames = true }: { context?: number; renames?: boolean } = {},
): string {
  const repo = mkdtempSync(join(tmpdir(), "pitcrew-weakened-"));
  try {
    const write = (files: Record<string, string | null>): void => {
      for (const [path, text] of Object.entries(files)) {
        const file = join(repo, path);
        if (text === null) {
          rmSync(file);
        } else {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
    };
    fixtureGit(repo, "init", "-q");
    write(before);
    fixtureGit(repo, "add", ".");
    fixtureGit(repo, "commit", "-q", "-m", "before");
    write(after);
    fixtureGit(repo, "add", "-A");
    return fixtureGit(
      repo,
      "diff",
      "--cached",
      "--no-color",
      `-U${context}`,
      renames ? "-M" : "--no-renames",
      "--src-prefix=a/",
      "--dst-prefix=b/",
      "HEAD",
    );
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/** Each weakening as one line: `kind file:line text`. */
function found(diff: string): string[] {
  return findWeakenings(diff).map((w) => `${w.kind} ${w.file}:${w.line} ${w.text}`);
}

interface Case {
  name: string;
  before: Files;
  after: Record<string, string | null>;
  /** The same from both diffs, or what each finds where context tells more. */
  expected: string[] | { 0: string[]; 3: string[] };
  renames?: boolean;
}

/** Each case is read from a diff without context and from one with git's usual three lines. */
function cases(list: readonly Case[]): void {
  for (const { name, before, after, expected, renames } of list) {
    for (const context of [0, 3] as const) {
      test(`${name} (-U${context})`, () => {
        const wanted = Array.isArray(expected) ? expected : expected[context];
        assert.deepEqual(found(gitDiff(before, after, { context, renames })), wanted);
      });
    }
  }
}

const VITEST = `import { describe, expect, test } from "vitest";
import { add } from "../src/add";

describe("add", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });

  test("adds negatives", () => {
    expect(add(-1, -2)).toBe(-3);
    expect(add(-1, 1)).toBe(0);
  });
});
`;

const MOCHA = `const assert = require("node:assert/strict");
const { parse } = require("../lib/parse");

describe("parse", function () {
  it("reads a number", function () {
    assert.equal(parse("1"), 1);
  });

  it("reads a list", function () {
    assert.deepEqual(parse("[1, 2]"), [1, 2]);
  });
});
`;

const NODE_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { slug } from "../src/slug.ts";

test("lower-cases", () => {
  assert.equal(slug("A B"), "a-b");
});

test("drops punctuation", () => {
  assert.equal(slug("a, b!"), "a-b");
});
`;

const PYTEST = `import pytest

from calc import add, divide


def test_add():
    assert add(1, 2) == 3


def test_divide_by_zero():
    with pytest.raises(ZeroDivisionError):
        divide(1, 0)


class TestRounding:
    def test_half_up(self):
        assert add(0.5, 0) == 0.5
`;

const UNITTEST = `import unittest

from calc import add


class AddTest(unittest.TestCase):
    def test_small(self):
        self.assertEqual(add(1, 2), 3)

    def test_large(self):
        self.assertEqual(add(10**9, 1), 10**9 + 1)
`;

const GO_TEST = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("Add(1, 2) = %d, want 3", got)
	}
}

func TestTable(t *testing.T) {
	t.Run("zero", func(t *testing.T) {
		if Add(0, 0) != 0 {
			t.Fatal("zero")
		}
	})
	t.Run("negative", func(t *testing.T) {
		if Add(-1, -1) != -2 {
			t.Fatal("negative")
		}
	})
}
`;

const RUST_LIB = `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn double(a: i32) -> i32 {
    a * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }
}
`;

const JUNIT = `package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void addsSmallNumbers() {
        assertEquals(3, Calc.add(1, 2));
    }

    @Test
    void addsLargeNumbers() {
        assertEquals(2000000, Calc.add(1000000, 1000000));
    }
}
`;

const KOTEST = `package calc

import org.junit.jupiter.api.Test
import io.kotest.matchers.shouldBe

class CalcTest {
    @Test
    fun \`adds small numbers\`() {
        Calc.add(1, 2) shouldBe 3
    }
}
`;

/** Replaces `from` in `text`, failing when it is not there (a case that tests nothing). */
function edit(text: string, from: string | RegExp, to: string): string {
  const changed = text.replace(from, to);
  assert.notEqual(changed, text, `${String(from)} is not in the text`);
  return changed;
}

describe("findWeakenings: deleted tests", () => {
  cases([
    {
      name: "vitest: a test removed from a describe",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(VITEST, /\n {2}test\("adds negatives"[\s\S]*?\n {2}\}\);\n/, "\n"),
      },
      expected: ['deleted-test test/add.test.ts:9 test("adds negatives", () => {'],
    },
    {
      name: "vitest: the whole describe removed",
      before: { "test/add.test.ts": VITEST, "test/other.test.ts": 'test("x", () => {});\n' },
      after: { "test/add.test.ts": 'import { test } from "vitest";\n' },
      expected: [
        'deleted-test test/add.test.ts:4 describe("add", () => {',
        'deleted-test test/add.test.ts:5 test("adds", () => {',
        'deleted-test test/add.test.ts:9 test("adds negatives", () => {',
      ],
    },
    {
      name: "mocha: an it() removed",
      before: { "test/parse.spec.js": MOCHA },
      after: {
        "test/parse.spec.js": edit(MOCHA, /\n {2}it\("reads a list"[\s\S]*?\n {2}\}\);\n/, "\n"),
      },
      expected: ['deleted-test test/parse.spec.js:9 it("reads a list", function () {'],
    },
    {
      name: "node:test: a test commented out line by line",
      before: { "test/slug.test.ts": NODE_TEST },
      after: {
        "test/slug.test.ts": edit(
          NODE_TEST,
          'test("drops punctuation", () => {\n  assert.equal(slug("a, b!"), "a-b");\n});',
          '// test("drops punctuation", () => {\n//   assert.equal(slug("a, b!"), "a-b");\n// });',
        ),
      },
      expected: ['deleted-test test/slug.test.ts:9 test("drops punctuation", () => {'],
    },
    {
      name: "pytest: a test function removed",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": edit(
          PYTEST,
          "def test_divide_by_zero():\n    with pytest.raises(ZeroDivisionError):\n        divide(1, 0)\n\n\n",
          "",
        ),
      },
      expected: ["deleted-test tests/test_calc.py:10 def test_divide_by_zero():"],
    },
    {
      name: "pytest: a test class removed",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": edit(PYTEST, /\n\nclass TestRounding:[\s\S]*$/, "\n"),
      },
      expected: [
        "deleted-test tests/test_calc.py:15 class TestRounding:",
        "deleted-test tests/test_calc.py:16 def test_half_up(self):",
      ],
    },
    {
      name: "pytest: a test renamed so pytest no longer collects it",
      before: { "tests/test_calc.py": PYTEST },
      after: { "tests/test_calc.py": edit(PYTEST, "def test_add():", "def _test_add():") },
      expected: ["deleted-test tests/test_calc.py:6 def test_add():"],
    },
    {
      name: "unittest: a test method removed",
      before: { "tests/test_add.py": UNITTEST },
      after: {
        "tests/test_add.py": edit(UNITTEST, /\n\n {4}def test_large[\s\S]*$/, "\n"),
      },
      expected: ["deleted-test tests/test_add.py:10 def test_large(self):"],
    },
    {
      name: "go: a TestX function removed",
      before: { "calc/calc_test.go": GO_TEST },
      after: { "calc/calc_test.go": edit(GO_TEST, /func TestAdd[\s\S]*?\n\}\n\n/, "") },
      expected: ["deleted-test calc/calc_test.go:5 func TestAdd(t *testing.T) {"],
    },
    {
      name: "go: a subtest removed",
      before: { "calc/calc_test.go": GO_TEST },
      after: { "calc/calc_test.go": edit(GO_TEST, /\tt\.Run\("negative"[\s\S]*?\t\}\)\n/, "") },
      expected: ['deleted-test calc/calc_test.go:17 t.Run("negative", func(t *testing.T) {'],
    },
    {
      name: "rust: a #[test] function removed from the module's tests",
      before: { "src/lib.rs": RUST_LIB },
      after: {
        "src/lib.rs": edit(RUST_LIB, /\n {4}#\[test\]\n {4}fn doubles[\s\S]*?\n {4}\}\n/, "\n"),
      },
      expected: ["deleted-test src/lib.rs:18 #[test] doubles"],
    },
    {
      name: "rust: the #[test] attribute alone removed, so the function no longer runs",
      before: { "src/lib.rs": RUST_LIB },
      after: { "src/lib.rs": edit(RUST_LIB, "    #[test]\n    fn doubles", "    fn doubles") },
      // Without context the function's name is not in the diff.
      expected: {
        0: ["deleted-test src/lib.rs:18 #[test]"],
        3: ["deleted-test src/lib.rs:18 #[test] doubles"],
      },
    },
    {
      name: "junit: an @Test method removed",
      before: { "src/test/java/calc/CalcTest.java": JUNIT },
      after: {
        "src/test/java/calc/CalcTest.java": edit(
          JUNIT,
          /\n {4}@Test\n {4}void addsLargeNumbers[\s\S]*?\n {4}\}\n/,
          "",
        ),
      },
      expected: ["deleted-test src/test/java/calc/CalcTest.java:13 @Test addsLargeNumbers"],
    },
    {
      name: "kotlin: a test named in backticks removed",
      before: { "src/test/kotlin/CalcTest.kt": KOTEST },
      after: {
        "src/test/kotlin/CalcTest.kt": edit(KOTEST, /\n {4}@Test[\s\S]*?\n {4}\}\n/, "\n"),
      },
      expected: ["deleted-test src/test/kotlin/CalcTest.kt:7 @Test adds small numbers"],
    },
    {
      name: "a whole test file deleted: each of its tests",
      before: { "tests/test_add.py": UNITTEST, "calc.py": "def add(a, b):\n    return a + b\n" },
      after: { "tests/test_add.py": null },
      expected: [
        "deleted-test tests/test_add.py:6 class AddTest(unittest.TestCase):",
        "deleted-test tests/test_add.py:7 def test_small(self):",
        "deleted-test tests/test_add.py:10 def test_large(self):",
      ],
    },
    {
      name: "a deleted test file of top-level asserts: the file",
      before: {
        "calc.test.js": 'import assert from "node:assert/strict";\nassert.equal(1 + 1, 2);\n',
      },
      after: { "calc.test.js": null },
      expected: ["deleted-test calc.test.js:1 calc.test.js"],
    },
    {
      name: "a test file renamed to a name no runner collects",
      before: { "tests/test_add.py": UNITTEST },
      after: { "tests/test_add.py": null, "tests/test_add.py.disabled": UNITTEST },
      expected: ["deleted-test tests/test_add.py:1 tests/test_add.py → tests/test_add.py.disabled"],
    },
    {
      name: "a test wrapped in a block comment",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(
          edit(VITEST, '  test("adds negatives"', '  /*\n  test("adds negatives"'),
          "toBe(0);\n  });\n",
          "toBe(0);\n  });\n  */\n",
        ),
      },
      expected: ["deleted-test test/add.test.ts:9 /*"],
    },
    {
      name: "a python test wrapped in a string",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": edit(
          edit(PYTEST, "def test_add():", '"""\ndef test_add():'),
          "== 3\n",
          '== 3\n"""\n',
        ),
      },
      expected: ['deleted-test tests/test_calc.py:6 """'],
    },
  ]);
});

describe("findWeakenings: tests that moved or changed are not deleted", () => {
  cases([
    {
      name: "a test file renamed as it is",
      before: { "src/add.test.ts": VITEST },
      after: { "src/add.test.ts": null, "test/add.test.ts": VITEST },
      expected: [],
    },
    {
      name: "a test file moved and edited, read without rename detection",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": null,
        "tests/unit/test_calc.py": edit(PYTEST, "from calc import", "from calc.core import"),
      },
      renames: false,
      expected: [],
    },
    {
      name: "a test moved from one file to another",
      before: {
        "test/add.test.ts": VITEST,
        "test/negative.test.ts": 'import { test } from "vitest";\n',
      },
      after: {
        "test/add.test.ts": edit(VITEST, /\n {2}test\("adds negatives"[\s\S]*?\n {2}\}\);\n/, "\n"),
        "test/negative.test.ts":
          'import { expect, test } from "vitest";\nimport { add } from "../src/add";\n\n' +
          'test("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n  expect(add(-1, 1)).toBe(0);\n});\n',
      },
      expected: [],
    },
    {
      name: "a test moved within its file",
      before: { "calc/calc_test.go": GO_TEST },
      after: {
        "calc/calc_test.go":
          edit(GO_TEST, /func TestAdd[\s\S]*?\n\}\n\n/, "") +
          '\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Errorf("Add(1, 2) = %d, want 3", got)\n\t}\n}\n',
      },
      expected: [],
    },
    {
      name: "a test renamed in place",
      before: { "test/parse.spec.js": MOCHA },
      after: { "test/parse.spec.js": edit(MOCHA, 'it("reads a number"', 'it("reads an integer"') },
      expected: [],
    },
    {
      name: "a test made async, its body changed",
      before: { "test/slug.test.ts": NODE_TEST },
      after: {
        "test/slug.test.ts": edit(
          NODE_TEST,
          'test("lower-cases", () => {\n  assert.equal(slug("A B"), "a-b");',
          'test("lower-cases", async () => {\n  assert.equal(await slug("A B"), "a-b");',
        ),
      },
      expected: [],
    },
    {
      name: "a rust test gets a second attribute",
      before: { "src/lib.rs": RUST_LIB },
      after: {
        "src/lib.rs": edit(
          RUST_LIB,
          "    #[test]\n    fn adds",
          "    #[test]\n    #[allow(unused)]\n    fn adds",
        ),
      },
      expected: [],
    },
    {
      name: "a new test added",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": `${PYTEST}\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n`,
      },
      expected: [],
    },
    {
      name: "describe() and it() removed from a file that holds no tests",
      before: {
        "src/docs.ts": 'export function describe(x: string) {\n  return it(x);\n}\nit("a");\n',
      },
      after: { "src/docs.ts": "export function describe(x: string) {\n  return x;\n}\n" },
      expected: [],
    },
    {
      name: "a helper named test() removed from a test folder",
      before: {
        "test/support/run.ts": "export function test(name: string) {\n  return name;\n}\n",
      },
      after: { "test/support/run.ts": "export const run = (name: string) => name;\n" },
      expected: [],
    },
    {
      name: "a regex's .test() and a commented-out or quoted test removed",
      before: {
        "test/util.test.js":
          'const ok = /a/.test(name);\n// it("old idea", () => {});\nconst doc = \'it("x", fn)\';\nit("stays", () => {});\n',
      },
      after: { "test/util.test.js": 'it("stays", () => {});\n' },
      expected: [],
    },
    {
      name: "a documentation comment added above a test",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(
          VITEST,
          '  test("adds", () => {',
          '  /**\n   * The plain case.\n   */\n  test("adds", () => {',
        ),
      },
      expected: [],
    },
    {
      name: "a rust function that is no test removed from a source file",
      before: { "src/lib.rs": RUST_LIB },
      after: { "src/lib.rs": edit(RUST_LIB, /pub fn double[\s\S]*?\n\}\n\n/, "") },
      expected: [],
    },
  ]);
});

describe("findWeakenings: skip, only, xfail and ignore markers", () => {
  const js: [string, string][] = [
    ["it.skip", 'it.skip("reads a list", function () {'],
    ["describe.only", 'describe.only("parse", function () {'],
    ["it.only", 'it.only("reads a list", function () {'],
    ["xit", 'xit("reads a list", function () {'],
    ["xdescribe", 'xdescribe("parse", function () {'],
    ["fit", 'fit("reads a list", function () {'],
    ["it.todo", 'it.todo("reads a list", function () {'],
    ["test.fixme", 'test.fixme("reads a list", function () {'],
    ["test.describe.skip", 'test.describe.skip("parse", function () {'],
    ["it.failing", 'it.failing("reads a list", function () {'],
    ["it.skipIf", 'it.skipIf(process.env.CI)("reads a list", function () {'],
    ["node:test's skip option", 'it("reads a list", { skip: true }, function () {'],
    ["node:test's todo option", 'it("reads a list", { todo: "flaky on CI" }, function () {'],
  ];
  for (const [name, line] of js) {
    const from = name.includes("describe")
      ? 'describe("parse", function () {'
      : 'it("reads a list", function () {';
    const at = name.includes("describe") ? 4 : 9;
    cases([
      {
        name: `javascript: ${name}`,
        before: { "test/parse.spec.js": MOCHA },
        after: { "test/parse.spec.js": edit(MOCHA, from, line) },
        expected: [`skip-marker test/parse.spec.js:${at} ${line}`],
      },
    ]);
  }

  cases([
    {
      name: "mocha: this.skip() in a test",
      before: { "test/parse.spec.js": MOCHA },
      after: {
        "test/parse.spec.js": edit(
          MOCHA,
          "    assert.deepEqual(",
          "    this.skip();\n    assert.deepEqual(",
        ),
      },
      expected: ["skip-marker test/parse.spec.js:10 this.skip();"],
    },
  ]);

  const python: [string, string][] = [
    ["@pytest.mark.skip", '@pytest.mark.skip(reason="flaky")'],
    ["@pytest.mark.skipif", '@pytest.mark.skipif(sys.platform == "linux", reason="later")'],
    ["@pytest.mark.xfail", "@pytest.mark.xfail"],
    ["@unittest.skip", '@unittest.skip("broken")'],
  ];
  for (const [name, marker] of python) {
    cases([
      {
        name: `python: ${name}`,
        before: { "tests/test_calc.py": PYTEST },
        after: {
          "tests/test_calc.py": edit(PYTEST, "def test_add():", `${marker}\ndef test_add():`),
        },
        expected: [`skip-marker tests/test_calc.py:6 ${marker}`],
      },
    ]);
  }

  cases([
    {
      name: "python: pytest.skip() and self.skipTest() in the body",
      before: { "tests/test_add.py": UNITTEST, "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_add.py": edit(
          UNITTEST,
          "    def test_small(self):\n",
          '    def test_small(self):\n        self.skipTest("later")\n',
        ),
        "tests/test_calc.py": edit(
          PYTEST,
          "def test_add():\n",
          'def test_add():\n    pytest.skip("later")\n',
        ),
      },
      expected: [
        'skip-marker tests/test_add.py:8 self.skipTest("later")',
        'skip-marker tests/test_calc.py:7 pytest.skip("later")',
      ],
    },
    {
      name: "go: t.Skip",
      before: { "calc/calc_test.go": GO_TEST },
      after: {
        "calc/calc_test.go": edit(
          GO_TEST,
          "func TestAdd(t *testing.T) {\n",
          'func TestAdd(t *testing.T) {\n\tt.Skip("flaky")\n',
        ),
      },
      expected: ['skip-marker calc/calc_test.go:6 t.Skip("flaky")'],
    },
    {
      name: "rust: #[ignore] and #[ignore = reason]",
      before: { "src/lib.rs": RUST_LIB },
      after: {
        "src/lib.rs": edit(
          edit(RUST_LIB, "    #[test]\n    fn adds", "    #[test]\n    #[ignore]\n    fn adds"),
          "    #[test]\n    fn doubles",
          '    #[test]\n    #[ignore = "slow"]\n    fn doubles',
        ),
      },
      expected: [
        "skip-marker src/lib.rs:14 #[ignore]",
        'skip-marker src/lib.rs:20 #[ignore = "slow"]',
      ],
    },
    {
      name: "junit: @Disabled and @Ignore",
      before: { "src/test/java/calc/CalcTest.java": JUNIT },
      after: {
        "src/test/java/calc/CalcTest.java": edit(
          edit(
            JUNIT,
            "    @Test\n    void addsSmall",
            "    @Test\n    @Disabled\n    void addsSmall",
          ),
          "    @Test\n    void addsLarge",
          '    @Ignore("later")\n    @Test\n    void addsLarge',
        ),
      },
      expected: [
        "skip-marker src/test/java/calc/CalcTest.java:9 @Disabled",
        'skip-marker src/test/java/calc/CalcTest.java:14 @Ignore("later")',
      ],
    },
  ]);
});

describe("findWeakenings: what only looks like a marker", () => {
  cases([
    {
      name: "a skip removed (the fix makes the test run again)",
      before: { "test/parse.spec.js": edit(MOCHA, 'it("reads a list"', 'it.skip("reads a list"') },
      after: { "test/parse.spec.js": MOCHA },
      expected: [],
    },
    {
      name: "markers in comments and strings, skip: false, and a page size",
      before: { "test/parse.spec.js": MOCHA },
      after: {
        "test/parse.spec.js": edit(
          MOCHA,
          'const { parse } = require("../lib/parse");\n',
          'const { parse } = require("../lib/parse");\n' +
            "// it.skip() would hide it; don't.\n" +
            'const help = "use it.only( to focus";\n' +
            "/* xit( is jasmine's */\n" +
            "const options = { skip: false };\n" +
            "const page = { skip: 10, take: 5 };\n",
        ),
      },
      expected: [],
    },
    {
      name: "a database query's .skip() in code that is no test",
      before: { "src/users.ts": "export const page = () => users.find();\n" },
      after: { "src/users.ts": "export const page = () => users.find().skip(10).limit(5);\n" },
      expected: [],
    },
    {
      name: "python: a skip in a docstring",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": edit(
          PYTEST,
          "def test_add():\n",
          'def test_add():\n    """Never @pytest.mark.skip this."""\n',
        ),
      },
      expected: [],
    },
  ]);
});

describe("findWeakenings: removed assertions", () => {
  cases([
    {
      name: "vitest: an expect removed",
      before: { "test/add.test.ts": VITEST },
      after: { "test/add.test.ts": edit(VITEST, "    expect(add(-1, 1)).toBe(0);\n", "") },
      expected: ["removed-assertion test/add.test.ts:11 expect(add(-1, 1)).toBe(0);"],
    },
    {
      name: "node:assert: an assert.equal removed",
      before: { "test/slug.test.ts": NODE_TEST },
      after: {
        "test/slug.test.ts": edit(NODE_TEST, '  assert.equal(slug("a, b!"), "a-b");\n', ""),
      },
      expected: ['removed-assertion test/slug.test.ts:10 assert.equal(slug("a, b!"), "a-b");'],
    },
    {
      name: "an assertion replaced by one that cannot fail",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(VITEST, "expect(add(-1, 1)).toBe(0);", "expect(true).toBe(true);"),
      },
      expected: ["removed-assertion test/add.test.ts:11 expect(add(-1, 1)).toBe(0);"],
    },
    {
      name: "assertions of a thing equal to itself replace nothing",
      before: { "test/slug.test.ts": NODE_TEST, "tests/test_calc.py": PYTEST },
      after: {
        "test/slug.test.ts": edit(
          NODE_TEST,
          'assert.equal(slug("a, b!"), "a-b");',
          "assert.equal(1, 1);",
        ),
        "tests/test_calc.py": edit(PYTEST, "assert add(1, 2) == 3", "assert 3 == 3"),
      },
      expected: [
        'removed-assertion test/slug.test.ts:10 assert.equal(slug("a, b!"), "a-b");',
        "removed-assertion tests/test_calc.py:7 assert add(1, 2) == 3",
      ],
    },
    {
      name: "chai: a should removed",
      before: { "test/a.spec.js": 'it("a", () => {\n  result.should.equal(3);\n  done();\n});\n' },
      after: { "test/a.spec.js": 'it("a", () => {\n  done();\n});\n' },
      expected: ["removed-assertion test/a.spec.js:2 result.should.equal(3);"],
    },
    {
      name: "pytest: an assert statement and pytest.raises removed",
      before: { "tests/test_calc.py": PYTEST },
      after: {
        "tests/test_calc.py": edit(
          edit(PYTEST, "    assert add(1, 2) == 3\n", "    add(1, 2)\n"),
          "    with pytest.raises(ZeroDivisionError):\n        divide(1, 0)\n",
          "    divide(1, 0)\n",
        ),
      },
      expected: [
        "removed-assertion tests/test_calc.py:7 assert add(1, 2) == 3",
        "removed-assertion tests/test_calc.py:11 with pytest.raises(ZeroDivisionError):",
      ],
    },
    {
      name: "unittest: self.assertEqual removed",
      before: { "tests/test_add.py": UNITTEST },
      after: {
        "tests/test_add.py": edit(
          UNITTEST,
          "        self.assertEqual(add(1, 2), 3)\n",
          "        add(1, 2)\n",
        ),
      },
      expected: ["removed-assertion tests/test_add.py:8 self.assertEqual(add(1, 2), 3)"],
    },
    {
      name: "go: t.Errorf and t.Fatal removed",
      before: { "calc/calc_test.go": GO_TEST },
      after: {
        "calc/calc_test.go": edit(
          edit(GO_TEST, '\t\tt.Errorf("Add(1, 2) = %d, want 3", got)\n', "\t\t_ = got\n"),
          '\t\t\tt.Fatal("zero")\n',
          "",
        ),
      },
      expected: [
        'removed-assertion calc/calc_test.go:7 t.Errorf("Add(1, 2) = %d, want 3", got)',
        'removed-assertion calc/calc_test.go:14 t.Fatal("zero")',
      ],
    },
    {
      name: "go: testify's assert.Equal removed",
      before: {
        "calc/more_test.go":
          "package calc\n\nfunc TestMore(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n\t_ = t\n}\n",
      },
      after: { "calc/more_test.go": "package calc\n\nfunc TestMore(t *testing.T) {\n\t_ = t\n}\n" },
      expected: ["removed-assertion calc/more_test.go:4 assert.Equal(t, 3, Add(1, 2))"],
    },
    {
      name: "rust: assert_eq! removed from an integration test",
      before: {
        "tests/add.rs":
          "#[test]\nfn adds() {\n    let sum = calc::add(1, 2);\n    assert_eq!(sum, 3);\n}\n",
      },
      after: { "tests/add.rs": "#[test]\nfn adds() {\n    let sum = calc::add(1, 2);\n}\n" },
      expected: ["removed-assertion tests/add.rs:4 assert_eq!(sum, 3);"],
    },
    {
      name: "junit: assertEquals removed; kotest: shouldBe removed",
      before: { "src/test/java/calc/CalcTest.java": JUNIT, "src/test/kotlin/CalcTest.kt": KOTEST },
      after: {
        "src/test/java/calc/CalcTest.java": edit(
          JUNIT,
          "        assertEquals(3, Calc.add(1, 2));\n",
          "        Calc.add(1, 2);\n",
        ),
        "src/test/kotlin/CalcTest.kt": edit(
          KOTEST,
          "        Calc.add(1, 2) shouldBe 3\n",
          "        Calc.add(1, 2)\n",
        ),
      },
      expected: [
        "removed-assertion src/test/java/calc/CalcTest.java:10 assertEquals(3, Calc.add(1, 2));",
        "removed-assertion src/test/kotlin/CalcTest.kt:9 Calc.add(1, 2) shouldBe 3",
      ],
    },
  ]);
});

describe("findWeakenings: assertions changed, moved or never there", () => {
  cases([
    {
      name: "an assertion changed to the new behaviour",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(
          VITEST,
          "expect(add(-1, 1)).toBe(0);",
          "expect(add(-1, 1)).toStrictEqual(0);",
        ),
      },
      expected: [],
    },
    {
      name: "two assertions folded into one",
      before: { "tests/test_add.py": UNITTEST },
      after: {
        "tests/test_add.py": edit(
          UNITTEST,
          "        self.assertEqual(add(10**9, 1), 10**9 + 1)\n",
          "        self.assertEqual(add(10**9, 1), 1000000001)\n",
        ),
      },
      expected: [],
    },
    {
      name: "an assertion moved to another test",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(
          edit(VITEST, "    expect(add(-1, 1)).toBe(0);\n", ""),
          "    expect(add(1, 2)).toBe(3);\n",
          "    expect(add(1, 2)).toBe(3);\n    expect(add(-1, 1)).toBe(0);\n",
        ),
      },
      expected: [],
    },
    {
      name: "an assertion changed to check a call, with the same argument twice",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(
          VITEST,
          "expect(add(-1, 1)).toBe(0);",
          "expect(spy).toHaveBeenCalledWith(1, 1);",
        ),
      },
      expected: [],
    },
    {
      name: "a commented-out assertion removed",
      before: {
        "test/add.test.ts": edit(
          VITEST,
          "    expect(add(-1, 1)).toBe(0);\n",
          "    // expect(add(-1, 1)).toBe(1);\n",
        ),
      },
      after: { "test/add.test.ts": edit(VITEST, "    expect(add(-1, 1)).toBe(0);\n", "") },
      expected: [],
    },
    {
      name: "an assert removed from code that is no test",
      before: {
        "src/queue.js":
          "export function pop(q) {\n  assert(q.length > 0);\n  return q.shift();\n}\n",
      },
      after: { "src/queue.js": "export function pop(q) {\n  return q.shift();\n}\n" },
      expected: [],
    },
    {
      name: "a deleted test is one weakening, not one per assertion in it",
      before: { "test/add.test.ts": VITEST },
      after: {
        "test/add.test.ts": edit(VITEST, /\n {2}test\("adds negatives"[\s\S]*?\n {2}\}\);\n/, "\n"),
      },
      expected: ['deleted-test test/add.test.ts:9 test("adds negatives", () => {'],
    },
  ]);
});

const WORKFLOW = `name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    continue-on-error: \${{ matrix.experimental }}
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
      - name: Test
        run: npm test
      - name: Lint
        run: |
          npm run lint
          npm run typecheck
`;

describe("findWeakenings: CI made to pass whatever fails", () => {
  cases([
    {
      name: "continue-on-error: true on a step",
      before: { ".github/workflows/ci.yml": WORKFLOW },
      after: {
        ".github/workflows/ci.yml": edit(
          WORKFLOW,
          "        run: npm test\n",
          "        run: npm test\n        continue-on-error: true\n",
        ),
      },
      expected: ["continue-on-error .github/workflows/ci.yml:12 continue-on-error: true"],
    },
    {
      name: "continue-on-error: ${{ true }} on a job",
      before: { ".github/workflows/ci.yml": WORKFLOW },
      after: {
        ".github/workflows/ci.yml": edit(
          WORKFLOW,
          "continue-on-error: ${{ matrix.experimental }}",
          "continue-on-error: ${{ true }}",
        ),
      },
      expected: ["continue-on-error .github/workflows/ci.yml:6 continue-on-error: ${{ true }}"],
    },
    {
      name: "|| true on a run line, and a quoted one",
      before: { ".github/workflows/ci.yml": WORKFLOW },
      after: {
        ".github/workflows/ci.yml": edit(
          edit(WORKFLOW, "        run: npm test\n", "        run: npm test || true\n"),
          "      - run: npm ci\n",
          '      - run: "npm ci || exit 0"\n',
        ),
      },
      expected: [
        'ignored-exit-code .github/workflows/ci.yml:9 - run: "npm ci || exit 0"',
        "ignored-exit-code .github/workflows/ci.yml:11 run: npm test || true",
      ],
    },
    {
      name: "set +e and ; exit 0 in a run block",
      before: { ".github/workflows/ci.yml": WORKFLOW },
      after: {
        ".github/workflows/ci.yml": edit(
          WORKFLOW,
          "          npm run lint\n          npm run typecheck\n",
          "          set +e\n          npm run lint\n          npm run typecheck; exit 0\n",
        ),
      },
      expected: [
        "ignored-exit-code .github/workflows/ci.yml:14 set +e",
        "ignored-exit-code .github/workflows/ci.yml:16 npm run typecheck; exit 0",
      ],
    },
    {
      name: "a composite action's run step",
      before: {
        ".github/actions/test/action.yml":
          "runs:\n  using: composite\n  steps:\n    - run: make test\n      shell: bash\n",
      },
      after: {
        ".github/actions/test/action.yml":
          "runs:\n  using: composite\n  steps:\n    - run: make test || true\n      shell: bash\n",
      },
      expected: ["ignored-exit-code .github/actions/test/action.yml:4 - run: make test || true"],
    },
    {
      name: "a Makefile recipe: || true and make's - prefix",
      before: { Makefile: "test:\n\tgo vet ./...\n\tgo test ./...\n" },
      after: { Makefile: "test:\n\t-go vet ./...\n\tgo test ./... || true\n" },
      expected: [
        "ignored-exit-code Makefile:2 -go vet ./...",
        "ignored-exit-code Makefile:3 go test ./... || true",
      ],
    },
    {
      name: "package.json: the test script's exit code thrown away",
      before: { "package.json": '{\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n' },
      after: { "package.json": '{\n  "scripts": {\n    "test": "vitest run || true"\n  }\n}\n' },
      expected: ['ignored-exit-code package.json:3 "test": "vitest run || true"'],
    },
  ]);
});

describe("findWeakenings: CI changes that hide nothing", () => {
  cases([
    {
      name: "a step fixed, a comment, a string, an if: expression, || exit 1",
      before: { ".github/workflows/ci.yml": WORKFLOW },
      after: {
        ".github/workflows/ci.yml": edit(
          WORKFLOW,
          "        run: npm test\n",
          "        # never add || true here\n" +
            "        if: github.event_name == 'push' || github.event_name == 'pull_request'\n" +
            "        run: npm test -- --reporter=dot || exit 1\n" +
            '      - run: echo "npm test || true is not what we do"\n' +
            "        continue-on-error: false\n",
        ),
      },
      expected: [],
    },
    {
      name: "an || true removed (the repair makes CI stricter)",
      before: { Makefile: "test:\n\tgo test ./... || true\n" },
      after: { Makefile: "test:\n\tgo test ./...\n" },
      expected: [],
    },
    {
      name: "|| true in a script that is no CI definition",
      before: { "scripts/clean.sh": "rm -rf dist\n" },
      after: { "scripts/clean.sh": "rm -rf dist || true\n" },
      expected: [],
    },
  ]);
});

describe("findWeakenings: the diff as git prints it", () => {
  test("several files and kinds, in the diff's order, lines on the side they are on", () => {
    const diff = gitDiff(
      {
        "test/add.test.ts": VITEST,
        Makefile: "test:\n\tnpm test\n",
        "src/add.ts": "export const add = (a, b) => a - b;\n",
      },
      {
        "src/add.ts": "export const add = (a, b) => a + b;\n",
        "test/add.test.ts": edit(
          edit(VITEST, '  test("adds", () => {', '  test.only("adds", () => {'),
          "    expect(add(-1, 1)).toBe(0);\n",
          "",
        ),
        Makefile: "test:\n\tnpm test || true\n",
      },
    );
    assert.deepEqual(found(diff), [
      "ignored-exit-code Makefile:2 npm test || true",
      'skip-marker test/add.test.ts:5 test.only("adds", () => {',
      "removed-assertion test/add.test.ts:11 expect(add(-1, 1)).toBe(0);",
    ]);
  });

  test("a path with a space or a character git quotes", () => {
    const diff = gitDiff(
      { "test/my add.test.js": MOCHA, "tests/test_é.py": PYTEST },
      {
        "test/my add.test.js": edit(MOCHA, 'it("reads a list"', 'it.skip("reads a list"'),
        "tests/test_é.py": null,
      },
    );
    assert.match(diff, /"a\/tests\/test_\\303\\251\.py"/);
    assert.deepEqual(found(diff), [
      'skip-marker test/my add.test.js:9 it.skip("reads a list", function () {',
      "deleted-test tests/test_é.py:6 def test_add():",
      "deleted-test tests/test_é.py:10 def test_divide_by_zero():",
      "deleted-test tests/test_é.py:15 class TestRounding:",
      "deleted-test tests/test_é.py:16 def test_half_up(self):",
    ]);
  });

  test("a file without a newline at its end, and a binary file", () => {
    const diff = gitDiff(
      {
        "logo.png": "\u0000\u0001PNG",
        "test/a.test.js": 'it("a", () => {\n  expect(a).toBe(1);\n});',
      },
      { "logo.png": "\u0000\u0002PNG", "test/a.test.js": 'it("a", () => {\n});\n' },
    );
    assert.match(diff, /Binary files/);
    assert.match(diff, /^\\ No newline at end of file$/m);
    assert.deepEqual(found(diff), ["removed-assertion test/a.test.js:2 expect(a).toBe(1);"]);
  });

  test("a line of the file that reads like a diff header is still a line", () => {
    const diff = gitDiff(
      { "test/a.test.js": 'it("a", () => {\n  expect(x).toBe(1);\n});\n' },
      { "test/a.test.js": '++ b/x\n-- a/x\nit("a", () => {\n});\n' },
    );
    assert.deepEqual(found(diff), ["removed-assertion test/a.test.js:2 expect(x).toBe(1);"]);
  });

  test("a long line is quoted cut short", () => {
    const long = `  expect(add(${"1, ".repeat(80)}1)).toBe(81);\n`;
    const diff = gitDiff(
      { "test/a.test.js": `it("a", () => {\n${long}});\n` },
      { "test/a.test.js": 'it("a", () => {\n});\n' },
    );
    const [weakening] = findWeakenings(diff);
    assert.equal(Array.from(weakening?.text ?? "").length, WEAKENING_TEXT_LIMIT);
    assert.ok(weakening?.text.endsWith("…"));
  });

  test("an empty diff has none", () => {
    assert.deepEqual(findWeakenings(""), []);
  });
});
