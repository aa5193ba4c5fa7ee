/**
 * The excerpt on big logs: a synthetic job log of about 50 MB in the runner's format (timestamps,
 * groups, ANSI colours) per case — a jest run, a pytest run, a C++ build, a cargo run, a timeout —
 * with its one real failure buried at a different depth each time and thousands of harmless lines
 * that look like errors around it. Per case: throughput (reading the log and excerpting it, MB/s,
 * goal ≥ 50), the excerpt's size (o200k-estimated tokens, goal ≤ 8000) and whether the failing
 * line is in it and is the first error.
 */
import { estimateText } from "../src/context/tokens.ts";
import { excerptText } from "../src/ci/excerpt.ts";
import { stats } from "./rounds.ts";
import type { BenchOptions } from "./run.ts";

export const name = "log-excerpt";
export const description = "excerpt throughput and size on 50 MB synthetic job logs";

export const GOAL_MB_PER_S = 50;
export const GOAL_TOKENS = 8000;
const TARGET_BYTES = 50 * 1024 * 1024;
const DEFAULT_RUNS = 3;

interface Case {
  name: string;
  command: string;
  /** A harmless line, varied by `i`. */
  noise: (i: number) => string;
  /** The failure and what follows it. */
  failure: string[];
  /** Where in the log it is buried, 0..1. */
  depth: number;
}

const CASES: Case[] = [
  {
    name: "jest",
    command: "npx jest",
    noise: (i) =>
      `PASS src/module${i % 500}.test.ts (${(i % 97) / 10} s) · logger: error count 0 for run ${i}`,
    failure: [
      "FAIL src/sum.test.ts",
      "  ● sum › adds two numbers",
      "    Expected: 5",
      "    Received: -1",
    ],
    depth: 0.9,
  },
  {
    name: "pytest",
    command: "pytest -q",
    noise: (i) => `tests/test_mod${i % 300}.py::test_case_${i} PASSED [${i % 100}%]`,
    failure: ["FAILED tests/test_sum.py::test_adds - assert -1 == 5"],
    depth: 0.5,
  },
  {
    name: "c++ build",
    command: "ninja -C build",
    noise: (i) => `[${i}/900000] Building CXX object src/CMakeFiles/lib.dir/file${i}.cpp.o`,
    failure: [
      "FAILED: src/CMakeFiles/lib.dir/sum.cpp.o",
      "../src/sum.cpp:12:7: error: use of undeclared identifier 'b'",
    ],
    depth: 0.2,
  },
  {
    name: "cargo",
    command: "cargo test",
    noise: (i) => `test module${i % 400}::case_${i} ... ok`,
    failure: ["test tests::adds ... FAILED", "thread 'tests::adds' panicked at src/lib.rs:12:9:"],
    depth: 0.99,
  },
  {
    name: "timeout",
    command: "npm test",
    noise: (i) => `\u001b[32m✓\u001b[0m step ${i} finished without error: 0 warnings`,
    failure: [
      "##[error]The job running on runner GitHub Actions 3 has exceeded the maximum execution time of 360 minutes.",
    ],
    depth: 1,
  },
];

function stamp(i: number): string {
  const seconds = Math.floor(i / 1000);
  return `2026-12-02T${String(10 + (Math.floor(seconds / 3600) % 10)).padStart(2, "0")}:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}.${String(i % 1000).padStart(3, "0")}0000Z`;
}

function synthetic(one: Case): string {
  const lines: string[] = [
    "\ufeff" + `${stamp(0)} ##[group]Run ${one.command}`,
    `${stamp(0)} ##[endgroup]`,
  ];
  let bytes = 0;
  let i = 0;
  let buried = false;
  while (bytes < TARGET_BYTES) {
    if (!buried && bytes >= TARGET_BYTES * one.depth) {
      for (const line of one.failure) lines.push(`${stamp(i)} ${line}`);
      buried = true;
    }
    const line = `${stamp(i)} ${one.noise(i)}`;
    lines.push(line);
    bytes += line.length + 1;
    i++;
  }
  if (!buried) for (const line of one.failure) lines.push(`${stamp(i)} ${line}`);
  lines.push(`${stamp(i)} ##[error]Process completed with exit code 1.`);
  return lines.join("\n") + "\n";
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  out(
    `${name}: ${CASES.length} cases of ~${TARGET_BYTES / 1024 / 1024} MB, ${runs} measured runs each after ${options.warmup ?? 1} warm-up`,
  );
  let allMet = true;
  for (const one of CASES) {
    const text = synthetic(one);
    const megabytes = Buffer.byteLength(text) / 1024 / 1024;
    for (let i = 0; i < (options.warmup ?? 1); i++) excerptText(text);
    const times: number[] = [];
    let excerpt = excerptText(text);
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      excerpt = excerptText(text);
      times.push(performance.now() - started);
    }
    const median = stats(times).median;
    const throughput = megabytes / (median / 1000);
    const tokens = estimateText(excerpt.excerpt);
    const failing = one.failure.at(-1)!;
    const found = excerpt.excerpt.includes(failing.replace(/^##\[error\]/, "##[error]"));
    const first =
      excerpt.firstError !== null && one.failure.some((line) => line.trim() === excerpt.firstError);
    const met = throughput >= GOAL_MB_PER_S && tokens <= GOAL_TOKENS && found && first;
    allMet &&= met;
    out(
      `  ${one.name.padEnd(10)} ${megabytes.toFixed(1)} MB: median ${median.toFixed(0)} ms → ${throughput.toFixed(0)} MB/s (goal ≥ ${GOAL_MB_PER_S}); excerpt ${tokens} tokens (goal ≤ ${GOAL_TOKENS}); failing line in: ${found ? "yes" : "NO"}; first error right: ${first ? "yes" : "NO"} — ${met ? "met" : "NOT met"}`,
    );
  }
  out(`  every case: ${allMet ? "met" : "NOT met"}`);
  await Promise.resolve();
}
