// Writes src/context/token-pairs.ts: which two printable ASCII characters o200k has as one
// token, the one piece of o200k's vocabulary the token estimate (src/context/tokens.ts) carries.
// `node scripts/token-pairs.ts`; test/context/tokens.test.ts checks the table against
// gpt-tokenizer, so it cannot drift from the tokenizer unnoticed.
import { writeFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** Rows: the first character, space (0x20) to `~` (0x7e); columns: the second, `!` to `~`. */
const FIRST = 0x20;
const SECOND = 0x21;
const LAST = 0x7e;
const columns = LAST - SECOND + 1;
const bits = new Uint8Array(Math.ceil(((LAST - FIRST + 1) * columns) / 8));
let pairs = 0;
for (let a = FIRST; a <= LAST; a++) {
  for (let b = SECOND; b <= LAST; b++) {
    const text = String.fromCharCode(a, b);
    if (countTokens(text, { disallowedSpecial: new Set() }) !== 1) continue;
    const bit = (a - FIRST) * columns + (b - SECOND);
    bits[bit >> 3]! |= 1 << (bit & 7);
    pairs++;
  }
}
const encoded = Buffer.from(bits).toString("base64");
const lines: string[] = [];
for (let i = 0; i < encoded.length; i += 88) lines.push(`  "${encoded.slice(i, i + 88)}",`);
const source = `/**
 * Which two printable ASCII characters o200k has as one token: ${pairs} of the ${(LAST - FIRST + 1) * columns} pairs of a
 * first character from space to \`~\` and a second from \`!\` to \`~\`, one bit each, row by row
 * (bit \`(first - 0x20) * ${columns} + (second - 0x21)\`, low bit first), in base64. Written by
 * scripts/token-pairs.ts from gpt-tokenizer's o200k_base; do not edit.
 */
export const TOKEN_PAIRS = [
${lines.join("\n")}
].join("");
`;
writeFileSync(new URL("../src/context/token-pairs.ts", import.meta.url), source);
process.stdout.write(`src/context/token-pairs.ts: ${pairs} pairs\n`);
