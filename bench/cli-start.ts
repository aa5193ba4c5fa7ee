/**
 * How fast the CLI starts: the wall time of `node dist/cli.js` for the commands a person types
 * first (`--version`, `--help`, `sandbox -- true`, `context replay --help`, `run --help`) beside
 * `node -e 0`, Node's own start, as the yardstick. The CLI is built from the sources into a
 * temporary folder first (the committed dist/ is not used). Variants run interleaved, round after
 * round, starting at a different one each round, so machine noise falls on all of them alike.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findBwrap } from "../src/sandbox/probe.ts";
import type { BenchOptions } from "./run.ts";
import { interleaved, stats } from "./rounds.ts";

export const name = "cli-start";
export const description = "node dist/cli.js start-up per command, against node -e 0";

/** `--help` and `sandbox -- true` should take at most this many times `node -e 0`. */
export const GOAL_RATIO = 2;

const DEFAULT_RUNS = 20;
const DEFAULT_WARMUP = 3;
const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Variant {
  label: string;
  argv: string[];
  /** Held to GOAL_RATIO. */
  goal: boolean;
  /** Every run must exit 0; otherwise the exit status is only reported. */
  mustSucceed: boolean;
}

interface Exit {
  status: number | null;
  signal: string | null;
  output: string;
}

function spawnTimed(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, output }));
  });
}

function build(out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["scripts/build.mjs", out], { cwd: ROOT }, (error, _o, stderr) => {
      if (error) reject(new Error(`the build failed: ${stderr || error.message}`));
      else resolve();
    });
  });
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  const root = mkdtempSync(join(tmpdir(), "pitcrew-bench-cli-"));
  try {
    const dist = join(root, "dist");
    await build(dist);
    const cli = join(dist, "cli.js");
    const workspace = join(root, "workspace");
    const home = join(root, "home");
    mkdirSync(workspace);
    mkdirSync(home);
    // A plain environment: no NODE_OPTIONS or NODE_COMPILE_CACHE from the caller.
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" };

    // With bwrap the sandbox line is the real one (probe, policy, bwrap); `--sandbox none` beside
    // it shows how much of that is the CLI's own start.
    let backend = findBwrap() === null ? "none" : "bwrap";
    let backendNote = backend === "none" ? "bwrap is not installed" : "bwrap is installed";
    if (backend === "bwrap") {
      const probe = await spawnTimed(
        [cli, "sandbox", "--sandbox", "bwrap", "--", "true"],
        workspace,
        env,
      );
      if (probe.status !== 0) {
        backend = "none";
        backendNote = `bwrap cannot start here (${probe.output.trim().split("\n")[0] ?? ""})`;
      }
    }
    const variants: Variant[] = [
      { label: "node -e 0", argv: ["-e", "0"], goal: false, mustSucceed: true },
      { label: "--version", argv: [cli, "--version"], goal: false, mustSucceed: true },
      { label: "--help", argv: [cli, "--help"], goal: true, mustSucceed: true },
      {
        label: `sandbox --sandbox ${backend} -- true`,
        argv: [cli, "sandbox", "--sandbox", backend, "--", "true"],
        goal: true,
        mustSucceed: true,
      },
      ...(backend === "none"
        ? []
        : [
            {
              label: "sandbox --sandbox none -- true",
              argv: [cli, "sandbox", "--sandbox", "none", "--", "true"],
              goal: false,
              mustSucceed: true,
            },
          ]),
      {
        label: "context replay --help",
        argv: [cli, "context", "replay", "--help"],
        goal: false,
        mustSucceed: false,
      },
      { label: "run --help", argv: [cli, "run", "--help"], goal: false, mustSucceed: false },
    ];

    const statuses = new Map(variants.map((variant) => [variant, new Set<number | null>()]));
    const samples = await interleaved(variants, runs, warmup, async (variant) => {
      const started = performance.now();
      const exit = await spawnTimed(variant.argv, workspace, env);
      const elapsed = performance.now() - started;
      if (exit.signal !== null || (variant.mustSucceed && exit.status !== 0)) {
        throw new Error(
          `'${variant.label}' ended with ${exit.signal ?? `exit ${exit.status}`}: ${exit.output.slice(-1000)}`,
        );
      }
      statuses.get(variant)?.add(exit.status);
      return elapsed;
    });

    out(`cli-start: ${description}`);
    out(`  host: ${cpus().length} cores, Node ${process.versions.node}`);
    out(`  sandbox: --sandbox ${backend} (${backendNote})`);
    out(
      `  method: ${warmup} warm-up + ${runs} measured runs per variant, interleaved round-robin; ms of wall clock from spawn to exit`,
    );
    const base = stats(samples[0] ?? []).median;
    out(
      `  ${"command".padEnd(40)}${"median".padStart(9)}${"min".padStart(9)}${"max".padStart(9)}${"ratio".padStart(8)}  exit`,
    );
    const verdicts: string[] = [];
    for (const [index, variant] of variants.entries()) {
      const s = stats(samples[index] ?? []);
      const ratio = s.median / base;
      const exits = [...(statuses.get(variant) ?? [])].join(",");
      const goal = variant.goal
        ? `  goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? "met" : "NOT met"}`
        : "";
      out(
        `  ${variant.label.padEnd(40)}${s.median.toFixed(1).padStart(9)}${s.min.toFixed(1).padStart(9)}${s.max.toFixed(1).padStart(9)}${`${ratio.toFixed(2)}×`.padStart(8)}  ${exits}${goal}`,
      );
      if (variant.goal) verdicts.push(ratio <= GOAL_RATIO ? "met" : "NOT met");
    }
    out(
      `  goal: --help and sandbox -- true within ${GOAL_RATIO}× of node -e 0: ${verdicts.every((v) => v === "met") ? "met" : "NOT met"}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
