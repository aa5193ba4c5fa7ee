/**
 * The `pitcrew` command itself, as a person runs it: `--version`, `--help`, no command, an
 * unknown command, each from the built dist/cli.js in a real process (and `--version` from the
 * sources too); and what each start loads, recorded by a module hook, so `--help` and `sandbox`
 * are held to loading only what they need (never the tokenizer or the model client).
 */
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-cli-")));
const dist = join(root, "dist");
const home = join(root, "home");
const workspace = join(root, "workspace");
const loadsHook = join(root, "record-loads.mjs");
after(() => rmSync(root, { recursive: true, force: true }));

before(() => {
  mkdirSync(home);
  mkdirSync(workspace);
  execFileSync(process.execPath, ["scripts/build.mjs", dist], { cwd: ROOT });
  // Appends the path of every file module loaded to $PITCREW_TEST_LOADS.
  writeFileSync(
    loadsHook,
    [
      'import { appendFileSync } from "node:fs";',
      'import { registerHooks } from "node:module";',
      'import { fileURLToPath } from "node:url";',
      "registerHooks({",
      "  load(url, context, nextLoad) {",
      '    if (url.startsWith("file:")) appendFileSync(process.env.PITCREW_TEST_LOADS, fileURLToPath(url) + "\\n");',
      "    return nextLoad(url, context);",
      "  },",
      "});",
    ].join("\n"),
  );
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: workspace, env: { PATH: "/usr/bin:/bin", HOME: home, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

const cli = (...args: string[]): Promise<Ran> => node([join(dist, "cli.js"), ...args]);

/** The files one start of the built CLI loads, with their sizes. */
async function loads(args: string[]): Promise<{ ran: Ran; files: Map<string, number> }> {
  const record = join(root, `loads-${args.join("-").replace(/[^a-z]/g, "")}-${Date.now()}.txt`);
  writeFileSync(record, "");
  const ran = await node(
    ["--import", pathToFileURL(loadsHook).href, join(dist, "cli.js"), ...args],
    { PITCREW_TEST_LOADS: record },
  );
  const files = new Map<string, number>();
  for (const file of readFileSync(record, "utf8").split("\n")) {
    if (file !== "" && file !== loadsHook) files.set(file, statSync(file).size);
  }
  return { ran, files };
}

const total = (files: Map<string, number>): number =>
  [...files.values()].reduce((sum, size) => sum + size, 0);

describe("pitcrew's own options", () => {
  test("--version prints the version from package.json and exits 0", async () => {
    assert.deepEqual(await cli("--version"), {
      status: 0,
      stdout: `pitcrew ${VERSION}\n`,
      stderr: "",
    });
    // From the sources, where nothing was baked in, it reads package.json.
    assert.deepEqual(await node([join(ROOT, "src", "cli.ts"), "--version"]), {
      status: 0,
      stdout: `pitcrew ${VERSION}\n`,
      stderr: "",
    });
  });

  test("--help, -h and help print the usage on stdout and exit 0", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const ran = await cli(flag);
      assert.equal(ran.status, 0, flag);
      assert.equal(ran.stderr, "", flag);
      assert.match(ran.stdout, /^usage: pitcrew <command> \[options\]\n/, flag);
      for (const command of ["run", "sandbox", "context replay", "--version"]) {
        assert.ok(ran.stdout.includes(command), `${flag} mentions ${command}`);
      }
    }
  });

  test("no command prints the usage on stderr and exits 2", async () => {
    const ran = await cli();
    assert.equal(ran.status, 2);
    assert.equal(ran.stdout, "");
    assert.equal(ran.stderr, (await cli("--help")).stdout);
  });

  test("an unknown command is named, with the usage line, and exits 2", async () => {
    for (const word of ["frobnicate", "--verbose"]) {
      assert.deepEqual(await cli(word), {
        status: 2,
        stdout: "",
        stderr: `pitcrew: unknown command '${word}'\nusage: pitcrew <command> [options]  (pitcrew --help lists the commands)\n`,
      });
    }
  });
});

describe("what a start loads", () => {
  test("--help and --version load the entry and esbuild's runtime only, a few KB", async () => {
    for (const flag of ["--help", "--version"]) {
      const { ran, files } = await loads([flag]);
      assert.equal(ran.status, 0, flag);
      assert.ok(files.has(join(dist, "cli.js")), `${flag} was recorded`);
      assert.ok(files.size <= 2, `${flag} loads ${[...files.keys()].join(", ")}`);
      assert.ok(total(files) < 16 * 1024, `${flag} loads ${total(files)} bytes`);
    }
  });

  test("sandbox and every command's --help load no big chunk (tokenizer, model client, parser); a replay does", async () => {
    for (const args of [
      ["sandbox", "--sandbox", "none", "--", "true"],
      ["run", "--help"],
      ["context", "replay", "--help"],
    ]) {
      const started = await loads(args);
      assert.equal(started.ran.status, 0, started.ran.stderr);
      const largest = Math.max(...started.files.values());
      assert.ok(largest < 256 * 1024, `${args.join(" ")} loads a file of ${largest} bytes`);
      assert.ok(
        total(started.files) < 512 * 1024,
        `${args.join(" ")} loads ${total(started.files)} bytes`,
      );
    }
    // The yardstick: the tokenizer is a chunk of megabytes, and a replay loads it.
    const session = join(root, "one-message.json");
    writeFileSync(
      session,
      JSON.stringify([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    );
    const replay = await loads(["context", "replay", "--json", session]);
    assert.equal(replay.ran.status, 0, replay.ran.stderr);
    assert.ok(Math.max(...replay.files.values()) > 1024 * 1024, "a replay loads the tokenizer");
  });
});
