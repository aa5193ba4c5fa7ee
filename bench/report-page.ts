/**
 * The HTML run report on big threads: synthetic transcripts of about 1, 5 and 20 MB (several runs
 * of many turns, each turn's context and usage, one to three tool calls with outputs from a line to
 * a long test log, the calls' durations, a compaction now and then), rendered with
 * `renderReport` and opened from file:// in Debian's chromium. Per size: the build time (ms), the
 * page's size, and its load in the browser from Navigation Timing (`loadEventEnd - startTime`, and
 * `domComplete`), each the median of a few runs. Goal: the 20 MB thread loads in under 2 s.
 * Without chromium it says so and measures the build only.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import type { Message } from "../src/domain/messages.ts";
import type { TranscriptEntry } from "../src/domain/notes.ts";
import { renderReport } from "../src/report/render.ts";
import { findChromium, launchChromium, openFile, waitUntil } from "../test/support/browser.ts";
import { seeded } from "../test/support/random.ts";
import { stats } from "./rounds.ts";
import type { BenchOptions } from "./run.ts";

export const name = "report-page";
export const description = "HTML report build and chromium load time on 1-20 MB transcripts";

export const GOAL_LOAD_MS = 2000;
const SIZES_MB = [1, 5, 20];
const DEFAULT_RUNS = 3;
const TURNS_PER_RUN = 250;
const WINDOW = 128_000;
const COMPACT_AT = 0.85;

const MB = 1024 * 1024;

/** A synthetic thread: its transcript (JSONL) and what it holds. */
interface Thread {
  transcript: string;
  runs: number;
  turns: number;
  calls: number;
}

/** Lines of a test run's output, some of them failures, as long as `lines`. */
function testLog(random: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const file = `src/module${Math.floor(random() * 400)}/part${i % 37}.test.ts`;
    if (random() < 0.02) {
      out.push(
        `FAIL ${file}`,
        `  ● suite ${i} › returns the right value for input ${i}`,
        `    expect(received).toBe(expected) // Object.is equality`,
        `    Expected: ${i * 3}`,
        `    Received: ${i * 3 - 1}`,
        `      at Object.<anonymous> (${file}:${12 + (i % 80)}:${5 + (i % 9)})`,
      );
    } else {
      out.push(`PASS ${file} (${(random() * 4).toFixed(2)} s) — ${1 + (i % 23)} tests, 0 skipped`);
    }
  }
  return out.join("\n");
}

/** A source file's text, `lines` long, with the odd `<`, `&` and quote a renderer must escape. */
function sourceFile(random: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const indent = "  ".repeat(i % 4);
    const pick = random();
    if (pick < 0.2) out.push(`${indent}if (value${i} < limit && flags & MASK) return "<${i}>";`);
    else if (pick < 0.4) out.push(`${indent}const item${i} = await load(\`items/\${id}-${i}\`);`);
    else if (pick < 0.6) out.push(`${indent}// keep the order: callers read entries ${i} in turn`);
    else
      out.push(`${indent}result.push({ key: "k${i}", weight: ${(random() * 100).toFixed(3)} });`);
  }
  return out.join("\n");
}

function grepHits(random: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      `src/area${Math.floor(random() * 60)}/file${i}.ts:${1 + Math.floor(random() * 900)}:  const total = sum(values${i});`,
    );
  return out.join("\n");
}

/** One tool call and its result: the mix a coding agent makes, outputs of every length. */
function toolStep(random: () => number, id: string): { call: Message; result: Message } {
  const pick = random();
  let call: { name: string; args: Record<string, unknown> };
  let content: string;
  let isError = false;
  if (pick < 0.35) {
    // A test or build run: mostly short, one in five a long log.
    const long = random() < 0.2;
    call = { name: "bash", args: { command: long ? "npm test" : "npm run build --silent" } };
    content = `exit code: ${long ? 1 : 0}\nstdout:\n${testLog(random, long ? 400 + Math.floor(random() * 1200) : 5 + Math.floor(random() * 40))}`;
  } else if (pick < 0.6) {
    const path = `src/area${Math.floor(random() * 60)}/file${Math.floor(random() * 300)}.ts`;
    call = { name: "read", args: { path } };
    content = sourceFile(random, 40 + Math.floor(random() * 400));
  } else if (pick < 0.75) {
    call = { name: "bash", args: { command: `grep -rn "sum(" src` } };
    content = `exit code: 0\nstdout:\n${grepHits(random, 10 + Math.floor(random() * 200))}`;
  } else if (pick < 0.92) {
    const path = `src/area${Math.floor(random() * 60)}/file${Math.floor(random() * 300)}.ts`;
    call = {
      name: "edit",
      args: { path, old_string: "return a - b;", new_string: "return a + b;" },
    };
    isError = random() < 0.1;
    content = isError
      ? `old_string was not found in ${path}; read the file again and copy the text exactly.`
      : `Replaced 1 occurrence in ${path}; the new text starts at line ${1 + Math.floor(random() * 300)}.`;
  } else {
    call = {
      name: "todo_write",
      args: {
        todos: [
          { content: "Reproduce the failure", status: "completed" },
          { content: "Fix the sum", status: "in_progress" },
          { content: "Run the whole suite", status: "pending" },
        ],
      },
    };
    content = "Todo list (1 of 3 completed, 1 in progress, 1 pending)";
  }
  return {
    call: {
      role: "assistant",
      content: "",
      toolCalls: [{ id, name: call.name, arguments: JSON.stringify(call.args) }],
    },
    result: { role: "tool", toolCallId: id, name: call.name, content, isError },
  };
}

/** A transcript of about `bytes`: runs of TURNS_PER_RUN turns until it is that long. */
export function syntheticThread(bytes: number, seed = 7): Thread {
  const random = seeded(seed);
  const lines: string[] = [];
  let size = 0;
  const push = (entry: TranscriptEntry): void => {
    const line = JSON.stringify(entry);
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  };
  let run = 0;
  let turns = 0;
  let calls = 0;
  let minute = 0;
  const at = (): string => new Date(Date.UTC(2026, 11, 2, 9, 0) + minute++ * 60_000).toISOString();
  while (size < bytes) {
    run += 1;
    push({
      type: "run",
      run,
      at: at(),
      threadKey: "issue-42",
      repository: "octo-org/big-service",
      branch: "pitcrew/issue-42",
      window: WINDOW,
      compactAt: COMPACT_AT,
    });
    push({
      type: "message",
      run,
      message: { role: "system", content: "You are pitcrew, a coding agent working in CI." },
    });
    push({
      type: "message",
      run,
      message: {
        role: "user",
        content: `Run ${run}: make the failing sum tests in issue #42 pass.`,
      },
    });
    let tokens = 3_000;
    /** The request of `turn`: a compaction first when the context is full, its context, usage. */
    const request = (turn: number): void => {
      turns += 1;
      const fired: string[] = [];
      if (tokens > WINDOW * COMPACT_AT) {
        push({
          type: "compaction",
          run,
          turn,
          note: `## Goal\nFix the sum.\n## Done so far\n${turn} turns; the parser is fixed.\n## Next\nRun the suite.`,
        });
        tokens = 6_000;
        fired.push("compact");
      }
      // The context layers (context/): stubs and clears as it fills, a drop now and then.
      if (tokens > WINDOW / 4 && random() < 0.2) fired.push("stub");
      if (tokens > WINDOW / 2 && random() < 0.3) fired.push("clear");
      if (tokens > WINDOW * 0.7 && random() < 0.1) fired.push("drop");
      if (fired.length > 0) tokens = Math.floor(tokens * (1 - 0.15 * fired.length));
      push({ type: "context", run, turn, tokens, fired });
      const prompt = tokens + Math.floor(random() * 400);
      push({
        type: "usage",
        run,
        turn,
        usage: {
          promptTokens: prompt,
          cachedTokens: Math.floor(prompt * 0.8),
          completionTokens: 30 + Math.floor(random() * 400),
          reasoningTokens: 0,
        },
        cost: prompt * 0.000002,
      });
    };
    let turn = 1;
    for (; turn <= TURNS_PER_RUN && size < bytes; turn++) {
      request(turn);
      const count = 1 + Math.floor(random() * 3);
      const steps = Array.from({ length: count }, (_, i) =>
        toolStep(random, `call_${run}_${turn}_${i}`),
      );
      const text =
        random() < 0.4
          ? `Turn ${turn}: the failure is in the accumulator; checking ${count} places before changing it.`
          : "";
      push({
        type: "message",
        run,
        message: {
          role: "assistant",
          content: text,
          toolCalls: steps.flatMap((step) =>
            step.call.role === "assistant" ? step.call.toolCalls : [],
          ),
        },
      });
      for (const step of steps) {
        if (step.result.role !== "tool") continue;
        push({ type: "message", run, message: step.result });
        const callId = step.result.toolCallId;
        push({ type: "tool", run, turn, callId, durationMs: 5 + random() * 3000 });
        calls += 1;
        tokens += Math.ceil(step.result.content.length / 4);
      }
    }
    request(turn);
    push({
      type: "message",
      run,
      message: {
        role: "assistant",
        content: `Fixed the sum in run ${run}; npm test passes.`,
        toolCalls: [],
      },
    });
    push({ type: "end", run, at: at(), stopReason: size < bytes ? "max_turns" : "done" });
  }
  return { transcript: lines.join("\n") + "\n", runs: run, turns, calls };
}

/** The page's Navigation Timing after its load event: what the browser itself measured. */
async function loadTimes(
  browser: Browser,
  file: string,
): Promise<{ load: number; domComplete: number }> {
  const opened = await openFile(browser, file);
  try {
    const { page } = opened;
    type Timing = { startTime: number; loadEventEnd: number; domComplete: number } | null;
    const read = () =>
      page.evaluate<Timing>(
        'JSON.parse(JSON.stringify(performance.getEntriesByType("navigation")[0] ?? null))',
      );
    await waitUntil(async () => ((await read())?.loadEventEnd ?? 0) > 0, "the load event's end");
    const timing = (await read())!;
    const problems = [...opened.problems(), ...opened.log.csp.map((v) => `CSP: ${v.directive}`)];
    if (problems.length > 0) throw new Error(`the page reported: ${problems.join("; ")}`);
    return { load: timing.loadEventEnd - timing.startTime, domComplete: timing.domComplete };
  } finally {
    await opened.close();
  }
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? 1;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const chromiumPath = findChromium();
  const browser = chromiumPath === null ? null : await launchChromium();
  out(
    `${name}: transcripts of ~${SIZES_MB.join(", ")} MB, median of ${runs} runs after ${warmup} warm-up; ` +
      (browser === null
        ? "chromium not found (apt-get install -y chromium, or CHROMIUM_PATH): the load is not measured"
        : `chromium ${browser.version()} (${chromiumPath}), headless, from file://`),
  );
  const dir = mkdtempSync(join(tmpdir(), "pitcrew-report-bench-"));
  let goal: boolean | null = null;
  try {
    for (const sizeMb of SIZES_MB) {
      const thread = syntheticThread(sizeMb * MB);
      const input = { transcript: thread.transcript, title: `Synthetic thread, ${sizeMb} MB` };
      let html = "";
      for (let i = 0; i < warmup; i++) html = renderReport(input);
      const builds: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        html = renderReport(input);
        builds.push(performance.now() - started);
      }
      const file = join(dir, `report-${sizeMb}mb.html`);
      writeFileSync(file, html);
      const head =
        `  ${String(sizeMb).padStart(2)} MB: transcript ${mb(Buffer.byteLength(thread.transcript))} ` +
        `(${plural(thread.runs, "run")}, ${plural(thread.turns, "turn")}, ${plural(thread.calls, "call")}); ` +
        `build ${ms(stats(builds).median)}; HTML ${mb(Buffer.byteLength(html))}`;
      if (browser === null) {
        out(`${head}; load not measured`);
        continue;
      }
      for (let i = 0; i < warmup; i++) await loadTimes(browser, file);
      const loads: number[] = [];
      const completes: number[] = [];
      for (let i = 0; i < runs; i++) {
        const timing = await loadTimes(browser, file);
        loads.push(timing.load);
        completes.push(timing.domComplete);
      }
      const load = stats(loads);
      const met = load.median < GOAL_LOAD_MS;
      if (sizeMb === SIZES_MB.at(-1)) goal = met;
      out(
        `${head}; load ${ms(load.median)} (min ${ms(load.min)}, max ${ms(load.max)}), ` +
          `domComplete ${ms(stats(completes).median)} — ${met ? "met" : "NOT met"} (goal < ${GOAL_LOAD_MS} ms)`,
      );
    }
  } finally {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (goal !== null)
    out(
      `  goal: the ${SIZES_MB.at(-1)} MB thread loads in under ${GOAL_LOAD_MS / 1000} s — ${goal ? "met" : "NOT met"}`,
    );
}
