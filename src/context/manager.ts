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
import { PitcrewError } from "../errors.ts";
import { capOnce, waterLevel } from "./fit.ts";
import { REQUEST_OVERHEAD } from "./tokens.ts";
import type { TokenLedger } from "./tokens.ts";
import { EMPTY_VIEW_STATE, buildView, renderView } from "./view.ts";
import type { Layer, ViewState } from "./view.ts";
import type { StubEconomics } from "./stubs.ts";

/** How a request's tokens follow from its messages' estimates (ContextManager's #pricing). */
interface Pricing {
  fixed: number;
  scale: number;
}

export interface ContextSettings {
  /** The model's context window, in tokens. */
  window: number;
  /** Share of the window at which clearing, then compaction, fire. */
  compactAt: number;
  /** Share of the window the newest messages may fill after a compaction. */
  keepAfterCompaction: number;
  /**
   * Tokens kept free for the answer: no request is sent whose estimate passes the window minus
   * this. Default: 5% of the window, at least 1,024 (`outputReserve`).
   */
  outputReserve?: number;
  /**
   * Price of a cached input token relative to an uncached one, for deciding when a stub pays
   * (stubs.ts). Default 0.1, the cheapest cache and so the least favourable to stubbing.
   */
  cachedPrice?: number;
}

/**
 * Clearing (then compaction) fires at 90% of the window, and a compaction keeps 45% of it: every
 * clearing and compaction re-sends uncached what follows its edit, so the fewer of them the
 * better, and 90% still leaves 5% between the threshold and the hard limit (the window less the
 * answer's 5%) for the estimate's error, which the window guarantee covers in any case. Chosen by
 * a sweep (85–95%, 20–60%) of the replay at 32k on the corpus of other agents' sessions and on
 * the shared five: from 85% and 35%, the corpus's cache gap to naive went 8.7 → 7.6 points and
 * the shared set's 5.3 → 4.9, for 0.025 and 0.034 more cost at 0.1× (docs/context.md).
 */
export const DEFAULT_CONTEXT: ContextSettings = {
  window: 128_000,
  compactAt: 0.9,
  keepAfterCompaction: 0.45,
};

/** The tokens kept free for the answer (ContextSettings.outputReserve, or its default). */
export function outputReserve(settings: ContextSettings): number {
  return settings.outputReserve ?? Math.max(1_024, Math.ceil(settings.window * 0.05));
}

/** The most tokens any request may be estimated at: the window less the answer's room. */
export function requestLimit(settings: ContextSettings): number {
  return settings.window - outputReserve(settings);
}

/**
 * The most one message may take in any view, as a share of the request limit: a larger message,
 * of any role, is sent cut to it. A fifth leaves room, after scaling, for the first messages, the
 * newest round and the reminder together.
 */
const MESSAGE_CAP_SHARE = 1 / 5;

/** No message is cut below this many tokens: a notice of what was cut needs about 40. */
const MESSAGE_FLOOR_TOKENS = 64;

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
   * view showed is gone, and it always says something then; otherwise it may have nothing to say
   * (null: the request ends with the view). The budget reserves room for its larger form,
   * `reminder(true)`.
   */
  reminder?: (rebased: boolean) => Message | null;
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
  /** Requests prepared so far: the session's length, which stands for what is still to come. */
  #requests = 0;
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
   * How the request's tokens follow from the per-message estimates: `fixed`, the tokens every
   * request carries besides its messages (the tool definitions, as the ledger prices text it has
   * no count for), plus `scale` × the messages' estimates. `scale` is measured on `current` (the
   * history as the sticky state sends it, before this request's new stubs: the last request plus
   * what was appended since, which the ledger anchors on the reported usage), and new stubs only
   * make a request smaller.
   */
  #pricing(current: readonly Message[], tail: readonly Message[]): Pricing {
    const ledger = this.#ledger;
    const messages = this.#total(current) + this.#total(tail);
    if (ledger === undefined) return { fixed: 0, scale: 1 };
    const fixed = Math.ceil(ledger.ratio * ledger.margin * (ledger.fixedTokens + REQUEST_OVERHEAD));
    const measured = ledger.estimate(current, tail).tokens;
    return { fixed, scale: Math.max(1, (measured - fixed) / Math.max(1, messages)) };
  }

  /** The estimated tokens of a request of these messages. */
  #tokens(messages: readonly Message[], pricing: Pricing): number {
    return pricing.fixed + Math.ceil(this.#total(messages) * pricing.scale);
  }

  /** The message-estimate budget that keeps a request within `tokens`. */
  #budget(tokens: number, pricing: Pricing): number {
    return (tokens - pricing.fixed) / pricing.scale;
  }

  /** What a stub costs and saves in this session so far (stubs.ts). */
  get #economics(): StubEconomics {
    return { requests: this.#requests, cachedPrice: this.settings.cachedPrice ?? 0.1 };
  }

  get #messageCap(): number {
    return Math.floor(requestLimit(this.settings) * MESSAGE_CAP_SHARE);
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
   * within them; and whatever the history holds, no request is estimated above the window less
   * the answer's room (`requestLimit`), or none is made (`context-window-too-small`).
   */
  async prepare(history: readonly Message[], options: PrepareOptions = {}): Promise<Prepared> {
    const { window, compactAt } = this.settings;
    const limit = requestLimit(this.settings);
    const threshold = Math.min(window * compactAt, limit);
    const reminder = options.reminder;
    const reserve = [reminder?.(true)].filter((message) => message != null);
    const tail = (fired: Prepared["fired"]): Message[] =>
      [reminder?.(fired.includes("compact") || fired.includes("drop"))].filter(
        (message) => message != null,
      );
    const messageCap = this.#messageCap;
    const current = renderView(this.#base(history), this.#state, {
      tokens: messageCap,
      estimate: this.#estimate,
    });
    const pricing = this.#pricing(current, reserve);
    const reserved = this.#total(reserve);
    const soft = buildView(this.#base(history), this.#state, {
      budget: this.#budget(threshold, pricing) - reserved,
      estimate: this.#estimate,
      allowDrop: false,
      messageCap,
      economics: this.#economics,
    });
    this.#state = soft.state;
    const fired: Prepared["fired"] = [...soft.fired];
    if (this.#tokens([...soft.messages, ...reserve], pricing) <= threshold) {
      return this.#prepared(soft.messages, tail(fired), fired, pricing);
    }
    if (options.compactor) {
      await this.compact(history, options.compactor, soft.messages, pricing);
      fired.push("compact");
    }
    const hard = buildView(this.#base(history), this.#state, {
      budget: this.#budget(limit, pricing) - reserved,
      estimate: this.#estimate,
      messageCap,
      economics: this.#economics,
    });
    this.#state = hard.state;
    fired.push(...hard.fired);
    return this.#prepared(hard.messages, tail(fired), fired, pricing);
  }

  #prepared(
    view: Message[],
    tail: Message[],
    fired: Prepared["fired"],
    pricing: Pricing,
  ): Prepared {
    this.#requests += 1;
    const messages = this.#fit([...view, ...tail], pricing);
    const sentView = messages.slice(0, view.length);
    const sentTail = messages.slice(view.length);
    this.#lastPrepared = { view: sentView, tail: sentTail };
    return { messages, fired: [...new Set(fired)], tokens: this.#tokens(messages, pricing) };
  }

  /**
   * The last resort of the window guarantee, for what the layers cannot shrink (a first message, a
   * newest round or a reminder too large together): every message above one common level is cut
   * to it, the highest level at which the request fits. Nothing fits even at the floor (the tool
   * definitions alone, or too many messages): `context-window-too-small`, and nothing is sent.
   */
  #fit(messages: Message[], pricing: Pricing): Message[] {
    const limit = requestLimit(this.settings);
    if (this.#tokens(messages, pricing) <= limit) return messages;
    const budget = Math.floor(this.#budget(limit, pricing));
    const level = waterLevel(messages.map(this.#estimate), budget, MESSAGE_FLOOR_TOKENS);
    const fitted =
      level === null
        ? messages
        : messages.map((message) => capOnce(message, level, this.#estimate));
    if (level === null || this.#tokens(fitted, pricing) > limit) {
      const { window } = this.settings;
      throw new PitcrewError(
        "context-window-too-small",
        `No request fits the model's context window: the tool definitions take about ${pricing.fixed} tokens and ${messages.length} messages at least ${MESSAGE_FLOOR_TOKENS} each, against ${limit} (a window of ${window} less ${outputReserve(this.settings)} kept for the answer). Set the context window to the model's real window if it is larger (the action's context-window input, pitcrew run's --context-window), or use a model with a larger one.`,
      );
    }
    return fitted;
  }

  /**
   * Layer 4: asks for the handoff note over `view` (the messages last sent, so the call hits the
   * prefix cache) and keeps the newest rounds within `keepAfterCompaction` of the window. The
   * note's own request is held to the window like any other: when the view plus the request would
   * not fit, the oldest rounds are left out of it first.
   */
  async compact(
    history: readonly Message[],
    compactor: Compactor,
    view?: Message[],
    pricing?: Pricing,
  ): Promise<Compaction> {
    const current = view ?? this.#viewFor(history);
    const priced = pricing ?? this.#pricing(current, []);
    const note = await compactor(this.#summaryRequest(history, current, priced));
    const start = this.#compaction?.from ?? systemMessages(history).length;
    const sent = noteMessage(note);
    const budget = this.settings.window * this.settings.keepAfterCompaction - this.#estimate(sent);
    // The tail is measured as it will be sent: stubbed where a stub pays, and capped (the layers
    // start afresh on the new base).
    const asSent = buildView(history, EMPTY_VIEW_STATE, {
      budget: Number.POSITIVE_INFINITY,
      estimate: this.#estimate,
      allowDrop: false,
      messageCap: this.#messageCap,
      economics: this.#economics,
    }).messages;
    const from = keepFrom(asSent, start, Math.max(0, budget), this.#estimate);
    this.#compaction = { note, from };
    this.#note = sent;
    this.#state = EMPTY_VIEW_STATE;
    this.compactions += 1;
    return this.#compaction;
  }

  /** The handoff note's request: `view` and the handoff request, within the request limit. */
  #summaryRequest(history: readonly Message[], view: Message[], pricing: Pricing): Message[] {
    const ask: Message = { role: "user", content: HANDOFF_REQUEST };
    const whole = [...view, ask];
    if (this.#tokens(whole, pricing) <= requestLimit(this.settings)) return whole;
    const smaller = buildView(this.#base(history), this.#state, {
      budget: this.#budget(requestLimit(this.settings), pricing) - this.#estimate(ask),
      estimate: this.#estimate,
      messageCap: this.#messageCap,
    });
    return this.#fit([...smaller.messages, ask], pricing);
  }

  #viewFor(history: readonly Message[]): Message[] {
    const view = buildView(this.#base(history), this.#state, {
      budget: requestLimit(this.settings),
      estimate: this.#estimate,
      messageCap: this.#messageCap,
    });
    return view.messages;
  }

  /** After a too-long rejection that compaction did not cure: keep only the newest half of the rounds. */
  dropOldest(history: readonly Message[]): void {
    const base = this.#base(history);
    const messageCap = this.#messageCap;
    const current = this.#total(
      buildView(base, this.#state, {
        budget: Number.MAX_SAFE_INTEGER,
        estimate: this.#estimate,
        messageCap,
      }).messages,
    );
    const view = buildView(base, this.#state, {
      budget: Math.floor(current / 2),
      estimate: this.#estimate,
      messageCap,
    });
    this.#state = view.state;
  }
}
