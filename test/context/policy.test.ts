/**
 * layeredPolicy, the policy the session hands the loop and `context replay` measures: the
 * reminder built from the facts it is handed ends every request and counts in the budget, and the
 * ledger anchors the estimate on the usage it is told. Pure: facts and the note's model call are
 * functions here.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { layeredPolicy } from "../../src/context/policy.ts";
import { DEFAULT_CONTEXT } from "../../src/context/manager.ts";
import type { ReminderFacts } from "../../src/context/reminder.ts";
import { WHOLE_REMINDER, reminderText } from "../../src/context/reminder.ts";
import type { Message } from "../../src/domain/messages.ts";
import { ZERO_USAGE } from "../../src/domain/usage.ts";
import { HEAD, bashRound } from "../support/history.ts";

/** A small window whose answer room is 5% (the default's 1,024-token floor would dwarf it). */
const small = (window: number): { window: number; outputReserve: number } => ({
  window,
  outputReserve: Math.ceil(window * 0.05),
});

const round = (n: number, size: number): Message[] =>
  bashRound(n, `exit code: 0\n${`line of part ${n}\n`.repeat(size)}`, {
    command: `cat part${n}.txt`,
    text: `step ${n}`,
  });

const FACTS: ReminderFacts = {
  now: new Date("2026-01-15T09:00:00Z"),
  branch: "pitcrew/issue-7",
  todos: [
    { content: "reproduce the failure with the named test", status: "completed" },
    { content: "fix the parser's handling of empty input", status: "in_progress" },
    { content: "run the whole suite", status: "pending" },
  ],
  changedFiles: ["src/parser.ts"],
};

const facts = (): Promise<ReminderFacts> => Promise.resolve(FACTS);
/** The reminder while the start messages and the model's latest todo_write are in view. */
const SHORT = { branch: false, todos: false };
const noNote = (): Promise<string> => Promise.reject(new Error("no compaction expected"));

/** Rounds whose results the next requests send whole (under 600 characters: never stubbed). */
const history: Message[] = [...HEAD, ...Array.from({ length: 12 }, (_, n) => round(n, 30)).flat()];

describe("layeredPolicy", () => {
  test("the reminder from the facts ends the request, after the view of the history", async () => {
    const policy = layeredPolicy({ reminder: facts });
    const view = await policy.view(history, noNote);
    assert.deepEqual(view.messages.at(-1), { role: "user", content: reminderText(FACTS, SHORT) });
    assert.deepEqual(
      view.messages.slice(0, -1),
      history,
      "under the threshold: the history as it is",
    );
    assert.equal(view.compaction, null);
  });

  test("a reminder is sent only with news: files changed, or the clock five minutes on from the last time said", async () => {
    let facts: ReminderFacts = { ...FACTS, changedFiles: [] };
    const at = (minutes: number, changedFiles: string[] = []): void => {
      facts = { ...FACTS, now: new Date(FACTS.now.getTime() + minutes * 60_000), changedFiles };
    };
    const policy = layeredPolicy({ reminder: () => Promise.resolve(facts) });
    const ends = async (): Promise<string | null> => {
      const view = await policy.view(history, noNote);
      assert.equal(view.reminder, view.reminder === null ? null : view.messages.at(-1));
      if (view.reminder === null) assert.deepEqual(view.messages, history, "the view alone");
      return view.reminder?.content ?? null;
    };
    assert.equal(await ends(), null, "the start needs no saying");
    at(4);
    assert.equal(await ends(), null, "four minutes on, nothing else: nothing to say");
    at(5);
    assert.match((await ends()) ?? "", /^<reminder>\ntime: 2026-01-15T09:05Z\n<\/reminder>$/);
    at(7, ["src/parser.ts"]);
    assert.match(
      (await ends()) ?? "",
      /time: 2026-01-15T09:07Z\nthese files changed[^\n]*\n- src\/parser\.ts/,
    );
    at(11);
    assert.equal(await ends(), null, "the time was said at 09:07");
    at(12);
    assert.match((await ends()) ?? "", /time: 2026-01-15T09:12Z/);
    facts = { ...facts, nestedRepositories: ["vendor/lib"] };
    assert.match((await ends()) ?? "", /push-blocked-nested-repository: vendor\/lib\//);
  });

  test("the reminder counts: a history just under the threshold plus the reminder crosses it, and the layers fire", async () => {
    // The request's estimate without a reminder, with no threshold near.
    const probe = await layeredPolicy({ settings: { window: 10_000_000 } }).view(history, noNote);
    assert.deepEqual(probe.fired, []);
    // A window whose threshold (85%) the history alone stays just under.
    const window = Math.ceil((probe.tokens + 10) / DEFAULT_CONTEXT.compactAt);
    const alone = await layeredPolicy({ settings: small(window) }).view(history, noNote);
    assert.deepEqual(
      alone.fired,
      [],
      `${alone.tokens} tokens of ${window * DEFAULT_CONTEXT.compactAt}`,
    );

    const notes: Message[][] = [];
    const withReminder = layeredPolicy({ settings: small(window), reminder: facts });
    const view = await withReminder.view(history, (messages) => {
      notes.push(messages);
      return Promise.resolve("## Goal\nfix the parser");
    });
    // Nothing to stub or clear (every result is small): the handoff note is the layer that fires.
    assert.deepEqual(view.fired, ["compact"]);
    assert.equal(notes.length, 1);
    assert.deepEqual(view.compaction, {
      note: "## Goal\nfix the parser",
      from: view.compaction?.from,
    });
    assert.ok(view.tokens <= window * 0.95, `${view.tokens} tokens within the hard limit`);
    assert.equal(
      view.messages.at(-1)?.content,
      reminderText(FACTS, WHOLE_REMINDER),
      "the reminder still last, whole: the compaction cut the start messages away",
    );
  });

  test("after a compaction the reminder names the branch, and recites the list until the model writes it again", async () => {
    let todos = FACTS.todos;
    const policy = layeredPolicy({
      settings: { window: 4_000 },
      reminder: () => Promise.resolve({ ...FACTS, todos }),
    });
    const reminderOf = async (messages: Message[]): Promise<string> =>
      (await policy.view(messages, () => Promise.resolve("## Goal\nthe note"))).messages.at(-1)
        ?.content ?? "";
    const before = await reminderOf(history.slice(0, 6));
    assert.doesNotMatch(before, /branch|todo list/, "the start messages and todo_write show them");
    assert.match(before, /^<reminder>\ntime: 2026-01-15T09:00Z\nthese files changed/);

    await policy.compact(history, () => Promise.resolve("## Goal\nthe note"));
    const after = await reminderOf(history);
    assert.match(after, /branch: pitcrew\/issue-7\ntodo list:\n\[x\] reproduce[^\n]*\n\[~\] fix/);
    const again = await reminderOf(history);
    assert.match(again, /todo list:/, "still recited: the model has not written the list since");

    todos = [{ content: "run the whole suite", status: "in_progress" }];
    const written = await reminderOf(history);
    assert.doesNotMatch(written, /todo list/, "the model's own todo_write is the newest round");
    assert.match(written, /branch: pitcrew\/issue-7/, "the start messages are still cut away");
  });

  test("the ledger: the usage recorded anchors the next estimate", async () => {
    const policy = layeredPolicy({ reminder: facts, fixedTokens: 500 });
    const first = await policy.view(history, noNote);
    // The provider counted three times what was estimated: the next request is anchored on it.
    policy.record({ ...ZERO_USAGE, promptTokens: first.tokens * 3 });
    const next = [...history, ...round(99, 2)];
    const second = await policy.view(next, noNote);
    assert.ok(second.tokens > first.tokens * 2.5, `${second.tokens} after ${first.tokens}`);

    const unrecorded = layeredPolicy({ reminder: facts, fixedTokens: 500 });
    await unrecorded.view(history, noNote);
    const plain = await unrecorded.view(next, noNote);
    assert.ok(plain.tokens < first.tokens * 1.5, `${plain.tokens} with nothing reported`);
  });

  test("compact and dropOldest act on the layers' state: the note replaces the old history", async () => {
    const policy = layeredPolicy({ settings: { window: 4_000 } });
    const compaction = await policy.compact(history, () => Promise.resolve("## Goal\nthe note"));
    assert.equal(compaction.note, "## Goal\nthe note");
    const view = await policy.view(history, noNote);
    assert.match(view.messages[1]?.content ?? "", /^\[Handoff note[\s\S]*the note/);
    policy.dropOldest(history);
    const dropped = await policy.view(history, noNote);
    assert.ok(dropped.tokens < view.tokens, `${dropped.tokens} after ${view.tokens}`);
    assert.ok(
      dropped.messages.some((message) => /Earlier turns were dropped/.test(message.content)),
    );
  });
});
