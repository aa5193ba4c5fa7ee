/**
 * Token accounting for the context layer: a fast, pure estimate of what a text or a message costs
 * in tokens, memoised per message, and a ledger that anchors the estimate of the next request on
 * the `prompt_tokens` the API reported for the previous one. It is not a tokenizer: it need not
 * be exact, only never low by much, and cost nothing next to a model call.
 *
 * Text. o200k-style tokenizers first cut text into pieces (a word with at most one leading space
 * or punctuation character, 1–3 digits, a run of punctuation, a run of whitespace); no token
 * crosses a piece and almost every piece is one token. So ASCII is estimated piece by piece, as
 * the tokenizer cuts it, each piece costing 1 plus a little per character past what common words
 * fit in:
 *   - a word after a space, or after a camelCase boundary: 1 + 0.25 per letter past 8; after one
 *     punctuation character (`.foo`, `_bar`): 1 + 0.15 past 4; right after digits (`9fc6ab`):
 *     1 + 0.5 past 2; alone: 1 + 0.5 past 4; all capitals (`HTTP`): 1 + 0.3 past 3;
 *   - digits: 1 per 3 (exact: o200k never merges more than 3);
 *   - punctuation: 1 + 0.5 per character past 3; one repeated character (`=====`) 1 + 0.1 per
 *     character; a control character 1;
 *   - whitespace: 1 per run of spaces and 1 per newline run (a single space before a word is
 *     that word's prefix), 2 for spaces before digits, plus 1 per 32 spaces.
 * Everything else by script, per code point: CJK, kana, Hangul, fullwidth 1; Latin beyond ASCII,
 * Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts up to Malayalam, Georgian,
 * Vietnamese 1/2; emoji, symbols, arrows, box drawing, ZWJ and variation selectors 2 (one symbol
 * repeated, `──────`, 1 + 1/6 per character); general punctuation (`—`, `…`, curly quotes) 1;
 * U+FFFD 1/2; Ethiopic 2; every script not named (Thai, Sinhala, Myanmar, Khmer, …) 1.
 * Hard floor: a run of 24 or more `[A-Za-z0-9+/=_-]` that the pieces cut finer than one piece per
 * 3.5 characters (base64, hex hashes, random ids; not paths or snake_case names) costs at least
 * 0.75 per character.
 *
 * Why not the plain rule (ASCII 4 characters per token, CJK 1, else 2). Measured against
 * gpt-tokenizer 4.0.0 o200k on ../shared (test/shared/tokens.test.ts, `npm run test:shared`):
 *
 *   estimate / o200k  base64  JSON   JSON    logs  min.  emoji  TS    Py    Engl.  Chin.  Russ.
 *                             compact pretty        JS
 *   plain rule        0.36    0.74   0.72    0.59  0.55  0.55   0.96  0.98  1.25   1.36   1.94
 *   plain + floor     1.07    0.81   0.77    0.76  0.55  0.55   1.05  0.98  1.25   1.36   1.94
 *   this estimate     1.08    1.09   1.17    1.18  1.11  1.20   1.14  1.10  1.02   1.37   2.43
 *
 * Per request of the five mini-swe-agent trajectories (367 requests, exact o200k + 4 per message):
 * the plain rule p1 0.86, median 0.96, 315 requests below 1.0; with the floor on every long run
 * p1 0.94, median 1.15, 99 below; this estimate min 1.037, p1 1.037, median 1.086, p99 1.126,
 * none below. Known to run low: printable random ASCII (0.77; nothing natural looks like it) and
 * binary bytes decoded as UTF-8 (0.92); the ledger's ratio and margin absorb both.
 *
 * Requests (TokenLedger). After each response the ledger is told which messages were sent and the
 * `prompt_tokens` reported. It keeps `ratio = max(1, reported / estimate)` (the provider's
 * tokenizer against this estimate; Gemini's counts about 16% more than o200k) and `drift`, the
 * largest amount by which a reported prompt grew past `ratio × estimate` of the messages added
 * since the one before. A view that starts with exactly the messages last sent (the same objects:
 * a message never changes after it is written) is estimated as `reported + ratio × margin ×
 * estimate(new messages) + drift`; any other view (the first request, or one changed below the
 * anchored prefix) as `ratio × margin × estimate(all)`. Margin 1.25. Against what Gemini 3 Pro
 * reported for the same 367 requests: min 1.003, p1 1.005, median 1.020, p99 1.24, none below
 * 1.0 (this estimate alone: median 0.92, 99% below). Without `drift`, 19 (5.2%) fall below 1.0,
 * to 0.98: the provider's count sometimes grows by a few hundred tokens more than the new
 * messages explain.
 * The late-injected reminder is a tail: sent once, last, so every request estimates it in full,
 * and its estimated share (× ratio) is taken off the report before the report anchors the next.
 *
 * Exact counting: not used, for any text. Over all the samples gpt-tokenizer's o200k
 * `countTokens` ran at 6–15 MB/s here, this estimate at 110–140 MB/s (bench/token-estimate.ts;
 * 10–17× faster), and an exact count is exact only for OpenAI's models: in the same anchored
 * ledger, exact o200k for the new messages gives min 0.999, p1 1.003, median 1.018 and one
 * request below 1.0, no better than this estimate. It would add 3.3 MB to each bundle (2.8 MB
 * minified, 1.1 MB gzipped: the o200k ranks), ~0.5 s to load and ~70 MB of memory. The text it
 * would help on (random printable ASCII) is rare, and the ratio corrects it after one response.
 * gpt-tokenizer is a development dependency: the shared-data suite and the benchmark compare
 * against it.
 */
import type { Message } from "../domain/messages.ts";

/** Role and framing tokens of one message in the chat format (o200k: 3, plus the role). */
export const MESSAGE_OVERHEAD = 4;
/** Framing of one tool call inside an assistant message (id, type, name and JSON wrapping). */
export const TOOL_CALL_OVERHEAD = 8;
/** Tokens every request carries besides its messages (the reply's priming). */
export const REQUEST_OVERHEAD = 3;
/** What the ledger multiplies estimates of text it has no reported count for by. */
export const DEFAULT_MARGIN = 1.25;

// ASCII character classes, looked up by code unit.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const NEWLINE = 5;
const PUNCT = 6;
const CONTROL = 7;
const OTHER = 8;

const ASCII_CLASS = new Uint8Array(128);
/** 1 for `[A-Za-z0-9+/=_-]`: the characters of base64, hex and generated ids. */
const ID_CHAR = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  ASCII_CLASS[code] =
    code >= 97 && code <= 122
      ? LOWER
      : code >= 65 && code <= 90
        ? UPPER
        : code >= 48 && code <= 57
          ? DIGIT
          : code === 32 || code === 9
            ? SPACE
            : code === 10 || code === 13
              ? NEWLINE
              : code < 32 || code === 127
                ? CONTROL
                : PUNCT;
  ID_CHAR[code] =
    ASCII_CLASS[code] === LOWER ||
    ASCII_CLASS[code] === UPPER ||
    ASCII_CLASS[code] === DIGIT ||
    code === 43 || // +
    code === 47 || // /
    code === 61 || // =
    code === 95 || // _
    code === 45 // -
      ? 1
      : 0;
}

function classOf(code: number): number {
  return code < 128 ? (ASCII_CLASS[code] ?? OTHER) : OTHER;
}

/** Runs this long of ID_CHAR characters may be random data (base64, hashes, ids). */
const FLOOR_RUN = 24;
/** A run is random data when it has more than one piece per this many characters. */
const FLOOR_CHARS_PER_PIECE = 3.5;
/** Tokens per character of random data at least (base64 is ~0.69 in o200k). */
const FLOOR_PER_CHAR = 0.75;

/** Cost of one code point outside ASCII, by script (see the header). */
function scriptCost(code: number): number {
  if (code < 0x0d80) return 0.5; // Latin-1 and Latin extended … Malayalam
  if (code >= 0x10a0 && code < 0x1100) return 0.5; // Georgian
  if (code >= 0x1e00 && code < 0x2000) return 0.5; // Latin extended additional, Greek extended
  if (code === 0x200d) return 2; // zero-width joiner, inside emoji sequences
  if (code >= 0x2000 && code < 0x2070) return 1; // general punctuation
  if (code >= 0x2070 && code < 0x2c00) return 2; // symbols, arrows, math, box drawing, dingbats
  if (code >= 0x2e80 && code < 0xa000) return 1; // CJK, kana, CJK punctuation
  if (code >= 0xac00 && code < 0xd7b0) return 1; // Hangul syllables
  if (code >= 0xfe00 && code < 0xfe10) return 2; // variation selectors
  if (code === 0xfffd) return 0.5; // replacement character (binary decoded as text)
  if (code >= 0x1200 && code < 0x13a0) return 2; // Ethiopic
  return 1;
}

/** Pieces the last `pieces()` call counted (read by the floor). */
let lastPieces = 0;

/** Estimated tokens of text[start, end), piece by piece as the tokenizer cuts it (no floor). */
function pieces(text: string, start: number, end: number): number {
  let total = 0;
  let count = 0;
  /**
   * What stands before the next word: 0 nothing, 1 a space or tab, 2 one punctuation character
   * (both part of the word's piece), 3 a lower case letter (a camelCase boundary), 4 digits.
   */
  let prefix = 0;
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    const kind = classOf(code);
    if (kind === LOWER || kind === UPPER) {
      let j = i + 1;
      let sawLower = kind === LOWER;
      while (j < end) {
        const next = classOf(text.charCodeAt(j));
        if (next === LOWER) sawLower = true;
        else if (next !== UPPER || sawLower) break;
        j++;
      }
      const letters = j - i;
      if (!sawLower && letters > 1) total += 1 + Math.max(0, letters - 3) * 0.3;
      else if (prefix === 1 || prefix === 3) total += 1 + Math.max(0, letters - 8) * 0.25;
      else if (prefix === 2) total += 1 + Math.max(0, letters - 4) * 0.15;
      else if (prefix === 4) total += 1 + Math.max(0, letters - 2) * 0.5;
      else total += 1 + Math.max(0, letters - 4) * 0.5;
      count++;
      // `camelCase`: the word after the case change is a common word more often than not.
      prefix = j < end && sawLower && classOf(text.charCodeAt(j)) === UPPER ? 3 : 0;
      i = j;
    } else if (kind === DIGIT) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === DIGIT) j++;
      total += Math.ceil((j - i) / 3);
      count++;
      // Letters right after digits are mostly hex or generated ids (`9fc6ab`), rarely words.
      prefix = 4;
      i = j;
    } else if (kind === SPACE || kind === NEWLINE) {
      let j = i;
      let afterNewline = -1;
      while (j < end) {
        const next = classOf(text.charCodeAt(j));
        if (next === NEWLINE) afterNewline = j + 1;
        else if (next !== SPACE) break;
        j++;
      }
      if (afterNewline >= 0) {
        total += 1;
        count++;
      }
      const spaces = j - (afterNewline >= 0 ? afterNewline : i);
      const next = j < end ? classOf(text.charCodeAt(j)) : 0;
      prefix = 0;
      if (spaces > 0) {
        const extra = Math.floor(spaces / 32);
        if (next === LOWER || next === UPPER || next === PUNCT) {
          // The last space joins the next piece; the others are a piece of their own.
          if (spaces >= 2) {
            total += 1 + extra;
            count++;
          }
          prefix = 1;
        } else {
          total += (next === DIGIT && spaces >= 2 ? 2 : 1) + extra;
          count++;
        }
      }
      i = j;
    } else if (kind === PUNCT) {
      let j = i + 1;
      let same = true;
      while (j < end && classOf(text.charCodeAt(j)) === PUNCT) {
        if (text.charCodeAt(j) !== code) same = false;
        j++;
      }
      const length = j - i;
      const next = j < end ? classOf(text.charCodeAt(j)) : 0;
      if (prefix === 0 && length === 1 && (next === LOWER || next === UPPER)) {
        prefix = 2; // `.foo`, `_bar`: one piece with the word after it
      } else {
        total += same && length >= 4 ? 1 + length / 10 : 1 + Math.max(0, length - 3) * 0.5;
        count++;
        prefix = 0;
      }
      i = j;
    } else if (kind === CONTROL) {
      total += 1;
      count++;
      prefix = 0;
      i++;
    } else {
      prefix = 0;
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < end) {
        // A surrogate pair: emoji and symbols, or CJK in the supplementary ideographic planes.
        const point = ((code - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000;
        total += point >= 0x20000 && point < 0x40000 ? 1 : 2;
        i += 2;
        continue;
      }
      const cost = scriptCost(code);
      if (cost === 2 && code >= 0x2070) {
        let j = i + 1;
        while (j < end && text.charCodeAt(j) === code) j++;
        if (j - i >= 4) {
          total += Math.min((j - i) * cost, 1 + (j - i) / 6);
          i = j;
          continue;
        }
      }
      total += cost;
      i++;
    }
  }
  // A prefix with nothing after it is a piece of its own.
  if (prefix === 1 || prefix === 2) {
    total += 1;
    count++;
  }
  lastPieces = count;
  return total;
}

/** Estimated tokens of a text (an integer, rounded up). */
export function estimateText(text: string): number {
  const length = text.length;
  let total = 0;
  let gapStart = 0;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code >= 128 || ID_CHAR[code] !== 1) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < length) {
      const next = text.charCodeAt(j);
      if (next >= 128 || ID_CHAR[next] !== 1) break;
      j++;
    }
    if (j - i >= FLOOR_RUN) {
      total += pieces(text, gapStart, i);
      const cost = pieces(text, i, j);
      const random = lastPieces * FLOOR_CHARS_PER_PIECE > j - i;
      total += random ? Math.max(cost, (j - i) * FLOOR_PER_CHAR) : cost;
      gapStart = j;
    }
    i = j;
  }
  total += pieces(text, gapStart, length);
  return Math.ceil(total);
}

const memo = new WeakMap<Message, number>();
let computed = 0;

/**
 * Estimated tokens of one message as sent: its text, its tool calls' names and arguments, and
 * the framing. Memoised per message object (a message never changes after it is written).
 */
export function estimateMessage(message: Message): number {
  const known = memo.get(message);
  if (known !== undefined) return known;
  computed++;
  let tokens = MESSAGE_OVERHEAD + estimateText(message.content);
  if (message.role === "assistant") {
    for (const call of message.toolCalls) {
      tokens += TOOL_CALL_OVERHEAD + estimateText(call.name) + estimateText(call.arguments);
    }
  } else if (message.role === "tool") {
    tokens += estimateText(message.name);
  }
  memo.set(message, tokens);
  return tokens;
}

/** How many message estimates were computed rather than found in the memo (for tests). */
export function estimatesComputed(): number {
  return computed;
}

/** Estimated tokens of a list of messages (without the request's own overhead). */
export function estimateMessages(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessage(message);
  return total;
}

export interface LedgerOptions {
  /** Tokens of one message; default estimateMessage (the shared suite plugs in exact counts). */
  estimate?: (message: Message) => number;
  /** Multiplies every estimate of text without a reported count. Default DEFAULT_MARGIN. */
  margin?: number;
  /**
   * Tokens each request carries besides its messages and REQUEST_OVERHEAD: the tool
   * definitions, for instance (`estimateText(JSON.stringify(definitions))`).
   */
  fixedTokens?: number;
}

export interface PromptEstimate {
  /** Estimated prompt tokens of the view. */
  tokens: number;
  /**
   * `anchored`: the last reported count plus the new messages; `full`: every message estimated
   * (the first request, or the view changed below the anchored prefix).
   */
  basis: "anchored" | "full";
}

/**
 * The pre-send estimate of each request, anchored on the usage the API reported for the one
 * before. Pure state: it is told what was sent and what was reported, and never calls anything.
 */
export class TokenLedger {
  readonly margin: number;
  readonly fixedTokens: number;
  readonly #estimate: (message: Message) => number;
  /** The messages the next request builds on, and their tokens: the report less the tail's share. */
  #anchor: { messages: readonly Message[]; promptTokens: number } | null = null;
  #reported: number | null = null;
  #ratio = 1;
  #drift = 0;

  constructor(options: LedgerOptions = {}) {
    this.margin = options.margin ?? DEFAULT_MARGIN;
    this.fixedTokens = options.fixedTokens ?? 0;
    this.#estimate = options.estimate ?? estimateMessage;
    if (!(this.margin >= 1)) throw new RangeError(`margin must be at least 1, got ${this.margin}`);
  }

  /** Reported / estimated prompt tokens of the last request, at least 1. */
  get ratio(): number {
    return this.#ratio;
  }

  /** The largest growth of a reported prompt that the new messages did not explain. */
  get drift(): number {
    return this.#drift;
  }

  /** The prompt tokens reported for the last request, or null before the first. */
  get reported(): number | null {
    return this.#reported;
  }

  /**
   * Estimated prompt tokens of a request: `view`, the messages the next request builds on, then
   * `tail`, messages sent once and never again (the late-injected reminder), always estimated.
   */
  estimate(view: readonly Message[], tail: readonly Message[] = []): PromptEstimate {
    const anchor = this.#anchor;
    const fresh = this.#sum(tail, 0);
    if (anchor !== null && startsWith(view, anchor.messages)) {
      const added = this.#sum(view, anchor.messages.length) + fresh;
      const tokens =
        anchor.promptTokens + Math.ceil(this.#ratio * this.margin * added) + this.#drift;
      return { tokens, basis: "anchored" };
    }
    const all = this.#sum(view, 0) + fresh + REQUEST_OVERHEAD + this.fixedTokens;
    return { tokens: Math.ceil(this.#ratio * this.margin * all), basis: "full" };
  }

  /**
   * After a response: `sent` then `tail` are exactly the messages of the request (as passed to
   * `estimate`), `promptTokens` what the API reported for it. The next request is anchored on
   * `sent` alone, so the tail's share (its estimate × the ratio) is taken off the report. A
   * report of 0 or less (no usage returned) changes nothing.
   */
  record(sent: readonly Message[], promptTokens: number, tail: readonly Message[] = []): void {
    if (!(promptTokens > 0)) return;
    const fresh = this.#sum(tail, 0);
    const estimate = this.#sum(sent, 0) + fresh + REQUEST_OVERHEAD + this.fixedTokens;
    const anchor = this.#anchor;
    if (anchor !== null && startsWith(sent, anchor.messages)) {
      const added = this.#sum(sent, anchor.messages.length) + fresh;
      const unexplained = promptTokens - (anchor.promptTokens + this.#ratio * added);
      this.#drift = Math.max(this.#drift, Math.ceil(unexplained));
    }
    this.#ratio = Math.max(1, promptTokens / estimate);
    const kept = Math.max(0, promptTokens - Math.floor(this.#ratio * fresh));
    this.#anchor = { messages: [...sent], promptTokens: kept };
    this.#reported = promptTokens;
  }

  #sum(messages: readonly Message[], from: number): number {
    let total = 0;
    for (let i = from; i < messages.length; i++) total += this.#estimate(messages[i] as Message);
    return total;
  }
}

/** Whether `view` starts with exactly the messages of `prefix` (the same objects, in order). */
function startsWith(view: readonly Message[], prefix: readonly Message[]): boolean {
  if (view.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (view[i] !== prefix[i]) return false;
  return true;
}
