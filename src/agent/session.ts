/**
 * One agent session over a workspace: brings up the sandbox (failing closed) and the permission
 * rules, builds the context policy (the layers, the token ledger, and the reminder over facts
 * read from the workspace), runs the loop with the tools and that policy, and takes the sandbox
 * down again whatever happened. Shared by `pitcrew run` and the action; it commits nothing and
 * never talks to GitHub.
 */
import type { SandboxSettings } from "../sandbox/policy.ts";
import { createSandbox } from "../sandbox/sandbox.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { ContextSettings } from "../context/manager.ts";
import { layeredPolicy } from "../context/policy.ts";
import { estimateText } from "../context/tokens.ts";
import { runLoop } from "./loop.ts";
import type { Limits, ModelPort } from "./loop.ts";
import type { LoopEvent, SessionResult } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import { createPermissionChecker } from "./permissions.ts";
import { TOOLS, toolDefinitions } from "./tools/index.ts";
import type { AnyTool } from "./tools/tool.ts";
import type { VirtualFiles } from "../domain/memory.ts";
import type { Todo } from "../domain/todos.ts";
import { workspaceFacts } from "./workspace-facts.ts";

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
  /**
   * Asked before a finished answer is accepted, with the session's sandbox (loop.ts's checkDone):
   * a sentence sends the model back to work.
   */
  checkDone?: (sandbox: Sandbox) => Promise<string | undefined>;
  /** Tools of this kind of run, after the standard ones (a flaky triage's `rerun`). */
  tools?: readonly AnyTool[];
  /** The memory and skills namespaces behind read, write and edit. */
  virtual?: VirtualFiles;
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
    const facts = workspaceFacts(sandbox, () => todos);
    const tools = [...TOOLS, ...(options.tools ?? [])];
    const definitions = toolDefinitions(tools);
    const policy = layeredPolicy({
      settings: options.window,
      fixedTokens: estimateText(JSON.stringify(definitions)),
      reminder: () => facts.next(),
    });
    const { checkDone } = options;
    const result = await runLoop({
      model: options.model,
      tools,
      definitions,
      context: {
        sandbox,
        gate,
        workspace: sandbox.policy.workspace,
        todos: { get: () => todos, set: (next) => (todos = next) },
        signal: options.signal,
        virtual: options.virtual,
      },
      messages: options.messages,
      limits: options.limits,
      promptCacheKey: options.promptCacheKey,
      signal: options.signal,
      now: options.now,
      onEvent: (event) => {
        facts.observe(event);
        options.onEvent?.(event);
      },
      policy,
      checkDone: checkDone === undefined ? undefined : () => checkDone(sandbox),
    });
    return { ...result, todos };
  } finally {
    sandbox.dispose();
  }
}
