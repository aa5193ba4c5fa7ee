/**
 * The secret scan on its own: each kind of token it knows is found with its line, the harness's
 * own values are found raw and base64-encoded, and ordinary code (hashes, UUIDs, base64 fixtures,
 * placeholders, this project's own sources) gives no finding.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { knownSecrets, scanForSecrets, withholdSecrets } from "../../src/git/secret-scan.ts";

/** Built from parts so this file holds no token-shaped literal for other scanners to trip on. */
const SAMPLES: Record<string, string> = {
  "GitHub token": "ghp_" + "R4nd0mT0kenVa1ue" + "abcdefghijKLMNOPQRST",
  "GitHub fine-grained token":
    "github_pat_" +
    "11ABCDEFG0123456789ab" +
    "_" +
    "CdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJKLMNOPQRSTUVWXy",
  "OpenAI API key": "sk-proj-" + "Ab3dEf6hIj9kLmN0pQrStUvWxYz012345678" + "9AbCdEfGh",
  "Anthropic API key": "sk-ant-api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed" + "-cBaZyXwVuTs_q",
  "AWS access key id": "AKIA" + "Q3EGRZ7KXMPL2NWD",
  "Slack token": "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx",
  "Google API key": "AIza" + "SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
  "private key": "-----BEGIN " + "OPENSSH PRIVATE KEY-----",
};

describe("scanForSecrets", () => {
  for (const [kind, value] of Object.entries(SAMPLES)) {
    test(`${kind}: found with its line, never its value`, () => {
      const text = `const a = 1;\n\nconst key = "${value}"; // oops\n`;
      const findings = scanForSecrets([{ source: "src/app.ts", text, line: 40 }], []);
      assert.deepEqual(findings, [{ source: "src/app.ts", line: 42, kind }]);
      assert.ok(!JSON.stringify(findings).includes(value));
    });
  }

  test("a legacy OpenAI key (sk- and 48 characters) is found", () => {
    const key = "sk-" + "T3BlbkFJ" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0";
    assert.deepEqual(scanForSecrets([{ source: "x", text: key }], []), [
      { source: "x", line: 1, kind: "OpenAI API key" },
    ]);
  });

  test("values the harness holds are found anywhere, raw and base64-encoded", () => {
    const token = "ghs_abc";
    const apiKey = "my-gateway-key-42";
    const header = Buffer.from(`x-access-token:${apiKey}`).toString("base64");
    const items = [
      { source: "notes.txt", text: `prefix${apiKey}suffix` },
      { source: "b64.txt", text: `data = "${Buffer.from(apiKey).toString("base64")}"` },
      { source: "curl.sh", text: `curl -H "Authorization: Basic ${header}"` },
      { source: "short.txt", text: `the value ${token} is too short to look for` },
    ];
    assert.deepEqual(scanForSecrets(items, [apiKey, token]), [
      { source: "notes.txt", line: 1, kind: "a secret pitcrew holds" },
      { source: "b64.txt", line: 1, kind: "a secret pitcrew holds, base64-encoded" },
      { source: "curl.sh", line: 1, kind: "a secret pitcrew holds, base64-encoded" },
    ]);
  });

  test("ordinary code is not a secret", () => {
    const text = [
      'const sha = "3f786850e387550fdab836ed7e6dc881de23001b";',
      'const digest = "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";',
      'const id = "123e4567-e89b-12d3-a456-426614174000";',
      'const fixture = "SGVsbG8sIFdvcmxkISBUaGlzIGlzIGEgYmFzZTY0IHRlc3QgZml4dHVyZS4=";',
      'run("task-runner-for-the-nightly-build-of-everything-here");',
      'const name = "sk-this-is-a-very-long-kebab-case-identifier-name";',
      'const placeholder = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";',
      'const docs = "AKIAIOSFODNN7EXAMPLE";',
      "const disk = `disk-${'a'.repeat(50)}`;",
      "-----BEGIN CERTIFICATE-----",
      "-----BEGIN PUBLIC KEY-----",
    ].join("\n");
    assert.deepEqual(
      scanForSecrets([{ source: "fixtures.ts", text }], ["a-held-secret-value"]),
      [],
    );
  });

  test("this project's own sources hold no secret", () => {
    const root = fileURLToPath(new URL("../../src", import.meta.url));
    const items = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".ts"))
      .map((path) => ({ source: path, text: readFileSync(join(root, path), "utf8") }));
    assert.ok(items.length > 20);
    assert.deepEqual(scanForSecrets(items, []), []);
  });
});

describe("knownSecrets", () => {
  test("gathers the given values and the job's secret variables, once each", () => {
    const env = {
      GITHUB_TOKEN: "ghs_job_token_value",
      ACTIONS_RUNTIME_TOKEN: "runtime-token-value",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "id-token-request-value",
      "INPUT_API-KEY": "sk-input-api-key",
      "INPUT_GITHUB-TOKEN": "ghs_job_token_value",
      OPENAI_API_KEY: "short",
      HOME: "/home/runner/not-a-secret",
    };
    assert.deepEqual(
      knownSecrets(env, { apiKey: "sk-input-api-key", githubToken: undefined, notesKey: "" }),
      ["sk-input-api-key", "ghs_job_token_value", "runtime-token-value", "id-token-request-value"],
    );
  });
});

describe("withholdSecrets", () => {
  test("replaces each line that holds a known value or a token pattern, and only those", () => {
    const token = `ghp_${"A1b2C3d4E5".repeat(3)}abcdef`;
    const text = [
      "Fixed the parser.",
      `The old key was sk-known-value-123456 in config.js`,
      `and a token ${token} in the fixture`,
      "Tests pass.",
    ].join("\n");
    const shown = withholdSecrets(text, ["sk-known-value-123456"]);
    const lines = shown.split("\n");
    assert.equal(lines[0], "Fixed the parser.");
    assert.match(lines[1] ?? "", /withheld.*secret/);
    assert.match(lines[2] ?? "", /withheld.*GitHub token/);
    assert.equal(lines[3], "Tests pass.");
    assert.ok(!shown.includes("sk-known-value-123456") && !shown.includes(token));
  });

  test("text without secrets is returned as it was", () => {
    const text = "Nothing to hide: sha 3e3b99187278, uuid 123e4567-e89b-12d3-a456-426614174000.";
    assert.equal(withholdSecrets(text, ["sk-known-value-123456"]), text);
  });
});
