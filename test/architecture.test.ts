/**
 * The import directions docs/architecture.md states, read from the import graph
 * (dependency-cruiser, type-only imports included): the words at the bottom import nothing of
 * pitcrew's, the presentation only the words and the numbers, and the agent is wired in only by
 * the Run and the entry points. Each offending import is named. (No cycles is
 * scripts/check-cycles.mjs's; context/'s purity test/context/imports.test.ts's.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cruise } from "dependency-cruiser";
import type { ICruiseResult } from "dependency-cruiser";

const ROOT = join(import.meta.dirname, "..");

/** The folder of a source file: its first segment under src/ (a file at the root is its own). */
function folderOf(file: string): string {
  return file.replace(/^src\//, "").split("/")[0] ?? file;
}

/** What each folder may import of pitcrew's own (besides itself and errors.ts). */
const MAY_IMPORT: Record<string, (folder: string) => boolean> = {
  domain: () => false,
  stats: () => false,
  present: (to) => to === "domain" || to === "stats",
  report: (to) => to === "domain",
  context: (to) => to === "domain",
  sandbox: () => false,
};

/** Who may import agent/: the Run, the CLI's commands and the entry points at the root. */
const AGENT_IMPORTERS = (from: string): boolean =>
  from === "run" || from === "commands" || from.endsWith(".ts");

/** Every import between pitcrew's folders that the rules refuse, as `<file> imports <file>`. */
function refusedImports(edges: readonly [string, string][]): string[] {
  const refused: string[] = [];
  for (const [fromFile, toFile] of edges) {
    const from = folderOf(fromFile);
    const to = folderOf(toFile);
    if (from === to || to === "errors.ts") continue;
    const allowed = MAY_IMPORT[from];
    const why =
      allowed !== undefined && !allowed(to)
        ? `${from}/ may not import ${to}/`
        : to === "agent" && !AGENT_IMPORTERS(from)
          ? `only run/, commands/ and the entry points import agent/`
          : null;
    if (why) refused.push(`${fromFile} imports ${toFile} (${why})`);
  }
  return refused.sort();
}

async function sourceEdges(): Promise<[string, string][]> {
  const result = await cruise(
    ["src"],
    { baseDir: ROOT, tsPreCompilationDeps: true, doNotFollow: { path: "node_modules" } },
    undefined,
    { tsConfig: { fileName: join(ROOT, "tsconfig.json") } },
  );
  const { modules } = result.output as ICruiseResult;
  return modules.flatMap((module) =>
    module.source.startsWith("src/")
      ? module.dependencies
          .filter((dependency) => dependency.resolved.startsWith("src/"))
          .map((dependency): [string, string] => [module.source, dependency.resolved])
      : [],
  );
}

describe("the import directions of docs/architecture.md", () => {
  test("src/ keeps them: no import the rules refuse", async () => {
    const edges = await sourceEdges();
    assert.ok(edges.length > 500, `${edges.length} imports read`);
    assert.deepEqual(refusedImports(edges), []);
  });

  test("the rules name what they refuse", () => {
    assert.deepEqual(
      refusedImports([
        ["src/memory/store.ts", "src/agent/tools/edit.ts"],
        ["src/present/comment.ts", "src/github/api.ts"],
        ["src/domain/loop.ts", "src/present/lines.ts"],
        ["src/run/run.ts", "src/agent/session.ts"],
        ["src/main.ts", "src/agent/loop.ts"],
        ["src/present/flaky-report.ts", "src/stats/confidence.ts"],
        ["src/agent/loop.ts", "src/errors.ts"],
      ]),
      [
        "src/domain/loop.ts imports src/present/lines.ts (domain/ may not import present/)",
        "src/memory/store.ts imports src/agent/tools/edit.ts (only run/, commands/ and the entry points import agent/)",
        "src/present/comment.ts imports src/github/api.ts (present/ may not import github/)",
      ],
    );
  });
});
