/**
 * `pitcrew context`: tools for the context layers. `replay` runs recorded sessions through a
 * context policy request by request and prints what it would have sent and cost against the naive
 * baseline: a table per file and in total, or one JSON object with --json.
 */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { PitcrewError, describeError } from "../errors.ts";
import type { ToolDefinition } from "../domain/tools.ts";
import type { RecordedSession } from "../context/replay/parse.ts";
import { DEFAULT_WINDOW } from "../context/replay/policy.ts";
import type { PolicyFactory } from "../context/replay/policy.ts";
import type { Distribution, ReplayReport, ReplayStats } from "../context/replay/replay.ts";
import { ARGUMENT_WORDS } from "../present/usage.ts";
import { BAD_OPTION, countOption, parseOptions, stringOption } from "./args.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Where the command writes: the process's stdout and stderr, or a test's collectors. */
export interface CommandOutput {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

/**
 * The policies `--policy` names, each loaded when asked for: the replay's machinery (the exact
 * tokenizer, the agent's tool definitions) loads only once the arguments are good.
 */
export const REPLAY_POLICIES: ReadonlyMap<string, () => Promise<PolicyFactory>> = new Map([
  ["pitcrew", async () => (await import("../context/replay/pitcrew-policy.ts")).pitcrewPolicy],
  ["naive", async () => (await import("../context/replay/policy.ts")).naivePolicy],
]);

export const DEFAULT_REPLAY_POLICY = "pitcrew";

export const CONTEXT_USAGE = `usage: pitcrew context replay [--window N] [--policy NAME] [--json] FILE...`;

interface ReplayArgs {
  window: number;
  policy: () => Promise<PolicyFactory>;
  json: boolean;
  files: string[];
}

function parse(args: string[]): ReplayArgs {
  const parsed = parseOptions(args, {
    window: { type: "string", example: String(DEFAULT_WINDOW) },
    policy: { type: "string", example: DEFAULT_REPLAY_POLICY },
    json: { type: "boolean" },
  });
  const window = countOption(parsed, "window", "of tokens", DEFAULT_WINDOW);
  const name = stringOption(parsed, "policy") ?? DEFAULT_REPLAY_POLICY;
  const policy = REPLAY_POLICIES.get(name);
  if (policy === undefined) {
    throw new PitcrewError(
      BAD_OPTION,
      ARGUMENT_WORDS.oneOf("policy", [...REPLAY_POLICIES.keys()], name),
    );
  }
  if (parsed.positionals.length === 0) {
    throw new PitcrewError(
      "cli-no-files",
      "Name the recorded sessions to replay: OpenAI message arrays (.json, .jsonl) or mini-swe-agent .traj.json files.",
    );
  }
  return { window, policy, json: parsed.values.get("json") === true, files: parsed.positionals };
}

/**
 * A recorded session from a file: the reading is the command's (context/ does no I/O), the
 * parsing `parseSession`'s. A name ending in `.gz` is gunzipped first. A file that cannot be read
 * (or unzipped) is `replay-unreadable`, saying why.
 */
export async function loadSession(
  file: string,
  known: readonly ToolDefinition[],
): Promise<RecordedSession> {
  let text: string;
  try {
    const bytes = await readFile(file);
    text = (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "a directory, not a file"
          : code === "EACCES"
            ? "not readable (permission denied)"
            : code?.startsWith("Z_")
              ? `not gzip data (${(error as Error).message})`
              : (error as Error).message;
    throw new PitcrewError("replay-unreadable", `${file}: ${why}.`, { cause: error });
  }
  const { parseSession } = await import("../context/replay/parse.ts");
  return parseSession(text, file, known);
}

const COLUMNS: { title: string; width: number; value: (stats: ReplayStats) => string }[] = [
  {
    title: "requests",
    width: 10,
    value: (s) => `${s.requests}${s.summary_requests > 0 ? ` +${s.summary_requests}` : ""}`,
  },
  { title: "sent", width: 11, value: (s) => s.tokens_sent.toLocaleString("en-US") },
  { title: "naive", width: 11, value: (s) => s.naive_tokens_sent.toLocaleString("en-US") },
  { title: "tokens", width: 6, value: (s) => s.tokens_ratio.toFixed(3) },
  { title: "cache", width: 5, value: (s) => s.cache_hit_ratio.toFixed(3) },
  { title: "naive cache", width: 11, value: (s) => s.naive_cache_hit_ratio.toFixed(3) },
  { title: "cost@0.1", width: 8, value: (s) => s.cost_ratio_r01.toFixed(3) },
  { title: "cost@0.25", width: 9, value: (s) => s.cost_ratio_r025.toFixed(3) },
  { title: "peak", width: 7, value: (s) => s.peak_tokens.toLocaleString("en-US") },
  { title: "over", width: 4, value: (s) => String(s.over_window) },
  { title: "compactions", width: 11, value: (s) => String(s.compactions) },
];

/**
 * The human table: one row per file, then the total. Ratios are policy / naive; "+N" after the
 * requests counts the summary calls of compactions (their tokens are in "sent").
 */
export function formatReport(report: ReplayReport, elapsedMs: number): string {
  const names = [...report.files.map((file) => file.file), "total"];
  const nameWidth = Math.max(...names.map((name) => name.length));
  const row = (name: string, cells: string[]): string =>
    [
      name.padEnd(nameWidth),
      ...cells.map((cell, index) => cell.padStart(COLUMNS[index]?.width ?? 0)),
    ].join("  ");
  const lines = [
    `policy ${report.policy}, window ${report.window.toLocaleString("en-US")} tokens, counted with ${report.tokenizer}; ratios are policy / naive, cost is input cost with cached reads at 0.1× and 0.25×`,
    "",
    row(
      "file",
      COLUMNS.map((column) => column.title),
    ),
    ...report.files.map((file) =>
      row(
        file.file,
        COLUMNS.map((column) => column.value(file)),
      ),
    ),
    row(
      "total",
      COLUMNS.map((column) => column.value(report.total)),
    ),
    "",
    formatUncached(report.total),
    "",
    ...formatDistribution(report),
    "",
    `${report.files.length} file${report.files.length === 1 ? "" : "s"}, ${report.total.requests} requests replayed in ${(elapsedMs / 1000).toFixed(1)} s`,
  ];
  return `${lines.join("\n")}\n`;
}

const SPREAD_ROWS: {
  title: string;
  figure: keyof Omit<
    Distribution,
    "sessions" | "costlier_than_naive" | "layers_costlier_than_naive"
  >;
  format: (value: number) => string;
}[] = [
  { title: "tokens", figure: "tokens_ratio", format: (v) => v.toFixed(3) },
  { title: "cache gap (points)", figure: "cache_hit_gap", format: (v) => (v * 100).toFixed(1) },
  { title: "cost@0.1", figure: "cost_ratio_r01", format: (v) => v.toFixed(3) },
  { title: "cost@0.25", figure: "cost_ratio_r025", format: (v) => v.toFixed(3) },
  { title: "cost@0.1, layers", figure: "layers_cost_ratio_r01", format: (v) => v.toFixed(3) },
  { title: "edits (% of sent)", figure: "uncached_edits", format: (v) => (v * 100).toFixed(1) },
  { title: "over", figure: "over_window", format: (v) => String(Math.round(v)) },
];

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

/**
 * What was sent uncached and why, pooled: the new messages no policy can have cached, the
 * provider's rounding, the reminders, and what the layers' edits made the provider read again.
 */
function formatUncached(total: ReplayStats): string {
  const { uncached: u, naive_uncached: n } = total;
  return `uncached, as shares of what was sent: new messages ${percent(u.new_messages)}, the provider's rounding ${percent(u.rounding)}, reminders ${percent(u.reminders)}, the layers' edits ${percent(u.edits)} (naive: new messages ${percent(n.new_messages)}, rounding ${percent(n.rounding)})`;
}

/**
 * The same figures per session, beside the pooled total: a pooled figure can hide the session
 * that fails. The cache gap is naive's cache-hit ratio less the policy's, in points.
 */
function formatDistribution(report: ReplayReport): string[] {
  const { distribution: d, total } = report;
  const columns = ["min", "median", "p90", "max", "pooled"];
  const width = Math.max(...SPREAD_ROWS.map((r) => r.title.length));
  const line = (title: string, cells: string[]): string =>
    [title.padEnd(width), ...cells.map((cell) => cell.padStart(7))].join("  ");
  const pooled = (figure: (typeof SPREAD_ROWS)[number]["figure"]): number =>
    figure === "uncached_edits" ? total.uncached.edits : total[figure];
  return [
    `per session (${d.sessions}): ${d.costlier_than_naive} costlier than naive at 0.1×, ${d.layers_costlier_than_naive} without the reminders' tokens (the layers alone):`,
    line("", columns),
    ...SPREAD_ROWS.map((r) =>
      line(r.title, [
        ...(["min", "median", "p90", "max"] as const).map((q) => r.format(d[r.figure][q])),
        r.format(pooled(r.figure)),
      ]),
    ),
  ];
}

async function replayCommand(args: string[], io: CommandOutput): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.out.write(`${CONTEXT_USAGE}\n`);
    return 0;
  }
  let parsed: ReplayArgs;
  try {
    parsed = parse(args);
  } catch (error) {
    io.err.write(`pitcrew context replay: ${describeError(error)}\n${CONTEXT_USAGE}\n`);
    return EXIT_USAGE;
  }
  const started = performance.now();
  let report: ReplayReport;
  try {
    const sessions: RecordedSession[] = [];
    const [{ toolDefinitions }, { replaySessions }, policy] = await Promise.all([
      import("../agent/tools/index.ts"),
      import("../context/replay/replay.ts"),
      parsed.policy(),
    ]);
    const known = toolDefinitions();
    for (const file of parsed.files) sessions.push(await loadSession(file, known));
    report = await replaySessions(sessions, policy, parsed.window);
  } catch (error) {
    io.err.write(`pitcrew context replay: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }
  if (parsed.json) io.out.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.out.write(formatReport(report, performance.now() - started));
  return 0;
}

export async function contextCommand(
  args: string[],
  io: CommandOutput = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "replay") return replayCommand(rest, io);
  if (subcommand === "--help" || subcommand === "-h" || subcommand === "help") {
    io.out.write(`${CONTEXT_USAGE}\n`);
    return 0;
  }
  io.err.write(
    `pitcrew context: ${subcommand === undefined ? "name a subcommand" : `unknown subcommand '${subcommand}'`}\n${CONTEXT_USAGE}\n`,
  );
  return EXIT_USAGE;
}
