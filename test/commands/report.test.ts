/**
 * `pitcrew report`: one HTML page from each kind of source — a transcript, a notes folder, a
 * downloaded notes artifact zip, the local notes of a thread — written where `--out` says; a
 * source that is none of them, or a zip outside the unpacking bounds, exits 1 with the reason;
 * usage errors exit 2.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { reportCommand } from "../../src/commands/report.ts";
import { zipFiles } from "../support/artifact-service.ts";

let root: string;
const TRANSCRIPT = [
  { type: "message", run: 1, message: { role: "system", content: "You are pitcrew." } },
  { type: "message", run: 1, message: { role: "user", content: "Fix the <b>sum</b> test" } },
  {
    type: "usage",
    run: 1,
    turn: 1,
    usage: { promptTokens: 900, cachedTokens: 0, completionTokens: 20, reasoningTokens: 0 },
    cost: 0.001,
  },
  {
    type: "message",
    run: 1,
    message: { role: "assistant", content: "Done: sum adds.", toolCalls: [] },
  },
]
  .map((entry) => JSON.stringify(entry))
  .join("\n");

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await reportCommand(args, {
    out: { write: (text: string) => ((out += text), true) },
    err: { write: (text: string) => ((err += text), true) },
  });
  return { code, out, err };
}

before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-report-cli-")));
});

after(() => rmSync(root, { recursive: true, force: true }));

function page(path: string): string {
  const html = readFileSync(path, "utf8");
  assert.match(html, /^<!doctype html>/i);
  assert.match(html, /Done: sum adds\./);
  assert.doesNotMatch(html, /<b>sum<\/b>/, "the data is escaped");
  return html;
}

describe("pitcrew report", () => {
  test("from a transcript, a notes folder and a notes artifact zip", async () => {
    writeFileSync(join(root, "transcript.jsonl"), `${TRANSCRIPT}\n`);
    const one = await run("--out", join(root, "a.html"), join(root, "transcript.jsonl"));
    assert.equal(one.code, 0, one.err);
    assert.equal(one.out, `${join(root, "a.html")}\n`);
    page(join(root, "a.html"));

    const folder = join(root, "notes");
    mkdirSync(folder);
    writeFileSync(join(folder, "transcript.jsonl"), `${TRANSCRIPT}\n`);
    writeFileSync(join(folder, "note.md"), "## Goal\nfix the sum\n");
    assert.equal((await run("--out", join(root, "b.html"), folder)).code, 0);
    page(join(root, "b.html"));

    const zip = join(root, "pitcrew-notes-issue-1.zip");
    writeFileSync(
      zip,
      zipFiles({ "transcript.jsonl": `${TRANSCRIPT}\n`, "note.md": "note" }, true),
    );
    assert.equal((await run("--out", join(root, "c.html"), zip)).code, 0);
    page(join(root, "c.html"));
  });

  test("a zip without a transcript, and a missing thread, exit 1 with the reason", async () => {
    const zip = join(root, "other.zip");
    writeFileSync(zip, zipFiles({ "readme.txt": "not notes" }));
    const empty = await run("--out", join(root, "d.html"), zip);
    assert.equal(empty.code, 1);
    assert.match(empty.err, /holds no transcript\.jsonl/);
    const repo = join(root, "repo");
    mkdirSync(repo);
    const missing = await run("--thread", "issue-9", "--repo", repo, "--out", join(root, "e.html"));
    assert.equal(missing.code, 1, missing.out);
  });

  test("usage errors exit 2", async () => {
    for (const args of [[], ["a", "b"], ["--thread", "x", "file"], [join(root, "nope.jsonl")]]) {
      const { code, err } = await run(...args);
      assert.equal(code, 2, args.join(" "));
      assert.match(err, /usage: pitcrew report/);
    }
    assert.match((await run("--help")).out, /^usage: pitcrew report/);
  });
});
