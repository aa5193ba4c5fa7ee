/**
 * The progress comment: what each phase shows (from states, and from the events of a real agent
 * session), and how the comment is kept on GitHub — created once, edits coalesced to the newest
 * state under an injected clock, the final state flushed at once, a failing call only a warning.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { describe, test } from "node:test";
import type { TestContext } from "node:test";
import type { LoopEvent } from "../../src/domain/loop.ts";
import { createModelClient } from "../../src/agent/model.ts";
import { runSession } from "../../src/agent/session.ts";
import { RUN_START, foldEvent } from "../../src/domain/run-state.ts";
import type { Todo } from "../../src/domain/todos.ts";
import { PitcrewError, describeError } from "../../src/errors.ts";
import { PITCREW_COMMENT_MARKER } from "../../src/domain/conversation.ts";
import { NO_WORK } from "../../src/domain/ending.ts";
import type { FinalState, ProgressState } from "../../src/domain/ending.ts";
import { createProgressComment } from "../../src/github/progress.ts";
import { activityLine, renderProgress } from "../../src/present/comment.ts";
import { SUMMARY_LIMIT } from "../../src/present/text.ts";
import { RUN_URL, SEVEN_TURNS, issueTask } from "../support/tasks.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { createFixtureRepo } from "../support/fixture-repo.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";

const TASK = issueTask({ instruction: "make the parser accept empty input" });
const TODOS: Todo[] = [
  { content: "Reproduce the crash", status: "completed" },
  { content: "Fix the parser", status: "in_progress" },
  { content: "Add a test", status: "pending" },
];
const TOTALS = SEVEN_TURNS;
const PULL = {
  number: 34,
  url: "https://github.com/acme/app/pull/34",
  draft: false,
  operation: "created",
} as const;
const BASE = { task: TASK, runUrl: RUN_URL, todos: TODOS, totals: TOTALS };

const WORKING: ProgressState = {
  ...BASE,
  phase: "working",
  activity: { kind: "tool", call: { id: "c0", name: "bash", arguments: '{"command":"npm test"}' } },
};
const DONE: FinalState = {
  ...BASE,
  phase: "done",
  summary: "The parser read past the end. It stops there now; `npm test` passes.",
  pull: PULL,
};
const STOPPED: FinalState = {
  ...BASE,
  phase: "stopped",
  stopReason: "max_turns",
  summary: "Reproduced; the fix is half done.",
  pull: { ...PULL, draft: true },
};
const NO_CHANGES: FinalState = {
  ...BASE,
  phase: "no-changes",
  summary: "Empty input already parses on main; nothing to fix.",
};
const FAILED: FinalState = {
  ...BASE,
  phase: "failed",
  error: describeError(
    new PitcrewError("sandbox-unavailable", "bwrap could not create a user namespace."),
  ),
};
const REFUSED: FinalState = {
  ...BASE,
  todos: [],
  totals: undefined,
  phase: "refused",
  reason: "only people with write access to acme/app may ask pitcrew to work.",
};
const EVERY_PHASE = [WORKING, DONE, STOPPED, NO_CHANGES, FAILED, REFUSED];

describe("renderProgress", () => {
  test("every phase: the marker first, who asked for what, and the workflow run", () => {
    for (const state of EVERY_PHASE) {
      const body = renderProgress(state);
      assert.ok(body.startsWith(`${PITCREW_COMMENT_MARKER}\n`), state.phase);
      assert.ok(
        body.includes("@alice asked for `/agent fix`: “make the parser accept empty input”."),
        state.phase,
      );
      assert.ok(body.includes(`[Workflow run](${RUN_URL})`), state.phase);
    }
  });

  test("working: the checklist with the step in progress marked, the current call, the cost so far", () => {
    const body = renderProgress(WORKING);
    assert.match(body, /^### pitcrew is working on it$/m);
    assert.ok(
      body.includes(
        "- [x] Reproduce the crash\n- [ ] **Fix the parser** ← in progress\n- [ ] Add a test",
      ),
    );
    assert.ok(body.includes("Now: `bash npm test`"));
    assert.ok(
      body.includes(
        "turns: 7 · tokens: 42,000 (prompt 40,000, 75% cached; completion 2,000) · cost: $0.0123 (so far)",
      ),
    );
    assert.ok(!body.includes("/agent continue"));
  });

  test("ended: nothing in progress any more; a list the agent left unfinished is said to be stale", () => {
    const todos = [
      { content: "Reproduce the crash", status: "completed" },
      { content: "Fix the parser", status: "in_progress" },
      { content: "Add a test", status: "pending" },
    ] as const;
    for (const ended of [
      { ...DONE, todos: [...todos] },
      { ...STOPPED, todos: [...todos] },
    ]) {
      const body = renderProgress(ended);
      assert.ok(!body.includes("in progress"), ended.phase);
      assert.ok(
        body.includes(
          "_The todo list as the agent last left it: it did not mark every step done._\n- [x] Reproduce the crash\n- [ ] Fix the parser\n- [ ] Add a test",
        ),
        ended.phase,
      );
    }
    const finished = renderProgress({
      ...DONE,
      todos: todos.map((todo) => ({ ...todo, status: "completed" as const })),
    });
    assert.ok(!finished.includes("last left it"), "every step done: not stale");
    assert.ok(finished.includes("- [x] Fix the parser"));
  });

  test("working before anything happened: says it is getting started, no checklist, no totals", () => {
    const body = renderProgress({ task: TASK, runUrl: RUN_URL, ...NO_WORK, phase: "working" });
    assert.ok(body.includes("Now: getting started"));
    assert.ok(!body.includes("- ["));
    assert.ok(!body.includes("turns:"));
  });

  test("done: the pull request, the summary and the totals (cost to 4 decimals)", () => {
    const body = renderProgress(DONE);
    assert.match(body, /^### pitcrew finished$/m);
    assert.ok(body.includes(`Pull request: [#34](${PULL.url})\n`));
    assert.ok(body.includes(`**Summary**\n\n${DONE.phase === "done" ? DONE.summary : ""}`));
    assert.ok(body.includes("75% cached"));
    assert.ok(body.includes("· cost: $0.0123 · [Workflow run]"));
    assert.ok(!body.includes("(so far)"));
    const draft = renderProgress({ ...DONE, pull: { ...PULL, draft: true } });
    assert.ok(draft.includes(`Pull request: [#34](${PULL.url}) (draft)`));
  });

  test("stopped: what stopped it, where the work is, and `/agent continue`", () => {
    const causes = {
      max_turns: "the turn limit was reached",
      time_budget: "the time budget ran out",
      cost_budget: "the cost budget ran out",
      token_budget: "the token budget ran out",
      cancelled: "the run was cancelled",
    } as const;
    for (const [stopReason, cause] of Object.entries(causes)) {
      const body = renderProgress({ ...STOPPED, stopReason: stopReason as keyof typeof causes });
      assert.match(body, /^### pitcrew stopped early$/m);
      assert.ok(
        body.includes(
          `Stopped early: ${cause}. The work so far is in [#34](${PULL.url}) (draft). Reply \`/agent continue\` to go on from here.`,
        ),
        stopReason,
      );
    }
    const nothing = renderProgress({ ...STOPPED, pull: undefined });
    assert.ok(nothing.includes("Nothing had been changed yet. Reply `/agent continue`"));
    assert.ok(nothing.includes("**Where it got to**\n\nReproduced; the fix is half done."));
  });

  test("no changes: said plainly, with the agent's answer as the possible reason", () => {
    const body = renderProgress(NO_CHANGES);
    assert.match(body, /^### pitcrew finished without changing anything$/m);
    assert.ok(body.includes("The agent finished without changing any file, so there is no pull"));
    assert.ok(body.includes("Empty input already parses on main; nothing to fix."));
    assert.ok(!body.includes("Pull request:"));
    const silent = renderProgress({ ...NO_CHANGES, summary: "  " });
    assert.ok(silent.includes("It gave no reason."));
  });

  test("failed: the error's own sentence and what to do", () => {
    const body = renderProgress(FAILED);
    assert.match(body, /^### pitcrew failed$/m);
    assert.ok(
      body.includes("**Error:** sandbox-unavailable: bwrap could not create a user namespace."),
    );
    assert.ok(body.includes(`What to do: the [workflow run](${RUN_URL})'s log has the details.`));
    assert.ok(body.includes("reply `/agent continue` to try again"));
    const saved = renderProgress({ ...FAILED, pull: { ...PULL, draft: true } });
    assert.ok(saved.includes(`The work so far is in [#34](${PULL.url}) (draft).`));
  });

  test("refused: the reason, and nothing of a run", () => {
    const body = renderProgress(REFUSED);
    assert.match(body, /^### pitcrew did not start$/m);
    assert.ok(body.includes("only people with write access to acme/app may ask pitcrew to work."));
    assert.ok(!body.includes("turns:"));
    assert.ok(!body.includes("- ["));
  });

  test("the model's summary cannot break the comment: fences closed, HTML and mentions defused, length capped", () => {
    const summary = [
      "Fixed it. @bob please review <!-- hidden",
      "```js",
      "const tag = '<details>'; // @carol",
    ].join("\n");
    const body = renderProgress({ ...DONE, summary });
    assert.ok(body.includes("Fixed it. @\u200bbob please review &lt;!-- hidden"));
    // Inside the code block the text stays as written, and the block is closed before the list.
    assert.ok(
      body.includes(
        "```js\nconst tag = '<details>'; // @carol\n```\n\n_The todo list as the agent last left it: it did not mark every step done._\n- [x] Reproduce",
      ),
    );
    assert.ok(!/(^|\W)@bob/.test(body));

    const long = renderProgress({ ...DONE, summary: "word ".repeat(10_000) });
    assert.ok(long.length < SUMMARY_LIMIT + 2_000, `${long.length} characters`);
    assert.match(long, /… \([\d,]+ more characters cut\)/);
    assert.ok(long.endsWith(`[Workflow run](${RUN_URL})`));
  });

  test("todo items are text: one line each, mentions and HTML defused, a long list shortened", () => {
    const todos: Todo[] = [
      { content: "ping @dave\nand <img src=x>", status: "pending" },
      ...Array.from({ length: 60 }, (_, i): Todo => ({ content: `step ${i}`, status: "pending" })),
    ];
    const body = renderProgress({ ...WORKING, todos });
    assert.ok(body.includes("- [ ] ping @\u200bdave and &lt;img src=x>\n"));
    assert.ok(body.includes("- [ ] step 48\n- … and 11 more"));
    assert.ok(!body.includes("step 49"));
  });
});

describe("the run's state in the comment", () => {
  test("a call with backticks shows as code that holds them", () => {
    const state = foldEvent(RUN_START, {
      type: "tool_start",
      turn: 2,
      call: { id: "c1", name: "bash", arguments: JSON.stringify({ command: "echo `date`" }) },
    });
    assert.equal(activityLine(state.activity), "`` bash echo `date` ``");
  });

  test(
    "a real session's events: the todo list the agent set (not the one refused), the current step, the totals",
    needsBwrap(),
    async (t) => {
      const fixture = createFixtureRepo("progress");
      const server = await startModelServer([
        callTools([{ name: "todo_write", arguments: JSON.stringify({ todos: TODOS }) }]),
        callTools([
          {
            name: "todo_write",
            arguments: JSON.stringify({
              todos: TODOS.map((todo) => ({ ...todo, status: "in_progress" })),
            }),
          },
          { name: "bash", arguments: JSON.stringify({ command: "printf ok" }) },
        ]),
        say("Done."),
      ]);
      t.after(async () => {
        await server.close();
        rmSync(fixture.root, { recursive: true, force: true });
      });
      const seen: { event: LoopEvent; body: string }[] = [];
      let work = RUN_START;
      const result = await runSession({
        workspace: fixture.repo,
        sandbox: { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
        model: createModelClient({ apiKey: "sk-test", model: "gpt-4.1", baseUrl: server.url }),
        messages: [
          { role: "system", content: "You fix bugs." },
          { role: "user", content: "Fix the parser." },
        ],
        limits: { maxTurns: 10 },
        promptCacheKey: "pitcrew-progress-test",
        env: { HOME: fixture.home, PATH: process.env.PATH },
        onEvent: (event) => {
          work = foldEvent(work, event);
          seen.push({ event, body: renderProgress({ ...BASE, ...work, phase: "working" }) });
        },
      });
      assert.equal(result.stopReason, "done");
      assert.deepEqual(work.todos, TODOS);
      assert.deepEqual(work.totals, { turns: 3, usage: result.usage, cost: result.cost });
      assert.equal(activityLine(work.activity), "waiting for the model (turn 3)");
      const atBash = seen.find(
        ({ event }) => event.type === "tool_start" && event.call.name === "bash",
      );
      assert.ok(atBash?.body.includes("Now: `bash printf ok`"));
      assert.ok(atBash?.body.includes("- [ ] **Fix the parser** ← in progress"));
    },
  );
});

// ---- The comment on GitHub --------------------------------------------------------------------

interface Recorded {
  op: "create" | "update";
  target: number;
  body: string;
}

/** A GitHub API that records each comment call; `gate` holds updates back until released. */
function recordingApi(faults: { create?: number; update?: boolean } = {}) {
  const calls: Recorded[] = [];
  let createFailures = faults.create ?? 0;
  let gate: Promise<void> | undefined;
  let release: () => void = () => undefined;
  return {
    calls,
    hold(): void {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: (): void => release(),
    createComment(issueNumber: number, body: string) {
      calls.push({ op: "create", target: issueNumber, body });
      if (createFailures-- > 0)
        return Promise.reject(new PitcrewError("github-api", "GitHub answered 502."));
      return Promise.resolve({
        id: 77,
        htmlUrl: "https://github.com/acme/app/issues/12#issuecomment-77",
      });
    },
    async updateComment(commentId: number, body: string) {
      calls.push({ op: "update", target: commentId, body });
      await gate;
      if (faults.update) throw new PitcrewError("github-api", "GitHub answered 502.");
    },
  };
}

/** An injected clock that moves the mocked timers with it. */
function clock(t: TestContext): { now: () => number; advance: (ms: number) => Promise<void> } {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let time = 0;
  return {
    now: () => time,
    advance: async (ms) => {
      time += ms;
      t.mock.timers.tick(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

function working(step: string): ProgressState {
  const call = { id: step, name: "bash", arguments: JSON.stringify({ command: `echo ${step}` }) };
  return { ...WORKING, activity: { kind: "tool", call } };
}

function recordingLog(): { warnings: string[]; warning(message: string): void } {
  const warnings: string[] = [];
  return { warnings, warning: (message) => void warnings.push(message) };
}

describe("createProgressComment", () => {
  test("creates the comment once, then edits it in place at most once per interval, newest state last", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi();
    const log = recordingLog();
    const comment = createProgressComment({ api, issueNumber: 12, log, minIntervalMs: 3000, now });

    await comment.start(working("one"));
    assert.deepEqual(api.calls, [
      { op: "create", target: 12, body: renderProgress(working("one")) },
    ]);
    assert.equal(comment.commentId, 77);

    comment.update(working("two"));
    comment.update(working("three"));
    comment.update(working("four"));
    await advance(2999);
    assert.equal(api.calls.length, 1, "no edit before the interval is up");
    await advance(1);
    assert.deepEqual(api.calls.slice(1), [
      { op: "update", target: 77, body: renderProgress(working("four")) },
    ]);

    comment.update(working("five"));
    await advance(2999);
    assert.equal(api.calls.length, 2);
    await advance(1);
    assert.equal(api.calls.at(-1)?.body, renderProgress(working("five")));

    await advance(10_000);
    comment.update(working("six"));
    await advance(0);
    assert.equal(
      api.calls.at(-1)?.body,
      renderProgress(working("six")),
      "a quiet comment edits at once",
    );
    assert.equal(api.calls.length, 4);
    assert.deepEqual(log.warnings, []);
  });

  test("finish writes the final state at once and waits for it; later updates are ignored", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi();
    const comment = createProgressComment({ api, issueNumber: 12, log: recordingLog(), now });
    await comment.start(working("one"));
    comment.update(working("two"));
    await comment.finish(DONE);
    assert.deepEqual(api.calls.slice(1), [
      { op: "update", target: 77, body: renderProgress(DONE) },
    ]);
    comment.update(working("after"));
    await advance(60_000);
    assert.equal(api.calls.length, 2, "the pending working state never overwrites the final one");
  });

  test("an edit under way lands before the final one", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi();
    const comment = createProgressComment({ api, issueNumber: 12, log: recordingLog(), now });
    await comment.start(working("one"));
    await advance(5000);
    api.hold();
    comment.update(working("two"));
    assert.equal(api.calls.at(-1)?.body, renderProgress(working("two")));
    const finishing = comment.finish(STOPPED);
    await advance(0);
    assert.equal(api.calls.length, 2, "the final edit waits for the one under way");
    api.release();
    await finishing;
    assert.deepEqual(
      api.calls.map((call) => call.body),
      [working("one"), working("two"), STOPPED].map(renderProgress),
    );
  });

  test("a failing edit is a warning, never a failed run", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi({ update: true });
    const log = recordingLog();
    const comment = createProgressComment({ api, issueNumber: 12, log, now });
    await comment.start(working("one"));
    await advance(5000);
    comment.update(working("two"));
    await advance(0);
    await comment.finish(FAILED);
    assert.equal(api.calls.length, 3);
    assert.deepEqual(log.warnings, [
      "Could not update the progress comment: github-api: GitHub answered 502.",
      "Could not update the progress comment: github-api: GitHub answered 502.",
    ]);
  });

  test("when the comment could not be created: a warning, no edits, and the final state posted at the end", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi({ create: 1 });
    const log = recordingLog();
    const comment = createProgressComment({ api, issueNumber: 12, log, now });
    await comment.start(working("one"));
    assert.equal(comment.commentId, undefined);
    comment.update(working("two"));
    await advance(5000);
    assert.equal(api.calls.length, 1);
    await comment.finish(NO_CHANGES);
    assert.deepEqual(api.calls.at(-1), {
      op: "create",
      target: 12,
      body: renderProgress(NO_CHANGES),
    });
    assert.equal(comment.commentId, 77);
    assert.deepEqual(log.warnings, [
      "Could not create the progress comment: github-api: GitHub answered 502.",
    ]);
  });

  test("a run that ends while the comment is still being created leaves one comment, final state last", async (t) => {
    const { now } = clock(t);
    const api = recordingApi();
    let created: () => void = () => undefined;
    const slow = {
      ...api,
      // GitHub takes its time with the creation; the run fails meanwhile.
      createComment: async (issueNumber: number, body: string) => {
        await new Promise<void>((resolve) => (created = resolve));
        return api.createComment(issueNumber, body);
      },
    };
    const comment = createProgressComment({ api: slow, issueNumber: 12, log: recordingLog(), now });
    const starting = comment.start(working("one"));
    const finishing = comment.finish(NO_CHANGES);
    await new Promise((resolve) => setImmediate(resolve));
    created();
    await Promise.all([starting, finishing]);
    assert.deepEqual(
      api.calls.map((call) => call.op),
      ["create", "update"],
    );
    assert.equal(api.calls.at(-1)?.body, renderProgress(NO_CHANGES));
  });

  test("a dispatched task has no thread to comment on: nothing is posted", async (t) => {
    const { now, advance } = clock(t);
    const api = recordingApi();
    const comment = createProgressComment({
      api,
      issueNumber: undefined,
      log: recordingLog(),
      now,
    });
    await comment.start(working("one"));
    comment.update(working("two"));
    await advance(5000);
    await comment.finish(DONE);
    assert.deepEqual(api.calls, []);
    assert.equal(comment.commentId, undefined);
  });
});
