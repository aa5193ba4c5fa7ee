/**
 * The context layer as the loop uses it: keeps the sticky view state and the compaction between
 * requests, and turns the stored history into the messages of the next request. Layers fire
 * cheapest first: stubs always; clearing when the view would pass `compactAt` of the window;
 * the handoff note (one extra model call) when clearing was not enough; dropping whole turns or
 * rounds only as the last resort, or when the model rejects a request as too long.
 */
import type { Compaction } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import { HANDOFF_REQUEST, keepFrom, noteMessage, systemMessages } from "./compact.ts";
import { EMPTY_VIEW_STATE, buildView } from "./view.ts";
import type { Layer, ViewState } from "./view.ts";
import type { TokenLedger } from "./tokens.ts";

export interface ContextSettings {
  /** The model's context window, in tokens. */
  window: number;
  /** Share of the window at which clearing, then compaction, fire. */
  compactAt: number;
  /** Share of the window the newest messages may fill after a compaction. */
  keepAfterCompaction: number;
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
  messages: Message[];
  fired: (Layer | "compact")[];
  /** Estimated tokens of `messages`. */
  tokens: number;
}

export interface ContextManagerOptions {
  settings?: Partial<ContextSettings>;
  estimate: (message: Message) => number;
  /** Absent (as in a replay without a model), layer 4 is skipped unless a stand-in is given. */
  compactor?: Compactor;
  onCompaction?: (compaction: Compaction) => void;
  /**
   * Anchors the thresholds on the prompt tokens the API reported (tokens.ts); without it the
   * per-message estimates are summed.
   */
  ledger?: TokenLedger;
}

export class ContextManager {
  readonly settings: ContextSettings;
  readonly #estimate: (message: Message) => number;
  readonly #compactor: Compactor | undefined;
  readonly #onCompaction: ((compaction: Compaction) => void) | undefined;
  readonly #ledger: TokenLedger | undefined;
  #lastPrepared: Message[] = [];
  #state: ViewState = EMPTY_VIEW_STATE;
  #compaction: Compaction | null = null;
  compactions = 0;

  constructor(options: ContextManagerOptions) {
    this.settings = { ...DEFAULT_CONTEXT, ...options.settings };
    this.#estimate = options.estimate;
    this.#compactor = options.compactor;
    this.#onCompaction = options.onCompaction;
    this.#ledger = options.ledger;
  }

  /** After a response: what the API reported for the messages last prepared (reminder aside). */
  record(promptTokens: number): void {
    this.#ledger?.record(this.#lastPrepared, promptTokens);
  }

  /** The request's tokens as best known: anchored on the last report when there is one. */
  #measure(messages: readonly Message[]): number {
    return this.#ledger ? this.#ledger.estimate(messages).tokens : this.#total(messages);
  }

  get compaction(): Compaction | null {
    return this.#compaction;
  }

  /** The history the view is built from: after a compaction, system + note + the kept tail. */
  #base(history: readonly Message[]): Message[] {
    if (this.#compaction === null) return [...history];
    return [
      ...systemMessages(history),
      noteMessage(this.#compaction.note),
      ...history.slice(this.#compaction.from),
    ];
  }

  #total(messages: readonly Message[]): number {
    return messages.reduce((sum, message) => sum + this.#estimate(message), 0);
  }

  /** The messages of the next request (without the reminder, which is never stored). */
  async prepare(history: readonly Message[]): Promise<Prepared> {
    const { window, compactAt, hardLimit } = this.settings;
    // The view's layers work on per-message estimates; scale their budgets by how far the
    // anchored measure of the current view lies above the plain sum.
    const plain = buildView(this.#base(history), this.#state, {
      budget: Infinity,
      estimate: this.#estimate,
    });
    const scale = Math.max(
      1,
      this.#measure(plain.messages) / Math.max(1, this.#total(plain.messages)),
    );
    const soft = buildView(this.#base(history), this.#state, {
      budget: (window * compactAt) / scale,
      estimate: this.#estimate,
      allowDrop: false,
    });
    this.#state = soft.state;
    const fired: Prepared["fired"] = [...soft.fired];
    if (this.#total(soft.messages) * scale <= window * compactAt) {
      return this.#prepared(soft.messages, fired, scale);
    }
    if (this.#compactor) {
      await this.compact(history, soft.messages);
      fired.push("compact");
    }
    const hard = buildView(this.#base(history), this.#state, {
      budget: (window * hardLimit) / scale,
      estimate: this.#estimate,
    });
    this.#state = hard.state;
    fired.push(...hard.fired);
    return this.#prepared(hard.messages, fired, scale);
  }

  #prepared(messages: Message[], fired: Prepared["fired"], scale: number): Prepared {
    this.#lastPrepared = messages;
    return {
      messages,
      fired: [...new Set(fired)],
      tokens: Math.ceil(this.#total(messages) * scale),
    };
  }

  /**
   * Layer 4: asks for the handoff note over `view` (the messages last sent, so the call hits the
   * prefix cache) and keeps the newest rounds within `keepAfterCompaction` of the window.
   */
  async compact(history: readonly Message[], view?: Message[]): Promise<Compaction> {
    if (!this.#compactor) throw new Error("compact() needs a compactor");
    const current = view ?? this.#viewFor(history);
    const note = await this.#compactor([...current, { role: "user", content: HANDOFF_REQUEST }]);
    const start = this.#compaction?.from ?? systemMessages(history).length;
    const budget =
      this.settings.window * this.settings.keepAfterCompaction - this.#estimate(noteMessage(note));
    const from = keepFrom(history, start, Math.max(0, budget), this.#estimate);
    this.#compaction = { note, from };
    this.#state = EMPTY_VIEW_STATE;
    this.compactions += 1;
    this.#onCompaction?.(this.#compaction);
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
