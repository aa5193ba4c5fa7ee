/**
 * The sanitised copy of a repository's git config that the sandbox sees instead of the real one.
 * actions/checkout persists the job token there (`http.<url>.extraheader`, or an `includeIf` that
 * points at a credentials file in `$RUNNER_TEMP`); the copy keeps only what git needs to read the
 * repository. Parsing and filtering are pure; `writeSanitisedConfig` is the I/O edge.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { PitcrewError } from "../errors.ts";

export interface ConfigEntry {
  key: string;
  value: string | null;
}

/** Parses `git config --list --null` output: `key\nvalue\0` (or `key\0` for a bare boolean). */
export function parseConfigList(raw: string): ConfigEntry[] {
  return raw
    .split("\0")
    .filter((record) => record.length > 0)
    .map((record) => {
      const newline = record.indexOf("\n");
      return newline === -1
        ? { key: record, value: null }
        : { key: record.slice(0, newline), value: record.slice(newline + 1) };
    });
}

interface KeyParts {
  section: string;
  subsection: string | null;
  name: string;
}

function splitKey(key: string): KeyParts {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first === last)
    return { section: key.slice(0, first), subsection: null, name: key.slice(last + 1) };
  return {
    section: key.slice(0, first),
    subsection: key.slice(first + 1, last),
    name: key.slice(last + 1),
  };
}

/** Sections kept whole or per name; everything else (http, credential, include, url, …) is dropped. */
const KEEP: Record<string, (name: string) => boolean> = {
  core: (name) => !["fsmonitor", "hookspath", "sshcommand", "askpass", "gitproxy"].includes(name),
  extensions: () => true,
  remote: (name) =>
    ["url", "pushurl", "fetch", "tagopt", "prune", "promisor", "partialclonefilter"].includes(name),
  branch: (name) => ["remote", "merge", "rebase", "pushremote"].includes(name),
  submodule: (name) => ["url", "active", "branch", "path"].includes(name),
  user: (name) => ["name", "email"].includes(name),
  init: (name) => name === "defaultbranch",
  gc: () => true,
  pack: () => true,
  index: () => true,
  feature: () => true,
  pull: (name) => ["rebase", "ff"].includes(name),
};

/** `https://x-access-token:ghs_…@github.com/o/r` → `https://github.com/o/r`. */
export function stripUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

export function sanitiseEntries(entries: readonly ConfigEntry[]): ConfigEntry[] {
  return entries
    .filter(({ key }) => {
      const { section, name } = splitKey(key);
      return KEEP[section]?.(name) ?? false;
    })
    .map(({ key, value }) => {
      const { name } = splitKey(key);
      const isUrl = name === "url" || name === "pushurl";
      return { key, value: isUrl && value !== null ? stripUserinfo(value) : value };
    });
}

/** Subsection names allow only `\\` and `\"` escapes (git drops the backslash of any other). */
function quoteSubsection(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

function quote(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")
    .replace(/\t/g, "\\t");
}

/** Writes entries back in git's config syntax, grouped by section in first-seen order. */
export function formatConfig(entries: readonly ConfigEntry[]): string {
  const groups = new Map<string, string[]>();
  for (const { key, value } of entries) {
    const { section, subsection, name } = splitKey(key);
    const header =
      subsection === null ? `[${section}]` : `[${section} "${quoteSubsection(subsection)}"]`;
    const lines = groups.get(header) ?? [];
    lines.push(value === null ? `\t${name}` : `\t${name} = "${quote(value)}"`);
    groups.set(header, lines);
  }
  return [...groups].map(([header, lines]) => [header, ...lines].join("\n")).join("\n") + "\n";
}

/** Token shapes that must never appear in what the sandbox can read. */
const TOKEN_PATTERN =
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})|x-access-token|authorization:/i;

export function findToken(text: string): string | null {
  const match = TOKEN_PATTERN.exec(text);
  return match ? match[0] : null;
}

/**
 * Reads `source` with the host's git (no includes are followed for a `--file` read), writes the
 * sanitised copy to `target`, and refuses if a token shape survived the filter.
 */
export function writeSanitisedConfig(source: string, target: string): void {
  const raw = execFileSync("git", ["config", "--file", source, "--list", "--null"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" },
  });
  const text = formatConfig(sanitiseEntries(parseConfigList(raw)));
  const token = findToken(text);
  if (token !== null) {
    throw new PitcrewError(
      "sandbox-token-in-git-config",
      `${source} still holds a credential after sanitising; refusing to start. Use actions/checkout with persist-credentials: false.`,
    );
  }
  writeFileSync(target, text, { mode: 0o600 });
}
