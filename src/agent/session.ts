/**
 * One agent session over a workspace: brings up the sandbox (failing closed) and the permission
 * rules, runs the loop with the tools, and takes the sandbox down again whatever happened. Shared
 * by `pitcrew run` and the action; neither git nor GitHub is touched here.
 */
import type { SandboxSettings } from "../sandbox/policy.ts";
import { createSandbox } from "../sandbox/sandbox.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { ContextSettings } from "../context/manager.ts";
import {
  changedSince,
  nestedRepositories,
  reminderMessage,
  workspaceSnapshot,
} from "../context/reminder.ts";
import type { Snapshot } from "../context/reminder.ts";
import { runLoop } from "./loop.ts";
import type { Limits, ModelPort } from "./loop.ts";
import type { LoopEvent, SessionResult } from "../domain/loop.ts";
import { relative, resolve } from "node:path";
import { callArguments } from "../domain/messages.ts";
import type { Message } from "../domain/messages.ts";
import { createPermissionChecker } from "./permissions.ts";
import { TOOLS, toolDefinitions } from "./tools/index.ts";
import type { Todo } from "../domain/todos.ts";

export interface SessionOptions {
  workspace: string;
  sandbox: SandboxSettings;
  model: ModelPort;
  messages: readonly Message[];
  limits: Limits;
  promptCacheKey: string;
  /** Command prefixes the repository's config denies (`npm publish`, `curl`, …). */
  deny?: string[];
  /** The harness's environment, from which the sandbox's is allowlisted. */
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  onEvent?: (event: LoopEvent) => void;
  log?: { info(message: string): void; warning(message: string): void };
  /** The model's context window and the context layers' thresholds. */
  window?: Partial<ContextSettings>;
  /** The loop's clock for the time budget (default Date.now; tests pass their own). */
  now?: () => number;
  /** Called once the sandbox is up (the CLI prints its backend; tests inspect it). */
  onSandbox?: (sandbox: Sandbox) => void;
}

export async function runSession(options: SessionOptions): Promise<SessionResult> {
  const sandbox = await createSandbox(options.sandbox, {
    workspace: options.workspace,
    env: options.env,
    log: options.log,
  });
  try {
    options.onSandbox?.(sandbox);
    const gate = await createPermissionChecker({
      workspace: sandbox.policy.workspace,
      deny: options.deny ?? [],
    });
    let todos: Todo[] = [];
    const reminder = lateInjection(sandbox, () => todos);
    const result = await runLoop({
      model: options.model,
      tools: TOOLS,
      definitions: toolDefinitions(),
      context: {
        sandbox,
        gate,
        workspace: sandbox.policy.workspace,
        todos: { get: () => todos, set: (next) => (todos = next) },
        signal: options.signal,
      },
      messages: options.messages,
      limits: options.limits,
      promptCacheKey: options.promptCacheKey,
      signal: options.signal,
      now: options.now,
      onEvent: (event) => {
        reminder.observe(event);
        options.onEvent?.(event);
      },
      reminder: reminder.next,
      window: options.window,
    });
    return { ...result, todos };
  } finally {
    sandbox.dispose();
  }
}

/**
 * The reminder of each request: git state read inside the sandbox and compared with the previous
 * turn's, leaving out the files the agent itself wrote or edited in between.
 */
function lateInjection(
  sandbox: Sandbox,
  todos: () => Todo[],
): { next: () => Promise<Message>; observe: (event: LoopEvent) => void } {
  let previous: Snapshot | null = null;
  const written = new Set<string>();
  return {
    observe(event) {
      if (event.type !== "tool_end" || event.outcome.isError) return;
      if (event.call.name !== "write" && event.call.name !== "edit") return;
      const path = callArguments(event.call)?.path;
      if (typeof path === "string") {
        written.add(relative(sandbox.policy.workspace, resolve(sandbox.policy.workspace, path)));
      }
    },
    async next() {
      const { branch, snapshot } = await workspaceSnapshot(sandbox);
      const changedFiles = previous === null ? [] : changedSince(previous, snapshot, written);
      previous = snapshot;
      written.clear();
      return reminderMessage({
        now: new Date(),
        branch,
        todos: todos(),
        changedFiles,
        nestedRepositories: nestedRepositories(snapshot),
      });
    },
  };
}
