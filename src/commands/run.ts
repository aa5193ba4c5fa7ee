/**
 * `pitcrew run`: the main job on a local checkout. The agent works in a separate worktree on a new
 * branch, every command in the sandbox; at the end whatever it changed is committed on that branch
 * (also when a limit stopped it early: nothing paid for is thrown away), and the person's own
 * checkout is never touched.
 */
import { parseArgs } from "node:util";
import { PitcrewError, describeError } from "../errors.ts";
import type { StopReason } from "../agent/loop.ts";
import { formatTotals, stopWords } from "../agent/describe.ts";
import { createModelClient } from "../agent/model.ts";
import { SYSTEM_PROMPT, localTaskPrompt } from "../agent/prompt.ts";
import { runSession } from "../agent/session.ts";
import { DEFAULTS } from "../config/config.ts";
import { readRepositorySetup } from "../config/repository.ts";
import { addRunWorktree, commitAll, removeRunWorktree } from "../github/worktree.ts";
import type { RunWorktree } from "../github/worktree.ts";
import { DEFAULT_SETTINGS, sandboxChoice } from "../sandbox/policy.ts";
import { STDERR_LOG } from "./log.ts";
import { progressPrinter } from "./progress.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_STOPPED_EARLY = 3;
export const EXIT_CANCELLED = 130;

interface RunArgs {
  repo: string;
  model: string;
  baseUrl: string | undefined;
  maxTurns: number;
  sandbox: "auto" | "bwrap" | "seatbelt" | "none";
  task: string;
  apiKey: string;
}

function parse(args: string[], env: NodeJS.ProcessEnv): RunArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      repo: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "max-turns": { type: "string" },
      sandbox: { type: "string", default: "auto" },
    },
  });
  const task = positionals.join(" ").trim();
  if (task === "") {
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
    apiKey,
  };
}

export function exitCodeFor(reason: StopReason): number {
  if (reason === "done") return 0;
  if (reason === "cancelled") return EXIT_CANCELLED;
  if (reason === "model_error") return EXIT_FAILED;
  return EXIT_STOPPED_EARLY;
}

export async function runCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: RunArgs;
  try {
    parsed = parse(args, env);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_USAGE;
  }
  const log = STDERR_LOG;

  let worktree: RunWorktree;
  try {
    worktree = await addRunWorktree(parsed.repo);
  } catch (error) {
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }

  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    log.info("cancelling: the work so far will be committed (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  const progress = progressPrinter(process.stderr);
  let keepBranch = false;
  try {
    log.info(
      `working in ${worktree.path} on branch ${worktree.branch} (your checkout is not touched)`,
    );
    const { instructions, config } = await readRepositorySetup(worktree.repo, worktree.base);
    const model = createModelClient({
      apiKey: parsed.apiKey,
      model: parsed.model,
      baseUrl: parsed.baseUrl,
    });
    const result = await runSession({
      workspace: worktree.path,
      sandbox: { ...DEFAULT_SETTINGS, backend: parsed.sandbox },
      model,
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        {
          role: "user",
          content: localTaskPrompt({
            task: parsed.task,
            repositoryInstructions: instructions,
          }),
        },
      ],
      limits: { maxTurns: parsed.maxTurns },
      deny: config.permissions.deny,
      promptCacheKey: `pitcrew-run-${worktree.branch}`,
      env,
      signal: controller.signal,
      onEvent: progress.onEvent,
      log,
    });
    progress.stop();

    const title = parsed.task.split("\n")[0]?.slice(0, 72) ?? "pitcrew run";
    const commit = await commitAll(worktree, `${title}\n\n${result.summary}`.trim());
    keepBranch = commit.committed;
    const out: string[] = [];
    if (result.summary) out.push(result.summary, "");
    out.push(`${stopWords(result.stopReason)}.`);
    if (result.error) out.push(describeError(result.error));
    if (commit.committed) {
      out.push(`branch: ${worktree.branch} (commit ${commit.sha?.slice(0, 12)})`, commit.diffstat);
      out.push(`Continue from here: git switch ${worktree.branch}`);
    } else {
      out.push("No changes: the agent left the repository as it was, so no branch was kept.");
    }
    out.push(formatTotals(result));
    process.stdout.write(`${out.join("\n")}\n`);
    return exitCodeFor(result.stopReason);
  } catch (error) {
    progress.stop();
    process.stderr.write(`pitcrew run: ${describeError(error)}\n`);
    const commit = await commitAll(
      worktree,
      `pitcrew run (interrupted): ${parsed.task.slice(0, 60)}`,
    ).catch(() => null);
    if (commit?.committed) {
      keepBranch = true;
      process.stderr.write(
        `pitcrew run: the changes made so far are kept on branch ${worktree.branch}\n`,
      );
    }
    return EXIT_FAILED;
  } finally {
    process.off("SIGINT", onSigint);
    await removeRunWorktree(worktree, keepBranch);
  }
}
