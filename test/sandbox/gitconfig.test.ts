/**
 * The sanitised git config: parsing git's --null listing, what the filter keeps and drops, the
 * config syntax written back (proved by reading it with the real git), and the file-level edge.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import {
  findToken,
  formatConfig,
  parseConfigList,
  sanitiseEntries,
  stripUserinfo,
  writeSanitisedConfig,
} from "../../src/sandbox/gitconfig.ts";
import type { ConfigEntry } from "../../src/sandbox/gitconfig.ts";

const GIT_ENV = { PATH: "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" };
const TOKEN = "ghs_" + "16C7e42F292c6912E7710c838347Ae178B4a";
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");

const root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-gitconfig-test-")));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const tempFile = (): string => join(root, `file-${counter++}`);

/** What the real git reads from `file`, through the parser under test. */
function gitRead(file: string): ConfigEntry[] {
  return parseConfigList(
    execFileSync("git", ["config", "--file", file, "--list", "--null"], {
      encoding: "utf8",
      env: GIT_ENV,
    }),
  );
}

function gitSet(file: string, key: string, value: string, ...flags: string[]): void {
  execFileSync("git", ["config", "--file", file, ...flags, key, value], { env: GIT_ENV });
}

const keys = (entries: readonly ConfigEntry[]): string[] => entries.map(({ key }) => key);

describe("parseConfigList", () => {
  test("splits records on NUL and key from value on the first newline", () => {
    assert.deepEqual(parseConfigList("core.bare\nfalse\0user.name\nA\nB\0core.x\0"), [
      { key: "core.bare", value: "false" },
      { key: "user.name", value: "A\nB" },
      { key: "core.x", value: null },
    ]);
    assert.deepEqual(parseConfigList(""), []);
    assert.deepEqual(parseConfigList("a.b\n\0"), [{ key: "a.b", value: "" }]);
  });

  test("reads git's own listing of a bare boolean, an empty value and a multi-line value", () => {
    const file = tempFile();
    writeFileSync(file, '[core]\n\tbare\n\tempty =\n[user]\n\tname = "line1\\nline2"\n');
    assert.deepEqual(gitRead(file), [
      { key: "core.bare", value: null },
      { key: "core.empty", value: "" },
      { key: "user.name", value: "line1\nline2" },
    ]);
  });
});

describe("sanitiseEntries", () => {
  const entry = (key: string, value: string | null = "v"): ConfigEntry => ({ key, value });

  test("drops every credential carrier and every way to run a program", () => {
    const dropped = [
      entry("http.https://github.com/.extraheader", `AUTHORIZATION: basic ${BASIC}`),
      entry("http.extraheader", "AUTHORIZATION: bearer x"),
      entry("http.https://github.com/.cookiefile", "/tmp/cookies"),
      entry("credential.helper", "store"),
      entry("credential.https://github.com.username", "x-access-token"),
      entry("include.path", "/runner/_temp/creds.config"),
      entry(
        "includeif.gitdir:/home/runner/work/r/r/.git.path",
        "/runner/_temp/git-credentials.config",
      ),
      entry("url.https://x-access-token:tok@github.com/.insteadof", "https://github.com/"),
      entry("url.git@github.com:.pushinsteadof", "https://github.com/"),
      entry("core.fsmonitor", "/tmp/evil.sh"),
      entry("core.hookspath", ".githooks"),
      entry("core.sshcommand", "ssh -i /key"),
      entry("core.askpass", "/tmp/askpass"),
      entry("core.gitproxy", "/tmp/proxy"),
      entry("filter.lfs.process", "git-lfs filter-process"),
      entry("diff.external", "/tmp/diff"),
      entry("alias.st", "!sh -c evil"),
      entry("remote.origin.uploadpack", "/tmp/evil"),
      entry("remote.origin.receivepack", "/tmp/evil"),
      entry("remote.origin.vcs", "evil"),
      entry("branch.main.description", "text"),
      entry("submodule.sub.update", "!sh evil"),
      entry("user.signingkey", "/home/runner/.ssh/id"),
      entry("gpg.program", "/tmp/gpg"),
      entry("sequence.editor", "/tmp/ed"),
      entry("protocol.file.allow", "always"),
    ];
    assert.deepEqual(sanitiseEntries(dropped), []);
  });

  test("keeps what git needs to read the repository", () => {
    const kept = [
      entry("core.repositoryformatversion", "0"),
      entry("core.filemode", "true"),
      entry("core.bare", "false"),
      entry("core.logallrefupdates", "true"),
      entry("core.sparsecheckout", "true"),
      entry("extensions.worktreeconfig", "true"),
      entry("remote.origin.url", "https://github.com/o/r"),
      entry("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
      entry("remote.origin.promisor", "true"),
      entry("remote.origin.partialclonefilter", "blob:none"),
      entry("branch.main.remote", "origin"),
      entry("branch.main.merge", "refs/heads/main"),
      entry("submodule.sub.url", "https://github.com/o/sub"),
      entry("submodule.sub.active", "true"),
      entry("user.name", "github-actions[bot]"),
      entry("user.email", "41898282+github-actions[bot]@users.noreply.github.com"),
      entry("init.defaultbranch", "main"),
      entry("gc.auto", "0"),
      entry("pull.rebase", "false"),
    ];
    assert.deepEqual(sanitiseEntries(kept), kept);
  });

  test("strips userinfo from remote and submodule urls and pushurls", () => {
    const out = sanitiseEntries([
      entry("remote.origin.url", `https://x-access-token:${TOKEN}@github.com/o/r.git`),
      entry("remote.origin.pushurl", `https://${TOKEN}@github.com/o/r.git`),
      entry("submodule.lib.url", "https://user:p%40ss@example.com:8443/lib.git"),
      entry("remote.ssh.url", "ssh://git@github.com/o/r.git"),
      entry("remote.scp.url", "git@github.com:o/r.git"),
    ]);
    assert.deepEqual(
      out.map(({ value }) => value),
      [
        "https://github.com/o/r.git",
        "https://github.com/o/r.git",
        "https://example.com:8443/lib.git",
        "ssh://github.com/o/r.git",
        "git@github.com:o/r.git",
      ],
    );
  });

  test("stripUserinfo leaves urls without userinfo alone and stops at the first slash", () => {
    assert.equal(stripUserinfo("https://github.com/o/r"), "https://github.com/o/r");
    assert.equal(stripUserinfo("https://github.com/a@b/r"), "https://github.com/a@b/r");
    assert.equal(stripUserinfo("HTTPS://u:p@h/x"), "HTTPS://h/x");
    assert.equal(stripUserinfo("git+ssh://u@h/x"), "git+ssh://h/x");
  });
});

describe("formatConfig", () => {
  test("groups by section in first-seen order, quotes every value, writes bare booleans bare", () => {
    const text = formatConfig([
      { key: "core.bare", value: "false" },
      { key: "remote.origin.url", value: "https://github.com/o/r" },
      { key: "core.flag", value: null },
      { key: "remote.origin.fetch", value: "+refs/heads/*:refs/remotes/origin/*" },
    ]);
    assert.equal(
      text,
      [
        "[core]",
        '\tbare = "false"',
        "\tflag",
        '[remote "origin"]',
        '\turl = "https://github.com/o/r"',
        '\tfetch = "+refs/heads/*:refs/remotes/origin/*"',
        "",
      ].join("\n"),
    );
  });

  test("git reads back exactly what was formatted: quotes, backslashes, newlines, tabs, comments", () => {
    const entries: ConfigEntry[] = [
      { key: "user.name", value: 'A "quoted" name' },
      { key: "user.email", value: "back\\slash\\\\double\\n-not-a-newline" },
      { key: "core.comment", value: "line1\nline2\n\nline4\n" },
      { key: "core.tabs", value: "\ttab\tinside\t" },
      { key: "core.spaces", value: "  leading and trailing  " },
      { key: "core.hash", value: "# not a comment ; nor this" },
      { key: "core.empty", value: "" },
      { key: "core.bool", value: null },
      { key: "core.unicode", value: "Zoë — 日本 🚀" },
      { key: 'remote.we"ird\\name.url', value: "https://github.com/o/r" },
      { key: "remote.with.dots.and spaces.url", value: "https://x/y" },
      { key: "remote.tab\there.fetch", value: "+refs/heads/*:refs/remotes/t/*" },
      { key: "branch.feature/x.y.merge", value: "refs/heads/feature/x.y" },
      { key: "submodule.[brackets].path", value: "lib/[brackets]" },
    ];
    const file = tempFile();
    writeFileSync(file, formatConfig(entries));
    assert.deepEqual(gitRead(file), entries);
  });

  test("values git itself wrote round-trip through parse, sanitise and format", () => {
    const source = tempFile();
    const odd = `he said "hi"\\ and\nleft\t# ; [x]`;
    gitSet(source, "user.name", odd);
    gitSet(source, 'remote.o"r\\g.url', `https://u:${TOKEN}@github.com/o/r`);
    gitSet(source, 'remote.o"r\\g.fetch', "+refs/heads/*:refs/remotes/o/*");
    gitSet(source, "core.autocrlf", "input");
    const sanitised = sanitiseEntries(gitRead(source));
    const target = tempFile();
    writeFileSync(target, formatConfig(sanitised));
    assert.deepEqual(gitRead(target), [
      { key: "user.name", value: odd },
      { key: 'remote.o"r\\g.url', value: "https://github.com/o/r" },
      { key: 'remote.o"r\\g.fetch', value: "+refs/heads/*:refs/remotes/o/*" },
      { key: "core.autocrlf", value: "input" },
    ]);
  });
});

describe("findToken", () => {
  test("finds every GitHub token shape and the header forms", () => {
    for (const prefix of ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) {
      const token = prefix + "a".repeat(36);
      assert.equal(findToken(`url = https://${token}@github.com`), token);
    }
    const pat = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz";
    assert.equal(findToken(pat), pat);
    assert.equal(findToken("https://X-Access-Token@github.com"), "X-Access-Token");
    assert.equal(findToken("extraheader = AUTHORIZATION: basic abc"), "AUTHORIZATION:");
  });

  test("ignores ordinary config text", () => {
    assert.equal(
      findToken('[core]\n\tbare = "false"\n[remote "origin"]\n\turl = "https://github.com/o/r"\n'),
      null,
    );
    assert.equal(findToken("ghp_short"), null);
    assert.equal(findToken("ghx_" + "a".repeat(36)), null);
  });
});

describe("writeSanitisedConfig", () => {
  /** What actions/checkout leaves: v4 writes the header into .git/config, v6 an includeIf. */
  function checkoutConfig(): { file: string; credentials: string } {
    const file = tempFile();
    const credentials = tempFile();
    writeFileSync(
      credentials,
      `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${BASIC}\n`,
    );
    writeFileSync(
      file,
      [
        "[core]",
        "\trepositoryformatversion = 0",
        "\tfilemode = true",
        "\tbare = false",
        "\tlogallrefupdates = true",
        "\tsshCommand = ssh -i /home/runner/.ssh/deploy",
        "\thooksPath = .githooks",
        "\tfsmonitor = .githooks/fsmonitor",
        '[remote "origin"]',
        `\turl = https://x-access-token:${TOKEN}@github.com/octo/repo`,
        "\tfetch = +refs/heads/*:refs/remotes/origin/*",
        "[gc]",
        "\tauto = 0",
        '[http "https://github.com/"]',
        `\textraheader = AUTHORIZATION: basic ${BASIC}`,
        `[includeIf "gitdir:${root}/"]`,
        `\tpath = ${credentials}`,
        "[include]",
        `\tpath = ${credentials}`,
        "[credential]",
        "\thelper = store --file /home/runner/.git-credentials",
        `[url "https://x-access-token:${TOKEN}@github.com/"]`,
        "\tinsteadOf = https://github.com/",
        '[submodule "lib"]',
        `\turl = https://oauth2:${TOKEN}@github.com/octo/lib`,
        "\tactive = true",
        '[branch "main"]',
        "\tremote = origin",
        "\tmerge = refs/heads/main",
        "",
      ].join("\n"),
    );
    return { file, credentials };
  }

  test("writes a 0600 copy that git reads as the repository's config minus every credential", () => {
    const { file } = checkoutConfig();
    const target = tempFile();
    writeSanitisedConfig(file, target);
    assert.equal(statSync(target).mode & 0o777, 0o600);
    const text = readFileSync(target, "utf8");
    assert.equal(findToken(text), null);
    assert.ok(!text.includes(BASIC) && !text.includes(TOKEN));
    assert.deepEqual(gitRead(target), [
      { key: "core.repositoryformatversion", value: "0" },
      { key: "core.filemode", value: "true" },
      { key: "core.bare", value: "false" },
      { key: "core.logallrefupdates", value: "true" },
      { key: "remote.origin.url", value: "https://github.com/octo/repo" },
      { key: "remote.origin.fetch", value: "+refs/heads/*:refs/remotes/origin/*" },
      { key: "gc.auto", value: "0" },
      { key: "submodule.lib.url", value: "https://github.com/octo/lib" },
      { key: "submodule.lib.active", value: "true" },
      { key: "branch.main.remote", value: "origin" },
      { key: "branch.main.merge", value: "refs/heads/main" },
    ]);
  });

  test("does not follow includes while reading (the credentials file stays unread)", () => {
    const { file } = checkoutConfig();
    const target = tempFile();
    writeSanitisedConfig(file, target);
    assert.ok(!keys(gitRead(target)).some((key) => key.startsWith("http.")));
  });

  test("a token that survives the filter refuses the session and writes nothing", () => {
    for (const [key, value] of [
      ["user.name", TOKEN],
      ["remote.origin.url", `https://github.com/o/r?access_token=${TOKEN}`],
      ["remote.origin.fetch", "+refs/heads/x-access-token:refs/x"],
      ["core.editor", "authorization: basic abc"],
    ] as const) {
      const source = tempFile();
      gitSet(source, key, value);
      const target = tempFile();
      assert.throws(
        () => writeSanitisedConfig(source, target),
        (error: unknown) =>
          error instanceof PitcrewError &&
          error.code === "sandbox-token-in-git-config" &&
          error.message.includes(source) &&
          error.message.includes("persist-credentials: false"),
        key,
      );
      assert.ok(!existsSync(target), `${key}: nothing written`);
    }
  });

  test("an unreadable source is an error, not an empty config", () => {
    assert.throws(() => writeSanitisedConfig(join(root, "missing"), tempFile()));
  });
});
