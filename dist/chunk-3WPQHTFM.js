import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/git/secret-forms.ts
import { Buffer } from "node:buffer";
var KNOWN = "a secret pitcrew holds";
var KNOWN_KINDS = {
  plain: KNOWN,
  split: `${KNOWN}, split or with invisible characters`,
  recased: `${KNOWN}, in another letter case`,
  reversed: `${KNOWN}, reversed`,
  base64: `${KNOWN}, base64-encoded`,
  hex: `${KNOWN}, hex-encoded`,
  percent: `${KNOWN}, percent-encoded`,
  utf16: `${KNOWN}, UTF-16-encoded`
};
var FOLD_MIN_LENGTH = 16;
var MAX_HITS_PER_FORM = 20;
var INVISIBLE = (
  // eslint-disable-next-line no-misleading-character-class -- listed one by one, not combined
  /\\\r?\n|[\s\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]+/g
);
var UPPER_ASCII = /[A-Z]+/g;
var NOT_HEX = /0x|[^0-9a-f]+/g;
var PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/g;
var STRING_JOINT = /["'`](?:\+|\.\.?|&)?["'`]/g;
function derive(parent, pattern, replace) {
  return { text: parent.text.replace(pattern, replace), parent, pattern, replace };
}
function parentOffset(view, index) {
  const { parent, pattern, replace } = view;
  if (parent === void 0 || pattern === void 0 || replace === void 0) return index;
  let made = 0;
  let last = 0;
  for (const match of parent.text.matchAll(pattern)) {
    const kept = match.index - last;
    if (index < made + kept) return last + (index - made);
    made += kept;
    const produced = replace(match[0]).length;
    if (index < made + produced) return match.index;
    made += produced;
    last = match.index + match[0].length;
  }
  return last + (index - made);
}
function originalOffset(view, index) {
  let offset = index;
  for (let at = view; at?.parent !== void 0; at = at.parent) {
    offset = parentOffset(at, offset);
  }
  return offset;
}
var drop = () => "";
var lower = (token) => token.toLowerCase();
var unescape = (token) => String.fromCharCode(parseInt(token.slice(1), 16));
var Views = class {
  original;
  #made = /* @__PURE__ */ new Map();
  constructor(text) {
    this.original = text;
  }
  get(name) {
    let view = this.#made.get(name);
    if (view === void 0) {
      view = this.#make(name);
      this.#made.set(name, view);
    }
    return view;
  }
  #make(name) {
    switch (name) {
      case "compact":
        return derive({ text: this.original }, INVISIBLE, drop);
      case "joined":
        return derive(this.get("compact"), STRING_JOINT, drop);
      case "folded": {
        const compact = this.get("compact");
        const lowered = compact.text.toLowerCase();
        return lowered.length === compact.text.length ? { text: lowered, parent: compact } : derive(compact, UPPER_ASCII, lower);
      }
      case "hex":
        return derive(this.get("folded"), NOT_HEX, drop);
      case "percent":
        return derive(this.get("compact"), PERCENT_ESCAPE, unescape);
    }
  }
};
function base64At(bytes, offset) {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
  const first = Math.ceil(offset * 8 / 6);
  const last = Math.floor((offset + bytes.length) * 8 / 6);
  return encoded.slice(first, last);
}
function reverse(value) {
  return [...value].reverse().join("");
}
function formsOf(value) {
  const compact = value.replace(INVISIBLE, "");
  const bytes = Buffer.from(value);
  const forms = [
    { view: "compact", needle: compact, kind: KNOWN_KINDS.plain },
    { view: "joined", needle: compact, kind: KNOWN_KINDS.split }
  ];
  for (const offset of [0, 1, 2]) {
    const standard = base64At(bytes, offset);
    const urlSafe = standard.replaceAll("+", "-").replaceAll("/", "_");
    for (const needle of /* @__PURE__ */ new Set([standard, urlSafe])) {
      forms.push({ view: "compact", needle, kind: KNOWN_KINDS.base64 });
    }
  }
  forms.push({ view: "percent", needle: compact, kind: KNOWN_KINDS.percent });
  forms.push({ view: "hex", needle: bytes.toString("hex"), kind: KNOWN_KINDS.hex });
  if ([...compact].every((char) => char > "\0" && char <= "\x7F")) {
    forms.push({ view: "compact", needle: [...compact].join("\0"), kind: KNOWN_KINDS.utf16 });
  }
  forms.push({ view: "compact", needle: reverse(compact), kind: KNOWN_KINDS.reversed });
  if (compact.length >= FOLD_MIN_LENGTH) {
    const folded = compact.replace(UPPER_ASCII, lower);
    forms.push({ view: "folded", needle: folded, kind: KNOWN_KINDS.recased });
    forms.push({ view: "folded", needle: reverse(folded), kind: KNOWN_KINDS.reversed });
  }
  return forms;
}
function findForms(text, forms) {
  const views = new Views(text);
  const hits = [];
  for (const form of forms) {
    if (form.view === "percent" && !text.includes("%")) continue;
    const view = views.get(form.view);
    let found = 0;
    for (let index = view.text.indexOf(form.needle); index !== -1 && found < MAX_HITS_PER_FORM; index = view.text.indexOf(form.needle, index + 1)) {
      found++;
      const offset = originalOffset(view, index);
      const last = originalOffset(view, index + form.needle.length - 1);
      if (hits.some((hit) => offset <= hit.last && hit.offset <= last)) continue;
      const split = form.kind === KNOWN_KINDS.plain && text.slice(offset, offset + form.needle.length) !== form.needle;
      hits.push({ offset, last, kind: split ? KNOWN_KINDS.split : form.kind });
    }
  }
  return hits;
}

// src/git/secret-scan.ts
var PATTERNS = [
  {
    kind: "GitHub token",
    regex: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    random: true
  },
  {
    kind: "GitHub fine-grained token",
    regex: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,}/g,
    random: true
  },
  {
    kind: "Anthropic API key",
    regex: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{32,}/g,
    random: true
  },
  {
    kind: "OpenAI API key",
    regex: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{32,}/g,
    random: true
  },
  {
    kind: "AWS access key id",
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    example: /EXAMPLE$/
  },
  { kind: "Slack token", regex: /(?<![A-Za-z0-9])xox[abprs]-\d{6,}-[A-Za-z0-9-]{10,}/g },
  { kind: "Google API key", regex: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: "private key", regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g }
];
var MIN_KNOWN_LENGTH = 8;
function looksRandom(value) {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
}
function heldForms(known) {
  return known.filter((value) => value.length >= MIN_KNOWN_LENGTH).flatMap(formsOf);
}
function patternKinds(line) {
  const kinds = /* @__PURE__ */ new Set();
  for (const pattern of PATTERNS) {
    for (const match of line.matchAll(pattern.regex)) {
      const value = match[0];
      if (pattern.random && !looksRandom(value)) continue;
      if (pattern.example?.test(value)) continue;
      kinds.add(pattern.kind);
      break;
    }
  }
  return kinds;
}
function holdsSecret(text, forms) {
  return findForms(text, forms).length > 0 || patternKinds(text).size > 0;
}
function shownSource(source, forms) {
  if (!holdsSecret(source, forms)) return source;
  const shown = source.split("/").map((part) => holdsSecret(part, forms) ? "[name withheld]" : part).join("/");
  return holdsSecret(shown, forms) ? "[name withheld]" : shown;
}
function showSource(source, known) {
  return shownSource(source, heldForms(known));
}
function lineAt(text, offset) {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
  }
  return line;
}
function scanForSecrets(items, known, options = {}) {
  const forms = heldForms(known);
  const findings = [];
  for (const item of items) {
    const first = item.line ?? 1;
    const source = shownSource(item.source, forms);
    const found = /* @__PURE__ */ new Map();
    const add = (finding) => {
      const key = `${finding.line}\0${finding.kind}`;
      if (!found.has(key)) found.set(key, finding);
    };
    for (const hit of findForms(item.text, forms)) {
      const line = first - 1 + lineAt(item.text, hit.offset);
      const last = first - 1 + lineAt(item.text, hit.last);
      add(last > line ? { source, line, kind: hit.kind, last } : { source, line, kind: hit.kind });
    }
    if (options.patterns !== false) {
      item.text.split("\n").forEach((text, index) => {
        for (const kind of patternKinds(text)) add({ source, line: first + index, kind });
      });
    }
    findings.push(...[...found.values()].sort((a, b) => a.line - b.line));
  }
  return findings;
}
function scanNames(paths, known) {
  return scanForSecrets(
    paths.map((path) => ({ source: path, text: path })),
    known
  ).map((finding) => ({ ...finding, source: `the name ${finding.source}`, line: 0 }));
}
var SECRET_VARIABLES = [
  "GITHUB_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "OPENAI_API_KEY",
  "INPUT_API-KEY",
  "INPUT_GITHUB-TOKEN"
];
function knownSecrets(env, held) {
  const values = [
    held.apiKey,
    held.githubToken,
    held.notesKey,
    ...SECRET_VARIABLES.map((name) => env[name])
  ];
  return [
    ...new Set(values.filter((value) => (value?.length ?? 0) >= MIN_KNOWN_LENGTH))
  ];
}
function withholdSecrets(text, known) {
  const findings = scanForSecrets([{ source: "text", text }], known);
  if (findings.length === 0) return text;
  const lines = text.split("\n");
  for (const { line, last, kind } of findings) {
    for (let at = line; at <= (last ?? line); at++) {
      lines[at - 1] = `_(a line was withheld here: it holds what looks like a secret: ${kind})_`;
    }
  }
  return lines.join("\n");
}

export {
  KNOWN_KINDS,
  PATTERNS,
  MIN_KNOWN_LENGTH,
  looksRandom,
  showSource,
  scanForSecrets,
  scanNames,
  knownSecrets,
  withholdSecrets
};
