/**
 * How fast the context layer's token estimate (src/context/tokens.ts) runs against exact
 * counting with gpt-tokenizer's o200k `countTokens`, side by side with how close it comes: MB/s
 * of each and estimate / o200k per sample. Samples are ../shared/research/token-samples where
 * that folder exists, otherwise generated text of the same kinds. It does not judge accuracy on
 * real requests; test/shared/tokens.test.ts does that.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { estimateText } from "../src/context/tokens.ts";
import type { BenchOptions } from "./run.ts";
import { stats } from "./rounds.ts";

export const name = "token-estimate";
export const description =
  "token estimate vs exact o200k (gpt-tokenizer): MB/s of each and estimate / o200k per sample";

/** Timings per sample and variant; warm-up passes over all samples before any is timed. */
const DEFAULT_RUNS = 20;
const DEFAULT_WARMUP = 3;
const REPO = fileURLToPath(new URL("..", import.meta.url));
const SAMPLES = join(REPO, "..", "shared", "research", "token-samples");

interface Sample {
  name: string;
  text: string;
  bytes: number;
}

const hex = (seed: number): string => createHash("sha256").update(String(seed)).digest("hex");

/** Stand-ins for the research samples: prose, code, JSON, logs, minified JS, base64, CJK, emoji. */
function generated(): Sample[] {
  const words =
    "the agent reads the repository runs the tests and writes a short summary of what it changed and why".split(
      " ",
    );
  const texts: Record<string, string> = {
    prose: Array.from({ length: 2000 }, (_, i) => words[(i * 7) % words.length]).join(" "),
    code: Array.from(
      { length: 300 },
      (_, i) =>
        `export function handler${i}(request: Request): Promise<Response> {\n  return fetch(request.url, { method: "GET", headers: { "x-id": "${i}" } });\n}\n`,
    ).join(""),
    json: JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({ id: i, sha: hex(i).slice(0, 12), ok: i % 2 === 0 })),
    ),
    log: Array.from(
      { length: 500 },
      (_, i) =>
        `2025-11-01T00:00:${String(i % 60).padStart(2, "0")}.000Z ERROR req=${hex(i).slice(0, 16)} status=500\n    at Module._compile (node:internal/modules/cjs/loader:${1200 + i}:14)`,
    ).join("\n"),
    minified: Array.from(
      { length: 300 },
      (_, i) =>
        `function a${i}(o,d){return o&&o.length>${i}?o.map(function(x){return x*${i}}):void 0}`,
    ).join(""),
    base64: Array.from({ length: 120 }, (_, i) =>
      createHash("sha512").update(String(i)).digest("base64"),
    ).join("\n"),
    cjk: "上下文管理器在每次请求之前估算令牌数量。".repeat(100),
    emoji: "🚀 Release is out! 🎉 ✨ Features ⚡️ faster 🏎️💨\n".repeat(60),
  };
  return Object.entries(texts).map(([name, text]) => ({
    name: `${name} (generated)`,
    text,
    bytes: Buffer.byteLength(text),
  }));
}

function samples(): { source: string; samples: Sample[] } {
  if (!existsSync(SAMPLES)) {
    return {
      source: "generated text (../shared/research/token-samples is absent)",
      samples: generated(),
    };
  }
  const files = readdirSync(SAMPLES).sort();
  return {
    source: `../shared/research/token-samples (${files.length} files)`,
    samples: files.map((file) => {
      const text = readFileSync(join(SAMPLES, file), "utf8");
      return { name: file, text, bytes: Buffer.byteLength(text) };
    }),
  };
}

/** Median MB/s of `count` over `runs` timings of passes through `texts` (≥ ~10 ms each). */
export function throughput(
  texts: readonly string[],
  count: (text: string) => number,
  runs: number,
): number {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  let sink = 0;
  const pass = (): number => {
    const started = performance.now();
    for (const text of texts) sink += count(text);
    return performance.now() - started;
  };
  const passes = Math.max(1, Math.ceil(10 / Math.max(pass(), 0.001)));
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    let ms = 0;
    for (let i = 0; i < passes; i++) ms += pass();
    rates.push((bytes * passes) / (ms / 1000) / 1e6);
  }
  if (sink < 0) throw new Error("unreachable");
  return stats(rates).median;
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  const loadStarted = performance.now();
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const loadMs = performance.now() - loadStarted;
  const o200k = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });
  const { source, samples: list } = samples();
  const texts = list.map((sample) => sample.text);
  // Warm both up on every text first, so no sample is timed while the JIT is still compiling.
  for (let i = 0; i < warmup; i++) {
    for (const text of texts) {
      o200k(text);
      estimateText(text);
    }
  }

  out(`${name}: ${description}`);
  out(`  samples: ${source}; node ${process.version}`);
  out(
    `  method: MB/s (UTF-8 bytes) = median of ${runs} timings of ≥ 10 ms each, after ${warmup} warm-up passes over every text; o200k with its merge cache warm, as in a long session; loading gpt-tokenizer's o200k took ${loadMs.toFixed(0)} ms`,
  );
  out();
  const header = `  ${"sample".padEnd(26)}${"KiB".padStart(8)}${"o200k".padStart(9)}${"estimate".padStart(10)}${"ratio".padStart(8)}${"est MB/s".padStart(10)}${"o200k MB/s".padStart(12)}${"speedup".padStart(9)}`;
  out(header);
  for (const sample of list) {
    const exact = o200k(sample.text);
    const estimate = estimateText(sample.text);
    const fast = throughput([sample.text], estimateText, runs);
    const slow = throughput([sample.text], o200k, runs);
    out(
      `  ${sample.name.padEnd(26)}${(sample.bytes / 1024).toFixed(1).padStart(8)}${String(exact).padStart(9)}${String(estimate).padStart(10)}${(estimate / exact).toFixed(3).padStart(8)}${fast.toFixed(1).padStart(10)}${slow.toFixed(1).padStart(12)}${`${(fast / slow).toFixed(1)}×`.padStart(9)}`,
    );
  }
  const bytes = list.reduce((sum, sample) => sum + sample.bytes, 0);
  const exact = texts.reduce((sum, text) => sum + o200k(text), 0);
  const estimate = texts.reduce((sum, text) => sum + estimateText(text), 0);
  const fast = throughput(texts, estimateText, runs);
  const slow = throughput(texts, o200k, runs);
  out(
    `  ${"all".padEnd(26)}${(bytes / 1024).toFixed(1).padStart(8)}${String(exact).padStart(9)}${String(estimate).padStart(10)}${(estimate / exact).toFixed(3).padStart(8)}${fast.toFixed(1).padStart(10)}${slow.toFixed(1).padStart(12)}${`${(fast / slow).toFixed(1)}×`.padStart(9)}`,
  );
  const low = list.filter((sample) => estimateText(sample.text) < o200k(sample.text));
  out();
  out(
    `  goal: estimate ≥ o200k on every sample: ${low.length === 0 ? "met" : `NOT met (${low.map((sample) => sample.name).join(", ")})`}`,
  );
}
