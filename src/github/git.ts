/**
 * Host-side git, run by the harness (never by the agent). Hardened because the agent could have
 * left anything in the worktree: no hooks, no fsmonitor, no system config, no prompts, no LFS
 * downloads, and none of the caller's GIT_* variables steering it elsewhere.
 */
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
