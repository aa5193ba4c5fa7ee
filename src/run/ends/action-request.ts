/**
 * What the action was asked, and by whom: the authorisation on GitHub (who may ask), the thread
 * quoted in the prompt (the issue or PR and its conversation; none for a dispatch), the
 * requester's instruction when a thread is continued, and the session's settings from the inputs.
 */
import { describeError } from "../../errors.ts";
import { createModelClient } from "../../agent/model.ts";
import { cachedPriceRatio } from "../../agent/pricing.ts";
import { dispatchTaskPrompt, threadTaskPrompt } from "../../agent/prompt.ts";
import { fence } from "../../present/fence.ts";
import type { Config } from "../../config/config.ts";
import type { CommentInfo, IssueInfo, PullInfo } from "../../domain/conversation.ts";
import type { Task } from "../../domain/task.ts";
import { threadNumber } from "../../domain/task.ts";
import type { GitHubApi } from "../../github/api.ts";
import { DEFAULT_SETTINGS } from "../../sandbox/policy.ts";
import type { Authorization } from "../../triggers/authorize.ts";
import type { AdmissionPort, RequestPort, SessionSettings, Workspace } from "../ports.ts";

/** The issue (or PR) and its conversation, which the task prompt quotes. */
export interface QuotedThread {
  issue: IssueInfo;
  comments: CommentInfo[];
}

/** Who may ask: a refusal is logged, and the run ends there with `refused`. */
export function authorisation<O>(
  access: () => Promise<Authorization>,
  refused: (reason: string) => O,
  log: { warning(message: string): void },
): AdmissionPort<O> {
  return {
    admit: async () => {
      const granted = await access();
      if (granted.allowed) return undefined;
      log.warning(`refused (${granted.code}): ${granted.reply}`);
      return granted.reply;
    },
    refused,
  };
}

export function threadRequest<W extends Workspace>(options: {
  task: Task;
  config: Config;
  api: GitHubApi;
  thread: () => Promise<QuotedThread | undefined>;
  pull: () => Promise<PullInfo | undefined>;
  log: { info(message: string): void; warning(message: string): void };
  /** What the agent may not change (protectedPatterns: the repository's rules, the action's own files). */
  protectedPaths: readonly string[];
}): RequestPort<W> {
  const { task, config, api, thread, pull, log } = options;
  return {
    threadKey: task.threadKey,
    continuing:
      task.kind === "continue"
        ? {
            instruction:
              task.instruction.trim() === ""
                ? undefined
                : fence(
                    `The request from @${task.requester.login} (${task.requester.association || "no association"})`,
                    task.instruction,
                  ),
            repositoryInstructions: config.instructions,
          }
        : undefined,
    gather: () => Promise.all([thread(), react(task, api, log)]),
    brief: async () => {
      const quoted = await thread();
      const repositoryInstructions = config.instructions;
      return {
        prompt:
          quoted === undefined
            ? dispatchTaskPrompt({ task, repositoryInstructions })
            : threadTaskPrompt({ task, ...quoted, pull: await pull(), repositoryInstructions }),
        session: sessionSettings(config, task, options.protectedPaths, log),
      };
    },
  };
}

/** The issue (or PR) and its conversation, which the task prompt quotes; none for a dispatch. */
export async function threadOf(task: Task, api: GitHubApi): Promise<QuotedThread | undefined> {
  const number = threadNumber(task.thread);
  if (number === undefined) return undefined;
  const [issue, comments] = await Promise.all([api.issue(number), api.comments(number)]);
  return { issue, comments };
}

export function sessionSettings(
  config: Config,
  task: Task,
  protectedPaths: readonly string[],
  log: { info(message: string): void },
): SessionSettings {
  return {
    sandbox: {
      ...DEFAULT_SETTINGS,
      backend: config.sandbox,
      timeoutMs: config.commandTimeoutSeconds * 1000,
      limits: { ...DEFAULT_SETTINGS.limits, diskReserveBytes: config.diskReserveMiB * 1024 * 1024 },
      protectedPaths: [...protectedPaths],
    },
    model: createModelClient({
      apiKey: config.apiKey,
      model: config.model,
      baseUrl: config.baseUrl,
    }),
    limits: {
      maxTurns: config.maxTurns,
      timeBudgetMs: config.timeBudgetMinutes * 60_000,
      costBudget: config.costBudget,
      tokenBudget: config.tokenBudget,
    },
    window: { window: config.contextWindow, cachedPrice: cachedPriceRatio(config.model) },
    deny: config.deny,
    promptCacheKey: `pitcrew-${task.repository.owner}-${task.repository.repo}-${task.threadKey}`,
    onSandbox: ({ backend, probe }) =>
      log.info(`sandbox: ${backend}${probe ? ` (${probe.bwrapPath}, ${probe.version})` : ""}`),
  };
}

/** 👀 on the comment that asked: a failure is only a warning. */
async function react(task: Task, api: GitHubApi, log: { warning(message: string): void }) {
  if (task.comment === undefined) return;
  await api
    .react(task.comment.id, "eyes")
    .catch((error: unknown) => log.warning(`could not react: ${describeError(error)}`));
}
