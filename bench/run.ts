/**
 * `npm run bench`: runs every benchmark module in turn and prints what each measured. Exits
 * non-zero only when a benchmark fails to run (an error), never because a figure misses its
 * goal; a benchmark that cannot run here (no bwrap) says so and counts as success.
 *
 *   npm run bench                          all benchmarks
 *   npm run bench -- sandbox-latency       only the named ones
 *   npm run bench -- --runs 50 --warmup 5  fewer measured / warm-up runs per variant
 */
import { parseArgs } from "node:util";
import { describeError } from "../src/errors.ts";

export interface BenchOptions {
  /** Measured runs per variant (each module has its own default). */
  runs?: number;
  /** Warm-up runs per variant, not counted. */
  warmup?: number;
}

export interface BenchModule {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<void>;
}

/** Every benchmark, in the order they run. Loaded lazily so one that fails to load is reported. */
const BENCHMARKS: { name: string; load: () => Promise<BenchModule> }[] = [
  { name: "sandbox-latency", load: () => import("./sandbox-latency.ts") },
  { name: "permissions-parse", load: () => import("./permissions-parse.ts") },
  { name: "token-estimate", load: () => import("./token-estimate.ts") },
  { name: "token-classes", load: () => import("./token-classes.ts") },
  { name: "context-view", load: () => import("./context-view.ts") },
  { name: "cold-start", load: () => import("./cold-start.ts") },
  { name: "cli-start", load: () => import("./cli-start.ts") },
  { name: "secret-scan", load: () => import("./secret-scan.ts") },
  { name: "notes-scrub", load: () => import("./notes-scrub.ts") },
  { name: "log-excerpt", load: () => import("./log-excerpt.ts") },
  { name: "ci-repair", load: () => import("./ci-repair.ts") },
  { name: "flaky-detect", load: () => import("./flaky-detect.ts") },
  { name: "report-page", load: () => import("./report-page.ts") },
];

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || (flag === "--runs" && number < 1)) {
    throw new Error(`${flag} wants a whole number${flag === "--runs" ? " ≥ 1" : ""}, got ${value}`);
  }
  return number;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { runs: { type: "string" }, warmup: { type: "string" } },
    allowPositionals: true,
  });
  const options: BenchOptions = {
    runs: count(values.runs, "--runs"),
    warmup: count(values.warmup, "--warmup"),
  };
  const unknown = positionals.filter((name) => !BENCHMARKS.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `no benchmark named ${unknown.join(", ")}; there are: ${BENCHMARKS.map((b) => b.name).join(", ")}`,
    );
  }
  const selected = BENCHMARKS.filter(
    (bench) => positionals.length === 0 || positionals.includes(bench.name),
  );

  let failures = 0;
  for (const [index, bench] of selected.entries()) {
    if (index > 0) process.stdout.write("\n");
    const started = performance.now();
    try {
      const module = await bench.load();
      await module.run(options);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`(${bench.name}: ${seconds} s)\n`);
    } catch (error) {
      failures++;
      process.stderr.write(`${bench.name}: FAILED: ${describeError(error)}\n`);
      if (error instanceof Error && error.stack && !(error.name === "PitcrewError")) {
        process.stderr.write(`${error.stack}\n`);
      }
    }
  }
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${describeError(error)}\n`);
    process.exitCode = 2;
  },
);
