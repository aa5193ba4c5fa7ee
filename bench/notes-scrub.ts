/**
 * What withholding secrets from a thread's notes (src/store/scrub.ts) costs on the transcript, the
 * big file of the three, next to a plain copy of the same text (UTF-8 encoding it, one pass over
 * every byte, which the upload does anyway) and the seal (src/store/seal.ts), at 1, 8 and 64 MiB
 * (64 MiB is the transcript's cap). It does not check that secrets are found; the tests do.
 */
import { createHash } from "node:crypto";
import { createScrubber } from "../src/store/scrub.ts";
import { seal, sealKey } from "../src/store/seal.ts";
import type { BenchOptions } from "./run.ts";
import { stats } from "./rounds.ts";

export const name = "notes-scrub";
export const description =
  "scrubbing and sealing a 1, 8 and 64 MiB transcript vs a plain copy: ms and ratios";

const DEFAULT_RUNS = 7;
const DEFAULT_WARMUP = 2;
const SIZES_MIB = [1, 8, 64];
const API_KEY = "sk-bench-model-key-0123456789abcdef";
const TOKEN = "ghs_benchTokenAbcdefghijklmnopqrstuvwxyz01";

const hex = (seed: number): string => createHash("sha256").update(String(seed)).digest("hex");

/**
 * A transcript as runs write it: user and assistant messages, tool calls with JSON arguments,
 * tool output with escapes (test logs, ANSI colours), usage lines; one line in 500 holds a secret.
 */
function transcript(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const secret = i % 500 === 0 ? ` ${i % 1000 === 0 ? API_KEY : TOKEN}` : "";
    const kind = i % 4;
    const line =
      kind === 0
        ? {
            type: "message",
            run: 1,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: `call_${hex(i).slice(0, 24)}`,
                  type: "function",
                  function: {
                    name: "bash",
                    arguments: JSON.stringify({
                      command: `npm test -- --grep "case ${i}"${secret}`,
                    }),
                  },
                },
              ],
            },
          }
        : kind === 1
          ? {
              type: "message",
              run: 1,
              message: {
                role: "tool",
                tool_call_id: `call_${hex(i).slice(0, 24)}`,
                content:
                  `\u001b[32m✔\u001b[0m case ${i} (3 ms)\n\u001b[31m✖\u001b[0m case ${i + 1}\n    at Object.<anonymous> (src/calc.test.js:${i % 200}:14)\n    expected 5, got -1${secret}\n`.repeat(
                    3,
                  ),
              },
            }
          : kind === 2
            ? {
                type: "message",
                run: 1,
                message: {
                  role: "assistant",
                  content: `The test for case ${i} fails because add() subtracts; commit ${hex(i)} introduced it.${secret}`,
                },
              }
            : {
                type: "usage",
                run: 1,
                turn: i,
                usage: {
                  promptTokens: 12000 + i,
                  cachedTokens: 8000,
                  completionTokens: 300,
                  reasoningTokens: 0,
                },
                cost: 0.0123,
              };
    const text = `${JSON.stringify(line)}\n`;
    lines.push(text);
    size += Buffer.byteLength(text);
  }
  return lines.join("");
}

/** Median ms of `runs` timings of `work`, after `warmup` untimed ones. */
function time(work: () => unknown, runs: number, warmup: number): number {
  let sink = 0;
  for (let i = 0; i < warmup; i++) sink += Number(Boolean(work()));
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    sink += Number(Boolean(work()));
    ms.push(performance.now() - started);
  }
  if (sink < 0) throw new Error("unreachable");
  return stats(ms).median;
}

export function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  // The secrets a run knows: the key, the token, the runtime token; as the scrubber gets them.
  const scrubber = createScrubber([API_KEY, TOKEN, `eyJ0eXAiOiJKV1Qi.${hex(1)}.${hex(2)}`]);
  const key = sealKey(API_KEY);

  out(`${name}: ${description}`);
  out(`  node ${process.version}; transcript: generated JSONL, a secret on 1 line in 500`);
  out(
    `  method: median of ${runs} timings after ${warmup} warm-up ones, per size; copy = Buffer.from(text) (UTF-8, every byte once); scrub = createScrubber(…).scrub(text, "json"); seal = HMAC-SHA256 over the text`,
  );
  out();
  out(
    `  ${"MiB".padStart(5)}${"copy ms".padStart(10)}${"scrub ms".padStart(10)}${"seal ms".padStart(10)}${"scrub/copy".padStart(12)}${"seal/copy".padStart(11)}${"scrub MB/s".padStart(12)}${"withheld".padStart(10)}`,
  );
  for (const mib of SIZES_MIB) {
    const text = transcript(mib * 1024 * 1024);
    const bytes = Buffer.byteLength(text);
    const copy = time(() => Buffer.from(text, "utf8"), runs, warmup);
    const scrub = time(() => scrubber.scrub(text, "json"), runs, warmup);
    const sealed = time(() => seal(key, { note: "", state: "{}", transcript: text }), runs, warmup);
    const { withheld } = scrubber.scrub(text, "json");
    out(
      `  ${String(mib).padStart(5)}${copy.toFixed(1).padStart(10)}${scrub.toFixed(1).padStart(10)}${sealed.toFixed(1).padStart(10)}${`${(scrub / copy).toFixed(1)}×`.padStart(12)}${`${(sealed / copy).toFixed(1)}×`.padStart(11)}${(bytes / (scrub / 1000) / 1e6).toFixed(0).padStart(12)}${String(withheld).padStart(10)}`,
    );
  }
  return Promise.resolve();
}
