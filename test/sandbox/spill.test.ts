/**
 * The spill folder of a real sandbox: where resolvePolicy puts it, how Sandbox.spill names and
 * writes its files, that a command reads them read-only at /tmp/pitcrew-spill, and that dispose
 * sweeps them.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { DEFAULT_SETTINGS, SPILL_MOUNT } from "../../src/sandbox/policy.ts";
import { resolvePolicy } from "../../src/sandbox/resolve.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-spill-test-")));
after(() => rmSync(root, { recursive: true, force: true }));

function repo(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

describe("resolvePolicy: the spill folder", () => {
  test("bwrap: a private folder in the state folder, seen at /tmp/pitcrew-spill", () => {
    const stateDir = join(root, "state-bwrap");
    mkdirSync(stateDir);
    const policy = resolvePolicy(
      { ...DEFAULT_SETTINGS, backend: "bwrap" },
      { workspace: repo("resolve-bwrap"), env: { HOME: root, PATH: "/usr/bin:/bin" }, stateDir },
    );
    assert.deepEqual(policy.spill, { source: join(stateDir, "spill"), target: SPILL_MOUNT });
    assert.ok(statSync(join(stateDir, "spill")).isDirectory());
    assert.equal(statSync(join(stateDir, "spill")).mode & 0o777, 0o700);
  });

  test("seatbelt and none: commands read the real path", () => {
    const stateDir = join(root, "state-none");
    mkdirSync(stateDir);
    const policy = resolvePolicy(
      { ...DEFAULT_SETTINGS, backend: "none" },
      { workspace: repo("resolve-none"), env: { HOME: root, PATH: "/usr/bin:/bin" }, stateDir },
    );
    const source = join(stateDir, "spill");
    assert.deepEqual(policy.spill, { source, target: source });
  });

  test("bwrap refuses a workspace that is /tmp or lies inside the spill mount", () => {
    assert.throws(
      () =>
        resolvePolicy(
          { ...DEFAULT_SETTINGS, backend: "bwrap" },
          { workspace: "/tmp", env: { HOME: root, PATH: "/usr/bin:/bin" } },
        ),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "sandbox-workspace-too-wide" &&
        error.message.includes(SPILL_MOUNT),
    );
  });
});

describe("Sandbox.spill in a real bwrap sandbox", needsBwrap(), () => {
  let sandbox: Sandbox;
  let workspace: string;
  before(async () => {
    workspace = repo("sandbox");
    sandbox = await createSandbox(
      { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
      { workspace, env: { HOME: root, PATH: "/usr/bin:/bin" }, allowSetup: false },
    );
  });
  after(() => sandbox?.dispose());

  const folder = (): string => sandbox.policy.spill?.source ?? "";
  const sh = (script: string) => sandbox.run({ argv: ["bash", "-c", script] });

  test("writes a read-only file named after the call id and returns its path inside", () => {
    const path = sandbox.spill("call_abc-1", "hello\n");
    assert.equal(path, `${SPILL_MOUNT}/call_abc-1.txt`);
    const file = join(folder(), "call_abc-1.txt");
    assert.equal(readFileSync(file, "utf8"), "hello\n");
    assert.equal(statSync(file).mode & 0o777, 0o400);
  });

  test("an id is reduced to [A-Za-z0-9_-]; an empty one still gets a name", () => {
    assert.equal(sandbox.spill("../../etc/passwd", "x"), `${SPILL_MOUNT}/______etc_passwd.txt`);
    assert.equal(sandbox.spill("", "x"), `${SPILL_MOUNT}/output.txt`);
    assert.equal(sandbox.spill("a b\nc", "x"), `${SPILL_MOUNT}/a_b_c.txt`);
    for (const name of readdirSync(folder())) assert.match(name, /^[A-Za-z0-9_-]+\.txt$/);
  });

  test("an existing file is never replaced or followed: the next name is used", () => {
    writeFileSync(join(folder(), "dup.txt"), "first\n");
    assert.equal(sandbox.spill("dup", "second\n"), `${SPILL_MOUNT}/dup-2.txt`);
    assert.equal(sandbox.spill("dup", "third\n"), `${SPILL_MOUNT}/dup-3.txt`);
    assert.equal(readFileSync(join(folder(), "dup.txt"), "utf8"), "first\n");
    assert.equal(readFileSync(join(folder(), "dup-3.txt"), "utf8"), "third\n");
  });

  test("a command reads the file at the path given, and can neither change nor remove it", async () => {
    const path = sandbox.spill("readonly", "line 1\nline 2\nline 3\n");
    const read = await sh(`sed -n '2p' ${path}; grep -c line ${path}`);
    assert.equal(read.stdout.text, "line 2\n3\n");
    const write = await sh(
      `echo x >> ${path}; echo "append=$?"; rm -f ${path}; echo "rm=$?"; touch ${SPILL_MOUNT}/new; echo "touch=$?"; rm -rf ${SPILL_MOUNT}; mv ${SPILL_MOUNT} /tmp/moved; echo "mv=$?"`,
    );
    assert.match(write.stdout.text, /^append=1\nrm=1\ntouch=1\nmv=1\n$/);
    assert.match(write.stderr.text, /Read-only file system/);
    assert.equal(readFileSync(join(folder(), "readonly.txt"), "utf8"), "line 1\nline 2\nline 3\n");
    const again = await sh(`cat ${path}`);
    assert.equal(again.stdout.text, "line 1\nline 2\nline 3\n");
  });

  test("the spill folder is not in the workspace, and nothing appears there", async () => {
    await sh("true");
    assert.ok(!folder().startsWith(workspace));
    assert.equal(
      execFileSync("git", ["status", "--porcelain"], { cwd: workspace, encoding: "utf8" }),
      "",
    );
  });

  test("dispose sweeps the spill files", async () => {
    const other = await createSandbox(
      { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
      { workspace, env: { HOME: root, PATH: "/usr/bin:/bin" }, allowSetup: false },
    );
    other.spill("call_1", "kept until the end\n");
    const source = other.policy.spill?.source ?? "";
    assert.ok(existsSync(join(source, "call_1.txt")));
    other.dispose();
    assert.equal(existsSync(source), false);
    assert.throws(
      () => other.spill("call_2", "too late\n"),
      (error: unknown) => error instanceof PitcrewError && error.code === "sandbox-spill-failed",
    );
  });
});
