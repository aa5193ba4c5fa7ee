/**
 * `pitcrew run`'s command line: the task, the repository, the model and its server, the turn
 * limit and the sandbox; the API key from the environment. Bad input is a named usage error.
 */
import { parseArgs } from "node:util";
import { PitcrewError } from "../errors.ts";
import { DEFAULTS } from "../config/config.ts";
import type { LocalTask } from "../run/ends/local-request.ts";
import { sandboxChoice } from "../sandbox/policy.ts";

export interface RunArgs extends LocalTask {
  repo: string;
}

export function parseRunArgs(args: string[], env: NodeJS.ProcessEnv): RunArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      repo: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "max-turns": { type: "string" },
      sandbox: { type: "string", default: "auto" },
      continue: { type: "boolean", default: false },
    },
  });
  const task = positionals.join(" ").trim();
  if (task === "" && !values.continue) {
    throw new PitcrewError(
      "cli-no-task",
      'Say what to do, for example: pitcrew run --repo . "make the failing test in test/parse.test.ts pass"',
    );
  }
  const maxTurns =
    values["max-turns"] === undefined ? DEFAULTS.maxTurns : Number(values["max-turns"]);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new PitcrewError(
      "cli-bad-option",
      `--max-turns takes a whole number above 0, not '${values["max-turns"]}'.`,
    );
  }
  const sandbox = sandboxChoice(values.sandbox, "cli-bad-option", "--sandbox");
  const apiKey = env.OPENAI_API_KEY ?? "";
  if (apiKey.trim() === "") {
    throw new PitcrewError(
      "cli-no-api-key",
      "No API key: set OPENAI_API_KEY (export OPENAI_API_KEY=sk-…). For another OpenAI-compatible server set its key there too and pass --base-url (or OPENAI_BASE_URL).",
    );
  }
  return {
    repo: values.repo ?? process.cwd(),
    model: values.model ?? env.PITCREW_MODEL ?? DEFAULTS.model,
    baseUrl: values["base-url"] ?? env.OPENAI_BASE_URL,
    maxTurns,
    sandbox,
    task,
    continue: values.continue,
    apiKey,
  };
}
