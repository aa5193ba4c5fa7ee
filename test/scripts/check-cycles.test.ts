import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";

const ROOT = join(import.meta.dirname, "../..");
const SCRIPT = join(ROOT, "scripts/check-cycles.mjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function checkCycles(args: string[], cwd = ROOT): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** A dependency-cruiser result in miniature: each file with the files it imports. */
function graph(imports: Record<string, string[]>): unknown {
  return {
    modules: Object.entries(imports).map(([source, targets]) => ({
      source,
      dependencies: targets.map((resolved) => ({ resolved })),
    })),
  };
}

describe("scripts/check-cycles.mjs", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pitcrew-cycles-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fed = async (name: string, imports: Record<string, string[]>): Promise<Run> => {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(graph(imports)));
    return checkCycles(["--graph", file, "src"]);
  };

  test("a folder cycle and a file cycle in a fed graph are each named, with the imports behind them", async () => {
    const run = await fed("two-cycles", {
      "src/agent/loop.ts": ["src/context/manager.ts", "src/errors.ts"],
      "src/context/manager.ts": ["src/context/view.ts"],
      "src/context/view.ts": ["src/agent/messages.ts"],
      "src/agent/messages.ts": [],
      "src/github/progress.ts": ["src/github/report.ts"],
      "src/github/report.ts": ["src/github/progress.ts", "node_modules/zod/index.js"],
      "src/errors.ts": [],
    });
    assert.equal(run.code, 1);
    const lines = run.stderr.split("\n");
    assert.ok(lines.includes("folder cycle: agent → context → agent"), run.stderr);
    assert.ok(lines.includes("    src/agent/loop.ts → src/context/manager.ts"), run.stderr);
    assert.ok(lines.includes("    src/context/view.ts → src/agent/messages.ts"), run.stderr);
    assert.ok(
      lines.includes(
        "file cycle: src/github/progress.ts → src/github/report.ts → src/github/progress.ts",
      ),
      run.stderr,
    );
    assert.match(run.stderr, /1 folder cycle\(s\) and 1 file cycle\(s\) under src\//);
  });

  test("a cycle through three folders is named as one circle", async () => {
    const run = await fed("three-folders", {
      "src/github/deliver.ts": ["src/config/config.ts"],
      "src/config/repository.ts": ["src/store/notes.ts"],
      "src/store/artifact.ts": ["src/github/client.ts"],
      "src/github/client.ts": [],
      "src/config/config.ts": [],
      "src/store/notes.ts": [],
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^folder cycle: config → store → github → config$/m);
    assert.match(run.stderr, /0 file cycle\(s\)/);
  });

  test("a graph whose imports point one way passes", async () => {
    const run = await fed("one-way", {
      "src/github/report.ts": ["src/domain/loop.ts", "src/github/progress-state.ts"],
      "src/github/progress.ts": ["src/github/report.ts", "src/github/progress-state.ts"],
      "src/github/progress-state.ts": ["src/domain/loop.ts"],
      "src/domain/loop.ts": [],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no folder or file cycle under src\/ \(5 imports between files\)/);
  });

  test("cruising real files: a type-only import closes a folder cycle, and is named", async () => {
    const tree = join(dir, "tree");
    const files: Record<string, string> = {
      "src/loop/run.ts":
        'import type { Words } from "../words/words.ts";\nexport const run = (w: Words) => w;\n',
      "src/words/words.ts":
        'import type { Step } from "../loop/step.ts";\nexport interface Words { step: Step }\n',
      "src/loop/step.ts": "export type Step = string;\n",
    };
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(tree, name)), { recursive: true });
      await writeFile(join(tree, name), text);
    }
    const circular = await checkCycles(["src"], tree);
    assert.equal(circular.code, 1, circular.stdout);
    assert.match(circular.stderr, /^folder cycle: loop → words → loop$/m);
    assert.match(circular.stderr, /^ {4}src\/words\/words\.ts → src\/loop\/step\.ts$/m);

    await writeFile(join(tree, "src/words/words.ts"), "export interface Words { step: string }\n");
    const oneWay = await checkCycles(["src"], tree);
    assert.equal(oneWay.code, 0, oneWay.stderr);
  });

  test("pitcrew's own src/ has no folder cycle and no file cycle", async () => {
    const run = await checkCycles([]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no folder or file cycle under src\//);
  });
});
