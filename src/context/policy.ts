/**
 * The context policy the loop is handed, as pi-mono's loop is handed its context transform: the
 * loop asks it for each request's messages, tells it what the API reported, and asks it to make
 * room when the model rejects a request as too long. The loop builds no context state of its own.
 *
 * `layeredPolicy` is pitcrew's policy, the one the session hands the loop and the one `context
 * replay` measures: the layers (manager.ts), the token ledger that anchors them on the reported
 * usage (tokens.ts), and the late-injected reminder (reminder.ts), whose tokens count in the
 * budget. No I/O: the reminder's facts and the handoff note's model call come in as functions.
 */
import type { Compaction } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import type { Usage } from "../domain/usage.ts";
import { ContextManager } from "./manager.ts";
import type { Compactor, ContextSettings, Prepared } from "./manager.ts";
import { WHOLE_REMINDER, reminderMessage, reminderNews, sameTodos } from "./reminder.ts";
import type { ReminderFacts } from "./reminder.ts";
import { TokenLedger, estimateMessage } from "./tokens.ts";

/** One request as the policy builds it. */
export interface RequestView {
  /** What to send: the view of the history, then the reminder (never stored). */
  messages: Message[];
  /** The layers that changed the view this time (the prompt prefix changed where they did). */
  fired: Prepared["fired"];
  /** Estimated prompt tokens of `messages`. */
  tokens: number;
  /** The handoff note this view was built on, when it compacted to build it. */
  compaction: Compaction | null;
  /** The reminder that ends `messages`, or null when it had nothing to say. */
  reminder: Message | null;
}

export interface ContextPolicy {
  /**
   * The messages of the next request over `history` (the stored, append-only history). When the
   * layers must compact, `summarize` makes the model call that writes the handoff note.
   */
  view(history: readonly Message[], summarize: Compactor): Promise<RequestView>;
  /** After a response: the usage the API reported for the request last viewed. */
  record(usage: Usage): void;
  /** After a too-long rejection: the handoff note, written now. */
  compact(history: readonly Message[], summarize: Compactor): Promise<Compaction>;
  /** After a too-long rejection that compaction did not cure: drop the oldest half. */
  dropOldest(history: readonly Message[]): void;
}

export interface LayeredPolicyOptions {
  /** The context window and the layers' thresholds (defaults: manager.ts). */
  settings?: Partial<ContextSettings>;
  /**
   * Tokens every request carries besides its messages: the tool definitions
   * (`estimateText(JSON.stringify(definitions))`).
   */
  fixedTokens?: number;
  /** The volatile facts of the next request; absent, requests carry no reminder. */
  reminder?: () => Promise<ReminderFacts>;
}

export function layeredPolicy(options: LayeredPolicyOptions = {}): ContextPolicy {
  const manager = new ContextManager({
    settings: options.settings,
    estimate: estimateMessage,
    ledger: new TokenLedger({ fixedTokens: options.fixedTokens ?? 0 }),
  });
  // What the view shows besides the history's newest round, for the reminder to leave out. At the
  // start, the start messages name the branch and show the todo list (empty, or the one a
  // continued run restored). A change of the list is the model's own todo_write, in the newest
  // round. A compaction or a drop cuts the start messages and maybe that call away: from then on
  // the reminder names the branch, and recites the list until the model writes it again.
  const cut = { branch: false, todos: false };
  const rebase = (): void => {
    cut.branch = true;
    cut.todos = true;
  };
  let lastTodos: ReminderFacts["todos"] = [];
  // The time the last reminder said; the session's first facts stand for its start.
  let timeSaid: Date | null = null;
  return {
    async view(history, summarize) {
      const facts = options.reminder ? await options.reminder() : null;
      if (facts && !sameTodos(facts.todos, lastTodos)) cut.todos = false;
      lastTodos = facts?.todos ?? [];
      timeSaid ??= facts?.now ?? null;
      const show = { ...cut };
      const news = facts !== null && timeSaid !== null && reminderNews(facts, show, timeSaid);
      const prepared = await manager.prepare(history, {
        reminder: facts
          ? (rebased) =>
              rebased
                ? reminderMessage(facts, WHOLE_REMINDER)
                : news
                  ? reminderMessage(facts, show)
                  : null
          : undefined,
        compactor: summarize,
      });
      const rebased = prepared.fired.includes("compact") || prepared.fired.includes("drop");
      // A rebased request always ends with the whole reminder; otherwise only news makes one.
      const reminded = facts !== null && (news || rebased);
      if (reminded) timeSaid = facts.now;
      if (rebased) rebase();
      return {
        ...prepared,
        compaction: prepared.fired.includes("compact") ? manager.compaction : null,
        reminder: reminded ? (prepared.messages.at(-1) ?? null) : null,
      };
    },
    record(usage) {
      manager.record(usage.promptTokens);
    },
    compact(history, summarize) {
      rebase();
      return manager.compact(history, summarize);
    },
    dropOldest(history) {
      rebase();
      manager.dropOldest(history);
    },
  };
}
