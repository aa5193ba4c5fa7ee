/**
 * What the bwrap sandbox adds to each command, as the harness sees it: `sandbox.run` with the
 * default settings (prlimit + bwrap + seccomp, on a temporary git repository) against a bare
 * spawn of the same argv through the same runner (`runContained`, plain environment, no
 * prlimit, no bwrap). Variants run interleaved, round after round, so machine noise falls on all
 * of them alike; every time is the wall clock around one awaited call. For `true` the wrapper
 * is also taken apart (bwrap without and with seccomp, prlimit alone) to show where the cost
 * goes. Method follows docs/research sandbox.md §5: warm-up, then N runs, min/p10/median/p90.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { Server } from "node:net";
import { cpus, release, tmpdir } from "node:os";
import { join } from "node:path";
import { hostSocketPaths } from "../src/sandbox/host-sockets.ts";
import { findBwrap } from "../src/sandbox/probe.ts";
import { DEFAULT_SETTINGS } from "../src/sandbox/policy.ts";
import { runContained } from "../src/sandbox/runner.ts";
import { seeded } from "../test/support/random.ts";
import { interleaved, stats } from "./rounds.ts";
import type { Stats } from "./rounds.ts";
import type { RunResult } from "../src/sandbox/runner.ts";
import { createSandbox } from "../src/sandbox/sandbox.ts";
import type { Sandbox } from "../src/sandbox/sandbox.ts";
import type { BenchOptions } from "./run.ts";

export const name = "sandbox-latency";
export const description =
  "median latency the bwrap sandbox adds per command (full policy vs bare spawn)";

/** The goal from the sandbox design: what a fresh sandbox per command may cost. */
export const GOAL_ADDED_MS = 8;

const DEFAULT_RUNS = 100;
const DEFAULT_WARMUP = 10;
/** The grep tree: files spread over folders, about TREE_BYTES of text in all. */
const TREE_DIRS = 50;
const TREE_FILES_PER_DIR = 60;
const TREE_BYTES = 50 * 1024 * 1024;
/** Appears in NEEDLE_FILES files only; the generated words are lower case, so never by chance. */
const NEEDLE = "PITCREW_BENCH_NEEDLE_7c1f";
const NEEDLE_FILES = 3;
const TIMEOUT_MS = 60_000;
/** The smallest bwrap that needs what the policy needs from the kernel (as probe.ts tries). */
const MINIMAL_BWRAP = [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];
const OUTPUT_BYTES = DEFAULT_SETTINGS.limits.outputBytes;
/** Host listeners on pathname sockets while the cover is measured, so there is something to mask. */
const HOST_SOCKETS = 16;

/** One way of running the command; `run` resolves to the command's result. */
interface Variant {
  label: string;
  run(): Promise<RunResult>;
}

interface Measured {
  label: string;
  stats: Stats;
}

/**
 * Warm-up rounds, then `runs` measured rounds; each round runs every variant once, starting
 * at a different variant each round so none always follows the same neighbour.
 */
async function measure(
  variants: readonly Variant[],
  runs: number,
  warmup: number,
  check: (variant: Variant, result: RunResult) => void,
): Promise<Measured[]> {
  const samples = await interleaved(variants, runs, warmup, async (variant) => {
    const started = performance.now();
    const result = await variant.run();
    const elapsed = performance.now() - started;
    check(variant, result);
    return elapsed;
  });
  return variants.map((variant, index) => ({
    label: variant.label,
    stats: stats(samples[index] ?? []),
  }));
}

/** Writes the grep tree under `root`; returns its file count and size in bytes. */
function generateTree(root: string): { files: number; bytes: number } {
  const random = seeded(0x5eed);
  const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "an", "el"];
  const words = Array.from({ length: 4096 }, () => {
    let word = "";
    const length = 1 + Math.floor(random() * 4);
    for (let i = 0; i < length; i++) word += syllables[Math.floor(random() * syllables.length)];
    return word;
  });
  // A pool of lines; each file takes a run of them from a random start.
  const lines = Array.from({ length: 20_000 }, () => {
    const count = 4 + Math.floor(random() * 12);
    return Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(
      " ",
    );
  });
  const files = TREE_DIRS * TREE_FILES_PER_DIR;
  const needleAt = new Set(
    Array.from({ length: NEEDLE_FILES }, (_, i) => Math.floor(((i + 0.5) * files) / NEEDLE_FILES)),
  );
  let bytes = 0;
  for (let dir = 0; dir < TREE_DIRS; dir++) {
    const dirPath = join(root, `pkg${String(dir).padStart(2, "0")}`);
    mkdirSync(dirPath, { recursive: true });
    for (let file = 0; file < TREE_FILES_PER_DIR; file++) {
      const number = dir * TREE_FILES_PER_DIR + file;
      // Sizes vary (0.25x to 1.75x the mean) but sum to about TREE_BYTES.
      const target = Math.round((TREE_BYTES / files) * (0.25 + 1.5 * random()));
      const chunks: string[] = [];
      let size = 0;
      let line = Math.floor(random() * lines.length);
      while (size < target) {
        const text = lines[line % lines.length] ?? "";
        chunks.push(text);
        size += text.length + 1;
        line++;
      }
      if (needleAt.has(number)) chunks.splice(chunks.length >> 1, 0, `const marker = "${NEEDLE}";`);
      const content = chunks.join("\n") + "\n";
      writeFileSync(join(dirPath, `mod${String(file).padStart(2, "0")}.txt`), content);
      bytes += Buffer.byteLength(content);
    }
  }
  return { files, bytes };
}

/** A temporary git repository shaped like a checkout: one commit, a workflow folder, the tree. */
function createWorkspace(): { workspace: string; files: number; bytes: number } {
  const workspace = mkdtempSync(join(tmpdir(), "pitcrew-bench-"));
  const git = (...args: string[]): void => {
    execFileSync("git", args, {
      cwd: workspace,
      stdio: "ignore",
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: workspace, GIT_CONFIG_NOSYSTEM: "1" },
    });
  };
  git("init", "--quiet");
  mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
  writeFileSync(join(workspace, ".github", "workflows", "ci.yml"), "on: push\njobs: {}\n");
  writeFileSync(join(workspace, "README.md"), "pitcrew benchmark workspace\n");
  git("add", "README.md", ".github");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "init");
  // The tree stays untracked: grep -r does not care, and hashing 50 MB would only slow setup.
  const { files, bytes } = generateTree(join(workspace, "tree"));
  return { workspace, files, bytes };
}

function fmt(ms: number): string {
  return ms.toFixed(2).padStart(7);
}

const LABEL_WIDTH = 56;

function row(label: string, s: Stats): string {
  return `  ${label.padEnd(LABEL_WIDTH)}${fmt(s.min)}${fmt(s.p10)}${fmt(s.median)}${fmt(s.p90)}`;
}

function line(label: string, ms: number, note = ""): string {
  return `  ${label.padEnd(LABEL_WIDTH)}${fmt(ms)} ms${note}`;
}

const HEADER = `  ${"ms".padEnd(LABEL_WIDTH)}${"min".padStart(7)}${"p10".padStart(7)}${"median".padStart(7)}${"p90".padStart(7)}`;

/** The bwrap argv alone, without prlimit; optionally without the `--seccomp 3` pair. */
function bwrapOnly(prepared: string[], command: readonly string[], seccomp: boolean): string[] {
  if (prepared[0] !== "prlimit") throw new Error(`expected prlimit first, got ${prepared[0]}`);
  const argv = prepared.slice(prepared.indexOf("--") + 1);
  if (seccomp) return argv;
  const separator = argv.length - command.length - 1;
  if (argv[separator] !== "--" || argv[separator - 2] !== "--seccomp") {
    throw new Error("prepared bwrap argv does not end in `--seccomp FD -- command`");
  }
  return [...argv.slice(0, separator - 2), ...argv.slice(separator)];
}

/** `argv` without its host-socket masks (`--ro-bind /dev/null <socket>`). */
function withoutMasks(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let at = 0; at < argv.length; at++) {
    if (argv[at] === "--ro-bind" && argv[at + 1] === "/dev/null") at += 2;
    else kept.push(argv[at] ?? "");
  }
  return kept;
}

/** prlimit with the policy's limits in front of the bare command. */
function prlimitOnly(prepared: string[], command: readonly string[]): string[] {
  return [...prepared.slice(0, prepared.indexOf("--") + 1), ...command];
}

interface CommandResult {
  title: string;
  /** For the goal lines. */
  short: string;
  bare: Stats;
  full: Stats;
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);

  if (process.platform !== "linux") {
    out(`${name}: skipped: the bwrap sandbox runs on Linux only. Nothing measured.`);
    return;
  }
  if (findBwrap() === null) {
    out(
      `${name}: skipped: bubblewrap (bwrap) is not installed, so there is no sandbox to measure. Install it with \`sudo apt-get install -y bubblewrap\`. Nothing measured.`,
    );
    return;
  }

  const setupStarted = performance.now();
  const { workspace, files, bytes } = createWorkspace();
  let sandbox: Sandbox | undefined;
  try {
    // allowSetup: false — a benchmark must not install packages or change sysctls.
    sandbox = await createSandbox(
      { ...DEFAULT_SETTINGS, backend: "bwrap" },
      { workspace, allowSetup: false },
    );
    const box = sandbox;
    const policy = box.policy;
    // The bare spawn gets a plain environment, with the sandbox's locale so grep matches alike.
    const bareEnv: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin" };
    for (const [key, value] of Object.entries(policy.env)) {
      if (key === "LANG" || key === "LANGUAGE" || key.startsWith("LC_")) bareEnv[key] = value;
    }
    const bare = (argv: readonly string[]): Promise<RunResult> =>
      runContained({
        argv,
        env: bareEnv,
        cwd: policy.workspace,
        timeoutMs: TIMEOUT_MS,
        outputBytes: OUTPUT_BYTES,
      });
    const contained = (argv: string[], env: Record<string, string>, seccomp?: Buffer) => {
      return (): Promise<RunResult> =>
        runContained({
          argv,
          env,
          fd3Data: seccomp,
          timeoutMs: TIMEOUT_MS,
          outputBytes: OUTPUT_BYTES,
        });
    };

    const probe = box.probe;
    const sample = box.prepare({ argv: ["true"] });
    const binds = sample.argv.filter((arg) => arg === "--bind" || arg === "--ro-bind").length;
    const tmpfs = sample.argv.filter((arg) => arg === "--tmpfs").length;
    out(`${name}: ${description}`);
    out(
      `  host: linux ${release()} ${process.arch}, ${cpus().length} CPUs, node ${process.version}, uid ${process.getuid?.() ?? "?"}; bwrap ${probe?.version ?? "?"} at ${probe?.bwrapPath ?? "?"}`,
    );
    out(
      `  policy: DEFAULT_SETTINGS, backend bwrap; prepared argv has ${sample.argv.length} words (${binds} binds, ${tmpfs} tmpfs, seccomp ${sample.seccomp ? "on" : "off"}), ${policy.readOnly.length} protected paths, ${policy.overlays.length} git config overlays`,
    );
    out(
      `  workspace: temporary git repository, grep tree of ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB (setup ${((performance.now() - setupStarted) / 1000).toFixed(1)} s)`,
    );
    out(
      `  method: ${warmup} warm-up + ${runs} measured runs per variant, interleaved round-robin (start rotated each round); ms of wall clock around each awaited call`,
    );
    out(`  full = sandbox.run(); bare = runContained() with the same argv, plain env, no wrapper`);

    const results: CommandResult[] = [];

    // --- true: full vs bare, plus the split of the wrapper ---
    const trueArgv = ["true"];
    const truePrepared = box.prepare({ argv: trueArgv });
    const expectExit0 = (variant: Variant, result: RunResult): void => {
      if (result.exitCode !== 0 || result.timedOut) {
        throw new Error(
          `${variant.label}: exit ${result.exitCode} signal ${result.signal}${result.timedOut ? " (timed out)" : ""}: ${result.stderr.text.trim().slice(0, 500)}`,
        );
      }
    };
    const trueVariants: Variant[] = [
      { label: "bare (runContained)", run: () => bare(trueArgv) },
      { label: "full (sandbox.run)", run: () => box.run({ argv: trueArgv }) },
      {
        label: "prlimit + command, no bwrap",
        run: () => bare(prlimitOnly(truePrepared.argv, trueArgv)),
      },
      {
        label: "bwrap minimal: user/pid/net ns, /, /dev, /proc",
        run: contained(
          [box.probe?.bwrapPath ?? "bwrap", ...MINIMAL_BWRAP, "--", ...trueArgv],
          truePrepared.env,
        ),
      },
      {
        label: "bwrap, policy argv, no seccomp, no prlimit",
        run: contained(bwrapOnly(truePrepared.argv, trueArgv, false), truePrepared.env),
      },
      {
        label: "bwrap, policy argv + seccomp, no prlimit",
        run: contained(
          bwrapOnly(truePrepared.argv, trueArgv, true),
          truePrepared.env,
          truePrepared.seccomp,
        ),
      },
    ];
    const trueMeasured = await measure(trueVariants, runs, warmup, expectExit0);
    const [tBare, tFull, tPrlimit, tMinimal, tBwrap, tBwrapSeccomp] = trueMeasured.map(
      (m) => m.stats,
    );
    if (!tBare || !tFull || !tPrlimit || !tMinimal || !tBwrap || !tBwrapSeccomp) {
      throw new Error("lost a variant");
    }
    results.push({ title: "true", short: "true", bare: tBare, full: tFull });

    // --- grep -r over the tree: full vs bare ---
    const grepArgv = ["grep", "-rF", NEEDLE, "tree"];
    let bareOut: string | undefined;
    let fullOut: string | undefined;
    const grepCheck = (variant: Variant, result: RunResult): void => {
      expectExit0(variant, result);
      const text = result.stdout.text;
      if (variant.label === "bare") bareOut ??= text;
      else fullOut ??= text;
      const found = text.split("\n").filter(Boolean).length;
      if (found !== NEEDLE_FILES) {
        throw new Error(`${variant.label}: grep found ${found} lines, expected ${NEEDLE_FILES}`);
      }
    };
    const grepMeasured = await measure(
      [
        { label: "bare", run: () => bare(grepArgv) },
        { label: "full (sandbox.run)", run: () => box.run({ argv: grepArgv }) },
      ],
      runs,
      warmup,
      grepCheck,
    );
    if (bareOut !== fullOut) throw new Error("grep printed different lines bare and sandboxed");
    const [gBare, gFull] = grepMeasured.map((m) => m.stats);
    if (!gBare || !gFull) throw new Error("lost a variant");
    results.push({
      title: `${grepArgv.join(" ")}   (${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB)`,
      short: "grep -r",
      bare: gBare,
      full: gFull,
    });

    // --- the host-socket cover (issue 10 §2): the scan before each command and its masks ---
    const socketFolder = mkdtempSync("/var/tmp/pitcrew-bench-sockets-");
    const servers = await Promise.all(
      Array.from({ length: HOST_SOCKETS }, (_, index) => {
        const server = createServer();
        return new Promise<Server>((resolve) =>
          server.listen(join(socketFolder, `s${index}.sock`), () => resolve(server)),
        );
      }),
    );
    let cover: { with: Stats; without: Stats; scan: Stats; masks: number };
    try {
      const masked = box.prepare({ argv: trueArgv });
      const unmasked = withoutMasks(masked.argv);
      const masks = (masked.argv.length - unmasked.length) / 3;
      const coverMeasured = await measure(
        [
          { label: "full (sandbox.run): scan + masks", run: () => box.run({ argv: trueArgv }) },
          {
            label: "same argv, no masks, no scan",
            run: contained(unmasked, masked.env, masked.seccomp),
          },
        ],
        runs,
        warmup,
        expectExit0,
      );
      const scans: number[] = [];
      for (let index = 0; index < warmup + runs; index++) {
        const started = performance.now();
        hostSocketPaths();
        if (index >= warmup) scans.push(performance.now() - started);
      }
      const [withCover, withoutCover] = coverMeasured.map((m) => m.stats);
      if (!withCover || !withoutCover) throw new Error("lost a variant");
      cover = { with: withCover, without: withoutCover, scan: stats(scans), masks };
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      rmSync(socketFolder, { recursive: true, force: true });
    }

    // --- report ---
    for (const result of results) {
      out();
      out(`command: ${result.title}`);
      out(HEADER);
      out(row("bare (runContained, plain env)", result.bare));
      out(row("full (sandbox.run, default policy)", result.full));
      const added = result.full.median - result.bare.median;
      const ratio = result.full.median / result.bare.median;
      out(line("added (median full − median bare)", added, `, ratio ${ratio.toFixed(2)}×`));
    }

    out();
    out("cost split for `true` (measured in the same interleaved rounds as `true` above):");
    out(HEADER);
    for (const measured of trueMeasured) out(row(measured.label, measured.stats));
    out("  where the added median goes (differences of medians):");
    out(
      line("bwrap's namespaces + /, /dev, /proc (minimal − bare)", tMinimal.median - tBare.median),
    );
    out(
      line(
        "rest of the policy's bwrap argv (no seccomp − minimal)",
        tBwrap.median - tMinimal.median,
      ),
    );
    out(line("seccomp filter (+ seccomp − no seccomp)", tBwrapSeccomp.median - tBwrap.median));
    out(line("prlimit + harness (full − bwrap + seccomp)", tFull.median - tBwrapSeccomp.median));
    out(line("  total (full − bare)", tFull.median - tBare.median));
    out(line("prlimit alone, for comparison (prlimit − bare)", tPrlimit.median - tBare.median));

    out();
    out(
      `host-socket cover for \`true\` (${HOST_SOCKETS} host listeners in /var/tmp while measured; ${cover.masks} masks in the argv):`,
    );
    out(HEADER);
    out(row("full (sandbox.run): scan + masks", cover.with));
    out(row("same argv without the masks and the scan", cover.without));
    out(
      row(
        `the scan alone (hostSocketPaths, ${readdirSync("/proc").length} /proc entries)`,
        cover.scan,
      ),
    );
    out(
      line(
        "added by the cover (median with − median without)",
        cover.with.median - cover.without.median,
        `, ratio ${(cover.with.median / cover.without.median).toFixed(2)}×`,
      ),
    );

    out();
    out(`goal: ≤ ${GOAL_ADDED_MS} ms median added per command`);
    let allMet = true;
    for (const result of results) {
      const added = result.full.median - result.bare.median;
      const met = added <= GOAL_ADDED_MS;
      allMet &&= met;
      out(line(result.short, added, `  ${met ? "met" : "NOT met"}`));
    }
    out(`  overall: ${allMet ? "met" : "NOT met"}`);
  } finally {
    sandbox?.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
}
