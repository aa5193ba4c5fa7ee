import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { Message } from "../../src/domain/messages.ts";
import { HEAD, bashRound } from "../support/history.ts";
import { contextCommand, loadSession } from "../../src/commands/context.ts";
import { PitcrewError } from "../../src/errors.ts";
import { toolDefinitions } from "../../src/agent/tools/index.ts";
import { parseSession } from "../../src/context/replay/parse.ts";
import type { RecordedSession } from "../../src/context/replay/parse.ts";
import {
  STAND_IN_SUMMARY,
  STAND_IN_SUMMARY_TOKENS,
  naivePolicy,
} from "../../src/context/replay/policy.ts";
import type { ReplayPolicy } from "../../src/context/replay/policy.ts";
import { pitcrewPolicy } from "../../src/context/replay/pitcrew-policy.ts";
import { replayReminder } from "../../src/context/replay/reminder.ts";
import { WHOLE_REMINDER, reminderText } from "../../src/context/reminder.ts";
import {
  TokenCounter,
  cachedTokens,
  commonPrefixTokens,
  countText,
  pairingProblem,
  replaySession,
  replaySessions,
  statsOf,
} from "../../src/context/replay/replay.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");

/** Exactly n o200k tokens: every " hello" after the first word is one token. */
function words(n: number): string {
  return `hello${" hello".repeat(n - 1)}`;
}

function session(history: Message[]): RecordedSession {
  return { file: "toy", format: "openai-messages", history, tools: [] };
}

function call(id: string): Message {
  return { role: "assistant", content: "hello", toolCalls: [{ id, name: "t", arguments: "{}" }] };
}

function result(id: string, size: number): Message {
  return { role: "tool", toolCallId: id, name: "t", content: words(size), isError: false };
}

/**
 * The toy session. Tokens per message (text + 4 framing): system 1104, task 104, each assistant
 * 8 ("hello\nt {}" is 4 tokens), each result 504. Requests are made before messages 2, 4, 6, 8.
 */
const TOY: Message[] = [
  { role: "system", content: words(1100) },
  { role: "user", content: words(100) },
  call("c1"),
  result("c1", 500),
  call("c2"),
  result("c2", 500),
  call("c3"),
  result("c3", 500),
  { role: "assistant", content: "done", toolCalls: [] },
];

/** Results the model has moved past (an assistant message follows them) are sent as "gone". */
function goneAfterUse(): ReplayPolicy {
  return {
    name: "gone",
    view: (history) => {
      const last = history.findLastIndex((message) => message.role === "assistant");
      return {
        messages: history.map((message, index) =>
          message.role === "tool" && index < last ? { ...message, content: "gone" } : message,
        ),
      };
    },
  };
}

describe("token counting", () => {
  test("o200k counts, the message framing, and the stand-in summary's fixed size", () => {
    assert.equal(countText(words(1000)), 1000);
    assert.equal(countText("gone"), 1);
    assert.equal(countText("a <|endoftext|> b") > 3, true, "special-token text counts as text");
    const counter = new TokenCounter();
    assert.equal(counter.segment(TOY[0]!).tokens, 1104);
    assert.equal(counter.segment(TOY[2]!).tokens, 8);
    assert.equal(counter.segment(TOY[3]!).tokens, 504);
    assert.equal(countText(STAND_IN_SUMMARY), STAND_IN_SUMMARY_TOKENS);
  });

  test("memoised per message object and per text", () => {
    const counter = new TokenCounter();
    const message = TOY[3]!;
    assert.equal(counter.segment(message), counter.segment(message));
    assert.equal(counter.segment({ ...message }).tokens, 504);
  });
});

describe("the cache rule", () => {
  test("from 1024 tokens on, in steps of 128", () => {
    assert.equal(cachedTokens(0), 0);
    assert.equal(cachedTokens(1023), 0);
    assert.equal(cachedTokens(1024), 1024);
    assert.equal(cachedTokens(1151), 1024);
    assert.equal(cachedTokens(1152), 1152);
    assert.equal(cachedTokens(5000), 4992);
  });

  test("the common prefix counts equal messages whole, then the shared start of the first change", () => {
    const counter = new TokenCounter();
    const head = [TOY[0]!, TOY[1]!].map((message) => counter.segment(message));
    const a = counter.segment({ role: "user", content: words(10) });
    const b = counter.segment({ role: "user", content: `${words(6)} bye` });
    const c = counter.segment({ role: "assistant", content: words(10), toolCalls: [] });
    assert.equal(commonPrefixTokens([...head, a], [...head, a]), 1208 + 14);
    // Same role: the 3 framing tokens before the text, then "hello" × 6.
    assert.equal(commonPrefixTokens([...head, a], [...head, b]), 1208 + 3 + 6);
    // Another role: only <|im_start|> is shared.
    assert.equal(commonPrefixTokens([...head, a], [...head, c]), 1208 + 1);
    // A request that is a prefix of the other.
    assert.equal(commonPrefixTokens(head, [...head, a]), 1208);
  });
});

describe("replay", () => {
  test("naive against itself: every ratio exactly 1", async () => {
    const replay = await replaySession(session(TOY), naivePolicy(), 128_000);
    const stats = statsOf(replay.policy, replay.naive);
    assert.equal(stats.requests, 4);
    assert.equal(stats.tokens_ratio, 1);
    assert.equal(stats.cost_ratio_r01, 1);
    assert.equal(stats.cost_ratio_r025, 1);
    assert.equal(stats.cache_hit_ratio, stats.naive_cache_hit_ratio);
    assert.equal(stats.compactions, 0);
  });

  test("naive numbers, by hand", async () => {
    const replay = await replaySession(session(TOY), naivePolicy(), 128_000);
    // Requests: 1208; +8+504 = 1720; 2232; 2744. Cached: the previous request, rounded to 128.
    assert.deepEqual(
      replay.naiveRecords.map(({ turn, tokens, cached }) => ({ turn, tokens, cached })),
      [
        { turn: 2, tokens: 1208, cached: 0 },
        { turn: 4, tokens: 1720, cached: 1152 },
        { turn: 6, tokens: 2232, cached: 1664 },
        { turn: 8, tokens: 2744, cached: 2176 },
      ],
    );
    const stats = statsOf(replay.policy, replay.naive);
    assert.equal(stats.naive_tokens_sent, 7904);
    assert.equal(stats.naive_cached_tokens, 4992);
    assert.equal(stats.naive_cache_hit_ratio, 4992 / 7904);
    assert.equal(stats.naive_cost_r01, 2912 + 0.1 * 4992);
    assert.equal(stats.naive_cost_r025, 2912 + 0.25 * 4992);
    assert.equal(stats.naive_peak_tokens, 2744);
    // Uncached: the first request whole (new), then each request's new round (8 + 504) and the
    // 56 tokens its cached prefix lost to the 128-token steps. Naive edits nothing.
    assert.deepEqual(stats.naive_uncached, {
      new_messages: (1208 + 3 * 512) / 7904,
      rounding: (3 * 56) / 7904,
      reminders: 0,
      edits: 0,
    });
    assert.deepEqual(stats.uncached, stats.naive_uncached, "naive against itself");
  });

  test("a toy policy that drops results once used gives the numbers computed by hand", async () => {
    const replay = await replaySession(session(TOY), goneAfterUse(), 128_000);
    // R3 = 1208 + 8 + 5 ("gone" + framing) + 8 + 504 = 1733; its prefix with R2 is 1208 + 8 and
    // the framing of the changed result (3) = 1219 → 1152. R4 = 1746, prefix 1232 → 1152.
    assert.deepEqual(
      replay.records.map(({ tokens, cached }) => ({ tokens, cached })),
      [
        { tokens: 1208, cached: 0 },
        { tokens: 1720, cached: 1152 },
        { tokens: 1733, cached: 1152 },
        { tokens: 1746, cached: 1152 },
      ],
    );
    const stats = statsOf(replay.policy, replay.naive);
    assert.equal(stats.tokens_sent, 6407);
    assert.equal(stats.cached_tokens, 3456);
    assert.equal(stats.tokens_ratio, 6407 / 7904);
    assert.equal(stats.cache_hit_ratio, 3456 / 6407);
    assert.equal(stats.cost_ratio_r01, (2951 + 345.6) / (2912 + 499.2));
    assert.equal(stats.cost_ratio_r025, (2951 + 864) / (2912 + 1248));
    assert.equal(stats.peak_tokens, 1746);
    // Uncached 2951: new 1208 + 3 × 512; rounding 56, 1219 − 1152 and 1232 − 1152; the two
    // "gone" results' text, 2 tokens (their framing is in the shared prefix), are the edits.
    assert.deepEqual(stats.uncached, {
      new_messages: 2744 / 6407,
      rounding: (56 + 67 + 80) / 6407,
      reminders: 0,
      edits: 4 / 6407,
    });
    const { new_messages, rounding, reminders, edits } = stats.uncached;
    assert.ok(
      Math.abs(new_messages + rounding + reminders + edits - (1 - stats.cache_hit_ratio)) < 1e-12,
    );
  });

  test("a new result the view sends cut is still new, not an edit", async () => {
    const cutEveryResult: ReplayPolicy = {
      name: "cut",
      view: (history) => ({
        messages: history.map((message) =>
          message.role === "tool" ? { ...message, content: "cut" } : message,
        ),
      }),
    };
    const replay = await replaySession(session(TOY), cutEveryResult, 128_000);
    const stats = statsOf(replay.policy, replay.naive);
    assert.equal(stats.uncached.edits, 0);
    assert.ok(stats.uncached.new_messages > 0);
  });

  test("over_window counts the requests whose view is larger than the window", async () => {
    const at = async (window: number) => {
      const replay = await replaySession(session(TOY), goneAfterUse(), window);
      return statsOf(replay.policy, replay.naive);
    };
    assert.equal((await at(2000)).over_window, 0);
    assert.equal((await at(2000)).naive_over_window, 2);
    assert.equal((await at(1733)).over_window, 1, "a view of exactly the window fits");
    assert.equal((await at(1208)).over_window, 3);
    assert.equal((await at(1207)).naive_over_window, 4);
  });

  test("a compaction is counted, and its summary call is a request of its own", async () => {
    const note: Message = { role: "user", content: STAND_IN_SUMMARY };
    let compactedAt = -1;
    const compacting: ReplayPolicy = {
      name: "compact-once",
      view: (history) => {
        if (compactedAt < 0 && history.length >= 6) {
          compactedAt = history.length;
          return {
            messages: [history[0]!, history[1]!, note],
            compacted: true,
            summaryRequest: [...history, { role: "user", content: "summarise" }],
          };
        }
        if (compactedAt < 0) return { messages: [...history] };
        return { messages: [history[0]!, history[1]!, note, ...history.slice(compactedAt)] };
      },
    };
    const replay = await replaySession(session(TOY), compacting, 128_000);
    const stats = statsOf(replay.policy, replay.naive);
    assert.equal(stats.compactions, 1);
    assert.equal(stats.requests, 4);
    assert.equal(stats.summary_requests, 1);
    // The summary call: the naive request 3 (2232) plus "summarise" (3 + 4): cached like naive.
    // Then the compacted view: 1208 + the note (2004), sharing 1208 + 1 with the summary call.
    // Then the view after: + call c3 and its result (512), sharing all of the previous request.
    assert.deepEqual(
      replay.records.map(({ kind, tokens, cached }) => ({ kind, tokens, cached })),
      [
        { kind: "turn", tokens: 1208, cached: 0 },
        { kind: "turn", tokens: 1720, cached: 1152 },
        { kind: "summary", tokens: 2239, cached: 1664 },
        { kind: "turn", tokens: 3212, cached: 1152 },
        { kind: "turn", tokens: 3724, cached: 3200 },
      ],
    );
    assert.equal(stats.tokens_sent, 1208 + 1720 + 2239 + 3212 + 3724);
  });

  test("a view that breaks tool-call pairing is refused with a named error", async () => {
    const dropping: ReplayPolicy = {
      name: "drops-results",
      view: (history) => ({ messages: history.filter((message) => message.role !== "tool") }),
    };
    await assert.rejects(
      replaySession(session(TOY), dropping, 128_000),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "replay-bad-view" &&
        /policy drops-results, request 3/.test(error.message),
    );
    assert.equal(pairingProblem(TOY), undefined);
    assert.match(pairingProblem([TOY[1]!, TOY[3]!]) ?? "", /answers tool call 'c1'/);
  });

  test("totals add the files up and take the ratios from the sums", async () => {
    const report = await replaySessions([session(TOY), session(TOY)], goneAfterUse, 2000);
    assert.equal(report.policy, "gone");
    assert.equal(report.files.length, 2);
    assert.equal(report.total.requests, 8);
    assert.equal(report.total.tokens_sent, 2 * 6407);
    assert.equal(report.total.tokens_ratio, 6407 / 7904);
    assert.equal(report.total.naive_over_window, 4);
    assert.equal(report.total.peak_tokens, 1746);
  });
});

const OPENAI: unknown[] = [
  { role: "developer", content: "be brief" },
  {
    role: "user",
    content: [
      { type: "text", text: "fix " },
      { type: "text", text: "it" },
    ],
  },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "a", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
      { id: "b", type: "function", function: { name: "read", arguments: '{"path":"x"}' } },
    ],
  },
  { role: "tool", tool_call_id: "a", content: "x\n" },
  { role: "tool", tool_call_id: "b", content: "hi" },
  { role: "assistant", content: "done" },
];

function trajectory(messages: unknown[], format = "mini-swe-agent-1"): string {
  return JSON.stringify({ instance_id: "toy", trajectory_format: format, info: {}, messages });
}

const usage = (prompt: number, cached: number) => ({
  extra: {
    response: {
      usage: { prompt_tokens: prompt, prompt_tokens_details: { cached_tokens: cached } },
    },
  },
});

const MINI: unknown[] = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "<pr_description>fix it</pr_description>" },
  { role: "assistant", content: "THOUGHT: look.\n\n```bash\nls -la\n```", ...usage(100, 0) },
  { role: "user", content: "<returncode>0</returncode>\n<output>\na\n</output>" },
  {
    role: "assistant",
    content: "Two at once.\n\n```bash\nls\n```\n\n```bash\npwd\n```",
    ...usage(120, 100),
  },
  {
    role: "user",
    content: "Please always provide EXACTLY ONE action in triple backticks, found 2.",
  },
  { role: "assistant", content: "THOUGHT: test.\n\n```bash\npytest -x\n```\n", ...usage(150, 100) },
  { role: "user", content: "<returncode>1</returncode>\n<output>\nFAILED\n</output>" },
  { role: "assistant", content: "```bash\nsleep 999\n```", ...usage(160, 128) },
  {
    role: "user",
    content: "The last command <command>sleep 999</command> timed out and has been killed.",
  },
  {
    role: "assistant",
    content: "Submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```",
    ...usage(170, 128),
  },
  { role: "user", content: "diff --git a/x b/x" },
];

describe("the pitcrew policy in replay is the one the loop runs", () => {
  test("a request ends with the reminder the live policy makes of a real run's facts when it has news, never stored", async () => {
    // The facts are a real run's: whole (after a compaction), their reminder is 150–300 tokens.
    const facts = replayReminder();
    const sizes: number[] = [];
    for (let request = 0; request < 200; request++) {
      sizes.push(countText(reminderText(await facts(), WHOLE_REMINDER)));
    }
    assert.ok(
      Math.min(...sizes) >= 150 && Math.max(...sizes) <= 300,
      `${Math.min(...sizes)}–${Math.max(...sizes)}`,
    );

    const views: { messages: Message[]; reminder?: Message }[] = [];
    const policy = pitcrewPolicy({ window: 128_000, tools: [] });
    const recording: ReplayPolicy = {
      name: policy.name,
      async view(history, window) {
        const view = await policy.view(history, window);
        views.push(view);
        return view;
      },
      record: (tokens) => policy.record?.(tokens),
    };
    // Twelve requests: a minute apart, two files changed by a command before the 8th.
    const history = [...HEAD, ...Array.from({ length: 12 }, (_, n) => bashRound(n, "ok")).flat()];
    const replay = await replaySession(session(history), recording, 128_000);
    assert.equal(views.length, 12);
    const news = views.flatMap((view, index) => (view.reminder ? [index + 1] : []));
    assert.deepEqual(news, [6, 8], "the time five minutes on, then the changed files");
    for (const view of views) {
      if (view.reminder) assert.equal(view.messages.at(-1), view.reminder);
      else assert.doesNotMatch(view.messages.at(-1)?.content ?? "", /^<reminder>/);
    }
    assert.match(
      views[5]?.reminder?.content ?? "",
      /^<reminder>\ntime: 2026-01-15T09:05Z\n<\/reminder>$/,
    );
    assert.match(
      views[7]?.reminder?.content ?? "",
      /these files changed[^\n]*\n- src\/module\/core\.py/,
    );
    assert.ok(history.every((message) => !message.content.startsWith("<reminder>")));
    // The reminder's tokens are counted where one was sent, and only there.
    const counter = new TokenCounter();
    const sent = views.reduce(
      (sum, view) => sum + (view.reminder ? counter.segment(view.reminder).tokens : 0),
      0,
    );
    assert.ok(sent >= 2 * 15, `${sent} tokens`);
    assert.equal(replay.policy.reminderTokens, sent);
    for (const view of views) assert.doesNotMatch(view.reminder?.content ?? "", /branch|todo list/);
  });

  test("the harness reports each request's tokens to the policy, as the API does to the loop", async () => {
    const reported: number[] = [];
    const policy = pitcrewPolicy({ window: 128_000, tools: [] });
    const recording: ReplayPolicy = {
      name: policy.name,
      view: (history, window) => policy.view(history, window),
      record(tokens) {
        reported.push(tokens);
        policy.record?.(tokens);
      },
    };
    const replay = await replaySession(session(TOY), recording, 128_000);
    assert.deepEqual(
      reported,
      replay.records.filter((record) => record.kind === "turn").map((record) => record.tokens),
    );
  });
});

describe("loading recorded sessions", () => {
  test("an OpenAI message array: developer as system, text parts, tool calls and results", () => {
    const loaded = parseSession(JSON.stringify(OPENAI), "chat.json", toolDefinitions());
    assert.equal(loaded.format, "openai-messages");
    assert.deepEqual(loaded.history, [
      { role: "system", content: "be brief" },
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "bash", arguments: '{"command":"ls"}' },
          { id: "b", name: "read", arguments: '{"path":"x"}' },
        ],
      },
      { role: "tool", toolCallId: "a", name: "bash", content: "x\n", isError: false },
      { role: "tool", toolCallId: "b", name: "read", content: "hi", isError: false },
      { role: "assistant", content: "done", toolCalls: [] },
    ]);
    assert.deepEqual(
      loaded.tools.map((tool) => tool.name),
      ["bash", "read"],
      "pitcrew's definitions of the tools it calls",
    );
  });

  test("a request body brings its own tools; pitcrew's own message shape is read too", () => {
    const body = {
      model: "m",
      tools: [{ type: "function", function: { name: "t", description: "d", parameters: {} } }],
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "", toolCalls: [{ id: "1", name: "t", arguments: "{}" }] },
        { role: "tool", toolCallId: "1", name: "t", content: "boom", isError: true },
      ],
    };
    const loaded = parseSession(JSON.stringify(body), "body.json", toolDefinitions());
    assert.deepEqual(loaded.tools, [{ name: "t", description: "d", parameters: {} }]);
    assert.deepEqual(loaded.history[2], {
      role: "tool",
      toolCallId: "1",
      name: "t",
      content: "boom",
      isError: true,
    });
  });

  test("JSONL: one message a line, blank lines skipped", () => {
    const text = `${OPENAI.map((message) => JSON.stringify(message)).join("\n\n")}\n`;
    const loaded = parseSession(text, "chat.jsonl", toolDefinitions());
    assert.equal(loaded.format, "openai-jsonl");
    assert.equal(loaded.history.length, 6);
  });

  test("a mini-swe-agent 2.x trajectory (1.1), text mode: a mswea_bash_command block is a bash call; the exit message is left out", () => {
    const messages = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Fix the bug." },
      {
        role: "assistant",
        content: "THOUGHT: look.\n\n```mswea_bash_command\nls -la\n```",
        extra: {},
      },
      { role: "user", content: "<returncode>0</returncode>\n<output>a.py</output>" },
      {
        role: "assistant",
        content: "Done.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
      },
      { role: "user", content: "<returncode>0</returncode>" },
      { role: "exit", content: "", extra: { exit_status: "Submitted", submission: "" } },
    ];
    const loaded = parseSession(
      trajectory(messages, "mini-swe-agent-1.1"),
      "v2.traj.json",
      toolDefinitions(),
    );
    assert.equal(loaded.format, "mini-swe-agent-1.1");
    assert.deepEqual(
      loaded.history.map((message) => message.role),
      ["system", "user", "assistant", "tool", "assistant", "tool"],
    );
    const first = loaded.history[2];
    assert.ok(first?.role === "assistant");
    assert.deepEqual(first.toolCalls, [
      { id: "call_1", name: "bash", arguments: '{"command":"ls -la"}' },
    ]);
  });

  test("a mini-swe-agent 2.x trajectory (1.1) of a tool-calling model: its tool calls and results as recorded", () => {
    const messages = [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Fix the bug." },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "a.py" },
      { role: "assistant", content: "Done." },
      { role: "exit", content: "done", extra: { exit_status: "Submitted" } },
    ];
    const loaded = parseSession(
      trajectory(messages, "mini-swe-agent-1.1"),
      "v2.traj.json",
      toolDefinitions(),
    );
    assert.deepEqual(
      loaded.history.map((message) => message.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.equal(pairingProblem(loaded.history), undefined);
  });

  test("a mini-swe-agent trajectory: one bash block is one bash call, its observation the result", async () => {
    const loaded = parseSession(trajectory(MINI), "toy.traj.json", toolDefinitions());
    assert.equal(loaded.format, "mini-swe-agent-1");
    const h = loaded.history;
    assert.deepEqual(
      h.map((message) => message.role),
      [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
      ],
    );
    assert.deepEqual(h[2], {
      role: "assistant",
      content: "THOUGHT: look.",
      toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls -la"}' }],
    });
    assert.deepEqual(h[3], {
      role: "tool",
      toolCallId: "call_1",
      name: "bash",
      content: "<returncode>0</returncode>\n<output>\na\n</output>",
      isError: false,
    });
    assert.deepEqual(h[4], {
      role: "assistant",
      content: (MINI[4] as Message).content,
      toolCalls: [],
    });
    assert.equal(h[5]?.role === "user" && h[5].content.startsWith("Please always"), true);
    assert.equal(h[7]?.role === "tool" && h[7].isError, true, "return code 1");
    assert.equal(h[9]?.role === "tool" && h[9].isError, true, "timed out");
    assert.equal(h[11]?.role === "tool" && h[11].toolCallId, "call_4");
    assert.deepEqual(
      loaded.tools.map((tool) => tool.name),
      ["bash"],
    );
    assert.deepEqual(loaded.reported, { calls: 5, promptTokens: 700, cachedTokens: 456 });
    assert.equal((await replaySession(loaded, naivePolicy(), 128_000)).policy.requests, 5);
  });

  const refusals: [string, string, RegExp][] = [
    ["not JSON", "{oops", /bad\.json: not JSON/],
    ["an empty file", "  \n", /the file is empty/],
    ["JSONL with a broken line", '{"role":"user","content":"a"}\n{oops\n', /line 2 is not JSON/],
    [
      "an unknown role",
      JSON.stringify([
        { role: "user", content: "a" },
        { role: "robot", content: "b" },
      ]),
      /message 2 has role "robot"/,
    ],
    [
      "a result without its call",
      JSON.stringify([{ role: "tool", tool_call_id: "x", content: "b" }]),
      /message 1 answers tool call 'x', which no earlier message made/,
    ],
    [
      "a JSONL line that is not a message",
      '{"role":"user","content":"a"}\n\n[1]\n',
      /line 3 is not an object/,
    ],
    [
      "an image part",
      JSON.stringify([{ role: "user", content: [{ type: "image_url", image_url: {} }] }]),
      /content part of type 'image_url'/,
    ],
    [
      "another trajectory format",
      trajectory([], "swe-agent"),
      /"swe-agent" is not supported \(only mini-swe-agent-1 and mini-swe-agent-1\.1\)/,
    ],
    ["an object of another kind", JSON.stringify({ hello: 1 }), /neither `messages`/],
  ];
  for (const [what, text, message] of refusals) {
    test(`refuses ${what}, naming the file and the place`, () => {
      assert.throws(
        () => parseSession(text, "bad.json", toolDefinitions()),
        (error: unknown) =>
          error instanceof PitcrewError &&
          error.code === "replay-bad-file" &&
          error.message.startsWith("bad.json: ") &&
          message.test(error.message),
      );
    });
  }

  test("a missing file is a named error", async () => {
    await assert.rejects(
      loadSession("/nonexistent/x.json", toolDefinitions()),
      (error: unknown) => {
        return (
          error instanceof PitcrewError &&
          error.code === "replay-unreadable" &&
          error.message === "/nonexistent/x.json: no such file."
        );
      },
    );
  });
});

describe("pitcrew context replay", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pitcrew-replay-"));
    await writeFile(join(dir, "toy.json"), JSON.stringify(TOY.map(toOpenAI)));
    await writeFile(join(dir, "toy.traj.json"), trajectory(MINI));
    await writeFile(join(dir, "broken.json"), "{oops");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    run(process.execPath, [join(ROOT, "src/cli.ts"), "context", "replay", ...args], { cwd: ROOT });

  test("--json prints one object with the documented field names", async () => {
    const { stdout } = await cli(
      "--json",
      "--policy",
      "naive",
      "--window",
      "2000",
      join(dir, "toy.json"),
    );
    const report = JSON.parse(stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(report).sort(), [
      "distribution",
      "files",
      "policy",
      "tokenizer",
      "total",
      "window",
    ]);
    assert.equal(report.window, 2000);
    assert.equal(report.policy, "naive");
    const total = report.total as Record<string, number>;
    for (const field of [
      "requests",
      "tokens_sent",
      "naive_tokens_sent",
      "tokens_ratio",
      "cache_hit_ratio",
      "naive_cache_hit_ratio",
      "cost_ratio_r01",
      "cost_ratio_r025",
      "over_window",
      "compactions",
      "peak_tokens",
      "cache_hit_gap",
      "reminder_tokens",
      "layers_cost_ratio_r01",
    ]) {
      assert.equal(typeof total[field], "number", field);
    }
    for (const field of ["uncached", "naive_uncached"]) {
      assert.deepEqual(Object.keys(total[field] as unknown as object), [
        "new_messages",
        "rounding",
        "reminders",
        "edits",
      ]);
    }
    const distribution = report.distribution as Record<string, unknown>;
    assert.equal(distribution.sessions, 1);
    for (const figure of [
      "tokens_ratio",
      "cache_hit_gap",
      "cost_ratio_r01",
      "cost_ratio_r025",
      "layers_cost_ratio_r01",
      "uncached_edits",
      "over_window",
    ]) {
      assert.deepEqual(Object.keys(distribution[figure] as object), [
        "min",
        "median",
        "p90",
        "max",
      ]);
    }
    assert.equal(distribution.costlier_than_naive, 0);
    assert.equal(total.requests, 4);
    assert.equal(total.tokens_sent, 7904);
    assert.equal(total.over_window, 2);
    assert.equal(total.peak_tokens, 2744);
    assert.equal(total.tokens_ratio, 1);
    const files = report.files as Record<string, unknown>[];
    assert.equal(files[0]?.file, join(dir, "toy.json"));
  });

  test("the pitcrew policy is the default: every call paired, fewer tokens than naive", async () => {
    // (The replay refuses a view that breaks call/result pairing, so finishing is the check.)
    const { stdout } = await cli("--json", join(dir, "toy.json"));
    const report = JSON.parse(stdout) as { policy: string; total: Record<string, number> };
    assert.equal(report.policy, "pitcrew");
    assert.ok((report.total.tokens_sent ?? Infinity) < (report.total.naive_tokens_sent ?? 0));
    assert.equal(report.total.over_window, 0);
  });

  test("the human table has a row per file, a total and the elapsed time", async () => {
    const { stdout } = await cli(
      "--policy",
      "naive",
      join(dir, "toy.json"),
      join(dir, "toy.traj.json"),
    );
    assert.match(stdout, /policy naive, window 128,000 tokens/);
    assert.match(stdout, /toy\.json\s+4\s+7,904\s+7,904\s+1\.000/);
    assert.match(stdout, /toy\.traj\.json\s+5\s/);
    assert.match(stdout, /^total\s+9\s/m);
    assert.match(stdout, /2 files, 9 requests replayed in \d+\.\d s/);
    assert.match(
      stdout,
      /uncached, as shares of what was sent: new messages \d+\.\d%, the provider's rounding \d+\.\d%, reminders 0\.0%, the layers' edits 0\.0% \(naive: /,
    );
    assert.match(stdout, /^edits \(% of sent\)\s+0\.0\s+0\.0\s+0\.0\s+0\.0\s+0\.0$/m);
  });

  test("as a process: bad arguments exit 2 with the usage line, a bad file 1 with its error", async () => {
    const cases: [string[], number, RegExp][] = [
      [
        ["--window", "lots", "x.json"],
        2,
        /--window takes a whole number[^]*usage: pitcrew context replay \[--window N\]/,
      ],
      [[join(dir, "broken.json")], 1, /replay-bad-file: .*broken\.json: not JSON/],
    ];
    await Promise.all(
      cases.map(([args, code, stderr]) =>
        assert.rejects(cli(...args), (error: { code?: number; stderr?: string }) => {
          assert.equal(error.code, code, args.join(" "));
          assert.match(error.stderr ?? "", stderr);
          return true;
        }),
      ),
    );
  });

  test("the other refusals, in process", async () => {
    const cases: [string[], number, RegExp][] = [
      [["replay"], 2, /cli-no-files: Name the recorded sessions[^]*usage: /],
      [["replay", "--nope", "x.json"], 2, /cli-bad-option: There is no option --nope\.[^]*usage: /],
      [["replay", "--window", "0", "x.json"], 2, /--window takes a whole number[^]*usage: /],
      [
        ["replay", "--policy", "magic", "x.json"],
        2,
        /--policy must be one of pitcrew, naive[^]*usage: /,
      ],
      [
        ["replay", join(dir, "missing.json")],
        1,
        /replay-unreadable: .*missing\.json: no such file\./,
      ],
      [[], 2, /pitcrew context: name a subcommand\nusage: /],
      [["rerun"], 2, /unknown subcommand 'rerun'/],
    ];
    for (const [args, code, stderr] of cases) {
      const { status, err } = await capture(args);
      assert.equal(status, code, args.join(" "));
      assert.match(err, stderr);
    }
    const help = await capture(["replay", "--help"]);
    assert.equal(help.status, 0);
    assert.match(help.out, /^usage: pitcrew context replay/);
  });
});

/** Runs the command in process, its output collected. */
async function capture(args: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await contextCommand(args, {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
  });
  return { status, out, err };
}

/** A pitcrew message in OpenAI's shape, for the CLI's fixture file. */
function toOpenAI(message: Message): unknown {
  switch (message.role) {
    case "assistant":
      return {
        role: "assistant",
        content: message.content,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    default:
      return message;
  }
}
