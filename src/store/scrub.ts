/**
 * Takes secrets out of a thread's notes before they are uploaded: a notes artifact is readable by
 * everyone who can read the repository. Every secret the harness holds (as is, base64-encoded, and
 * as JSON writes it inside a string) and every token pattern of the secret scan is replaced in
 * place by `[withheld: <kind>]`, in one pass over each file; in JSON text a replacement never cuts
 * an escape sequence, so state.json and every transcript line stay valid JSON. Pure.
 */
import { Buffer } from "node:buffer";
import { MIN_KNOWN_LENGTH, PATTERNS, looksRandom } from "../git/secret-scan.ts";
import type { Pattern } from "../git/secret-scan.ts";
import { KNOWN_KINDS } from "../git/secret-forms.ts";
import type { Notes } from "../domain/notes.ts";

export type TextFormat = "text" | "json";

export interface Scrubbed {
  text: string;
  /** How many values were replaced. */
  withheld: number;
}

export interface Scrubber {
  scrub(text: string, format: TextFormat): Scrubbed;
}

// The push scan's names for a held value's forms, so a person reads one wording everywhere.
const KNOWN = KNOWN_KINDS.plain;
const KNOWN_BASE64 = KNOWN_KINDS.base64;

export function withheldMarker(kind: string): string {
  return `[withheld: ${kind}]`;
}

function base64(value: string): string {
  return Buffer.from(value).toString("base64").replace(/=+$/, "");
}

/** The value as it appears inside a JSON string, and inside a JSON string inside one. */
function jsonForms(value: string): string[] {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [once, twice];
}

/** Whether JSON escapes part of the value: then it is only ever found escaped in JSON text. */
function needsEscape(value: string): boolean {
  return JSON.stringify(value) !== `"${value}"`;
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A pattern's regex as a part of one alternation, its case and line flags kept inline. */
function inline(pattern: Pattern): string {
  const flags = pattern.regex.flags.replace(/[^ims]/g, "");
  return flags === "" ? `(?:${pattern.regex.source})` : `(?${flags}:${pattern.regex.source})`;
}

/**
 * The one regex of a format: the known values, longest first (so a value wins over a shorter one
 * inside it), then the patterns. Which alternative matched is told from the match afterwards.
 */
function compile(needles: ReadonlyMap<string, string>): RegExp {
  const literals = [...needles.keys()].sort((a, b) => b.length - a.length).map(escapeRegex);
  return new RegExp([...literals, ...PATTERNS.map(inline)].join("|"), `g${UNICODE}`);
}

/** A pattern written for unicode mode (`\p{…}`) makes the whole alternation unicode. */
const UNICODE = PATTERNS.some((pattern) => pattern.regex.unicode) ? "u" : "";

/** Each pattern anchored to a whole match, to tell which one matched. */
const WHOLE = PATTERNS.map((pattern) => ({
  pattern,
  whole: new RegExp(`^${inline(pattern)}$`, UNICODE),
}));

function patternKind(value: string): string | undefined {
  for (const { pattern, whole } of WHOLE) {
    if (!whole.test(value)) continue;
    if (pattern.random === true && !looksRandom(value)) continue;
    if (pattern.example?.test(value) === true) continue;
    return pattern.kind;
  }
  return undefined;
}

function backslashesBefore(text: string, at: number): number {
  let count = 0;
  while (at - count - 1 >= 0 && text[at - count - 1] === "\\") count++;
  return count;
}

const HEX = /^[0-9a-fA-F]*$/;

/**
 * The match widened to whole JSON escape sequences: a start inside `\n` or `\u00e9` moves back to
 * its backslash, an end inside one moves past it. Both only on a (rare) false match at an escape.
 */
function widen(text: string, start: number, end: number): [number, number] {
  let from = start;
  if (backslashesBefore(text, from) % 2 === 1) from -= 1;
  else {
    for (let back = 2; back <= 5; back++) {
      const at = from - back;
      if (at < 0) break;
      if (
        text[at] === "\\" &&
        text[at + 1] === "u" &&
        backslashesBefore(text, at) % 2 === 0 &&
        HEX.test(text.slice(at + 2, from))
      ) {
        from = at;
        break;
      }
    }
  }
  let to = end;
  for (let i = from; i < to; i++) {
    if (text[i] !== "\\") continue;
    const length = text[i + 1] === "u" ? 6 : 2;
    to = Math.max(to, i + length);
    i += length - 1;
  }
  return [from, Math.min(to, text.length)];
}

/** A scrubber for the secrets the harness knows (`knownSecrets`) and the scan's patterns. */
export function createScrubber(known: readonly string[]): Scrubber {
  const values = known.filter((value) => value.length >= MIN_KNOWN_LENGTH);
  const needlesOf = (format: TextFormat): Map<string, string> => {
    const needles = new Map<string, string>();
    for (const value of values) {
      const forms = [base64(value), base64(`x-access-token:${value}`)];
      for (const form of forms) needles.set(form, KNOWN_BASE64);
      if (format === "text" || !needsEscape(value)) needles.set(value, KNOWN);
      if (format === "json") for (const form of jsonForms(value)) needles.set(form, KNOWN);
    }
    return needles;
  };
  const compiled = new Map<TextFormat, { regex: RegExp; needles: Map<string, string> }>();
  const of = (format: TextFormat) => {
    let found = compiled.get(format);
    if (found === undefined) {
      const needles = needlesOf(format);
      found = { regex: compile(needles), needles };
      compiled.set(format, found);
    }
    return found;
  };

  return {
    scrub(text, format) {
      const { regex, needles } = of(format);
      const parts: string[] = [];
      let last = 0;
      let withheld = 0;
      for (const match of text.matchAll(regex)) {
        const kind = needles.get(match[0]) ?? patternKind(match[0]);
        if (kind === undefined) continue;
        const [from, end] =
          format === "json"
            ? widen(text, match.index, match.index + match[0].length)
            : [match.index, match.index + match[0].length];
        const start = Math.max(from, last);
        if (end <= start) continue;
        parts.push(text.slice(last, start), withheldMarker(kind));
        last = end;
        withheld++;
      }
      if (withheld === 0) return { text, withheld };
      parts.push(text.slice(last));
      return { text: parts.join(""), withheld };
    },
  };
}

/** The notes with every secret withheld: the note as text, the state and transcript as JSON. */
export function scrubNotes(
  notes: Notes,
  known: readonly string[],
): { notes: Notes; withheld: number } {
  const scrubber = createScrubber(known);
  const note = scrubber.scrub(notes.note, "text");
  const state = scrubber.scrub(JSON.stringify(notes.state), "json");
  const transcript = scrubber.scrub(notes.transcript, "json");
  return {
    notes: {
      note: note.text,
      state: state.withheld === 0 ? notes.state : (JSON.parse(state.text) as Notes["state"]),
      transcript: transcript.text,
    },
    withheld: note.withheld + state.withheld + transcript.withheld,
  };
}
