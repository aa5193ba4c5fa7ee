/**
 * `pitcrew sandbox` as a person runs it: `node dist/cli.js sandbox …` (the bundle) in a real process, checked
 * by exit status, stdout and stderr.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { builtCli } from "./support/built.ts";
import { needsBwrap } from "./support/bwrap.ts";

/** The CLI as it ships: the bundle, built for this test process. */
const CLI = await builtCli();
const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-cli-test-")));
after(() => rmSync(root, { recursive: true, force: true }));

const home = join(root, "home");
const compileCache = join(root, "compile-cache");
const workspace = join(root, "ws");
mkdirSync(home);
mkdirSync(join(workspace, ".git"), { recursive: true });
writeFileSync(join(workspace, ".git", "config"), "[core]\n\tbare = false\n");
writeFileSync(join(home, "secret"), "host secret\n");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function cli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? workspace,
    // The compile cache only makes the twenty-odd starts faster; it never enters the sandbox.
    env: { PATH: "/usr/bin:/bin", HOME: home, NODE_COMPILE_CACHE: compileCache, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
  });
}

const USAGE_LINE =
  "usage: pitcrew sandbox [--workspace DIR] [--explain] [--sandbox auto|bwrap|seatbelt|none] [--timeout SECONDS] -- CMD [ARG...]";

/** Words of Node's parseArgs errors, which a person must never see instead of pitcrew's own. */
const PARSE_ARGS_WORDS =
  /Unknown option|argument missing|positional argument|does not take an argument|ERR_PARSE_ARGS/;

/** A usage error: exit 2, pitcrew's sentence and the usage line on stderr, nothing on stdout. */
function assertUsageError(run: Run, sentence: RegExp, label: string): void {
  assert.equal(run.status, 2, `${label}: ${run.stderr}`);
  assert.equal(run.stdout, "", label);
  const lines = run.stderr.split("\n");
  assert.equal(
    lines.length,
    3,
    `${label}: one sentence, the usage line, nothing else:\n${run.stderr}`,
  );
  assert.match(lines[0]!, /^pitcrew sandbox: cli-[a-z-]+: [A-Z-].*[.\w]$/, label);
  assert.match(lines[0]!, sentence, label);
  assert.equal(lines[1], USAGE_LINE, label);
  assert.equal(lines[2], "", label);
  assert.doesNotMatch(run.stderr, PARSE_ARGS_WORDS, label);
}

describe("pitcrew sandbox: arguments", () => {
  test("--help and -h print the usage with every option and exit 0, running nothing", async () => {
    for (const flag of ["--help", "-h"]) {
      const marker = join(workspace, "help-ran");
      const run = await cli(["sandbox", "--timeout", "5", flag, "--", "touch", marker]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stderr, "");
      assert.ok(run.stdout.startsWith(`${USAGE_LINE}\n`), run.stdout);
      for (const option of [
        "--workspace DIR",
        "--explain",
        "--sandbox NAME",
        "--timeout SECONDS",
        "-h, --help",
      ]) {
        assert.ok(run.stdout.includes(`  ${option} `), `${flag}: ${option} is not described`);
      }
      assert.match(
        run.stdout,
        /a number above 0, at most 86400\s+\(default 60, as the action's command-timeout\)/,
      );
      assert.match(
        run.stdout,
        /^exit status: the command's; 124 when it timed out; 125 when the sandbox cannot start;$/m,
      );
      assert.ok(!existsSync(marker), "--help ran the command");
    }
  });

  test("no command: exit 2 with the hint and the usage line", async () => {
    for (const args of [["sandbox"], ["sandbox", "--"], ["sandbox", "--timeout", "5"]]) {
      assertUsageError(
        await cli(args),
        /^pitcrew sandbox: cli-no-command: Name the command to run after --, for example: pitcrew sandbox -- npm test$/,
        args.join(" "),
      );
    }
  });

  test("a bad --sandbox value: exit 2 naming the choices", async () => {
    assertUsageError(
      await cli(["sandbox", "--sandbox", "docker", "--", "true"]),
      /cli-bad-option: --sandbox must be one of auto, bwrap, seatbelt, none, not 'docker'\.$/,
      "--sandbox docker",
    );
  });

  test("a bad --timeout: exit 2 saying what it takes; nothing runs", async () => {
    const marker = join(workspace, "timeout-ran");
    for (const value of ["0", "soon", "-1", "Infinity", "1e3", "0x10", "86401", " "]) {
      const run = await cli(["sandbox", `--timeout=${value}`, "--", "touch", marker]);
      assertUsageError(
        run,
        new RegExp(
          `cli-bad-option: --timeout takes a number of seconds above 0 and at most 86400 \\(a day\\), for example --timeout 300; '${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}' is not one\\.$`,
        ),
        `--timeout=${value}`,
      );
    }
    for (const args of [
      ["--timeout"],
      ["--timeout", "--", "true"],
      ["--timeout", "--explain"],
      ["--timeout="],
    ]) {
      assertUsageError(
        await cli(["sandbox", ...args]),
        /cli-bad-option: --timeout needs a value, for example --timeout 300\.$/,
        args.join(" "),
      );
    }
    assert.ok(!existsSync(marker), "a bad --timeout ran the command");
  });

  test("an option pitcrew does not have, or a value given to a flag: exit 2 in pitcrew's words", async () => {
    assertUsageError(
      await cli(["sandbox", "--network", "--", "true"]),
      /cli-bad-option: --network is not an option of pitcrew sandbox; its options are --workspace, --explain, --sandbox, --timeout and --help\.$/,
      "--network",
    );
    assertUsageError(
      await cli(["sandbox", "npm", "test", "--watch"]),
      /cli-bad-option: --watch is not an option of pitcrew sandbox\. If it is meant for the command, put the command after --, as in: pitcrew sandbox -- npm test --watch$/,
      "npm test --watch",
    );
    assertUsageError(
      await cli(["sandbox", "--explain=yes"]),
      /cli-bad-option: --explain takes no value; write it alone\.$/,
      "--explain=yes",
    );
    assertUsageError(
      await cli(["sandbox", "--workspace"]),
      /cli-bad-option: --workspace needs a value, for example --workspace DIR\.$/,
      "--workspace",
    );
  });

  test("after --, every word is the command's, options included", async () => {
    const run = await cli(["sandbox", "--explain", "--", "ls", "--help", "--timeout", "-h"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, / -- ls --help --timeout -h\n/);
  });
});

describe("pitcrew sandbox: a sandbox that cannot start", () => {
  test("a workspace that is not a folder: exit 125 with the named error, nothing run", async () => {
    const run = await cli([
      "sandbox",
      "--workspace",
      join(root, "missing"),
      "--",
      "touch",
      join(root, "ran"),
    ]);
    assert.equal(run.status, 125);
    assert.match(
      run.stderr,
      new RegExp(
        `^pitcrew sandbox: sandbox-no-workspace: The workspace ${join(root, "missing")} is not a folder\\.\\n$`,
      ),
    );
    assert.ok(!existsSync(join(root, "ran")));
  });

  test("a workspace containing HOME: exit 125, sandbox-workspace-too-wide", async () => {
    const run = await cli(["sandbox", "--workspace", root, "--", "true"]);
    assert.equal(run.status, 125);
    assert.match(
      run.stderr,
      /sandbox-workspace-too-wide: The workspace .* contains your home folder/,
    );
  });
});

describe("pitcrew sandbox: running commands", needsBwrap(), () => {
  test("the exit status is the command's, and its output passes through", async () => {
    const run = await cli([
      "sandbox",
      "--",
      "sh",
      "-c",
      "echo to-stdout; echo to-stderr >&2; exit 42",
    ]);
    assert.equal(run.status, 42, run.stderr);
    assert.equal(run.stdout, "to-stdout\n");
    assert.equal(run.stderr, "to-stderr\n");
  });

  test("a command ended by a signal exits 128+n", async () => {
    const run = await cli(["sandbox", "--", "sh", "-c", "kill -TERM $$"]);
    assert.equal(run.status, 143, run.stderr);
  });

  test("the command runs in the workspace, under the policy", async () => {
    const script = [
      `test "$(pwd)" = "${workspace}"`,
      "echo made > made-inside",
      "! touch .git/planted 2>/dev/null",
      '! cat "$HOME/secret" 2>/dev/null',
      "echo fine",
    ].join(" && ");
    const run = await cli(["sandbox", "--", "sh", "-c", script]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "fine\n");
    assert.equal(readFileSync(join(workspace, "made-inside"), "utf8"), "made\n");
    assert.ok(!existsSync(join(workspace, ".git", "planted")));
  });

  test("--workspace picks the folder regardless of the current one", async () => {
    const run = await cli(["sandbox", "--workspace", workspace, "--", "pwd"], { cwd: root });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${workspace}\n`);
  });

  test("--timeout 1 -- sleep 5: exit 124 with the sentence; the command is killed, not waited for", async () => {
    // `sleep 5; echo survived`: the echo shows whether the command outlived its timeout.
    const run = await cli([
      "sandbox",
      "--timeout",
      "1",
      "--",
      "sh",
      "-c",
      "sleep 5; echo survived",
    ]);
    assert.equal(run.status, 124, run.stderr);
    assert.match(
      run.stderr,
      /^pitcrew sandbox: timed out after 1 s; the command and everything it started were killed\.\n$/,
    );
    assert.equal(run.stdout, "", "the command outlived its timeout");
  });

  test("--explain prints the policy and the bwrap command line, and runs nothing", async () => {
    const marker = join(workspace, "explain-ran");
    const run = await cli(["sandbox", "--explain", "--", "touch", marker]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!existsSync(marker), "the command was run");
    const out = run.stdout;
    assert.match(out, /^backend: bwrap$/m);
    assert.match(out, new RegExp(`^workspace \\(writable\\): ${workspace}$`, "m"));
    assert.match(out, new RegExp(`^read-only inside the workspace:\\n  ${workspace}/\\.git$`, "m"));
    assert.match(
      out,
      new RegExp(`^git config replaced by a sanitised copy:\\n  ${workspace}/\\.git/config$`, "m"),
    );
    assert.match(out, new RegExp(`^home \\(hidden, private tmpfs\\): ${home}$`, "m"));
    assert.match(out, /^network: none$/m);
    assert.match(out, /^bwrap: \/\S+bwrap \(\d+\.\d+\.\d+\)$/m);
    const lines = out.split("\n");
    const commandLine = lines[lines.indexOf("command line:") + 1] ?? "";
    assert.match(
      commandLine,
      /^prlimit --nproc=\d+ --fsize=\d+ --core=0 .*-- \/\S*bwrap --unshare-user /,
    );
    assert.ok(commandLine.includes(`--tmpfs ${home}`));
    assert.ok(commandLine.includes(`--bind ${workspace} ${workspace}`));
    assert.ok(commandLine.includes(`--ro-bind ${workspace}/.git ${workspace}/.git`));
    assert.ok(commandLine.endsWith(` -- touch ${marker}`));
  });

  test("--explain on a checkout without .github: the folders it creates say so, and are gone after", async () => {
    const bare = join(root, "bare");
    mkdirSync(join(bare, ".git"), { recursive: true });
    writeFileSync(join(bare, ".git", "config"), "[core]\n\tbare = false\n");
    const run = await cli(["sandbox", "--explain", "--timeout", "300"], { cwd: bare });
    assert.equal(run.status, 0, run.stderr);
    const created =
      "not in the checkout: created empty and protected for the session, so nothing can be added there; removed at the end";
    const section = (title: string): string[] => {
      const lines = run.stdout.split("\n");
      const start = lines.indexOf(title);
      assert.notEqual(start, -1, `no "${title}" in:\n${run.stdout}`);
      const end = lines.findIndex((line, index) => index > start && !line.startsWith("  "));
      return lines.slice(start + 1, end);
    };
    assert.deepEqual(section("read-only inside the workspace:"), [
      `  ${bare}/.git`,
      `  ${bare}/.github/workflows (${created})`,
      `  ${bare}/.github (${created})`,
    ]);
    assert.deepEqual(section("writable again inside a read-only folder (pitcrew's own):"), [
      `  ${bare}/.github/pitcrew (not in the checkout: created empty for the session; removed at the end if still empty)`,
    ]);
    assert.deepEqual(
      section("pinned (cannot be renamed or replaced; writable inside unless read-only above):"),
      [`  ${bare}/.github (created for the session, as above)`],
    );
    assert.match(run.stdout, /^timeout: 300000 ms per command$/m);
    assert.ok(
      !existsSync(join(bare, ".github")),
      "the folders made for --explain were left behind",
    );

    // Where they exist, the same paths are listed plainly.
    mkdirSync(join(bare, ".github", "workflows"), { recursive: true });
    writeFileSync(join(bare, ".github", "workflows", "ci.yml"), "on: push\n");
    const existing = await cli(["sandbox", "--explain"], { cwd: bare });
    assert.equal(existing.status, 0, existing.stderr);
    assert.match(existing.stdout, new RegExp(`^  ${bare}/\\.github/workflows$`, "m"));
    assert.match(existing.stdout, new RegExp(`^  ${bare}/\\.github$`, "m"));
    assert.match(
      existing.stdout,
      new RegExp(`^  ${bare}/\\.github/pitcrew \\(not in the checkout`, "m"),
    );
    assert.ok(!existsSync(join(bare, ".github", "pitcrew")));
    assert.ok(existsSync(join(bare, ".github", "workflows", "ci.yml")));
  });

  test("--explain without a command explains `true`", async () => {
    const run = await cli(["sandbox", "--explain"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, / -- true\n/);
  });
});

describe("pitcrew sandbox: a tool on a PATH folder the sandbox cannot see", needsBwrap(), () => {
  // Under /tmp itself, whatever TMPDIR says: the sandbox's /tmp is a fresh tmpfs.
  const tools = realpathSync(mkdtempSync("/tmp/pitcrew-cli-path-"));
  after(() => rmSync(tools, { recursive: true, force: true }));
  const bin = join(tools, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "mytool"), "#!/bin/sh\necho mytool ran\n");
  chmodSync(join(bin, "mytool"), 0o755);
  const env = { PATH: `${bin}:/usr/bin:/bin` };
  const advice = `Put the tool where the sandbox can see it — in the checkout (${workspace}), in a folder on your PATH under ${home} (bound back read-only), or in /usr/local/bin — and run the command again.`;
  const privateTmp = "the sandbox's /tmp is private (a fresh, empty folder for each command)";

  test("the tool runs on the host (the control)", () => {
    assert.equal(execFileSync("mytool", { env, encoding: "utf8" }), "mytool ran\n");
  });

  test("run directly: bwrap cannot exec it, and pitcrew says why and what to do", async () => {
    const run = await cli(["sandbox", "--", "mytool", "--version"], { env });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `bwrap: execvp mytool: No such file or directory\npitcrew sandbox: \`mytool\` was not found inside the sandbox: ${bin} is on your PATH, but ${privateTmp}. ${advice}\n`,
    );
  });

  test("by its full path: the same", async () => {
    const run = await cli(["sandbox", "--", join(bin, "mytool")], { env });
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(
        `pitcrew sandbox: \`${join(bin, "mytool")}\` was not found inside the sandbox: it exists on the host, but the sandbox's /tmp is private`,
      ),
    );
  });

  test("through a shell (exit 127): named when the command line names it, else the folder", async () => {
    const named = await cli(["sandbox", "--", "sh", "-c", "mytool --version"], { env });
    assert.equal(named.status, 127, named.stderr);
    // The shell's own line first (dash: "sh: 1: mytool: not found"; bash words it otherwise).
    const [shell, ours, rest] = named.stderr.split("\n");
    assert.match(shell!, /^sh: .*mytool: .*not found$/);
    assert.equal(
      ours,
      `pitcrew sandbox: \`mytool\` was not found inside the sandbox (exit status 127): ${bin} is on your PATH, but ${privateTmp}. ${advice}`,
    );
    assert.equal(rest, "");
    const unnamed = await cli(["sandbox", "--", "sh", "-c", "exit 127"], { env });
    assert.equal(unnamed.status, 127, unnamed.stderr);
    assert.equal(
      unnamed.stderr,
      `pitcrew sandbox: Exit status 127 usually means a command was not found. If it was one of the tools in ${bin}: that folder is on your PATH, but ${privateTmp}. ${advice}\n`,
    );
  });

  test("the policy is unchanged, and a failure that is not a missing tool gets no such sentence", async () => {
    const run = await cli(["sandbox", "--", "test", "-e", join(bin, "mytool")], { env });
    assert.equal(run.status, 1, "the tool's folder is visible inside");
    assert.equal(run.stderr, "");
    const plain = await cli(["sandbox", "--", "sh", "-c", "exit 127"]);
    assert.equal(plain.status, 127);
    assert.equal(plain.stderr, "", "no PATH folder is hidden, so there is nothing to say");
  });

  test("a copy the sandbox can see (in the checkout) runs, with no sentence", async () => {
    const own = join(workspace, "tools");
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, "mytool"), "#!/bin/sh\necho checkout copy\n");
    chmodSync(join(own, "mytool"), 0o755);
    const run = await cli(["sandbox", "--", "mytool"], {
      env: { PATH: `${bin}:${own}:/usr/bin:/bin` },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "checkout copy\n");
    assert.equal(run.stderr, "");
  });
});
