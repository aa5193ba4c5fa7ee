/**
 * The scan decodes before it matches (issue 10 §3): a value the harness holds is found in every
 * form an agent could write it in — split, with an invisible character, in another case,
 * reversed, hex, percent-encoded, base64 at each byte offset, line-wrapped or URL-safe, UTF-16 —
 * with the line where it starts and the kind of form, never the value.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { describe, test } from "node:test";
import { KNOWN_KINDS } from "../../src/git/secret-forms.ts";
import { scanForSecrets, scanNames, withholdSecrets } from "../../src/git/secret-scan.ts";
import { fakeSecrets } from "../support/secret-fixtures.ts";

const [TOKEN = "", API_KEY = ""] = fakeSecrets();
const bytes = Buffer.from(TOKEN);
/**
 * A held password's URL-safe base64 (in a JWT-like claim). Base64 of letters and digits rarely
 * differs from its URL-safe form; `~` and `?` make it differ.
 */
const PASSWORD = "pR0d~db?Pass-2024~?x";
const URL_SAFE = Buffer.from(`{"k":"${PASSWORD}"}`).toString("base64url");
const KNOWN = [TOKEN, API_KEY, PASSWORD];

function hex(value: Buffer): string {
  return value.toString("hex");
}

/** Each encoding, written as an agent would: the value on line 3 of a small file. */
const ENCODINGS: { name: string; text: string; kind: string; line?: number; last?: number }[] = [
  { name: "plain", text: `const token = "${TOKEN}";`, kind: KNOWN_KINDS.plain },
  {
    name: "split across lines",
    text: `const token = ${TOKEN.slice(0, 20)}\n  ${TOKEN.slice(20)};`,
    kind: KNOWN_KINDS.split,
    last: 4,
  },
  {
    name: "split into joined string literals",
    text: `const token = "${TOKEN.slice(0, 13)}" +\n  '${TOKEN.slice(13)}';`,
    kind: KNOWN_KINDS.split,
    last: 4,
  },
  {
    name: "with a zero-width space inside",
    text: `token: ${TOKEN.slice(0, 9)}\u200b${TOKEN.slice(9)}`,
    kind: KNOWN_KINDS.split,
  },
  {
    name: "with a soft hyphen and a word joiner inside",
    text: `token: ${TOKEN.slice(0, 5)}\u00ad${TOKEN.slice(5, 30)}\u2060${TOKEN.slice(30)}`,
    kind: KNOWN_KINDS.split,
  },
  { name: "upper-cased", text: `TOKEN=${TOKEN.toUpperCase()}`, kind: KNOWN_KINDS.recased },
  { name: "lower-cased", text: `token=${TOKEN.toLowerCase()}`, kind: KNOWN_KINDS.recased },
  {
    name: "reversed",
    text: `const t = "${[...TOKEN].reverse().join("")}";`,
    kind: KNOWN_KINDS.reversed,
  },
  { name: "hex", text: `blob = "${hex(bytes)}"`, kind: KNOWN_KINDS.hex },
  { name: "upper-case hex", text: `BLOB=${hex(bytes).toUpperCase()}`, kind: KNOWN_KINDS.hex },
  {
    name: "hex escapes",
    text: `printf '${[...bytes].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}'`,
    kind: KNOWN_KINDS.hex,
  },
  {
    name: "a C byte array",
    text: `char k[] = {${[...bytes].map((b) => `0x${b.toString(16)}`).join(", ")}};`,
    kind: KNOWN_KINDS.hex,
  },
  {
    name: "percent-encoded, every byte",
    text: `url = "https://example.com/?t=${[...bytes].map((b) => `%${b.toString(16)}`).join("")}"`,
    kind: KNOWN_KINDS.percent,
  },
  {
    name: "percent-encoded, only its underscore",
    text: `url = "https://example.com/?t=${encodeURIComponent(TOKEN).replace("_", "%5F")}"`,
    kind: KNOWN_KINDS.percent,
  },
  ...[0, 1, 2].map((offset) => ({
    name: `base64 at byte offset ${offset} of a longer run`,
    text: `data = "${Buffer.from(`${"x".repeat(offset + 3)}${TOKEN}"}`).toString("base64")}"`,
    kind: KNOWN_KINDS.base64,
  })),
  {
    name: "base64 of a Basic authorization header",
    text: `-H "Authorization: Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}"`,
    kind: KNOWN_KINDS.base64,
  },
  {
    name: "URL-safe base64",
    text: `jwt = "${URL_SAFE}"`,
    kind: KNOWN_KINDS.base64,
  },
  {
    // The value's bytes start at byte 87, base64 character 116: on the wrapped text's 2nd line,
    // the file's 4th; its last character (byte 126, character 168) is on the file's 5th.
    name: "line-wrapped base64 (76 columns, as MIME and openssl write it)",
    text: Buffer.from(`-----config-----\n${"z".repeat(70)}${TOKEN}\n`)
      .toString("base64")
      .replace(/.{1,76}/g, "$&\n")
      .trimEnd(),
    kind: KNOWN_KINDS.base64,
    line: 4,
    last: 5,
  },
  {
    name: "UTF-16 LE",
    text: Buffer.from(`token=${TOKEN}`, "utf16le").toString("utf8"),
    kind: KNOWN_KINDS.utf16,
  },
  {
    name: "UTF-16 BE",
    text: Buffer.from(`token=${TOKEN}`, "utf16le").swap16().toString("utf8"),
    kind: KNOWN_KINDS.utf16,
  },
];

describe("a held value in every form", () => {
  for (const { name, text, kind, line = 3, last } of ENCODINGS) {
    test(`${name}: found where it starts, named by kind, never by value`, () => {
      const file = `// settings\n\n${text}\n// end\n`;
      const findings = scanForSecrets([{ source: "src/config.ts", text: file }], KNOWN);
      const held = findings.filter((finding) => finding.kind.startsWith("a secret pitcrew holds"));
      assert.deepEqual(held, [
        { source: "src/config.ts", line, kind, ...(last === undefined ? {} : { last }) },
      ]);
      assert.ok(!JSON.stringify(findings).includes(TOKEN));
    });
  }

  test("the URL-safe sample differs from standard base64", () => {
    assert.match(URL_SAFE, /[-_]/);
  });

  test("a split value is withheld from a comment on every line it spans", () => {
    const text = `Done.\nThe token is ${TOKEN.slice(0, 20)}\n${TOKEN.slice(20)} now.\nBye.`;
    const lines = withholdSecrets(text, KNOWN).split("\n");
    assert.equal(lines[0], "Done.");
    assert.match(lines[1] ?? "", /withheld.*split/);
    assert.match(lines[2] ?? "", /withheld.*split/);
    assert.equal(lines[3], "Bye.");
  });

  test("a file or folder named with the value is found, and the name is never shown", () => {
    const paths = [
      `notes/${TOKEN}.txt`,
      `${hex(bytes)}/readme.md`,
      `docs/${Buffer.from(TOKEN).toString("base64")}`,
      "docs/ordinary-name.md",
    ];
    const findings = scanNames(paths, KNOWN);
    assert.deepEqual(findings, [
      { source: "the name notes/[name withheld]", line: 0, kind: KNOWN_KINDS.plain },
      { source: "the name notes/[name withheld]", line: 0, kind: "GitHub token" },
      { source: "the name [name withheld]/readme.md", line: 0, kind: KNOWN_KINDS.hex },
      { source: "the name docs/[name withheld]", line: 0, kind: KNOWN_KINDS.base64 },
    ]);
  });

  test("a finding in a file whose name holds the value does not show the name", () => {
    const findings = scanForSecrets([{ source: `a/${TOKEN}/b.txt`, text: TOKEN }], KNOWN);
    assert.deepEqual(findings, [
      { source: "a/[name withheld]/b.txt", line: 1, kind: KNOWN_KINDS.plain },
      { source: "a/[name withheld]/b.txt", line: 1, kind: "GitHub token" },
    ]);
  });

  test("short held values are matched in their own case only", () => {
    const short = "Pa55word-x";
    assert.deepEqual(scanForSecrets([{ source: "x", text: "PA55WORD-X pa55word-x" }], [short]), []);
    assert.equal(scanForSecrets([{ source: "x", text: `k=${short}` }], [short]).length, 1);
  });
});
