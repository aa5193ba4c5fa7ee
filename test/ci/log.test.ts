/**
 * A job log as the excerpt reads it (src/ci/log.ts): each line as a terminal shows it (no BOM,
 * timestamp, escape or overwritten part), the same as the plain regex reading on generated lines
 * full of escapes and carriage returns; the steps cut at their headers with their echoed scripts
 * left out; the runner's exit-code line dropped but a signal's kept; the line numbers of the log as
 * downloaded; times and silences; and `linesWith`, which finds at least every line holding a word.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ANSI, readJobLog, readStepLogs, silenceBefore } from "../../src/ci/log.ts";
import type { JobLog } from "../../src/ci/log.ts";
import { mayMatch, RULE_WORDS } from "../../src/ci/rules.ts";
import { seeded } from "../support/random.ts";
import { runnerLog } from "../support/runner-log.ts";

/** The plain reading the fast one must equal: a regex each for the timestamp and the escapes. */
function shown(raw: string): string {
  const line = raw
    .replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d*)?Z ?/, "")
    .replace(/\r$/, "")
    .replace(ANSI, "");
  return line.slice(line.lastIndexOf("\r") + 1);
}

function lines(log: JobLog): string[] {
  return Array.from({ length: log.count }, (_, i) => log.line(i));
}

/** Lines of words, escapes (whole, cut short, unknown), carriage returns and timestamps (seeded). */
function generated(count: number): string[] {
  const next = seeded(11);
  const random = (n: number): number => Math.floor(next() * n);
  const pieces = [
    "FAIL",
    "FA",
    "IL",
    "rror",
    "e",
    "● sum",
    "1) ",
    "ok",
    " ",
    "é",
    "日本",
    "\r",
    "\x1b[31m",
    "\x1b[1;2",
    "\x1b[0m",
    "\x1b]0;title\x07",
    "\x1b]8;;http://x\x1b\\",
    "\x1b]unterminated",
    "\x1bM",
    "\x1b",
    "\x1b[",
    "\x1b[?25l",
    "\x07",
    "Z ",
    "2026-12-02T10:00:00Z ",
  ];
  const stamps = ["", "2026-12-02T10:00:00.1234567Z ", "2026-12-02T10:00:01Z", "2026-12-0"];
  return Array.from({ length: count }, () => {
    const body = Array.from({ length: random(8) }, () => pieces[random(pieces.length)]!).join("");
    return stamps[random(stamps.length)]! + body;
  });
}

describe("a job log's lines", () => {
  test("each is shown as the plain regex reading shows it", () => {
    const raw = generated(5000).filter((line) => !line.includes("##["));
    const log = readJobLog(`\ufeff${raw.join("\n")}\n`);
    assert.equal(log.count, raw.length);
    assert.deepEqual(lines(log), raw.map(shown));
    assert.deepEqual(
      [...log.numbers],
      raw.map((_, i) => i + 1),
    );
  });

  test("linesWith finds every line whose shown text holds a rule's word", () => {
    const raw = generated(20_000).filter((line) => !line.includes("##["));
    const log = readJobLog(raw.join("\r\n"));
    const found = new Set(log.linesWith(RULE_WORDS));
    const want = lines(log).flatMap((line, i) => (mayMatch(line) ? [i] : []));
    assert.ok(want.length > 1000, `only ${want.length} lines hold a word`);
    for (const index of want) assert.ok(found.has(index), JSON.stringify(raw[index]));
    const sorted = [...log.linesWith(RULE_WORDS)];
    assert.deepEqual(
      sorted,
      [...found].sort((a, b) => a - b),
    );
    // An escape inside a word: found though its raw text holds no word.
    const split = readJobLog("ok\nFA\x1b[31mIL x\nok\n");
    assert.deepEqual([...split.linesWith(RULE_WORDS)], [1]);
  });

  test("a line of no words is not found, and the rest words are tried on lines the scans missed", () => {
    const log = readJobLog("a FAIL\nplain\n  1) sum adds:\n1)x\n");
    assert.deepEqual([...log.linesWith(RULE_WORDS)], [0, 2]);
    assert.deepEqual([...log.linesWith({ scans: ["sum"], rest: [/^pl/] })], [1, 2]);
  });
});

describe("a job log's steps", () => {
  test("step headers, their echoed scripts and the generic exit-code line are left out", () => {
    const log = readJobLog(runnerLog("npm test", ["one", "two"], 1));
    assert.deepEqual(lines(log), ["Syncing repository", "one", "two", "Post job cleanup."]);
    assert.deepEqual(
      log.steps.map(({ name, start, end, failed, exitCode }) => [
        name,
        start,
        end,
        failed,
        exitCode,
      ]),
      [
        ["Run actions/checkout@v4", 0, 1, false, null],
        ["Run npm test", 1, 4, true, 1],
      ],
    );
    // Lines 1–4 and 6–9 are headers, 12 the exit-code line: the numbers are the downloaded ones.
    assert.deepEqual([...log.numbers], [5, 10, 11, 13]);
    assert.deepEqual([...log.stepOf], [0, 1, 1, 1]);
  });

  test("a signal's exit-code line stays, and its step keeps the code", () => {
    const log = readJobLog(runnerLog("./run", ["boom"], 137));
    assert.ok(lines(log).includes("##[error]Process completed with exit code 137."));
    assert.equal(log.steps[1]!.exitCode, 137);
  });

  test("a header with no endgroup in reach, or another group first, skips nothing", () => {
    const open = ["##[group]Run a", ...Array.from({ length: 500 }, (_, i) => `l${i}`)];
    assert.equal(readJobLog(open.join("\n")).count, 500);
    const nested = readJobLog("##[group]Run a\nx\n##[group]Other\ny\n##[endgroup]\nz\n");
    assert.deepEqual(lines(nested), ["x", "##[group]Other", "y", "z"]);
  });

  test("per-step files are a step each, numbered from 1 in their own file", () => {
    const log = readStepLogs([
      { name: "Set up job", text: "\ufeffa\nb" },
      { name: "Run tests", text: "2026-12-02T10:00:00.5Z c\r\n" },
      { name: "Empty", text: "" },
    ]);
    assert.deepEqual(lines(log), ["a", "b", "c"]);
    assert.deepEqual([...log.numbers], [1, 2, 1]);
    assert.deepEqual(
      log.steps.map(({ name, start, end }) => [name, start, end]),
      [
        ["Set up job", 0, 2],
        ["Run tests", 2, 3],
        ["Empty", 3, 3],
      ],
    );
  });
});

describe("a job log's times", () => {
  test("each line's timestamp, and the silence before a line", () => {
    const log = readJobLog(
      [
        "2026-12-02T10:00:00.2500000Z start",
        "no stamp",
        "2026-12-02T23:59:59Z late",
        "2026-12-03T00:10:00.1Z next day",
      ].join("\n"),
    );
    assert.equal(log.time(0), Date.UTC(2026, 11, 2, 10, 0, 0, 250));
    assert.ok(Number.isNaN(log.time(1)));
    assert.equal(log.time(2), Date.UTC(2026, 11, 2, 23, 59, 59));
    assert.equal(log.time(3), Date.UTC(2026, 11, 3, 0, 10, 0, 100));
    assert.equal(silenceBefore(log, 2), Date.UTC(2026, 11, 2, 23, 59, 59) - log.time(0));
    assert.equal(silenceBefore(log, 3), 10 * 60_000 + 1000 + 100);
    assert.equal(silenceBefore(log, 1), 0);
    assert.equal(silenceBefore(log, 0), 0);
  });
});
