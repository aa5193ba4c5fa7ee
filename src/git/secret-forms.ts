/**
 * Where a secret pitcrew holds hides in a text once it is encoded: the text is normalised into a
 * few views (line breaks, whitespace and invisible characters removed; ASCII case folded; only hex
 * digits kept; percent-escapes decoded) and each view is searched for the forms of the value that
 * survive it (the value, its base64 at each of the three byte offsets, its hex, its UTF-16, its
 * reverse). A hit is traced back to where it starts in the original text. Token patterns and
 * reporting are secret-scan.ts's; compressed data is unpacked by secret-unpack.ts.
 */
import { Buffer } from "node:buffer";

export const KNOWN = "a secret pitcrew holds";
/** The kinds a hit on a held value can have: the form it was found in. */
export const KNOWN_KINDS = {
  plain: KNOWN,
  split: `${KNOWN}, split or with invisible characters`,
  recased: `${KNOWN}, in another letter case`,
  reversed: `${KNOWN}, reversed`,
  base64: `${KNOWN}, base64-encoded`,
  hex: `${KNOWN}, hex-encoded`,
  percent: `${KNOWN}, percent-encoded`,
  utf16: `${KNOWN}, UTF-16-encoded`,
} as const;

/**
 * Below this length a value is matched in its own letter case only: folding a short value's case
 * would match ordinary words, a long random one never.
 */
const FOLD_MIN_LENGTH = 16;
/** Occurrences of one form traced back per text: enough to name the places, bounded work. */
const MAX_HITS_PER_FORM = 20;

/**
 * What the compact view drops: whitespace (line breaks included), a backslash line continuation,
 * and characters that render as nothing (zero-width, joiners, bidi controls, soft hyphen, BOM,
 * variation selectors, Hangul fillers). Each is listed on its own: none is meant to combine.
 */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- listed one by one, not combined
  /\\\r?\n|[\s\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]+/g;
const UPPER_ASCII = /[A-Z]+/g;
/** `0x41`, `\x41`, `41:42`, `%41`, `41 42`: only the hex digits are left. */
const NOT_HEX = /0x|[^0-9a-f]+/g;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/g;
/** Where two string literals meet once whitespace is gone: `"ab" + "cd"`, `'ab' 'cd'`, `"ab".."cd"`. */
const STRING_JOINT = /["'`](?:\+|\.\.?|&)?["'`]/g;

/** One normalised text and how to find where each of its characters came from. */
interface View {
  text: string;
  /**
   * The view it was made from (absent: the original text), and the replacement that made it
   * (absent: made character for character, every offset kept).
   */
  parent?: View;
  pattern?: RegExp;
  replace?: (token: string) => string;
}

function derive(parent: View, pattern: RegExp, replace: (token: string) => string): View {
  return { text: parent.text.replace(pattern, replace), parent, pattern, replace };
}

/** The offset in `view.parent` of the character at `index` of `view` (a replaced token's start). */
function parentOffset(view: View, index: number): number {
  const { parent, pattern, replace } = view;
  if (parent === undefined || pattern === undefined || replace === undefined) return index;
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

function originalOffset(view: View, index: number): number {
  let offset = index;
  for (let at: View | undefined = view; at?.parent !== undefined; at = at.parent) {
    offset = parentOffset(at, offset);
  }
  return offset;
}

const drop = (): string => "";
const lower = (token: string): string => token.toLowerCase();
const unescape = (token: string): string => String.fromCharCode(parseInt(token.slice(1), 16));

type ViewName = "compact" | "joined" | "folded" | "hex" | "percent";

/** The views of one text, each made only when a form needs it. */
class Views {
  readonly original: string;
  readonly #made = new Map<ViewName, View>();

  constructor(text: string) {
    this.original = text;
  }

  get(name: ViewName): View {
    let view = this.#made.get(name);
    if (view === undefined) {
      view = this.#make(name);
      this.#made.set(name, view);
    }
    return view;
  }

  #make(name: ViewName): View {
    switch (name) {
      case "compact":
        return derive({ text: this.original }, INVISIBLE, drop);
      case "joined":
        return derive(this.get("compact"), STRING_JOINT, drop);
      case "folded": {
        // toLowerCase is native and keeps every offset unless a rare letter changes length.
        const compact = this.get("compact");
        const lowered = compact.text.toLowerCase();
        return lowered.length === compact.text.length
          ? { text: lowered, parent: compact }
          : derive(compact, UPPER_ASCII, lower);
      }
      case "hex":
        return derive(this.get("folded"), NOT_HEX, drop);
      case "percent":
        return derive(this.get("compact"), PERCENT_ESCAPE, unescape);
    }
  }
}

/** A form a held value can take, searched for in one view. */
export interface Form {
  view: ViewName;
  needle: string;
  kind: string;
}

/** The base64 characters that depend on `bytes` alone when they sit `offset` bytes into a run. */
function base64At(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
  const first = Math.ceil((offset * 8) / 6);
  const last = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(first, last);
}

function reverse(value: string): string {
  return [...value].reverse().join("");
}

/**
 * Every form of one held value worth searching for. Hits on one original offset keep the first
 * form listed, so the value as it is comes before the views that would also see it.
 */
export function formsOf(value: string): Form[] {
  const compact = value.replace(INVISIBLE, "");
  const bytes = Buffer.from(value);
  const forms: Form[] = [
    { view: "compact", needle: compact, kind: KNOWN_KINDS.plain },
    { view: "joined", needle: compact, kind: KNOWN_KINDS.split },
  ];
  for (const offset of [0, 1, 2]) {
    const standard = base64At(bytes, offset);
    const urlSafe = standard.replaceAll("+", "-").replaceAll("/", "_");
    for (const needle of new Set([standard, urlSafe])) {
      forms.push({ view: "compact", needle, kind: KNOWN_KINDS.base64 });
    }
  }
  forms.push({ view: "percent", needle: compact, kind: KNOWN_KINDS.percent });
  forms.push({ view: "hex", needle: bytes.toString("hex"), kind: KNOWN_KINDS.hex });
  // UTF-16 of ASCII, read as UTF-8: each character followed (LE) or preceded (BE) by a NUL.
  if ([...compact].every((char) => char > "\0" && char <= "\x7f")) {
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

export interface KnownHit {
  /** Where the hit starts in the original text, and where its last character is. */
  offset: number;
  last: number;
  kind: string;
}

/**
 * Every place in `text` where one of `forms` occurs. A hit that overlaps one already found is the
 * same value seen through another view (`%67%68` is percent-encoded and hex), so forms listed
 * first win. A hit of the plain form that does not read as the value in the original text was
 * split.
 */
export function findForms(text: string, forms: readonly Form[]): KnownHit[] {
  const views = new Views(text);
  const hits: KnownHit[] = [];
  for (const form of forms) {
    if (form.view === "percent" && !text.includes("%")) continue;
    const view = views.get(form.view);
    let found = 0;
    for (
      let index = view.text.indexOf(form.needle);
      index !== -1 && found < MAX_HITS_PER_FORM;
      index = view.text.indexOf(form.needle, index + 1)
    ) {
      found++;
      const offset = originalOffset(view, index);
      const last = originalOffset(view, index + form.needle.length - 1);
      if (hits.some((hit) => offset <= hit.last && hit.offset <= last)) continue;
      const split =
        form.kind === KNOWN_KINDS.plain &&
        text.slice(offset, offset + form.needle.length) !== form.needle;
      hits.push({ offset, last, kind: split ? KNOWN_KINDS.split : form.kind });
    }
  }
  return hits;
}
