/**
 * A temporary git repository with a real bwrap sandbox over it and a ToolContext around that,
 * for the tool tests. One per test file: `before` builds it, `after` removes it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_SETTINGS } from "../../../src/sandbox/policy.ts";
import type { SandboxSettings } from "../../../src/sandbox/policy.ts";
import { createSandbox } from "../../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../../src/sandbox/sandbox.ts";
import type { AnyTool, CommandGate, ToolContext } from "../../../src/agent/tools/tool.ts";
import type { Todo } from "../../../src/domain/todos.ts";
import type { ToolOutcome } from "../../../src/domain/tools.ts";

export const ALLOW_ALL: CommandGate = { check: () => ({ allowed: true }) };

export interface ToolHarness {
  root: string;
  workspace: string;
  home: string;
  sandbox: Sandbox;
  todos: Todo[];
  context(overrides?: Partial<ToolContext>): ToolContext;
  /** Parses `args` with the tool's schema (as the dispatcher does) and runs it. */
  call(tool: AnyTool, args: unknown, overrides?: Partial<ToolContext>): Promise<ToolOutcome>;
  dispose(): void;
}

export function git(workspace: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    { cwd: workspace, encoding: "utf8" },
  );
}

/**
 * `env` is the harness's environment the sandbox is allowlisted from; by default only HOME and
 * PATH, as most tests need nothing else. `files` are committed before the sandbox starts, and
 * `settings` override the sandbox's.
 */
export async function toolHarness(
  name: string,
  env?: (home: string) => Record<string, string | undefined>,
  setup: { files?: Record<string, string>; settings?: Partial<SandboxSettings> } = {},
): Promise<ToolHarness> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `pitcrew-tools-${name}-`)));
  const workspace = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  git(workspace, "init", "-q");
  writeFileSync(join(workspace, "README.md"), "# test repo\n");
  for (const [file, text] of Object.entries(setup.files ?? {})) {
    mkdirSync(dirname(join(workspace, file)), { recursive: true });
    writeFileSync(join(workspace, file), text);
  }
  git(workspace, "add", ".");
  git(workspace, "commit", "-q", "-m", "init");
  const sandbox = await createSandbox(
    {
      ...DEFAULT_SETTINGS,
      backend: "bwrap",
      homeReadOnly: [],
      timeoutMs: 20_000,
      ...setup.settings,
    },
    {
      workspace,
      env: env ? env(home) : { HOME: home, PATH: process.env.PATH },
      allowSetup: false,
    },
  );
  const todos: Todo[] = [];
  const context = (overrides: Partial<ToolContext> = {}): ToolContext => ({
    sandbox,
    gate: ALLOW_ALL,
    workspace,
    todos: {
      get: () => [...todos],
      set: (next) => {
        todos.splice(0, todos.length, ...next);
      },
    },
    ...overrides,
  });
  return {
    root,
    workspace,
    home,
    sandbox,
    todos,
    context,
    call: (tool, args, overrides) => tool.run(tool.schema.parse(args), context(overrides)),
    dispose: () => {
      sandbox.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
