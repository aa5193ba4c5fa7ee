import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

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
function randomFloor(total, before, length, splits) {
  if (length < FLOOR_RUN || splits * RANDOM_CHARS_PER_SPLIT < length) return total;
  return Math.max(total, before + length * RANDOM_PER_CHAR);
}
var lastPieces = 0;
function pieces(text, start, end) {
  let total = 0;
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
      let cuts = 0;
      let last = code;
      while (j < end) {
        const next = text.charCodeAt(j);
        const nextKind = classOf(next);
        if (nextKind === LOWER) sawLower = true;
        else if (nextKind !== UPPER || sawLower) break;
        cuts += CUT[last * 128 + next] ?? 0;
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
        if (letters === 1) cuts += CUT[prefixChar * 128 + code] ?? 0;
      } else if (!sawLower && letters > 1) cost = 1 + Math.max(0, letters - 3) * 0.3;
      else if (prefix === 1 || prefix === 3) cost = 1 + Math.max(0, letters - 8) * 0.25;
      else if (prefix === 4) cost = 1 + Math.max(0, letters - 2) * 0.5;
      else cost = 1 + Math.max(0, letters - 4) * 0.15;
      if (letters >= FLOOR_RUN) cost = Math.max(cost, letters * 0.5);
      total += Math.min(cost + cuts, letters + (prefix === 2 ? 1 : 0));
      splits += cuts;
      count++;
      prefix = j < end && sawLower && classOf(text.charCodeAt(j)) === UPPER ? 3 : 0;
      i = j;
    } else if (kind === DIGIT) {
      let j = i + 1;
      while (j < end && classOf(text.charCodeAt(j)) === DIGIT) j++;
      total += Math.ceil((j - i) / 3);
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
        total = randomFloor(total, stretchTotal, i - stretchStart, splits);
        splits = 0;
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
      if (breaks) {
        stretchStart = j;
        stretchTotal = total;
      }
      i = j;
    } else if (kind === PUNCT) {
      let j = i + 1;
      let same = true;
      let cuts = prefix === 1 ? CUT[32 * 128 + code] ?? 0 : 0;
      let cost = cuts;
      let part = 1;
      let last = code;
      while (j < end && classOf(text.charCodeAt(j)) === PUNCT) {
        const next2 = text.charCodeAt(j);
        if (next2 !== code) same = false;
        const cut = CUT[last * 128 + next2] ?? 0;
        last = next2;
        if (cut === 1) {
          cost += Math.max(1, part * 0.6 - 0.5);
          cuts++;
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
        if (same && length >= 4) total += 1 + length * (REPEAT_RATE[code] ?? 0.5);
        else {
          total += Math.min(length + (prefix === 1 ? 1 : 0), cost);
          splits += cuts;
        }
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
      total = randomFloor(total, stretchTotal, i - stretchStart, splits);
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
      stretchTotal = total;
    }
  }
  if (prefix === 1 || prefix === 2) {
    total += 1;
    count++;
  }
  total = randomFloor(total, stretchTotal, end - stretchStart, splits);
  lastPieces = count;
  return total + half / 2;
}
function estimateText(text) {
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
    let total = 0;
    for (let i = from; i < messages.length; i++) total += this.#estimate(messages[i]);
    return total;
  }
};
function startsWith(view, prefix) {
  if (view.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (view[i] !== prefix[i]) return false;
  return true;
}

export {
  REQUEST_OVERHEAD,
  estimateText,
  estimateMessage,
  TokenLedger
};
