/**
 * A failed job's log cut to what a model can act on: the error lines the per-tool rules find
 * (rules.ts), each with the lines around it, under the header of the step that printed it, repeats
 * left out, within a token budget that always keeps the first error; the failing tests (the JUnit
 * reports' first, the console's otherwise); and the first error line. When no rule matches, the
 * end of the failed step. Pure: a read log (log.ts) in, an Excerpt out.
 */
import { estimateText } from "../context/tokens.ts";
import type { Excerpt } from "../domain/ci.ts";
import { readJunit } from "./junit.ts";
import { readJobLog, silenceBefore } from "./log.ts";
import type { JobLog } from "./log.ts";
import { matchLine, RULE_WORDS } from "./rules.ts";
import type { MatchOptions } from "./rules.ts";

/** What one excerpt may cost the prompt. */
export const DEFAULT_MAX_TOKENS = 8000;

/** Lines kept before and after an error line, by its rule's weight. */
const CONTEXT: Record<number, { before: number; after: number }> = {
  1: { before: 1, after: 2 },
  2: { before: 2, after: 8 },
  3: { before: 3, after: 12 },
};
/** Error lines taken at most, per weight class: a log of thousands of failures is summed up by its first ones. */
const MAX_ERRORS = 200;
/** The end of the failed step shown when no rule matched. */
const TAIL_LINES = 60;
/** A silence this long before a line is a hang worth saying (a timeout's cause). */
const HANG_MS = 10 * 60_000;
/** A line longer than this is cut in the excerpt (a 5,000-character compiler command line). */
const LINE_CHARS = 500;

/** How the excerpt asks the rules about the lines `JobLog.linesWith` found: any match, or heavy ones. */
const ANY: MatchOptions = { lightest: 1, screened: true };
const HEAVY: MatchOptions = { lightest: 2, screened: true };

export interface ExcerptOptions {
  maxTokens?: number;
  /** JUnit reports of the run (file → XML); unreadable ones are skipped. */
  reports?: Record<string, string>;
}

interface Block {
  start: number;
  end: number;
  weight: number;
  /** Where the block's first error line is, so it is kept when the block is cut. */
  anchor: number;
}

function shown(line: string): string {
  return line.length > LINE_CHARS
    ? `${line.slice(0, LINE_CHARS)}… (${line.length} characters)`
    : line;
}

/** A line as repeats compare: digits and hex runs read alike. */
function shape(line: string): string {
  return line.replace(/0x[0-9a-f]+|\d+/gi, "0").trim();
}

function failingFromReports(reports: Record<string, string>): { tests: string[]; first?: string } {
  const tests: string[] = [];
  let first: string | undefined;
  for (const [file, xml] of Object.entries(reports)) {
    try {
      const report = readJunit(xml, file);
      for (const failing of report.failing) {
        tests.push(failing.id);
        first ??= failing.message === "" ? undefined : failing.message;
      }
    } catch {
      // Another artifact's XML: the log still speaks for the job.
    }
  }
  return { tests, first };
}

/** The blocks around the error lines, merged where they touch, in log order. */
function blocksOf(log: JobLog, errors: readonly { index: number; weight: number }[]): Block[] {
  const blocks: Block[] = [];
  for (const { index, weight } of errors) {
    const context = CONTEXT[weight]!;
    const step = log.steps[log.stepOf[index]!]!;
    const start = Math.max(step.start, index - context.before);
    const end = Math.min(step.end, index + context.after + 1);
    const last = blocks.at(-1);
    if (last !== undefined && start <= last.end && log.stepOf[last.start] === log.stepOf[start]) {
      last.end = Math.max(last.end, end);
      last.weight = Math.max(last.weight, weight);
    } else {
      blocks.push({ start, end, weight, anchor: index });
    }
  }
  return blocks;
}

/** A block's text: repeated shapes (after two of each) left out and counted. */
function blockLines(log: JobLog, block: Block, seen: Map<string, number>): string[] {
  const lines: string[] = [];
  let skipped = 0;
  for (let index = block.start; index < block.end; index++) {
    const line = log.line(index);
    const key = shape(line);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count > 2 && key !== "") {
      skipped++;
      continue;
    }
    const silence = silenceBefore(log, index);
    if (silence >= HANG_MS)
      lines.push(`… nothing was written for ${Math.round(silence / 60_000)} min before this line`);
    lines.push(shown(line));
  }
  if (skipped > 0) lines.push(`… ${skipped} repeated line(s) left out`);
  return lines;
}

export function excerptLog(log: JobLog, options: ExcerptOptions = {}): Excerpt {
  const budget = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const heavy: { index: number; weight: number }[] = [];
  const light: { index: number; weight: number }[] = [];
  const consoleTests: string[] = [];
  let firstIndex = -1;
  let firstWeight = 0;
  for (const index of log.linesWith(RULE_WORDS)) {
    // Once the light lines kept are all there will be, a light line counts only for its test.
    const full = light.length >= MAX_ERRORS && firstWeight >= 1;
    const match = matchLine(log.line(index), full ? HEAVY : ANY);
    if (match === undefined) continue;
    if (match.test !== undefined) consoleTests.push(match.test);
    if (match.weight > firstWeight) {
      firstWeight = match.weight;
      firstIndex = index;
    }
    const kept = match.weight >= 2 ? heavy : light;
    if (kept.length < MAX_ERRORS) kept.push({ index, weight: match.weight });
  }
  // Light markers can flood a log ("finished without error: 0"); they never crowd out the heavy
  // lines, and the first error is always among those kept.
  const errors = [...heavy, ...light];
  if (firstIndex !== -1 && !errors.some((error) => error.index === firstIndex)) {
    errors.push({ index: firstIndex, weight: firstWeight });
  }
  errors.sort((a, b) => a.index - b.index);
  const reported = failingFromReports(options.reports ?? {});
  const failingTests = [...new Set(reported.tests.length > 0 ? reported.tests : consoleTests)];
  const firstError = firstIndex === -1 ? (reported.first ?? null) : log.line(firstIndex).trim();

  let blocks: Block[];
  if (errors.length === 0) {
    const failed = [...log.steps].reverse().find((step) => step.failed) ?? log.steps.at(-1);
    blocks =
      failed === undefined
        ? []
        : [
            {
              start: Math.max(failed.start, failed.end - TAIL_LINES),
              end: failed.end,
              weight: 1,
              anchor: failed.end - 1,
            },
          ];
  } else {
    blocks = blocksOf(log, errors);
  }

  // The first error's block first, then the heaviest, then in log order, while the budget lasts;
  // shown in log order under their steps' headers.
  const order = [...blocks.keys()].sort((a, b) => {
    const x = blocks[a]!;
    const y = blocks[b]!;
    const first = (block: Block) => (firstIndex >= block.start && firstIndex < block.end ? 1 : 0);
    return first(y) - first(x) || y.weight - x.weight || x.start - y.start;
  });
  const seen = new Map<string, number>();
  const chosen = new Map<number, string[]>();
  let spent = 0;
  let left = 0;
  for (const at of order) {
    const block = blocks[at]!;
    let lines = blockLines(log, block, seen);
    let cost = estimateText(lines.join("\n")) + 10;
    if (spent + cost > budget) {
      if (chosen.size > 0) {
        left++;
        continue;
      }
      // The first error's block alone is too big: keep its error line and what follows it.
      const from = Math.max(0, block.anchor - block.start);
      lines = lines.slice(from);
      while (lines.length > 1 && estimateText(lines.join("\n")) + 10 > budget) lines.pop();
      cost = estimateText(lines.join("\n")) + 10;
    }
    chosen.set(at, lines);
    spent += cost;
  }
  const parts: string[] = [];
  let step = -1;
  for (const [at, block] of blocks.entries()) {
    const lines = chosen.get(at);
    if (lines === undefined) continue;
    const stepIndex = log.stepOf[block.start] ?? -1;
    if (stepIndex !== step) {
      const name = log.steps[stepIndex]?.name ?? "";
      if (name !== "") parts.push(`##[group]${name}`);
      else if (parts.length > 0) parts.push("…");
      step = stepIndex;
    } else {
      parts.push("…");
    }
    parts.push(...lines);
  }
  if (left > 0)
    parts.push(`… ${left} more error block(s) left out to stay within ${budget} tokens`);
  return { excerpt: parts.join("\n"), failingTests, firstError };
}

/** The same for any saved console output or log text. */
export function excerptText(text: string, options: ExcerptOptions = {}): Excerpt {
  return excerptLog(readJobLog(text), options);
}
