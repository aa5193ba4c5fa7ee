/**
 * Shell words as bash sees them after quote removal: the parser's nodes for one word become a
 * `Word` with its literal value (`~` and `$HOME` expanded), its literal start and whether it names
 * one exact path. It decides nothing; any other expansion is simply unknown here.
 */
import type { ShellNode } from "./parse.ts";

/**
 * One shell word after the parser: `value` is the word after quote removal (with `~` and
 * `$HOME` expanded) or null when it holds another expansion; `known` is its literal start, up
 * to the first expansion or unquoted glob character; `exact` says the whole word is literal and
 * names one path.
 */
export interface Word {
  text: string;
  value: string | null;
  known: string;
  exact: boolean;
  /** Starts with an expansion whose value is unknown. */
  opaque: boolean;
  segments: readonly Segment[];
}

/** A piece of a word: literal text (a quoted one holds no glob) or an unknown expansion. */
type Segment = { literal: true; text: string; quoted: boolean } | { literal: false };

const UNKNOWN: Segment = { literal: false };

/** The words `parts` make, adjacent parts (no space between) joined into one. */
export function wordsOf(parts: readonly ShellNode[], home: string): Word[] {
  return groupWords(parts).map((group) => wordOf(group, home));
}

/** Adjacent parts (no space between) are one shell word: `"r"m`, `$"x"`. */
function groupWords(parts: readonly ShellNode[]): ShellNode[][] {
  const groups: ShellNode[][] = [];
  let previous: ShellNode | undefined;
  for (const part of parts) {
    const last = groups.at(-1);
    if (last && previous && previous.end === part.start) last.push(part);
    else groups.push([part]);
    previous = part;
  }
  return groups;
}

/** One word from its parts, with `~` at its start and `$HOME` anywhere expanded to `home`. */
export function wordOf(parts: readonly ShellNode[], home: string): Word {
  const segments: Segment[] = [];
  parts.forEach((part, index) => {
    const next = parts[index + 1];
    // `$"…"` (a translated string) comes as a `$` token before the string.
    if (!part.named && part.text === "$" && next?.type === "string") return;
    addSegments(part, home, segments);
  });
  // Tilde expansion: `~` or `~/…` at the start of an unquoted word.
  const first = segments[0];
  if (first?.literal && !first.quoted && first.text.startsWith("~")) {
    if (first.text === "~" || first.text.startsWith("~/")) {
      segments.splice(0, 1, { literal: true, text: home, quoted: true });
      if (first.text.length > 1) {
        segments.splice(1, 0, { literal: true, text: first.text.slice(1), quoted: false });
      }
    } else {
      segments.splice(0, 1, UNKNOWN);
    }
  }
  return wordFrom(segments, parts.map((part) => part.text).join(""));
}

/** `{a,b}` or `{1..3}` outside quotes: bash expands it to several words. */
const BRACES = /\{[^{}]*(,|\.\.)[^{}]*\}/;

function wordFrom(segments: readonly Segment[], text: string): Word {
  // Quoted characters and expansions cannot open, close or split braces: stand-ins for them.
  const shape = segments
    .map((segment) =>
      !segment.literal ? "x" : segment.quoted ? "x".repeat(segment.text.length) : segment.text,
    )
    .join("");
  const braces = BRACES.exec(shape);
  let value: string | null = "";
  let known = "";
  let open = true;
  let exact = true;
  for (const segment of segments) {
    if (!segment.literal) {
      value = null;
      open = false;
      exact = false;
      continue;
    }
    if (value !== null) value += segment.text;
    if (!open) continue;
    const glob = segment.quoted ? -1 : segment.text.search(braces ? /[*?[{]/ : /[*?[]/);
    if (glob >= 0) {
      known += segment.text.slice(0, glob);
      open = false;
      exact = false;
    } else {
      known += segment.text;
    }
  }
  if (braces) {
    // Several words, each only known after the expansion.
    value = null;
    exact = false;
  }
  return {
    text,
    value,
    known,
    exact,
    opaque: segments[0]?.literal === false || braces?.index === 0,
    segments,
  };
}

function addSegments(node: ShellNode, home: string, into: Segment[]): void {
  switch (node.type) {
    case "word":
    case "number":
    case "test_operator":
    case "extglob_pattern":
    case "regex":
      into.push(...unquoted(node.text));
      return;
    case "raw_string":
      into.push({ literal: true, text: node.text.slice(1, -1), quoted: true });
      return;
    case "ansi_c_string":
      into.push({ literal: true, text: ansiC(node.text.slice(2, -1)), quoted: true });
      return;
    case "string":
    case "translated_string": {
      // The literal text is what lies between the expansions inside the quotes.
      const open = node.text.indexOf('"') + 1;
      let at = node.start + open;
      const close = node.end - 1;
      const source = (from: number, to: number): string =>
        node.text.slice(from - node.start, to - node.start);
      for (const child of node.children) {
        if (!child.named || child.type === "string_content") continue;
        if (child.start > at) into.push(doubleQuoted(source(at, child.start)));
        into.push(expansion(child, home));
        at = child.end;
      }
      if (close > at) into.push(doubleQuoted(source(at, close)));
      return;
    }
    case "concatenation":
      for (const child of node.children) addSegments(child, home, into);
      return;
    case "simple_expansion":
    case "expansion":
      into.push(expansion(node, home));
      return;
    default:
      if (!node.named) into.push({ literal: true, text: node.text, quoted: false });
      else into.push(UNKNOWN); // substitutions, arithmetic, brace expansion
  }
}

function expansion(node: ShellNode, home: string): Segment {
  if (node.text === "$HOME" || node.text === "${HOME}") {
    return { literal: true, text: home, quoted: true };
  }
  return UNKNOWN;
}

/** An unquoted word: `\x` is a quoted x, a backslash-newline disappears. */
function unquoted(text: string): Segment[] {
  if (!text.includes("\\")) return [{ literal: true, text, quoted: false }];
  const segments: Segment[] = [];
  let plain = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    if (char !== "\\") {
      plain += char;
      continue;
    }
    const escaped = text[++i] ?? "";
    if (escaped === "\n") continue;
    if (plain) segments.push({ literal: true, text: plain, quoted: false });
    plain = "";
    segments.push({ literal: true, text: escaped, quoted: true });
  }
  if (plain) segments.push({ literal: true, text: plain, quoted: false });
  return segments;
}

function doubleQuoted(text: string): Segment {
  const value = text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
  return { literal: true, text: value, quoted: true };
}

const C_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The body of `$'…'` with its escapes decoded. */
function ansiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, escape: string) => {
      const kind = escape[0] ?? "";
      if (kind === "x" || kind === "u" || kind === "U") {
        return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(escape, 8) & 0xff);
      if (kind === "c") return String.fromCharCode((escape.charCodeAt(1) || 0) & 0x1f);
      return C_ESCAPES[kind] ?? whole;
    },
  );
}

/** A literal word, as `find -exec {}` and git aliases make them. */
export function literalWord(value: string): Word {
  return wordFrom([{ literal: true, text: value, quoted: true }], value);
}

/** A word whose value is unknown, as `{}` of `find -exec` is when its root is not literal. */
export function unknownWord(text: string): Word {
  return wordFrom([UNKNOWN], text);
}

/** The part of `word` after its first `length` literal characters (`/x` of `of=/x`). */
export function tail(word: Word, length: number): Word {
  const segments: Segment[] = [];
  let skip = length;
  for (const segment of word.segments) {
    if (skip > 0 && segment.literal) {
      if (segment.text.length <= skip) {
        skip -= segment.text.length;
        continue;
      }
      segments.push({ ...segment, text: segment.text.slice(skip) });
      skip = 0;
      continue;
    }
    skip = 0;
    segments.push(segment);
  }
  return wordFrom(segments, word.text.slice(length));
}

/**
 * The pathname pattern an unquoted glob in `word` makes (`np?`, `/usr/bin/*m`), as a regular
 * expression over the whole word; null when the word is not literal or holds no unquoted glob.
 */
export function globPattern(word: Word): RegExp | null {
  if (word.value === null || word.exact) return null;
  // The parser splits `n[p]m` into several words: read the characters as one run.
  const chars: { char: string; quoted: boolean }[] = [];
  for (const segment of word.segments) {
    if (!segment.literal) return null;
    for (const char of segment.text) chars.push({ char, quoted: segment.quoted });
  }
  let source = "";
  for (let i = 0; i < chars.length; i++) {
    const { char, quoted } = chars[i] as { char: string; quoted: boolean };
    if (quoted) source += escapeRegExp(char);
    else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const close = chars.findIndex((entry, at) => at > i + 1 && entry.char === "]");
      if (close < 0) {
        source += "\\[";
        continue;
      }
      const body = chars
        .slice(i + 1, close)
        .map((entry) => entry.char)
        .join("")
        .replace(/^[!^]/, "^")
        .replace(/\\/g, "\\\\");
      source += `[${body}]`;
      i = close;
    } else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, "s");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
