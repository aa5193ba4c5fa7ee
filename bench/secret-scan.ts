/**
 * What the decoding secret scan (src/git/secret-scan.ts, issue 10 §3) costs against the
 * line-only scan it replaced, on a large diff of ordinary code: 1 MB and 10 MB of this
 * repository's sources and node_modules' JavaScript, as added lines of one hunk per file, with
 * three realistic held values. Variants, interleaved round by round: the old scan (kept here only
 * as the baseline: the plain value, its base64 and the x-access-token base64, per line, plus the
 * token patterns), the new scan of the same items, and the new whole-file scan of each file
 * (held values only, as secret-files.ts reads a pushed file). Prints median ms, MB/s and ratios.
 */
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scanFileContent } from "../src/git/secret-files.ts";
import { MIN_KNOWN_LENGTH, PATTERNS, looksRandom, scanForSecrets } from "../src/git/secret-scan.ts";
import type { ScanItem } from "../src/git/secret-scan.ts";
import type { BenchOptions } from "./run.ts";
import { interleaved, stats } from "./rounds.ts";

export const name = "secret-scan";
export const description =
  "decoding secret scan vs the old line-only scan on 1 MB and 10 MB of ordinary code: ms, MB/s, ratios";

const DEFAULT_RUNS = 5;
const DEFAULT_WARMUP = 1;
const REPO = fileURLToPath(new URL("..", import.meta.url));
const SIZES = [1_000_000, 10_000_000];

/** The scan before issue 10: per line, the plain value and two base64 forms, then the patterns. */
function lineOnlyScan(items: readonly ScanItem[], known: readonly string[]): number {
  const base64 = (value: string): string =>
    Buffer.from(value).toString("base64").replace(/=+$/, "");
  const needles = known
    .filter((value) => value.length >= MIN_KNOWN_LENGTH)
    .flatMap((value) => [value, base64(value), base64(`x-access-token:${value}`)]);
  let findings = 0;
  for (const item of items) {
    for (const line of item.text.split("\n")) {
      for (const needle of needles) if (line.includes(needle)) findings++;
      for (const pattern of PATTERNS) {
        for (const match of line.matchAll(pattern.regex)) {
          if (pattern.random && !looksRandom(match[0])) continue;
          if (pattern.example?.test(match[0])) continue;
          findings++;
          break;
        }
      }
    }
  }
  return findings;
}

/** Source files in a fixed order (this repository's src/, then node_modules' .js) up to `bytes`. */
function ordinaryCode(bytes: number): ScanItem[] {
  const items: ScanItem[] = [];
  let total = 0;
  const walk = (dir: string, extension: RegExp): void => {
    for (const entry of readdirSync(dir).sort()) {
      if (total >= bytes) return;
      const path = join(dir, entry);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path, extension);
      else if (stat?.isFile() && extension.test(entry) && stat.size < 1_000_000) {
        const text = readFileSync(path, "utf8").slice(0, bytes - total);
        items.push({ source: path.slice(REPO.length), text, line: 1 });
        total += Buffer.byteLength(text);
      }
    }
  };
  walk(join(REPO, "src"), /\.ts$/);
  walk(join(REPO, "node_modules"), /\.js$/);
  return items;
}

function heldValues(): string[] {
  const random = (length: number): string =>
    randomBytes(length).toString("base64url").replace(/[-_]/g, "x").slice(0, length);
  return [`ghs_${random(36)}`, `sk-proj-${random(100)}`, `eyJ${random(400)}`];
}

/** Synchronous work; a promise because bench/run.ts awaits every module alike. */
export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  const known = heldValues();
  out(`held values: ${known.length} (lengths ${known.map((value) => value.length).join(", ")})`);
  out(`method: ${warmup} warm-up + ${runs} measured rounds, variants interleaved; median ms`);
  for (const size of SIZES) {
    const items = ordinaryCode(size);
    const bytes = items.reduce((sum, item) => sum + Buffer.byteLength(item.text), 0);
    const lines = items.reduce((sum, item) => sum + item.text.split("\n").length, 0);
    const files = items.map((item) => ({ path: item.source, bytes: Buffer.from(item.text) }));
    const variants: { label: string; scan: () => number }[] = [
      { label: "old line-only scan", scan: () => lineOnlyScan(items, known) },
      { label: "new scan (added lines)", scan: () => scanForSecrets(items, known).length },
      {
        label: "new whole-file scan",
        scan: () =>
          files.reduce(
            (sum, file) => sum + scanFileContent(file.path, file.bytes, known).length,
            0,
          ),
      },
    ];
    const times = await interleaved(variants, runs, warmup, (variant) => {
      const started = performance.now();
      const findings = variant.scan();
      const ms = performance.now() - started;
      if (findings !== 0) throw new Error(`${variant.label} found ${findings} in ordinary code`);
      return ms;
    });
    const medians = times.map((samples) => stats(samples).median);
    const base = medians[0] ?? Number.NaN;
    out();
    out(`${(bytes / 1e6).toFixed(1)} MB: ${items.length} files, ${lines} lines, 0 findings each`);
    variants.forEach((variant, index) => {
      const ms = medians[index] ?? Number.NaN;
      const rate = bytes / (ms / 1000) / 1e6;
      const ratio = index === 0 ? "" : `  ×${(ms / base).toFixed(2)} the old scan`;
      out(
        `  ${variant.label.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms  ${rate.toFixed(1).padStart(6)} MB/s${ratio}`,
      );
    });
  }
}
