/**
 * The view: what one request sends, built from the append-only history by pure functions. Two
 * layers live here — stubs (a tool result the model has moved past becomes a short stub) and
 * clearing (when the view would exceed its budget, old results are cleared in batches, then whole
 * old turns or rounds are dropped). Decisions are sticky: the returned state is fed to the next
 * call, so a result stubbed or cleared once stays so, and consecutive requests share their prefix
 * except where a layer fired. Nothing here does I/O or changes the history.
 */
import type { Message, ToolCall } from "../domain/messages.ts";
import { BULKY_ARGUMENT_CHARS, capOnce, slimArguments } from "./fit.ts";
import { decideStubs, keyArguments, stubOf } from "./stubs.ts";
import type { StubEconomics } from "./stubs.ts";

export { SMALL_RESULT_CHARS, stubOf } from "./stubs.ts";

export interface ViewState {
  /** Tool-call ids whose results are sent as stubs. */
  stubbed: ReadonlySet<string>;
  /** Tool-call ids whose results (and bulky arguments) are sent as a one-line notice. */
  cleared: ReadonlySet<string>;
  /** Tool-call ids whose results the stub layer left whole when the model moved past them. */
  kept: ReadonlySet<string>;
  /** History index where the kept tail starts after a drop (0: nothing dropped). */
  dropBefore: number;
}

export const EMPTY_VIEW_STATE: ViewState = {
  stubbed: new Set(),
  cleared: new Set(),
  kept: new Set(),
  dropBefore: 0,
};

export interface ViewOptions {
  /** Tokens the view may hold. */
  budget: number;
  /** May whole turns or rounds be dropped to fit (the last resort)? Default: yes. */
  allowDrop?: boolean;
  /** Token estimate of one message (memoised by the caller). */
  estimate: (message: Message) => number;
  /**
   * What a stub costs and saves (stubs.ts); absent, every result the model moves past is stubbed
   * at once.
   */
  economics?: StubEconomics;
  /**
   * The most tokens one message may take in the view, whatever its role: a larger one is sent cut
   * to it (fit.ts). The same for a whole session, so a message cut once is cut the same way in
   * every later request. Default: no cap.
   */
  messageCap?: number;
}

export type Layer = "stub" | "clear" | "drop";

export interface View {
  messages: Message[];
  state: ViewState;
  /** The layers that changed something in this call (the prefix changed where they did). */
  fired: Layer[];
}

/** A clearing event removes at least this many results… */
export const CLEAR_AT_LEAST_RESULTS = 4;
/** …and at least this share of the budget. */
export const CLEAR_AT_LEAST_SHARE = 0.1;
/**
 * A result is cleared only if what is sent for it is more than this many times the notice: a
 * stub (about 3×) is not worth a clearing event, which re-sends everything after it uncached.
 * Measured with the replay of the policy as it runs (the ledger, the reminder) at a 32k window
 * (cache-hit ratio; input cost against naive with cached reads at 0.1×): 2×, 0.906 and 0.581;
 * 4×, 0.909 and 0.567; 6×, 0.919 and 0.546; 8×, 0.922 and 0.538; 10×, 0.922 and 0.523; 15×, the
 * same as 10×.
 */
export const CLEAR_MIN_GAIN = 10;

function callsById(history: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of history) {
    if (message.role === "assistant")
      for (const call of message.toolCalls) calls.set(call.id, call);
  }
  return calls;
}

export function clearedNotice(
  result: Extract<Message, { role: "tool" }>,
  call: ToolCall | undefined,
): string {
  const what = keyArguments(call);
  return `[cleared to save space: ${result.name}${what ? ` \`${what}\`` : ""}; run it again or re-read the file if you need it]`;
}

/**
 * A replacement message per original and kind, made once: later views reuse the very same object,
 * so it stays byte-identical and its token estimate (memoised per object) is computed once.
 */
const replacements = new WeakMap<Message, Map<string, Message>>();

function replaced(message: Message, kind: string, make: () => Message): Message {
  const known = replacements.get(message) ?? new Map<string, Message>();
  replacements.set(message, known);
  const found = known.get(kind);
  if (found) return found;
  const made = make();
  known.set(kind, made);
  return made;
}

const DROP_NOTICE: Message = {
  role: "user",
  content:
    "[Earlier turns were dropped to fit the context window. Their effects are in the files: check the working tree (git status, git diff) and re-read what you need.]",
};

/** The per-message cap of a view (ViewOptions.messageCap) with the estimate it is measured by. */
export interface MessageCap {
  tokens: number;
  estimate: (message: Message) => number;
}

/** The message as sent under `cap`: cut to it when larger (the same object every time). */
function underCap(message: Message, cap: MessageCap | undefined): Message {
  return cap === undefined ? message : capOnce(message, cap.tokens, cap.estimate);
}

/** The history as this state sends it, before any new decision. */
function render(
  history: readonly Message[],
  state: ViewState,
  calls: Map<string, ToolCall>,
  cap?: MessageCap,
): Message[] {
  const kept =
    state.dropBefore > 0
      ? [...firstMessages(history), DROP_NOTICE, ...history.slice(state.dropBefore)]
      : [...history];
  return kept.map((message) => underCap(decided(message, state, calls), cap));
}

/** A result as its stub (the same object every time). */
function stubbed(result: Extract<Message, { role: "tool" }>, call: ToolCall | undefined): Message {
  return replaced(result, "stub", () => ({ ...result, content: stubOf(result, call) }));
}

/** A message as the stub and clear decisions of `state` send it. */
function decided(message: Message, state: ViewState, calls: Map<string, ToolCall>): Message {
  if (message.role === "tool") {
    const call = calls.get(message.toolCallId);
    if (state.cleared.has(message.toolCallId)) {
      return replaced(message, "clear", () => ({
        ...message,
        content: clearedNotice(message, call),
      }));
    }
    if (state.stubbed.has(message.toolCallId)) return stubbed(message, call);
  }
  if (
    message.role === "assistant" &&
    message.toolCalls.some((call) => state.cleared.has(call.id))
  ) {
    const ids = message.toolCalls
      .filter((call) => state.cleared.has(call.id))
      .map((call) => call.id);
    return replaced(message, `clear:${ids.join(",")}`, () => ({
      ...message,
      toolCalls: message.toolCalls.map((call) =>
        state.cleared.has(call.id) ? slimArguments(call) : call,
      ),
    }));
  }
  return message;
}

/**
 * The history as `state` sends it, no new decision taken: the request before this one plus what
 * was appended since, the very same message objects (so a ledger anchored on that request
 * recognises its prefix).
 */
export function renderView(
  history: readonly Message[],
  state: ViewState,
  cap?: MessageCap,
): Message[] {
  return render(history, state, callsById(history), cap);
}

/** The system prompt and the task: kept whatever is dropped. */
function firstMessages(history: readonly Message[]): Message[] {
  const firstUser = history.findIndex((message) => message.role === "user");
  return history.slice(0, firstUser + 1);
}

function total(messages: readonly Message[], estimate: (message: Message) => number): number {
  return messages.reduce((sum, message) => sum + estimate(message), 0);
}

/** Indexes where a drop may start: user turns first, else rounds (an assistant message). */
function cutPoints(
  history: readonly Message[],
  from: number,
  role: "user" | "assistant",
): number[] {
  const points: number[] = [];
  for (let index = from; index < history.length; index++)
    if (history[index]?.role === role) points.push(index);
  return points;
}

export function buildView(
  history: readonly Message[],
  previous: ViewState,
  options: ViewOptions,
): View {
  const calls = callsById(history);
  const cap =
    options.messageCap === undefined
      ? undefined
      : { tokens: options.messageCap, estimate: options.estimate };
  const fired: Layer[] = [];
  let state = previous;

  // Layer 2: stub what the model has moved past, when the stub pays for the cache it breaks.
  const stubbing = decideStubs(
    history,
    state,
    {
      render: (decided) => render(history, decided, calls, cap),
      stub: (result) => stubbed(result, calls.get(result.toolCallId)),
      estimate: options.estimate,
    },
    options.economics,
  );
  state = stubbing.state;
  if (stubbing.fired) fired.push("stub");
  let messages = render(history, state, calls, cap);
  if (total(messages, options.estimate) <= options.budget) return { messages, state, fired };

  // Layer 3a: clear the oldest results in one batch, keeping the newest within a quarter budget.
  const results = history
    .map((message, index) => ({ message, index }))
    .filter(
      (entry): entry is { message: Extract<Message, { role: "tool" }>; index: number } =>
        entry.message.role === "tool",
    )
    .filter(({ index }) => index >= state.dropBefore);
  const keep = new Set<string>();
  let kept = 0;
  for (const { message } of [...results].reverse()) {
    const size = options.estimate(message);
    if (keep.size > 0 && kept + size > options.budget / 4) break;
    keep.add(message.toolCallId);
    kept += size;
  }
  const candidates = results.filter(
    ({ message }) => !keep.has(message.toolCallId) && !state.cleared.has(message.toolCallId),
  );
  const excess = total(messages, options.estimate) - options.budget;
  const goal = Math.max(excess, options.budget * CLEAR_AT_LEAST_SHARE);
  const sent = new Map(
    messages.flatMap((m) => (m.role === "tool" ? [[m.toolCallId, m] as const] : [])),
  );
  const clearing: string[] = [];
  let freed = 0;
  for (const { message } of candidates) {
    const rendered = sent.get(message.toolCallId);
    const call = calls.get(message.toolCallId);
    // What clearing saves: the result as sent, and the call's bulky arguments (write contents).
    const argumentTokens = (text: string): number =>
      options.estimate({ role: "user", content: text });
    const bulky = call !== undefined && call.arguments.length > BULKY_ARGUMENT_CHARS;
    const before =
      (rendered ? options.estimate(rendered) : 0) + (bulky ? argumentTokens(call.arguments) : 0);
    // The same notice object render() will send, so its estimate is computed once.
    const notice = replaced(message, "clear", () => ({
      ...message,
      content: clearedNotice(message, call),
    }));
    const after =
      options.estimate(notice) + (bulky ? argumentTokens(slimArguments(call).arguments) : 0);
    if (before <= after * CLEAR_MIN_GAIN) continue;
    clearing.push(message.toolCallId);
    freed += before - after;
    if (clearing.length >= CLEAR_AT_LEAST_RESULTS && freed >= goal) break;
  }
  if (clearing.length > 0) {
    state = { ...state, cleared: new Set([...state.cleared, ...clearing]) };
    fired.push("clear");
    messages = render(history, state, calls, cap);
    if (total(messages, options.estimate) <= options.budget) return { messages, state, fired };
  }

  if (options.allowDrop === false) return { messages, state, fired };

  // Layer 3b: drop the oldest whole user turns, then the oldest whole tool rounds, that do not fit.
  // Each history message renders the same whatever is dropped before it, so the size of a kept
  // tail is a suffix sum: one pass finds the earliest cut that fits.
  const head = firstMessages(history);
  const start = Math.max(state.dropBefore, head.length);
  const full = render(history, { ...state, dropBefore: 0 }, calls, cap);
  const suffix = new Array<number>(full.length + 1).fill(0);
  for (let index = full.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] ?? 0) + options.estimate(full[index] as Message);
  }
  const fixed = total(full.slice(0, head.length), options.estimate) + options.estimate(DROP_NOTICE);
  const fits = (cut: number): boolean => fixed + (suffix[cut] ?? 0) <= options.budget;
  for (const role of ["user", "assistant"] as const) {
    const cut = cutPoints(history, start, role).find(
      (point) => point > state.dropBefore && fits(point),
    );
    if (cut !== undefined) {
      const trial = { ...state, dropBefore: cut };
      return {
        messages: render(history, trial, calls, cap),
        state: trial,
        fired: [...fired, "drop"],
      };
    }
  }
  // Nothing fits but the newest round: send it; the caller's compaction (layer 4) is next.
  const last = cutPoints(history, start, "assistant").at(-1);
  if (last !== undefined && last > state.dropBefore) {
    const trial = { ...state, dropBefore: last };
    return {
      messages: render(history, trial, calls, cap),
      state: trial,
      fired: [...fired, "drop"],
    };
  }
  return { messages, state, fired };
}
