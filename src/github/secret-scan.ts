/**
 * Finds secrets in what pitcrew is about to publish (added lines of the diff, the pull request
 * body, comments) before anything leaves the runner. It reports where and what kind, never the
 * value. Deciding what to do about a finding is publish.ts's job.
 */
import { Buffer } from "node:buffer";

export interface ScanItem {
  /** Where the text comes from, as a person reads it: a file path, "pull request body". */
  source: string;
  text: string;
  /** The line number of the text's first line (a diff hunk starts mid-file); 1 when absent. */
  line?: number;
}

export interface Finding {
  source: string;
  line: number;
  kind: string;
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

const KNOWN = "a secret pitcrew holds";
const KNOWN_BASE64 = "a secret pitcrew holds, base64-encoded";
/** Shorter values would match ordinary text; the harness's own secrets are all far longer. */
export const MIN_KNOWN_LENGTH = 8;

export function looksRandom(value: string): boolean {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
}

function base64(value: string): string {
  return Buffer.from(value).toString("base64").replace(/=+$/, "");
}

interface Needle {
  value: string;
  kind: string;
}

function needles(known: readonly string[]): Needle[] {
  return known
    .filter((value) => value.length >= MIN_KNOWN_LENGTH)
    .flatMap((value) => [
      { value, kind: KNOWN },
      { value: base64(value), kind: KNOWN_BASE64 },
      // The form actions/checkout persists (and a Basic Authorization header carries).
      { value: base64(`x-access-token:${value}`), kind: KNOWN_BASE64 },
    ]);
}

function kindsIn(line: string, known: readonly Needle[]): Set<string> {
  const kinds = new Set<string>();
  for (const needle of known) if (line.includes(needle.value)) kinds.add(needle.kind);
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

/** Every line of every item that holds a known secret (or its base64) or looks like a token. */
export function scanForSecrets(items: readonly ScanItem[], known: readonly string[]): Finding[] {
  const held = needles(known);
  const findings: Finding[] = [];
  for (const item of items) {
    const first = item.line ?? 1;
    item.text.split("\n").forEach((text, index) => {
      for (const kind of kindsIn(text, held)) {
        findings.push({ source: item.source, line: first + index, kind });
      }
    });
  }
  return findings;
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

/** The secret values the harness knows: `extra` (API key, GitHub token) and the job's own. */
export function knownSecrets(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly (string | undefined)[],
): string[] {
  const values = [...extra, ...SECRET_VARIABLES.map((name) => env[name])];
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
  for (const { line, kind } of findings) {
    lines[line - 1] = `_(a line was withheld here: it holds what looks like a secret: ${kind})_`;
  }
  return lines.join("\n");
}
