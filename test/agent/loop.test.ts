/**
 * The agent loop end to end inside one process: the real model client against the scripted
 * server, the real tools in the real sandbox over a fixture repository, the real permission rules.
 * Each test scripts the model and checks what the harness did and sent.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { LoopEvent } from "../../src/domain/loop.ts";
import { MAX_DONE_REFUSALS } from "../../src/agent/loop.ts";
import type { Message } from "../../src/domain/messages.ts";
import { createModelClient } from "../../src/agent/model.ts";
import { CONTEXT_TOO_LONG_SENTENCE } from "../../src/agent/model-errors.ts";
import { SYSTEM_PROMPT } from "../../src/agent/prompt.ts";
import { runSession } from "../../src/agent/session.ts";
import type { SessionOptions } from "../../src/agent/session.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { BUGGY_LINE, FIXED_LINE, createFixtureRepo } from "../support/fixture-repo.ts";
import type { FixtureRepo } from "../support/fixture-repo.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";
import type { ModelServer, Script } from "../support/model-server.ts";

const fixtures: FixtureRepo[] = [];
const servers: ModelServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  for (const fixture of fixtures) rmSync(fixture.root, { recursive: true, force: true });
});

const args = (value: unknown): string => JSON.stringify(value);

async function session(
  script: Script,
  overrides: Partial<SessionOptions> = {},
): Promise<{
  fixture: FixtureRepo;
  server: ModelServer;
  events: LoopEvent[];
  result: Awaited<ReturnType<typeof runSession>>;
}> {
  const fixture = createFixtureRepo("loop");
  fixtures.push(fixture);
  const server = await startModelServer(script);
  servers.push(server);
  const events: LoopEvent[] = [];
  const messages: Message[] = [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: "Make the calc test pass." },
  ];
  const result = await runSession({
    workspace: fixture.repo,
    sandbox: { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
    model: createModelClient({
      apiKey: "sk-test",
      model: "gpt-4.1",
      baseUrl: server.url,
      backoffMs: 10,
    }),
    messages,
    limits: { maxTurns: 10 },
    promptCacheKey: "pitcrew-test",
    env: { HOME: fixture.home, PATH: process.env.PATH },
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return { fixture, server, events, result };
}

/** The tool messages the model received, in order, from the last request it was sent. */
function toolResults(server: ModelServer): string[] {
  const last = server.requests.at(-1)?.body.messages ?? [];
  return last
    .filter((message) => message.role === "tool")
    .map((message) => String(message.content));
}

describe("the agent loop", needsBwrap(), () => {
  test("reads, edits, runs the test and finishes: the file is fixed and the test passes", async () => {
    const { fixture, server, events, result } = await session([
      callTools([
        { name: "read", arguments: args({ path: "calc.js" }) },
        { name: "bash", arguments: args({ command: "node calc.test.js" }) },
      ]),
      callTools([
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        },
      ]),
      callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
      say("add() subtracted; it adds now. Verified with npm test."),
    ]);
    assert.equal(result.stopReason, "done");
    assert.equal(result.summary, "add() subtracted; it adds now. Verified with npm test.");
    assert.equal(result.turns, 4);
    assert.match(readFileSync(join(fixture.repo, "calc.js"), "utf8"), /return a \+ b;/);
    execFileSync("node", ["calc.test.js"], { cwd: fixture.repo });

    const results = toolResults(server);
    assert.match(results[0] ?? "", /1\texport function add/);
    assert.match(results[1] ?? "", /exit code: 1[\s\S]*AssertionError/);
    assert.match(results[3] ?? "", /exit code: 0[\s\S]*calc: all tests pass/);
    assert.ok(
      server.requests.every((request) => request.rejected === undefined),
      "every request was valid",
    );
    assert.deepEqual(
      events.filter((event) => event.type !== "usage").map((event) => event.type),
      [
        "turn_start",
        "assistant",
        "tool_start",
        "tool_end",
        "tool_start",
        "tool_end",
        "turn_start",
        "assistant",
        "tool_start",
        "tool_end",
        "turn_start",
        "assistant",
        "tool_start",
        "tool_end",
        "turn_start",
        "assistant",
        "stop",
      ],
    );
    assert.ok(result.usage.promptTokens > 0 && result.cost > 0);
  });

  test("every tool call of a parallel fan-out is answered, in order, with its own id", async () => {
    const { server, result } = await session([
      callTools([
        { name: "bash", arguments: args({ command: "echo one" }), id: "call_a" },
        { name: "bash", arguments: args({ command: "echo two" }), id: "call_b" },
        { name: "read", arguments: args({ path: "package.json" }), id: "call_c" },
      ]),
      say("done"),
    ]);
    assert.equal(result.stopReason, "done");
    const sent = server.requests[1]?.body.messages ?? [];
    const tools = sent.filter((message) => message.role === "tool");
    assert.deepEqual(
      tools.map((message) => message.tool_call_id),
      ["call_a", "call_b", "call_c"],
    );
    assert.match(String(tools[1]?.content), /two/);
  });

  test("malformed calls get error results naming the problem, and the loop goes on", async () => {
    const { server, result } = await session([
      callTools([
        { name: "bash", arguments: '{"command": "echo hi"' },
        { name: "shell", arguments: args({ command: "ls" }) },
        { name: "edit", arguments: args({ path: "calc.js", old_string: "x" }) },
        { name: "read", arguments: args({ path: 42 }) },
      ]),
      say("I will stop here."),
    ]);
    assert.equal(result.stopReason, "done");
    const [json, unknown, missing, mistyped] = toolResults(server);
    assert.match(json ?? "", /arguments for bash are not valid JSON .*Send them again/);
    assert.match(
      unknown ?? "",
      /no tool named "shell"\. The tools are: bash, read, write, edit, todo_write/,
    );
    assert.match(missing ?? "", /arguments for edit do not fit .*new_string/);
    assert.match(mistyped ?? "", /arguments for read do not fit .*path/);
    const toolMessages = result.messages.filter((message) => message.role === "tool");
    assert.ok(toolMessages.every((message) => message.role === "tool" && message.isError));
  });

  test("a refused command is answered with the reason and the loop goes on", async () => {
    const { server, result } = await session([
      callTools([
        { name: "bash", arguments: args({ command: "git add -A && git commit -m wip" }) },
      ]),
      say("Left the changes for the harness."),
    ]);
    assert.equal(result.stopReason, "done");
    assert.match(toolResults(server)[0] ?? "", /git commit.*refused/i);
  });

  test("max_turns stops the loop after that many model requests, every call answered", async () => {
    const forever: Script = () =>
      callTools([{ name: "bash", arguments: args({ command: "true" }) }]);
    const { server, result, events } = await session(forever, { limits: { maxTurns: 3 } });
    assert.equal(result.stopReason, "max_turns");
    assert.equal(server.requests.length, 3);
    assert.equal(result.turns, 3);
    assert.equal(result.messages.filter((message) => message.role === "tool").length, 3);
    assert.deepEqual(events.at(-1), { type: "stop", reason: "max_turns", error: undefined });
  });

  test("the time budget stops the loop at the next turn", async () => {
    // The loop's clock: each model request takes 150 ms of it.
    let clock = 0;
    const slow: Script = () => {
      clock += 150;
      return callTools([{ name: "bash", arguments: args({ command: "true" }) }]);
    };
    const { result, server } = await session(slow, {
      limits: { maxTurns: 10, timeBudgetMs: 100 },
      now: () => clock,
    });
    assert.equal(result.stopReason, "time_budget");
    assert.equal(server.requests.length, 1);
  });

  test("the cost budget and the token budget stop the loop at the next turn, each by name", async () => {
    const busy: Script = () => callTools([{ name: "bash", arguments: args({ command: "true" }) }]);
    const cost = await session(busy, { limits: { maxTurns: 10, costBudget: 0.000001 } });
    assert.equal(cost.result.stopReason, "cost_budget");
    assert.equal(cost.server.requests.length, 1);
    const tokens = await session(busy, { limits: { maxTurns: 10, tokenBudget: 1 } });
    assert.equal(tokens.result.stopReason, "token_budget");
    assert.equal(tokens.server.requests.length, 1);
    assert.deepEqual(tokens.events.at(-1), {
      type: "stop",
      reason: "token_budget",
      error: undefined,
    });
  });

  test("cancellation kills the running command, answers the call, and stops", async () => {
    const controller = new AbortController();
    const pending = session(
      [
        callTools([
          { name: "bash", arguments: args({ command: "sleep 30" }) },
          { name: "bash", arguments: args({ command: "echo never" }) },
        ]),
        say("unreachable"),
      ],
      {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "tool_start") setTimeout(() => controller.abort(), 200);
        },
      },
    );
    const { result, server } = await pending;
    assert.equal(result.stopReason, "cancelled");
    assert.equal(server.requests.length, 1);
    const tools = result.messages.filter((message) => message.role === "tool");
    assert.equal(tools.length, 2, "both calls answered");
    // Killed by the cancellation, not by the command timeout (20 s) nor finished (30 s).
    assert.match(tools[0]?.content ?? "", /cancelled: the run is stopping; the command .* killed/);
    assert.match(tools[1]?.content ?? "", /Not run: the run was cancelled/);
  });

  test("a transient server error is retried and the run finishes", async () => {
    const { result, server } = await session([
      { kind: "server-error", status: 500 },
      { kind: "rate-limit", retryAfterMs: 20 },
      say("fine"),
    ]);
    assert.equal(result.stopReason, "done");
    assert.equal(server.requests.length, 3);
  });

  test("context too long: compact and retry once, which succeeds", async () => {
    const { result, server, events } = await session([
      callTools([{ name: "bash", arguments: args({ command: "echo some work" }) }]),
      { kind: "context-too-long", shape: "openai" },
      say("## Goal\nmake the calc test pass\n## Next\nedit calc.js"),
      say("Done after the handoff."),
    ]);
    assert.equal(result.stopReason, "done");
    assert.equal(result.summary, "Done after the handoff.");
    const [, rejected, compaction, retried] = server.requests;
    assert.deepEqual(
      compaction?.body.messages.slice(0, -1),
      rejected?.body.messages,
      "the compaction call is the rejected view (no news, so no reminder) plus one final message",
    );
    assert.match(String(compaction?.body.messages.at(-1)?.content), /handoff note/);
    assert.match(
      String(retried?.body.messages[1]?.content),
      /^\[Handoff note[\s\S]*make the calc test pass/,
    );
    assert.ok(events.some((event) => event.type === "compaction"));
  });

  test("context too long again after compacting, and after dropping: the named failure, work kept", async () => {
    const { result, server } = await session([
      callTools([{ name: "bash", arguments: args({ command: "echo some work" }) }]),
      { kind: "context-too-long", shape: "vllm", limit: 32768, requested: 40000 },
      say("## Goal\nnote"),
      { kind: "context-too-long", shape: "vllm", limit: 32768, requested: 40000 },
      { kind: "context-too-long", shape: "vllm", limit: 32768, requested: 40000 },
    ]);
    assert.equal(result.stopReason, "model_error");
    assert.equal(result.error?.code, "model-context-too-long");
    assert.equal(result.error?.message, CONTEXT_TOO_LONG_SENTENCE);
    assert.equal(result.turns, 1, "the turn that never got an answer is not counted");
    assert.equal(server.requests.length, 5, "request, compaction, retry, retry after dropping");
    assert.equal(
      result.messages.filter((message) => message.role === "tool").length,
      1,
      "the work so far is kept",
    );
  });

  test("an invalid key ends the run with its named error", async () => {
    const { result, events } = await session([{ kind: "invalid-key" }]);
    assert.equal(result.stopReason, "model_error");
    assert.equal(result.error?.code, "model-invalid-key");
    // The request was made (turn 1 started) but never answered: no turn happened.
    assert.deepEqual(events[0], { type: "turn_start", turn: 1 });
    assert.equal(result.turns, 0);
    // Each reader gets its own advice: the workflow's input, the command line's variables.
    assert.match(result.error?.message ?? "", /the `api-key` input/);
    assert.match(
      result.error?.cliMessage ?? "",
      /set OPENAI_API_KEY .* --base-url \(or OPENAI_BASE_URL\)/,
    );
  });

  test("todo_write keeps the list the session returns", async () => {
    const { result } = await session([
      callTools([
        {
          name: "todo_write",
          arguments: args({
            todos: [
              { content: "fix add", status: "in_progress" },
              { content: "run tests", status: "pending" },
            ],
          }),
        },
      ]),
      say("planned"),
    ]);
    assert.deepEqual(result.todos, [
      { content: "fix add", status: "in_progress" },
      { content: "run tests", status: "pending" },
    ]);
  });

  test("a reminder ends a request that has news, and never lands in the stored history", async () => {
    const { result, server } = await session([
      callTools([
        {
          name: "todo_write",
          arguments: args({ todos: [{ content: "fix add", status: "in_progress" }] }),
        },
      ]),
      callTools([
        { name: "bash", arguments: args({ command: "sed -i 's/a - b/a + b/' calc.js" }) },
      ]),
      callTools([
        {
          name: "edit",
          arguments: args({ path: "package.json", old_string: '"type"', new_string: '"type" ' }),
        },
      ]),
      say("done"),
    ]);
    assert.equal(result.stopReason, "done");
    const last = server.requests.map((request) => String(request.body.messages.at(-1)?.content));
    const reminders = last.filter((content) => content.startsWith("<reminder>"));
    assert.equal(reminders.length, 1, `one request had news: ${JSON.stringify(last)}`);
    assert.match(
      last[2] ?? "",
      /^<reminder>\ntime: \d{4}-\d\d-\d\dT\d\d:\d\dZ\nthese files changed since your last turn[^\n]*\n- calc\.js/,
      "a file changed by a command is named",
    );
    // Shown elsewhere in the request: the branch by the start messages, the list by todo_write.
    assert.doesNotMatch(last[2] ?? "", /branch:|todo list/);
    const listed = server.requests[1]?.body.messages.find((message) => message.role === "tool");
    assert.match(String(listed?.content), /\[~\] fix add/, "todo_write's result shows the list");
    assert.doesNotMatch(last[3] ?? "", /^<reminder>/, "a file the edit tool changed is no news");
    assert.ok(
      result.messages.every((message) => !message.content.startsWith("<reminder>")),
      "never stored",
    );
  });

  test("a nested repository the agent made is named in the next reminder, and gone once its .git is", async () => {
    const { server } = await session([
      callTools([
        {
          name: "bash",
          arguments: args({
            command: "mkdir -p vendor/lib && git -C vendor/lib init -q && echo x > vendor/lib/a.js",
          }),
        },
      ]),
      callTools([{ name: "bash", arguments: args({ command: "rm -rf vendor/lib/.git" }) }]),
      say("done"),
    ]);
    const reminders = server.requests.map((request) =>
      String(request.body.messages.at(-1)?.content),
    );
    assert.doesNotMatch(reminders[0] ?? "", /nested/);
    assert.match(
      reminders[1] ?? "",
      /push-blocked-nested-repository: vendor\/lib\/ is a git repository of its own[^\n]*Remove vendor\/lib\/\.git/,
    );
    assert.doesNotMatch(reminders[2] ?? "", /nested-repository/);
  });

  test("consecutive requests share their prefix, except where a layer fired", async () => {
    const big = (n: number): string => `node -e "console.log('${n}'.repeat(3000))"`;
    const { server, events } = await session([
      callTools([{ name: "bash", arguments: args({ command: big(1) }) }]),
      callTools([{ name: "bash", arguments: args({ command: big(2) }) }]),
      callTools([{ name: "bash", arguments: args({ command: "true" }) }]),
      say("done"),
    ]);
    const sent = server.requests.map((request) =>
      request.body.messages.slice(0, -1).map((message) => JSON.stringify(message)),
    );
    for (let index = 1; index < sent.length; index++) {
      const previous = sent[index - 1] ?? [];
      const current = sent[index] ?? [];
      const firstDifference = previous.findIndex(
        (message, position) => message !== current[position],
      );
      // Only the newest old result may change (stubbed once the model moved past it).
      assert.ok(
        firstDifference === -1 || firstDifference === previous.length - 1,
        `request ${index}: prefix changed at ${firstDifference}`,
      );
    }
    assert.ok(events.some((event) => event.type === "context" && event.fired.includes("stub")));
    const cached = server.requests.map(
      (request) => request.usage?.prompt_tokens_details.cached_tokens ?? 0,
    );
    assert.ok(
      cached.slice(1).every((tokens) => tokens > 0),
      `cached tokens per request: ${cached.join(", ")}`,
    );
  });
});

describe("the harness's check of a finished answer", needsBwrap(), () => {
  test("a refusal goes back to the model as a user message and the loop goes on; accepted, it is done", async () => {
    const asked: string[] = [];
    let calls = 0;
    const { result, server } = await session(
      [say("Done: I skipped the test."), say("Fixed the cause.")],
      {
        checkDone: async (sandbox) => {
          // The check runs with the session's own sandbox: here, a command in the checkout.
          const seen = await sandbox.run({ argv: ["bash", "-c", "ls calc.js"] });
          asked.push(seen.stdout.text.trim());
          calls += 1;
          return calls === 1
            ? "refused-weakening: the repair skips a test; fix the cause."
            : undefined;
        },
      },
    );
    assert.equal(result.stopReason, "done");
    assert.equal(result.summary, "Fixed the cause.");
    assert.deepEqual(asked, ["calc.js", "calc.js"]);
    const second = server.requests[1]?.body.messages ?? [];
    const refusal = second.find(
      (message: { role: string; content?: unknown }) =>
        message.role === "user" && String(message.content).startsWith("refused-weakening"),
    );
    assert.ok(refusal, "the model was told why");
  });

  test(`at most ${MAX_DONE_REFUSALS} refusals: then the answer stands`, async () => {
    let calls = 0;
    const { result, server } = await session([say("one"), say("two"), say("three"), say("four")], {
      checkDone: () => {
        calls += 1;
        return Promise.resolve("still refused");
      },
    });
    assert.equal(result.stopReason, "done");
    assert.equal(calls, MAX_DONE_REFUSALS);
    assert.equal(server.requests.length, MAX_DONE_REFUSALS + 1);
    assert.equal(result.summary, "three");
  });
});
