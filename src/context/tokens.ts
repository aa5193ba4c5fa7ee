/**
 * Token accounting for the context layer: a fast, pure estimate of what a text or a message costs
 * in tokens, memoised per message, and a ledger that anchors the estimate of the next request on
 * the `prompt_tokens` the API reported for the previous one. It is not a tokenizer: it need not
 * be exact, only never low by much, and cost nothing next to a model call.
 *
 * Text. o200k-style tokenizers first cut text into pieces (a word with at most one leading space
 * or punctuation character, 1–3 digits, a run of punctuation, a run of whitespace); no token
 * crosses a piece and most pieces are one token. So ASCII is estimated piece by piece, as the
 * tokenizer cuts it, each piece costing 1 plus a little per character past what common words fit
 * in, plus 1 for every two neighbours inside it that o200k has no token for (a cut: the piece
 * cannot be one token there; token-pairs.ts holds which of the 8,930 printable pairs are tokens,
 * the one part of o200k's vocabulary carried here, checked against gpt-tokenizer by the tests):
 *   - a word after a space, or after a camelCase boundary: 1 + 0.25 per letter past 8; with
 *     nothing before it (a line's start, after a run of punctuation): 1 + 0.15 past 4; right
 *     after digits (`9fc6ab`): 1 + 0.5 past 2; all capitals (`HTTP`): 1 + 0.3 past 3, and 1
 *     more after a quote or bracket (`"OK`);
 *   - a word after one punctuation character, by that character: `.` `_` `(` (members, names,
 *     calls) 1 + 0.2 past 4; `/` `-` (path segments, kebab-case, options) 1 + 0.2 past 2;
 *     `=` `:` `,` `[` `&` `%` `$` 2 for two letters (minified names), else 1 + 0.2 past 2;
 *     any other (quotes, backslash, brackets, `<`, backtick) 2 + 0.2 past 4, as the two are
 *     seldom one token (`'re`, `'ve`, `'ll`: 1); one letter 1 (plus a cut if the pair is none);
 *     so a `find` listing or a URL costs by its `/`, `.`, `-`, `_` separated runs;
 *   - 24 letters or more are no word: at least 1 per 2;
 *   - digits: 1 per 3 (exact: o200k never merges more than 3);
 *   - punctuation: cut where neighbours are not a token, each part of n characters 0.6 n − 0.5,
 *     at least 1 (`");` 1.3, `(?:(?:[` 3.7); one character repeated 4 or more times
 *     1 + a rate per character by how far o200k merges it: 0.1 for `-=*#/._%+~!;:`, 0.125 for
 *     `?<>@^`, 0.25 for `)"$'(,\|`, 0.5 for `[]{}&` and backtick; a control character 1;
 *   - whitespace: 1 per run of spaces and 1 per newline run (a single space before a word is
 *     that word's prefix), 2 for spaces before digits, plus 1 per 32 spaces.
 * Everything else per code point, at its UTF-8 bytes (o200k has no merges for most scripts, and
 * cuts them byte by byte: CJK extensions A–G, Yi, private use, combining marks, Syriac, Hangul
 * jamo, the historic scripts, technical symbols, braille, the supplemental arrows and math
 * operators of U+2300–U+245F and U+27C0–U+2BFF) except where o200k knows the script (weights
 * from real text where the samples hold some, CJK, kana, Cyrillic, Arabic, Devanagari, Thai,
 * Vietnamese; elsewhere from random letters of the script, which o200k merges only in part):
 * CJK, kana, Hangul syllables, fullwidth punctuation and digits 1;
 * Latin-1, Latin extended-A and additional (Vietnamese), Greek, Cyrillic, Armenian, Hebrew and
 * Arabic letters, the Indic scripts up to Malayalam, Thai, Georgian 1/2; Latin extended-B, IPA,
 * Arabic vowel marks, Greek extended, Sinhala, Lao, Tibetan, Myanmar, Khmer 1; general
 * punctuation (`—`, `…`, curly quotes) 1; symbols, arrows, math, box drawing, shapes, dingbats,
 * ZWJ and variation selectors 2; Ethiopic 2; U+FFFD 1/2. Outside the Basic Multilingual Plane:
 * emoji and pictographs (U+1F000–U+1FAFF) 2, the rest its 4 bytes. A rule repeated 4 or more
 * times (`──────`, `━`, `═`, `█`, `—`, `…`) 1 + 1/4 per character; any other symbol repeated
 * (`░░░░`, `→→→`) costs each, as o200k merges none of them.
 * Floors: a run of 24 or more `[A-Za-z0-9+/=_-]` that the pieces cut finer than one piece per 3.5
 * characters (base64, hex hashes, random ids; not paths or snake_case names) costs at least 0.75
 * per character; a stretch of 24 or more printable ASCII characters (words joined by single
 * spaces) with a cut in every 12 characters or fewer is random text (generated keys, passwords;
 * o200k 0.70–0.74 a character) and costs at least 0.8 per character.
 *
 * Why not the plain rule (ASCII 4 characters per token, CJK 1, else 2). Measured against
 * gpt-tokenizer 4.0.0 o200k on ../shared (test/shared/tokens.test.ts, `npm run test:shared`):
 *
 *   estimate / o200k  base64  JSON   JSON    logs  min.  emoji  TS    Py    Engl.  Chin.  Russ.
 *                             compact pretty        JS
 *   plain rule        0.36    0.74   0.72    0.59  0.55  0.55   0.96  0.98  1.25   1.36   1.94
 *   plain + floor     1.07    0.81   0.77    0.76  0.55  0.55   1.05  0.98  1.25   1.36   1.94
 *   this estimate     1.11    1.07   1.13    1.15  1.04  1.19   1.15  1.11  1.02   1.37   2.43
 *
 * Per content class (test/support/token-classes.ts: samples of 48,000 code points or more, made
 * here or frozen in test/fixtures/token-classes; bench/token-classes.ts prints this), estimate /
 * o200k over chunks of 2,000 code points: the mean, the worst chunk and, where that was below
 * 0.95 before the rules above, what it was; test/context/tokens.test.ts asserts every chunk of
 * every class ≥ 0.95:
 *
 *   find paths      1.09 0.96 (0.81)   JSON           1.16 1.12          emoji ZWJ    1.33 1.29
 *   minified lodash 1.07 1.02 (0.79)   random ASCII   1.05 1.02 (0.76)   Thai         1.24 1.21
 *   minified ours   1.05 0.99 (0.94)   hex dump       1.04 1.00          Devanagari   1.50 1.48
 *   NFD accents     1.21 1.18 (0.82)   UUIDs          1.17 1.14          Arabic       1.59 1.54
 *   astral CJK      1.01 1.01 (0.37)   long URLs      1.17 1.11          English      1.07 1.00
 *   private use     1.04 1.02 (0.58)   diff hunks     1.09 1.03          TypeScript   1.10 1.03
 *   combining marks 1.06 0.98 (0.38)   stack traces   1.07 1.03          logs         1.13 1.11
 *   Windows paths   1.09 1.06 (0.89)   base64 at 76   1.12 1.10          CSV numbers  1.00 1.00
 *
 * Per request of the five mini-swe-agent trajectories (367 requests, exact o200k + 4 per message):
 * the plain rule p1 0.86, median 0.96, 315 requests below 1.0; with the floor on every long run
 * p1 0.94, median 1.15, 99 below; this estimate min 1.028, p1 1.038, median 1.084, p99 1.118,
 * none below. Known to run low: random lower-case letters in words (`qzx vbnwk`: 0.43; no pair
 * tells them from words, and nothing natural looks like them) and binary bytes decoded as UTF-8
 * (0.96); the ledger's ratio and margin absorb both.
 *
 * Requests (TokenLedger). After each response the ledger is told which messages were sent and the
 * `prompt_tokens` reported. It keeps `ratio = max(1, reported / estimate)` (the provider's
 * tokenizer against this estimate; Gemini's counts about 16% more than o200k) and `drift`, the
 * largest amount by which a reported prompt grew past `ratio × estimate` of the messages added
 * since the one before. A view that starts with exactly the messages last sent (the same objects:
 * a message never changes after it is written) is estimated as `reported + ratio × margin ×
 * estimate(new messages) + drift`; any other view (the first request, or one changed below the
 * anchored prefix) as `ratio × margin × estimate(all)`. Margin 1.25. Against what Gemini 3 Pro
 * reported for the same 367 requests: min 0.999, p1 1.003, median 1.018, p99 1.21, one below
 * 1.0 (by 0.1%; exact o200k for the new messages has the same one; this estimate alone: median
 * 0.91, 99% below). Without `drift`, 19 (5.2%) fall below 1.0, to 0.98: the provider's count
 * sometimes grows by a few hundred tokens more than the new messages explain.
 * The late-injected reminder is a tail: sent once, last, so every request estimates it in full,
 * and its estimated share (× ratio) is taken off the report before the report anchors the next.
 *
 * Exact counting: not used, for any text. Over all the samples gpt-tokenizer's o200k
 * `countTokens` ran at 6–60 MB/s here, this estimate at 80–370 MB/s (bench/token-estimate.ts;
 * 2–10× faster; the rules above cost about 8% of the speed of the ones before them), and an
 * exact count is exact only for OpenAI's models: in the same anchored ledger, exact o200k for
 * the new messages gives min 0.999, p1 1.003, median 1.018 and one request below 1.0, no better
 * than this estimate. It would add 3.3 MB to each bundle (2.8 MB minified, 1.1 MB gzipped: the
 * o200k ranks), ~0.5 s to load and ~70 MB of memory. The estimate never loads gpt-tokenizer; the
 * tests, the shared-data suite and the benchmarks compare against it.
 */
import type { Message } from "../domain/messages.ts";
import { TOKEN_PAIRS } from "./token-pairs.ts";

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

/**
 * 1 where two printable ASCII characters (index `first * 128 + second`) are not one o200k token,
 * from the table of token-pairs.ts: o200k's pieces are cut there (see the header).
 */
const CUT = new Uint8Array(128 * 128);
{
  const bits = Buffer.from(TOKEN_PAIRS, "base64");
  for (let first = 0x20; first <= 0x7e; first++) {
    for (let second = 0x21; second <= 0x7e; second++) {
      const bit = (first - 0x20) * 94 + (second - 0x21);
      CUT[first * 128 + second] = 1 - (((bits[bit >> 3] ?? 0) >> (bit & 7)) & 1);
    }
  }
}

/** What a word costs after one punctuation character, by that character (see the header). */
const AFTER_CODE = 1; // `.` `_` `(`: members, names, calls
const AFTER_PATH = 2; // `/` `-`: path segments, kebab-case names, options
const AFTER_OPERATOR = 3; // `=` `:` `,` `[` `&` `%` `$`: one letter merges, two do not
const AFTER_SEPARATE = 4; // quotes, backslash, brackets, the rest: seldom one token with a word
const PREFIX_KIND = new Uint8Array(128).fill(AFTER_SEPARATE);
for (const char of "._(") PREFIX_KIND[char.charCodeAt(0)] = AFTER_CODE;
for (const char of "/-") PREFIX_KIND[char.charCodeAt(0)] = AFTER_PATH;
for (const char of "=:,[&%$") PREFIX_KIND[char.charCodeAt(0)] = AFTER_OPERATOR;

/**
 * Tokens per character of one punctuation character repeated (4 or more): o200k merges long
 * runs of some (`=====`, `-----`, `#####`) and only pairs of others (`]]]]`, `{{{{`, `&&&&`).
 */
const REPEAT_RATE = new Float64Array(128).fill(0.5);
for (const char of "-=*#/._%+~!;:") REPEAT_RATE[char.charCodeAt(0)] = 0.1;
for (const char of "?<>@^") REPEAT_RATE[char.charCodeAt(0)] = 0.125;
for (const char of ")\"$'(,\\|") REPEAT_RATE[char.charCodeAt(0)] = 0.25;

/**
 * Cost of each code point of the Basic Multilingual Plane outside ASCII, in half tokens: by
 * default its UTF-8 bytes (o200k has no merges for most scripts and cuts them byte by byte),
 * less for the scripts it knows (see the header).
 */
const BMP_COST = new Uint8Array(0x10000);
const COMPRESSES = 0x80;
{
  for (let code = 0x80; code < 0x10000; code++) BMP_COST[code] = code < 0x800 ? 4 : 6;
  /** [first, last, tokens]: the ranges that do not cost their bytes. */
  const known: readonly (readonly [number, number, number])[] = [
    [0x0080, 0x017f, 0.5], // Latin-1, Latin extended-A
    [0x0180, 0x024f, 1], // Latin extended-B (Romanian, pinyin tones, African alphabets)
    [0x0250, 0x02ff, 1], // IPA, spacing modifiers (ˈ ː ʰ)
    [0x0370, 0x058f, 0.5], // Greek, Cyrillic, Armenian
    [0x05d0, 0x05ff, 0.5], // Hebrew letters
    [0x0600, 0x06ff, 0.5], // Arabic
    [0x064b, 0x065f, 1], // Arabic vowel marks (harakat)
    [0x0670, 0x0670, 1], // Arabic superscript alef
    [0x0900, 0x0d7f, 0.5], // Devanagari … Malayalam
    [0x0d80, 0x0dff, 1], // Sinhala
    [0x0e00, 0x0e7f, 0.5], // Thai
    [0x0e80, 0x109f, 1], // Lao, Tibetan, Myanmar
    [0x10a0, 0x10ff, 0.5], // Georgian
    [0x1200, 0x139f, 2], // Ethiopic
    [0x1780, 0x17ff, 1], // Khmer
    [0x1e00, 0x1eff, 0.5], // Latin extended additional (Vietnamese)
    [0x1f00, 0x1fff, 1], // Greek extended
    [0x2000, 0x206f, 1], // general punctuation (— … “ ” •)
    [0x200d, 0x200d, 2], // zero-width joiner, inside emoji sequences
    [0x2070, 0x22ff, 2], // super- and subscripts, currency, letterlike, arrows, math
    [0x2460, 0x27bf, 2], // enclosed, box drawing, blocks, shapes, symbols, dingbats
    [0x3000, 0x30ff, 1], // CJK punctuation, kana
    [0x3100, 0x318f, 2], // Bopomofo, Hangul compatibility jamo
    [0x4e00, 0x9fff, 1], // CJK unified ideographs
    [0xac00, 0xd7af, 1], // Hangul syllables
    [0xd800, 0xdfff, 1], // a surrogate without its pair
    [0xfe00, 0xfe0f, 2], // variation selectors
    [0xfe10, 0xfe1f, 2], // vertical forms
    [0xfe30, 0xfeff, 2], // CJK compatibility and small forms, Arabic presentation forms-B
    [0xfeff, 0xfeff, 1], // byte order mark
    [0xff00, 0xff1f, 1], // fullwidth punctuation and digits
    [0xff20, 0xffef, 2], // fullwidth letters, halfwidth forms
    [0xfffd, 0xfffd, 0.5], // replacement character (binary decoded as text)
  ];
  for (const [first, last, tokens] of known) BMP_COST.fill(tokens * 2, first, last + 1);
  // Rules and bars o200k merges when repeated (4 or more: 1 + 1/4 each), flagged by the high bit.
  for (const char of "─━═█—–…\u3000ー\u00a0\ufffd") {
    const code = char.charCodeAt(0);
    BMP_COST[code] = (BMP_COST[code] ?? 0) | COMPRESSES;
  }
}

/** Runs this long of ID_CHAR characters may be random data (base64, hashes, ids). */
const FLOOR_RUN = 24;
/** A run is random data when it has more than one piece per this many characters. */
const FLOOR_CHARS_PER_PIECE = 3.5;
/** Tokens per character of random data at least (base64 is ~0.69 in o200k). */
const FLOOR_PER_CHAR = 0.75;
/**
 * A stretch of printable ASCII (words joined by single spaces) of FLOOR_RUN characters or more
 * with a pair o200k cannot merge in every this many characters is random text (generated keys,
 * passwords, noise), which o200k cuts into 0.70–0.74 tokens a character.
 */
const RANDOM_CHARS_PER_SPLIT = 12;
/** Tokens per character of random text at least. */
const RANDOM_PER_CHAR = 0.8;

/**
 * The total after a stretch of printable ASCII `length` long that began when the total was
 * `before` and has `splits` pairs o200k cannot merge: at least RANDOM_PER_CHAR a character when
 * it is random text.
 */
function randomFloor(total: number, before: number, length: number, splits: number): number {
  if (length < FLOOR_RUN || splits * RANDOM_CHARS_PER_SPLIT < length) return total;
  return Math.max(total, before + length * RANDOM_PER_CHAR);
}

/** Pieces the last `pieces()` call counted (read by the floor). */
let lastPieces = 0;

/** Estimated tokens of text[start, end), piece by piece as the tokenizer cuts it. */
function pieces(text: string, start: number, end: number): number {
  let total = 0;
  let half = 0; // non-ASCII, in half tokens
  let count = 0;
  /**
   * What stands before the next word: 0 nothing, 1 a space or tab, 2 one punctuation character
   * (both part of the word's piece; `prefixChar` is which), 3 a lower case letter (a camelCase
   * boundary), 4 digits.
   */
  let prefix = 0;
  let prefixChar = 0;
  /** The current stretch of printable ASCII: where it began, its cost so far, its splits. */
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
      let cost: number;
      if (prefix === 2) {
        // One punctuation character and the word: one piece, one token only when common.
        const after = PREFIX_KIND[prefixChar];
        if (!sawLower && letters > 1) {
          cost = 1 + Math.max(0, letters - 3) * 0.3 + (after === AFTER_SEPARATE ? 1 : 0);
        } else if (letters === 1) cost = 1;
        else if (after === AFTER_CODE) cost = 1 + Math.max(0, letters - 4) * 0.2;
        else if (after === AFTER_PATH) cost = 1 + (letters - 2) * 0.2;
        else if (after === AFTER_OPERATOR) cost = letters === 2 ? 2 : 1 + (letters - 2) * 0.2;
        // Contractions (`'re`, `'ll`) are one token; other quoted words are not.
        else if (letters === 2 && prefixChar === 39) cost = 1;
        else cost = 2 + Math.max(0, letters - 4) * 0.2;
        // The pair tells only for one letter: `=False` is one token though `=F` is not.
        if (letters === 1) cuts += CUT[prefixChar * 128 + code] ?? 0;
      } else if (!sawLower && letters > 1) cost = 1 + Math.max(0, letters - 3) * 0.3;
      else if (prefix === 1 || prefix === 3) cost = 1 + Math.max(0, letters - 8) * 0.25;
      else if (prefix === 4) cost = 1 + Math.max(0, letters - 2) * 0.5;
      else cost = 1 + Math.max(0, letters - 4) * 0.15;
      // No word is this long: random letters, about 2 a token.
      if (letters >= FLOOR_RUN) cost = Math.max(cost, letters * 0.5);
      total += Math.min(cost + cuts, letters + (prefix === 2 ? 1 : 0));
      splits += cuts;
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
      // A newline, a tab or two spaces end a stretch of printable ASCII; one space does not.
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
      if (breaks) {
        // The next stretch starts after the whitespace, whose cost is no part of either.
        stretchStart = j;
        stretchTotal = total;
      }
      i = j;
    } else if (kind === PUNCT) {
      let j = i + 1;
      let same = true;
      // Cut where o200k has no token for two neighbours; a part of n characters costs
      // 0.6 n - 0.5, at least 1.
      let cuts = prefix === 1 ? (CUT[32 * 128 + code] ?? 0) : 0;
      let cost = cuts;
      let part = 1;
      let last = code;
      while (j < end && classOf(text.charCodeAt(j)) === PUNCT) {
        const next = text.charCodeAt(j);
        if (next !== code) same = false;
        const cut = CUT[last * 128 + next] ?? 0;
        last = next;
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
        prefix = 2; // `.foo`, `_bar`: one piece with the word after it
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
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < end) {
        // A surrogate pair: emoji and pictographs 2; the rest (CJK extensions B–G, private use
        // planes 15–16, historic scripts, math alphanumerics) are cut into their 4 bytes.
        const point = ((code - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000;
        half += point >= 0x1f000 && point < 0x1fb00 ? 4 : 8;
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
  // A prefix with nothing after it is a piece of its own.
  if (prefix === 1 || prefix === 2) {
    total += 1;
    count++;
  }
  total = randomFloor(total, stretchTotal, end - stretchStart, splits);
  lastPieces = count;
  return total + half / 2;
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
