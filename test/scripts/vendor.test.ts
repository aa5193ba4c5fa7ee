/**
 * `npm run vendor -- <repo>` for real: the script copies the action into a temporary git
 * checkout, the copy is compared with dist/ byte for byte, the commands it prints are run as
 * printed, and the vendored main and post steps are started from the copy the way the runner
 * starts them (`node <action>/dist/index.js`), far enough to say there is nothing to do.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { parse } from "yaml";
import { SHELL_PARSER_ASSETS } from "../../src/agent/shell/assets.ts";

const ROOT = join(import.meta.dirname, "../..");
const SCRIPT = join(ROOT, "scripts/vendor.mjs");
const DIST = join(ROOT, "dist");
const VENDORED = ".github/actions/pitcrew";
const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-vendor-")));
after(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function vendor(args: string[], cwd = ROOT): Run {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();
}

let repos = 0;
/** A checkout of an ordinary project: a README, a CI workflow, a CommonJS package.json. */
function project(files: Record<string, string> = {}): string {
  const repo = join(root, `repo-${++repos}`);
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.email", "dev@example.com");
  git(repo, "config", "user.name", "Dev");
  const all: Record<string, string> = {
    "README.md": "# app\n",
    "package.json": '{ "name": "app", "type": "commonjs" }\n',
    ".github/workflows/ci.yml": "on: push\njobs: {}\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  return repo;
}

/** Every file under `dir`, relative, sorted, with its bytes. */
function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(dir, name);
    try {
      files.set(name, readFileSync(path));
    } catch {
      // a folder
    }
  }
  return files;
}

/** The runner's environment for a JavaScript action step, in a scratch folder. */
function runnerEnv(workspace: string, eventName: string, payload: unknown): Record<string, string> {
  const runner = mkdtempSync(join(root, "runner-"));
  writeFileSync(join(runner, "event.json"), JSON.stringify(payload));
  for (const file of ["output", "state", "summary"]) writeFileSync(join(runner, file), "");
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: runner,
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: join(runner, "event.json"),
    GITHUB_REPOSITORY: "octo/app",
    GITHUB_RUN_ID: "7",
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: join(runner, "output"),
    GITHUB_STATE: join(runner, "state"),
    GITHUB_STEP_SUMMARY: join(runner, "summary"),
    RUNNER_TEMP: runner,
    "INPUT_API-KEY": "sk-vendor-test-0123456789",
    "INPUT_GITHUB-TOKEN": "ghs_vendorTestToken0123456789abcdefghij",
  };
}

/** `node <file>` as the runner starts a step: in the workspace, with only its environment. */
function step(workspace: string, file: string, env: Record<string, string>): Run {
  const run = spawnSync(process.execPath, [file], { cwd: workspace, env, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
  runs: { using: string; main: string; post: string };
};

describe("npm run vendor: a copy of the action in another repository", () => {
  const repo = project({ ".gitignore": "node_modules/\ndist/\n" });
  const before = tree(repo);
  const run = vendor([repo]);
  const copy = tree(join(repo, VENDORED));

  test("it says what it wrote, byte for byte what dist/ holds, and nothing else changed", () => {
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    const names = [...copy.keys()];
    assert.ok(names.includes("action.yml") && names.includes("package.json"));
    assert.deepEqual(copy.get("action.yml"), readFileSync(join(ROOT, "action.yml")));
    const copied = names.filter((name) => name.startsWith("dist/"));
    for (const name of copied) {
      assert.ok(copy.get(name)!.equals(readFileSync(join(ROOT, name))), `${name} differs`);
      assert.match(run.stdout, new RegExp(`^  ${name.replace(/\./g, "\\.")} `, "m"));
    }
    assert.deepEqual(names.sort(), ["action.yml", ...copied, "package.json"].sort());
    assert.match(run.stdout, new RegExp(`^${names.length} files, `, "m"));
    assert.match(run.stdout, /Nothing outside \.github\/actions\/pitcrew\/ was changed/);
    // Every file that was there is there, unchanged; the only new ones are the copy's.
    const after = tree(repo);
    for (const [name, bytes] of before) assert.ok(after.get(name)?.equals(bytes), name);
    const added = [...after.keys()].filter((name) => !before.has(name));
    assert.deepEqual(added.sort(), names.map((name) => `${VENDORED}/${name}`).sort());
    assert.equal(git(repo, "rev-list", "--count", "HEAD"), "1", "the script committed");
  });

  test("the copy holds what action.yml runs, what those import, and the shell parser", () => {
    assert.equal(action.runs.using, "node24");
    for (const entry of [action.runs.main, action.runs.post]) {
      assert.ok(copy.has(entry), `${entry} (action.yml) was not copied`);
    }
    for (const { file } of SHELL_PARSER_ASSETS) assert.ok(copy.has(`dist/${file}`), file);
    for (const [name, bytes] of copy) {
      if (!name.endsWith(".js")) continue;
      for (const match of bytes.toString("utf8").matchAll(/"\.\/([^"/]+\.js)"/g)) {
        assert.ok(copy.has(`dist/${match[1]}`), `${name} imports ${match[1]}, not copied`);
      }
    }
    assert.ok(!copy.has("dist/cli.js"), "the CLI is not part of the action");
  });

  test("package.json makes Node load the copy as ES modules in a CommonJS repository", () => {
    const pkg = JSON.parse(copy.get("package.json")!.toString("utf8")) as Record<string, unknown>;
    assert.equal(pkg.type, "module");
    assert.equal(pkg.private, true);
    assert.equal(pkg.name, "pitcrew-vendored");
  });

  test("the commands it prints commit the copy, dist/ included though .gitignore ignores it", () => {
    const commands = run.stdout
      .split("\n")
      .filter((line) => line.startsWith(`  git -C ${repo} `))
      .map((line) => line.trim());
    assert.deepEqual(
      commands.map((line) => line.split(" ").slice(0, 5).join(" ")),
      [`git -C ${repo} add -f`, `git -C ${repo} commit -m`],
    );
    assert.match(run.stdout, /-f because the repository's \.gitignore ignores/);
    for (const command of commands) execFileSync("sh", ["-c", command], { stdio: "ignore" });
    const committed = git(repo, "show", "--name-only", "--format=", "HEAD").split("\n").sort();
    assert.deepEqual(committed, [...copy.keys()].map((name) => `${VENDORED}/${name}`).sort());
    assert.equal(git(repo, "status", "--porcelain", "--ignored", "--", VENDORED), "");
    assert.match(run.stdout, /^ {2}- uses: \.\/\.github\/actions\/pitcrew$/m);
    assert.match(run.stdout, /it is read-only in the agent's sandbox/);
  });

  test("the vendored main step starts from the copy and finds nothing to do in a push event", () => {
    const env = runnerEnv(repo, "push", { ref: "refs/heads/main" });
    const main = step(repo, join(repo, VENDORED, action.runs.main), env);
    assert.equal(main.status, 0, main.stderr);
    assert.match(main.stdout, /^nothing to do: pitcrew does not act on push events$/m);
    assert.match(readFileSync(env.GITHUB_OUTPUT!, "utf8"), /^conclusion<<(\S+)\nskipped\n\1$/m);
    const post = step(repo, join(repo, VENDORED, action.runs.post), env);
    assert.equal(post.status, 0, post.stderr);
    assert.match(post.stdout, /pitcrew post: the main step started no work; nothing to save\./);
  });

  test("without its package.json the copy would not even load here (the control)", () => {
    const bare = join(root, "without-package-json");
    mkdirSync(bare);
    writeFileSync(join(bare, "package.json"), '{ "type": "commonjs" }\n');
    mkdirSync(join(bare, "dist"));
    for (const [name, bytes] of copy) {
      if (name.startsWith("dist/")) writeFileSync(join(bare, name), bytes);
    }
    const env = runnerEnv(repo, "push", { ref: "refs/heads/main" });
    const main = step(repo, join(bare, action.runs.main), env);
    assert.notEqual(main.status, 0);
    assert.match(main.stderr, /SyntaxError|Cannot use import statement/);
  });
});

describe("npm run vendor: updating a copy", () => {
  test("a second run replaces dist/ wholesale: a chunk of an older version does not linger", () => {
    const repo = project();
    assert.equal(vendor([repo]).status, 0);
    const stale = join(repo, VENDORED, "dist", "chunk-OLDVERSION.js");
    writeFileSync(stale, "export {};\n");
    const again = vendor([repo]);
    assert.equal(again.status, 0, again.stderr);
    assert.ok(!existsSync(stale), "the old chunk is still there");
    assert.ok(readFileSync(join(repo, "README.md"), "utf8") === "# app\n");
    assert.doesNotMatch(again.stdout, / add -f /, "nothing ignores dist/ here: a plain git add");
  });

  test("allow-protected-changes: true needs no warning: the copy stays protected (T67)", () => {
    const repo = project({ ".github/pitcrew.yml": "allow-protected-changes: true\n" });
    const run = vendor([repo]);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /WARNING/);
    assert.match(
      run.stdout,
      /even where \.github\/pitcrew\.yml sets allow-protected-changes: true/,
    );
  });

  test("through npm: `npm run vendor -- <repo>` runs the same script", () => {
    const repo = project();
    // npm on PATH, run by the Node that runs the tests (the one first on PATH may be older).
    const run = spawnSync("npm", ["run", "--silent", "vendor", "--", repo], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
    });
    assert.equal(run.error, undefined, "npm is not on PATH");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Vendored pitcrew /);
    assert.ok(existsSync(join(repo, VENDORED, action.runs.main)));
  });
});

describe("npm run vendor: what it refuses, touching nothing", () => {
  /** Runs the script on `target` and checks it refused with `message` and left `watch` as it was. */
  function refused(target: string, message: RegExp, watch = target, status = 1): void {
    const before = tree(watch);
    const run = vendor([target]);
    assert.equal(run.status, status, run.stdout + run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, message);
    assert.deepEqual([...tree(watch).keys()], [...before.keys()], "something was written");
  }

  test("a folder that is not a git checkout", () => {
    const plain = join(root, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "file.txt"), "x\n");
    refused(plain, /^vendor: .*plain is not a git checkout; pass the top folder of the repository/);
  });

  test("a folder that does not exist, and a file", () => {
    refused(join(root, "missing"), /^vendor: .*missing does not exist\.$/m, root);
    writeFileSync(join(root, "a-file"), "x\n");
    refused(join(root, "a-file"), /is not a folder; pass the top folder of a git checkout/, root);
  });

  test("a bare repository", () => {
    const bare = join(root, "bare.git");
    execFileSync("git", ["init", "-q", "--bare", bare]);
    refused(bare, /bare\.git is a bare repository: it has no files for a workflow to run/);
  });

  test("a folder inside a checkout, naming the top folder instead", () => {
    const repo = project();
    refused(
      join(repo, ".github"),
      new RegExp(
        `is inside the checkout ${repo}, not its top folder; .*npm run vendor -- ${repo}$`,
        "m",
      ),
      repo,
    );
  });

  test("a .github/actions/pitcrew that this script did not make", () => {
    const repo = project({ [`${VENDORED}/action.yml`]: "name: mine\nruns:\n  using: composite\n" });
    refused(repo, /exists and is not a copy this script made/, repo);
  });

  test("a .github that is a symbolic link out of the checkout", () => {
    const repo = project();
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    rmSync(join(repo, ".github"), { recursive: true });
    symlinkSync(elsewhere, join(repo, ".github"));
    refused(repo, /\.github is a symbolic link; pitcrew writes only into real folders/, elsewhere);
  });

  test("pitcrew's own checkout, and a command line without a target", () => {
    refused(ROOT, /That is pitcrew's own checkout/, join(ROOT, ".github"));
    const none = vendor([]);
    assert.equal(none.status, 2);
    assert.match(
      none.stderr,
      /^vendor: Name the repository to copy the action into, .*\nusage: npm run vendor -- <target repository>/,
    );
  });

  test("dist/ missing a file the action loads", () => {
    const partial = join(root, "partial-dist");
    mkdirSync(partial);
    writeFileSync(join(partial, "index.js"), readFileSync(join(DIST, action.runs.main.slice(5))));
    const repo = project();
    const before = tree(repo);
    const run = vendor([repo, "--dist", partial]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /partial-dist\/\S+ is missing, but the action loads it; run `npm run build` first\./,
    );
    assert.deepEqual([...tree(repo).keys()], [...before.keys()]);
  });
});
