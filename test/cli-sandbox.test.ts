/**
 * `pitcrew sandbox` as a person runs it: `node src/cli.ts sandbox …` in a real process, checked
 * by exit status, stdout and stderr.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
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
import { needsBwrap } from "./support/bwrap.ts";

const CLI = join(import.meta.dirname, "..", "src", "cli.ts");
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

describe("pitcrew sandbox: arguments", () => {
  test("no command: exit 2 with the hint", async () => {
    const run = await cli(["sandbox"]);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /^pitcrew sandbox: cli-no-command: Name the command to run after --, for example: pitcrew sandbox -- npm test\n$/,
    );
    assert.equal(run.stdout, "");
  });

  test("a bad --sandbox value: exit 2 naming the choices", async () => {
    const run = await cli(["sandbox", "--sandbox", "docker", "--", "true"]);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /cli-bad-option: --sandbox must be one of auto, bwrap, seatbelt, none, not 'docker'/,
    );
  });

  test("a bad --timeout: exit 2", async () => {
    for (const value of ["0", "soon"]) {
      const run = await cli(["sandbox", `--timeout=${value}`, "--", "true"]);
      assert.equal(run.status, 2, value);
      assert.match(run.stderr, /cli-bad-option: --timeout takes a number of seconds above 0/);
    }
  });

  test("an unknown option: exit 2", async () => {
    const run = await cli(["sandbox", "--network", "--", "true"]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^pitcrew sandbox: .*--network/);
  });

  test("no subcommand prints the usage and exits 2; --help exits 0; an unknown one exits 2", async () => {
    const none = await cli([]);
    assert.equal(none.status, 2);
    assert.match(none.stdout, /usage: pitcrew <command>/);
    const help = await cli(["--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /sandbox \[--workspace DIR\]/);
    const unknown = await cli(["frobnicate"]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
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

  test("--explain without a command explains `true`", async () => {
    const run = await cli(["sandbox", "--explain"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, / -- true\n/);
  });
});
