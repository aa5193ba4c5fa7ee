import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  REQUEST_OVERHEAD,
  TokenLedger,
  estimateMessage
} from "./chunk-6BQ7F7WX.js";
import {
  callArguments,
  callSubject
} from "./chunk-EYJLS7SB.js";
import {
  keepEnds
} from "./chunk-NGIHAK4Q.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/context/compact.ts
var HANDOFF_REQUEST = `Stop working for a moment and write a handoff note for yourself: the conversation will be cut here and this note will stand in for everything before the last few steps. Use exactly these sections:

## Goal
## What happened
(what you did, what you tried and abandoned, and why)
## Files touched
## State
(what works now, what is still broken, the last test results)
## Next
(the next concrete steps)
## The user's messages
(every message from the person who asked, verbatim)
## Errors and fixes
(errors you hit and how you fixed them)

Answer with the note only; do not call a tool.`;
function noteMessage(note) {
  return {
    role: "user",
    content: `[Handoff note: earlier parts of this session were compacted into this note. The files are as they were left; re-read any file before editing it.]

${note.trim()}`
  };
}
function systemMessages(history) {
  const first = history.findIndex((message) => message.role !== "system");
  return history.slice(0, first === -1 ? history.length : first);
}
function keepFrom(history, start, budget, estimate) {
  let total2 = 0;
  let from = history.length;
  for (let index = history.length - 1; index >= start; index--) {
    const message = history[index];
    if (message === void 0) continue;
    total2 += estimate(message);
    const boundary = message.role === "assistant" || message.role === "user";
    if (boundary) {
      if (total2 > budget && from < history.length) break;
      from = index;
    }
  }
  return Math.max(from === history.length ? start : from, start);
}

// src/context/fit.ts
var BULKY_ARGUMENT_CHARS = 1e3;
function slimArguments(call) {
  if (call.arguments.length <= BULKY_ARGUMENT_CHARS) return call;
  const args = callArguments(call);
  if (args !== null) {
    const slim = {};
    for (const [key, value] of Object.entries(args)) {
      slim[key] = typeof value === "string" && value.length > 200 ? `[cleared: ${value.length} chars]` : value;
    }
    return { ...call, arguments: JSON.stringify(slim) };
  }
  return { ...call, arguments: `{"cleared": "${call.arguments.length} chars of arguments"}` };
}
function whereWhole(message) {
  if (message.role === "tool") return "run the command again or re-read the file to see it whole";
  if (message.role === "assistant") return "it was your own earlier message";
  return "the whole text is kept in the run's transcript";
}
function capMessage(message, maxTokens, estimate) {
  if (estimate(message) <= maxTokens) return message;
  const slim = message.role === "assistant" ? { ...message, toolCalls: message.toolCalls.map(slimArguments) } : message;
  if (estimate(slim) <= maxTokens) return slim;
  const text = slim.content;
  const cut = (keep) => ({
    ...slim,
    content: keepEnds(text, keep, [
      `[\u2026 ${text.length - 2 * keep} of ${text.length} characters of this message cut here to fit the context window; ${whereWhole(message)} \u2026]`
    ])
  });
  const fits = (keep) => estimate(cut(keep)) <= maxTokens;
  return cut(fits(0) ? largest(0, Math.floor(text.length / 2), fits) : 0);
}
function largest(low, high, fits) {
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}
var cuts = /* @__PURE__ */ new WeakMap();
function capOnce(message, maxTokens, estimate) {
  if (estimate(message) <= maxTokens) return message;
  const known = cuts.get(message) ?? /* @__PURE__ */ new Map();
  cuts.set(message, known);
  let cut = known.get(maxTokens);
  if (cut === void 0) {
    cut = capMessage(message, maxTokens, estimate);
    known.set(maxTokens, cut);
  }
  return cut;
}
function waterLevel(sizes, budget, floor) {
  const filled = (cap) => sizes.reduce((sum, size) => sum + Math.min(size, cap), 0);
  if (filled(Number.POSITIVE_INFINITY) <= budget) return Number.POSITIVE_INFINITY;
  if (filled(floor) > budget) return null;
  return largest(floor, Math.max(floor, ...sizes), (cap) => filled(cap) <= budget);
}

// src/context/stubs.ts
var SMALL_RESULT_CHARS = 600;
var STUB_LINE_CHARS = 100;
function keyArguments(call) {
  return (call ? callSubject(call) : null)?.slice(0, STUB_LINE_CHARS) ?? "";
}
function clip(line) {
  const flat = line.trim();
  return flat.length > STUB_LINE_CHARS ? `${flat.slice(0, STUB_LINE_CHARS - 1)}\u2026` : flat;
}
function stubOf(result, call) {
  const lines = result.content.split("\n").filter((line) => line.trim() !== "");
  const exit = /^exit code: (\d+)/m.exec(result.content)?.[1];
  const spill = /full output[^:\n]*: (\S+)/i.exec(result.content)?.[1];
  const errorLine = lines.find((line) => /error|failed|exception|traceback/i.test(line));
  const parts = [`[stub: ${result.name}${keyArguments(call) ? ` \`${keyArguments(call)}\`` : ""}`];
  if (exit !== void 0) parts.push(`exit ${exit}`);
  parts.push(`${result.content.length} chars, ${lines.length} lines`);
  const shown = errorLine ?? lines.at(-1);
  const body = [
    `first: ${clip(lines[0] ?? "")}`,
    shown && shown !== lines[0] ? `${errorLine ? "error" : "last"}: ${clip(shown)}` : ""
  ].filter(Boolean).join(" | ");
  const back = spill ? `full output: ${spill}` : "run it again or re-read the file to see it whole";
  return `${parts.join(", ")}] ${body} \u2014 ${back}`;
}
function movedPast(history) {
  const lastAssistant = history.findLastIndex((message) => message.role === "assistant");
  return history.slice(0, lastAssistant).filter((message) => message.role === "tool").filter((message) => message.content.length > SMALL_RESULT_CHARS).map((message) => message.toolCallId);
}
var CACHE_MIN_TOKENS = 1024;
function requestCost(size, fresh, r) {
  return size < CACHE_MIN_TOKENS ? size : r * Math.max(0, size - fresh) + Math.min(size, fresh);
}
function decideStubs(history, state, view, economics) {
  const fresh = movedPast(history).filter(
    (id) => !state.stubbed.has(id) && !state.cleared.has(id) && !state.kept.has(id)
  );
  if (economics === void 0) {
    if (fresh.length === 0) return { state, fired: false };
    return { state: { ...state, stubbed: /* @__PURE__ */ new Set([...state.stubbed, ...fresh]) }, fired: true };
  }
  if (fresh.length === 0 && state.kept.size === 0) return { state, fired: false };
  const { requests: n, cachedPrice: r } = economics;
  const sent = view.render(state);
  const tokens = (messages) => messages.reduce((sum, message) => sum + view.estimate(message), 0);
  const size = tokens(sent);
  const newest = tokens(sent.slice(sent.findLastIndex((message) => message.role === "assistant")));
  const byId = /* @__PURE__ */ new Map();
  for (const [at2, message] of sent.entries())
    if (message.role === "tool") byId.set(message.toolCallId, { at: at2, message });
  const results = new Map(
    history.flatMap((m) => m.role === "tool" ? [[m.toolCallId, m]] : [])
  );
  const worth = (id) => {
    const whole = byId.get(id)?.message;
    const original = results.get(id);
    if (whole === void 0 || original === void 0) return { saves: 0, stub: 0 };
    const stub = view.estimate(view.stub(original));
    return { saves: Math.max(0, view.estimate(whole) - stub), stub };
  };
  const pays = (saves, once) => n * (requestCost(size, newest, r) - requestCost(size - saves, newest, r)) >= (1 - r) * once;
  const resent = (at2, from) => {
    const before = tokens(sent.slice(0, at2));
    return (before < CACHE_MIN_TOKENS ? before : 0) + from;
  };
  const at = (ids) => Math.min(...ids.map((id) => byId.get(id)?.at ?? Infinity));
  const stubbed2 = new Set(state.stubbed);
  const kept = new Set(state.kept);
  const placed = fresh.filter((id) => byId.has(id));
  if (placed.length > 0) {
    const gain = placed.map(worth);
    const saves = gain.reduce((sum, g) => sum + g.saves, 0);
    const stubs = gain.reduce((sum, g) => sum + g.stub, 0);
    const target = pays(saves, resent(at(placed), stubs)) ? stubbed2 : kept;
    for (const id of placed) target.add(id);
  }
  const waiting = [...state.kept].filter((id) => byId.has(id));
  if (waiting.length > 0) {
    const oldest = at(waiting);
    const saves = waiting.reduce((sum, id) => sum + worth(id).saves, 0);
    if (pays(saves, resent(oldest, tokens(sent.slice(oldest))))) {
      for (const id of waiting) {
        kept.delete(id);
        stubbed2.add(id);
      }
    }
  }
  const fired = stubbed2.size > state.stubbed.size;
  return { state: { ...state, stubbed: stubbed2, kept }, fired };
}

// src/context/view.ts
var EMPTY_VIEW_STATE = {
  stubbed: /* @__PURE__ */ new Set(),
  cleared: /* @__PURE__ */ new Set(),
  kept: /* @__PURE__ */ new Set(),
  dropBefore: 0
};
var CLEAR_AT_LEAST_RESULTS = 4;
var CLEAR_AT_LEAST_SHARE = 0.1;
var CLEAR_MIN_GAIN = 10;
function callsById(history) {
  const calls = /* @__PURE__ */ new Map();
  for (const message of history) {
    if (message.role === "assistant")
      for (const call of message.toolCalls) calls.set(call.id, call);
  }
  return calls;
}
function clearedNotice(result, call) {
  const what = keyArguments(call);
  return `[cleared to save space: ${result.name}${what ? ` \`${what}\`` : ""}; run it again or re-read the file if you need it]`;
}
var replacements = /* @__PURE__ */ new WeakMap();
function replaced(message, kind, make) {
  const known = replacements.get(message) ?? /* @__PURE__ */ new Map();
  replacements.set(message, known);
  const found = known.get(kind);
  if (found) return found;
  const made = make();
  known.set(kind, made);
  return made;
}
var DROP_NOTICE = {
  role: "user",
  content: "[Earlier turns were dropped to fit the context window. Their effects are in the files: check the working tree (git status, git diff) and re-read what you need.]"
};
function underCap(message, cap) {
  return cap === void 0 ? message : capOnce(message, cap.tokens, cap.estimate);
}
function render(history, state, calls, cap) {
  const kept = state.dropBefore > 0 ? [...firstMessages(history), DROP_NOTICE, ...history.slice(state.dropBefore)] : [...history];
  return kept.map((message) => underCap(decided(message, state, calls), cap));
}
function stubbed(result, call) {
  return replaced(result, "stub", () => ({ ...result, content: stubOf(result, call) }));
}
function decided(message, state, calls) {
  if (message.role === "tool") {
    const call = calls.get(message.toolCallId);
    if (state.cleared.has(message.toolCallId)) {
      return replaced(message, "clear", () => ({
        ...message,
        content: clearedNotice(message, call)
      }));
    }
    if (state.stubbed.has(message.toolCallId)) return stubbed(message, call);
  }
  if (message.role === "assistant" && message.toolCalls.some((call) => state.cleared.has(call.id))) {
    const ids = message.toolCalls.filter((call) => state.cleared.has(call.id)).map((call) => call.id);
    return replaced(message, `clear:${ids.join(",")}`, () => ({
      ...message,
      toolCalls: message.toolCalls.map(
        (call) => state.cleared.has(call.id) ? slimArguments(call) : call
      )
    }));
  }
  return message;
}
function renderView(history, state, cap) {
  return render(history, state, callsById(history), cap);
}
function firstMessages(history) {
  const firstUser = history.findIndex((message) => message.role === "user");
  return history.slice(0, firstUser + 1);
}
function total(messages, estimate) {
  return messages.reduce((sum, message) => sum + estimate(message), 0);
}
function cutPoints(history, from, role) {
  const points = [];
  for (let index = from; index < history.length; index++)
    if (history[index]?.role === role) points.push(index);
  return points;
}
function buildView(history, previous, options) {
  const calls = callsById(history);
  const cap = options.messageCap === void 0 ? void 0 : { tokens: options.messageCap, estimate: options.estimate };
  const fired = [];
  let state = previous;
  const stubbing = decideStubs(
    history,
    state,
    {
      render: (decided2) => render(history, decided2, calls, cap),
      stub: (result) => stubbed(result, calls.get(result.toolCallId)),
      estimate: options.estimate
    },
    options.economics
  );
  state = stubbing.state;
  if (stubbing.fired) fired.push("stub");
  let messages = render(history, state, calls, cap);
  if (total(messages, options.estimate) <= options.budget) return { messages, state, fired };
  const results = history.map((message, index) => ({ message, index })).filter(
    (entry) => entry.message.role === "tool"
  ).filter(({ index }) => index >= state.dropBefore);
  const keep = /* @__PURE__ */ new Set();
  let kept = 0;
  for (const { message } of [...results].reverse()) {
    const size = options.estimate(message);
    if (keep.size > 0 && kept + size > options.budget / 4) break;
    keep.add(message.toolCallId);
    kept += size;
  }
  const candidates = results.filter(
    ({ message }) => !keep.has(message.toolCallId) && !state.cleared.has(message.toolCallId)
  );
  const excess = total(messages, options.estimate) - options.budget;
  const goal = Math.max(excess, options.budget * CLEAR_AT_LEAST_SHARE);
  const sent = new Map(
    messages.flatMap((m) => m.role === "tool" ? [[m.toolCallId, m]] : [])
  );
  const clearing = [];
  let freed = 0;
  for (const { message } of candidates) {
    const rendered = sent.get(message.toolCallId);
    const call = calls.get(message.toolCallId);
    const argumentTokens = (text) => options.estimate({ role: "user", content: text });
    const bulky = call !== void 0 && call.arguments.length > BULKY_ARGUMENT_CHARS;
    const before = (rendered ? options.estimate(rendered) : 0) + (bulky ? argumentTokens(call.arguments) : 0);
    const notice = replaced(message, "clear", () => ({
      ...message,
      content: clearedNotice(message, call)
    }));
    const after = options.estimate(notice) + (bulky ? argumentTokens(slimArguments(call).arguments) : 0);
    if (before <= after * CLEAR_MIN_GAIN) continue;
    clearing.push(message.toolCallId);
    freed += before - after;
    if (clearing.length >= CLEAR_AT_LEAST_RESULTS && freed >= goal) break;
  }
  if (clearing.length > 0) {
    state = { ...state, cleared: /* @__PURE__ */ new Set([...state.cleared, ...clearing]) };
    fired.push("clear");
    messages = render(history, state, calls, cap);
    if (total(messages, options.estimate) <= options.budget) return { messages, state, fired };
  }
  if (options.allowDrop === false) return { messages, state, fired };
  const head = firstMessages(history);
  const start = Math.max(state.dropBefore, head.length);
  const full = render(history, { ...state, dropBefore: 0 }, calls, cap);
  const suffix = new Array(full.length + 1).fill(0);
  for (let index = full.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] ?? 0) + options.estimate(full[index]);
  }
  const fixed = total(full.slice(0, head.length), options.estimate) + options.estimate(DROP_NOTICE);
  const fits = (cut) => fixed + (suffix[cut] ?? 0) <= options.budget;
  for (const role of ["user", "assistant"]) {
    const cut = cutPoints(history, start, role).find(
      (point) => point > state.dropBefore && fits(point)
    );
    if (cut !== void 0) {
      const trial = { ...state, dropBefore: cut };
      return {
        messages: render(history, trial, calls, cap),
        state: trial,
        fired: [...fired, "drop"]
      };
    }
  }
  const last = cutPoints(history, start, "assistant").at(-1);
  if (last !== void 0 && last > state.dropBefore) {
    const trial = { ...state, dropBefore: last };
    return {
      messages: render(history, trial, calls, cap),
      state: trial,
      fired: [...fired, "drop"]
    };
  }
  return { messages, state, fired };
}

// src/context/manager.ts
var DEFAULT_CONTEXT = {
  window: 128e3,
  compactAt: 0.9,
  keepAfterCompaction: 0.45
};
function outputReserve(settings) {
  return settings.outputReserve ?? Math.max(1024, Math.ceil(settings.window * 0.05));
}
function requestLimit(settings) {
  return settings.window - outputReserve(settings);
}
var MESSAGE_CAP_SHARE = 1 / 5;
var MESSAGE_FLOOR_TOKENS = 64;
var ContextManager = class {
  settings;
  #estimate;
  #ledger;
  #lastPrepared = { view: [], tail: [] };
  #state = EMPTY_VIEW_STATE;
  #compaction = null;
  /** The note as sent: one object, so the requests after a compaction share it (and the ledger's anchor). */
  #note = null;
  /** Requests prepared so far: the session's length, which stands for what is still to come. */
  #requests = 0;
  compactions = 0;
  constructor(options) {
    this.settings = { ...DEFAULT_CONTEXT, ...options.settings };
    this.#estimate = options.estimate;
    this.#ledger = options.ledger;
  }
  /** After a response: what the API reported for the request last prepared, reminder included. */
  record(promptTokens) {
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
  #pricing(current, tail) {
    const ledger = this.#ledger;
    const messages = this.#total(current) + this.#total(tail);
    if (ledger === void 0) return { fixed: 0, scale: 1 };
    const fixed = Math.ceil(ledger.ratio * ledger.margin * (ledger.fixedTokens + REQUEST_OVERHEAD));
    const measured = ledger.estimate(current, tail).tokens;
    return { fixed, scale: Math.max(1, (measured - fixed) / Math.max(1, messages)) };
  }
  /** The estimated tokens of a request of these messages. */
  #tokens(messages, pricing) {
    return pricing.fixed + Math.ceil(this.#total(messages) * pricing.scale);
  }
  /** The message-estimate budget that keeps a request within `tokens`. */
  #budget(tokens, pricing) {
    return (tokens - pricing.fixed) / pricing.scale;
  }
  /** What a stub costs and saves in this session so far (stubs.ts). */
  get #economics() {
    return { requests: this.#requests, cachedPrice: this.settings.cachedPrice ?? 0.1 };
  }
  get #messageCap() {
    return Math.floor(requestLimit(this.settings) * MESSAGE_CAP_SHARE);
  }
  get compaction() {
    return this.#compaction;
  }
  /** The history the view is built from: after a compaction, system + note + the kept tail. */
  #base(history) {
    if (this.#compaction === null || this.#note === null) return [...history];
    return [...systemMessages(history), this.#note, ...history.slice(this.#compaction.from)];
  }
  #total(messages) {
    return messages.reduce((sum, message) => sum + this.#estimate(message), 0);
  }
  /**
   * The messages of the next request: the view of `history`, then the reminder. The reminder's
   * tokens count against the thresholds like any other message's, so the request as sent stays
   * within them; and whatever the history holds, no request is estimated above the window less
   * the answer's room (`requestLimit`), or none is made (`context-window-too-small`).
   */
  async prepare(history, options = {}) {
    const { window, compactAt } = this.settings;
    const limit = requestLimit(this.settings);
    const threshold = Math.min(window * compactAt, limit);
    const reminder = options.reminder;
    const reserve = [reminder?.(true)].filter((message) => message != null);
    const tail = (fired2) => [reminder?.(fired2.includes("compact") || fired2.includes("drop"))].filter(
      (message) => message != null
    );
    const messageCap = this.#messageCap;
    const current = renderView(this.#base(history), this.#state, {
      tokens: messageCap,
      estimate: this.#estimate
    });
    const pricing = this.#pricing(current, reserve);
    const reserved = this.#total(reserve);
    const soft = buildView(this.#base(history), this.#state, {
      budget: this.#budget(threshold, pricing) - reserved,
      estimate: this.#estimate,
      allowDrop: false,
      messageCap,
      economics: this.#economics
    });
    this.#state = soft.state;
    const fired = [...soft.fired];
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
      economics: this.#economics
    });
    this.#state = hard.state;
    fired.push(...hard.fired);
    return this.#prepared(hard.messages, tail(fired), fired, pricing);
  }
  #prepared(view, tail, fired, pricing) {
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
  #fit(messages, pricing) {
    const limit = requestLimit(this.settings);
    if (this.#tokens(messages, pricing) <= limit) return messages;
    const budget = Math.floor(this.#budget(limit, pricing));
    const level = waterLevel(messages.map(this.#estimate), budget, MESSAGE_FLOOR_TOKENS);
    const fitted = level === null ? messages : messages.map((message) => capOnce(message, level, this.#estimate));
    if (level === null || this.#tokens(fitted, pricing) > limit) {
      const { window } = this.settings;
      throw new PitcrewError(
        "context-window-too-small",
        `No request fits the model's context window: the tool definitions take about ${pricing.fixed} tokens and ${messages.length} messages at least ${MESSAGE_FLOOR_TOKENS} each, against ${limit} (a window of ${window} less ${outputReserve(this.settings)} kept for the answer). Set the context window to the model's real window if it is larger (the action's context-window input, pitcrew run's --context-window), or use a model with a larger one.`
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
  async compact(history, compactor, view, pricing) {
    const current = view ?? this.#viewFor(history);
    const priced = pricing ?? this.#pricing(current, []);
    const note = await compactor(this.#summaryRequest(history, current, priced));
    const start = this.#compaction?.from ?? systemMessages(history).length;
    const sent = noteMessage(note);
    const budget = this.settings.window * this.settings.keepAfterCompaction - this.#estimate(sent);
    const asSent = buildView(history, EMPTY_VIEW_STATE, {
      budget: Number.POSITIVE_INFINITY,
      estimate: this.#estimate,
      allowDrop: false,
      messageCap: this.#messageCap,
      economics: this.#economics
    }).messages;
    const from = keepFrom(asSent, start, Math.max(0, budget), this.#estimate);
    this.#compaction = { note, from };
    this.#note = sent;
    this.#state = EMPTY_VIEW_STATE;
    this.compactions += 1;
    return this.#compaction;
  }
  /** The handoff note's request: `view` and the handoff request, within the request limit. */
  #summaryRequest(history, view, pricing) {
    const ask = { role: "user", content: HANDOFF_REQUEST };
    const whole = [...view, ask];
    if (this.#tokens(whole, pricing) <= requestLimit(this.settings)) return whole;
    const smaller = buildView(this.#base(history), this.#state, {
      budget: this.#budget(requestLimit(this.settings), pricing) - this.#estimate(ask),
      estimate: this.#estimate,
      messageCap: this.#messageCap
    });
    return this.#fit([...smaller.messages, ask], pricing);
  }
  #viewFor(history) {
    const view = buildView(this.#base(history), this.#state, {
      budget: requestLimit(this.settings),
      estimate: this.#estimate,
      messageCap: this.#messageCap
    });
    return view.messages;
  }
  /** After a too-long rejection that compaction did not cure: keep only the newest half of the rounds. */
  dropOldest(history) {
    const base = this.#base(history);
    const messageCap = this.#messageCap;
    const current = this.#total(
      buildView(base, this.#state, {
        budget: Number.MAX_SAFE_INTEGER,
        estimate: this.#estimate,
        messageCap
      }).messages
    );
    const view = buildView(base, this.#state, {
      budget: Math.floor(current / 2),
      estimate: this.#estimate,
      messageCap
    });
    this.#state = view.state;
  }
};

// src/context/reminder.ts
var WHOLE_REMINDER = { branch: true, todos: true };
var MARK = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]"
};
var TIME_STEP_MS = 5 * 6e4;
function reminderNews(facts, show, timeSaid) {
  return facts.changedFiles.length > 0 || (facts.nestedRepositories ?? []).length > 0 || show.branch && facts.branch !== null || show.todos && facts.todos.length > 0 || facts.now.getTime() - timeSaid.getTime() >= TIME_STEP_MS;
}
function minute(now) {
  return `${now.toISOString().slice(0, 16)}Z`;
}
function reminderText(facts, show) {
  const lines = [`<reminder>`, `time: ${minute(facts.now)}`];
  if (show.branch && facts.branch) lines.push(`branch: ${facts.branch}`);
  if (show.todos && facts.todos.length > 0) {
    lines.push("todo list:", ...facts.todos.map((todo) => `${MARK[todo.status]} ${todo.content}`));
  }
  if (facts.changedFiles.length > 0) {
    lines.push(
      "these files changed since your last turn; read them again before editing:",
      ...facts.changedFiles.slice(0, 50).map((path) => `- ${path}`)
    );
    if (facts.changedFiles.length > 50)
      lines.push(`- \u2026 and ${facts.changedFiles.length - 50} more`);
  }
  for (const folder of facts.nestedRepositories ?? []) {
    lines.push(
      `push-blocked-nested-repository: ${folder}/ is a git repository of its own (it has a .git), so none of its files would be pushed and the push would be refused. Remove ${folder}/.git to keep its files as ordinary files, or delete the folder if it is not part of the change.`
    );
  }
  lines.push("</reminder>");
  return lines.join("\n");
}
function reminderMessage(facts, show) {
  return { role: "user", content: reminderText(facts, show) };
}
function sameTodos(a, b) {
  return a.length === b.length && a.every((todo, index) => todo.content === b[index]?.content && todo.status === b[index]?.status);
}

// src/context/policy.ts
function layeredPolicy(options = {}) {
  const manager = new ContextManager({
    settings: options.settings,
    estimate: estimateMessage,
    ledger: new TokenLedger({ fixedTokens: options.fixedTokens ?? 0 })
  });
  const cut = { branch: false, todos: false };
  const rebase = () => {
    cut.branch = true;
    cut.todos = true;
  };
  let lastTodos = [];
  let timeSaid = null;
  return {
    async view(history, summarize) {
      const facts = options.reminder ? await options.reminder() : null;
      if (facts && !sameTodos(facts.todos, lastTodos)) cut.todos = false;
      lastTodos = facts?.todos ?? [];
      timeSaid ??= facts?.now ?? null;
      const show = { ...cut };
      const news = facts !== null && timeSaid !== null && reminderNews(facts, show, timeSaid);
      const prepared = await manager.prepare(history, {
        reminder: facts ? (rebased2) => rebased2 ? reminderMessage(facts, WHOLE_REMINDER) : news ? reminderMessage(facts, show) : null : void 0,
        compactor: summarize
      });
      const rebased = prepared.fired.includes("compact") || prepared.fired.includes("drop");
      const reminded = facts !== null && (news || rebased);
      if (reminded) timeSaid = facts.now;
      if (rebased) rebase();
      return {
        ...prepared,
        compaction: prepared.fired.includes("compact") ? manager.compaction : null,
        reminder: reminded ? prepared.messages.at(-1) ?? null : null
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
    }
  };
}

export {
  DEFAULT_CONTEXT,
  layeredPolicy
};
