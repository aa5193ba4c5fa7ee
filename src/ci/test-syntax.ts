/**
 * How tests read in the languages the weakened-test check knows (JavaScript and TypeScript with
 * jest, vitest, mocha, node:test and playwright; Python with pytest and unittest; Go; Rust; JUnit in
 * Java and Kotlin): which files hold tests, where a test is declared and under what name, what
 * skips or singles one out, what asserts — each read from one line with its comments and string
 * contents masked (`maskLines`). Pure rules over lines; what the check makes of them is
 * weakened.ts's.
 */

export type TestLanguage = "js" | "python" | "go" | "rust" | "jvm";

const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const JS_TEST_NAME = /\.(?:test|spec|e2e|cy)\.[cm]?[jt]sx?$|_(?:test|spec)\.[cm]?[jt]sx?$/;
const TEST_FOLDER = /(?:^|\/)(?:tests?|__tests__|spec|e2e|testing)\//;
const PY_TEST_NAME = /(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/;
const JVM_SOURCE = /\.(?:java|kt|kts)$/;
const JVM_TEST_NAME = /(?:Tests?|IT|Spec)\.(?:java|kt|kts)$/;

/**
 * The language of `path` when it holds tests, by the names each runner collects: undefined for
 * a file that holds none. Every Rust file counts, since unit tests live beside the code
 * (`#[cfg(test)] mod tests`); the Rust rules only fire on test attributes and assertion macros.
 */
export function testLanguage(path: string): TestLanguage | undefined {
  if (JS_SOURCE.test(path)) {
    return JS_TEST_NAME.test(path) || TEST_FOLDER.test(path) ? "js" : undefined;
  }
  if (path.endsWith(".py")) {
    return PY_TEST_NAME.test(path) || TEST_FOLDER.test(path) ? "python" : undefined;
  }
  if (path.endsWith("_test.go")) return "go";
  if (path.endsWith(".rs")) return "rust";
  if (JVM_SOURCE.test(path)) {
    return JVM_TEST_NAME.test(path) || /(?:^|\/)src\/(?:test|androidTest)\//.test(path)
      ? "jvm"
      : undefined;
  }
  return undefined;
}

/**
 * Whether `path` holds tests as a whole — deleting it, or renaming it to a name no runner
 * collects, deletes them, and an assertion removed from it is one check less: every file
 * testLanguage names but a Rust source file outside `tests/` and `benches/`, whose tests are
 * only where a test attribute marks them.
 */
export function isTestFile(path: string): boolean {
  const language = testLanguage(path);
  if (language !== "rust") return language !== undefined;
  return /(?:^|\/)(?:tests|benches)\/|(?:^|\/|_)tests?\.rs$/.test(path);
}

/** What a masker carries from one line to the next: inside a block comment or a long string. */
export type MaskState = { comment: true } | { string: string } | undefined;

interface Syntax {
  lineComment: string;
  blockComments: boolean;
  /** Quotes in the order to try them (longest first); those that may span lines. */
  quotes: string[];
  multiline: string[];
}

const SYNTAX: Record<TestLanguage, Syntax> = {
  js: { lineComment: "//", blockComments: true, quotes: ['"', "'", "`"], multiline: ["`"] },
  go: { lineComment: "//", blockComments: true, quotes: ['"', "'", "`"], multiline: ["`"] },
  // A lone ' in Rust is a lifetime more often than a character, so only " is a quote.
  rust: { lineComment: "//", blockComments: true, quotes: ['"'], multiline: ['"'] },
  jvm: { lineComment: "//", blockComments: true, quotes: ['"""', '"', "'"], multiline: ['"""'] },
  python: {
    lineComment: "#",
    blockComments: false,
    quotes: ['"""', "'''", '"', "'"],
    multiline: ['"""', "'''"],
  },
};

/** One side of a hunk, masked. */
export interface Masked {
  /** Each line with comments and string contents turned to spaces, the length it was. */
  lines: string[];
  /** Whether a block comment or a long string is still open after each line. */
  openAfter: boolean[];
  /** What is open after the last line: where the side's next lines start. */
  end: MaskState;
}

/**
 * Consecutive lines of one side of a hunk with comments turned to spaces and string contents to
 * spaces between their quotes, each the length it was (so a match in the mask points into the
 * line). Block comments and long strings carry over from line to line, and from `start`; where
 * that is not known, code is assumed, except on a line that starts `* ` in a language with block
 * comments, which only a comment's middle does.
 */
export function maskLines(
  lines: readonly string[],
  language: TestLanguage,
  start: MaskState = undefined,
): Masked {
  const syntax = SYNTAX[language];
  const masked: Masked = { lines: [], openAfter: [], end: start };
  let open = start;
  for (const line of lines) {
    if (open === undefined && syntax.blockComments && /^\s*\*(?:\s|\/|$)/.test(line)) {
      masked.lines.push(" ".repeat(line.length));
    } else {
      const result = maskLine(line, syntax, open);
      open = result.open;
      masked.lines.push(result.text);
    }
    masked.openAfter.push(open !== undefined);
  }
  masked.end = open;
  return masked;
}

function maskLine(
  line: string,
  syntax: Syntax,
  start: MaskState,
): { text: string; open: MaskState } {
  let out = "";
  let open = start;
  let index = 0;
  while (index < line.length) {
    if (open !== undefined && "comment" in open) {
      const end = line.indexOf("*/", index);
      const stop = end === -1 ? line.length : end + 2;
      out += " ".repeat(stop - index);
      index = stop;
      if (end !== -1) open = undefined;
      continue;
    }
    if (open !== undefined) {
      const end = closingQuote(line, index, open.string);
      const stop = end === -1 ? line.length : end;
      out += " ".repeat(stop - index);
      index = stop;
      if (end !== -1) {
        out += open.string;
        index += open.string.length;
        open = undefined;
      }
      continue;
    }
    if (line.startsWith(syntax.lineComment, index)) {
      out += " ".repeat(line.length - index);
      break;
    }
    if (syntax.blockComments && line.startsWith("/*", index)) {
      out += "  ";
      index += 2;
      open = { comment: true };
      continue;
    }
    const quote = syntax.quotes.find((candidate) => line.startsWith(candidate, index));
    if (quote === undefined) {
      out += line[index];
      index += 1;
      continue;
    }
    out += quote;
    index += quote.length;
    const end = closingQuote(line, index, quote);
    if (end === -1) {
      out += " ".repeat(line.length - index);
      if (syntax.multiline.includes(quote)) open = { string: quote };
      break;
    }
    out += " ".repeat(end - index) + quote;
    index = end + quote.length;
  }
  return { text: out, open };
}

/** Where `quote` closes in `line` from `from`, past backslash escapes; -1 when it does not. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let index = from; index < line.length; index++) {
    if (line[index] === "\\") index += 1;
    else if (line.startsWith(quote, index)) return index;
  }
  return -1;
}

/** A test found on a line: its name, when the line or the ones after it give one. */
export interface Declaration {
  name: string | undefined;
}

// Not after `function`: a helper of that name defined in a test folder declares no test.
const JS_DECLARATION =
  /(?<![\w$.])(?<!\bfunction\s+)(?:t\.)?(?:it|test|describe|suite|context|specify|xit|xtest|xdescribe|xcontext|fit|fdescribe|fcontext)(?:\.\w+(?:\([^()]*\))?)*\s*\(\s*/;
const PY_DECLARATION =
  /^\s*(?:async\s+)?def\s+(test\w*)\s*\(|^\s*class\s+(Test\w*|\w+(?=\s*\([^)]*TestCase))/;
const GO_DECLARATION = /^func\s+(?:\([^)]*\)\s*)?((?:Test|Fuzz|Example)\w*)\s*\(|\.Run\(\s*(?=")/;
const RUST_ATTRIBUTE = /#\[\s*(?:(?:\w+::)*test|rstest|test_case|quickcheck)\b/;
const RUST_FUNCTION = /\bfn\s+(\w+)/;
const JVM_ANNOTATION =
  /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b/;
const JVM_METHOD = /\bfun\s+(?:`([^`]+)`|(\w+))\s*\(|\bvoid\s+(\w+)\s*\(/;

/** The string literal that starts at `at` in `raw`, by its quote in `mask`; undefined if none. */
function literalAt(raw: string, mask: string, at: number): string | undefined {
  const quote = mask[at];
  if (quote !== '"' && quote !== "'" && quote !== "`") return undefined;
  const end = mask.indexOf(quote, at + 1);
  return end === -1 ? undefined : raw.slice(at + 1, end);
}

/**
 * The test declared on line `index` of a side, or undefined. `raw` and `mask` are the side's
 * lines as written and as maskLines left them: a JUnit method or Rust function is named on a line
 * after its annotation, found here on the lines that follow on the same side.
 */
export function declarationAt(
  raw: readonly string[],
  mask: readonly string[],
  index: number,
  language: TestLanguage,
): Declaration | undefined {
  const line = mask[index] ?? "";
  switch (language) {
    case "js": {
      const match = JS_DECLARATION.exec(line);
      if (!match) return undefined;
      const at = match.index + match[0].length;
      return { name: literalAt(raw[index] ?? "", line, at) ?? line.slice(match.index).trim() };
    }
    case "python": {
      const match = PY_DECLARATION.exec(line);
      return match ? { name: match[1] ?? match[2] } : undefined;
    }
    case "go": {
      const match = GO_DECLARATION.exec(line);
      if (!match) return undefined;
      if (match[1] !== undefined) return { name: match[1] };
      return { name: literalAt(raw[index] ?? "", line, match.index + match[0].length) };
    }
    case "rust":
      return RUST_ATTRIBUTE.test(line)
        ? { name: nameAfter(mask, index, RUST_FUNCTION) }
        : undefined;
    case "jvm":
      return JVM_ANNOTATION.test(line) ? { name: nameAfter(mask, index, JVM_METHOD) } : undefined;
  }
}

/** Attributes and annotations stack; the function they mark comes within a few lines. */
const ANNOTATED_WITHIN = 8;

function nameAfter(mask: readonly string[], index: number, pattern: RegExp): string | undefined {
  for (const line of mask.slice(index, index + ANNOTATED_WITHIN)) {
    const match = pattern.exec(line);
    if (match) return match.slice(1).find((group) => group !== undefined);
  }
  return undefined;
}

const SKIPS: Record<TestLanguage, RegExp[]> = {
  js: [
    // it.skip, describe.only, test.describe.fixme, it.todo, test.fails (passes when it fails).
    /(?<![\w$.])(?:t\.)?(?:it|test|describe|suite|context|specify)(?:\.\w+)*\.(?:skip|skipIf|only|todo|fixme|fails|failing)\b/,
    /(?<![\w$.])(?:xit|xtest|xdescribe|xcontext|xspecify|fit|fdescribe|fcontext)\s*\(/,
    // mocha's this.skip(), node:test's t.skip() and t.todo().
    /\b(?:this|t)\.(?:skip|todo)\s*\(/,
    // node:test's options: { skip: true }, { todo: "why" }, { only: true }.
    /\b(?:skip|todo|only)\s*:\s*(?:true\b|["'`])/,
  ],
  python: [
    /\bpytest\.mark\.(?:skip|skipif|xfail)\b/,
    /@(?:unittest\.)?(?:skip|skipIf|skipUnless|expectedFailure)\b/,
    /\bpytest\.(?:skip|xfail|importorskip)\s*\(/,
    /\bself\.skipTest\s*\(/,
    /\braise\s+(?:unittest\.)?SkipTest\b/,
  ],
  go: [/\.(?:Skip|Skipf|SkipNow)\s*\(/],
  rust: [/#\[\s*ignore\b/, /#\[\s*cfg_attr\s*\(.*\bignore\b/],
  jvm: [/@(?:Disabled\w*|Ignore)\b/],
};

/** Does the masked line skip, single out or expect to fail a test? */
export function isSkipMarker(mask: string, language: TestLanguage): boolean {
  return SKIPS[language].some((pattern) => pattern.test(mask));
}

const ASSERTIONS: Record<TestLanguage, RegExp[]> = {
  js: [
    /(?<![\w$.])expect(?:\.\w+)?\s*\(/,
    /(?<![\w$])assert(?:\.\w+)*\s*\(/,
    /\bt\.(?:is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|throws|throwsAsync|notThrows|like|regex|snapshot|equal|strictEqual|ok|match|same|rejects|resolves)\s*\(/,
    /\.should\b|\bshould\./,
  ],
  python: [
    /^\s*assert\b/,
    /\bself\.(?:assert\w*|fail)\s*\(/,
    /\bpytest\.(?:raises|warns)\s*\(/,
    /\bassert_\w*\s*\(/,
  ],
  go: [
    /\b\w+\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(/,
    /\b(?:assert|require)\.[A-Z]\w*\s*\(/,
    /\.(?:Assert|Require)\(\)\.[A-Z]\w*\s*\(/,
    /\bExpect\s*\(/,
  ],
  rust: [/\b\w*assert\w*!\s*[([{]/],
  jvm: [/\bassert\w*\s*\(/, /^\s*assert\s/, /\b(?:fail|verify)\s*\(/, /\sshould\w*\s/],
};

/** Does the masked line assert something? */
export function isAssertion(mask: string, language: TestLanguage): boolean {
  return ASSERTIONS[language].some((pattern) => pattern.test(mask));
}

/** The assertion calls themselves (not `toHaveBeenCalledWith(1, 1)`, which checks a call). */
const ASSERT_CALL = String.raw`(?:assert\w*(?:\.\w+)*|self\.assert\w+|assert(?:_eq|_ne)?!|t\.(?:is|deepEqual|true|ok))`;

const TRIVIAL: RegExp[] = [
  // assert(true), assert.ok(1), assertTrue(true), assert!(true), expect(true).toBe(true).
  new RegExp(
    String.raw`^(?:${ASSERT_CALL}|expect)\(\s*(?:true|True|1|!0)\s*\)(?:\.(?:toBe|toEqual|toStrictEqual|toBeTruthy)\(\s*(?:true|1)?\s*\))?$`,
  ),
  /^assert\s+(?:True|1)\b(?:\s*,.*)?$/,
  /^assert\s+(\S+)\s*==\s*\1$/,
  // assert.equal(x, x), assert_eq!(a, a), self.assertEqual(v, v).
  new RegExp(String.raw`^${ASSERT_CALL}\(\s*([^,()]+?)\s*,\s*\1\s*\)$`),
  /^expect\(\s*([^()]+?)\s*\)\.(?:toBe|toEqual|toStrictEqual)\(\s*\1\s*\)$/,
];

/**
 * An assertion nothing can fail: of a literal truth (`expect(true).toBe(true)`, `assert True`,
 * `assert!(true)`) or of one thing equal to itself (`assert.equal(1, 1)`). It replaces nothing.
 */
export function isTrivialAssertion(raw: string): boolean {
  const code = raw.replace(/\s+/g, " ").trim().replace(/;$/, "");
  return TRIVIAL.some((pattern) => pattern.test(code));
}
