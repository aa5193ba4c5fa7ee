/**
 * The built action, run as GitHub runs it: `node dist/index.js` in its own process with the
 * runner's environment (INPUT_*, GITHUB_*, RUNNER_TEMP), against the fake GitHub API (git over
 * smart HTTP included) and the scripted model server. A checkout made like actions/checkout's —
 * a clone with the token persisted as an extra header — is the workspace.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { builtAction } from "../support/built.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import { FAKE_WORKFLOW_PATH, startGitHubServer } from "../support/github-server.ts";
import type { FakeGitHub } from "../support/github-server.ts";
import { startModelServer } from "../support/model-server.ts";
import type { ModelServer, Script } from "../support/model-server.ts";

export const GITHUB_TOKEN = "ghs_e2eTokenAbcdefghijklmnopqrstuvwxyz0123";
export const API_KEY = "sk-e2e-model-key-0123456789abcdef";

export { builtAction };

export interface World {
  root: string;
  github: FakeGitHub;
  /** The bare repository behind the fake GitHub (what a push changes). */
  origin: string;
  model: ModelServer;
  close(): Promise<void>;
}

/** The repository on "GitHub": the fixture project with a bug, as a bare repo behind the fake. */
export async function createWorld(
  script: Script,
  prepare?: (repo: string) => void,
): Promise<World> {
  const fixture = createFixtureRepo("e2e");
  prepare?.(fixture.repo);
  const origin = join(fixture.root, "origin.git");
  execFileSync("git", ["clone", "-q", "--bare", fixture.repo, origin]);
  const github = await startGitHubServer({ token: GITHUB_TOKEN, bareRepo: origin });
  const model = await startModelServer(script, { apiKey: API_KEY });
  return {
    root: fixture.root,
    github,
    origin,
    model,
    async close() {
      await github.close();
      await model.close();
      rmSync(fixture.root, { recursive: true, force: true });
    },
  };
}

export interface ActionRun {
  /** The main step's exit status (a signal ends it with 1). */
  code: number;
  /** What the post step printed. */
  post: string;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

function basicHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
}

/**
 * A checkout like actions/checkout leaves it: the default branch, the token persisted as an extra
 * header for the server. Asynchronous: a synchronous git here would block the fake it talks to.
 */
export async function checkout(world: World, name: string): Promise<string> {
  const workspace = join(world.root, name);
  const header = `http.${world.github.url}/.extraheader`;
  await cloneAsync([
    "-c",
    `${header}=${basicHeader(GITHUB_TOKEN)}`,
    "clone",
    "-q",
    world.github.gitUrl,
    workspace,
  ]);
  fixtureGit(workspace, "config", "--local", header, basicHeader(GITHUB_TOKEN));
  return workspace;
}

function cloneAsync(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("git", args, (error, _stdout, stderr) =>
      error ? reject(new Error(`git ${args.join(" ")}: ${stderr}`)) : resolve(),
    );
  });
}

/** Parses the GITHUB_OUTPUT file @actions/core writes (`name<<delimiter` … `delimiter`). */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<]+)<<(.+)$/.exec(lines[i] ?? "");
    if (!match) continue;
    const [, name, delimiter] = match;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? "");
    outputs[name ?? ""] = value.join("\n");
  }
  return outputs;
}

export interface RunOptions {
  eventName: string;
  payload: unknown;
  inputs?: Record<string, string>;
  /** A workspace made by checkout(); a fresh one by default. */
  workspace?: string;
  runId?: string;
  /** Called with the child process once started (to send it a signal). */
  onSpawn?: (child: ReturnType<typeof execFile>) => void;
  /** The main step's script (post.js beside it is the post step); default: a fresh build's. */
  index?: string;
}

export async function runAction(world: World, options: RunOptions): Promise<ActionRun> {
  const index = options.index ?? (await builtAction());
  const runId = options.runId ?? "1001";
  const workspace = options.workspace ?? (await checkout(world, `workspace-${runId}`));
  const runner = join(world.root, `runner-${runId}`);
  const temp = join(runner, "temp");
  const home = join(runner, "home");
  mkdirSync(temp, { recursive: true });
  mkdirSync(home, { recursive: true });
  const eventPath = join(runner, "event.json");
  writeFileSync(eventPath, JSON.stringify(options.payload));
  const outputPath = join(runner, "output");
  const summaryPath = join(runner, "summary");
  const statePath = join(runner, "state");
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  writeFileSync(statePath, "");
  const inputs: Record<string, string> = {
    "api-key": API_KEY,
    "base-url": world.model.url,
    model: "gpt-4.1",
    "github-token": GITHUB_TOKEN,
    ...options.inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${world.github.owner}/${world.github.repo}`,
    GITHUB_API_URL: world.github.url,
    ...world.github.artifacts.runnerEnv(Number(runId)),
    GITHUB_RUN_ID: runId,
    GITHUB_WORKFLOW_REF: `${world.github.owner}/${world.github.repo}/${FAKE_WORKFLOW_PATH}@refs/heads/main`,
    GITHUB_SHA: fixtureGit(workspace, "rev-parse", "HEAD"),
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_STATE: statePath,
    RUNNER_TEMP: temp,
  };
  // The runner passes inputs as INPUT_<NAME upper-cased, spaces as underscores>.
  for (const [name, value] of Object.entries(inputs)) {
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  }
  // GitHub knows the run: its workflow file and the event that started it.
  world.github.setRun(Number(runId), { event: options.eventName });
  const { code, stdout, stderr } = await node(index, workspace, env, options.onSpawn);
  // Then the post step, as the runner always runs it: with the main step's saved state as STATE_*.
  const state = parseOutputs(readFileSync(statePath, "utf8"));
  const postEnv = { ...env };
  for (const [name, value] of Object.entries(state)) postEnv[`STATE_${name}`] = value;
  const postRun = await node(join(dirname(index), "post.js"), workspace, postEnv);
  return {
    code,
    stdout,
    stderr,
    post: postRun.stdout + postRun.stderr,
    outputs: parseOutputs(readFileSync(outputPath, "utf8")),
    summary: readFileSync(summaryPath, "utf8"),
    workspace,
  };
}

function node(
  script: string,
  cwd: string,
  env: Record<string, string>,
  onSpawn?: (child: ReturnType<typeof execFile>) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [script],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exit = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof exit === "number" ? exit : 1, stdout, stderr });
      },
    );
    onSpawn?.(child);
  });
}
