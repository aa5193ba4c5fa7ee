/**
 * Cold start: from `node dist/index.js` to the first model request, for a `/agent fix` comment
 * (config, event, authorisation, 👀, progress comment, branch fetch over git's smart HTTP, the
 * sandbox probe, the thread's issue and comments) — against the fake GitHub API and the scripted
 * model of the e2e tests. Beside it, what a peer pays before its agent can start on every run:
 * `npm install @openai/codex` into an empty folder with an empty npm cache (codex-action installs
 * the CLI each run). Runs alternate between the two so machine noise falls on both alike.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueCommentPayload } from "../test/support/payloads.ts";
import { say } from "../test/support/model-server.ts";
import { builtAction, createWorld, runAction } from "../test/e2e/harness.ts";
import type { BenchOptions } from "./run.ts";

export const name = "cold-start";
export const description =
  "node dist/index.js to the first model request, beside npm install @openai/codex";

export const GOAL_MS = 500;
const DEFAULT_RUNS = 10;
const INSTALL_RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One `/agent fix` run in a fresh world; the time from spawn to the model's first request. */
async function coldStart(round: number): Promise<number> {
  const world = await createWorld([say("Nothing to change.")]);
  try {
    world.github.addUser({ login: "octocat", id: 583231, type: "User" });
    world.github.setPermission("octocat", "write");
    world.github.addIssue({ number: 1, title: "A bug", body: "Fix it.", user: "octocat" });
    const comment = world.github.addComment(1, { body: "/agent fix", user: "octocat" });
    const payload = issueCommentPayload({
      body: "/agent fix",
      user: { login: "octocat", id: 583231, type: "User" },
    });
    payload.comment.id = comment.id;
    payload.issue.number = 1;
    payload.repository.default_branch = "main";
    let spawned = 0;
    const run = await runAction(world, {
      eventName: "issue_comment",
      payload,
      runId: String(2000 + round),
      onSpawn: () => (spawned = performance.now()),
    });
    const first = world.model.requests[0];
    if (run.code !== 0 || first === undefined) {
      throw new Error(`the action failed (exit ${run.code}): ${run.stdout.slice(-2000)}`);
    }
    return first.at - spawned;
  } finally {
    await world.close();
  }
}

function npmInstallCodex(): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), "pitcrew-bench-codex-"));
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    execFile(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--cache",
        join(folder, "cache"),
        "--prefix",
        join(folder, "app"),
        "@openai/codex",
      ],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const elapsed = performance.now() - started;
        rmSync(folder, { recursive: true, force: true });
        if (error) reject(new Error(`npm install @openai/codex failed: ${stderr.slice(-1000)}`));
        else resolve(elapsed);
      },
    );
  });
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  await builtAction();
  for (let i = 0; i < (options.warmup ?? 1); i++) await coldStart(-1 - i);
  const starts: number[] = [];
  const installs: number[] = [];
  let installError: string | undefined;
  for (let round = 0; round < runs; round++) {
    starts.push(await coldStart(round));
    if (round < INSTALL_RUNS && installError === undefined) {
      try {
        installs.push(await npmInstallCodex());
      } catch (error) {
        installError = error instanceof Error ? error.message : String(error);
      }
    }
  }
  const start = median(starts);
  const fmt = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;
  process.stdout.write(
    `cold start (spawn → first model request, ${runs} runs): median ${fmt(start)}, min ${fmt(Math.min(...starts))}, max ${fmt(Math.max(...starts))}; goal ≤ ${fmt(GOAL_MS)}: ${start <= GOAL_MS ? "met" : "NOT met"}\n`,
  );
  if (installs.length === 0) {
    process.stdout.write(
      `npm install @openai/codex: not measured (${installError ?? "no runs"}); it needs the npm registry\n`,
    );
    return;
  }
  const install = median(installs);
  process.stdout.write(
    `npm install @openai/codex (empty folder, empty cache, ${installs.length} runs): median ${fmt(install)}\n` +
      `ratio install / cold start: ${(install / start).toFixed(1)}×\n`,
  );
}
