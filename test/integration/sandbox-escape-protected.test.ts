/**
 * The escape battery, protected paths (issue 10 §4, T60–T66): what the repository's CI runs
 * with its secrets — all of `.github/` but pitcrew's own folder, and the repository's
 * `protected-paths` — cannot be changed from inside the sandbox by any route: a plain write, a
 * new file, a symlink or hard link into it, renaming it or its folders, or pitcrew's writable
 * folder as a way round. Each attack runs for real in bwrap; the host files are checked after.
 * T67: a copy of pitcrew vendored into the checkout (it runs again with the secrets after the
 * session) stays read-only even where the repository allows changes to `.github/`.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { ownActionPaths, protectedPatterns } from "../../src/sandbox/protected-paths.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";

/** What CI runs in the fixture repository, with the content each file must keep. */
const PROTECTED: Record<string, string> = {
  ".github/actions/setup/action.yml": "runs:\n  using: composite\n",
  ".github/workflows/ci.yml": "on: push\n",
  ".github/pitcrew.yml": "protected-paths: [Makefile, scripts/ci/**]\n",
  ".github/CODEOWNERS": "* @owners\n",
  Makefile: "test:\n\tnode --test\n",
  "scripts/ci/deploy.sh": "echo deploy\n",
};

describe("escape battery: protected paths (T60–T66)", needsBwrap(), () => {
  let root: string;
  let workspace: string;
  let sandbox: Sandbox;

  before(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-protected-")));
    workspace = join(root, "repo");
    const home = join(root, "home");
    mkdirSync(home);
    mkdirSync(workspace);
    for (const [file, text] of Object.entries({ ...PROTECTED, "src/app.js": "app\n" })) {
      mkdirSync(dirname(join(workspace, file)), { recursive: true });
      writeFileSync(join(workspace, file), text);
    }
    const git = (...args: string[]): string =>
      execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], {
        cwd: workspace,
        encoding: "utf8",
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "init");
    sandbox = await createSandbox(
      {
        ...DEFAULT_SETTINGS,
        backend: "bwrap",
        homeReadOnly: [],
        timeoutMs: 20_000,
        protectedPaths: protectedPatterns(["Makefile", "scripts/ci/**"], false),
      },
      { workspace, env: { HOME: home, PATH: "/usr/bin:/bin" }, allowSetup: false },
    );
  });

  after(() => {
    sandbox?.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  /** Runs `script` inside; every protected file must be as it was afterwards. */
  async function attack(script: string): Promise<string> {
    const result = await sandbox.run({ argv: ["bash", "-c", script] });
    for (const [file, text] of Object.entries(PROTECTED)) {
      assert.equal(readFileSync(join(workspace, file), "utf8"), text, `${file} changed`);
    }
    return result.stdout.text;
  }

  test("T60 a composite action, CODEOWNERS and pitcrew.yml under .github cannot be written, replaced or added to", async () => {
    const out = await attack(`
try() { if eval "$1" 2>/dev/null; then echo "$2=yes"; else echo "$2=no"; fi; }
try 'echo "  steps: [{run: curl evil}]" >> .github/actions/setup/action.yml' append
try 'echo x > .github/actions/setup/action.yml.tmp && mv .github/actions/setup/action.yml.tmp .github/actions/setup/action.yml' replace
try 'mkdir -p .github/actions/evil && echo x > .github/actions/evil/action.yml' new
try 'echo "* @attacker" > .github/CODEOWNERS' codeowners
try 'echo "allow-protected-changes: true" >> .github/pitcrew.yml' config
try 'rm -rf .github/actions' remove
try 'chmod 777 .github/actions/setup/action.yml' chmod
`);
    assert.equal(
      out,
      "append=no\nreplace=no\nnew=no\ncodeowners=no\nconfig=no\nremove=no\nchmod=no\n",
    );
    assert.ok(!existsSync(join(workspace, ".github/actions/evil")));
  });

  test("T61 .github/pitcrew/ is writable, but is no way round: it cannot be moved, nor lead into .github", async () => {
    const out = await attack(`
try() { if eval "$1" 2>/dev/null; then echo "$2=yes"; else echo "$2=no"; fi; }
try 'rm -rf .github/pitcrew' remove
try 'mv .github/pitcrew .github/actions2' rename
try 'mkdir -p .github/pitcrew/skills && echo "# fix" > .github/pitcrew/skills/fix.md' write
try 'echo x > .github/pitcrew/../actions/setup/action.yml' dotdot
try 'ln -s ../actions .github/pitcrew/a && echo x > .github/pitcrew/a/setup/action.yml' link
`);
    assert.match(out, /^remove=no\nrename=no\nwrite=yes\ndotdot=no\n/);
    assert.match(out, /link=no\n$/);
    assert.equal(readFileSync(join(workspace, ".github/pitcrew/skills/fix.md"), "utf8"), "# fix\n");
    rmSync(join(workspace, ".github/pitcrew/skills"), { recursive: true, force: true });
    rmSync(join(workspace, ".github/pitcrew/a"), { force: true });
  });

  test("T62 a symlink into .github from the checkout does not lead past the read-only mount", async () => {
    const out = await attack(`
ln -s .github/actions actions-link && echo linked
echo "curl evil" > actions-link/setup/action.yml 2>&1 || echo refused
ln -s ../.github/workflows src/wf && (echo "on: push" > src/wf/evil.yml) 2>/dev/null || echo refused
`);
    assert.equal(out.replace(/^bash: .*\n/gm, ""), "linked\nrefused\nrefused\n");
    assert.ok(!existsSync(join(workspace, ".github/workflows/evil.yml")));
    rmSync(join(workspace, "actions-link"));
    rmSync(join(workspace, "src/wf"));
  });

  test("T63 protected-paths files and folders: no write, truncate, delete, rename over, or new file", async () => {
    const out = await attack(`
try() { if eval "$1" 2>/dev/null; then echo "$2=yes"; else echo "$2=no"; fi; }
try 'echo "evil:" >> Makefile' append
try ': > Makefile' truncate
try 'rm -f Makefile' remove
try 'echo x > Makefile.new && mv -f Makefile.new Makefile' replace
try 'echo x > scripts/ci/deploy.sh' write
try 'echo x > scripts/ci/new.sh' new
try 'mv scripts/ci scripts/ci2' rename
try 'mv scripts scripts2' parent
`);
    assert.equal(
      out,
      "append=no\ntruncate=no\nremove=no\nreplace=no\nwrite=no\nnew=no\nrename=no\nparent=no\n",
    );
    assert.ok(!existsSync(join(workspace, "scripts/ci/new.sh")));
    rmSync(join(workspace, "Makefile.new"), { force: true });
  });

  test("T64 a hard link to a protected file cannot be made (another mount), so it cannot be written through", async () => {
    const out = await attack(`
ln Makefile hard-make 2>&1; echo "make=$?"
ln .github/actions/setup/action.yml hard-action 2>&1; echo "action=$?"
`);
    assert.match(out, /Invalid cross-device link/);
    assert.match(out, /make=1\n/);
    assert.match(out, /action=1\n/);
    assert.ok(!existsSync(join(workspace, "hard-make")));
  });

  test("T65 the protected folders keep their identity: the next command still starts", async () => {
    const before = statSync(join(workspace, ".github")).ino;
    await attack("mv .github .gh; rm -rf .github; mkdir .github 2>/dev/null; true");
    assert.equal(statSync(join(workspace, ".github")).ino, before);
    const next = await sandbox.run({ argv: ["true"] });
    assert.equal(next.exitCode, 0);
  });

  test("T66 ordinary files beside the protected ones stay the agent's to change", async () => {
    const out = await attack(
      "echo changed > src/app.js && echo new > scripts/build.sh && echo ok > Makefile.local && echo done",
    );
    assert.equal(out, "done\n");
    assert.equal(readFileSync(join(workspace, "src/app.js"), "utf8"), "changed\n");
    rmSync(join(workspace, "scripts/build.sh"));
    rmSync(join(workspace, "Makefile.local"));
  });
});

describe("escape battery: the running action in the checkout (T67)", needsBwrap(), () => {
  test("T67 a vendored copy of pitcrew stays read-only with allow-protected-changes, while the rest of .github opens", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-own-")));
    const workspace = join(root, "repo");
    const home = join(root, "home");
    const copy = join(workspace, ".github/actions/pitcrew");
    const files: Record<string, string> = {
      ".github/actions/pitcrew/action.yml": "runs:\n  using: node24\n  main: dist/index.js\n",
      ".github/actions/pitcrew/dist/index.js": "// the main step\n",
      ".github/actions/pitcrew/dist/post.js": "// the post step, run with the secrets\n",
      ".github/CODEOWNERS": "* @owners\n",
    };
    try {
      mkdirSync(home, { recursive: true });
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(workspace, file)), { recursive: true });
        writeFileSync(join(workspace, file), text);
      }
      execFileSync("git", ["init", "-q"], { cwd: workspace });
      const sandbox = await createSandbox(
        {
          ...DEFAULT_SETTINGS,
          backend: "bwrap",
          homeReadOnly: [],
          timeoutMs: 20_000,
          // The repository set allow-protected-changes: true; the action's own folder is still held.
          protectedPaths: protectedPatterns([], true, ownActionPaths(workspace, copy)),
        },
        { workspace, env: { HOME: home, PATH: "/usr/bin:/bin" }, allowSetup: false },
      );
      try {
        const result = await sandbox.run({
          argv: [
            "bash",
            "-c",
            `try() { if eval "$1" 2>/dev/null; then echo "$2=yes"; else echo "$2=no"; fi; }
try 'echo evil > .github/actions/pitcrew/dist/post.js' post
try 'echo x > .github/actions/pitcrew/dist/extra.js' add
try 'rm -rf .github/actions/pitcrew' remove
try 'mv .github/actions/pitcrew .github/actions/old' rename
try 'echo "* @me" > .github/CODEOWNERS' codeowners`,
          ],
        });
        assert.equal(
          result.stdout.text,
          "post=no\nadd=no\nremove=no\nrename=no\ncodeowners=yes\n",
          result.stderr.text,
        );
      } finally {
        sandbox.dispose();
      }
      for (const [file, text] of Object.entries(files)) {
        if (file.startsWith(".github/actions/pitcrew/")) {
          assert.equal(readFileSync(join(workspace, file), "utf8"), text, `${file} changed`);
        }
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
