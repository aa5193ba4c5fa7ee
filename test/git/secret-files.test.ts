/**
 * Whole files as the scan reads them (issue 10 §3): compressed data is unpacked and searched —
 * gzip, zip members (made by Python's zipfile, not by us), zstd, nested — and what cannot be
 * unpacked within the bounds is a finding of its own kind, never passed unseen.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { gzipSync, zstdCompressSync } from "node:zlib";
import { KNOWN_KINDS } from "../../src/git/secret-forms.ts";
import { scanFileContent } from "../../src/git/secret-files.ts";
import { PROBLEM_KINDS, UNPACK_LIMITS, unpackBudget } from "../../src/git/secret-unpack.ts";
import { fakeSecrets } from "../support/secret-fixtures.ts";

const [TOKEN = "", API_KEY = ""] = fakeSecrets();
const KNOWN = [TOKEN, API_KEY];
const CONFIG = `# deploy settings\nregion = "eu-west-1"\ntoken = "${TOKEN}"\n`;

/** A zip archive written by Python's zipfile: members are [name, text, stored?]. */
function zip(members: [string, string, boolean?][]): Buffer {
  const script = [
    "import io, json, sys, zipfile",
    "out = io.BytesIO()",
    "with zipfile.ZipFile(out, 'w') as archive:",
    "    for name, text, *stored in json.load(sys.stdin):",
    "        method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED",
    "        archive.writestr(name, text, compress_type=method)",
    "sys.stdout.buffer.write(out.getvalue())",
  ].join("\n");
  return execFileSync("python3", ["-c", script], { input: JSON.stringify(members) });
}

function kinds(bytes: Buffer, path = "data.bin"): string[] {
  return scanFileContent(path, bytes, KNOWN).map((f) => `${f.source}:${f.line} ${f.kind}`);
}

describe("compressed data in a pushed file", () => {
  test("gzip: the value inside is found at its line in the unpacked text", () => {
    assert.deepEqual(kinds(gzipSync(CONFIG), "deploy.conf.gz"), [
      `deploy.conf.gz:3 ${KNOWN_KINDS.plain}, inside gzip data`,
      "deploy.conf.gz:3 GitHub token, inside gzip data",
    ]);
  });

  test("gzip of an encoded value: decoded inside too", () => {
    const text = `blob=${Buffer.from(TOKEN).toString("hex")}\n`;
    assert.deepEqual(kinds(gzipSync(text), "blob.gz"), [
      `blob.gz:1 ${KNOWN_KINDS.hex}, inside gzip data`,
    ]);
  });

  test("zip: each member is searched and named, deflated or stored", () => {
    const archive = zip([
      ["README.md", "# tools\n"],
      ["conf/deploy.conf", CONFIG],
      ["keys.txt", `\n${API_KEY}\n`, true],
    ]);
    assert.deepEqual(kinds(archive, "tools.zip"), [
      `tools.zip → conf/deploy.conf:3 ${KNOWN_KINDS.plain}, inside zip data`,
      "tools.zip → conf/deploy.conf:3 GitHub token, inside zip data",
      `tools.zip → keys.txt:2 ${KNOWN_KINDS.plain}, inside zip data`,
      "tools.zip → keys.txt:2 OpenAI API key, inside zip data",
    ]);
  });

  test("zip: a member named with the value is found and its name withheld", () => {
    const archive = zip([[`notes/${TOKEN}.txt`, "nothing here\n"]]);
    const findings = scanFileContent("notes.zip", archive, KNOWN);
    assert.ok(findings.length > 0);
    for (const finding of findings) {
      assert.equal(finding.source, "the name notes.zip → notes/[name withheld]");
    }
    assert.ok(!JSON.stringify(findings).includes(TOKEN));
  });

  test("zstd, when node:zlib has it", () => {
    assert.deepEqual(kinds(zstdCompressSync(CONFIG), "deploy.conf.zst"), [
      `deploy.conf.zst:3 ${KNOWN_KINDS.plain}, inside zstd data`,
      "deploy.conf.zst:3 GitHub token, inside zstd data",
    ]);
  });

  test("nested: a zip inside gzip", () => {
    const archive = gzipSync(zip([["deep/deploy.conf", CONFIG]]));
    assert.deepEqual(kinds(archive, "bundle.zip.gz"), [
      `bundle.zip.gz → deep/deploy.conf:3 ${KNOWN_KINDS.plain}, inside zip inside gzip data`,
      "bundle.zip.gz → deep/deploy.conf:3 GitHub token, inside zip inside gzip data",
    ]);
  });

  test("more than the member bound unpacked is a finding, not passed", () => {
    const bomb = gzipSync(Buffer.alloc(UNPACK_LIMITS.memberBytes + 1, 0x20));
    assert.ok(bomb.length < 1024 * 1024);
    assert.deepEqual(kinds(bomb, "big.gz"), [`big.gz:0 ${PROBLEM_KINDS.tooLarge} (gzip)`]);
  });

  test("the push's total bound is shared by its files", () => {
    const budget = unpackBudget();
    budget.bytesLeft = CONFIG.length - 1;
    const findings = scanFileContent("last.gz", gzipSync(CONFIG), KNOWN, budget);
    assert.deepEqual(findings, [
      { source: "last.gz", line: 0, kind: `${PROBLEM_KINDS.tooLarge} (gzip)` },
    ]);
  });

  test("gzip that does not unpack is a finding", () => {
    const truncated = gzipSync(CONFIG).subarray(0, 20);
    assert.deepEqual(kinds(truncated, "cut.gz"), [`cut.gz:0 ${PROBLEM_KINDS.broken} (gzip)`]);
  });

  test("an encrypted zip member is a finding", () => {
    const archive = zip([["secret.txt", "hidden\n"]]);
    // Set the "encrypted" flag where both headers carry it: what an encrypting zip tool writes.
    archive.writeUInt16LE(archive.readUInt16LE(6) | 1, 6);
    const central = archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    archive.writeUInt16LE(archive.readUInt16LE(central + 8) | 1, central + 8);
    assert.deepEqual(kinds(archive, "locked.zip"), [
      `locked.zip:0 ${PROBLEM_KINDS.encrypted} (zip)`,
    ]);
  });

  test("layers deeper than the bound are a finding", () => {
    let data = Buffer.from(CONFIG);
    for (let layer = 0; layer <= UNPACK_LIMITS.depth; layer++) data = gzipSync(data);
    assert.deepEqual(kinds(data, "onion.gz"), [
      `onion.gz:0 ${PROBLEM_KINDS.tooLarge} (${Array(UNPACK_LIMITS.depth + 1)
        .fill("gzip")
        .join(" inside ")})`,
    ]);
  });

  test("a plain file is searched for held values, not for token patterns", () => {
    const text = `fixture = "${"AKIA" + "Q3EGRZ7KXMPL2NWD"}"\nkey = "${API_KEY}"\n`;
    assert.deepEqual(kinds(Buffer.from(text), "fixtures.py"), [
      `fixtures.py:2 ${KNOWN_KINDS.plain}`,
    ]);
  });
});
