/**
 * The token estimate (src/context/tokens.ts) per content class: for each class of
 * test/support/token-classes.ts (find listings, minified code, decomposed accents, astral CJK,
 * private-use icons, combining marks, random ASCII, hex dumps, …) the o200k tokens and the
 * estimate of the whole sample, estimate / o200k over its chunks of 2,000 code points (mean, min,
 * max: the issue's goal is min ≥ 0.95 on every class) and MB/s of the estimate and of o200k.
 * Needs nothing outside the repository.
 */
import { estimateText } from "../src/context/tokens.ts";
import { CHUNK, chunks, tokenClasses } from "../test/support/token-classes.ts";
import type { BenchOptions } from "./run.ts";
import { throughput } from "./token-estimate.ts";

export const name = "token-classes";
export const description =
  "token estimate vs exact o200k per content class: ratio over 2,000-code-point chunks, MB/s";

const DEFAULT_RUNS = 10;
const DEFAULT_WARMUP = 2;
/** Every chunk of every class must be estimated at least this share of o200k. */
const GOAL = 0.95;

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const o200k = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });
  const classes = tokenClasses();
  for (let i = 0; i < warmup; i++) {
    for (const { text } of classes) {
      o200k(text);
      estimateText(text);
    }
  }

  out(`${name}: ${description}`);
  out(
    `  samples: test/support/token-classes.ts (${classes.length} classes, each cut into chunks of ${CHUNK} code points); node ${process.version}`,
  );
  out(
    `  method: ratio = estimate / o200k of each chunk; MB/s (UTF-8 bytes) = median of ${runs} timings of ≥ 10 ms each over the whole sample, after ${warmup} warm-up passes`,
  );
  out();
  out(
    `  ${"class".padEnd(18)}${"KiB".padStart(7)}${"chunks".padStart(7)}${"o200k".padStart(8)}${"estimate".padStart(10)}${"mean".padStart(7)}${"min".padStart(7)}${"max".padStart(7)}${"est MB/s".padStart(10)}${"o200k MB/s".padStart(12)}`,
  );
  const missed: string[] = [];
  for (const { name: label, text } of classes) {
    const ratios = chunks(text).map((part) => estimateText(part) / o200k(part));
    const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    const min = Math.min(...ratios);
    if (min < GOAL) missed.push(`${label} ${min.toFixed(3)}`);
    const fast = throughput([text], estimateText, runs);
    const slow = throughput([text], o200k, runs);
    out(
      `  ${label.padEnd(18)}${(Buffer.byteLength(text) / 1024).toFixed(1).padStart(7)}${String(ratios.length).padStart(7)}${String(o200k(text)).padStart(8)}${String(estimateText(text)).padStart(10)}${mean.toFixed(3).padStart(7)}${min.toFixed(3).padStart(7)}${Math.max(
        ...ratios,
      )
        .toFixed(3)
        .padStart(7)}${fast.toFixed(1).padStart(10)}${slow.toFixed(1).padStart(12)}`,
    );
  }
  const texts = classes.map((entry) => entry.text);
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  out(
    `  ${"all".padEnd(18)}${(bytes / 1024).toFixed(1).padStart(7)}${"".padStart(7)}${String(texts.reduce((sum, text) => sum + o200k(text), 0)).padStart(8)}${String(texts.reduce((sum, text) => sum + estimateText(text), 0)).padStart(10)}${"".padStart(21)}${throughput(texts, estimateText, runs).toFixed(1).padStart(10)}${throughput(texts, o200k, runs).toFixed(1).padStart(12)}`,
  );
  out();
  out(
    `  goal: every chunk of every class ≥ ${GOAL} × o200k: ${missed.length === 0 ? "met" : `NOT met (${missed.join(", ")})`}`,
  );
}
