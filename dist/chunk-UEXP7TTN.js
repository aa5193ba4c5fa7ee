import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  ARGUMENT_WORDS,
  BAD_OPTION,
  countOption,
  parseOptions,
  stringOption
} from "./chunk-FONUG7OL.js";
import {
  DEFAULT_WINDOW
} from "./chunk-A3SZIK73.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/commands/context.ts
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
var EXIT_FAILED = 1;
var EXIT_USAGE = 2;
var REPLAY_POLICIES = /* @__PURE__ */ new Map([
  ["pitcrew", async () => (await import("./chunk-TR5CQ7P7.js")).pitcrewPolicy],
  ["naive", async () => (await import("./chunk-2CWG3RYI.js")).naivePolicy]
]);
var DEFAULT_REPLAY_POLICY = "pitcrew";
var CONTEXT_USAGE = `usage: pitcrew context replay [--window N] [--policy NAME] [--json] FILE...`;
function parse(args) {
  const parsed = parseOptions(args, {
    window: { type: "string", example: String(DEFAULT_WINDOW) },
    policy: { type: "string", example: DEFAULT_REPLAY_POLICY },
    json: { type: "boolean" }
  });
  const window = countOption(parsed, "window", "of tokens", DEFAULT_WINDOW);
  const name = stringOption(parsed, "policy") ?? DEFAULT_REPLAY_POLICY;
  const policy = REPLAY_POLICIES.get(name);
  if (policy === void 0) {
    throw new PitcrewError(
      BAD_OPTION,
      ARGUMENT_WORDS.oneOf("policy", [...REPLAY_POLICIES.keys()], name)
    );
  }
  if (parsed.positionals.length === 0) {
    throw new PitcrewError(
      "cli-no-files",
      "Name the recorded sessions to replay: OpenAI message arrays (.json, .jsonl) or mini-swe-agent .traj.json files."
    );
  }
  return { window, policy, json: parsed.values.get("json") === true, files: parsed.positionals };
}
async function loadSession(file, known) {
  let text;
  try {
    const bytes = await readFile(file);
    text = (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch (error) {
    const code = error.code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory, not a file" : code === "EACCES" ? "not readable (permission denied)" : code?.startsWith("Z_") ? `not gzip data (${error.message})` : error.message;
    throw new PitcrewError("replay-unreadable", `${file}: ${why}.`, { cause: error });
  }
  const { parseSession } = await import("./chunk-WS2K33PE.js");
  return parseSession(text, file, known);
}
var COLUMNS = [
  {
    title: "requests",
    width: 10,
    value: (s) => `${s.requests}${s.summary_requests > 0 ? ` +${s.summary_requests}` : ""}`
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
  { title: "compactions", width: 11, value: (s) => String(s.compactions) }
];
function formatReport(report, elapsedMs) {
  const names = [...report.files.map((file) => file.file), "total"];
  const nameWidth = Math.max(...names.map((name) => name.length));
  const row = (name, cells) => [
    name.padEnd(nameWidth),
    ...cells.map((cell, index) => cell.padStart(COLUMNS[index]?.width ?? 0))
  ].join("  ");
  const lines = [
    `policy ${report.policy}, window ${report.window.toLocaleString("en-US")} tokens, counted with ${report.tokenizer}; ratios are policy / naive, cost is input cost with cached reads at 0.1\xD7 and 0.25\xD7`,
    "",
    row(
      "file",
      COLUMNS.map((column) => column.title)
    ),
    ...report.files.map(
      (file) => row(
        file.file,
        COLUMNS.map((column) => column.value(file))
      )
    ),
    row(
      "total",
      COLUMNS.map((column) => column.value(report.total))
    ),
    "",
    formatUncached(report.total),
    "",
    ...formatDistribution(report),
    "",
    `${report.files.length} file${report.files.length === 1 ? "" : "s"}, ${report.total.requests} requests replayed in ${(elapsedMs / 1e3).toFixed(1)} s`
  ];
  return `${lines.join("\n")}
`;
}
var SPREAD_ROWS = [
  { title: "tokens", figure: "tokens_ratio", format: (v) => v.toFixed(3) },
  { title: "cache gap (points)", figure: "cache_hit_gap", format: (v) => (v * 100).toFixed(1) },
  { title: "cost@0.1", figure: "cost_ratio_r01", format: (v) => v.toFixed(3) },
  { title: "cost@0.25", figure: "cost_ratio_r025", format: (v) => v.toFixed(3) },
  { title: "cost@0.1, layers", figure: "layers_cost_ratio_r01", format: (v) => v.toFixed(3) },
  { title: "edits (% of sent)", figure: "uncached_edits", format: (v) => (v * 100).toFixed(1) },
  { title: "over", figure: "over_window", format: (v) => String(Math.round(v)) }
];
var percent = (share) => `${(share * 100).toFixed(1)}%`;
function formatUncached(total) {
  const { uncached: u, naive_uncached: n } = total;
  return `uncached, as shares of what was sent: new messages ${percent(u.new_messages)}, the provider's rounding ${percent(u.rounding)}, reminders ${percent(u.reminders)}, the layers' edits ${percent(u.edits)} (naive: new messages ${percent(n.new_messages)}, rounding ${percent(n.rounding)})`;
}
function formatDistribution(report) {
  const { distribution: d, total } = report;
  const columns = ["min", "median", "p90", "max", "pooled"];
  const width = Math.max(...SPREAD_ROWS.map((r) => r.title.length));
  const line = (title, cells) => [title.padEnd(width), ...cells.map((cell) => cell.padStart(7))].join("  ");
  const pooled = (figure) => figure === "uncached_edits" ? total.uncached.edits : total[figure];
  return [
    `per session (${d.sessions}): ${d.costlier_than_naive} costlier than naive at 0.1\xD7, ${d.layers_costlier_than_naive} without the reminders' tokens (the layers alone):`,
    line("", columns),
    ...SPREAD_ROWS.map(
      (r) => line(r.title, [
        ...["min", "median", "p90", "max"].map((q) => r.format(d[r.figure][q])),
        r.format(pooled(r.figure))
      ])
    )
  ];
}
async function replayCommand(args, io) {
  if (args.includes("--help") || args.includes("-h")) {
    io.out.write(`${CONTEXT_USAGE}
`);
    return 0;
  }
  let parsed;
  try {
    parsed = parse(args);
  } catch (error) {
    io.err.write(`pitcrew context replay: ${describeError(error)}
${CONTEXT_USAGE}
`);
    return EXIT_USAGE;
  }
  const started = performance.now();
  let report;
  try {
    const sessions = [];
    const [{ toolDefinitions }, { replaySessions }, policy] = await Promise.all([
      import("./chunk-W5MUSFMG.js"),
      import("./chunk-TV2V3LK6.js"),
      parsed.policy()
    ]);
    const known = toolDefinitions();
    for (const file of parsed.files) sessions.push(await loadSession(file, known));
    report = await replaySessions(sessions, policy, parsed.window);
  } catch (error) {
    io.err.write(`pitcrew context replay: ${describeError(error)}
`);
    return EXIT_FAILED;
  }
  if (parsed.json) io.out.write(`${JSON.stringify(report, null, 2)}
`);
  else io.out.write(formatReport(report, performance.now() - started));
  return 0;
}
async function contextCommand(args, io = { out: process.stdout, err: process.stderr }) {
  const [subcommand, ...rest] = args;
  if (subcommand === "replay") return replayCommand(rest, io);
  if (subcommand === "--help" || subcommand === "-h" || subcommand === "help") {
    io.out.write(`${CONTEXT_USAGE}
`);
    return 0;
  }
  io.err.write(
    `pitcrew context: ${subcommand === void 0 ? "name a subcommand" : `unknown subcommand '${subcommand}'`}
${CONTEXT_USAGE}
`
  );
  return EXIT_USAGE;
}

export {
  EXIT_FAILED,
  EXIT_USAGE,
  REPLAY_POLICIES,
  DEFAULT_REPLAY_POLICY,
  CONTEXT_USAGE,
  loadSession,
  formatReport,
  contextCommand
};
