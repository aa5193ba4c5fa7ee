/**
 * CI repair, event to pull request: the built action on a failed `workflow_run` (the e2e scene:
 * the fake GitHub with the run, its job and log, the fixture repository whose test fails, the
 * scripted model's three-turn fix, real bwrap), timed from the spawn to the end of the action's
 * steps (main and post; the PR is opened near the end, before the notes and the summary), with the share of it before the first model request (guards, evidence, the notes,
 * the branch, the red proof) and after the last (the proof ×3, push, PR). The model answers at
 * once, so this is the harness's own time, what a real model's minutes come on top of.
 */
import { builtAction, createWorld, runAction } from "../test/e2e/harness.ts";
import { REPAIR, failedRun, withWorkflow } from "../test/e2e/ci-scenes.ts";
import { REQUESTER } from "../test/e2e/scenes.ts";
import { findBwrap } from "../src/sandbox/probe.ts";
import { stats } from "./rounds.ts";
import type { BenchOptions } from "./run.ts";

export const name = "ci-repair";
export const description = "a failed workflow_run to the fix PR with its proof, scripted model";

const DEFAULT_RUNS = 5;
/** The harness's part of a repair, goal: under a minute on a 2-core runner. */
export const GOAL_MS = 60_000;

interface Timing {
  total: number;
  beforeModel: number;
  afterModel: number;
}

async function repairOnce(round: number): Promise<Timing> {
  const world = await createWorld(REPAIR, withWorkflow);
  try {
    world.github.addUser(REQUESTER);
    world.github.setPermission(REQUESTER.login, "write");
    const { payload } = failedRun(world, { id: 7000 + round });
    let spawned = 0;
    const run = await runAction(world, {
      eventName: "workflow_run",
      payload,
      runId: String(3000 + round),
      onSpawn: () => (spawned = performance.now()),
    });
    const pull = world.github.requests.find(
      (request) => request.method === "POST" && /\/pulls$/.test(request.path),
    );
    const requests = world.model.requests;
    if (run.code !== 0 || pull === undefined || requests.length === 0) {
      throw new Error(`the repair opened no PR (exit ${run.code}): ${run.stdout.slice(-2000)}`);
    }
    const ended = performance.now();
    return {
      total: ended - spawned,
      beforeModel: requests[0]!.at - spawned,
      afterModel: ended - requests.at(-1)!.at,
    };
  } finally {
    await world.close();
  }
}

export async function run(options: BenchOptions): Promise<void> {
  if (process.platform !== "linux" || findBwrap() === null) {
    process.stdout.write(`${name}: skipped: it needs bubblewrap on Linux. Nothing measured.\n`);
    return;
  }
  const runs = options.runs ?? DEFAULT_RUNS;
  await builtAction();
  for (let i = 0; i < (options.warmup ?? 1); i++) await repairOnce(-1 - i);
  const timings: Timing[] = [];
  for (let round = 0; round < runs; round++) timings.push(await repairOnce(round));
  const s = (pick: (timing: Timing) => number) => stats(timings.map(pick));
  const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const total = s((timing) => timing.total);
  process.stdout.write(
    [
      `event → PR, to the action's end (${runs} runs, each a fresh world): median ${fmt(total.median)}, min ${fmt(total.min)}, max ${fmt(total.max)}; goal ≤ ${fmt(GOAL_MS)}: ${total.median <= GOAL_MS ? "met" : "NOT met"}`,
      `  before the first model request (guards, evidence, notes, branch, red proof): median ${fmt(s((timing) => timing.beforeModel).median)}`,
      `  after the last (proof ×3, push, PR, notes, summary; the process's end): median ${fmt(s((timing) => timing.afterModel).median)}`,
    ].join("\n") + "\n",
  );
}
