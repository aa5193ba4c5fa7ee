/**
 * What a person sees from `pitcrew run`, told truthfully: its help and argument errors (pitcrew's
 * sentence and the usage line, exit 2, never Node's text), a refused key and a server that never
 * answers in the CLI's terms (turns: 0, no --continue), a run whose every tool call failed (exit
 * 1, whatever the model said), uncommitted work left out or included without touching the
 * checkout, `--json` events a script parses, and a terminal's live status line. The CLI runs as a
 * real process against a fixture checkout, real git, real bwrap and the scripted model server.
 */
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from "node:fs";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { builtCli } from "../support/built.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";
import type { FixtureRepo } from "../support/fixture-repo.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";
import type { ModelServer, Script } from "../support/model-server.ts";

/** The CLI as it ships: the bundle, built for this test process. */
const CLI = await builtCli();
const KEY = "sk-test-key";

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
}

/** `node dist/cli.js <args>` (the bundle) with a clean environment (plus `env`), never throwing. */
function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, CI: "", ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function fixture(name: string): FixtureRepo {
  const made = createFixtureRepo(name);
  fixtures.push(made);
  return made;
}

async function server(script: Script, apiKey = KEY): Promise<ModelServer> {
  const started = await startModelServer(script, { apiKey });
  servers.push(started);
  return started;
}

/** `pitcrew run` on `repo` against `url`, the task last. */
function pitcrewRun(
  repo: FixtureRepo,
  url: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<Ran> {
  return cli(
    ["run", "--repo", repo.repo, "--base-url", url, "--max-turns", "8", ...extra, "fix calc"],
    { HOME: repo.home, OPENAI_API_KEY: KEY, ...env },
  );
}

const args = (value: unknown): string => JSON.stringify(value);
const bash = (command: string) => ({ name: "bash", arguments: args({ command }) });
const NODE_TEXT =
  /ambiguous|Unknown option|argument missing|ERR_PARSE_ARGS|does not take an argument/;
const USAGE_LINE = /\nusage: pitcrew run \[--repo DIR\][^\n]*\n {7}pitcrew run --continue/;

describe("pitcrew run --help and argument errors", () => {
  test("--help prints run's usage and options on stdout, exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = await cli(["run", flag]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^usage: pitcrew run \[--repo DIR\]/);
      assert.match(stdout, /--include-uncommitted {2}start from your uncommitted changes too/);
      assert.match(stdout, /--json {17}one JSON event per line on stdout/);
      assert.match(stdout, /Exit status: 0 finished, 1 failed, 2 bad usage/);
    }
  });

  test("every mistake: pitcrew's sentence, then the usage line, exit 2, no Node text", async () => {
    const home = fixture("run-args");
    const file = join(home.repo, "calc.js");
    const cases: [string[], RegExp][] = [
      [
        ["--max-turns", "-1", "x"],
        /cli-bad-option: --max-turns takes a whole number of turns above 0, not '-1'\./,
      ],
      [
        ["--max-turns", "many", "x"],
        /--max-turns takes a whole number of turns above 0, not 'many'\./,
      ],
      [["--max-turns=2.5", "x"], /--max-turns takes a whole number of turns above 0, not '2\.5'\./],
      [
        ["--context-window", "0", "x"],
        /--context-window takes a whole number of tokens above 0, not '0'\./,
      ],
      [
        ["--bogus", "x"],
        /cli-bad-option: There is no option --bogus\. To pass text that starts with a dash, put it after --\./,
      ],
      [["--max-turn", "3", "x"], /There is no option --max-turn; did you mean --max-turns\?/],
      [["x", "--model"], /cli-bad-option: --model needs a value, for example --model gpt-4\.1\./],
      [["--repo", "--model", "m", "x"], /--repo needs a value, for example --repo \./],
      [["--json=yes", "x"], /--json takes no value; write --json on its own\./],
      [
        ["--sandbox", "docker", "x"],
        /--sandbox must be one of auto, bwrap, seatbelt, none, not 'docker'\./,
      ],
      [[], /cli-no-task: Say what to do, for example: pitcrew run --repo \. "/],
      [
        ["--continue", "--include-uncommitted"],
        /--include-uncommitted starts a new run from your uncommitted changes; --continue goes on/,
      ],
      [
        ["--repo", join(home.root, "nowhere"), "x"],
        /run-no-such-folder: --repo \S+\/nowhere does not exist; pass the folder of a git checkout\./,
      ],
      [["--repo", file, "x"], /run-not-a-folder: --repo \S+\/calc\.js is a file, not a folder/],
    ];
    for (const [given, sentence] of cases) {
      const { code, stdout, stderr } = await cli(["run", ...given], {
        HOME: home.home,
        OPENAI_API_KEY: KEY,
      });
      const what = `pitcrew run ${given.join(" ")}`;
      assert.equal(code, 2, `${what}: ${stderr}`);
      assert.match(stderr, /^pitcrew run: /, what);
      assert.match(stderr, sentence, what);
      assert.match(stderr, USAGE_LINE, what);
      assert.doesNotMatch(stderr, NODE_TEXT, what);
      assert.equal(stdout, "", what);
    }
    assert.equal(fixtureGit(home.repo, "branch", "--list", "pitcrew/*"), "", "nothing was made");
  });

  test("a folder that is not a repository says so, not 'does not exist': a usage error, exit 2", async () => {
    const home = fixture("run-args-nogit");
    rmSync(join(home.repo, ".git"), { recursive: true });
    const { code, stderr } = await cli(["run", "--repo", home.repo, "x"], {
      HOME: home.home,
      OPENAI_API_KEY: KEY,
    });
    assert.equal(code, 2);
    assert.match(stderr, /run-not-a-repository: \S+ is not inside a git repository/);
    assert.match(stderr, USAGE_LINE);
    assert.doesNotMatch(stderr, /does not exist/);
  });

  test("what was typed is checked before what the environment lacks: a missing folder first, then the key", async () => {
    const home = fixture("run-args-order");
    const missing = join(home.root, "no-such-folder");
    const first = await cli(["run", "--repo", missing, "x"], { HOME: home.home });
    assert.equal(first.code, 2);
    assert.match(first.stderr, /run-no-such-folder: --repo \S+ does not exist/);
    assert.doesNotMatch(first.stderr, /API key/);
    const second = await cli(["run", "--repo", home.repo, "x"], { HOME: home.home });
    assert.equal(second.code, 2);
    assert.match(second.stderr, /cli-no-api-key: No API key: set OPENAI_API_KEY/);
  });

  test("pitcrew context replay: the same sentences and the usage line, exit 2", async () => {
    const cases: [string[], RegExp][] = [
      [["--window", "-5", "f.json"], /--window takes a whole number of tokens above 0, not '-5'\./],
      [["--window"], /--window needs a value, for example --window 128000\./],
      [["--json=3", "f.json"], /--json takes no value/],
      [["--nope", "f.json"], /There is no option --nope\./],
      [["--polcy", "naive", "f.json"], /did you mean --policy\?/],
    ];
    for (const [given, sentence] of cases) {
      const { code, stderr } = await cli(["context", "replay", ...given]);
      const what = `pitcrew context replay ${given.join(" ")}`;
      assert.equal(code, 2, what);
      assert.match(stderr, sentence, what);
      assert.match(stderr, /\nusage: pitcrew context replay \[--window N\]/, what);
      assert.doesNotMatch(stderr, NODE_TEXT, what);
    }
  });
});

describe("pitcrew run: failures say what happened", needsBwrap(), () => {
  test("a refused key: the CLI's advice (OPENAI_API_KEY, --base-url), turns: 0, no --continue", async () => {
    const repo = fixture("run-401");
    const model = await server([say("never")], "another-key");
    const { code, stdout } = await pitcrewRun(repo, model.url);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /^model-invalid-key: The model server at http:\/\/127\.0\.0\.1:\d+\/v1 rejected the API key \(HTTP 401\); set OPENAI_API_KEY to a valid key for this server, or point --base-url \(or OPENAI_BASE_URL\) at the server the key is for\.$/m,
    );
    assert.doesNotMatch(stdout, /secret|input|--continue/);
    assert.match(stdout, /^Nothing changed: the model never answered, so no branch was kept\.$/m);
    assert.match(stdout, /^turns: 0 · tokens: 0 /m);
  });

  test("--context-window reaches the session: a window the tool definitions fill is refused before any request", async () => {
    const repo = fixture("run-window");
    const model = await server([say("never asked")]);
    const { code, stdout } = await pitcrewRun(repo, model.url, ["--context-window", "1500"]);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /context-window-too-small: No request fits the model's context window: [^\n]* against 476 \(a window of 1500 less 1024 kept for the answer\)[^\n]*pitcrew run's --context-window/,
    );
    assert.equal(model.requests.length, 0, "nothing was sent");
    assert.match(stdout, /^turns: 0 · /m);
  });

  test("a server that never answers: named in the CLI's terms, turns: 0, no --continue", async () => {
    const repo = fixture("run-silent");
    // A port nothing listens on: every attempt is refused, the retries run out.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const { code, stdout } = await pitcrewRun(repo, `http://127.0.0.1:${port}/v1`);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /^model-unavailable: The model server at http:\/\/127\.0\.0\.1:\d+\/v1 did not answer: the connection failed \([^\n]*ECONNREFUSED[^\n]*\) \(5 attempts\); check that --base-url \(or OPENAI_BASE_URL\) points at a running OpenAI-compatible server, then try again\.$/m,
    );
    assert.doesNotMatch(stdout, /input|--continue/);
    assert.match(stdout, /^turns: 0 · /m);
  });

  test("every tool call failed (no bash in the sandbox): exit 1 and why, whatever the model claimed", async () => {
    const repo = fixture("run-nobash");
    // A PATH with git, bwrap and node but no bash: the sandbox cannot exec a single command.
    const bin = join(repo.root, "bin");
    mkdirSync(bin);
    for (const tool of ["git", "bwrap"]) {
      symlinkSync(execFileSync("which", [tool], { encoding: "utf8" }).trim(), join(bin, tool));
    }
    symlinkSync(process.execPath, join(bin, "node"));
    const model = await server([
      callTools([bash("npm test --silent")]),
      callTools([{ name: "read", arguments: args({ path: "calc.js" }) }]),
      callTools([
        {
          name: "edit",
          arguments: args({ path: "calc.js", old_string: "a - b", new_string: "a + b" }),
        },
      ]),
      callTools([bash("npm test --silent")]),
      say("Fixed calc.js; all tests pass."),
    ]);
    const { code, stdout, stderr } = await pitcrewRun(repo, model.url, [], { PATH: bin });
    assert.equal(code, 1, stderr);
    assert.match(
      stdout,
      /^failed: 4\/4 tool calls failed: The sandbox could not start the command, so it did not run: bwrap: execvp bash: No such file or directory\.$/m,
    );
    assert.doesNotMatch(stdout, /^finished\./m);
    assert.doesNotMatch(stdout, /--continue/);
    assert.match(
      stderr,
      /^\[1\/8 \d+:\d\d\] bash: npm test --silent → failed \(\d+\.\d s\) · The sandbox could not start the command/m,
    );
    assert.match(
      stderr,
      /^\[2\/8 \d+:\d\d\] read: calc\.js → failed \(\d+\.\d s\) · Failed while reading calc\.js: bwrap: execvp bash/m,
    );
  });
});

/** Everything a person could see of their checkout: status, HEAD, refs, index and file bytes. */
function snapshotOf(repo: string): string {
  const index = readFileSync(join(repo, ".git", "index")).toString("base64");
  const git = (...words: string[]) =>
    execFileSync("git", ["--no-optional-locks", ...words], { cwd: repo, encoding: "utf8" });
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === ".git") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(`${path}\n${readFileSync(path).toString("base64")}`);
    }
  };
  walk(repo);
  return [
    index,
    git("status", "--porcelain=v2", "-z", "--untracked-files=all"),
    git("rev-parse", "HEAD"),
    git("symbolic-ref", "HEAD"),
    git("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/main"),
    ...files,
  ].join("\n--\n");
}

describe("pitcrew run with uncommitted work", needsBwrap(), () => {
  const LOOK = callTools([bash("cat notes.txt; grep -c mine calc.js")]);
  const EDIT = callTools([
    { name: "edit", arguments: args({ path: "calc.test.js", old_string: "5", new_string: "5 " }) },
  ]);

  function dirty(name: string): FixtureRepo {
    const repo = fixture(name);
    writeFileSync(join(repo.repo, "notes.txt"), "my notes, not committed\n");
    writeFileSync(
      join(repo.repo, "calc.js"),
      "export function add(a, b) {\n  return a - b; // mine\n}\n",
    );
    mkdirSync(join(repo.repo, "drafts"));
    writeFileSync(join(repo.repo, "drafts", "ignored.log"), "ignored\n");
    writeFileSync(join(repo.repo, ".gitignore"), "*.log\n");
    fixtureGit(repo.repo, "add", ".gitignore");
    // Touched, not changed: a git command that refreshes the index would rewrite it for this.
    const touched = new Date("2001-02-03T04:05:06Z");
    utimesSync(join(repo.repo, "package.json"), touched, touched);
    return repo;
  }

  test("left out: said before the run starts, with the way to include it; the agent works from HEAD", async () => {
    const repo = dirty("run-dirty");
    const before = snapshotOf(repo.repo);
    const model = await server([LOOK, EDIT, say("looked")]);
    const { code, stderr } = await pitcrewRun(repo, model.url);
    assert.equal(code, 0, stderr);
    const [first, second] = stderr.split("\n");
    assert.equal(
      first,
      "pitcrew: WARNING: 3 files changed since HEAD are not included: commit or stash them, or pass --include-uncommitted",
    );
    assert.match(second ?? "", /^pitcrew: working in \S+ on branch pitcrew\/run-/);
    const seen = String(model.requests[1]?.body.messages.find((m) => m.role === "tool")?.content);
    assert.match(seen, /No such file or directory/);
    assert.match(seen, /^0$/m, "calc.js as committed, without the person's edit");
    assert.equal(snapshotOf(repo.repo), before, "the checkout is byte-identical");
  });

  test("--include-uncommitted: the run starts from a commit of them on its branch; the checkout is untouched", async () => {
    const repo = dirty("run-include");
    const head = fixtureGit(repo.repo, "rev-parse", "HEAD");
    const before = snapshotOf(repo.repo);
    const model = await server([LOOK, EDIT, say("looked")]);
    const { code, stdout, stderr } = await pitcrewRun(repo, model.url, ["--include-uncommitted"]);
    assert.equal(code, 0, stderr);
    assert.match(
      stderr,
      /^pitcrew: including 3 files changed since HEAD: committed on the run's branch first \(your checkout, index and HEAD are not touched\)\npitcrew: working in /,
    );
    const seen = String(model.requests[1]?.body.messages.find((m) => m.role === "tool")?.content);
    assert.match(seen, /my notes, not committed/);
    assert.match(seen, /^1$/m, "calc.js with the person's edit");

    // The branch: the snapshot on HEAD, then the agent's commit, whose diffstat is its own.
    const branch = /branch: (pitcrew\/run-[\w-]+)/.exec(stdout)?.[1] ?? "";
    assert.ok(branch, stdout);
    const log = fixtureGit(repo.repo, "log", "--format=%H %P %s", `${head}..${branch}`).split("\n");
    assert.equal(log.length, 2, log.join("\n"));
    const snapshot = log[1]?.split(" ") ?? [];
    assert.equal(snapshot[1], head);
    assert.match(
      log[1] ?? "",
      /pitcrew run: the checkout's uncommitted changes, as the run found them$/,
    );
    assert.equal(
      fixtureGit(repo.repo, "diff", "--name-only", head, snapshot[0] ?? ""),
      ".gitignore\ncalc.js\nnotes.txt",
      "tracked changes and untracked files, not the ignored one",
    );
    assert.match(stdout, /calc\.test\.js \| 2 \+-/);
    assert.doesNotMatch(stdout, /notes\.txt/);
    assert.equal(snapshotOf(repo.repo), before, "the checkout is byte-identical");
  });
});

describe("pitcrew run --json and a terminal's status line", needsBwrap(), () => {
  const SCRIPT: Script = [
    callTools([bash("npm test --silent")]),
    callTools([{ name: "read", arguments: args({ path: "calc.js", offset: 2, limit: 1 }) }]),
    callTools([
      {
        name: "edit",
        arguments: args({ path: "calc.js", old_string: "a - b", new_string: "a + b" }),
      },
    ]),
    say("Fixed add()."),
  ];

  test("--json: one event per line on stdout, every line JSON, in the documented shapes", async () => {
    const repo = fixture("run-json");
    const model = await server(SCRIPT);
    const { code, stdout, stderr } = await pitcrewRun(repo, model.url, ["--json"]);
    assert.equal(code, 0, stderr);
    const events = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        "start",
        "turn",
        "usage",
        "tool",
        "turn",
        "usage",
        "tool",
        "turn",
        "usage",
        "tool",
        "turn",
        "usage",
        "end",
      ],
    );
    const [start] = events;
    assert.equal(start?.continued, false);
    assert.match(String(start?.branch), /^pitcrew\/run-/);
    assert.deepEqual(start?.uncommitted, { files: 0, included: false });
    const tools = events.filter((event) => event.type === "tool");
    assert.deepEqual(
      tools.map(({ name, subject, ok, result, exit_code }) => ({
        name,
        subject,
        ok,
        result,
        exit_code,
      })),
      [
        { name: "bash", subject: "npm test --silent", ok: true, result: "exit 1", exit_code: 1 },
        { name: "read", subject: "calc.js", ok: true, result: "lines 2–2 of 3", exit_code: null },
        { name: "edit", subject: "calc.js", ok: true, result: "edited", exit_code: null },
      ],
    );
    assert.match(String(tools[0]?.detail), /^AssertionError \[ERR_ASSERTION\]/);
    assert.match(String(tools[0]?.text), /^\[1\/8 \d+:\d\d\] bash: npm test --silent → exit 1/);
    assert.equal(typeof tools[0]?.elapsed_ms, "number");
    assert.equal(typeof tools[0]?.duration_ms, "number");
    const end = events.at(-1);
    assert.equal(end?.outcome, "finished");
    assert.equal(end?.stop_reason, "done");
    assert.equal(end?.error, null);
    assert.equal(end?.summary, "Fixed add().");
    assert.equal(end?.branch, start?.branch);
    assert.match(String(end?.commit), /^[0-9a-f]{40}$/);
    assert.equal(end?.turns, 4);
    assert.deepEqual(end?.tool_calls, { total: 3, failed: 0 });
    assert.equal(end?.exit_code, 0);
    const tokens = end?.tokens as { prompt: number; completion: number; total: number };
    assert.equal(tokens.total, tokens.prompt + tokens.completion);
    assert.doesNotMatch(stderr, /^\[/m, "the progress is in the events, not on stderr too");
  });

  test("--json on a failed run: the end event names the error and exit 1", async () => {
    const repo = fixture("run-json-401");
    const model = await server([say("never")], "another-key");
    const { code, stdout } = await pitcrewRun(repo, model.url, ["--json"]);
    assert.equal(code, 1);
    const end = JSON.parse(stdout.trimEnd().split("\n").at(-1) ?? "") as Record<string, unknown>;
    assert.equal(end.type, "end");
    assert.equal(end.outcome, "failed");
    assert.equal((end.error as { code: string }).code, "model-invalid-key");
    assert.match((end.error as { message: string }).message, /set OPENAI_API_KEY/);
    assert.equal(end.turns, 0);
    assert.equal(end.exit_code, 1);
  });

  test("--json with a malformed pitcrew.yml: only the end event, naming the file and line", async () => {
    const repo = fixture("run-json-config");
    mkdirSync(join(repo.repo, ".github"));
    writeFileSync(join(repo.repo, ".github", "pitcrew.yml"), "permissions:\n  deny: curl\n");
    fixtureGit(repo.repo, "add", ".");
    fixtureGit(repo.repo, "commit", "-q", "-m", "bad config");
    const model = await server([say("never")]);
    const { code, stdout, stderr } = await pitcrewRun(repo, model.url, ["--json"]);
    assert.equal(code, 1);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1, stdout);
    const end = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
    assert.equal(end.type, "end");
    assert.equal(end.outcome, "failed");
    assert.deepEqual(end.error, {
      code: "config-invalid",
      message:
        ".github/pitcrew.yml line 2: permissions.deny: Invalid input: expected array, received string. Fix or remove it.",
    });
    assert.equal(end.branch, null);
    assert.doesNotMatch(stderr, /working in/);
    assert.equal(model.requests.length, 0);
  });

  test("a terminal: a status line redrawn in place, cleared before each line and at the end", async (t) => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" });
    } catch {
      t.skip("util-linux `script` (a pseudo-terminal) is not installed");
      return;
    }
    const repo = fixture("run-tty");
    const model = await server(SCRIPT);
    const command = [process.execPath, CLI, "run", "--repo", repo.repo, "--base-url", model.url]
      .map((word) => `'${word}'`)
      .join(" ");
    const { stdout } = await new Promise<Ran>((resolve) => {
      execFile(
        "script",
        ["-qfec", `${command} 'fix calc'`, "/dev/null"],
        { env: { PATH: process.env.PATH, HOME: repo.home, OPENAI_API_KEY: KEY, CI: "" } },
        (error, out, err) => resolve({ code: error ? 1 : 0, stdout: out, stderr: err }),
      );
    });
    const CLEAR = "\r\x1b[2K";
    // The first draw, at the first turn: spinner, turn, time, tokens, cost, what it waits for.
    const draws = stdout.split(CLEAR).slice(1);
    assert.ok(
      draws.some((draw) =>
        /^⠋ turn 1\/50 · \d+:\d\d · 0 tokens · \$0\.0000 · waiting for the model/.test(draw),
      ),
      JSON.stringify(stdout),
    );
    assert.ok(
      draws.some((draw) => /^. turn 2\/50 · \d+:\d\d · [\d,]+ tokens · \$\d+\.\d{4}/.test(draw)),
    );
    // Every progress line and the account start on a cleared line, never after a status line.
    for (const line of ["[1/50 ", "[2/50 ", "[3/50 ", "Fixed add()."]) {
      const at = stdout.indexOf(line);
      assert.ok(at > 0, `${line} in ${JSON.stringify(stdout)}`);
      assert.equal(stdout.slice(at - CLEAR.length, at), CLEAR, line);
    }
    // After the last clear, only the account: no status line is left on the screen.
    const tail = stdout.slice(stdout.lastIndexOf(CLEAR) + CLEAR.length);
    assert.match(tail, /^Fixed add\(\)\.\r\n\r\nfinished\.\r\n/);
    assert.doesNotMatch(tail, /turn \d+\/50 ·/);
  });
});
