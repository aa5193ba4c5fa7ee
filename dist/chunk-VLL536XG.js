import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  ANSI
} from "./chunk-DVOXXDTS.js";
import {
  codeSpan
} from "./chunk-X2YAM5RQ.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/present/ci-words.ts
function runList(runs, shown = 5) {
  const named = runs.slice(0, shown).map((run) => `run ${run}`);
  const more = runs.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}
function attempts(count) {
  return count === 1 ? "1 attempt" : `${count} attempts`;
}
function dollars(amount) {
  return `$${amount.toFixed(2)}`;
}
var WEAKENING_VERBS = {
  "deleted-test": "deletes the test",
  "skip-marker": "skips or singles out tests with",
  "removed-assertion": "removes the assertion",
  "continue-on-error": "lets a failing step pass with",
  "ignored-exit-code": "ignores a failing command's exit code with"
};
var WEAKENINGS_SHOWN = 5;
var CI_WORDS = {
  alreadyHandled: (runId, attempt) => `already handled (run ${runId}, attempt ${attempt})`,
  triedOnCommit: (runs, cap) => `already tried on this commit (${runList(runs)}; the cap, ci-repair.attempts-per-sha: ${cap})`,
  branchCap: (branch, count, cap) => `${attempts(count)} on branch ${branch} in the last 24 hours already (the cap, ci-repair.attempts-per-branch: ${cap})`,
  signatureCap: (count, runs, cap) => `${attempts(count)} on this failure across branches (${runList(runs)}; the cap, ci-repair.attempts-per-signature: ${cap})`,
  dollarsCap: (spentUsd, cap) => `${dollars(spentUsd)} spent on this failure already (the cap, ci-repair.dollars-per-signature: ${dollars(cap)})`,
  /** What the agent is told when the failing step still fails after its repair (the output follows). */
  stillRed: (run) => `still-red: the harness ran the failing step again and it ${run.timedOut ? "timed out" : `exited with ${run.exitCode ?? "a signal"}`}, so the failure is not fixed yet. Fix the cause and check with the step itself; if it cannot pass in the sandbox (it needs the network or a service), say so in your answer. What it printed:`,
  /**
   * What the agent is told when its repair weakens the checks (`refused-weakening`): each change by
   * file and line, then what to do instead.
   */
  refusedWeakening: (weakenings) => {
    const named = weakenings.slice(0, WEAKENINGS_SHOWN).map(
      (weakening) => `${WEAKENING_VERBS[weakening.kind]} ${codeSpan(weakening.text)} in ${weakening.file}:${weakening.line}`
    );
    const more = weakenings.length - named.length;
    const changes = more > 0 ? `${named.join("; ")}; and ${more} more like these` : named.join("; ");
    return `refused-weakening: the repair ${changes}; fix the cause instead \u2014 change the code under test so the checks pass as they were written. If a test or a CI step is wrong itself, leave it as it is and say why in your answer; a person will decide.`;
  }
};

// src/ci/signature.ts
import { createHash } from "node:crypto";
var FIRST_ERROR_LIMIT = 300;
var KEY_LENGTH = 12;
function failureSignature(firstError, failingTests) {
  const error = normaliseFirstError(firstError ?? "");
  const tests = normaliseTests(failingTests);
  const key = createHash("sha256").update(JSON.stringify([error, tests])).digest("hex").slice(0, KEY_LENGTH);
  return { key, firstError: error, tests };
}
function normaliseTests(tests) {
  const ids = tests.map(
    (test) => test.replace(/\s+/g, " ").trim().replace(/\\/g, "/").replace(/^(?:\.\/)+/, "")
  ).filter((test) => test !== "");
  return [...new Set(ids)].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
}
var LOG_PREFIX = /^\s*(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\s+)?(?:##\[\w+\]|::\w+[^:]*::)?/;
var PRIVATE_USE = /[\ue000-\uf8ff]/g;
var QUOTES = [
  [/[\u2018\u2019\u201a\u201b]/g, "'"],
  [/[\u201c\u201d\u201e\u201f]/g, '"']
];
var URL = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/'"`<>()[\]]*)([^\s'"`<>()[\]]*)/gi;
var UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
var MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*";
var TIMES = [
  // 2026-07-30T13:21:30.788692Z, 2026-07-30 10:12:17,911, with an offset or not.
  /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|\s?[+-]\d\d:?\d\d\b)?/g,
  // Wed, 02 Dec 2026 / Dec 2, 2026 / Dec  2 (syslog).
  new RegExp(`\\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? \\d{1,2} ${MONTH} \\d{4}\\b`, "g"),
  new RegExp(`\\b${MONTH} +\\d{1,2}(?:, \\d{4})?(?= |$)`, "g"),
  /\b\d{4}-\d\d-\d\d\b/g,
  /\b\d{1,2}:\d\d:\d\d(?:[.,]\d+)?\b/g
];
var GLOG = /\b[IWEF]\d{4}(?= <time>)/g;
var UNIT = "(?:ns|\xB5s|\u03BCs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)";
var DURATION = new RegExp(
  `\\b(?:\\d+(?:\\.\\d+)?${UNIT})+(?![\\w.])|\\b\\d+(?:\\.\\d+)? ${UNIT}\\b`,
  "g"
);
var HEX = /\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi;
var NUMBER = /\b\d+(?:\.\d+)*\b/g;
var PATH_CHAR = String.raw`[\w.@+~%-]`;
var SEGMENT = `${PATH_CHAR}+`;
var POSITION = String.raw`(?::(\d+)(?::(\d+))?|\((\d+)(?:,\s?(\d+))?\))?`;
var PATH = new RegExp(
  [
    // C:\a\b.cs, C:/a/b, \\server\share\x
    String.raw`\b[A-Za-z]:[\\/]+(?:${SEGMENT}[\\/]+)*${PATH_CHAR}*`,
    String.raw`\\\\${SEGMENT}(?:\\${SEGMENT})+`,
    // /abs/path, ~/x, ./x, ../x, a/b/c, a\b\c
    String.raw`(?<![\w.~/\\:-])(?:~|\.{1,2})?/(?:${SEGMENT}/)*${SEGMENT}`,
    String.raw`(?<![\w.~/\\:@-])(?:\.{1,2}[\\/])*(?:${SEGMENT}[\\/])+${SEGMENT}`
  ].map((part) => `(?:${part})`).join("|") + POSITION,
  "g"
);
var BARE_POSITION = new RegExp(String.raw`\b(${SEGMENT}\.[A-Za-z]\w{0,9})` + POSITION, "g");
var LINE_WORD = /\bline (\d+)\b/g;
var CHECKOUT = /^(?:.*\/)?(?:work|_work|__w|a)\/([^/]+)\/\1\//;
var TEMP_ROOTS = [
  /^(?:\/private)?\/var\/folders\/[^/]+\/[^/]+\/T(?=\/|$)/,
  /^\/(?:tmp|var\/tmp|dev\/shm)(?=\/|$)/,
  /^(?:.*\/)?_temp(?=\/|$)/,
  /^(?:.*\/)?AppData\/Local\/Temp(?=\/|$)/i,
  /^[A-Za-z]:\/(?:Windows\/)?Temp(?=\/|$)/i
];
var TEMP_NAME = /^(?:tmp[a-z0-9_]{8}|tmp\.[A-Za-z0-9]{10}|tmp[0-9A-F]{1,5}\.tmp|pytest-\d+|pytest-of-.+)$/;
function position(line, column, tscLine, tscColumn) {
  if (line !== void 0) return column === void 0 ? ":<line>" : ":<line>:<col>";
  if (tscLine !== void 0) return tscColumn === void 0 ? "(<line>)" : "(<line>,<col>)";
  return "";
}
function normalisePath(raw) {
  const path = raw.replace(/[\\/]+/g, "/");
  const absolute = /^(?:[A-Za-z]:|~)?\//.test(path);
  const inCheckout = absolute ? CHECKOUT.exec(path) : null;
  if (inCheckout) return path.slice(inCheckout[0].length);
  for (const root of TEMP_ROOTS) {
    const match = root.exec(path);
    if (!match) continue;
    const rest = path.slice(match[0].length).split("/").filter(Boolean);
    const name2 = rest[rest.length - 1];
    return rest.length <= 1 || TEMP_NAME.test(name2 ?? "") ? "<tmp>" : `<tmp>/${name2}`;
  }
  const parts = path.split("/").filter((part) => part !== "" && part !== "." && part !== "..");
  const name = parts[parts.length - 1] ?? "";
  if (TEMP_NAME.test(name)) return "<tmp>";
  return absolute ? name : parts.join("/");
}
function normaliseFirstError(line) {
  const urls = [];
  let text = line.replace(ANSI, "").replace(PRIVATE_USE, "").replace(/[\r\n]+[\s\S]*$/, "").replace(LOG_PREFIX, "");
  for (const [quote, plain] of QUOTES) text = text.replace(quote, plain);
  text = text.replace(URL, (_, scheme, host, rest) => {
    if (scheme.toLowerCase() === "file") return `${host}${rest}`;
    const where = host.toLowerCase().replace(/:\d+$/, ":<port>");
    urls.push(`${scheme.toLowerCase()}://${where}${rest === "" ? "" : "/<path>"}`);
    return `\uE000${String.fromCharCode(57600 + urls.length - 1)}`;
  });
  text = text.replace(UUID, "<uuid>").replace(PATH, (match, ...groups) => {
    const positionText = /(?::\d+(?::\d+)?|\(\d+(?:,\s?\d+)?\))$/.exec(match)?.[0] ?? "";
    const [line2, column, tscLine, tscColumn] = groups;
    return normalisePath(match.slice(0, match.length - positionText.length)) + position(line2, column, tscLine, tscColumn);
  }).replace(
    BARE_POSITION,
    (_, name, line2, column, tscLine, tscColumn) => `${name}${position(line2, column, tscLine, tscColumn)}`
  ).replace(LINE_WORD, "line <line>");
  for (const time of TIMES) text = text.replace(time, "<time>");
  text = text.replace(GLOG, "").replace(DURATION, "<duration>").replace(HEX, "<hex>").replace(NUMBER, "<n>").replace(
    /[\ue000]([\ue100-\uf8ff])/g,
    (_, index) => urls[index.charCodeAt(0) - 57600] ?? ""
  ).replace(/\s+/g, " ").trim();
  const characters = Array.from(text);
  return characters.length > FIRST_ERROR_LIMIT ? characters.slice(0, FIRST_ERROR_LIMIT).join("") : text;
}

// src/ci/stored-ledger.ts
function storedLedger(ledgers, name, schema, empty) {
  const stored = ledgers[name];
  if (stored === void 0) return empty;
  const checked = schema.safeParse(stored);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : void 0;
  const path = ["ledgers", name, ...(issue?.path ?? []).map(String)];
  if (unknownKey !== void 0) path.push(unknownKey);
  const message = issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message;
  const what = unknownKey === void 0 ? message ?? "invalid" : "not a known field";
  throw new PitcrewError("notes-invalid", `state.json: ${path.join(".")}: ${what}`);
}

// src/ci/ledger.ts
var LEDGER_NAME = "ci-repair";
var LEDGER_BOUNDS = {
  failures: 100,
  attempts: 10,
  /** Failing test ids kept per failure (the key covers them all), each at most `testChars`. */
  tests: 10,
  testChars: 200,
  firstErrorChars: FIRST_ERROR_LIMIT,
  branchChars: 255,
  /** JSON.stringify(ledger, null, 2) in UTF-8. */
  bytes: 64 * 1024
};
var EMPTY_LEDGER = { failures: {} };
var BRANCH_WINDOW_MS = 24 * 60 * 60 * 1e3;
var OUTCOMES = {
  "pull-request": "pull-request",
  draft: "draft",
  "no-change": "no-change",
  "refused-weakening": "refused-weakening",
  rerun: "rerun",
  commented: "commented",
  failed: "failed"
};
var id = external_exports.number().int().positive();
var attemptSchema = external_exports.strictObject({
  runId: id,
  attempt: id,
  headSha: external_exports.string().regex(/^[0-9a-f]{40,64}$/, "expected a commit id"),
  branch: external_exports.string().min(1).max(LEDGER_BOUNDS.branchChars),
  outcome: external_exports.enum(OUTCOMES),
  pullRequest: id.optional(),
  costUsd: external_exports.number().finite().nonnegative(),
  at: external_exports.iso.datetime()
});
var failureSchema = external_exports.strictObject({
  firstError: external_exports.string().max(LEDGER_BOUNDS.firstErrorChars),
  tests: external_exports.array(external_exports.string().max(LEDGER_BOUNDS.testChars)).max(LEDGER_BOUNDS.tests),
  firstSeen: external_exports.iso.datetime(),
  attempts: external_exports.array(attemptSchema).max(LEDGER_BOUNDS.attempts)
});
var ledgerSchema = external_exports.strictObject({
  failures: external_exports.record(
    external_exports.string().regex(new RegExp(`^[0-9a-f]{${KEY_LENGTH}}$`), "expected a failure key"),
    failureSchema
  ).refine((failures) => Object.keys(failures).length <= LEDGER_BOUNDS.failures, {
    error: `more than ${LEDGER_BOUNDS.failures} failures`
  })
}).refine((ledger) => ledgerBytes(ledger) <= LEDGER_BOUNDS.bytes, {
  error: `over ${LEDGER_BOUNDS.bytes} bytes`
});
function ledgerBytes(ledger) {
  return Buffer.byteLength(JSON.stringify(ledger, null, 2));
}
function ledgerFromNotes(ledgers) {
  return storedLedger(ledgers, LEDGER_NAME, ledgerSchema, EMPTY_LEDGER);
}
function counted(attempts2) {
  return attempts2.filter((attempt) => attempt.outcome !== "rerun");
}
function runsOf(attempts2) {
  return [...new Set(attempts2.map((attempt) => attempt.runId))];
}
function decide(ledger, event, caps, pendingOnBranch) {
  const attempts2 = ledger.failures[event.signature.key]?.attempts ?? [];
  if (attempts2.some((past) => past.runId === event.runId && past.attempt === event.attempt)) {
    return skip({ kind: "already-handled", runId: event.runId, attempt: event.attempt });
  }
  const tries = counted(attempts2);
  const onCommit = tries.filter((past) => past.headSha === event.headSha);
  if (onCommit.length >= caps.perHeadSha) {
    return skip({ kind: "tried-on-commit", runs: runsOf(onCommit), cap: caps.perHeadSha });
  }
  const branch = cut(event.branch, LEDGER_BOUNDS.branchChars);
  const onBranch = pendingOnBranch + Object.values(ledger.failures).flatMap((failure) => counted(failure.attempts)).filter((past) => past.branch === branch && withinWindow(past.at, event.at)).length;
  if (onBranch >= caps.perBranch) {
    return skip({
      kind: "branch-cap",
      branch: event.branch,
      attempts: onBranch,
      cap: caps.perBranch
    });
  }
  if (tries.length >= caps.perSignature) {
    return skip({
      kind: "signature-cap",
      attempts: tries.length,
      runs: runsOf(tries),
      cap: caps.perSignature
    });
  }
  const spentUsd = attempts2.reduce((sum, past) => sum + past.costUsd, 0);
  if (spentUsd >= caps.dollarsPerSignature) {
    return skip({ kind: "dollars-cap", spentUsd, cap: caps.dollarsPerSignature });
  }
  return { go: true };
}
function withinWindow(at, now) {
  if (now === void 0) return true;
  return Date.parse(now) - Date.parse(at) < BRANCH_WINDOW_MS;
}
function skip(reason) {
  return { go: false, skip: reason, says: skipWords(reason) };
}
function skipWords(reason) {
  switch (reason.kind) {
    case "already-handled":
      return CI_WORDS.alreadyHandled(reason.runId, reason.attempt);
    case "tried-on-commit":
      return CI_WORDS.triedOnCommit(reason.runs, reason.cap);
    case "branch-cap":
      return CI_WORDS.branchCap(reason.branch, reason.attempts, reason.cap);
    case "signature-cap":
      return CI_WORDS.signatureCap(reason.attempts, reason.runs, reason.cap);
    case "dollars-cap":
      return CI_WORDS.dollarsCap(reason.spentUsd, reason.cap);
  }
}
function repairPlan(ledger, run, signatures, caps) {
  const distinct = [...new Map(signatures.map((signature) => [signature.key, signature])).values()];
  let going = 0;
  return distinct.map((signature) => {
    const decision = decide(ledger, { ...run, signature }, caps, going);
    if (decision.go) going += 1;
    return { signature, decision };
  });
}
function rerunOnCommit(ledger, key, headSha) {
  return ledger.failures[key]?.attempts.find(
    (past) => past.outcome === "rerun" && past.headSha === headSha
  );
}
function byTime(a, b) {
  return Date.parse(a) - Date.parse(b);
}
function cut(text, limit) {
  const characters = Array.from(text);
  return characters.length > limit ? characters.slice(0, limit).join("") : text;
}
function lastActive(failure) {
  return failure.attempts.reduce(
    (latest, attempt) => byTime(attempt.at, latest) > 0 ? attempt.at : latest,
    failure.firstSeen
  );
}
function recordAttempt(ledger, signature, attempt) {
  const known = ledger.failures[signature.key];
  const failure = known ?? {
    firstError: cut(signature.firstError, LEDGER_BOUNDS.firstErrorChars),
    tests: signature.tests.slice(0, LEDGER_BOUNDS.tests).map((test) => cut(test, LEDGER_BOUNDS.testChars)),
    firstSeen: attempt.at,
    attempts: []
  };
  const others = failure.attempts.filter(
    (past) => past.runId !== attempt.runId || past.attempt !== attempt.attempt
  );
  const attempts2 = [
    ...others,
    { ...attempt, branch: cut(attempt.branch, LEDGER_BOUNDS.branchChars) }
  ].sort((a, b) => byTime(a.at, b.at)).slice(-LEDGER_BOUNDS.attempts);
  const failures = { ...ledger.failures, [signature.key]: { ...failure, attempts: attempts2 } };
  return bounded({ failures }, signature.key);
}
function bounded(ledger, keep) {
  const failures = { ...ledger.failures };
  const oldestFirst = Object.keys(failures).filter((key) => key !== keep).sort((a, b) => {
    const order = byTime(lastActive(failures[a]), lastActive(failures[b]));
    return order !== 0 ? order : a < b ? -1 : 1;
  });
  while (oldestFirst.length > 0 && (Object.keys(failures).length > LEDGER_BOUNDS.failures || ledgerBytes({ failures }) > LEDGER_BOUNDS.bytes)) {
    delete failures[oldestFirst.shift()];
  }
  return { failures };
}

// src/config/ci-repair.ts
function branchRegex(pattern) {
  const source = pattern.split("**").map(
    (part) => part.split("*").map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")
  ).join(".*");
  return new RegExp(`^${source}$`);
}
function branchMatches(patterns, branch) {
  return patterns.some((pattern) => branchRegex(pattern).test(branch));
}
var REGEX_FLAGS = /^[imsu]*$/;
function classifyPattern(match) {
  if (match === "") return { problem: "it may not be empty" };
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(match);
  if (!literal) return match;
  const [, source = "", flags = ""] = literal;
  if (!REGEX_FLAGS.test(flags)) return { problem: "the flags after / may be i, m, s and u" };
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const why = error.message.replace(/^Invalid regular expression: /, "");
    return { problem: `not a regular expression: ${why}` };
  }
}
function classifyOverride(settings, firstError, tests) {
  const texts = firstError === null ? tests : [firstError, ...tests];
  const found = settings.classify.find((rule) => {
    const pattern = classifyPattern(rule.match);
    if (typeof pattern === "string") return texts.some((text) => text.includes(pattern));
    return pattern instanceof RegExp && texts.some((text) => pattern.test(text));
  });
  return found?.class;
}

// src/config/rules.ts
function complaint(rule, value) {
  const problem = rule.problem(value);
  if (problem === void 0) return void 0;
  return problem === "" ? `takes ${rule.takes}` : `takes ${rule.takes} (${problem})`;
}
function numberRule(takes, holds) {
  return { takes, problem: (value) => Number.isFinite(value) && holds(value) ? void 0 : "" };
}
var WHOLE_ABOVE_ZERO = numberRule(
  "a whole number above 0",
  (value) => Number.isInteger(value) && value > 0
);
var ABOVE_ZERO = numberRule("a number above 0", (value) => value > 0);
var BUDGET = numberRule("a number, 0 or more (0: no budget)", (value) => value >= 0);
var WHOLE_BUDGET = numberRule(
  "a whole number, 0 or more (0: no budget)",
  (value) => Number.isInteger(value) && value >= 0
);
var DISK_RESERVE = numberRule(
  "a whole number of MiB, 0 or more (0: no reserve)",
  (value) => Number.isInteger(value) && value >= 0
);
var FAILURE_ATTEMPTS = numberRule(
  `a whole number from 1 to ${LEDGER_BOUNDS.attempts}`,
  (value) => Number.isInteger(value) && value >= 1 && value <= LEDGER_BOUNDS.attempts
);
var FLAG_TAKES = "true or false";
var LOOKBACK_DAYS = numberRule(
  "a whole number of days from 1 to 90",
  (value) => Number.isInteger(value) && value >= 1 && value <= 90
);
var RERUNS = numberRule(
  "a whole number from 5 to 500",
  (value) => Number.isInteger(value) && value >= 5 && value <= 500
);
var WORKFLOW_FILE = {
  takes: "a workflow file name such as ci.yml",
  problem: (name) => /^[\w.-]+\.ya?ml$/.test(name) ? void 0 : "the file's name only, ending in .yml or .yaml"
};
var ISSUE_LABEL = {
  takes: "a label name of 1 to 50 characters without commas",
  problem: (label) => label.trim() === "" || label.length > 50 || label.includes(",") ? "" : void 0
};
var SAMPLE_BRANCH = "issue-1";
var BRANCH_PREFIX = {
  takes: "the start of a git branch name, such as pitcrew/",
  problem: (prefix) => prefix === "" ? "it may not be empty" : branchNameProblem(`${prefix}${SAMPLE_BRANCH}`)
};
var BRANCH_PATTERN = {
  takes: "a branch name or a glob (* within a name, ** across /)",
  problem: (pattern) => {
    if (pattern === "") return "it may not be empty";
    if (pattern.startsWith("!")) return "no negation with !: list the branches to repair";
    if (/[?[\]]/.test(pattern)) return "the only wildcards are * and **";
    return branchNameProblem(pattern.replace(/\*/g, "x"));
  }
};
var CLASSIFY_MATCH = {
  takes: "a piece of the first error or of a failing test's id, or /a regular expression/",
  problem: (match) => {
    const pattern = classifyPattern(match);
    return typeof pattern === "object" && "problem" in pattern ? pattern.problem : void 0;
  }
};
var REFUSED_CHARACTERS = /* @__PURE__ */ new Set(["\x7F", "~", "^", ":", "?", "*", "[", "\\"]);
function branchNameProblem(name) {
  if ([...name].some((char) => char <= " " || REFUSED_CHARACTERS.has(char))) {
    return "no spaces, control characters or any of ~ ^ : ? * [ \\";
  }
  if (name.startsWith("-")) return "it may not start with '-'";
  if (name.includes("..")) return "no '..'";
  if (name.includes("@{")) return "no '@{'";
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) {
    return "no '/' at the start or end and no '//'";
  }
  if (name.endsWith(".")) return "it may not end with '.'";
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return "no part between slashes may start with '.'";
    if (part.endsWith(".lock")) return "no part between slashes may end with '.lock'";
  }
  return void 0;
}

export {
  CI_WORDS,
  FIRST_ERROR_LIMIT,
  KEY_LENGTH,
  failureSignature,
  normaliseTests,
  storedLedger,
  LEDGER_NAME,
  EMPTY_LEDGER,
  ledgerFromNotes,
  repairPlan,
  rerunOnCommit,
  recordAttempt,
  branchMatches,
  classifyOverride,
  complaint,
  WHOLE_ABOVE_ZERO,
  ABOVE_ZERO,
  BUDGET,
  WHOLE_BUDGET,
  DISK_RESERVE,
  FAILURE_ATTEMPTS,
  FLAG_TAKES,
  LOOKBACK_DAYS,
  RERUNS,
  WORKFLOW_FILE,
  ISSUE_LABEL,
  BRANCH_PREFIX,
  BRANCH_PATTERN,
  CLASSIFY_MATCH
};
