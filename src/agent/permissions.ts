/**
 * The permission rules in front of the sandbox: every bash command the model asks for is parsed
 * with a real shell parser and refused, with a sentence the model can act on, when it would use
 * privileges (`sudo`), change files outside the workspace, do the harness's git work (`git
 * commit`, `git push`, `git reset --hard`), name a path in the memory or skills namespace
 * (`/memory/…`, `/skills/…`: the read, write and edit tools' alone, absent from the sandbox) or
 * run something the repository's config denies. Nested commands are checked too: `$(…)`,
 * backticks, `<(…)`, pipelines, lists, subshells, function bodies, `bash -c '…'`, `eval`, and
 * wrappers such as `env`, `timeout`, `xargs` and `find -exec`.
 *
 * This is a lock, not the wall. The sandbox is what stops a command; these rules only catch the
 * worst early and say why, so the loop goes on. Where a word holds an expansion (`$X`, `$(…)`)
 * its value is unknown here: a target path that is not literal is allowed unless its literal
 * start already points outside the workspace (`/etc/$X`, `~/$X`, `$HOME/…`). A command name that
 * is not literal, a shell reading a pipe (`… | sh`), `source <(…)` and the like are left to the
 * sandbox when the repository denies nothing; with deny rules they are refused, since they could
 * run a denied command (permissions/deny.ts says how rules match). A script file (`bash x.sh`)
 * is not read either way. Input the parser cannot read is refused, never allowed.
 *
 * This file builds the checker and turns a refusal into a verdict. The rules are in permissions/
 * (commands.ts layer by layer, wrappers.ts, strings.ts, deny.ts, git.ts, files.ts, paths.ts,
 * namespaces.ts, and the sentences in reasons.ts); what bash's syntax means is in shell/
 * (parse.ts, walk.ts, words.ts, options.ts).
 *
 * The parser: tree-sitter-bash through web-tree-sitter, chosen over mvdan-sh by
 * bench/permissions-parse.ts (`npm run bench -- permissions-parse`). Two runs on the 2-core dev
 * box (node 24, 226 agent commands, each parser bundled the way scripts/build.mjs bundles):
 *
 *                                       tree-sitter-bash            mvdan-sh (GopherJS)
 *   JS in each bundle                   75 KiB                      1272 KiB
 *   wasm beside the bundles             1532 KiB (two files, once)  none
 *   dist/ growth (index.js + cli.js)    1682 KiB                    2543 KiB
 *   node_modules                        24 MiB (C sources, native   1.5 MiB
 *                                       prebuilds; only the wasm
 *                                       is used)
 *   cold init (import + ready)          60–67 ms                    159–188 ms
 *   parse, median µs/command            8–11                        30–37
 *   parse + walk every node, median µs  10–14                       192–216
 *   hard constructs (heredoc, arithmetic, case, functions, process substitution…): both 18/18
 *   broken inputs reported              14/17                       17/17
 *
 * tree-sitter is 3× faster to parse, 15× faster to walk and smaller in dist/; mvdan-sh's npm
 * build is deprecated upstream (its code was deleted in mvdan/sh#1145) and stuck on an old Go.
 * tree-sitter recovers from errors instead of failing, so a tree with any ERROR or MISSING node is
 * refused; the three broken inputs it accepts are stray keywords (`fi`, `done`, `;;`), which bash
 * rejects before running anything. The whole check (parse, copy, rules) takes about 16 µs.
 */
import { homedir } from "node:os";
import { posix } from "node:path";
import { checkScript } from "./permissions/commands.ts";
import type { Rules } from "./permissions/commands.ts";
import { Refusal } from "./permissions/reasons.ts";
import { loadShellParser } from "./shell/parse.ts";
import type { ShellParser } from "./shell/parse.ts";
import type { CommandGate } from "./tools/tool.ts";

export interface PermissionOptions {
  /** The workspace's real path: the only place files may be changed (besides /tmp). */
  workspace: string;
  /** Commands the repository's config denies, as words, e.g. `npm publish` or `curl`. */
  deny?: readonly string[];
  /** `$HOME` as commands see it, for `~` and `$HOME`; this process's home by default. */
  home?: string;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string };

/** Loads the shell parser (once per process) and returns the checker. */
export async function createPermissionChecker(options: PermissionOptions): Promise<CommandGate> {
  return permissionChecker(await loadShellParser(), options);
}

/** The checker over an already loaded parser. */
export function permissionChecker(parser: ShellParser, options: PermissionOptions): CommandGate {
  const deny = (options.deny ?? [])
    .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
  const rules: Rules = {
    parser,
    workspace: posix.resolve(options.workspace),
    home: posix.resolve(options.home ?? homedir()),
    deny,
    strict: deny.length > 0,
  };
  return {
    check(command: string): Verdict {
      try {
        checkScript(rules, command, { cwd: rules.workspace, depth: 0 }, null);
        return { allowed: true };
      } catch (error) {
        if (error instanceof Refusal) return { allowed: false, reason: error.message };
        // A pathological input (nesting deep enough to overflow the stack) or a bug: fail closed.
        if (error instanceof RangeError) {
          return { allowed: false, reason: "this command nests too deeply to check; simplify it." };
        }
        const message = error instanceof Error ? error.message : String(error);
        return {
          allowed: false,
          reason: `could not check this command (${message}); simplify it.`,
        };
      }
    },
  };
}
