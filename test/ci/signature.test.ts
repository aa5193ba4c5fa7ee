/**
 * A failure's signature (src/ci/signature.ts): the first error line read the same on every run
 * and runner of the same failure — the checkout, temp folders, hex, UUIDs, times, durations and
 * numbers taken out, the words that name the error kept — and the key it hashes to with the
 * failing tests: equal for the same failure seen twice, different for another.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  FIRST_ERROR_LIMIT,
  KEY_LENGTH,
  failureSignature,
  normaliseFirstError,
  normaliseTests,
} from "../../src/ci/signature.ts";

/** Each line as it came, and as every run of the same failure must read it. */
function normalises(table: readonly [line: string, normal: string][]): void {
  for (const [line, normal] of table) {
    test(JSON.stringify(line), () => assert.equal(normaliseFirstError(line), normal));
  }
}

describe("normaliseFirstError: paths in the checkout are paths in the repository", () => {
  normalises([
    // Linux hosted, macOS hosted, Windows hosted (both slashes), a container job, self-hosted.
    [
      "/home/runner/work/app/app/src/a.ts:12:5 - error TS2322: x",
      "src/a.ts:<line>:<col> - error TS2322: x",
    ],
    [
      "/Users/runner/work/app/app/src/a.ts:12:5 - error TS2322: x",
      "src/a.ts:<line>:<col> - error TS2322: x",
    ],
    [
      "D:\\a\\app\\app\\src\\a.ts(12,5): error TS2322: x",
      "src/a.ts(<line>,<col>): error TS2322: x",
    ],
    ["D:/a/app/app/src/a.ts(12,5): error TS2322: x", "src/a.ts(<line>,<col>): error TS2322: x"],
    [
      "/__w/app/app/pkg/calc_test.go:33: expected 5, got 4",
      "pkg/calc_test.go:<line>: expected <n>, got <n>",
    ],
    ["/opt/actions-runner/_work/app/app/lib/x.py:7: boom", "lib/x.py:<line>: boom"],
    ["C:\\actions-runner\\_work\\app\\app\\lib\\x.py:7: boom", "lib/x.py:<line>: boom"],
    // A stack frame, a file URL, a quoted module path.
    [
      "at Object.<anonymous> (/home/runner/work/r/r/test/a.test.js:10:15)",
      "at Object.<anonymous> (test/a.test.js:<line>:<col>)",
    ],
    ["file:///home/runner/work/r/r/src/a.js:1", "src/a.js:<line>"],
    [
      "Error: Cannot find module '/home/runner/work/app/app/node_modules/x/index.js'",
      "Error: Cannot find module 'node_modules/x/index.js'",
    ],
    // Relative paths keep their folders, with /; Python's "line N".
    [
      ".\\src\\lib\\a.cs(10,2): error CS1002: ; expected",
      "src/lib/a.cs(<line>,<col>): error CS1002: ; expected",
    ],
    [
      '  File "/home/runner/work/p/p/tests/test_x.py", line 12, in test_x',
      'File "tests/test_x.py", line <line>, in test_x',
    ],
    ["main_test.go:12: want 3", "main_test.go:<line>: want <n>"],
  ]);
});

describe("normaliseFirstError: what lies elsewhere on the machine", () => {
  normalises([
    // Another absolute path is its file name: the tool cache, the runner's own actions.
    ["/opt/hostedtoolcache/node/24.1.0/x64/bin/node: bad option", "node: bad option"],
    [
      "/home/runner/work/_actions/actions/setup-node/v4/dist/index.js:1 crash",
      "index.js:<line> crash",
    ],
    // Temp folders: Linux, the runner's _temp, macOS, Windows; temp names themselves.
    [
      "Error: ENOENT: no such file or directory, open '/tmp/tmpk3j4_ab1/out.txt'",
      "Error: ENOENT: no such file or directory, open '<tmp>/out.txt'",
    ],
    ["/tmp/TestFoo1234567/001/data.json missing", "<tmp>/data.json missing"],
    [
      "/home/runner/work/_temp/a1b2c3d4-0000-4000-8000-123456789abc.sh: line 3: foo: command not found",
      "<tmp>/<uuid>.sh: line <line>: foo: command not found",
    ],
    ["/private/var/folders/q2/abcdefg/T/tmpab12cd34/out.json missing", "<tmp>/out.json missing"],
    [
      "open /var/folders/xy/abc123/T/go-build12345/b001/x: no such file",
      "open <tmp>/x: no such file",
    ],
    [
      "C:\\Users\\runneradmin\\AppData\\Local\\Temp\\abc\\file.txt missing",
      "<tmp>/file.txt missing",
    ],
    [
      "C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\tmpA1B2.tmp: access denied",
      "<tmp>: access denied",
    ],
    ["/tmp/pytest-of-runner/pytest-12/test_x0/file.txt not found", "<tmp>/file.txt not found"],
  ]);
});

describe("normaliseFirstError: what changes from run to run", () => {
  normalises([
    // The runner's timestamp and marker, ANSI colours, a BOM, curly quotes.
    ["2026-07-30T13:21:30.7886920Z ##[error]Process failed", "Process failed"],
    ["\ufeff2024-01-01T00:00:00.0000000Z ##[error]boom", "boom"],
    ["::error file=src/a.ts,line=3::Type mismatch", "Type mismatch"],
    ["\u001b[31mError\u001b[39m: boom", "Error: boom"],
    ["“smart” ‘quotes’", "\"smart\" 'quotes'"],
    // Hex, SHAs, UUIDs.
    ["commit deadbeef1234 is bad; pointer 0x7ffd1234", "commit <hex> is bad; pointer <hex>"],
    ["request 123e4567-E89B-12d3-a456-426614174000 failed", "request <uuid> failed"],
    ["sha256:abcdef0123456789 mismatch", "sha256:<hex> mismatch"],
    // Dates and times.
    ["Wed, 02 Dec 2026 10:12:17 GMT failure", "<time> <time> GMT failure"],
    ["at 2026-07-30 10:12:17,911 the job died", "at <time> the job died"],
    [
      "E0730 13:21:30.788692 80638 file.cc:12] Check failed",
      "<time> <n> file.cc:<line>] Check failed",
    ],
    // Durations, in every spelling.
    [
      "Timed out after 5000 ms; took 1m30.5s and 310.03s",
      "Timed out after <duration>; took <duration> and <duration>",
    ],
    ["Error: timeout of 2000ms exceeded", "Error: timeout of <duration> exceeded"],
    ["--- FAIL: TestAdd/negative (0.01s)", "--- FAIL: TestAdd/negative (<duration>)"],
    ["Killed (signal 9) after 360 minutes", "Killed (signal <n>) after <duration>"],
    // Numbers; URLs keep their scheme and host.
    ["AssertionError [ERR_ASSERTION]: 3 == 5", "AssertionError [ERR_ASSERTION]: <n> == <n>"],
    ["connect ECONNREFUSED 127.0.0.1:5432", "connect ECONNREFUSED <n>:<n>"],
    [
      "fetch https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz failed: 503",
      "fetch https://registry.npmjs.org/<path> failed: <n>",
    ],
    [
      "GET http://localhost:3000/api/x?q=1 returned 500",
      "GET http://localhost:<port>/<path> returned <n>",
    ],
    // White space, and the lines after the first.
    ["  Error:\t  spaced   out  ", "Error: spaced out"],
    ["Expected: 5\nReceived: 4", "Expected: <n>"],
  ]);
});

describe("normaliseFirstError: the words that name the error stay", () => {
  normalises([
    [
      "src/a.ts(1,2): error TS2322: Type 'string' is not assignable",
      "src/a.ts(<line>,<col>): error TS2322: Type 'string' is not assignable",
    ],
    ["error[E0308]: mismatched types", "error[E0308]: mismatched types"],
    ["npm ERR! code E404", "npm ERR! code E404"],
    ["error C2065: 'x': undeclared identifier", "error C2065: 'x': undeclared identifier"],
    ["node24 needs sha256 and utf8", "node24 needs sha256 and utf8"],
    ["The operation was canceled.", "The operation was canceled."],
  ]);

  test("cut to FIRST_ERROR_LIMIT characters, a character being a code point", () => {
    assert.equal(normaliseFirstError("e".repeat(400)).length, FIRST_ERROR_LIMIT);
    const emoji = normaliseFirstError("😀".repeat(400));
    assert.equal(Array.from(emoji).length, FIRST_ERROR_LIMIT);
    assert.ok(emoji.endsWith("😀"), "no half of a surrogate pair at the end");
  });
});

describe("normaliseTests", () => {
  test("trimmed, \\ as /, no ./, no repeats or blanks, sorted", () => {
    assert.deepEqual(
      normaliseTests([
        " b ",
        "tests\\test_x.py::t",
        "./x/y.ts > adds  two",
        "tests/test_x.py::t",
        "",
        "B",
      ]),
      ["B", "b", "tests/test_x.py::t", "x/y.ts > adds two"],
    );
  });

  test("a parametrised id keeps its parameters: they name the test", () => {
    assert.deepEqual(normaliseTests(["test_add[1-2]", "test_add[3-4]"]), [
      "test_add[1-2]",
      "test_add[3-4]",
    ]);
  });
});

describe("failureSignature", () => {
  // The same type error on two runs: Linux then Windows, another day, the line moved by an edit
  // above it, the tests listed in another order and with Windows separators.
  const linux = failureSignature(
    "2026-07-30T13:21:30.7886920Z ##[error]/home/runner/work/app/app/src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    ["src/a.test.ts > adds", "src/b.test.ts > subtracts"],
  );
  const windows = failureSignature(
    "2026-08-02T09:01:02.1234567Z ##[error]D:\\a\\app\\app\\src\\a.ts(14,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    ["src\\b.test.ts > subtracts", "src\\a.test.ts > adds"],
  );

  test("the same failure from two runs has the same key", () => {
    assert.equal(linux.key, windows.key);
    assert.deepEqual(linux, windows);
    assert.match(linux.key, new RegExp(`^[0-9a-f]{${KEY_LENGTH}}$`));
    assert.equal(
      linux.firstError,
      "src/a.ts(<line>,<col>): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    assert.deepEqual(linux.tests, ["src/a.test.ts > adds", "src/b.test.ts > subtracts"]);
  });

  test("a pytest failure seen in two runs: temp folder, duration and values aside", () => {
    const first = failureSignature(
      "E   FileNotFoundError: /tmp/pytest-of-runner/pytest-3/test_export0/out.csv after 0.52s",
      ["tests/test_export.py::test_export"],
    );
    const second = failureSignature(
      "E   FileNotFoundError: /tmp/pytest-of-runner/pytest-17/test_export0/out.csv after 1.07s",
      ["tests/test_export.py::test_export"],
    );
    assert.equal(first.key, second.key);
  });

  test("other failing tests, or another error, are another failure", () => {
    const error = "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.";
    const base = failureSignature(error, ["src/a.test.ts > adds"]);
    assert.notEqual(failureSignature(error, ["src/a.test.ts > subtracts"]).key, base.key);
    assert.notEqual(
      failureSignature(error, ["src/a.test.ts > adds", "src/c.test.ts > x"]).key,
      base.key,
    );
    assert.notEqual(failureSignature(error, []).key, base.key);
    assert.notEqual(
      failureSignature(error.replace("TS2322", "TS2345"), ["src/a.test.ts > adds"]).key,
      base.key,
    );
    assert.notEqual(
      failureSignature(error.replace("src/a.ts", "src/b.ts"), ["src/a.test.ts > adds"]).key,
      base.key,
    );
  });

  test("a log that named no first error: the tests alone", () => {
    const none = failureSignature(null, ["t1"]);
    assert.equal(none.firstError, "");
    assert.deepEqual(none, failureSignature("", ["t1"]));
    assert.notEqual(none.key, failureSignature(null, ["t2"]).key);
  });
});
