/**
 * `context/` is pure functions and data: nothing it imports, directly or through another module,
 * does I/O. Read from the import graph (dependency-cruiser, type-only imports included: a type
 * from sandbox/ is already a tie to it). A module reachable from src/context may import only
 * context/, domain/ and errors.ts, the pure packages named here, and Node built-ins that touch no
 * file, process, socket or host. Each offending import is named with the module that makes it.
 */
import assert from "node:assert/strict";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cruise } from "dependency-cruiser";
import type { ICruiseResult } from "dependency-cruiser";

const ROOT = join(import.meta.dirname, "../..");

/** Local code a pure module may reach: the context layer itself and the words at the bottom. */
const PURE_LOCAL = [/^src\/context\//, /^src\/domain\//, /^src\/errors\.ts$/];
/** Packages without I/O: the o200k tokenizer is a table in memory. */
const PURE_PACKAGES = new Set(["gpt-tokenizer"]);
/** Built-ins that reach files, processes, sockets or the host. */
const IO_BUILTINS = new Set([
  "fs",
  "fs/promises",
  "child_process",
  "net",
  "tls",
  "http",
  "https",
  "http2",
  "dgram",
  "dns",
  "dns/promises",
  "worker_threads",
  "cluster",
  "readline",
  "readline/promises",
  "repl",
  "inspector",
  "os",
  "process",
  "module",
  "v8",
  "vm",
]);

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** Why `specifier` (as `resolved`) is not allowed in a pure module, or null when it is. */
function offence(specifier: string, resolved: string, core: boolean): string | null {
  const builtin = specifier.replace(/^node:/, "");
  if (core || builtinModules.includes(builtin)) {
    return IO_BUILTINS.has(builtin) ? "a Node built-in that does I/O" : null;
  }
  if (specifier.startsWith(".")) {
    return PURE_LOCAL.some((pattern) => pattern.test(resolved))
      ? null
      : "pitcrew code outside context/, domain/ and errors.ts";
  }
  return PURE_PACKAGES.has(packageName(specifier)) ? null : "a package not known to be pure";
}

/** Every offending import reachable from `entries`: `<module> imports <specifier> (<why>)`. */
async function offendingImports(...entries: string[]): Promise<string[]> {
  const result = await cruise(
    entries,
    { baseDir: ROOT, tsPreCompilationDeps: true, doNotFollow: { path: "node_modules" } },
    undefined,
    { tsConfig: { fileName: join(ROOT, "tsconfig.json") } },
  );
  const { modules } = result.output as ICruiseResult;
  const found: string[] = [];
  for (const module of modules) {
    if (module.coreModule || /node_modules/.test(module.source)) continue;
    for (const dependency of module.dependencies) {
      const why = offence(dependency.module, dependency.resolved, dependency.coreModule);
      // dependency-cruiser drops the `node:` of a built-in's name; it is put back to read as written.
      const name = dependency.coreModule
        ? `node:${dependency.module.replace(/^node:/, "")}`
        : dependency.module;
      if (why) found.push(`${module.source} imports ${name} (${why})`);
    }
  }
  return found.sort();
}

describe("context/ does no I/O", () => {
  test("nothing reachable from src/context imports a module that does I/O", async () => {
    assert.deepEqual(await offendingImports("src/context"), []);
  });

  test("the check names what it refuses: a file read, a process, the sandbox", async () => {
    // The replay command reads files and the reminder's facts come from git in the sandbox:
    // both are outside context/ for that reason.
    const command = await offendingImports("src/commands/context.ts");
    assert.ok(
      command.includes(
        "src/commands/context.ts imports node:fs/promises (a Node built-in that does I/O)",
      ),
      command.join("\n"),
    );
    const facts = await offendingImports("src/agent/workspace-facts.ts");
    assert.ok(
      facts.includes(
        "src/agent/workspace-facts.ts imports ../sandbox/sandbox.ts (pitcrew code outside context/, domain/ and errors.ts)",
      ),
      facts.join("\n"),
    );
    assert.ok(
      facts.some((line) =>
        /imports node:child_process \(a Node built-in that does I\/O\)/.test(line),
      ),
      facts.join("\n"),
    );
  });
});
