import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

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

export {
  audienceOf,
  neutraliseClosing,
  longestRun,
  defuseInline,
  defuseMarkdown,
  defusePlain
};
