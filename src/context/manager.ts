/**
 * The context layers' state between requests: keeps the sticky view state and the compaction,
 * and turns the stored history into the messages of the next request, the reminder last and
 * counted in the budget. Layers fire cheapest first: stubs always; clearing when the request
 * would pass `compactAt` of the window; the handoff note (one extra model call, made through the
 * compactor the caller hands in) when clearing was not enough; dropping whole turns or rounds
 * only as the last resort, or when the model rejects a request as too long. No I/O: the loop
 * reaches it through the context policy (policy.ts).
 */
import type { Compaction } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import { HANDOFF_REQUEST, keepFrom, noteMessage, systemMessages } from "./compact.ts";
import { EMPTY_VIEW_STATE, buildView, renderView } from "./view.ts";
import type { Layer, ViewState } from "./view.ts";
import type { TokenLedger } from "./tokens.ts";

export interface ContextSettings {
  /** The model's context window, in tokens. */
  window: number;
  /** Share of the window at which clearing, then compaction, fire. */
  compactAt: 0.85;
  /** Share of the window the newest messages may fill after a compaction. */
  keepAfterCompaction: 0.35;
  /** Share of the window the view may fill at most (the rest is room for the answer). */
  hardLimit: number;
}

export const DEFAULT_CONTEXT: ContextSettings = {
  window: 128_000,
  compactAt: 0.85,
  keepAfterCompaction: 0.35,
  hardLimit: 0.95,
};

/** Writes the handoff note: sends `messages` (the current view + the handoff request). */
export type Compactor = (messages: Message[]) => Promise<string>;

export interface Prepared {
  /** The view of the history, then the reminder when there is one. */
  messages: Message[];
  fired: (Layer | "compact")[];
  /** Estimated tokens of `messages`, the reminder included. */
  tokens: number;
}

export interface PrepareOptions {
  /**
   * The late-injected reminder: sent last, never stored, and counted in the budget. Made once the
   * view is known: `rebased` says this request compacted or dropped, so what the old start of the
   * view showed is gone. The budget reserves room for its larger form, `reminder(true)`.
   */
  reminder?: (rebased: boolean) => Message;
  /** Writes the handoff note; absent, layer 4 is skipped and the last resort is dropping. */
  compactor?: Compactor;
}

export interface ContextManagerOptions {
  settings?: Partial<ContextSettings>;
  estimate: (message: Message) => number;
  /**
   * Anchors the thresholds on the prompt tokens the API reported (tokens.ts); without it the
   * per-message estimates are summed.
   */
  ledger?: TokenLedger;
}

export class ContextManager {
  readonly settings: ContextSettings;
  readonly #estimate: (message: Message) => number;
  readonly #ledger: TokenLedger | undefined;
  #lastPrepared: { view: Message[]; tail: Message[] } = { view: [], tail: [] };
  #state: ViewState = EMPTY_VIEW_STATE;
  #compaction: Compaction | null = null;
  /** The note as sent: one object, so the requests after a compaction share it (and the ledger's anchor). */
  #note: Message | null = null;
  compactions = 0;

  constructor(options: ContextManagerOptions) {
    this.settings = { ...DEFAULT_CONTEXT, ...options.settings };
    this.#estimate = options.estimate;
    this.#ledger = options.ledger;
  }

  /** After a response: what the API reported for the request last prepared, reminder included. */
  record(promptTokens: number): void {
    const { view, tail } = this.#lastPrepared;
    this.#ledger?.record(view, promptTokens, tail);
  }

  /**
   * The request's tokens as best known (`view` then `tail`): anchored on the last report when
   * there is one.
   */
  #measure(view: readonly Message[], tail: readonly Message[]): number {
    return this.#ledger
      ? this.#ledger.estimate(view, tail).tokens
      : this.#total(view) + this.#total(tail);
  }

  get compaction(): Compaction | null {
    return this.#compaction;
  }

  /** The history the view is built from: after a compaction, system + note + the kept tail. */
  #base(history: readonly Message[]): Message[] {
    if (this.#compaction === null || this.#note === null) return [...history];
    return [...systemMessages(history), this.#note, ...history.slice(this.#compaction.from)];
  }

  #total(messages: readonly Message[]): number {
    return messages.reduce((sum, message) => sum + this.#estimate(message), 0);
  }

  /**
   * The messages of the next request: the view of `history`, then the reminder. The reminder's
   * tokens count against the thresholds like any other message's, so the request as sent stays
   * within them.
   */
  async prepare(history: readonly Message[], options: PrepareOptions = {}): Promise<Prepared> {
    const { window, compactAt, hardLimit } = this.settings;
    const reminder = options.reminder;
    const reserve = reminder ? [reminder(true)] : [];
    const tail = (fired: Prepared["fired"]): Message[] =>
      reminder ? [reminder(fired.includes("compact") || fired.includes("drop"))] : [];
    // The view's layers work on per-message estimates; scale their budgets by how far the
    // measure of the request lies above the plain sum. Measured as the sticky state sends the
    // history, before this request's new stubs: that is the last request plus what was appended
    // since, which the ledger anchors on the reported usage (a stub below the anchor would send
    // it back to estimating every message), and new stubs only make the request smaller.
    const current = renderView(this.#base(history), this.#state);
    const reserved = this.#total(reserve);
    const scale = Math.max(
      1,
      this.#measure(current, reserve) / Math.max(1, this.#total(current) + reserved),
    );
    const soft = buildView(this.#base(history), this.#state, {
      budget: (window * compactAt) / scale - reserved,
      estimate: this.#estimate,
      allowDrop: false,
    });
    this.#state = soft.state;
    const fired: Prepared["fired"] = [...soft.fired];
    if ((this.#total(soft.messages) + reserved) * scale <= window * compactAt) {
      return this.#prepared(soft.messages, tail(fired), fired, scale);
    }
    if (options.compactor) {
      await this.compact(history, options.compactor, soft.messages);
      fired.push("compact");
    }
    const hard = buildView(this.#base(history), this.#state, {
      budget: (window * hardLimit) / scale - reserved,
      estimate: this.#estimate,
    });
    this.#state = hard.state;
    fired.push(...hard.fired);
    return this.#prepared(hard.messages, tail(fired), fired, scale);
  }

  #prepared(view: Message[], tail: Message[], fired: Prepared["fired"], scale: number): Prepared {
    this.#lastPrepared = { view, tail };
    return {
      messages: [...view, ...tail],
      fired: [...new Set(fired)],
      tokens: Math.ceil((this.#total(view) + this.#total(tail)) * scale),
    };
  }

  /**
   * Layer 4: asks for the handoff note over `view` (the messages last sent, so the call hits the
   * prefix cache) and keeps the newest rounds within `keepAfterCompaction` of the window.
   */
  async compact(
    history: readonly Message[],
    compactor: Compactor,
    view?: Message[],
  ): Promise<Compaction> {
    const current = view ?? this.#viewFor(history);
    const note = await compactor([...current, { role: "user", content: HANDOFF_REQUEST }]);
    const start = this.#compaction?.from ?? systemMessages(history).length;
    const sent = noteMessage(note);
    const budget = this.settings.window * this.settings.keepAfterCompaction - this.#estimate(sent);
    // The tail is measured as it will be sent: stubbed (the layers start afresh on the new base).
    const stubbed = buildView(history, EMPTY_VIEW_STATE, {
      budget: Number.POSITIVE_INFINITY,
      estimate: this.#estimate,
      allowDrop: false,
    }).messages;
    const from = keepFrom(stubbed, start, Math.max(0, budget), this.#estimate);
    this.#compaction = { note, from };
    this.#note = sent;
    this.#state = EMPTY_VIEW_STATE;
    this.compactions += 1;
    return this.#compaction;
  }

  #viewFor(history: readonly Message[]): Message[] {
    const view = buildView(this.#base(history), this.#state, {
      budget: this.settings.window * this.settings.hardLimit,
      estimate: this.#estimate,
    });
    return view.messages;
  }

  /** After a too-long rejection that compaction did not cure: keep only the newest half of the rounds. */
  dropOldest(history: readonly Message[]): void {
    const base = this.#base(history);
    const current = this.#total(
      buildView(base, this.#state, { budget: Number.MAX_SAFE_INTEGER, estimate: this.#estimate })
        .messages,
    );
    const view = buildView(base, this.#state, {
      budget: Math.floor(current / 2),
      estimate: this.#estimate,
    });
    this.#state = view.state;
  }
}
