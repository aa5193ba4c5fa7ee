import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { toolDefinitions } from "../../src/agent/tools/index.ts";
import { loadSession } from "../../src/commands/context.ts";
import type { Message } from "../../src/domain/messages.ts";
import { PitcrewError } from "../../src/errors.ts";
import { parseSession } from "../../src/context/replay/parse.ts";
import { pairingProblem } from "../../src/context/replay/replay.ts";

const known = toolDefinitions();

function parse(value: unknown, file = "run.json"): ReturnType<typeof parseSession> {
  return parseSession(typeof value === "string" ? value : JSON.stringify(value), file, known);
}

function call(id: string, name: string, args: unknown): Message & { role: "assistant" } {
  return {
    role: "assistant",
    content: "",
    toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
  };
}

function result(id: string, name: string, content: string, isError = false): Message {
  return { role: "tool", toolCallId: id, name, content, isError };
}

function refuses(value: unknown, file: string, message: RegExp): void {
  assert.throws(
    () => parse(value, file),
    (error: unknown) =>
      error instanceof PitcrewError &&
      error.code === "replay-bad-file" &&
      message.test(error.message),
  );
}

describe("SWE-agent trajectories", () => {
  test("a text run: each `action` is a bash call and the next user message its output", () => {
    const traj = {
      environment: "swe_main",
      trajectory: [],
      info: { model_stats: { api_calls: 3 } },
      history: [
        { role: "system", content: "SETTING", agent: "primary" },
        { role: "user", content: "Here is a demonstration", agent: "primary", is_demo: true },
        { role: "user", content: "ISSUE: fix it", agent: "primary" },
        {
          role: "assistant",
          content: "Look first.\n\n```\nls\n```",
          thought: "Look first.\n\n",
          action: "ls\n",
          agent: "primary",
        },
        { role: "user", content: "a.py\n(Open file: n/a)", agent: "primary" },
        { role: "assistant", content: "no command", thought: "no command", action: "" },
        { role: "user", content: "Your output was not formatted correctly" },
        {
          role: "assistant",
          content: "Submit.\n```\nsubmit\n```",
          thought: "Submit.",
          action: "submit\n",
        },
      ],
    };
    const loaded = parse(traj, "x.traj");
    assert.equal(loaded.format, "swe-agent-traj");
    assert.deepEqual(loaded.history, [
      { role: "system", content: "SETTING" },
      { role: "user", content: "Here is a demonstration" },
      { role: "user", content: "ISSUE: fix it" },
      { ...call("call_1", "bash", { command: "ls" }), content: "Look first." },
      result("call_1", "bash", "a.py\n(Open file: n/a)"),
      { role: "assistant", content: "no command", toolCalls: [] },
      { role: "user", content: "Your output was not formatted correctly" },
      { ...call("call_2", "bash", { command: "submit" }), content: "Submit." },
    ]);
    assert.equal(pairingProblem(loaded.history), undefined, "the last call may stay unanswered");
    assert.deepEqual(
      loaded.tools.map((tool) => tool.name),
      ["bash"],
    );
  });

  test("a function-calling run: tool_calls and tool messages by tool_call_ids", () => {
    const loaded = parse({
      history: [
        { role: "system", content: "sys", message_type: "system_prompt" },
        { role: "user", content: [{ type: "text", text: "task" }], message_type: "observation" },
        {
          role: "assistant",
          content: "Look.",
          thought: "Look.",
          action: "ls",
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "bash", arguments: '{"command":"ls"}' },
            },
          ],
        },
        { role: "tool", content: [{ type: "text", text: "a.py" }], tool_call_ids: ["call_a"] },
      ],
    });
    assert.deepEqual(loaded.history.slice(2), [
      {
        role: "assistant",
        content: "Look.",
        toolCalls: [{ id: "call_a", name: "bash", arguments: '{"command":"ls"}' }],
      },
      result("call_a", "bash", "a.py"),
    ]);
  });

  test("refuses a tool message without one id, and one that answers nothing, by history entry", () => {
    const head = [{ role: "user", content: "task" }];
    refuses(
      { history: [...head, { role: "tool", content: "x" }] },
      "a.traj",
      /a\.traj: history entry 2 .*tool_call_ids/,
    );
    refuses(
      { history: [...head, { role: "tool", content: "x", tool_call_ids: ["nope"] }] },
      "a.traj",
      /history entry 2 answers tool call 'nope', which is not waiting/,
    );
  });
});

/** An OpenHands model response as tool_call_metadata records it. */
function response(id: string, content: string, calls: [string, string, string][]): unknown {
  return {
    id,
    model: "m",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          tool_calls: calls.map(([callId, name, args]) => ({
            id: callId,
            type: "function",
            function: { name, arguments: args },
          })),
        },
      },
    ],
  };
}

describe("OpenHands events", () => {
  const r1 = response("r1", "Look.", [
    ["t1", "execute_bash", '{"command":"ls"}'],
    ["t2", "execute_bash", '{"command":"false"}'],
  ]);
  const events = [
    {
      id: 0,
      source: "agent",
      action: "system",
      args: {
        content: "You are OpenHands",
        tools: [
          {
            type: "function",
            function: { name: "execute_bash", description: "run", parameters: {} },
          },
        ],
      },
    },
    { id: 1, source: "user", action: "message", args: { content: "fix the bug" } },
    { id: 2, source: "user", action: "recall", args: { query: "fix the bug" } },
    { id: 3, source: "environment", observation: "agent_state_changed", content: "", extras: {} },
    {
      id: 4,
      source: "environment",
      cause: 2,
      observation: "recall",
      content: "Added workspace context",
    },
    {
      id: 5,
      source: "agent",
      action: "run",
      args: { command: "ls", thought: "Look." },
      tool_call_metadata: { function_name: "execute_bash", tool_call_id: "t1", model_response: r1 },
    },
    {
      id: 6,
      source: "agent",
      action: "run",
      args: { command: "false" },
      tool_call_metadata: { function_name: "execute_bash", tool_call_id: "t2", model_response: r1 },
    },
    {
      id: 7,
      source: "agent",
      cause: 5,
      observation: "run",
      content: "a.py",
      extras: { metadata: { exit_code: 0 } },
      tool_call_metadata: { tool_call_id: "t1" },
    },
    {
      id: 8,
      source: "agent",
      cause: 6,
      observation: "run",
      content: "",
      extras: { metadata: { exit_code: 1 } },
      tool_call_metadata: { tool_call_id: "t2" },
    },
    { id: 9, source: "agent", observation: "error", content: "Parameter 'command' is missing" },
    {
      id: 10,
      source: "agent",
      action: "finish",
      args: {},
      tool_call_metadata: {
        tool_call_id: "t3",
        model_response: response("r2", "Done.", [["t3", "finish", "{}"]]),
      },
    },
  ];

  test("one model response is one assistant message with all its calls; results by tool call id", () => {
    const loaded = parse(events, "trajectory.json");
    assert.equal(loaded.format, "openhands-events");
    assert.deepEqual(loaded.history, [
      { role: "system", content: "You are OpenHands" },
      { role: "user", content: "fix the bug" },
      { role: "user", content: "Added workspace context" },
      {
        role: "assistant",
        content: "Look.",
        toolCalls: [
          { id: "t1", name: "execute_bash", arguments: '{"command":"ls"}' },
          { id: "t2", name: "execute_bash", arguments: '{"command":"false"}' },
        ],
      },
      result("t1", "execute_bash", "a.py"),
      result("t2", "execute_bash", "", true),
      { role: "user", content: "Parameter 'command' is missing" },
      { ...call("t3", "finish", {}), content: "Done." },
    ]);
    assert.deepEqual(loaded.tools, [{ name: "execute_bash", description: "run", parameters: {} }]);
  });

  test("an evaluation record's `history` reads the same", () => {
    const loaded = parse({ instance_id: "x", instruction: "ignored", history: events });
    assert.equal(loaded.format, "openhands-events");
    assert.equal(loaded.history.length, 8);
  });

  test("OpenDevin's [action, observation] pairs: an answered action is a call named after it", () => {
    const none = { message: "No observation", observation: "null", content: "", extras: {} };
    const record = {
      id: "ProntoQA_1",
      metadata: { model_name: "gpt-4o" },
      history: [
        [{ id: 0, source: "user", action: "message", args: { content: "solve it" } }, none],
        [
          {
            id: 3,
            source: "agent",
            action: "run_ipython",
            args: { code: "print(1)", thought: "Run it.", kernel_init_code: "import x" },
          },
          {
            id: 4,
            source: "agent",
            cause: 3,
            observation: "run_ipython",
            content: "1",
            extras: {},
          },
        ],
        [{ id: 5, source: "agent", action: "message", args: { content: "It is 1." } }, none],
        [{ id: 7, source: "agent", action: "finish", args: { outputs: {}, thought: "" } }, none],
      ],
      messages: ["", "'1'"],
    };
    const loaded = parse(record);
    assert.equal(loaded.format, "openhands-events", "`history` is read before a `messages` list");
    assert.deepEqual(loaded.history, [
      { role: "user", content: "solve it" },
      { ...call("call_3", "run_ipython", { code: "print(1)" }), content: "Run it." },
      result("call_3", "run_ipython", "1"),
      { role: "assistant", content: "It is 1.", toolCalls: [] },
      { role: "assistant", content: "", toolCalls: [] },
    ]);
  });

  test("refuses a history of neither SWE-agent messages nor events, and names a misplaced result", () => {
    refuses({ history: [{ step: 1 }] }, "h.json", /h\.json: the `history` is neither/);
    const early = [
      { id: 1, source: "user", action: "message", args: { content: "go" } },
      {
        id: 2,
        source: "agent",
        action: "run",
        args: { command: "ls" },
        tool_call_metadata: {
          tool_call_id: "t1",
          model_response: response("r", "", [["t1", "execute_bash", "{}"]]),
        },
      },
      { id: 3, source: "user", action: "message", args: { content: "stop" } },
    ];
    refuses(
      early,
      "e.json",
      /e\.json: event 3 \(id 3\) comes before tool call\(s\) t1 got their results/,
    );
  });
});

describe("OpenHands agent-SDK events", () => {
  const action = (
    id: string,
    response: string,
    name: string,
    args: string,
    thought: string[] = [],
  ): unknown => ({
    kind: "ActionEvent",
    id,
    source: "agent",
    thought: thought.map((text) => ({ type: "text", text })),
    action: { kind: "SomeAction" },
    tool_name: name,
    tool_call_id: `c-${id}`,
    tool_call: { id: `c-${id}`, name, arguments: args, origin: "completion" },
    llm_response_id: response,
  });

  test("the actions of one response are one message; an agent error answers its call as an error", () => {
    const record = {
      instance_id: "t",
      instruction: "Write hello to a.txt",
      history: [
        {
          kind: "ConversationStateUpdateEvent",
          id: "u",
          source: "environment",
          key: "k",
          value: {},
        },
        action("a1", "r1", "execute_bash", '{"command":"ls"}', ["Two at once."]),
        action("a2", "r1", "str_replace_editor", '{"command":"view","path":"a.txt"}'),
        {
          kind: "ObservationEvent",
          id: "o1",
          source: "environment",
          tool_call_id: "c-a1",
          observation: {
            kind: "ExecuteBashObservation",
            output: "a.txt",
            exit_code: 0,
            error: false,
          },
        },
        {
          kind: "AgentErrorEvent",
          id: "e1",
          source: "agent",
          tool_call_id: "c-a2",
          error: "no such file",
        },
        action("a3", "r2", "finish", '{"message":"done"}'),
        {
          kind: "ObservationEvent",
          id: "o3",
          source: "environment",
          tool_call_id: "c-a3",
          observation: { kind: "FinishObservation", content: [{ type: "text", text: "done" }] },
        },
        {
          kind: "MessageEvent",
          id: "m1",
          source: "agent",
          llm_message: { role: "assistant", content: [{ type: "text", text: "All done." }] },
        },
      ],
    };
    const loaded = parse(record);
    assert.equal(loaded.format, "openhands-sdk-events");
    assert.deepEqual(loaded.history, [
      { role: "user", content: "Write hello to a.txt" },
      {
        role: "assistant",
        content: "Two at once.",
        toolCalls: [
          { id: "c-a1", name: "execute_bash", arguments: '{"command":"ls"}' },
          {
            id: "c-a2",
            name: "str_replace_editor",
            arguments: '{"command":"view","path":"a.txt"}',
          },
        ],
      },
      result("c-a1", "execute_bash", "a.txt"),
      result("c-a2", "str_replace_editor", "no such file", true),
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c-a3", name: "finish", arguments: '{"message":"done"}' }],
      },
      result("c-a3", "finish", "done"),
      { role: "assistant", content: "All done.", toolCalls: [] },
    ]);
  });

  test("a stream with its system prompt and task: its tools, and no instruction added", () => {
    const loaded = parse({
      instruction: "not this",
      history: [
        {
          kind: "SystemPromptEvent",
          id: "s",
          source: "agent",
          system_prompt: { type: "text", text: "You are OpenHands" },
          tools: [
            {
              type: "function",
              function: { name: "execute_bash", description: "run", parameters: {} },
            },
          ],
        },
        {
          kind: "MessageEvent",
          id: "m",
          source: "user",
          llm_message: { role: "user", content: [{ type: "text", text: "hi" }] },
        },
      ],
    });
    assert.deepEqual(loaded.history, [
      { role: "system", content: "You are OpenHands" },
      { role: "user", content: "hi" },
    ]);
    assert.deepEqual(loaded.tools, [{ name: "execute_bash", description: "run", parameters: {} }]);
  });
});

describe("Claude Code transcripts", () => {
  const usage = {
    input_tokens: 10,
    cache_creation_input_tokens: 100,
    cache_read_input_tokens: 0,
    output_tokens: 5,
  };
  const part = (uuid: string, content: unknown[], extra: object = {}): unknown => ({
    type: "assistant",
    uuid,
    isSidechain: false,
    message: { id: "msg_1", model: "claude-x", role: "assistant", content, usage },
    ...extra,
  });
  const lines = [
    { type: "file-history-snapshot", messageId: "u1", snapshot: {}, isSnapshotUpdate: false },
    {
      type: "user",
      uuid: "u1",
      parentUuid: null,
      isSidechain: false,
      message: { role: "user", content: "list the files" },
    },
    part("a1", [{ type: "thinking", thinking: "hmm", signature: "x" }]),
    part("a2", [{ type: "text", text: "Looking." }]),
    part("a3", [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }]),
    { type: "progress", uuid: "p1", parentUuid: "a3", data: { type: "hook_progress" } },
    {
      type: "user",
      uuid: "u2",
      isSidechain: false,
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt\nb.txt" }],
      },
    },
    part("a4", [{ type: "tool_use", id: "toolu_2", name: "Read", input: { file_path: "a.txt" } }]),
    {
      type: "user",
      uuid: "u3",
      isSidechain: false,
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: [{ type: "text", text: "no such file" }],
            is_error: true,
          },
        ],
      },
    },
    {
      ...(part("s1", [{ type: "text", text: "a subagent's line" }]) as object),
      isSidechain: true,
      message: { id: "msg_side", content: [] },
    },
    {
      type: "user",
      uuid: "u4",
      isVisibleInTranscriptOnly: true,
      message: { role: "user", content: "shown only" },
    },
    { type: "system", subtype: "turn_duration", uuid: "y1" },
    {
      type: "user",
      uuid: "u5",
      isSidechain: false,
      message: { role: "user", content: [{ type: "text", text: "thanks" }] },
    },
    {
      type: "assistant",
      uuid: "a5",
      isSidechain: false,
      message: {
        id: "msg_2",
        model: "claude-x",
        content: [{ type: "text", text: "Done." }],
        usage: {
          input_tokens: 1,
          cache_creation_input_tokens: 20,
          cache_read_input_tokens: 200,
          output_tokens: 2,
        },
      },
    },
  ];
  const jsonl = (values: unknown[]): string =>
    `${values.map((value) => JSON.stringify(value)).join("\n")}\n`;

  test("the lines of one response are one message, results go to their calls, the rest is dropped", () => {
    const loaded = parse(jsonl(lines), "session.jsonl");
    assert.equal(loaded.format, "claude-code-jsonl");
    assert.deepEqual(loaded.history, [
      { role: "user", content: "list the files" },
      {
        role: "assistant",
        content: "Looking.",
        toolCalls: [
          { id: "toolu_1", name: "Bash", arguments: '{"command":"ls"}' },
          { id: "toolu_2", name: "Read", arguments: '{"file_path":"a.txt"}' },
        ],
      },
      result("toolu_1", "Bash", "a.txt\nb.txt"),
      result("toolu_2", "Read", "no such file", true),
      { role: "user", content: "thanks" },
      { role: "assistant", content: "Done.", toolCalls: [] },
    ]);
    assert.deepEqual(loaded.reported, { calls: 2, promptTokens: 110 + 221, cachedTokens: 200 });
    assert.deepEqual(loaded.tools, [], "Claude Code's tools are not pitcrew's");
  });

  test("a subagent's file, all side chain, is read whole", () => {
    const side = lines.map((value) =>
      typeof value === "object" && value !== null && "isSidechain" in value
        ? { ...value, isSidechain: true }
        : value,
    );
    const loaded = parse(jsonl(side.slice(0, 9)), "agent-a1.jsonl");
    assert.equal(loaded.history.length, 4);
  });

  test("refuses a result for a call that is not waiting, naming the line", () => {
    const stray = {
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_9", content: "x" }],
      },
    };
    refuses(
      jsonl([lines[1], stray]),
      "s.jsonl",
      /s\.jsonl: line 2 answers tool call 'toolu_9', which is not waiting/,
    );
  });
});

describe("gzipped recordings", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "replay-formats-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("a name ending in .gz is unzipped before it is parsed", async () => {
    const file = join(dir, "run.traj.gz");
    await writeFile(
      file,
      gzipSync(JSON.stringify({ history: [{ role: "user", content: "task" }] })),
    );
    const loaded = await loadSession(file, known);
    assert.equal(loaded.format, "swe-agent-traj");
    assert.deepEqual(loaded.history, [{ role: "user", content: "task" }]);
  });

  test("a .gz that is not gzip is unreadable, saying so", async () => {
    const file = join(dir, "broken.json.gz");
    await writeFile(file, "[]");
    await assert.rejects(
      loadSession(file, known),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "replay-unreadable" &&
        error.message.startsWith(`${file}: not gzip data (`),
    );
  });
});

interface CorpusEntry {
  file: string;
  agent: string;
  model: string;
  source: string;
  commit: string;
  path: string;
  license: string;
  sha256: string;
  format: string;
  model_calls: number;
  observations: "user-text" | "tool-role";
  notes: string;
}

const CORPUS = join(import.meta.dirname, "../fixtures/corpus");
const manifest = JSON.parse(await readFile(join(CORPUS, "MANIFEST.json"), "utf8")) as CorpusEntry[];
const present = manifest.filter((entry) => existsSync(join(CORPUS, entry.file)));

describe("the corpus of recorded sessions", () => {
  test("the manifest names its sources: a public commit and path, a permissive licence", () => {
    for (const entry of manifest) {
      assert.match(entry.source, /^[\w.-]+\/[\w.-]+$/, entry.file);
      assert.match(entry.commit, /^[0-9a-f]{40}$/, entry.file);
      assert.match(entry.license, /^(MIT|Apache-2\.0|BSD)/, entry.file);
      assert.match(entry.sha256, /^[0-9a-f]{64}$/, entry.file);
      assert.ok(entry.path !== "" && entry.notes !== "", entry.file);
    }
    assert.ok(manifest.length >= 20, `${manifest.length} sessions`);
    const pairs = new Set(manifest.map((entry) => `${entry.agent} / ${entry.model}`));
    assert.ok(pairs.size >= 3, [...pairs].join(", "));
    const text = manifest.filter((entry) => entry.observations === "user-text");
    assert.ok(text.length >= 3, `${text.length} sessions with observations as user text`);
  });

  // The session files are third-party data: a checkout may not carry them (README.md says where
  // each comes from). When any is here, all must be, and each is checked in full.
  test(
    "every session loads as the manifest says: its bytes, its format, its calls, its pairing",
    { skip: present.length === 0 ? "the corpus files are not in this checkout" : false },
    async () => {
      const listed = new Set(manifest.map((entry) => entry.file));
      const extra = readdirSync(CORPUS).filter(
        (name) => name !== "MANIFEST.json" && name !== "README.md" && !listed.has(name),
      );
      assert.deepEqual(extra, [], "every file in the corpus is in the manifest");
      for (const entry of manifest) {
        const file = join(CORPUS, entry.file);
        const bytes = await readFile(file);
        assert.equal(createHash("sha256").update(bytes).digest("hex"), entry.sha256, entry.file);
        const loaded = await loadSession(file, known);
        assert.equal(loaded.format, entry.format, entry.file);
        const calls = loaded.history.filter((message) => message.role === "assistant").length;
        assert.equal(calls, entry.model_calls, entry.file);
        assert.equal(pairingProblem(loaded.history), undefined, entry.file);
      }
    },
  );
});
