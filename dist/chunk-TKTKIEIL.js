import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  BAD_OPTION,
  RUN_HELP,
  RUN_USAGE,
  RUN_WORDS,
  countOption,
  parseOptions,
  stringOption
} from "./chunk-FONUG7OL.js";
import {
  EXIT_CANCELLED,
  EXIT_FAILED,
  EXIT_USAGE
} from "./chunk-F6PWWVW3.js";
import {
  START_WORDS,
  callLine,
  callParts,
  compactionLine,
  failureLines,
  statusLine,
  terminalReport,
  toolFailureWords
} from "./chunk-7NKB6CZV.js";
import {
  DEFAULTS
} from "./chunk-5BEKAAVU.js";
import "./chunk-KBGSYLQV.js";
import "./chunk-EYJLS7SB.js";
import {
  ZERO_USAGE,
  totalTokens
} from "./chunk-RORLQNC6.js";
import {
  TODO_WRITE
} from "./chunk-6DBGH7EK.js";
import {
  sandboxChoice
} from "./chunk-P5UMHJDW.js";
import "./chunk-K5VWAPAE.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/commands/run.ts
import { userInfo } from "node:os";

// src/present/json-events.ts
var dollars = (cost) => Math.round(cost * 1e6) / 1e6;
function tokens(usage) {
  return {
    prompt: usage.promptTokens,
    cached: usage.cachedTokens,
    completion: usage.completionTokens,
    total: totalTokens(usage)
  };
}
function startEvent(start) {
  return { type: "start", ...start };
}
function turnEvent(turn, maxTurns, elapsedMs) {
  return { type: "turn", turn, max_turns: maxTurns, elapsed_ms: Math.round(elapsedMs) };
}
function toolEvent(facts) {
  const { subject, result, detail } = callParts(facts);
  const command = facts.outcome.details?.command;
  return {
    type: "tool",
    turn: facts.turn,
    max_turns: facts.maxTurns,
    elapsed_ms: Math.round(facts.elapsedMs),
    name: facts.call.name,
    subject,
    ok: !facts.outcome.isError,
    result,
    detail,
    exit_code: command === void 0 ? null : command.exitCode,
    duration_ms: Math.round(facts.durationMs),
    text: callLine(facts)
  };
}
function usageEvent(turn, totals) {
  return { type: "usage", turn, tokens: tokens(totals.usage), cost: dollars(totals.cost) };
}
function compactionEvent(turn, elapsedMs) {
  return { type: "compaction", turn, elapsed_ms: Math.round(elapsedMs) };
}
function calls(tally) {
  const counted = tally.filter((count) => count.name !== TODO_WRITE);
  return {
    total: counted.reduce((sum, count) => sum + count.calls, 0),
    failed: counted.reduce((sum, count) => sum + count.failures, 0)
  };
}
function errorOf(error) {
  if (error === void 0) return null;
  if (error instanceof PitcrewError) {
    return { code: error.code, message: error.cliMessage ?? error.message };
  }
  return { code: "unexpected", message: describeError(error) };
}
function endEvent(facts) {
  const { delivery, toolFailure } = facts;
  const outcome = toolFailure !== void 0 || facts.stopReason === "model_error" ? "failed" : facts.stopReason === "done" ? "finished" : "stopped";
  return {
    type: "end",
    outcome,
    stop_reason: facts.stopReason,
    error: toolFailure !== void 0 ? { code: "run-tools-failed", message: toolFailureWords(toolFailure) } : errorOf(facts.error),
    summary: facts.summary,
    branch: delivery.kept ? delivery.branch : null,
    commit: delivery.committed ? delivery.sha ?? null : null,
    diffstat: delivery.diffstat,
    turns: facts.totals.turns,
    tokens: tokens(facts.totals.usage),
    cost: dollars(facts.totals.cost),
    tool_calls: calls(facts.tally),
    exit_code: facts.exitCode
  };
}
function failedEvent(facts) {
  const totals = facts.totals ?? { turns: 0, usage: ZERO_USAGE, cost: 0 };
  return {
    type: "end",
    outcome: "failed",
    stop_reason: null,
    error: errorOf(facts.error),
    summary: "",
    branch: facts.keptOn ?? null,
    commit: null,
    diffstat: "",
    turns: totals.turns,
    tokens: tokens(totals.usage),
    cost: dollars(totals.cost),
    tool_calls: calls(facts.tally),
    exit_code: facts.exitCode
  };
}

// src/commands/progress.ts
var FRAMES = ["\u280B", "\u2819", "\u2839", "\u2838", "\u283C", "\u2834", "\u2826", "\u2827", "\u2807", "\u280F"];
var CLEAR = "\r\x1B[2K";
function realTimer(redraw) {
  const timer = setInterval(redraw, 100);
  timer.unref();
  return () => clearInterval(timer);
}
function createRunView(options) {
  const { mode, err, out, maxTurns } = options;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const elapsed = () => now() - started;
  const json = (event) => void out.write(`${JSON.stringify(event)}
`);
  let state;
  let shown = false;
  let frame = 0;
  let cancelTimer;
  const draw = () => {
    if (state === void 0) return;
    const text = statusLine(FRAMES[frame++ % FRAMES.length] ?? "", state, maxTurns, elapsed());
    const width = Math.max(20, (err.columns || 80) - 1);
    err.write(`${CLEAR}${[...text].slice(0, width).join("")}`);
    shown = true;
  };
  const clear = () => {
    if (shown) err.write(CLEAR);
    shown = false;
  };
  const line = (text) => {
    clear();
    err.write(`${text}
`);
    if (cancelTimer !== void 0) draw();
  };
  const stop = () => {
    cancelTimer?.();
    cancelTimer = void 0;
    state = void 0;
    clear();
  };
  let uncommitted = { files: 0, included: false };
  const log = {
    info: (message) => line(`pitcrew: ${message}`),
    warning: (message) => line(`pitcrew: WARNING: ${message}`)
  };
  return {
    log,
    uncommitted: (count, included) => {
      uncommitted = { files: count, included };
      if (included) log.info(START_WORDS.included(count));
      else log.warning(START_WORDS.leftOut(count));
    },
    started: (start) => {
      const { worktree, branch } = start;
      log.info(
        start.continued ? START_WORDS.continuing(worktree, branch) : START_WORDS.working(worktree, branch)
      );
      if (mode === "json") json(startEvent({ ...start, uncommitted }));
    },
    onEvent: (event, after) => {
      if (mode === "tty" && event.type !== "stop") {
        state = after;
        cancelTimer ??= (options.every ?? realTimer)(draw);
      }
      switch (event.type) {
        case "turn_start":
          if (mode === "json") json(turnEvent(event.turn, maxTurns, elapsed()));
          else if (mode === "tty") draw();
          break;
        case "tool_start":
          if (mode === "tty") draw();
          break;
        case "tool_end": {
          const facts = { ...event, maxTurns, elapsedMs: elapsed() };
          if (mode === "json") json(toolEvent(facts));
          else line(callLine(facts));
          break;
        }
        case "usage":
          if (mode === "json" && after.totals) json(usageEvent(event.turn, after.totals));
          else if (mode === "tty") draw();
          break;
        case "compaction":
          if (mode === "json") json(compactionEvent(event.turn, elapsed()));
          else line(compactionLine(event.turn, maxTurns, elapsed()));
          break;
        case "stop":
          stop();
          break;
        case "assistant":
        case "context":
          break;
      }
    },
    stop,
    ended: (outcome, after, thread) => {
      stop();
      if (outcome.kind === "failed") {
        err.write(failureLines(outcome.error, outcome.keptOn));
        if (mode === "json") {
          json(
            failedEvent({
              error: outcome.error,
              keptOn: outcome.keptOn,
              totals: after.totals,
              tally: after.tally,
              exitCode: outcome.exitCode
            })
          );
        }
        return;
      }
      const { result, delivery, toolFailure } = outcome;
      const facts = {
        summary: result.summary,
        stopReason: result.stopReason,
        error: result.error,
        toolFailure,
        delivery,
        totals: result
      };
      if (mode === "json") {
        json(endEvent({ ...facts, tally: after.tally, exitCode: outcome.exitCode }));
      } else out.write(terminalReport({ ...facts, thread }));
    }
  };
}

// src/commands/run-args.ts
import { statSync } from "node:fs";
var OPTIONS = {
  repo: { type: "string", example: "." },
  model: { type: "string", example: "gpt-4.1" },
  "base-url": { type: "string", example: "http://localhost:11434/v1" },
  "max-turns": { type: "string", example: "50" },
  "context-window": { type: "string", example: "128000" },
  sandbox: { type: "string", example: "auto" },
  continue: { type: "boolean" },
  "include-uncommitted": { type: "boolean" },
  json: { type: "boolean" }
};
function parseRunArgs(args, env) {
  const parsed = parseOptions(args, OPTIONS);
  if (parsed.help) return { help: true };
  const flag = (name) => parsed.values.get(name) === true;
  const task = parsed.positionals.join(" ").trim();
  const continuing = flag("continue");
  if (task === "" && !continuing) throw new PitcrewError("cli-no-task", RUN_WORDS.noTask);
  if (continuing && flag("include-uncommitted")) {
    throw new PitcrewError(BAD_OPTION, RUN_WORDS.includeWithContinue);
  }
  const maxTurns = countOption(parsed, "max-turns", "of turns", DEFAULTS.maxTurns);
  const contextWindow = countOption(parsed, "context-window", "of tokens", DEFAULTS.contextWindow);
  const sandbox = sandboxChoice(stringOption(parsed, "sandbox") ?? "auto", BAD_OPTION, "--sandbox");
  const repo = stringOption(parsed, "repo") ?? process.cwd();
  checkRepoFolder(repo);
  const apiKey = env.OPENAI_API_KEY ?? "";
  if (apiKey.trim() === "") throw new PitcrewError("cli-no-api-key", RUN_WORDS.noApiKey);
  return {
    help: false,
    args: {
      repo,
      model: stringOption(parsed, "model") ?? env.PITCREW_MODEL ?? DEFAULTS.model,
      baseUrl: stringOption(parsed, "base-url") ?? env.OPENAI_BASE_URL,
      maxTurns,
      contextWindow,
      sandbox,
      task,
      continue: continuing,
      apiKey,
      includeUncommitted: flag("include-uncommitted"),
      json: flag("json")
    }
  };
}
function checkRepoFolder(repo) {
  let isFolder;
  try {
    isFolder = statSync(repo).isDirectory();
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    throw new PitcrewError("run-no-such-folder", RUN_WORDS.noSuchRepo(repo));
  }
  if (!isFolder) throw new PitcrewError("run-not-a-folder", RUN_WORDS.repoNotAFolder(repo));
}

// src/commands/run.ts
async function runCommand(args, env = process.env) {
  let parsed;
  try {
    const read = parseRunArgs(args, env);
    if (read.help) {
      process.stdout.write(RUN_HELP);
      return 0;
    }
    parsed = read.args;
  } catch (error) {
    const usage = error instanceof PitcrewError && error.code === "cli-no-api-key" ? "" : `${RUN_USAGE}
`;
    process.stderr.write(`pitcrew run: ${describeError(error)}
${usage}`);
    return EXIT_USAGE;
  }
  const [
    { runTask },
    { localRequest },
    { worktreeWorkspace },
    { localNotes, repositoryNotes },
    { localDelivery },
    { runNamespaces },
    { localGitData }
  ] = await Promise.all([
    import("./chunk-GEW2DOM2.js"),
    import("./chunk-KL4Q4IBX.js"),
    import("./chunk-ROW7LR4M.js"),
    import("./chunk-CHZ6NHJM.js"),
    import("./chunk-YXP2UZM7.js"),
    import("./chunk-F4MTGXVK.js"),
    import("./chunk-WH7A3XIO.js")
  ]);
  let store;
  try {
    store = await repositoryNotes(parsed.repo);
  } catch (error) {
    const misused = error instanceof PitcrewError && error.code === "run-not-a-repository";
    process.stderr.write(
      `pitcrew run: ${describeError(error)}
${misused ? `${RUN_USAGE}
` : ""}`
    );
    return misused ? EXIT_USAGE : EXIT_FAILED;
  }
  const mode = parsed.json ? "json" : process.stderr.isTTY ? "tty" : "plain";
  const view = createRunView({
    mode,
    err: process.stderr,
    out: process.stdout,
    maxTurns: parsed.maxTurns
  });
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    view.log.info(START_WORDS.cancelling);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  try {
    const outcome = await runTask({
      request: localRequest(parsed),
      workspace: worktreeWorkspace(parsed.repo, {
        includeUncommitted: parsed.includeUncommitted,
        notices: view
      }),
      notes: localNotes(store, parsed.continue),
      // Memory is the repository's own pitcrew-memory branch: push it to share it with CI.
      namespaces: runNamespaces({
        git: localGitData(parsed.repo),
        author: { run: "local", thread: "local", requestedBy: userInfo().username },
        secrets: [parsed.apiKey],
        log: view.log
      }),
      delivery: localDelivery({ ...parsed, view }),
      log: view.log,
      env,
      signal: controller.signal
    });
    return outcome.exitCode;
  } finally {
    view.stop();
    process.off("SIGINT", onSigint);
  }
}
export {
  runCommand
};
