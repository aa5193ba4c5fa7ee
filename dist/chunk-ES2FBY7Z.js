import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  readJobLog,
  silenceBefore
} from "./chunk-DVOXXDTS.js";
import {
  estimateText
} from "./chunk-6BQ7F7WX.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/ci/junit.ts
var ENTITIES = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
function decodeXml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name.startsWith("#x") || name.startsWith("#X")) {
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    }
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}
function attributes(text) {
  const found = {};
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found[match[1]] = decodeXml(match[2] ?? match[3] ?? "");
  }
  return found;
}
function caseId(classname, name, file) {
  if (classname === "") return file === "" ? name : `${file}::${name}`;
  if (classname.includes("::")) return `${classname}::${name}`;
  if (/\s/.test(classname)) return `${classname} \u203A ${name}`;
  return `${classname}.${name}`;
}
function messageOf(attributesText, body) {
  const message = attributes(attributesText).message ?? "";
  const text = decodeXml(body.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1").replace(/<[^>]+>/g, ""));
  const line = [message, text].flatMap((part) => part.split("\n")).map((part) => part.trim()).find((part) => part !== "");
  return line ?? "";
}
var CASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
var FAILURE = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;
var FLAKY = /<(flakyFailure|flakyError|rerunFailure|rerunError)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;
function isJunit(text) {
  return /<testsuites?[\s>]/.test(text.slice(0, 8192));
}
function readJunit(xml, file = "the report") {
  if (!isJunit(xml)) {
    throw new PitcrewError(
      "ci-report-unreadable",
      `${file} is not a JUnit report: it has no <testsuite> or <testsuites> element.`
    );
  }
  const failing = [];
  const flaky = [];
  for (const match of xml.matchAll(CASE)) {
    const own = attributes(match[1] ?? "");
    const body = match[2] ?? "";
    const id = caseId(own.classname ?? "", own.name ?? "", own.file ?? "");
    const failure = FAILURE.exec(body);
    if (failure !== null) {
      failing.push({ id, message: messageOf(failure[2] ?? "", failure[3] ?? "") });
      continue;
    }
    const rerun = FLAKY.exec(body);
    if (rerun !== null) flaky.push({ id, message: messageOf(rerun[2] ?? "", rerun[3] ?? "") });
  }
  return { failing, flaky };
}

// src/ci/rules.ts
var RULES = [
  // Compilers and type checkers: gcc/clang, msvc, tsc, rustc, go build, javac, kotlinc.
  {
    tool: "gcc/clang",
    weight: 3,
    pattern: /^\S.*?:\d+:\d+: (?:fatal )?error: /,
    needs: /:\d+:\d+: (?:fatal )?error: /
  },
  {
    tool: "msvc",
    weight: 3,
    pattern: /^\S.*?\(\d+(?:,\d+)?\): (?:fatal )?error [A-Z]+\d+:/,
    needs: /\): (?:fatal )?error [A-Z]+\d+:/
  },
  {
    tool: "tsc",
    weight: 3,
    pattern: /^\S.*?(?:\(\d+,\d+\)|:\d+:\d+)(?: -)? error TS\d+:/,
    needs: / error TS\d+:/
  },
  {
    tool: "rustc",
    weight: 3,
    pattern: /^error(?:\[E\d{4}\])?: (?!test failed|could not compile|aborting)/
  },
  {
    tool: "javac",
    weight: 3,
    pattern: /^\S+\.(?:java|kt):(?:\d+:)?(?:\d+:)? error: |^\[ERROR\] \S+\.(?:java|kt):\[\d+,\d+\] /
  },
  { tool: "go build", weight: 3, pattern: /^\S+\.go:\d+:\d+: (?!warning)/ },
  // Test runners.
  {
    tool: "pytest",
    weight: 3,
    pattern: /^(?:FAILED|ERROR) (?:\[[\d.]+s\] )?(\S+::\S+|\S+\.py)(?: - .*)?$/,
    test: (match) => match[1]
  },
  {
    tool: "pytest",
    weight: 1,
    pattern: /^(\S+\.py::\S+) (?:FAILED|ERROR)\b/,
    test: (match) => match[1]
  },
  {
    tool: "jest",
    weight: 3,
    pattern: /^\s*● (?!Console$|Test suite failed to run$)(.+)$/,
    test: (match) => match[1]?.trim()
  },
  { tool: "jest", weight: 1, pattern: /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\b/ },
  {
    tool: "vitest",
    weight: 3,
    pattern: /^\s*(?:FAIL|×|❯)\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(.+?)(?:\s+\d+m?s)?$/,
    test: (match) => `${match[1]} > ${match[2]}`
  },
  {
    tool: "node:test",
    weight: 3,
    pattern: /^\s*not ok \d+ - (.+?)(?: # .*)?$/,
    test: (match) => match[1]
  },
  {
    tool: "node:test",
    weight: 2,
    pattern: /^\s*✖ (.+?) \([\d.]+m?s\)$/,
    test: (match) => match[1]
  },
  { tool: "mocha", weight: 1, pattern: /^\s+\d+\) (.+):$/, test: (match) => match[1] },
  { tool: "go test", weight: 3, pattern: /^\s*--- FAIL: (\S+)/, test: (match) => match[1] },
  {
    tool: "cargo test",
    weight: 3,
    pattern: /^test (\S+) \.\.\. FAILED$/,
    test: (match) => match[1]
  },
  {
    tool: "nextest",
    weight: 3,
    pattern: /^\s+(?:FAIL|TIMEOUT) \[\s*[\d.]+s\] (\S+ \S+)$/,
    test: (match) => match[1]
  },
  { tool: "rust", weight: 2, pattern: /^thread '.+' panicked at / },
  {
    tool: "surefire",
    weight: 3,
    pattern: /^\[ERROR\]\s+([\w$.]+)\.([\w$]+)(?:\(\))?\s+(?:--\s+)?Time elapsed: .*<<< (?:FAILURE|ERROR)!/,
    test: (match) => `${match[1]}.${match[2]}`
  },
  { tool: "surefire", weight: 2, pattern: /<<< (?:FAILURE|ERROR)!/ },
  {
    tool: "gradle",
    weight: 3,
    pattern: /^([\w$.]+) > (.+) FAILED$/,
    test: (match) => `${match[1]}.${match[2]}`
  },
  {
    tool: "unittest",
    weight: 3,
    pattern: /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/,
    test: (match) => `${match[2]}.${match[1]}`
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
    pattern: /has timed out after \d+ minutes|has exceeded the maximum execution time|The operation was canceled|The runner has received a shutdown signal/
  },
  {
    tool: "signal",
    weight: 2,
    pattern: /\bSegmentation fault\b|\bcore dumped\b|exit code 13[79]\b|\bSIGKILL\b|Out of memory/
  },
  { tool: "signal", weight: 2, pattern: /^Killed$/ },
  // Exceptions and assertions, any language.
  {
    tool: "exception",
    weight: 2,
    pattern: /^\s*(?:[\w.]+(?:Error|Exception)(?: \[[A-Z_]+\])?|AssertionError|panic): |^Traceback \(most recent call last\):|^\s*Error: |^\s*(?:E|>)\s{2,}\w*(?:Error|assert)/
  },
  {
    tool: "npm",
    weight: 2,
    pattern: /^npm (?:ERR!|error) (?!code\b|A complete log|Lifecycle|errno)/
  },
  // Generic markers.
  {
    tool: "make",
    weight: 1,
    pattern: /^(?:g?make(?:\[\d+\])?|ninja): \*\*\* .*Error \d+|^FAILED: /
  },
  { tool: "runner", weight: 1, pattern: /^##\[error\]/ },
  { tool: "generic", weight: 1, pattern: /\b(?:error|ERROR|FAILED|FATAL)\b[:!]/ },
  { tool: "generic", weight: 1, pattern: /^(?:FAIL|FAILED)\b/ }
];
function union(rules) {
  return new RegExp(rules.map((rule) => `(?:${rule.pattern.source})`).join("|"));
}
function anchored(pattern) {
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
var COMMON_WORDS = /rror|RR|FAIL|panic|Traceback|Exception|assert|\.py:\d|\.go:\d/;
var GLYPHS = ["\u25CF", "\u2716", "\xD7", "\u276F"];
var GLYPH = new RegExp(`[${GLYPHS.join("")}]`);
var RARE_WORDS = [
  /not ok|timed out|execution time|canceled|shutdown signal|Segmentation|core dumped|Killed|exit code|SIGKILL|Out of memory|TIMEOUT|\[warn\]|FATAL| line \d+:/,
  /\d\) /
];
var RULE_WORDS = {
  scans: [new RegExp(COMMON_WORDS.source, "g"), ...GLYPHS],
  rest: RARE_WORDS
};
function groupOf(rules, any = union(rules)) {
  return rules.length > 0 ? { rules: new Set(rules), any } : null;
}
var BY_WEIGHT = [3, 2, 1].map((weight) => {
  const rules = RULES.filter((rule) => rule.weight === weight);
  const open = rules.filter((rule) => rule.needs === void 0);
  const groups = [
    groupOf(open.filter((rule) => anchored(rule.pattern))),
    groupOf(open.filter((rule) => !anchored(rule.pattern))),
    // The gated rules behind one union of their gates: a line that passes it tries them all.
    groupOf(
      rules.filter((rule) => rule.needs !== void 0),
      new RegExp(
        rules.flatMap((rule) => rule.needs ? [`(?:${rule.needs.source})`] : []).join("|")
      )
    )
  ].filter((group) => group !== null);
  const naming = groupOf(rules.filter((rule) => rule.test !== void 0));
  return { weight, groups, rules, naming, tried: /* @__PURE__ */ new Map() };
});
function triedFor(weight, matched) {
  let tried = weight.tried.get(matched);
  if (tried === void 0) {
    const rules = weight.rules.filter(
      (rule) => weight.groups.some((group, bit) => (matched & 1 << bit) !== 0 && group.rules.has(rule))
    );
    const naming = RULES.filter(
      (rule) => rule.test !== void 0 && (rule.weight < weight.weight || rules.includes(rule))
    );
    tried = { rules, naming: groupOf(naming) };
    weight.tried.set(matched, tried);
  }
  return tried;
}
function mayMatch(line) {
  return COMMON_WORDS.test(line) || GLYPH.test(line) || RARE_WORDS.some((words) => words.test(line));
}
function namingMatch(line, weight, naming) {
  if (naming === null || !naming.any.test(line)) return void 0;
  for (const rule of naming.rules) {
    const match = rule.pattern.exec(line);
    const test = match === null ? void 0 : rule.test(match);
    if (test !== void 0) return { weight, tool: rule.tool, test };
  }
  return void 0;
}
function matchLine(line, options = {}) {
  if (line.length > 4e3 || options.screened !== true && !mayMatch(line)) return void 0;
  const lightest = options.lightest ?? 1;
  for (const weight of BY_WEIGHT) {
    if (weight.weight < lightest) {
      const named = namingMatch(line, weight.weight, weight.naming);
      if (named !== void 0) return named;
      continue;
    }
    let matched = 0;
    for (let bit = 0; bit < weight.groups.length; bit++) {
      if (weight.groups[bit].any.test(line)) matched |= 1 << bit;
    }
    if (matched === 0) continue;
    const tried = triedFor(weight, matched);
    for (const rule of tried.rules) {
      const match = rule.pattern.exec(line);
      if (match === null) continue;
      const test = rule.test?.(match);
      if (test !== void 0) return { weight: weight.weight, tool: rule.tool, test };
      const named = namingMatch(line, weight.weight, tried.naming);
      return { weight: weight.weight, tool: rule.tool, test: named?.test };
    }
  }
  return void 0;
}

// src/ci/excerpt.ts
var DEFAULT_MAX_TOKENS = 8e3;
var CONTEXT = {
  1: { before: 1, after: 2 },
  2: { before: 2, after: 8 },
  3: { before: 3, after: 12 }
};
var MAX_ERRORS = 200;
var TAIL_LINES = 60;
var HANG_MS = 10 * 6e4;
var LINE_CHARS = 500;
var ANY = { lightest: 1, screened: true };
var HEAVY = { lightest: 2, screened: true };
function shown(line) {
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}\u2026 (${line.length} characters)` : line;
}
function shape(line) {
  return line.replace(/0x[0-9a-f]+|\d+/gi, "0").trim();
}
function failingFromReports(reports) {
  const tests = [];
  let first;
  for (const [file, xml] of Object.entries(reports)) {
    try {
      const report = readJunit(xml, file);
      for (const failing of report.failing) {
        tests.push(failing.id);
        first ??= failing.message === "" ? void 0 : failing.message;
      }
    } catch {
    }
  }
  return { tests, first };
}
function blocksOf(log, errors) {
  const blocks = [];
  for (const { index, weight } of errors) {
    const context = CONTEXT[weight];
    const step = log.steps[log.stepOf[index]];
    const start = Math.max(step.start, index - context.before);
    const end = Math.min(step.end, index + context.after + 1);
    const last = blocks.at(-1);
    if (last !== void 0 && start <= last.end && log.stepOf[last.start] === log.stepOf[start]) {
      last.end = Math.max(last.end, end);
      last.weight = Math.max(last.weight, weight);
    } else {
      blocks.push({ start, end, weight, anchor: index });
    }
  }
  return blocks;
}
function blockLines(log, block, seen) {
  const lines = [];
  let skipped = 0;
  for (let index = block.start; index < block.end; index++) {
    const line = log.line(index);
    const key = shape(line);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count > 2 && key !== "") {
      skipped++;
      continue;
    }
    const silence = silenceBefore(log, index);
    if (silence >= HANG_MS)
      lines.push(`\u2026 nothing was written for ${Math.round(silence / 6e4)} min before this line`);
    lines.push(shown(line));
  }
  if (skipped > 0) lines.push(`\u2026 ${skipped} repeated line(s) left out`);
  return lines;
}
function excerptLog(log, options = {}) {
  const budget = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const heavy = [];
  const light = [];
  const consoleTests = [];
  let firstIndex = -1;
  let firstWeight = 0;
  for (const index of log.linesWith(RULE_WORDS)) {
    const full = light.length >= MAX_ERRORS && firstWeight >= 1;
    const match = matchLine(log.line(index), full ? HEAVY : ANY);
    if (match === void 0) continue;
    if (match.test !== void 0) consoleTests.push(match.test);
    if (match.weight > firstWeight) {
      firstWeight = match.weight;
      firstIndex = index;
    }
    const kept = match.weight >= 2 ? heavy : light;
    if (kept.length < MAX_ERRORS) kept.push({ index, weight: match.weight });
  }
  const errors = [...heavy, ...light];
  if (firstIndex !== -1 && !errors.some((error) => error.index === firstIndex)) {
    errors.push({ index: firstIndex, weight: firstWeight });
  }
  errors.sort((a, b) => a.index - b.index);
  const reported = failingFromReports(options.reports ?? {});
  const failingTests = [...new Set(reported.tests.length > 0 ? reported.tests : consoleTests)];
  const firstError = firstIndex === -1 ? reported.first ?? null : log.line(firstIndex).trim();
  let blocks;
  if (errors.length === 0) {
    const failed = [...log.steps].reverse().find((step2) => step2.failed) ?? log.steps.at(-1);
    blocks = failed === void 0 ? [] : [
      {
        start: Math.max(failed.start, failed.end - TAIL_LINES),
        end: failed.end,
        weight: 1,
        anchor: failed.end - 1
      }
    ];
  } else {
    blocks = blocksOf(log, errors);
  }
  const order = [...blocks.keys()].sort((a, b) => {
    const x = blocks[a];
    const y = blocks[b];
    const first = (block) => firstIndex >= block.start && firstIndex < block.end ? 1 : 0;
    return first(y) - first(x) || y.weight - x.weight || x.start - y.start;
  });
  const seen = /* @__PURE__ */ new Map();
  const chosen = /* @__PURE__ */ new Map();
  let spent = 0;
  let left = 0;
  for (const at of order) {
    const block = blocks[at];
    let lines = blockLines(log, block, seen);
    let cost = estimateText(lines.join("\n")) + 10;
    if (spent + cost > budget) {
      if (chosen.size > 0) {
        left++;
        continue;
      }
      const from = Math.max(0, block.anchor - block.start);
      lines = lines.slice(from);
      while (lines.length > 1 && estimateText(lines.join("\n")) + 10 > budget) lines.pop();
      cost = estimateText(lines.join("\n")) + 10;
    }
    chosen.set(at, lines);
    spent += cost;
  }
  const parts = [];
  let step = -1;
  for (const [at, block] of blocks.entries()) {
    const lines = chosen.get(at);
    if (lines === void 0) continue;
    const stepIndex = log.stepOf[block.start] ?? -1;
    if (stepIndex !== step) {
      const name = log.steps[stepIndex]?.name ?? "";
      if (name !== "") parts.push(`##[group]${name}`);
      else if (parts.length > 0) parts.push("\u2026");
      step = stepIndex;
    } else {
      parts.push("\u2026");
    }
    parts.push(...lines);
  }
  if (left > 0)
    parts.push(`\u2026 ${left} more error block(s) left out to stay within ${budget} tokens`);
  return { excerpt: parts.join("\n"), failingTests, firstError };
}
function excerptText(text, options = {}) {
  return excerptLog(readJobLog(text), options);
}

export {
  isJunit,
  readJunit,
  DEFAULT_MAX_TOKENS,
  excerptLog,
  excerptText
};
