/**
 * The scrub of the notes before upload: every secret the harness knows (as is, base64, in JSON
 * strings one and two levels deep) and every token pattern of the push scan is replaced by
 * `[withheld: <kind>]`; placeholders are left; JSON text stays JSON, also where a secret-looking
 * match touches an escape sequence.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createScrubber, scrubNotes, withheldMarker } from "../../src/store/scrub.ts";
import type { Notes } from "../../src/domain/notes.ts";
import { threadState } from "../support/notes.ts";

const API_KEY = "sk-e2e-model-key-0123456789abcdef";
const TOKEN = "ghs_e2eTokenAbcdefghijklmnopqrstuvwxyz0123";
const KNOWN = withheldMarker("a secret pitcrew holds");
const KNOWN_BASE64 = withheldMarker("a secret pitcrew holds, base64-encoded");
const scrubber = createScrubber([API_KEY, TOKEN]);

function lines(text: string): unknown[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
}

describe("createScrubber", () => {
  test("known values, as is and base64 (also as checkout persists the token), in plain text", () => {
    const plain = Buffer.from(API_KEY).toString("base64");
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
    const padding = (value: string): string => /=*$/.exec(value)?.[0] ?? "";
    const text = `key ${API_KEY}\nb64 ${plain}\nAUTHORIZATION: basic ${basic}`;
    const { text: out, withheld } = scrubber.scrub(text, "text");
    assert.equal(withheld, 3);
    assert.equal(
      out,
      `key ${KNOWN}\nb64 ${KNOWN_BASE64}${padding(plain)}\n` +
        `AUTHORIZATION: basic ${KNOWN_BASE64}${padding(basic)}`,
    );
  });

  test("the push scan's token patterns; placeholders and documented examples stay", () => {
    const github = `ghp_${"Ab1".repeat(12)}`;
    const openai = `sk-proj-${"Zy9x".repeat(10)}`;
    const text = [
      `token ${github}`,
      `openai ${openai}`,
      "-----BEGIN RSA PRIVATE KEY-----",
      `placeholder ghp_${"x".repeat(36)}`,
      "aws AKIAIOSFODNN7EXAMPLE",
    ].join("\n");
    const { text: out, withheld } = scrubber.scrub(text, "text");
    assert.equal(withheld, 3);
    assert.deepEqual(out.split("\n"), [
      `token ${withheldMarker("GitHub token")}`,
      `openai ${withheldMarker("OpenAI API key")}`,
      withheldMarker("private key"),
      `placeholder ghp_${"x".repeat(36)}`,
      "aws AKIAIOSFODNN7EXAMPLE",
    ]);
  });

  test("JSONL stays JSONL: secrets in strings, in tool arguments (JSON inside JSON), in tool output", () => {
    const transcript = [
      { type: "message", run: 1, message: { role: "user", content: `use ${API_KEY}` } },
      {
        type: "message",
        run: 1,
        message: {
          role: "assistant",
          tool_calls: [
            { function: { arguments: JSON.stringify({ command: `curl -H "x: ${TOKEN}"` }) } },
          ],
        },
      },
      {
        type: "message",
        run: 1,
        message: { role: "tool", content: `\u001b[31m${TOKEN}\u001b[0m\n` },
      },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join("");
    const { text, withheld } = scrubber.scrub(transcript, "json");
    assert.equal(withheld, 3);
    const parsed = lines(text) as {
      message: { content?: string; tool_calls?: { function: { arguments: string } }[] };
    }[];
    assert.equal(parsed[0]?.message.content, `use ${KNOWN}`);
    const args = JSON.parse(parsed[1]?.message.tool_calls?.[0]?.function.arguments ?? "") as {
      command: string;
    };
    assert.equal(args.command, `curl -H "x: ${KNOWN}"`);
    assert.equal(parsed[2]?.message.content, `\u001b[31m${KNOWN}\u001b[0m\n`);
  });

  test("a secret JSON must escape is found escaped, once and twice", () => {
    const odd = 'pa"ss\\word-0123';
    const scrub = createScrubber([odd]);
    const once = JSON.stringify({ content: `x ${odd} y` });
    const twice = JSON.stringify({ arguments: JSON.stringify({ content: odd }) });
    const out = scrub.scrub(`${once}\n${twice}\n`, "json");
    assert.equal(out.withheld, 2);
    const [first, second] = lines(out.text) as [{ content: string }, { arguments: string }];
    assert.equal(first.content, `x ${KNOWN} y`);
    assert.deepEqual(JSON.parse(second.arguments), { content: KNOWN });
  });

  test("a match that starts or ends inside an escape sequence takes the whole escape: still JSON", () => {
    // Known values that happen to begin where an escape's letters are: `\n` and `\u001b`.
    const scrub = createScrubber([
      "nSecretAfterNewline1",
      "001bSecretAfterEscape",
      "Secret2Before\\",
    ]);
    const text = `${JSON.stringify({ a: "\nSecretAfterNewline1", b: "\u001bSecretAfterEscape", c: "Secret2Before\\n" })}\n`;
    const out = scrub.scrub(text, "json");
    assert.equal(out.withheld, 3);
    assert.deepEqual(lines(out.text), [{ a: KNOWN, b: KNOWN, c: `${KNOWN}n` }]);
  });

  test("random JSON lines around secrets and escapes all parse after the scrub", () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = [API_KEY, TOKEN, "\n", "\\", '"', "\u0001", "é", "n", "u00", "ghp_", "sk-", " "];
    const values = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join(""),
    );
    const text = values
      .map((value) => `${JSON.stringify({ value, nested: JSON.stringify(value) })}\n`)
      .join("");
    const out = scrubber.scrub(text, "json");
    assert.ok(out.withheld > 0);
    const parsed = lines(out.text) as { value: string; nested: string }[];
    assert.equal(parsed.length, values.length);
    for (const line of parsed) {
      assert.ok(!line.value.includes(API_KEY) && !line.value.includes(TOKEN));
      assert.equal(typeof JSON.parse(line.nested), "string");
    }
  });

  test("scrubbed text has nothing left to withhold", () => {
    const once = scrubber.scrub(`${API_KEY} ${TOKEN} ghp_${"Ab1".repeat(12)}`, "text");
    assert.deepEqual(scrubber.scrub(once.text, "text"), { text: once.text, withheld: 0 });
  });
});

describe("scrubNotes", () => {
  test("note, state and transcript: each scrubbed, the state still a state", () => {
    const notes: Notes = {
      note: `## Goal\nThe token is ${TOKEN}.`,
      state: threadState({
        cumulative: {
          runs: 1,
          turns: 1,
          usage: { promptTokens: 1, cachedTokens: 0, completionTokens: 1, reasoningTokens: 0 },
          cost: 0,
        },
        todos: [{ content: `stop leaking ${API_KEY}`, status: "pending" }],
      }),
      transcript: `${JSON.stringify({ type: "message", run: 1, message: { role: "assistant", content: API_KEY } })}\n`,
    };
    const { notes: out, withheld } = scrubNotes(notes, [API_KEY, TOKEN]);
    assert.equal(withheld, 3);
    assert.equal(out.note, `## Goal\nThe token is ${KNOWN}.`);
    assert.deepEqual(out.state, {
      ...notes.state,
      todos: [{ content: `stop leaking ${KNOWN}`, status: "pending" }],
    });
    assert.deepEqual(lines(out.transcript), [
      { type: "message", run: 1, message: { role: "assistant", content: KNOWN } },
    ]);
    assert.equal(scrubNotes(out, [API_KEY, TOKEN]).withheld, 0);
  });
});
