import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
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

// src/context/token-pairs.ts
var TOKEN_PAIRS = [
  "/38A/v//////////8B6AFAAAAAcAAADw/wfg9t3PxJ1IQMg9sAEIAAAAEARBABGIaAACAAEASC/7r8R0DgDlBwAA",
  "ikcMIUCaAADwHe0EFBH9BHj/Afh15nHw7ed/X/93AM7////v////7/8fgB8AAgj/Rzxrt7oHIFtAw8D0/vs/OPcB",
  "SDwAAHA8/joH/38Aiv///2////+H/h4AzP///9P////z/wfg/f/////////6/wHo//////3//58AgP8BAAAAAAAA",
  "AAAA4H8AAAAAAAAAAAAA+B8AAAAAAAAAAAAA/gcAAAAAAAAAAACA/wEAAAAAAAAAAADgfwAAAAAAAAAAAAD4HwAA",
  "AAAAAAAAAAD+BwAAAAAAAAAAAID/AQAAAAAAAAAAAOB/AAAAAAAAAADg/weg/b/r2P///3/o9wEwAAAAIFz8P0bt",
  "UAB4////RKex/MS/HID+Ay4z8////+W/B+D/0cvouQBAzD3nAagBAAAwBZK+IYoAAIIAAAAMQDAEAQAAAMD////A",
  "/7//AAAAAPD//z/w/e8dAAAAAPz//w/85/sGAAAAAP///wO/+/4DAAAAwH///8D/7+8AAAAA8N/vH/DV7x0AAAAA",
  "/Pf7B1yuewUAAAAA////A1vZ/gMAAADA//+/wN//+wAAAADw9+8HEJlGEQAAAAD89/sFbOf5BQAAAAD//f4Bf/s8",
  "AQAAAMD//3/A////AAAAAPD/7z/w/e07AAAAAPz/+we4//sPAAAAAP///wH/ff4BAAAAwEfuD0BRkgcAAAAA8P//",
  "H/Cf3x8AAAAA/P//D/z+/w0AAAAA///+A7/d9gEAAADA/6//wHuv+wAAAADw3+8PUNFtMQAAAAD89/sHZAZ7BgAA",
  "AAA/+a4DGZEcAAAAAEAXv/dARJwFAAAAAJAf5z2QOQcHeGsBCP79uvb///8fyngAChCQBAw7IL7A/B+AHwAAAB8A",
  "AAAHGAMAAAAAwAIAAEBo7wF4/P////3//z8AKQAGAAAAmAAADBAAAAAAAAAAwP///wAAAAAAAAAA8P/vPwAAAAAA",
  "AAAA/P//DwAAAAAAAAAA////AwAAAAAAAADA////AAAAAAAAAADw//8/AAAAAAAAAAD87/sPAAAAAAAAAAD///8D",
  "AAAAAAAAAMD///8AAAAAAAAAAPD//x0AAAAAAAAAAPz/+wcAAAAAAAAAAP///gMAAAAAAAAAwP///wAAAAAAAAAA",
  "8P/vPwAAAAAAAAAA/P//DwAAAAAAAAAA////AwAAAAAAAADAZ/53AAAAAAAAAADw3/8/AAAAAAAAAAD8//8PAAAA",
  "AAAAAAD///4DAAAAAAAAAMD///8AAAAAAAAAAPD//z8AAAAAAAAAAPz/+wcAAAAAAAAAAL/5ngMAAAAAAAAAwP+/",
  "/wAAAAAAAAAA8N/vPWhBAQgCAAAgABQRcsIQAAAAAAAIAAAAyH4fgD8AAAA3AAABB4AFAAEAAAAAAAAAAg=="
].join("");

// src/context/tokens.ts
var MESSAGE_OVERHEAD = 4;
var TOOL_CALL_OVERHEAD = 8;
var REQUEST_OVERHEAD = 3;
var DEFAULT_MARGIN = 1.25;
var LOWER = 1;
var UPPER = 2;
var DIGIT = 3;
var SPACE = 4;
var NEWLINE = 5;
var PUNCT = 6;
var CONTROL = 7;
var OTHER = 8;
var ASCII_CLASS = new Uint8Array(128);
var ID_CHAR = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  ASCII_CLASS[code] = code >= 97 && code <= 122 ? LOWER : code >= 65 && code <= 90 ? UPPER : code >= 48 && code <= 57 ? DIGIT : code === 32 || code === 9 ? SPACE : code === 10 || code === 13 ? NEWLINE : code < 32 || code === 127 ? CONTROL : PUNCT;
  ID_CHAR[code] = ASCII_CLASS[code] === LOWER || ASCII_CLASS[code] === UPPER || ASCII_CLASS[code] === DIGIT || code === 43 || // +
  code === 47 || // /
  code === 61 || // =
  code === 95 || // _
  code === 45 ? 1 : 0;
}
function classOf(code) {
  return code < 128 ? ASCII_CLASS[code] ?? OTHER : OTHER;
}
var CUT = new Uint8Array(128 * 128);
{
  const bits = Buffer.from(TOKEN_PAIRS, "base64");
  for (let first = 32; first <= 126; first++) {
    for (let second = 33; second <= 126; second++) {
      const bit = (first - 32) * 94 + (second - 33);
      CUT[first * 128 + second] = 1 - ((bits[bit >> 3] ?? 0) >> (bit & 7) & 1);
    }
  }
}
var AFTER_CODE = 1;
var AFTER_PATH = 2;
var AFTER_OPERATOR = 3;
var AFTER_SEPARATE = 4;
var PREFIX_KIND = new Uint8Array(128).fill(AFTER_SEPARATE);
for (const char of "._(") PREFIX_KIND[char.charCodeAt(0)] = AFTER_CODE;
for (const char of "/-") PREFIX_KIND[char.charCodeAt(0)] = AFTER_PATH;
for (const char of "=:,[&%$") PREFIX_KIND[char.charCodeAt(0)] = AFTER_OPERATOR;
var REPEAT_RATE = new Float64Array(128).fill(0.5);
for (const char of "-=*#/._%+~!;:") REPEAT_RATE[char.charCodeAt(0)] = 0.1;
for (const char of "?<>@^") REPEAT_RATE[char.charCodeAt(0)] = 0.125;
for (const char of `)"$'(,\\|`) REPEAT_RATE[char.charCodeAt(0)] = 0.25;
var BMP_COST = new Uint8Array(65536);
var COMPRESSES = 128;
{
  for (let code = 128; code < 65536; code++) BMP_COST[code] = code < 2048 ? 4 : 6;
  const known = [
    [128, 383, 0.5],
    // Latin-1, Latin extended-A
    [384, 591, 1],
    // Latin extended-B (Romanian, pinyin tones, African alphabets)
    [592, 767, 1],
    // IPA, spacing modifiers (ˈ ː ʰ)
    [880, 1423, 0.5],
    // Greek, Cyrillic, Armenian
    [1488, 1535, 0.5],
    // Hebrew letters
    [1536, 1791, 0.5],
    // Arabic
    [1611, 1631, 1],
    // Arabic vowel marks (harakat)
    [1648, 1648, 1],
    // Arabic superscript alef
    [2304, 3455, 0.5],
    // Devanagari … Malayalam
    [3456, 3583, 1],
    // Sinhala
    [3584, 3711, 0.5],
    // Thai
    [3712, 4255, 1],
    // Lao, Tibetan, Myanmar
    [4256, 4351, 0.5],
    // Georgian
    [4608, 5023, 2],
    // Ethiopic
    [6016, 6143, 1],
    // Khmer
    [7680, 7935, 0.5],
    // Latin extended additional (Vietnamese)
    [7936, 8191, 1],
    // Greek extended
    [8192, 8303, 1],
    // general punctuation (— … “ ” •)
    [8205, 8205, 2],
    // zero-width joiner, inside emoji sequences
    [8304, 8959, 2],
    // super- and subscripts, currency, letterlike, arrows, math
    [9312, 10175, 2],
    // enclosed, box drawing, blocks, shapes, symbols, dingbats
    [12288, 12543, 1],
    // CJK punctuation, kana
    [12544, 12687, 2],
    // Bopomofo, Hangul compatibility jamo
    [19968, 40959, 1],
    // CJK unified ideographs
    [44032, 55215, 1],
    // Hangul syllables
    [55296, 57343, 1],
    // a surrogate without its pair
    [65024, 65039, 2],
    // variation selectors
    [65040, 65055, 2],
    // vertical forms
    [65072, 65279, 2],
    // CJK compatibility and small forms, Arabic presentation forms-B
    [65279, 65279, 1],
    // byte order mark
    [65280, 65311, 1],
    // fullwidth punctuation and digits
    [65312, 65519, 2],
    // fullwidth letters, halfwidth forms
    [65533, 65533, 0.5]
    // replacement character (binary decoded as text)
  ];
  for (const [first, last, tokens] of known) BMP_COST.fill(tokens * 2, first, last + 1);
  for (const char of "\u2500\u2501\u2550\u2588\u2014\u2013\u2026\u3000\u30FC\xA0\uFFFD") {
    const code = char.charCodeAt(0);
    BMP_COST[code] = (BMP_COST[code] ?? 0) | COMPRESSES;
  }
}
var FLOOR_RUN = 24;
var FLOOR_CHARS_PER_PIECE = 3.5;
var FLOOR_PER_CHAR = 0.75;
var RANDOM_CHARS_PER_SPLIT = 12;
var RANDOM_PER_CHAR = 0.8;
function randomFloor(total2, before, length, splits) {
  if (length < FLOOR_RUN || splits * RANDOM_CHARS_PER_SPLIT < length) return total2;
  return Math.max(total2, before + length * RANDOM_PER_CHAR);
}
var lastPieces = 0;
function pieces(text, start, end) {
  let total2 = 0;
  let half = 0;
  let count = 0;
  let prefix = 0;
  let prefixChar = 0;
  let stretchStart = start;
  let stretchTotal = 0;
  let splits = 0;
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    const kind = classOf(code);
    if (kind === LOWER || kind === UPPER) {
      let j = i + 1;
      let sawLower = kind === LOWER;
      let cuts2 = 0;
      let last = code;
      while (j < end) {
        const next = text.charCodeAt(j);
        const nextKind = classOf(next);
        if (nextKind === LOWER) sawLower = true;
        else if (nextKind !== UPPER || sawLower) break;
        cuts2 += CUT[last * 128 + next] ?? 0;
        last = next;
        j++;
      }
      const letters = j - i;
      let cost;
      if (prefix === 2) {
        const after = PREFIX_KIND[prefixChar];
        if (!sawLower && letters > 1) {
          cost = 1 + Math.max(0, letters - 3) * 0.3 + (after === AFTER_SEPARATE ? 1 : 0);
        } else if (letters === 1) cost = 1;
        else if (after === AFTER_CODE) cost = 1 + Math.max(0, letters - 4) * 0.2;
        else if (after === AFTER_PATH) cost = 1 + (letters - 2) * 0.2;
        else if (after === AFTER_OPERATOR) cost = letters === 2 ? 2 : 1 + (letters - 2) * 0.2;
        else if (letters === 2 && prefixChar === 39) cost = 1;
        else cost = 2 + Math.max(0, letters - 4) * 0.2;
        if (letters === 1) cuts2 += CUT[prefixChar * 128 + code] ?? 0;
      } else if (!sawLower && letters > 1) cost = 1 + Math.max(0, letters - 3) * 0.3;
      else if (prefix === 1 || prefix === 3) cost = 1 + Math.max(0, letters - 8) * 0.25;
      else if (prefix === 4) cost = 1 + Math.max(0, letters - 2) * 0.5;
      else cost = 1 + Math.max(0, letters - 4) * 0.15;
      if (letters >= FLOOR_RUN) cost = Math.max(cost, letters * 0.5);
      total2 += Math.min(cost + cuts2, letters + (prefix === 2 ? 1 : 0));
      splits += cuts2;
      count++;
      prefix = j < end && sawLower && classOf(text.charCodeAt(j)) === UPPER ? 3 : 0;
      i = j;
    } else if (kind === DIGIT) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === DIGIT) j++;
      total2 += Math.ceil((j - i) / 3);
      count++;
      prefix = 4;
      i = j;
    } else if (kind === SPACE || kind === NEWLINE) {
      let j = i;
      let afterNewline = -1;
      while (j < end) {
        const next2 = classOf(text.charCodeAt(j));
        if (next2 === NEWLINE) afterNewline = j + 1;
        else if (next2 !== SPACE) break;
        j++;
      }
      const breaks = afterNewline >= 0 || j - i > 1 || code === 9;
      if (breaks) {
        total2 = randomFloor(total2, stretchTotal, i - stretchStart, splits);
        splits = 0;
      }
      if (afterNewline >= 0) {
        total2 += 1;
        count++;
      }
      const spaces = j - (afterNewline >= 0 ? afterNewline : i);
      const next = j < end ? classOf(text.charCodeAt(j)) : 0;
      prefix = 0;
      if (spaces > 0) {
        const extra = Math.floor(spaces / 32);
        if (next === LOWER || next === UPPER || next === PUNCT) {
          if (spaces >= 2) {
            total2 += 1 + extra;
            count++;
          }
          prefix = 1;
        } else {
          total2 += (next === DIGIT && spaces >= 2 ? 2 : 1) + extra;
          count++;
        }
      }
      if (breaks) {
        stretchStart = j;
        stretchTotal = total2;
      }
      i = j;
    } else if (kind === PUNCT) {
      let j = i + 1;
      let same = true;
      let cuts2 = prefix === 1 ? CUT[32 * 128 + code] ?? 0 : 0;
      let cost = cuts2;
      let part = 1;
      let last = code;
      while (j < end && classOf(text.charCodeAt(j)) === PUNCT) {
        const next2 = text.charCodeAt(j);
        if (next2 !== code) same = false;
        const cut = CUT[last * 128 + next2] ?? 0;
        last = next2;
        if (cut === 1) {
          cost += Math.max(1, part * 0.6 - 0.5);
          cuts2++;
          part = 0;
        }
        part++;
        j++;
      }
      cost += Math.max(1, part * 0.6 - 0.5);
      const length = j - i;
      const next = j < end ? classOf(text.charCodeAt(j)) : 0;
      if (prefix !== 1 && length === 1 && (next === LOWER || next === UPPER)) {
        prefix = 2;
        prefixChar = code;
      } else {
        if (same && length >= 4) total2 += 1 + length * (REPEAT_RATE[code] ?? 0.5);
        else {
          total2 += Math.min(length + (prefix === 1 ? 1 : 0), cost);
          splits += cuts2;
        }
        count++;
        prefix = 0;
      }
      i = j;
    } else if (kind === CONTROL) {
      total2 += 1;
      count++;
      prefix = 0;
      i++;
    } else {
      prefix = 0;
      total2 = randomFloor(total2, stretchTotal, i - stretchStart, splits);
      splits = 0;
      if (code >= 55296 && code < 56320 && i + 1 < end) {
        const point = (code - 55296 << 10) + (text.charCodeAt(i + 1) - 56320) + 65536;
        half += point >= 126976 && point < 129792 ? 4 : 8;
        i += 2;
      } else {
        const cost = BMP_COST[code] ?? 2;
        if (cost < COMPRESSES) {
          half += cost;
          i++;
        } else {
          let j = i + 1;
          while (j < end && text.charCodeAt(j) === code) j++;
          half += j - i >= 4 ? 2 + (j - i) / 2 : (j - i) * (cost - COMPRESSES);
          i = j;
        }
      }
      stretchStart = i;
      stretchTotal = total2;
    }
  }
  if (prefix === 1 || prefix === 2) {
    total2 += 1;
    count++;
  }
  total2 = randomFloor(total2, stretchTotal, end - stretchStart, splits);
  lastPieces = count;
  return total2 + half / 2;
}
function estimateText(text) {
  const length = text.length;
  let total2 = 0;
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
      total2 += pieces(text, gapStart, i);
      const cost = pieces(text, i, j);
      const random = lastPieces * FLOOR_CHARS_PER_PIECE > j - i;
      total2 += random ? Math.max(cost, (j - i) * FLOOR_PER_CHAR) : cost;
      gapStart = j;
    }
    i = j;
  }
  total2 += pieces(text, gapStart, length);
  return Math.ceil(total2);
}
var memo = /* @__PURE__ */ new WeakMap();
var computed = 0;
function estimateMessage(message) {
  const known = memo.get(message);
  if (known !== void 0) return known;
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
var TokenLedger = class {
  margin;
  fixedTokens;
  #estimate;
  /** The messages the next request builds on, and their tokens: the report less the tail's share. */
  #anchor = null;
  #reported = null;
  #ratio = 1;
  #drift = 0;
  constructor(options = {}) {
    this.margin = options.margin ?? DEFAULT_MARGIN;
    this.fixedTokens = options.fixedTokens ?? 0;
    this.#estimate = options.estimate ?? estimateMessage;
    if (!(this.margin >= 1)) throw new RangeError(`margin must be at least 1, got ${this.margin}`);
  }
  /** Reported / estimated prompt tokens of the last request, at least 1. */
  get ratio() {
    return this.#ratio;
  }
  /** The largest growth of a reported prompt that the new messages did not explain. */
  get drift() {
    return this.#drift;
  }
  /** The prompt tokens reported for the last request, or null before the first. */
  get reported() {
    return this.#reported;
  }
  /**
   * Estimated prompt tokens of a request: `view`, the messages the next request builds on, then
   * `tail`, messages sent once and never again (the late-injected reminder), always estimated.
   */
  estimate(view, tail = []) {
    const anchor = this.#anchor;
    const fresh = this.#sum(tail, 0);
    if (anchor !== null && startsWith(view, anchor.messages)) {
      const added = this.#sum(view, anchor.messages.length) + fresh;
      const tokens = anchor.promptTokens + Math.ceil(this.#ratio * this.margin * added) + this.#drift;
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
  record(sent, promptTokens, tail = []) {
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
  #sum(messages, from) {
    let total2 = 0;
    for (let i = from; i < messages.length; i++) total2 += this.#estimate(messages[i]);
    return total2;
  }
};
function startsWith(view, prefix) {
  if (view.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (view[i] !== prefix[i]) return false;
  return true;
}

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
  compactAt: 0.85,
  keepAfterCompaction: 0.35
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
    const reserve = reminder ? [reminder(true)] : [];
    const tail = (fired2) => reminder ? [reminder(fired2.includes("compact") || fired2.includes("drop"))] : [];
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
  return {
    async view(history, summarize) {
      const facts = options.reminder ? await options.reminder() : null;
      if (facts && !sameTodos(facts.todos, lastTodos)) cut.todos = false;
      lastTodos = facts?.todos ?? [];
      const prepared = await manager.prepare(history, {
        reminder: facts ? (rebased) => reminderMessage(facts, rebased ? WHOLE_REMINDER : { ...cut }) : void 0,
        compactor: summarize
      });
      if (prepared.fired.includes("compact") || prepared.fired.includes("drop")) rebase();
      return {
        ...prepared,
        compaction: prepared.fired.includes("compact") ? manager.compaction : null
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
  estimateText,
  layeredPolicy
};
