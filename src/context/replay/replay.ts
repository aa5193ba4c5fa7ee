/**
 * The replay harness: walks a recorded session request by request, as the loop would have built
 * them, sends each through a context policy and through the naive baseline, and measures what
 * each would have cost — tokens counted exactly (o200k, not the loop's estimator), cache hits by
 * OpenAI's prefix rule, input cost with cached reads at 0.1× and 0.25×. Pure (the tokenizer is a
 * table in memory); reading files and printing are the command's.
 */
import { countTokens, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { Message } from "../../domain/messages.ts";
import type { ToolDefinition } from "../../domain/tools.ts";
import { PitcrewError } from "../../errors.ts";
import type { RecordedSession, SessionFormat } from "./parse.ts";
import type { PolicyFactory, ReplayPolicy } from "./policy.ts";

export const TOKENIZER = "o200k_base";

/** Every message is framed as `<|im_start|>{role}<|im_sep|>` + text + `<|im_end|>`. */
export const MESSAGE_FRAMING_TOKENS = 4;
/** The framing tokens before the text: a message's first tokens, equal when the roles are. */
const FRAMING_BEFORE = 3;

/** OpenAI caches a prefix only from this many tokens on… */
export const CACHE_MIN_TOKENS = 1024;
/** …and in steps of this many. */
export const CACHE_STEP_TOKENS = 128;

/** Price of a cached input token relative to an uncached one: GPT-5 family, GPT-4.1. */
export const CACHED_READ_RATIOS = [0.1, 0.25] as const;

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of plain text (special-token spellings in it count as text, as an API sees them). */
export function countText(text: string): number {
  return text === "" ? 0 : countTokens(text, PLAIN_TEXT);
}

/**
 * The text of one message as counted: the content; for an assistant message, then one line per
 * tool call (`name arguments`). Ids are not counted. The same serialisation is used for every
 * policy and for naive, so only differences between views matter.
 */
export function messageText(message: Message): string {
  if (message.role !== "assistant") return message.content;
  return (
    message.content + message.toolCalls.map((call) => `\n${call.name} ${call.arguments}`).join("")
  );
}

/** The tool definitions as counted: their JSON, in order, in front of every request. */
export function toolsText(tools: readonly ToolDefinition[]): string {
  return tools.length === 0 ? "" : JSON.stringify(tools);
}

/** One counted piece of a request: the tools, or one message. */
export interface Segment {
  role: Message["role"] | "tools";
  text: string;
  tokens: number;
}

/**
 * Exact token counts, memoised per message object and per text, so a replay tokenizes each
 * distinct message once however many requests carry it (policies that rebuild a changed message
 * on every call still hit the text memo).
 */
export class TokenCounter {
  private readonly byMessage = new WeakMap<Message, Segment>();
  private readonly byText = new Map<string, number>();

  text(text: string): number {
    let tokens = this.byText.get(text);
    if (tokens === undefined) {
      tokens = countText(text);
      this.byText.set(text, tokens);
    }
    return tokens;
  }

  segment(message: Message): Segment {
    let segment = this.byMessage.get(message);
    if (segment === undefined) {
      const text = messageText(message);
      segment = { role: message.role, text, tokens: MESSAGE_FRAMING_TOKENS + this.text(text) };
      this.byMessage.set(message, segment);
    }
    return segment;
  }

  tools(tools: readonly ToolDefinition[]): Segment[] {
    const text = toolsText(tools);
    return text === "" ? [] : [{ role: "tools", text, tokens: this.text(text) }];
  }
}

function commonTokens(a: string, b: string): number {
  const left = encode(a, PLAIN_TEXT);
  const right = encode(b, PLAIN_TEXT);
  let common = 0;
  while (common < left.length && common < right.length && left[common] === right[common]) common++;
  return common;
}

/**
 * Tokens two requests share from the start: whole equal segments, then the common part of the
 * first differing one (its framing when the roles agree, and its text's common tokens).
 */
export function commonPrefixTokens(previous: readonly Segment[], next: readonly Segment[]): number {
  let common = 0;
  for (let index = 0; index < previous.length && index < next.length; index++) {
    const a = previous[index];
    const b = next[index];
    if (a === undefined || b === undefined) break;
    if (a === b || (a.role === b.role && a.text === b.text)) {
      common += a.tokens;
      continue;
    }
    if (a.role === "tools" || b.role === "tools") {
      if (a.role === b.role) common += commonTokens(a.text, b.text);
    } else if (a.role === b.role) {
      common += FRAMING_BEFORE + commonTokens(a.text, b.text);
    } else {
      common += 1; // <|im_start|>
    }
    break;
  }
  return common;
}

/** OpenAI's rule: the shared prefix counts from 1024 tokens on, rounded down to a step of 128. */
export function cachedTokens(prefix: number): number {
  return prefix >= CACHE_MIN_TOKENS
    ? Math.floor(prefix / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS
    : 0;
}

/** What one model call sent and what the cache would have served. */
export interface RequestRecord {
  /** History index of the assistant message this request produced. */
  turn: number;
  /** A turn of the loop, or the summary call a compaction made before it. */
  kind: "turn" | "summary";
  tokens: number;
  cached: number;
}

/** Sums over requests; ratios are taken from these, never averaged. */
export interface Tally {
  requests: number;
  summaryRequests: number;
  tokens: number;
  cached: number;
  overWindow: number;
  peak: number;
  compactions: number;
  /** Tokens of the reminders among `tokens` (never cached). */
  reminderTokens: number;
  /**
   * Uncached tokens that were new: the messages the session added since the request before
   * (the previous answer and its results; the whole history and the tools for the first), in
   * whatever form the view sends them.
   */
  uncachedNew: number;
  /** Tokens of the shared prefix the provider did not serve: its 128-token steps and minimum. */
  uncachedRounding: number;
}

export const EMPTY_TALLY: Tally = {
  requests: 0,
  summaryRequests: 0,
  tokens: 0,
  cached: 0,
  overWindow: 0,
  peak: 0,
  compactions: 0,
  reminderTokens: 0,
  uncachedNew: 0,
  uncachedRounding: 0,
};

export function addTally(a: Tally, b: Tally): Tally {
  return {
    requests: a.requests + b.requests,
    summaryRequests: a.summaryRequests + b.summaryRequests,
    tokens: a.tokens + b.tokens,
    cached: a.cached + b.cached,
    overWindow: a.overWindow + b.overWindow,
    peak: Math.max(a.peak, b.peak),
    compactions: a.compactions + b.compactions,
    reminderTokens: a.reminderTokens + b.reminderTokens,
    uncachedNew: a.uncachedNew + b.uncachedNew,
    uncachedRounding: a.uncachedRounding + b.uncachedRounding,
  };
}

/** Input cost in uncached-token units: uncached + r × cached. */
export function inputCost(tally: Pick<Tally, "tokens" | "cached">, ratio: number): number {
  return tally.tokens - tally.cached + ratio * tally.cached;
}

/** The figures `--json` prints, per file and in total (snake_case: they are the output format). */
export interface ReplayStats {
  requests: number;
  summary_requests: number;
  tokens_sent: number;
  naive_tokens_sent: number;
  cached_tokens: number;
  naive_cached_tokens: number;
  tokens_ratio: number;
  cache_hit_ratio: number;
  naive_cache_hit_ratio: number;
  /** naive_cache_hit_ratio − cache_hit_ratio: how far the policy's cache hits fall below naive's. */
  cache_hit_gap: number;
  cost_r01: number;
  naive_cost_r01: number;
  cost_ratio_r01: number;
  cost_r025: number;
  naive_cost_r025: number;
  cost_ratio_r025: number;
  over_window: number;
  naive_over_window: number;
  compactions: number;
  peak_tokens: number;
  naive_peak_tokens: number;
  /** Tokens of the reminders the policy appended (all uncached; part of tokens_sent). */
  reminder_tokens: number;
  /**
   * cost_ratio_r01 without the reminders: what the layers alone cost against naive (a reminder is
   * never cached, so it costs its tokens at full price).
   */
  layers_cost_ratio_r01: number;
  /** What was sent uncached, by cause, each as a share of tokens_sent (they sum to 1 − cache_hit_ratio). */
  uncached: UncachedShares;
  /** The same for naive: its new messages and the rounding (naive edits nothing, sends no reminder). */
  naive_uncached: UncachedShares;
}

/**
 * Why tokens went uncached, as shares of all sent. `new_messages` is what no policy can have
 * cached (each request's new messages, in whatever form sent); `rounding` the provider's cache steps;
 * `reminders` the late-injected reminders; `edits` the rest: what the layers' changes to the view
 * (stubs, clearing, compaction and its handoff request, cuts) made the provider read again.
 */
export interface UncachedShares {
  new_messages: number;
  rounding: number;
  reminders: number;
  edits: number;
}

function uncachedShares(tally: Tally): UncachedShares {
  const share = (tokens: number): number => (tally.tokens === 0 ? 0 : tokens / tally.tokens);
  const uncached = tally.tokens - tally.cached;
  return {
    new_messages: share(tally.uncachedNew),
    rounding: share(tally.uncachedRounding),
    reminders: share(tally.reminderTokens),
    edits: share(uncached - tally.uncachedNew - tally.uncachedRounding - tally.reminderTokens),
  };
}

/** a / b, where nothing against nothing is 1 (the same as naive). */
function ratio(a: number, b: number): number {
  return b === 0 ? (a === 0 ? 1 : Infinity) : a / b;
}

export function statsOf(policy: Tally, naive: Tally): ReplayStats {
  const [low, high] = CACHED_READ_RATIOS;
  return {
    requests: policy.requests,
    summary_requests: policy.summaryRequests,
    tokens_sent: policy.tokens,
    naive_tokens_sent: naive.tokens,
    cached_tokens: policy.cached,
    naive_cached_tokens: naive.cached,
    tokens_ratio: ratio(policy.tokens, naive.tokens),
    cache_hit_ratio: policy.tokens === 0 ? 0 : policy.cached / policy.tokens,
    naive_cache_hit_ratio: naive.tokens === 0 ? 0 : naive.cached / naive.tokens,
    cache_hit_gap:
      (naive.tokens === 0 ? 0 : naive.cached / naive.tokens) -
      (policy.tokens === 0 ? 0 : policy.cached / policy.tokens),
    cost_r01: inputCost(policy, low),
    naive_cost_r01: inputCost(naive, low),
    cost_ratio_r01: ratio(inputCost(policy, low), inputCost(naive, low)),
    cost_r025: inputCost(policy, high),
    naive_cost_r025: inputCost(naive, high),
    cost_ratio_r025: ratio(inputCost(policy, high), inputCost(naive, high)),
    over_window: policy.overWindow,
    naive_over_window: naive.overWindow,
    compactions: policy.compactions,
    peak_tokens: policy.peak,
    naive_peak_tokens: naive.peak,
    reminder_tokens: policy.reminderTokens,
    layers_cost_ratio_r01: ratio(
      inputCost(policy, low) - policy.reminderTokens,
      inputCost(naive, low),
    ),
    uncached: uncachedShares(policy),
    naive_uncached: uncachedShares(naive),
  };
}

/**
 * Why these messages could not be sent as one request (OpenAI's pairing rules: every tool call
 * answered right after its assistant message, no result without its call), or undefined.
 */
export function pairingProblem(messages: readonly Message[]): string | undefined {
  let open = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      if (!open.delete(message.toolCallId))
        return `message ${index + 1} answers tool call '${message.toolCallId}', which the message before the results did not make`;
      continue;
    }
    if (open.size > 0)
      return `message ${index + 1} comes before tool call(s) ${[...open].join(", ")} got their results`;
    open = new Set(message.role === "assistant" ? message.toolCalls.map((call) => call.id) : []);
  }
  return undefined;
}

/** A sequence of requests, each cached against the one before it. */
class Meter {
  readonly tally: Tally = { ...EMPTY_TALLY };
  readonly records: RequestRecord[] = [];
  private previous: Segment[] = [];
  private readonly window: number;

  constructor(window: number) {
    this.window = window;
  }

  /**
   * Counts one request and returns its tokens. `fresh` are the tokens of its new messages, and
   * `reminder` those of its reminder: both are uncached by nature, and what else is uncached
   * beyond the provider's rounding is what the policy's edits cost.
   */
  send(
    segments: Segment[],
    turn: number,
    kind: RequestRecord["kind"],
    { fresh = 0, reminder = 0 }: { fresh?: number; reminder?: number } = {},
  ): number {
    const tokens = segments.reduce((sum, segment) => sum + segment.tokens, 0);
    const prefix = commonPrefixTokens(this.previous, segments);
    const cached = cachedTokens(prefix);
    this.previous = segments;
    const rounding = Math.min(prefix, tokens) - cached;
    const reminded = Math.min(reminder, tokens - cached - rounding);
    this.tally.uncachedRounding += rounding;
    this.tally.reminderTokens += reminded;
    this.tally.uncachedNew += Math.min(fresh, tokens - cached - rounding - reminded);
    this.records.push({ turn, kind, tokens, cached });
    const tally = this.tally;
    if (kind === "turn") tally.requests++;
    else tally.summaryRequests++;
    tally.tokens += tokens;
    tally.cached += cached;
    tally.peak = Math.max(tally.peak, tokens);
    if (tokens > this.window) tally.overWindow++;
    return tokens;
  }
}

/** The tool-call ids a message makes or answers. */
function callIds(message: Message): string[] {
  if (message.role === "tool") return [message.toolCallId];
  return message.role === "assistant" ? message.toolCalls.map((call) => call.id) : [];
}

export interface SessionReplay {
  session: RecordedSession;
  policy: Tally;
  naive: Tally;
  /** Every request the policy made, summary calls included, in order. */
  records: RequestRecord[];
  naiveRecords: RequestRecord[];
}

/**
 * Replays one session: for each assistant message in the history, the request that produced it
 * is the policy's view of everything before it (and naive's: all of it); the policy is then told
 * the request's tokens, as the API reports them to the live loop. Throws when the policy
 * sends a view the API would refuse (broken tool-call pairing) where the history itself is fine.
 */
export async function replaySession(
  session: RecordedSession,
  policy: ReplayPolicy,
  window: number,
  counter: TokenCounter = new TokenCounter(),
): Promise<SessionReplay> {
  const tools = counter.tools(session.tools);
  const withTools = (messages: readonly Message[]): Segment[] => [
    ...tools,
    ...messages.map((message) => counter.segment(message)),
  ];
  const measured = new Meter(window);
  const naive = new Meter(window);
  const history = session.history;
  let requestNumber = 0;
  let previousTurn = -1;
  for (const [turn, message] of history.entries()) {
    if (message.role !== "assistant") continue;
    requestNumber++;
    const before = history.slice(0, turn);
    // New since the request before: its answer and what followed (everything, at the first), in
    // whatever form the view sends them (a result cut to fit the window is still new).
    const first = previousTurn < 0;
    const added = history.slice(Math.max(0, previousTurn), turn);
    const addedIds = new Set(added.flatMap(callIds));
    const isNew = (m: Message): boolean =>
      added.includes(m) || callIds(m).some((id) => addedIds.has(id));
    const freshIn = (messages: readonly Message[]): number =>
      messages.reduce((sum, m) => sum + (isNew(m) ? counter.segment(m).tokens : 0), 0) +
      (first ? tools.reduce((sum, segment) => sum + segment.tokens, 0) : 0);
    previousTurn = turn;
    naive.send(withTools(before), turn, "turn", { fresh: freshIn(before) });
    const view = await policy.view(before, window);
    for (const [label, messages] of [
      ["summary request", view.summaryRequest],
      ["view", view.messages],
    ] as const) {
      if (messages === undefined) continue;
      const problem = pairingProblem(messages);
      if (problem !== undefined && pairingProblem(before) === undefined) {
        throw new PitcrewError(
          "replay-bad-view",
          `${session.file}: policy ${policy.name}, request ${requestNumber}: the ${label} could not be sent: ${problem}.`,
        );
      }
    }
    if (view.compacted === true) measured.tally.compactions++;
    if (view.summaryRequest) measured.send(withTools(view.summaryRequest), turn, "summary");
    const tokens = measured.send(withTools(view.messages), turn, "turn", {
      fresh: freshIn(view.messages),
      reminder: view.reminder === undefined ? 0 : counter.segment(view.reminder).tokens,
    });
    policy.record?.(tokens);
  }
  return {
    session,
    policy: measured.tally,
    naive: naive.tally,
    records: measured.records,
    naiveRecords: naive.records,
  };
}

export interface FileReport extends ReplayStats {
  file: string;
  format: SessionFormat;
  messages: number;
  /** The provider's own figures for the recorded run, when the file has them. */
  reported?: {
    calls: number;
    prompt_tokens: number;
    cached_tokens: number;
    cache_hit_ratio: number;
  };
}

/** A figure over the sessions taken one by one (quantiles interpolated between ranks). */
export interface Spread {
  min: number;
  median: number;
  p90: number;
  max: number;
}

/** The figures of the pooled total, per session: a pooled figure can hide the session that fails. */
export interface Distribution {
  sessions: number;
  tokens_ratio: Spread;
  cache_hit_gap: Spread;
  cost_ratio_r01: Spread;
  cost_ratio_r025: Spread;
  layers_cost_ratio_r01: Spread;
  /** Share of what was sent that the layers' edits made uncached (UncachedShares.edits). */
  uncached_edits: Spread;
  over_window: Spread;
  /** Sessions whose input cost at 0.1× is above naive's. */
  costlier_than_naive: number;
  /** Of those, the sessions whose layers alone (the reminders' tokens left out) cost more. */
  layers_costlier_than_naive: number;
}

/** The `q` quantile of `values` (linear between ranks), 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const lower = sorted[low] ?? 0;
  const upper = sorted[Math.min(low + 1, sorted.length - 1)] ?? lower;
  return lower + (upper - lower) * (at - low);
}

function spread(values: readonly number[]): Spread {
  return {
    min: quantile(values, 0),
    median: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    max: quantile(values, 1),
  };
}

export function distributionOf(files: readonly ReplayStats[]): Distribution {
  const of = (figure: (stats: ReplayStats) => number): Spread => spread(files.map(figure));
  return {
    sessions: files.length,
    tokens_ratio: of((s) => s.tokens_ratio),
    cache_hit_gap: of((s) => s.cache_hit_gap),
    cost_ratio_r01: of((s) => s.cost_ratio_r01),
    cost_ratio_r025: of((s) => s.cost_ratio_r025),
    layers_cost_ratio_r01: of((s) => s.layers_cost_ratio_r01),
    uncached_edits: of((s) => s.uncached.edits),
    over_window: of((s) => s.over_window),
    costlier_than_naive: files.filter((s) => s.cost_ratio_r01 > 1).length,
    layers_costlier_than_naive: files.filter((s) => s.layers_cost_ratio_r01 > 1).length,
  };
}

/** The `--json` object. */
export interface ReplayReport {
  window: number;
  policy: string;
  tokenizer: typeof TOKENIZER;
  files: FileReport[];
  total: ReplayStats;
  /** The same figures per session: min, median, p90, max. */
  distribution: Distribution;
}

export function fileReport(replay: SessionReplay): FileReport {
  const { session } = replay;
  const reported = session.reported;
  return {
    file: session.file,
    format: session.format,
    messages: session.history.length,
    ...statsOf(replay.policy, replay.naive),
    ...(reported
      ? {
          reported: {
            calls: reported.calls,
            prompt_tokens: reported.promptTokens,
            cached_tokens: reported.cachedTokens,
            cache_hit_ratio:
              reported.promptTokens === 0 ? 0 : reported.cachedTokens / reported.promptTokens,
          },
        }
      : {}),
  };
}

/** Replays every session with a fresh policy from `factory`, sharing one token memo. */
export async function replaySessions(
  sessions: readonly RecordedSession[],
  factory: PolicyFactory,
  window: number,
): Promise<ReplayReport> {
  const counter = new TokenCounter();
  let policyName = "";
  let policyTotal = EMPTY_TALLY;
  let naiveTotal = EMPTY_TALLY;
  const files: FileReport[] = [];
  for (const session of sessions) {
    const policy = factory({ window, tools: session.tools });
    policyName = policy.name;
    const replay = await replaySession(session, policy, window, counter);
    policyTotal = addTally(policyTotal, replay.policy);
    naiveTotal = addTally(naiveTotal, replay.naive);
    files.push(fileReport(replay));
  }
  return {
    window,
    policy: policyName || factory({ window, tools: [] }).name,
    tokenizer: TOKENIZER,
    files,
    total: statsOf(policyTotal, naiveTotal),
    distribution: distributionOf(files),
  };
}
