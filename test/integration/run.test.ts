/**
 * `pitcrew run` as a person runs it: the CLI as a real process against a fixture checkout and the
 * scripted model server. The agent fixes the bug in a separate worktree; the result is a commit on
 * a new branch, and the person's checkout — its branch and uncommitted work — is untouched.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import { needsBwrap } from "../support/bwrap.ts";
import { builtCli } from "../support/built.ts";
import { BUGGY_LINE, FIXED_LINE, createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import type { FixtureRepo } from "../support/fixture-repo.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";
import type { ModelServer, Script } from "../support/model-server.ts";

/** The CLI as it ships: the bundle, built for this test process. */
const CLI = await builtCli();
const run = promisify(execFile);

const fixtures: FixtureRepo[] = [];
const servers: ModelServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  for (const fixture of fixtures) rmSync(fixture.root, { recursive: true, force: true });
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  fixture: FixtureRepo;
  server: ModelServer;
}

async function pitcrewRun(
  script: Script,
  extra: string[] = [],
  env: Record<string, string> = {},
  prepare: (fixture: FixtureRepo) => void = () => undefined,
): Promise<Ran> {
  const fixture = createFixtureRepo("run");
  fixtures.push(fixture);
  prepare(fixture);
  const server = await startModelServer(script, { apiKey: "sk-test-key" });
  servers.push(server);
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        CLI,
        "run",
        "--repo",
        fixture.repo,
        "--base-url",
        server.url,
        "--max-turns",
        "8",
        ...extra,
        "make the calc test pass",
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: fixture.home,
          OPENAI_API_KEY: "sk-test-key",
          CI: "",
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr, fixture, server };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, fixture, server };
  }
}

/** `pitcrew run --continue [instruction]` on a checkout an earlier test run used. */
async function pitcrewContinue(
  fixture: FixtureRepo,
  script: Script,
  instruction: string[] = [],
): Promise<Omit<Ran, "fixture">> {
  const server = await startModelServer(script, { apiKey: "sk-test-key" });
  servers.push(server);
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, "run", "--repo", fixture.repo, "--base-url", server.url, "--continue", ...instruction],
      {
        env: { PATH: process.env.PATH, HOME: fixture.home, OPENAI_API_KEY: "sk-test-key", CI: "" },
      },
    );
    return { code: 0, stdout, stderr, server };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, server };
  }
}

const args = (value: unknown): string => JSON.stringify(value);
const FIX: Script = [
  callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
  callTools([
    {
      name: "edit",
      arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
    },
  ]),
  callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
  say(
    "Fix add(): it subtracted instead of adding\n\nadd() subtracted instead of adding. Fixed calc.js; npm test passes.",
  ),
];

describe("pitcrew run", needsBwrap(), () => {
  test("fixes the bug on a new branch with a commit, leaving the checkout untouched", async () => {
    const { code, stdout, stderr, fixture: used } = await pitcrewRun(FIX);
    assert.equal(code, 0, stderr);
    const branch = /branch: (pitcrew\/run-[\w-]+)/.exec(stdout)?.[1];
    assert.ok(branch, stdout);
    assert.match(stdout, /add\(\) subtracted instead of adding/);
    assert.match(stdout, /calc\.js \| 2 \+-/);
    assert.match(
      stdout,
      /turns: 4 · tokens: [\d,]+ \(prompt [\d,]+, \d+% cached; completion [\d,]+\) · cost: \$\d+\.\d{4}/,
    );
    // One line per tool call: the turn of 8, the time so far, what it came to.
    const lines = stderr.split("\n").filter((line) => line.startsWith("["));
    assert.equal(lines.length, 3, stderr);
    assert.match(
      lines[0] ?? "",
      /^\[1\/8 \d+:\d\d\] bash: npm test --silent → exit 1 \(\d+\.\d s\) · AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal: -1 !== 5$/,
    );
    assert.match(lines[1] ?? "", /^\[2\/8 \d+:\d\d\] edit: calc\.js → edited \(\d+\.\d s\)$/);
    assert.match(
      lines[2] ?? "",
      /^\[3\/8 \d+:\d\d\] bash: npm test --silent → exit 0 \(\d+\.\d s\) · calc: all tests pass$/,
    );
    assert.ok(!stderr.includes("\x1b["), "not a terminal: plain lines, no status line");

    // The commit is on the branch; the checkout stays on main with its buggy file.
    assert.match(fixtureGit(used.repo, "show", `${branch}:calc.js`), /return a \+ b;/);
    assert.equal(fixtureGit(used.repo, "rev-parse", "--abbrev-ref", "HEAD"), "main");
    assert.match(readFileSync(join(used.repo, "calc.js"), "utf8"), /return a - b;/);
    assert.equal(
      fixtureGit(used.repo, "worktree", "list").split("\n").length,
      1,
      "the worktree is gone",
    );
    // The subject is what the agent says it changed; the task is said below its answer.
    assert.equal(
      fixtureGit(used.repo, "log", "--format=%s", "-1", branch),
      "Fix add(): it subtracted instead of adding",
    );
    assert.match(
      fixtureGit(used.repo, "log", "--format=%b", "-1", branch),
      /Fixed calc\.js; npm test passes\.\n\nTask: make the calc test pass/,
    );
  });

  test("uncommitted work in the person's checkout survives the run", async () => {
    const fixture = createFixtureRepo("run-keep");
    fixtures.push(fixture);
    writeFileSync(join(fixture.repo, "notes.txt"), "mine, not committed\n");
    writeFileSync(join(fixture.repo, "calc.js"), "// my own edit in progress\n");
    const server = await startModelServer(FIX);
    servers.push(server);
    const result = await run(
      process.execPath,
      [CLI, "run", "--repo", fixture.repo, "--base-url", server.url, "make the calc test pass"],
      { env: { PATH: process.env.PATH, HOME: fixture.home, OPENAI_API_KEY: "sk-x" } },
    );
    assert.match(result.stdout, /branch: pitcrew\/run-/);
    assert.equal(readFileSync(join(fixture.repo, "notes.txt"), "utf8"), "mine, not committed\n");
    assert.equal(
      readFileSync(join(fixture.repo, "calc.js"), "utf8"),
      "// my own edit in progress\n",
    );
  });

  test("without a key: a clear error saying how to set one, exit 2, nothing created", async () => {
    const fixture = createFixtureRepo("run-nokey");
    fixtures.push(fixture);
    const failed = await run(process.execPath, [CLI, "run", "--repo", fixture.repo, "do it"], {
      env: { PATH: process.env.PATH, HOME: fixture.home },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.ok("code" in failed && failed.code === 2);
    assert.match(failed.stderr, /No API key: set OPENAI_API_KEY/);
    assert.equal(fixtureGit(fixture.repo, "branch", "--list", "pitcrew/*"), "");
  });

  test("stopped by the turn limit: the work so far is committed, exit 3", async () => {
    const { code, stdout, fixture } = await pitcrewRun(FIX, ["--max-turns", "2"]);
    assert.equal(code, 3);
    assert.match(stdout, /stopped: the turn limit was reached/);
    const branch = /branch: (pitcrew\/run-[\w-]+)/.exec(stdout)?.[1] ?? "";
    assert.match(fixtureGit(fixture.repo, "show", `${branch}:calc.js`), /return a \+ b;/);
  });

  test("nothing changed: said plainly, no branch kept", async () => {
    const { code, stdout, fixture } = await pitcrewRun([
      say("The code is already correct; nothing to do."),
    ]);
    assert.equal(code, 0);
    assert.match(stdout, /No changes: the agent left the repository as it was/);
    assert.equal(fixtureGit(fixture.repo, "branch", "--list", "pitcrew/*"), "");
  });

  test("a model error: its named sentence, exit 1", async () => {
    const tooLong = { kind: "context-too-long", shape: "openai" } as const;
    const { code, stdout } = await pitcrewRun([tooLong, say("## Goal\nnote"), tooLong, tooLong]);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /model-context-too-long: This conversation is too long for the model to read at once/,
    );
  });

  test("not a git repository: a named usage error, exit 2", async () => {
    const fixture = createFixtureRepo("run-nogit");
    fixtures.push(fixture);
    rmSync(join(fixture.repo, ".git"), { recursive: true });
    const failed = await run(process.execPath, [CLI, "run", "--repo", fixture.repo, "do it"], {
      env: { PATH: process.env.PATH, HOME: fixture.home, OPENAI_API_KEY: "sk-x" },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.ok("code" in failed && failed.code === 2);
    assert.match(failed.stderr, /not inside a git repository/);
    assert.ok(!existsSync(join(fixture.repo, ".git")));
  });

  test("the repository's config (from the base commit) denies commands and adds instructions", async () => {
    const { code, stderr, server } = await pitcrewRun(
      [
        callTools([{ name: "bash", arguments: args({ command: "npm test" }) }]),
        callTools([{ name: "read", arguments: args({ path: "calc.test.js" }) }]),
        say("could not run the tests"),
      ],
      [],
      {},
      (fixture) => {
        mkdirSync(join(fixture.repo, ".github"));
        writeFileSync(
          join(fixture.repo, ".github", "pitcrew.yml"),
          "instructions: Prefer small diffs.\npermissions:\n  deny: [npm test]\n",
        );
        fixtureGit(fixture.repo, "add", ".");
        fixtureGit(fixture.repo, "commit", "-q", "-m", "config");
      },
    );
    assert.equal(code, 0, stderr);
    const task = String(server.requests[0]?.body.messages[1]?.content);
    assert.match(task, /Prefer small diffs\./);
    const tool = server.requests[1]?.body.messages.find((message) => message.role === "tool");
    assert.match(String(tool?.content), /npm test.*(refused|denied)/i);
  });

  test("a malformed config stops the run before anything happens: key and line named, exit 1", async () => {
    const { code, stderr, server, fixture } = await pitcrewRun(
      [say("never asked")],
      [],
      {},
      (fixture) => {
        mkdirSync(join(fixture.repo, ".github"));
        writeFileSync(join(fixture.repo, ".github", "pitcrew.yml"), "permissions:\n  deny: curl\n");
        fixtureGit(fixture.repo, "add", ".");
        fixtureGit(fixture.repo, "commit", "-q", "-m", "bad config");
      },
    );
    assert.equal(code, 1);
    assert.equal(
      stderr,
      "pitcrew run: config-invalid: .github/pitcrew.yml line 2: permissions.deny: Invalid input: expected array, received string. Fix or remove it.\n",
      "the error alone: no worktree or branch was announced before it",
    );
    assert.equal(server.requests.length, 0);
    assert.equal(fixtureGit(fixture.repo, "branch", "--list", "pitcrew/*"), "");
    assert.equal(fixtureGit(fixture.repo, "worktree", "list").split("\n").length, 1);
  });

  test("--continue after the turn limit: the same branch, finished, cumulative totals", async () => {
    const first = await pitcrewRun(FIX, ["--max-turns", "2"]);
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stdout, /pitcrew run --continue/);
    const branch = /branch: (pitcrew\/run-[\w-]+)/.exec(first.stdout)?.[1] ?? "";
    assert.ok(branch, first.stdout);

    const next = await pitcrewContinue(first.fixture, FIX.slice(2), ["run the tests once more"]);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /add\(\) subtracted instead of adding/);
    assert.match(next.stdout, new RegExp(`branch: ${branch} \\(no new changes in this run\\)`));
    assert.match(next.stdout, /^turns: 2 · /m);
    assert.match(
      next.stdout,
      /all 2 runs on this branch: turns: 4 · tokens: [\d,]+ \(prompt [\d,]+, \d+% cached; completion [\d,]+\) · cost: \$\d+\.\d{4}/,
    );

    // The agent was told where the first run left off, the task and the new instruction.
    const told = String(next.server.requests[0]?.body.messages[1]?.content);
    assert.match(told, /no handoff note/);
    assert.match(told, /The previous run stopped: the turn limit was reached\./);
    assert.match(
      told,
      /The task, as first given:\n\nYour task, from the person running pitcrew:\n\nmake the calc test pass/,
    );
    assert.match(told, /run the tests once more/);

    // One branch, its fix still there, no worktree left; the notes count both runs.
    const { repo } = first.fixture;
    assert.equal(
      fixtureGit(repo, "branch", "--list", "pitcrew/*")
        .trim()
        .replace(/^[*+ ]+/, ""),
      branch,
    );
    assert.match(fixtureGit(repo, "show", `${branch}:calc.js`), /return a \+ b;/);
    assert.equal(fixtureGit(repo, "worktree", "list").split("\n").length, 1);
    const state = JSON.parse(
      readFileSync(
        join(repo, ".git", "pitcrew", "notes", "pitcrew-notes-cli", "state.json"),
        "utf8",
      ),
    ) as { attempts: number; branch: string; stopReason: string; cumulative: { turns: number } };
    assert.equal(state.attempts, 2);
    assert.equal(state.branch, branch);
    assert.equal(state.stopReason, "done");
    assert.equal(state.cumulative.turns, 4);
  });

  test("--continue whose run changes more: committed on the same branch", async () => {
    const first = await pitcrewRun(FIX, ["--max-turns", "1"]);
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stdout, /No changes/);
    const next = await pitcrewContinue(first.fixture, FIX.slice(1));
    assert.equal(next.code, 0, next.stderr);
    const branch = /branch: (pitcrew\/run-[\w-]+) \(commit/.exec(next.stdout)?.[1] ?? "";
    assert.ok(branch, next.stdout);
    assert.match(fixtureGit(first.fixture.repo, "show", `${branch}:calc.js`), /return a \+ b;/);
    assert.equal(
      fixtureGit(first.fixture.repo, "log", "--format=%B", "-1", branch).trim(),
      "Fix add(): it subtracted instead of adding\n\nadd() subtracted instead of adding. Fixed calc.js; npm test passes.\n\nContinued with pitcrew run --continue.",
    );
    assert.match(next.stdout, /all 2 runs on this branch: turns: 4 /);
  });

  test("--continue with nothing saved: says there is nothing to continue and how to start", async () => {
    const fixture = createFixtureRepo("run-nothing");
    fixtures.push(fixture);
    const { code, stderr, server } = await pitcrewContinue(fixture, [say("never asked")]);
    assert.equal(code, 2);
    assert.match(stderr, /run-nothing-to-continue: Nothing to continue: no notes saved/);
    assert.match(stderr, /Start a run first, for example: pitcrew run --repo \. "/);
    assert.equal(server.requests.length, 0);
    assert.equal(fixtureGit(fixture.repo, "branch", "--list", "pitcrew/*"), "");
  });

  test("a compaction's note is saved at once and handed to --continue", async () => {
    const tooLong = { kind: "context-too-long", shape: "openai" } as const;
    const first = await pitcrewRun([
      tooLong,
      say("## Goal\nMake calc add."),
      say("Looked around."),
    ]);
    assert.equal(first.code, 0, first.stderr);
    const notes = join(first.fixture.repo, ".git", "pitcrew", "notes", "pitcrew-notes-cli");
    assert.equal(readFileSync(join(notes, "note.md"), "utf8"), "## Goal\nMake calc add.");
    const next = await pitcrewContinue(first.fixture, [say("Nothing left to do.")]);
    assert.equal(next.code, 0, next.stderr);
    const told = String(next.server.requests[0]?.body.messages[1]?.content);
    assert.match(told, /Handoff note from the previous run[^\n]*:\n\n## Goal\nMake calc add\./);
    assert.match(told, /The previous run finished\.\n\nIts last words:\n\nLooked around\./);
    assert.match(told, /Carry on with the task/);
  });
});
