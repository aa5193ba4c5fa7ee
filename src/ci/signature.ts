/**
 * A failure's identity across jobs, runs and branches: the first error line with what changes from
 * run to run taken out (numbers, paths, hex, UUIDs, times, durations, temp names, line:column) and
 * the sorted failing test ids, hashed to a short key. Pure; finding the first error and the tests
 * in a log is excerpt.ts's job, and what is done with a key is the ledger's (ledger.ts).
 */
import { createHash } from "node:crypto";
import type { FailureSignature } from "../domain/ci.ts";
import { ANSI } from "./log.ts";

/** The most of the normalised first error kept (and hashed), in characters. */
export const FIRST_ERROR_LIMIT = 300;

/** Hex digits of the key: 48 bits, no collision in any one repository's failures. */
export const KEY_LENGTH = 12;

/** The failure of `firstError` (null when the log named none) with `failingTests`. */
export function failureSignature(
  firstError: string | null,
  failingTests: readonly string[],
): FailureSignature {
  const error = normaliseFirstError(firstError ?? "");
  const tests = normaliseTests(failingTests);
  const key = createHash("sha256")
    .update(JSON.stringify([error, tests]))
    .digest("hex")
    .slice(0, KEY_LENGTH);
  return { key, firstError: error, tests };
}

/** Test ids trimmed, `\` read as `/` (one test on Windows and Linux), without repeats, sorted. */
export function normaliseTests(tests: readonly string[]): string[] {
  const ids = tests
    .map((test) =>
      test
        .replace(/\s+/g, " ")
        .trim()
        .replace(/\\/g, "/")
        .replace(/^(?:\.\/)+/, ""),
    )
    .filter((test) => test !== "");
  return [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// The rules, in the order they run. Each placeholder is in angle brackets and holds no digit, so a
// later rule never rewrites an earlier one's result.

/** The runner's timestamp before every log line, and its `##[error]` / `::error::` markers. */
const LOG_PREFIX =
  /^\s*(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\s+)?(?:##\[\w+\]|::\w+[^:]*::)?/;
const PRIVATE_USE = /[\ue000-\uf8ff]/g;
const QUOTES: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u201b]/g, "'"],
  [/[\u201c\u201d\u201e\u201f]/g, '"'],
];
const URL = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/'"`<>()[\]]*)([^\s'"`<>()[\]]*)/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*";
const TIMES: RegExp[] = [
  // 2026-07-30T13:21:30.788692Z, 2026-07-30 10:12:17,911, with an offset or not.
  /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|\s?[+-]\d\d:?\d\d\b)?/g,
  // Wed, 02 Dec 2026 / Dec 2, 2026 / Dec  2 (syslog).
  new RegExp(`\\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? \\d{1,2} ${MONTH} \\d{4}\\b`, "g"),
  new RegExp(`\\b${MONTH} +\\d{1,2}(?:, \\d{4})?(?= |$)`, "g"),
  /\b\d{4}-\d\d-\d\d\b/g,
  /\b\d{1,2}:\d\d:\d\d(?:[.,]\d+)?\b/g,
];
/** glog's `E0730 <time> 80638 file.cc:12]`: the month and day glued to the level. */
const GLOG = /\b[IWEF]\d{4}(?= <time>)/g;

const UNIT = "(?:ns|µs|μs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)";
/** `310.03s`, `5000 ms`, `1m30.5s`, `360 minutes`. */
const DURATION = new RegExp(
  `\\b(?:\\d+(?:\\.\\d+)?${UNIT})+(?![\\w.])|\\b\\d+(?:\\.\\d+)? ${UNIT}\\b`,
  "g",
);

const HEX = /\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi;
const NUMBER = /\b\d+(?:\.\d+)*\b/g;

/** One character a path may hold (no space, quote, bracket, colon or comma). */
const PATH_CHAR = String.raw`[\w.@+~%-]`;
const SEGMENT = `${PATH_CHAR}+`;
/** `:12:5`, `:12`, `(12,5)`, `(12)` after a file name. */
const POSITION = String.raw`(?::(\d+)(?::(\d+))?|\((\d+)(?:,\s?(\d+))?\))?`;
const PATH = new RegExp(
  [
    // C:\a\b.cs, C:/a/b, \\server\share\x
    String.raw`\b[A-Za-z]:[\\/]+(?:${SEGMENT}[\\/]+)*${PATH_CHAR}*`,
    String.raw`\\\\${SEGMENT}(?:\\${SEGMENT})+`,
    // /abs/path, ~/x, ./x, ../x, a/b/c, a\b\c
    String.raw`(?<![\w.~/\\:-])(?:~|\.{1,2})?/(?:${SEGMENT}/)*${SEGMENT}`,
    String.raw`(?<![\w.~/\\:@-])(?:\.{1,2}[\\/])*(?:${SEGMENT}[\\/])+${SEGMENT}`,
  ]
    .map((part) => `(?:${part})`)
    .join("|") + POSITION,
  "g",
);
/** `main_test.go:12:` without a folder: a file name with an extension and a position. */
const BARE_POSITION = new RegExp(String.raw`\b(${SEGMENT}\.[A-Za-z]\w{0,9})` + POSITION, "g");
const LINE_WORD = /\bline (\d+)\b/g;

/**
 * The checkout on a hosted or self-hosted runner, `<work>/<repo>/<repo>/` (Linux, macOS, Windows,
 * containers): what follows it is the path in the repository, the same on every runner.
 */
const CHECKOUT = /^(?:.*\/)?(?:work|_work|__w|a)\/([^/]+)\/\1\//;
/** Temporary folders; what lies in them has a new name every run. */
const TEMP_ROOTS: RegExp[] = [
  /^(?:\/private)?\/var\/folders\/[^/]+\/[^/]+\/T(?=\/|$)/,
  /^\/(?:tmp|var\/tmp|dev\/shm)(?=\/|$)/,
  /^(?:.*\/)?_temp(?=\/|$)/,
  /^(?:.*\/)?AppData\/Local\/Temp(?=\/|$)/i,
  /^[A-Za-z]:\/(?:Windows\/)?Temp(?=\/|$)/i,
];
/** Names the temp-file makers choose: Python's tempfile, mktemp, Windows', pytest's. */
const TEMP_NAME =
  /^(?:tmp[a-z0-9_]{8}|tmp\.[A-Za-z0-9]{10}|tmp[0-9A-F]{1,5}\.tmp|pytest-\d+|pytest-of-.+)$/;

function position(line?: string, column?: string, tscLine?: string, tscColumn?: string): string {
  if (line !== undefined) return column === undefined ? ":<line>" : ":<line>:<col>";
  if (tscLine !== undefined) return tscColumn === undefined ? "(<line>)" : "(<line>,<col>)";
  return "";
}

/** A path as it reads the same on every runner and every run (see the rules in the file's head). */
function normalisePath(raw: string): string {
  const path = raw.replace(/[\\/]+/g, "/");
  const absolute = /^(?:[A-Za-z]:|~)?\//.test(path);
  const inCheckout = absolute ? CHECKOUT.exec(path) : null;
  if (inCheckout) return path.slice(inCheckout[0].length);
  for (const root of TEMP_ROOTS) {
    const match = root.exec(path);
    if (!match) continue;
    const rest = path.slice(match[0].length).split("/").filter(Boolean);
    const name = rest[rest.length - 1];
    return rest.length <= 1 || TEMP_NAME.test(name ?? "") ? "<tmp>" : `<tmp>/${name}`;
  }
  const parts = path.split("/").filter((part) => part !== "" && part !== "." && part !== "..");
  const name = parts[parts.length - 1] ?? "";
  if (TEMP_NAME.test(name)) return "<tmp>";
  return absolute ? name : parts.join("/");
}

/**
 * The first error line as it reads on every run of the same failure:
 *
 * - the runner's timestamp and `##[error]` before the line, ANSI colours, curly quotes → plain;
 * - a URL keeps its scheme and host (`https://registry.npmjs.org/<path>`);
 * - a path in the checkout is the path in the repository (`/home/runner/work/r/r/src/a.ts`,
 *   `D:\a\r\r\src\a.ts` → `src/a.ts`); another absolute path is its file name (`/usr/lib/x/y.py` →
 *   `y.py`); a relative one keeps its folders, with `/` (`.\src\a.ts` → `src/a.ts`); in a temp
 *   folder, or a temp name itself, `<tmp>` (`/tmp/tmpk3j4_ab1/out.txt` → `<tmp>/out.txt`);
 * - a position after a file is `:<line>:<col>` or `(<line>,<col>)`, and `line 12` is `line <line>`;
 * - dates and times `<time>`, UUIDs `<uuid>`, durations (`310.03s`, `5000 ms`, `1m30s`)
 *   `<duration>`, hex (`0x7ffd…`, SHAs of 7+ digits) `<hex>`, any other number `<n>` — but digits
 *   inside a word stay (`TS2322`, `E0308`, `sha256`);
 * - white space collapsed, and the whole cut to FIRST_ERROR_LIMIT characters.
 */
export function normaliseFirstError(line: string): string {
  const urls: string[] = [];
  let text = line
    .replace(ANSI, "")
    .replace(PRIVATE_USE, "")
    .replace(/[\r\n]+[\s\S]*$/, "")
    .replace(LOG_PREFIX, "");
  for (const [quote, plain] of QUOTES) text = text.replace(quote, plain);
  text = text.replace(URL, (_, scheme: string, host: string, rest: string) => {
    if (scheme.toLowerCase() === "file") return `${host}${rest}`;
    const where = host.toLowerCase().replace(/:\d+$/, ":<port>");
    urls.push(`${scheme.toLowerCase()}://${where}${rest === "" ? "" : "/<path>"}`);
    return `\ue000${String.fromCharCode(0xe100 + urls.length - 1)}`;
  });
  text = text
    .replace(UUID, "<uuid>")
    .replace(PATH, (match: string, ...groups: (string | undefined)[]) => {
      const positionText = /(?::\d+(?::\d+)?|\(\d+(?:,\s?\d+)?\))$/.exec(match)?.[0] ?? "";
      const [line, column, tscLine, tscColumn] = groups;
      return (
        normalisePath(match.slice(0, match.length - positionText.length)) +
        position(line, column, tscLine, tscColumn)
      );
    })
    .replace(
      BARE_POSITION,
      (_, name: string, line?: string, column?: string, tscLine?: string, tscColumn?: string) =>
        `${name}${position(line, column, tscLine, tscColumn)}`,
    )
    .replace(LINE_WORD, "line <line>");
  for (const time of TIMES) text = text.replace(time, "<time>");
  text = text
    .replace(GLOG, "")
    .replace(DURATION, "<duration>")
    .replace(HEX, "<hex>")
    .replace(NUMBER, "<n>")
    .replace(
      /[\ue000]([\ue100-\uf8ff])/g,
      (_, index: string) => urls[index.charCodeAt(0) - 0xe100] ?? "",
    )
    .replace(/\s+/g, " ")
    .trim();
  const characters = Array.from(text);
  return characters.length > FIRST_ERROR_LIMIT
    ? characters.slice(0, FIRST_ERROR_LIMIT).join("")
    : text;
}
