/**
 * Layer 2, stubs: what a stub says (about 300 characters that still name the result and how to
 * get it back) and when a result the model has moved past is worth stubbing. A stub is sent
 * uncached once (the prefix changes where it stands) and saves its result's tokens, at the cached
 * price, in every later request; so it pays only in a session that goes on long enough. The
 * session's length so far stands for what is still to come (a session that has run n requests
 * is as likely as not to run about n more). Pure: the view (view.ts) renders and hands in its
 * estimates.
 */
import { callSubject } from "../domain/messages.ts";
import type { Message, ToolCall } from "../domain/messages.ts";

/** Results up to this many characters are sent whole forever: a stub would not be shorter. */
export const SMALL_RESULT_CHARS = 600;
const STUB_LINE_CHARS = 100;

/** What a stub costs and saves in one session. */
export interface StubEconomics {
  /** Requests the session has made before this one. */
  requests: number;
  /**
   * Price of a cached input token relative to an uncached one. The cheaper the cache, the less a
   * stub saves: 0.1 (the GPT-5 family, Anthropic) is the least favourable to stubbing.
   */
  cachedPrice: number;
}

/** The call's key argument, short: what a stub or a notice names the result by. */
export function keyArguments(call: ToolCall | undefined): string {
  return (call ? callSubject(call) : null)?.slice(0, STUB_LINE_CHARS) ?? "";
}

function clip(line: string): string {
  const flat = line.trim();
  return flat.length > STUB_LINE_CHARS ? `${flat.slice(0, STUB_LINE_CHARS - 1)}…` : flat;
}

/** About 300 characters that still say what the result was and where to get it back. */
export function stubOf(
  result: Extract<Message, { role: "tool" }>,
  call: ToolCall | undefined,
): string {
  const lines = result.content.split("\n").filter((line) => line.trim() !== "");
  const exit = /^exit code: (\d+)/m.exec(result.content)?.[1];
  const spill = /full output[^:\n]*: (\S+)/i.exec(result.content)?.[1];
  const errorLine = lines.find((line) => /error|failed|exception|traceback/i.test(line));
  const parts = [`[stub: ${result.name}${keyArguments(call) ? ` \`${keyArguments(call)}\`` : ""}`];
  if (exit !== undefined) parts.push(`exit ${exit}`);
  parts.push(`${result.content.length} chars, ${lines.length} lines`);
  const shown = errorLine ?? lines.at(-1);
  const body = [
    `first: ${clip(lines[0] ?? "")}`,
    shown && shown !== lines[0] ? `${errorLine ? "error" : "last"}: ${clip(shown)}` : "",
  ]
    .filter(Boolean)
    .join(" | ");
  const back = spill ? `full output: ${spill}` : "run it again or re-read the file to see it whole";
  return `${parts.join(", ")}] ${body} — ${back}`;
}

/** Ids of tool results the model has moved past: an assistant message follows them. */
export function movedPast(history: readonly Message[]): string[] {
  const lastAssistant = history.findLastIndex((message) => message.role === "assistant");
  return history
    .slice(0, lastAssistant)
    .filter((message): message is Extract<Message, { role: "tool" }> => message.role === "tool")
    .filter((message) => message.content.length > SMALL_RESULT_CHARS)
    .map((message) => message.toolCallId);
}

/** The stub decisions a view holds (view.ts's ViewState, in part). */
export interface StubState {
  stubbed: ReadonlySet<string>;
  cleared: ReadonlySet<string>;
  /** Results left whole when the model moved past them: a stub would not have paid yet. */
  kept: ReadonlySet<string>;
}

/** What the decision needs of the view: its messages under a state, and a result's stub. */
export interface StubView<S extends StubState> {
  render(state: S): Message[];
  stub(result: Extract<Message, { role: "tool" }>): Message;
  estimate(message: Message): number;
}

/**
 * Prompt tokens below which a provider caches nothing (OpenAI's minimum, also Anthropic's and
 * Gemini's smallest): a stub that takes a request under it loses the cache of the whole prefix.
 */
export const CACHE_MIN_TOKENS = 1024;

/**
 * What one request of `size` tokens costs, in uncached-token units, when `fresh` of them are new:
 * the rest is served from the cache at `r`, unless the request is too small to be cached at all.
 */
function requestCost(size: number, fresh: number, r: number): number {
  return size < CACHE_MIN_TOKENS ? size : r * Math.max(0, size - fresh) + Math.min(size, fresh);
}

/**
 * The next stub decisions. A stub is sent uncached once, `(1 − r) × stub`, and from then on each
 * request costs what a request without the result's tokens costs (requestCost: at the cached
 * price; or all of it, when the request falls under the cache minimum). Stubbing pays when the
 * requests still to come, taken to be as many as the session has made, save more than that. A
 * result that did not pay when the model moved past it is kept whole; the kept ones are stubbed
 * together once their savings outweigh re-sending everything from the oldest of them uncached.
 * Without economics, every result is stubbed at once.
 */
export function decideStubs<S extends StubState>(
  history: readonly Message[],
  state: S,
  view: StubView<S>,
  economics: StubEconomics | undefined,
): { state: S; fired: boolean } {
  const fresh = movedPast(history).filter(
    (id) => !state.stubbed.has(id) && !state.cleared.has(id) && !state.kept.has(id),
  );
  if (economics === undefined) {
    if (fresh.length === 0) return { state, fired: false };
    return { state: { ...state, stubbed: new Set([...state.stubbed, ...fresh]) }, fired: true };
  }
  if (fresh.length === 0 && state.kept.size === 0) return { state, fired: false };
  const { requests: n, cachedPrice: r } = economics;
  const sent = view.render(state);
  const tokens = (messages: readonly Message[]): number =>
    messages.reduce((sum, message) => sum + view.estimate(message), 0);
  const size = tokens(sent);
  // What each request sends new: the newest round, from the last answer on.
  const newest = tokens(sent.slice(sent.findLastIndex((message) => message.role === "assistant")));
  const byId = new Map<string, { at: number; message: Extract<Message, { role: "tool" }> }>();
  for (const [at, message] of sent.entries())
    if (message.role === "tool") byId.set(message.toolCallId, { at, message });
  const results = new Map(
    history.flatMap((m) => (m.role === "tool" ? [[m.toolCallId, m] as const] : [])),
  );
  /** Tokens the result's stub takes off each request, and the stub's own. */
  const worth = (id: string): { saves: number; stub: number } => {
    const whole = byId.get(id)?.message;
    const original = results.get(id);
    if (whole === undefined || original === undefined) return { saves: 0, stub: 0 };
    const stub = view.estimate(view.stub(original));
    return { saves: Math.max(0, view.estimate(whole) - stub), stub };
  };
  /** Whether taking `saves` off every request for n requests outweighs `once` uncached now. */
  const pays = (saves: number, once: number): boolean =>
    n * (requestCost(size, newest, r) - requestCost(size - saves, newest, r)) >= (1 - r) * once;
  /**
   * What a change at message `at` sends uncached once: everything from it on, and the prefix
   * before it too when that is under the cache minimum.
   */
  const resent = (at: number, from: number): number => {
    const before = tokens(sent.slice(0, at));
    return (before < CACHE_MIN_TOKENS ? before : 0) + from;
  };
  const at = (ids: readonly string[]): number =>
    Math.min(...ids.map((id) => byId.get(id)?.at ?? Infinity));
  const stubbed = new Set(state.stubbed);
  const kept = new Set(state.kept);
  // The results just moved past, together (one round: one break in the prefix). Everything
  // after them is new in this request anyway, so only their stubs are sent anew.
  const placed = fresh.filter((id) => byId.has(id));
  if (placed.length > 0) {
    const gain = placed.map(worth);
    const saves = gain.reduce((sum, g) => sum + g.saves, 0);
    const stubs = gain.reduce((sum, g) => sum + g.stub, 0);
    const target = pays(saves, resent(at(placed), stubs)) ? stubbed : kept;
    for (const id of placed) target.add(id);
  }
  // The kept ones, together: their savings against re-sending all from the oldest of them.
  const waiting = [...state.kept].filter((id) => byId.has(id));
  if (waiting.length > 0) {
    const oldest = at(waiting);
    const saves = waiting.reduce((sum, id) => sum + worth(id).saves, 0);
    if (pays(saves, resent(oldest, tokens(sent.slice(oldest))))) {
      for (const id of waiting) {
        kept.delete(id);
        stubbed.add(id);
      }
    }
  }
  const fired = stubbed.size > state.stubbed.size;
  return { state: { ...state, stubbed, kept }, fired };
}
