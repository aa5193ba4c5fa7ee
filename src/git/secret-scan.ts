/**
 * Finds secrets in what pitcrew is about to publish (added lines of the diff, whole files and
 * what they unpack to, path names, the commit message, the pull request text, comments) before
 * anything leaves the runner: the values the harness holds in every form secret-forms.ts decodes,
 * and token patterns line by line. It reports where and what kind, never the value (nor a name
 * that holds one). Deciding what to do about a finding is publish.ts's job.
 */
import { findForms, formsOf } from "./secret-forms.ts";
import type { Form } from "./secret-forms.ts";

export interface ScanItem {
  /** Where the text comes from, as a person reads it: a file path, "pull request body". */
  source: string;
  text: string;
  /** The line number of the text's first line (a diff hunk starts mid-file); 1 when absent. */
  line?: number;
}

export interface Finding {
  source: string;
  /** The line it starts on; 0 when it is in no line of a text (a file's name). */
  line: number;
  kind: string;
  /** The last line it spans, when that is another (a value split across lines). */
  last?: number;
}

export interface Pattern {
  kind: string;
  regex: RegExp;
  /** Real keys are random: placeholders like `ghp_xxxx…` or kebab-case names are not. */
  random?: boolean;
  /** Documented example values that are no secret. */
  example?: RegExp;
}

export const PATTERNS: readonly Pattern[] = [
  {
    kind: "GitHub token",
    regex: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    random: true,
  },
  {
    kind: "GitHub fine-grained token",
    regex: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,}/g,
    random: true,
  },
  {
    kind: "Anthropic API key",
    regex: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{32,}/g,
    random: true,
  },
  {
    kind: "OpenAI API key",
    regex: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{32,}/g,
    random: true,
  },
  {
    kind: "AWS access key id",
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    example: /EXAMPLE$/,
  },
  { kind: "Slack token", regex: /(?<![A-Za-z0-9])xox[abprs]-\d{6,}-[A-Za-z0-9-]{10,}/g },
  { kind: "Google API key", regex: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: "private key", regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g },
];

/** Shorter values would match ordinary text; the harness's own secrets are all far longer. */
export const MIN_KNOWN_LENGTH = 8;

export function looksRandom(value: string): boolean {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
}

/** The forms of every held value long enough to look for. */
function heldForms(known: readonly string[]): Form[] {
  return known.filter((value) => value.length >= MIN_KNOWN_LENGTH).flatMap(formsOf);
}

function patternKinds(line: string): Set<string> {
  const kinds = new Set<string>();
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

function holdsSecret(text: string, forms: readonly Form[]): boolean {
  return findForms(text, forms).length > 0 || patternKinds(text).size > 0;
}

/**
 * A source as it may be shown: a path whose name holds a secret (the agent can name a file after
 * one) has each such folder or file name withheld, so a finding never repeats the value.
 */
function shownSource(source: string, forms: readonly Form[]): string {
  if (!holdsSecret(source, forms)) return source;
  const shown = source
    .split("/")
    .map((part) => (holdsSecret(part, forms) ? "[name withheld]" : part))
    .join("/");
  return holdsSecret(shown, forms) ? "[name withheld]" : shown;
}

/** `source` as a finding may show it (shownSource), for findings made elsewhere. */
export function showSource(source: string, known: readonly string[]): string {
  return shownSource(source, heldForms(known));
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
  }
  return line;
}

/**
 * Every place in the items that holds a known secret in any form secret-forms.ts decodes (the
 * whole item is searched, so a value split across its lines is found where it starts), and every
 * line that looks like a token (unless `patterns: false`). One finding per line and kind, in line
 * order.
 */
export function scanForSecrets(
  items: readonly ScanItem[],
  known: readonly string[],
  options: { patterns?: boolean } = {},
): Finding[] {
  const forms = heldForms(known);
  const findings: Finding[] = [];
  for (const item of items) {
    const first = item.line ?? 1;
    const source = shownSource(item.source, forms);
    const found = new Map<string, Finding>();
    const add = (finding: Finding): void => {
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

/**
 * The names of paths about to be pushed (added or renamed files, with their folders): a name can
 * carry a secret as well as a file's contents. Such a finding has line 0 and never shows the name.
 */
export function scanNames(paths: readonly string[], known: readonly string[]): Finding[] {
  return scanForSecrets(
    paths.map((path) => ({ source: path, text: path })),
    known,
  ).map((finding) => ({ ...finding, source: `the name ${finding.source}`, line: 0 }));
}

/** The environment variables that hold secrets in a GitHub Actions job. */
const SECRET_VARIABLES = [
  "GITHUB_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "OPENAI_API_KEY",
  "INPUT_API-KEY",
  "INPUT_GITHUB-TOKEN",
];

/** The secret inputs the harness is given; config and raw inputs both have this shape. */
export interface HeldSecrets {
  apiKey?: string;
  githubToken?: string;
  notesKey?: string;
}

/**
 * The secret values the harness knows: its secret inputs and the job's own. Every caller (the
 * push, the posted text, the notes) passes the same inputs, so none can forget one.
 */
export function knownSecrets(
  env: Readonly<Record<string, string | undefined>>,
  held: HeldSecrets,
): string[] {
  const values = [
    held.apiKey,
    held.githubToken,
    held.notesKey,
    ...SECRET_VARIABLES.map((name) => env[name]),
  ];
  return [
    ...new Set(values.filter((value): value is string => (value?.length ?? 0) >= MIN_KNOWN_LENGTH)),
  ];
}

/**
 * Text about to be posted, with every line that holds a known secret or a token pattern replaced
 * by a notice naming the kind: comments are never blocked (people must hear how the run went),
 * but nothing secret-looking reaches them.
 */
export function withholdSecrets(text: string, known: readonly string[]): string {
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
