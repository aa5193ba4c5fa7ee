/**
 * `pitcrew run`'s command line: the task, the repository, the model and its server, the turn
 * limit, the sandbox, whether to start from uncommitted changes, and JSON events for scripts; the
 * API key from the environment. Bad input is a named usage error (present/usage.ts's words).
 */
import { statSync } from "node:fs";
import { PitcrewError } from "../errors.ts";
import { DEFAULTS } from "../config/config.ts";
import type { LocalTask } from "../run/ends/local-request.ts";
import { sandboxChoice } from "../sandbox/policy.ts";
import { RUN_WORDS } from "../present/usage.ts";
import { BAD_OPTION, countOption, parseOptions, stringOption } from "./args.ts";
import type { OptionSpec } from "./args.ts";

export interface RunArgs extends LocalTask {
  repo: string;
  /** Start from the checkout's uncommitted changes too, committed on the run's branch first. */
  includeUncommitted: boolean;
  /** One JSON event per line on stdout instead of the text account. */
  json: boolean;
}

const OPTIONS: Record<string, OptionSpec> = {
  repo: { type: "string", example: "." },
  model: { type: "string", example: "gpt-4.1" },
  "base-url": { type: "string", example: "http://localhost:11434/v1" },
  "max-turns": { type: "string", example: "50" },
  "context-window": { type: "string", example: "128000" },
  sandbox: { type: "string", example: "auto" },
  continue: { type: "boolean" },
  "include-uncommitted": { type: "boolean" },
  json: { type: "boolean" },
};

/** `help`: `--help` was asked for, and nothing else is checked. */
export function parseRunArgs(
  args: string[],
  env: NodeJS.ProcessEnv,
): { help: true } | { help: false; args: RunArgs } {
  const parsed = parseOptions(args, OPTIONS);
  if (parsed.help) return { help: true };
  const flag = (name: string): boolean => parsed.values.get(name) === true;
  const task = parsed.positionals.join(" ").trim();
  const continuing = flag("continue");
  if (task === "" && !continuing) throw new PitcrewError("cli-no-task", RUN_WORDS.noTask);
  if (continuing && flag("include-uncommitted")) {
    throw new PitcrewError(BAD_OPTION, RUN_WORDS.includeWithContinue);
  }
  const maxTurns = countOption(parsed, "max-turns", "of turns", DEFAULTS.maxTurns);
  const contextWindow = countOption(parsed, "context-window", "of tokens", DEFAULTS.contextWindow);
  const sandbox = sandboxChoice(stringOption(parsed, "sandbox") ?? "auto", BAD_OPTION, "--sandbox");
  // What was typed is checked before what the environment lacks: a missing folder is named first.
  const repo = stringOption(parsed, "repo") ?? process.cwd();
  checkRepoFolder(repo);
  const apiKey = env.OPENAI_API_KEY ?? "";
  if (apiKey.trim() === "") throw new PitcrewError("cli-no-api-key", RUN_WORDS.noApiKey);
  return {
    help: false,
    args: {
      repo,
      model: stringOption(parsed, "model") ?? env.PITCREW_MODEL ?? DEFAULTS.model,
      baseUrl: stringOption(parsed, "base-url") ?? env.OPENAI_BASE_URL,
      maxTurns,
      contextWindow,
      sandbox,
      task,
      continue: continuing,
      apiKey,
      includeUncommitted: flag("include-uncommitted"),
      json: flag("json"),
    },
  };
}

/** `--repo` names a folder that is there: a usage error otherwise, before git is asked. */
function checkRepoFolder(repo: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(repo).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new PitcrewError("run-no-such-folder", RUN_WORDS.noSuchRepo(repo));
  }
  if (!isFolder) throw new PitcrewError("run-not-a-folder", RUN_WORDS.repoNotAFolder(repo));
}
