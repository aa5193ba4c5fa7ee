import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  ANSI
} from "./chunk-DVOXXDTS.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/domain/task.ts
function threadNumber(thread) {
  return thread.kind === "issue" || thread.kind === "pr" ? thread.number : void 0;
}

// src/present/defuse.ts
var ZWSP = "\u200B";
function audienceOf(task, runUrl) {
  let host = "github.com";
  let owner = "";
  let repo = "";
  try {
    const url = new URL(runUrl);
    host = url.host.toLowerCase();
    [owner = "", repo = ""] = url.pathname.split("/").filter((part) => part !== "");
  } catch {
  }
  const issue = task.thread.kind === "issue" ? task.thread.number : void 0;
  return { host, owner, repo, ...issue === void 0 ? {} : { issue } };
}
function onOwnHost(target, audience) {
  if (/[&\\]/.test(target)) return false;
  try {
    const base = `https://${audience.host}/${audience.owner}/${audience.repo}/`;
    const url = new URL(target.replace(/^<|>$/g, ""), base);
    return (url.protocol === "https:" || url.protocol === "http:") && url.host === audience.host;
  } catch {
    return false;
  }
}
function sameRepository(owner, repo, a) {
  return owner !== void 0 && repo !== void 0 && owner.toLowerCase() === a.owner.toLowerCase() && repo.toLowerCase() === a.repo.toLowerCase();
}
var KEYWORD = String.raw`(?<![A-Za-z0-9_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)`;
var SEPARATOR = String.raw`(?:[\s:*_~(\\]+|(?=[#\[]))`;
var URL_CHARS = String.raw`[^\s<>\x60|()\[\]"']`;
var REFERENCE = [
  String.raw`\[[^\]\n\x60]*\]\(\s*${URL_CHARS}*\s*\)`,
  String.raw`https?:\/\/${URL_CHARS}+`,
  String.raw`(?:[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)?#\d+`,
  String.raw`gh-\d+`
].join("|");
var CLOSING = new RegExp(`(${KEYWORD}${SEPARATOR})(${REFERENCE})`, "gi");
function ownIssue(reference, audience) {
  if (audience.issue === void 0) return false;
  const link = /^\[[^\]]*\]\(\s*(\S*)\s*\)$/.exec(reference)?.[1];
  const target = link ?? reference;
  if (/^https?:/i.test(target)) {
    if (!onOwnHost(target, audience)) return false;
    const path = /^\/([^/]+)\/([^/]+)\/issues\/(\d+)\/?$/.exec(new URL(target).pathname);
    return path !== null && sameRepository(path[1], path[2], audience) && Number(path[3]) === audience.issue;
  }
  if (link !== void 0) return false;
  const short = /^(?:([^/#]+)\/([^#]+))?(?:#|gh-)(\d+)$/i.exec(reference);
  if (short === null || Number(short[3]) !== audience.issue) return false;
  return short[1] === void 0 || sameRepository(short[1], short[2], audience);
}
function neutraliseClosing(text, audience, shown) {
  return text.replace(CLOSING, (whole, lead, reference) => {
    if (ownIssue(reference, audience)) return whole;
    if (shown) return `${lead}${codeSpanOf(reference, text)}`;
    return `${lead}${reference.replace("//", `/${ZWSP}/`).replace(/(#|gh-)(\d)/gi, `$1${ZWSP}$2`)}`;
  });
}
var MENTION = /(^|[^A-Za-z0-9_])([@\uFF20\uFE6B])(?=[A-Za-z0-9])/g;
function defuseMentions(text) {
  return text.replace(MENTION, `$1$2${ZWSP}`);
}
function codeSpanOf(text, context) {
  const ticks = "`".repeat(longestRun(context, "`") + 1);
  return `${ticks}${text}${ticks}`;
}
function longestRun(text, char) {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
function carve(pieces, pattern, render) {
  return pieces.flatMap((piece) => {
    if (piece.kept) return [piece];
    const out = [];
    let at = 0;
    for (const match of piece.text.matchAll(pattern)) {
      const rendered = render(match);
      if (rendered === void 0) continue;
      out.push({ text: piece.text.slice(at, match.index), kept: false }, ...rendered);
      at = match.index + match[0].length;
    }
    out.push({ text: piece.text.slice(at), kept: false });
    return out;
  });
}
var DESTINATION = String.raw`(?:${URL_CHARS}|\(${URL_CHARS}*\))*`;
var LABEL = String.raw`[^\[\]\n\x60|]*(?:\[[^\[\]\n\x60|]*\][^\[\]\n\x60|]*)*`;
var TITLE = String.raw`(?:\s+(?:"[^"\n\x60|]*"|'[^'\n\x60|]*'|\([^()\n\x60|]*\)))?`;
var INLINE_LINK = new RegExp(
  String.raw`(!?)\[(${LABEL})\]\((\s*(<[^<>\n\x60|]*>|${DESTINATION})${TITLE}\s*)\)`,
  "g"
);
var LINK_TARGET = new RegExp(String.raw`(?<=\]\(\s*<?)(?:${URL_CHARS}|\(${URL_CHARS}*\))+`, "g");
var BARE_URL = new RegExp(
  String.raw`(?:[a-z][a-z0-9+.-]*:\/\/|www\.|(?<![\w:/])\/\/(?=[\w-]))${URL_CHARS}+`,
  "gi"
);
function escapeProse(text) {
  return defuseMentions(text.replace(/&/g, "&amp;").replace(/</g, "&lt;"));
}
function defuseProse(text, audience, context, before = "", after = "") {
  const code = (shown) => [
    { text: codeSpanOf(shown.replace(/\|/g, "\\|"), context), kept: true, span: true }
  ];
  let pieces = [{ text, kept: false }];
  pieces = carve(pieces, CLOSING, (m) => {
    const [, lead = "", reference = ""] = m;
    if (ownIssue(reference, audience)) return void 0;
    return [{ text: lead, kept: false }, ...code(reference)];
  });
  pieces = carve(pieces, INLINE_LINK, (m) => {
    const [whole, bang = "", label = "", inside = "", target = ""] = m;
    if (!onOwnHost(target, audience)) return code(whole);
    return [{ text: `${bang}[${escapeProse(label)}](${inside})`, kept: true }];
  });
  pieces = carve(pieces, LINK_TARGET, (m) => onOwnHost(m[0], audience) ? void 0 : code(m[0]));
  pieces = carve(pieces, BARE_URL, (m) => {
    const url = m[0].replace(/[.,;:!?*_~]+$/, "");
    const target = /^www\./i.test(url) ? `https://${url}` : url;
    if (onOwnHost(target, audience)) return void 0;
    return [...code(url), { text: m[0].slice(url.length), kept: false }];
  });
  let out = "";
  pieces.forEach((piece, index) => {
    if (!piece.span) {
      out += piece.kept ? piece.text : escapeProse(piece.text);
      return;
    }
    const left = out === "" ? before : out.slice(-1);
    const right = pieces.slice(index + 1).find((next) => next.text !== "")?.text[0] ?? after;
    const pad = (char, also) => char === "`" || char === also ? ZWSP : "";
    out += `${pad(left, "\\")}${piece.text}${pad(right, "`")}`;
  });
  return out;
}
function defuseCode(text, audience) {
  return defuseMentions(
    text.replace(/<(?=[A-Za-z/!?])/g, `<${ZWSP}`).replace(/\](?=[(:])/g, `]${ZWSP}`).replace(/&(?=#|[A-Za-z][A-Za-z0-9]*;)/g, `&${ZWSP}`).replace(BARE_URL, (url) => {
      const target = /^www\./i.test(url) ? `https://${url}` : url;
      if (onOwnHost(target, audience)) return url;
      return /^www\./i.test(url) ? `www${ZWSP}${url.slice(3)}` : url.replace("//", `/${ZWSP}/`);
    })
  );
}
function inlineParts(line) {
  const parts = [];
  let at = 0;
  let from = 0;
  while (from < line.length) {
    const open = line.indexOf("`", from);
    if (open === -1) break;
    let end = open;
    while (line[end] === "`") end += 1;
    let slashes = 0;
    while (line[open - 1 - slashes] === "\\") slashes += 1;
    const start = slashes % 2 === 1 ? open + 1 : open;
    const ticks = end - start;
    const close = ticks === 0 ? -1 : closingRun(line, end, ticks);
    if (close === -1) {
      from = end;
      continue;
    }
    parts.push({ text: line.slice(at, start), code: false });
    parts.push({ text: line.slice(start, close + ticks), code: true });
    at = close + ticks;
    from = at;
  }
  parts.push({ text: line.slice(at), code: false });
  return parts.filter((part) => part.text !== "");
}
function closingRun(line, from, ticks) {
  for (let at = line.indexOf("`", from); at !== -1; at = line.indexOf("`", at)) {
    let end = at;
    while (line[end] === "`") end += 1;
    if (end - at === ticks) return at;
    at = end;
  }
  return -1;
}
var DEFINITION = /^ {0,3}\[[^\]]*\]:[ \t]*(\S*)/;
function defuseLine(line, audience, context) {
  const definition = DEFINITION.exec(line);
  if (definition !== null) {
    const target = definition[1] ?? "";
    if (target === "" || !onOwnHost(target, audience))
      return codeSpanOf(line.trim().replace(/\|/g, "\\|"), context);
  }
  let at = 0;
  return inlineParts(line).map((part) => {
    const start = at;
    at += part.text.length;
    if (part.code) return defuseCode(part.text, audience);
    return defuseProse(part.text, audience, context, line[start - 1], line[at]);
  }).join("");
}
function defuseInline(line, audience) {
  return neutraliseClosing(defuseLine(line, audience, line), audience, false);
}
var FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
function defuseMarkdown(markdown, audience) {
  const lines = markdown.split("\n");
  const { kinds, open } = fenceKinds(lines);
  const context = lines.filter((_, index) => kinds[index] !== "kept").join("\n");
  const out = lines.map((line, index) => {
    const kind = kinds[index];
    if (kind === "kept") return line;
    if (kind === "code") return defuseCode(line, audience);
    return defuseLine(line, audience, context);
  });
  if (open !== void 0) out.push(open);
  return neutraliseClosing(out.join("\n"), audience, false);
}
function fenceKinds(lines) {
  const kinds = [];
  let fence = null;
  let trusted = true;
  for (const line of lines) {
    const marker = FENCE.exec(line);
    const [, indent = "", run = "", rest = ""] = marker ?? [];
    if (fence === null) {
      const opens = marker !== null && !(run.startsWith("`") && rest.includes("`"));
      if (!opens) {
        kinds.push("prose");
        continue;
      }
      fence = { char: run.charAt(0), length: run.length, indent };
      if (indent.length >= 2) trusted = false;
      kinds.push(trusted ? "kept" : "code");
      continue;
    }
    kinds.push(trusted ? "kept" : "code");
    if (marker !== null && run.startsWith(fence.char) && run.length >= fence.length && /^[ \t]*$/.test(rest))
      fence = null;
  }
  return fence === null ? { kinds } : { kinds, open: `${fence.indent}${fence.char.repeat(fence.length)}` };
}
function defusePlain(text, audience) {
  return defuseMentions(neutraliseClosing(text, audience, true));
}

// src/present/text.ts
var SUMMARY_LIMIT = 8e3;
var SENTENCE_LIMIT = 1e3;
var HEADLINES = {
  working: "pitcrew is working on it",
  done: "pitcrew finished",
  stopped: "pitcrew stopped early",
  "no-changes": "pitcrew finished without changing anything",
  failed: "pitcrew failed",
  refused: "pitcrew did not start"
};
function cut(text, limit) {
  if (text.length <= limit) return text;
  const lineEnd = text.lastIndexOf("\n", limit);
  const kept = text.slice(0, lineEnd > limit / 2 ? lineEnd : limit).trimEnd();
  return `${kept}

\u2026 (${(text.length - kept.length).toLocaleString("en-US")} more characters cut)`;
}
function quotedMarkdown(text, audience, limit = SUMMARY_LIMIT) {
  return defuseMarkdown(cut(text.replace(/\r\n?/g, "\n").trim(), limit), audience);
}
function quotedLine(text, audience, limit = 120) {
  const line = text.replace(/\s+/g, " ").trim();
  return defuseInline(line.length > limit ? `${line.slice(0, limit - 1)}\u2026` : line, audience);
}
function codeSpan(text) {
  const line = text.replace(/\s+/g, " ");
  const ticks = "`".repeat(longestRun(line, "`") + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${ticks}${pad}${line}${pad}${ticks}`;
}
function codeBlock(text) {
  const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
  return `${fence}text
${text.replace(/\s+$/, "")}
${fence}`;
}
function continueSentence(where) {
  return `Reply \`/agent continue\`${where === void 0 ? "" : ` on ${where}`} to go on from here.`;
}
function pullLink(pull) {
  return `[#${pull.number}](${pull.url})${pull.draft ? " (draft)" : ""}`;
}
function requestWords(task) {
  switch (task.kind) {
    case "fix":
      return "/agent fix";
    case "continue":
      return "/agent continue";
    case "instruction":
      return "/agent";
    case "dispatch":
      return "a workflow dispatch";
    case "ci-repair":
      return "a repair of the failed CI run";
    case "flaky-triage":
      return "a flaky-test triage";
  }
}
function requestLine(task, audience) {
  const words = requestWords(task);
  const asked = task.kind === "dispatch" || task.kind === "ci-repair" || task.kind === "flaky-triage" ? words : codeSpan(words);
  const instruction = task.instruction.trim();
  return `@${task.requester.login} asked for ${asked}${instruction === "" ? "" : `: \u201C${quotedLine(instruction, audience)}\u201D`}`;
}
function threadRef(task) {
  const number = threadNumber(task.thread);
  return number === void 0 ? void 0 : `#${number}`;
}

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
var URL2 = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/'"`<>()[\]]*)([^\s'"`<>()[\]]*)/gi;
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
  text = text.replace(URL2, (_, scheme, host, rest) => {
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
  const branch = cut2(event.branch, LEDGER_BOUNDS.branchChars);
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
function cut2(text, limit) {
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
    firstError: cut2(signature.firstError, LEDGER_BOUNDS.firstErrorChars),
    tests: signature.tests.slice(0, LEDGER_BOUNDS.tests).map((test) => cut2(test, LEDGER_BOUNDS.testChars)),
    firstSeen: attempt.at,
    attempts: []
  };
  const others = failure.attempts.filter(
    (past) => past.runId !== attempt.runId || past.attempt !== attempt.attempt
  );
  const attempts2 = [
    ...others,
    { ...attempt, branch: cut2(attempt.branch, LEDGER_BOUNDS.branchChars) }
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
  threadNumber,
  audienceOf,
  neutraliseClosing,
  defusePlain,
  SENTENCE_LIMIT,
  HEADLINES,
  quotedMarkdown,
  quotedLine,
  codeSpan,
  codeBlock,
  continueSentence,
  pullLink,
  requestLine,
  threadRef,
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
