/**
 * runContained with real processes: exit status, signals, stdin, timeouts that take the whole
 * tree (process group, and bwrap's PID namespace), cancellation, output floods, start failures,
 * and descriptors the harness inherited.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { PitcrewError } from "../../src/errors.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { runContained, shellStatus } from "../../src/sandbox/runner.ts";
import type { SpawnSpec } from "../../src/sandbox/runner.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";

const ENV = { PATH: "/usr/bin:/bin" };
const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-runner-test-")));
after(() => rmSync(root, { recursive: true, force: true }));

function spec(argv: string[], overrides: Partial<SpawnSpec> = {}): SpawnSpec {
  return { argv, env: ENV, timeoutMs: 10_000, outputBytes: 1 << 20, ...overrides };
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Pids of live `sleep <marker>` processes (processes inside a PID namespace included). */
function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (cmdline === `sleep\0${marker}\0` && alive(Number(name))) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

/** Live processes whose argv holds one of `args` as a whole argument. */
function withArgument(args: readonly string[]): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (argv.some((arg) => args.includes(arg)) && alive(Number(name))) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; await sleep(20)) {
    if (check()) return true;
  }
  return check();
}

/** Kills leftovers a failing test may leave, by pid. */
function reap(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

let markers = 0;
/** A unique sleep duration, to find the sleep by its exact command line. */
const marker = (): string => `${3000 + markers++}.${process.pid}${Math.floor(Math.random() * 1e6)}`;

describe("runContained: status, signals, stdin", () => {
  test("the exit code, with output captured per stream", async () => {
    const result = await runContained(spec(["sh", "-c", "echo out; echo err >&2; exit 7"]));
    assert.equal(result.exitCode, 7);
    assert.equal(result.signal, null);
    assert.equal(result.stdout.text, "out\n");
    assert.equal(result.stderr.text, "err\n");
    assert.equal(result.timedOut, false);
    assert.equal(result.cancelled, false);
    assert.ok(result.durationMs > 0);
    assert.equal(shellStatus(result), 7);
  });

  test("a signal that ends the command is reported, as 128+n in the shell's convention", async () => {
    const result = await runContained(spec(["sh", "-c", "kill -TERM $$"]));
    assert.equal(result.exitCode, null);
    assert.equal(result.signal, "SIGTERM");
    assert.equal(shellStatus(result), 143);
  });

  test("shellStatus covers code, known signals and the degenerate case", () => {
    assert.equal(shellStatus({ exitCode: 0, signal: null }), 0);
    assert.equal(shellStatus({ exitCode: 255, signal: null }), 255);
    assert.equal(shellStatus({ exitCode: null, signal: "SIGKILL" }), 137);
    assert.equal(shellStatus({ exitCode: null, signal: "SIGINT" }), 130);
    assert.equal(shellStatus({ exitCode: null, signal: null }), 128);
  });

  test("stdin is delivered, including more than a pipe buffer; without it stdin is empty", async () => {
    const small = await runContained(spec(["cat"], { stdin: "hello\nworld\n" }));
    assert.equal(small.stdout.text, "hello\nworld\n");
    const big = Buffer.alloc(3 << 20, 0x61);
    const counted = await runContained(spec(["wc", "-c"], { stdin: big }));
    assert.equal(counted.stdout.text.trim(), String(big.length));
    const none = await runContained(spec(["cat"]));
    assert.equal(none.exitCode, 0);
    assert.equal(none.stdout.text, "");
  });

  test("a command that ignores its stdin does not break the run", async () => {
    const result = await runContained(spec(["true"], { stdin: Buffer.alloc(4 << 20) }));
    assert.equal(result.exitCode, 0);
  });

  test("fd3Data reaches the child through a fresh pipe on descriptor 3, read to its end", async () => {
    const data = Buffer.from("via fd 3");
    const first = await runContained(
      spec(
        ["sh", "-c", 'cat <&3; echo; [ -p /dev/fd/3 ] || [ -S /dev/fd/3 ] && echo "not a file"'],
        {
          fd3Data: data,
        },
      ),
    );
    assert.equal(first.stdout.text, "via fd 3\nnot a file\n");
    const second = await runContained(spec(["sh", "-c", "cat <&3"], { fd3Data: data }));
    assert.equal(second.stdout.text, "via fd 3", "each spawn gets its own pipe");
  });

  test("a program that does not exist: sandbox-start-failed naming it", async () => {
    await assert.rejects(
      runContained(spec(["/nonexistent/pitcrew-no-such-program", "x"])),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "sandbox-start-failed" &&
        error.message.includes("/nonexistent/pitcrew-no-such-program") &&
        error.message.includes("ENOENT"),
    );
  });

  test("an empty argv is a programming error", () => {
    assert.throws(() => runContained(spec([])), /empty argv/);
  });

  test("a background job holding the pipes does not hold the result", async () => {
    const result = await runContained(spec(["sh", "-c", "sleep 30 & echo $!"]));
    const pid = Number(result.stdout.text.trim());
    try {
      assert.equal(result.exitCode, 0);
      // The result came while the job still runs: it did not wait for the job's end.
      assert.ok(alive(pid), `sleep ${pid} had already ended`);
    } finally {
      reap([pid]);
    }
  });

  test("killGroup: background jobs in the group go with the command", async () => {
    const result = await runContained(
      spec(["sh", "-c", "sleep 30 & echo $!"], { killGroup: true }),
    );
    const pid = Number(result.stdout.text.trim());
    try {
      assert.ok(await eventually(() => !alive(pid)), `sleep ${pid} survived`);
    } finally {
      reap([pid]);
    }
  });
});

describe("runContained: timeouts and cancellation", () => {
  test("a timeout kills the command and reports timedOut", async () => {
    const result = await runContained(spec(["sleep", "30"], { timeoutMs: 300 }));
    assert.equal(result.timedOut, true);
    assert.equal(result.cancelled, false);
    assert.equal(result.signal, "SIGKILL", "killed, not run to its end");
  });

  test("killGroup: a timeout kills the whole group, grandchildren included", async () => {
    const script = "sleep 300 & echo $!; sh -c 'sleep 300 & echo $!; wait' & wait";
    const result = await runContained(
      spec(["sh", "-c", script], { timeoutMs: 500, killGroup: true }),
    );
    const pids = result.stdout.text.trim().split("\n").map(Number);
    try {
      assert.equal(result.timedOut, true);
      assert.equal(pids.length, 2);
      for (const pid of pids) assert.ok(await eventually(() => !alive(pid)), `${pid} survived`);
    } finally {
      reap(pids);
    }
  });

  test("killGroup: a timeout kills setsid'd grandchildren too", async () => {
    const script = "setsid sleep 300 & echo $!; wait";
    const result = await runContained(
      spec(["sh", "-c", script], { timeoutMs: 500, killGroup: true }),
    );
    const pids = result.stdout.text.trim().split("\n").map(Number);
    try {
      assert.equal(result.timedOut, true);
      for (const pid of pids)
        assert.ok(await eventually(() => !alive(pid), 300), `setsid'd ${pid} survived`);
    } finally {
      reap(pids);
    }
  });

  test("an abort signal cancels the command", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200).unref();
    const result = await runContained(spec(["sleep", "30"], { signal: controller.signal }));
    assert.equal(result.cancelled, true);
    assert.equal(result.timedOut, false);
    assert.equal(result.signal, "SIGKILL");
  });

  test("an already aborted signal cancels at once, and with killGroup takes the group", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runContained(
      spec(["sh", "-c", "sleep 30"], { signal: controller.signal, killGroup: true }),
    );
    assert.equal(result.cancelled, true);
    assert.equal(result.signal, "SIGKILL", "killed, not run to its end");
  });
});

describe("runContained: output flood", () => {
  test("200 MB of output keeps the ceiling, counts every byte, and marks truncation", async () => {
    const ceiling = 1 << 20;
    const result = await runContained(
      spec(["sh", "-c", "yes | head -c 200000000; yes e | head -c 3000000 >&2"], {
        outputBytes: ceiling,
      }),
    );
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout.bytes, 200_000_000);
    assert.equal(result.stdout.truncated, true);
    assert.ok(Buffer.byteLength(result.stdout.text) < ceiling + 200);
    assert.ok(result.stdout.text.startsWith("y\ny\n"));
    assert.ok(result.stdout.text.endsWith("y\ny\n"));
    assert.match(result.stdout.text, /\[… 198951424 bytes of output dropped/);
    assert.equal(result.stderr.bytes, 3_000_000);
    assert.equal(result.stderr.truncated, true);
  });
});

describe("inherited descriptors (fds.ts) in a child that inherited one", () => {
  const src = realpathSync(join(import.meta.dirname, "..", "..", "src", "sandbox"));
  const markerFile = join(root, "inherited-marker");
  const INHERITED = 100;
  writeFileSync(markerFile, "secret-ish");

  /**
   * Runs `body` in a child node whose descriptor 100 is `markerFile`, inherited without
   * close-on-exec. (Node itself marks low inherited descriptors, up to about 16, close-on-exec
   * at startup, so a high one is what can really slip through.)
   */
  async function inChild(body: string, ipc = false): Promise<Record<string, unknown>> {
    const script = join(root, `child-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(
      script,
      [
        `import { inheritableFds, closeInheritedFds } from ${JSON.stringify(join(src, "fds.ts"))};`,
        `import { runContained } from ${JSON.stringify(join(src, "runner.ts"))};`,
        `import { spawnSync } from "node:child_process";`,
        `const listFds = () => spawnSync("sh", ["-c", "ls -l /proc/$$/fd"], { encoding: "utf8" }).stdout;`,
        `const out = {};`,
        body,
        `process.stdout.write(JSON.stringify(out));`,
        `if (process.send) process.disconnect();`,
      ].join("\n"),
    );
    const fd = openSync(markerFile, "r");
    try {
      const child = spawn(process.execPath, [script], {
        stdio: [
          "ignore",
          "pipe",
          "inherit",
          ipc ? "ipc" : "ignore",
          ...Array.from({ length: INHERITED - 4 }, () => "ignore" as const),
          fd,
        ],
        env: { PATH: ENV.PATH },
      });
      let stdout = "";
      assert.ok(child.stdout);
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.equal(code, 0, stdout);
      return JSON.parse(stdout) as Record<string, unknown>;
    } finally {
      closeSync(fd);
    }
  }

  test("the inherited descriptor is seen, and without closing a grandchild would get it", async () => {
    const out = await inChild(`out.before = inheritableFds(); out.grandchild = listFds();`);
    assert.ok((out.before as number[]).includes(INHERITED), String(out.before));
    assert.match(String(out.grandchild), /inherited-marker/);
  });

  test("closeInheritedFds closes it and returns what it closed", async () => {
    const out = await inChild(
      `out.closed = closeInheritedFds(); out.after = inheritableFds(); out.grandchild = listFds();`,
    );
    assert.ok((out.closed as number[]).includes(INHERITED), String(out.closed));
    assert.deepEqual(out.after, []);
    assert.doesNotMatch(String(out.grandchild), /inherited-marker/);
  });

  test("runContained closes it before spawning: the command never receives it", async () => {
    const out = await inChild(
      [
        `const result = await runContained({ argv: ["sh", "-c", "ls -l /proc/$$/fd"], env: { PATH: "/usr/bin:/bin" }, timeoutMs: 5000, outputBytes: 65536 });`,
        `out.grandchild = result.stdout.text; out.after = inheritableFds();`,
      ].join("\n"),
    );
    assert.doesNotMatch(String(out.grandchild), /inherited-marker/);
    assert.match(String(out.grandchild), / 2 -> /, "the listing is real");
    assert.deepEqual(out.after, []);
  });

  test("a node IPC channel is left open", async () => {
    const out = await inChild(
      `out.closed = closeInheritedFds(); out.connected = process.connected; out.channel = process.env.NODE_CHANNEL_FD;`,
      true,
    );
    assert.equal(out.connected, true);
    assert.ok(!(out.closed as number[]).includes(Number(out.channel)));
  });
});

describe("timeouts under bwrap", needsBwrap(), () => {
  let sandbox: Sandbox;
  before(async () => {
    const home = join(root, "bwrap-home");
    const workspace = join(root, "bwrap-ws");
    mkdirSync(home);
    mkdirSync(workspace);
    sandbox = await createSandbox(
      { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [] },
      { workspace, env: { HOME: home, PATH: ENV.PATH }, allowSetup: false },
    );
  });
  after(() => sandbox?.dispose());

  test("a timeout takes the whole PID namespace, setsid'd and double-forked grandchildren too", async () => {
    const [a, b, c] = [marker(), marker(), marker()];
    const script = `sleep ${a} & setsid sleep ${b} & setsid sh -c 'sleep ${c} &' ; wait`;
    const run = sandbox.run({ argv: ["sh", "-c", script], timeoutMs: 2000 });
    let seen: number[] = [];
    try {
      assert.ok(
        await eventually(() => [a, b, c].every((m) => withMarker(m).length === 1), 1900),
        "all three sleeps were running inside the sandbox",
      );
      seen = [a, b, c].flatMap(withMarker);
      const result = await run;
      assert.equal(result.timedOut, true);
      assert.ok(
        await eventually(() => [a, b, c].every((m) => withMarker(m).length === 0)),
        "a sleep survived",
      );
    } finally {
      await run.catch(() => undefined);
      reap(seen);
    }
  });

  test("cancelling takes the namespace too", async () => {
    const m = marker();
    const controller = new AbortController();
    const run = sandbox.run({
      argv: ["sh", "-c", `setsid sleep ${m} & wait`],
      signal: controller.signal,
    });
    let seen: number[] = [];
    try {
      assert.ok(await eventually(() => withMarker(m).length === 1));
      seen = withMarker(m);
      controller.abort();
      const result = await run;
      assert.equal(result.cancelled, true);
      assert.ok(await eventually(() => withMarker(m).length === 0), "the sleep survived");
    } finally {
      await run.catch(() => undefined);
      reap(seen);
    }
  });

  test("an abort in bwrap's first milliseconds still takes the namespace", async () => {
    const scripts: string[] = [];
    const marks: string[] = [];
    for (let delay = 0; delay < 24; delay++) {
      const m = marker();
      marks.push(m);
      scripts.push(`setsid sleep ${m} & wait`);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), delay).unref();
      await sandbox.run({ argv: ["sh", "-c", scripts.at(-1) ?? ""], signal: controller.signal });
    }
    await sleep(300);
    // Anything still running one of these scripts (the inner bwrap, sh, the sleep) survived.
    const survivors = withArgument([...scripts, ...marks]);
    reap(survivors);
    assert.deepEqual(
      survivors,
      [],
      `${survivors.length} processes of ${scripts.length} sandboxes survived`,
    );
  });

  test("the exit status and a flood come through bwrap unchanged", async () => {
    const result = await sandbox.run({ argv: ["sh", "-c", "yes | head -c 50000000; exit 3"] });
    assert.equal(result.exitCode, 3);
    assert.equal(result.stdout.bytes, 50_000_000);
    assert.equal(result.stdout.truncated, true);
    assert.ok(Buffer.byteLength(result.stdout.text) <= DEFAULT_SETTINGS.limits.outputBytes + 200);
  });

  test("stdin reaches the command inside", async () => {
    const result = await sandbox.run({ argv: ["cat"], stdin: "through the walls\n" });
    assert.equal(result.stdout.text, "through the walls\n");
  });
});
