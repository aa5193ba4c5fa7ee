/**
 * A small project with one bug and a test that shows it, committed in a fresh git repository:
 * the fixture the agent-loop and `pitcrew run` tests fix through a scripted model.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BUGGY_LINE = "  return a - b;";
export const FIXED_LINE = "  return a + b;";

export interface FixtureRepo {
  /** Parent folder holding `repo/` and an empty `home/`. */
  root: string;
  repo: string;
  home: string;
}

export function fixtureGit(repo: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.com", ...args],
    {
      cwd: repo,
      encoding: "utf8",
    },
  ).trim();
}

export function createFixtureRepo(name: string): FixtureRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `pitcrew-${name}-`)));
  const repo = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(repo);
  mkdirSync(home);
  writeFileSync(join(repo, "calc.js"), `export function add(a, b) {\n${BUGGY_LINE}\n}\n`);
  writeFileSync(
    join(repo, "calc.test.js"),
    [
      'import assert from "node:assert/strict";',
      'import { add } from "./calc.js";',
      "assert.equal(add(2, 3), 5);",
      'console.log("calc: all tests pass");',
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(repo, "package.json"),
    '{ "type": "module", "scripts": { "test": "node calc.test.js" } }\n',
  );
  fixtureGit(repo, "init", "-q", "-b", "main");
  fixtureGit(repo, "add", ".");
  fixtureGit(repo, "commit", "-q", "-m", "calc with a bug");
  return { root, repo, home };
}
