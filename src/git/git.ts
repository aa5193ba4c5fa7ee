/**
 * Host-side git, run by the harness (never by the agent). Hardened because the agent could have
 * left anything in the worktree: no hooks, no fsmonitor, no system config, no prompts, no LFS
 * downloads, and none of the caller's GIT_* variables steering it elsewhere.
 */
import { Buffer } from "node:buffer";
import { execa } from "execa";
import { PitcrewError } from "../errors.ts";

const HARDENING = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.pager=cat",
];

function hostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_LFS_SKIP_SMUDGE: "1",
  };
}

export interface GitOptions {
  /** Extra environment for this one command (e.g. a token passed to a single push). */
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (e.g. `diff --quiet` → 1). */
  okCodes?: number[];
}

export interface GitResult {
  stdout: string;
  exitCode: number;
}

/** Runs `git -C dir <hardening> args…`; a failure is a named error quoting git's own message. */
export async function git(
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const result = await execa("git", ["-C", dir, ...HARDENING, ...args], {
    env: { ...hostEnv(), ...options.env },
    extendEnv: false,
    reject: false,
    stripFinalNewline: true,
  });
  const exitCode = result.exitCode ?? 1;
  if (exitCode !== 0 && !(options.okCodes ?? []).includes(exitCode)) {
    const message = (result.stderr || result.stdout || result.message || "no output").trim();
    throw new PitcrewError("git-failed", `git ${args.join(" ")} failed: ${message}`);
  }
  return { stdout: result.stdout, exitCode };
}

/**
 * Environment for one git command that talks to `remoteUrl` with `token` (GitHub's Basic scheme,
 * as actions/checkout uses it): never written to `.git/config`, never in argv (visible in /proc).
 * http.extraheader entries are chosen by the most specific matching URL, so the reset and the
 * header are keyed by the exact remote URL: that outranks the `http.https://github.com/` header
 * actions/checkout persists, which a plain `http.extraheader` reset would not clear.
 */
export function tokenEnv(remoteUrl: string, token: string): Record<string, string> {
  const key = `http.${remoteUrl}.extraheader`;
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  const entries: [string, string][] = [
    [key, ""],
    [key, `AUTHORIZATION: basic ${basic}`],
    // Nothing asks a helper for a password, and nothing is stored by one.
    ["credential.helper", ""],
  ];
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([name, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = name;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** The token environment for a command that fetches from (or pushes to) origin. */
export async function originEnv(
  workspace: string,
  token: string | undefined,
  direction: "fetch" | "push",
): Promise<Record<string, string>> {
  if (token === undefined) return {};
  const push = direction === "push" ? ["--push"] : [];
  const url = (await git(workspace, ["remote", "get-url", ...push, "origin"])).stdout;
  return tokenEnv(url, token);
}

/** git() for output that is bytes (blob contents), with `input` on stdin. */
export async function gitBytes(
  dir: string,
  args: readonly string[],
  input: string,
): Promise<Buffer> {
  const result = await execa("git", ["-C", dir, ...HARDENING, ...args], {
    env: hostEnv(),
    extendEnv: false,
    reject: false,
    input,
    encoding: "buffer",
    maxBuffer: Infinity,
  });
  if (result.exitCode !== 0) {
    const message = Buffer.from(result.stderr).toString("utf8").trim() || result.message;
    throw new PitcrewError("git-failed", `git ${args.join(" ")} failed: ${message}`);
  }
  return Buffer.from(result.stdout);
}
