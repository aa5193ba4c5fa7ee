/**
 * The Seatbelt profile, rule by rule. sandbox-exec does not exist here, so these tests read the
 * generated SBPL text and the argv; the paths must reach it only as -D parameters.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import type { Policy } from "../../src/sandbox/policy.ts";
import { testPolicy } from "../support/policy.ts";
import { SANDBOX_EXEC, seatbeltArgv, seatbeltProfile } from "../../src/sandbox/seatbelt.ts";

const NASTY = `/Users/me/we"ird) (allow file-write* (subpath "/"))(repo`;

function policy(overrides: Partial<Policy> = {}): Policy {
  return testPolicy({
    backend: "seatbelt",
    workspace: "/Users/me/repo",
    home: "/Users/me",
    env: { PATH: "/usr/bin:/bin" },
    tmpfsBytes: { ...DEFAULT_SETTINGS.tmpfsBytes },
    ...overrides,
  });
}

const TMP = "/private/var/folders/xy/T/pitcrew-sandbox-1/tmp";

/** Lines of the profile that are rules (comments dropped). */
function rules(profile: string): string[] {
  return profile.split("\n").filter((line) => line.length > 0 && !line.startsWith(";"));
}

/** The parameter name whose value is `path`. */
function paramOf(params: Record<string, string>, path: string): string {
  const found = Object.entries(params).filter(([, value]) => value === path);
  assert.equal(found.length, 1, `exactly one parameter holds ${path}`);
  return found[0]?.[0] ?? "";
}

describe("seatbeltProfile: the base", () => {
  const { profile, params } = seatbeltProfile(policy(), TMP);

  test("version 1, deny by default as the first rule", () => {
    assert.deepEqual(rules(profile).slice(0, 2), ["(version 1)", "(deny default)"]);
  });

  test("no rule mentions the network: sockets, DNS and localhost stay under deny default", () => {
    for (const line of rules(profile)) {
      assert.ok(!/network|socket|mDNSResponder|system-socket|remote|local ip/i.test(line), line);
    }
  });

  test("processes see and signal only their own sandbox", () => {
    assert.ok(profile.includes("(allow process-info* (target same-sandbox))"));
    assert.ok(profile.includes("(allow signal (target same-sandbox))"));
    assert.ok(!/\(allow signal\)|\(allow process-info\*\)/.test(profile));
  });

  test("no keychain or security daemons among the allowed mach services", () => {
    assert.ok(!/SecurityServer|securityd|trustd|keychain/i.test(profile));
  });

  test("reads broadly, then denies home, then re-allows workspace and TMP", () => {
    const lines = rules(profile);
    const allowRead = lines.indexOf("(allow file-read*)");
    const denyHome = lines.indexOf('(deny file-read* (subpath (param "HOME")))');
    const reallow = lines.indexOf(
      '(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "TMP")))',
    );
    assert.ok(allowRead >= 0 && allowRead < denyHome && denyHome < reallow, profile);
    assert.deepEqual(params, { WORKSPACE: "/Users/me/repo", TMP, HOME: "/Users/me" });
  });

  test("writes only in the workspace and TMP; no protected paths means no require-not", () => {
    const writes = rules(profile).filter((line) => line.startsWith("(allow file-write*"));
    assert.ok(
      writes.includes(
        '(allow file-write* (require-all (subpath (param "WORKSPACE"))) (subpath (param "TMP")))',
      ),
    );
    assert.ok(!profile.includes("require-not"));
    assert.ok(!profile.includes("file-write-unlink"));
    // The only other write allowances are the terminal and a few device nodes, by literal path.
    for (const line of writes.filter((l) => !l.includes("WORKSPACE"))) {
      assert.match(line, /\/dev\/(ptmx|ttys)/);
    }
  });
});

describe("seatbeltProfile: paths are parameters, never profile text", () => {
  const program = seatbeltProfile(
    policy({
      workspace: NASTY,
      home: `/Users/me"`,
      hidden: [`/opt/run(ner)"`, "/Users/x/a b"],
      homeReadOnly: [`/Users/me"/.cargo/bin`],
      readOnly: [
        { path: `${NASTY}/.git`, dev: 1, ino: 2 },
        { path: `${NASTY}/.github/workflows`, dev: 1, ino: 3 },
      ],
    }),
    `${TMP}"))`,
  );

  test("no path appears in the profile", () => {
    for (const value of Object.values(program.params)) {
      assert.ok(!program.profile.includes(value), `${value} leaked into the profile`);
    }
    assert.ok(!program.profile.includes('we"ird'));
    assert.ok(!program.profile.includes("run(ner)"));
  });

  test("every path is the value of exactly one parameter, with a plain name", () => {
    for (const name of Object.keys(program.params)) assert.match(name, /^[A-Z_0-9]+$/);
    for (const path of [
      NASTY,
      `${TMP}"))`,
      `/Users/me"`,
      `/opt/run(ner)"`,
      "/Users/x/a b",
      `/Users/me"/.cargo/bin`,
      `${NASTY}/.git`,
      `${NASTY}/.github/workflows`,
      `${NASTY}/.github`,
    ]) {
      paramOf(program.params, path);
    }
  });

  test("the profile's quotes and parentheses balance (no text came from a path)", () => {
    const quotes = program.profile.match(/"/g)?.length ?? 0;
    assert.equal(quotes % 2, 0);
    let depth = 0;
    for (const line of rules(program.profile)) {
      const stripped = line.replace(/"[^"]*"/g, '""').replace(/#"[^"]*"/g, "");
      for (const char of stripped) {
        if (char === "(") depth++;
        if (char === ")") depth--;
        assert.ok(depth >= 0, line);
      }
      assert.equal(depth, 0, `unbalanced: ${line}`);
    }
  });

  test("seatbeltArgv passes each parameter as one -DNAME=value argument, the command after --", () => {
    const argv = seatbeltArgv(program, ["bash", "-c", "echo $HOME"]);
    assert.equal(argv[0], SANDBOX_EXEC);
    assert.equal(argv[0], "/usr/bin/sandbox-exec");
    assert.deepEqual(argv.slice(1, 3), ["-p", program.profile]);
    const dashdash = argv.indexOf("--");
    const defines = argv.slice(3, dashdash);
    assert.deepEqual(
      defines,
      Object.entries(program.params).map(([name, value]) => `-D${name}=${value}`),
    );
    assert.ok(defines.includes(`-DWORKSPACE=${NASTY}`));
    assert.deepEqual(argv.slice(dashdash + 1), ["bash", "-c", "echo $HOME"]);
  });
});

describe("seatbeltProfile: protected paths and pitcrew's own folder", () => {
  const workspace = "/Users/me/repo";
  const { profile, params } = seatbeltProfile(
    policy({
      workspace,
      readOnly: [
        { path: `${workspace}/.git`, dev: 1, ino: 2 },
        { path: `${workspace}/.github`, dev: 1, ino: 3 },
        { path: `${workspace}/Makefile`, dev: 1, ino: 4 },
        { path: `${workspace}/.github/pitcrew/locked`, dev: 1, ino: 6 },
      ],
      writable: [{ path: `${workspace}/.github/pitcrew`, dev: 1, ino: 5 }],
    }),
    TMP,
  );
  // A path can also be a pinned ANCESTOR_ parameter; these tests are about the write rule's.
  const p = (path: string): string => {
    const name = Object.entries(params).find(
      ([key, value]) => value === path && !key.startsWith("ANCESTOR_"),
    )?.[0];
    assert.ok(name, path);
    return `(param "${name}")`;
  };
  const write = rules(profile).find(
    (line) =>
      line.includes('(subpath (param "WORKSPACE"))') && line.startsWith("(allow file-write*"),
  );

  test("the workspace is writable minus every protected path, .github and a protected file included", () => {
    assert.ok(write, profile);
    for (const path of [".git", ".github", "Makefile", ".github/pitcrew/locked"]) {
      assert.ok(write.includes(`(subpath ${p(`${workspace}/${path}`)})`), `${path}: ${write}`);
    }
    assert.match(
      write,
      /^\(allow file-write\* \(require-all \(subpath \(param "WORKSPACE"\)\) \(require-not \(require-any /,
    );
  });

  test("pitcrew's folder is allowed again as its own alternative, minus the protected paths inside it", () => {
    assert.equal(params.WRITABLE_0, `${workspace}/.github/pitcrew`);
    assert.equal(params.WRITABLE_0_RO_0, `${workspace}/.github/pitcrew/locked`);
    assert.ok(!("WRITABLE_0_RO_1" in params), "only what lies inside it, never .github itself");
    assert.ok(
      write?.endsWith(
        '(subpath (param "TMP")) (require-all (subpath (param "WRITABLE_0")) (require-not (require-any (subpath (param "WRITABLE_0_RO_0"))))))',
      ),
      write,
    );
  });

  test("pitcrew's folder itself cannot be renamed or removed (bwrap: a mount point)", () => {
    const unlink = rules(profile).find((line) => line.startsWith("(deny file-write-unlink"));
    assert.ok(unlink?.endsWith(' (literal (param "WRITABLE_0")))'), unlink);
  });

  test("without protected paths inside it, pitcrew's folder is a plain subpath", () => {
    const plain = seatbeltProfile(
      policy({
        workspace,
        readOnly: [{ path: `${workspace}/.github`, dev: 1, ino: 3 }],
        writable: [{ path: `${workspace}/.github/pitcrew`, dev: 1, ino: 5 }],
      }),
      TMP,
    );
    assert.ok(
      plain.profile.includes('(subpath (param "TMP")) (subpath (param "WRITABLE_0")))'),
      plain.profile,
    );
  });
});

describe("seatbeltProfile: the spill folder", () => {
  const source = "/private/var/folders/xy/T/pitcrew-sandbox-1/spill";
  const { profile, params } = seatbeltProfile(policy({ spill: { source, target: source } }), TMP);
  const lines = rules(profile);

  test("read at its real path, re-allowed after the deny, never writable", () => {
    assert.equal(paramOf(params, source), "SPILL");
    const denyIndex = lines.findIndex((line) => line.startsWith("(deny file-read*"));
    const reallow = lines.findIndex((line) => line.startsWith("(allow file-read* (subpath"));
    assert.ok(reallow > denyIndex);
    assert.ok(lines[reallow]?.includes('(subpath (param "SPILL"))'), lines[reallow]);
    for (const line of lines.filter((l) => l.includes("file-write"))) {
      assert.ok(!line.includes('"SPILL"'), `the spill folder is writable: ${line}`);
    }
  });

  test("a policy without one has no SPILL parameter", () => {
    const bare = seatbeltProfile(policy(), TMP);
    assert.ok(!("SPILL" in bare.params) && !bare.profile.includes("SPILL"));
  });
});

describe("seatbeltProfile: each policy option", () => {
  const workspace = "/Users/me/repo";
  const program = seatbeltProfile(
    policy({
      workspace,
      hidden: ["/Users/runner/work/_temp", "/opt/runner"],
      homeReadOnly: ["/Users/me/.cargo/bin", "/Users/me/.rustup"],
      readOnly: [
        { path: `${workspace}/.git`, dev: 1, ino: 2 },
        { path: `${workspace}/.githooks`, dev: 1, ino: 4 },
        { path: `${workspace}/.github/workflows`, dev: 1, ino: 3 },
        { path: `${workspace}/config/deep/hooks`, dev: 1, ino: 5 },
      ],
    }),
    TMP,
  );
  const { profile, params } = program;
  const lines = rules(profile);
  const p = (path: string): string => `(param "${paramOf(params, path)}")`;

  test("hidden paths are denied for reading along with home", () => {
    const deny = lines.find((line) => line.startsWith("(deny file-read*"));
    assert.equal(
      deny,
      `(deny file-read* (subpath (param "HOME")) (subpath ${p("/Users/runner/work/_temp")}) (subpath ${p("/opt/runner")}))`,
    );
  });

  test("home's read-only folders are re-allowed for reading after the deny, never for writing", () => {
    const denyIndex = lines.findIndex((line) => line.startsWith("(deny file-read*"));
    const reallow = lines.findIndex((line) => line.startsWith("(allow file-read* (subpath"));
    assert.ok(reallow > denyIndex);
    for (const dir of ["/Users/me/.cargo/bin", "/Users/me/.rustup"]) {
      assert.ok(lines[reallow]?.includes(`(subpath ${p(dir)})`));
      const name = paramOf(params, dir);
      for (const line of lines.filter((l) => l.includes("file-write"))) {
        assert.ok(!line.includes(`"${name}"`), `${dir} is writable: ${line}`);
      }
    }
  });

  test("writes in the workspace require-not every protected path (subpath covers the path itself)", () => {
    const write = lines.find(
      (line) =>
        line.includes('(subpath (param "WORKSPACE"))') && line.startsWith("(allow file-write*"),
    );
    const protectedSet = [
      `${workspace}/.git`,
      `${workspace}/.githooks`,
      `${workspace}/.github/workflows`,
      `${workspace}/config/deep/hooks`,
    ]
      .map((path) => `(subpath ${p(path)})`)
      .join(" ");
    assert.equal(
      write,
      `(allow file-write* (require-all (subpath (param "WORKSPACE")) (require-not (require-any ${protectedSet}))) (subpath (param "TMP")))`,
    );
  });

  test("folders between the workspace and a protected path cannot be renamed away", () => {
    const unlink = lines.filter((line) => line.startsWith("(deny file-write-unlink"));
    assert.equal(unlink.length, 1);
    const ancestors = [`${workspace}/.github`, `${workspace}/config/deep`, `${workspace}/config`];
    for (const dir of ancestors) assert.ok(unlink[0]?.includes(`(literal ${p(dir)})`), dir);
    // Neither the workspace itself nor anything outside it is an "ancestor inside".
    assert.ok(!unlink[0]?.includes('"WORKSPACE"'));
    assert.ok(
      !Object.values(params).includes("/Users/me/repo/.") &&
        !Object.values(params).includes("/Users"),
    );
    assert.equal(Object.keys(params).filter((name) => name.startsWith("ANCESTOR_")).length, 3);
    // The unlink deny comes after the write allowance, so it takes precedence.
    assert.ok(
      lines.indexOf(unlink[0] ?? "") >
        lines.findIndex((line) => line.startsWith("(allow file-write* (require-all")),
    );
  });

  test("a folder named ..hooks between the workspace and a protected path is pinned too", () => {
    const nested = seatbeltProfile(
      policy({ readOnly: [{ path: "/Users/me/repo/..hooks/pre", dev: 1, ino: 2 }] }),
      TMP,
    );
    assert.equal(nested.params.ANCESTOR_0, "/Users/me/repo/..hooks");
    assert.equal(
      Object.keys(nested.params).filter((name) => name.startsWith("ANCESTOR_")).length,
      1,
    );
  });

  test(".git directly in the workspace has no ancestors to pin", () => {
    const only = seatbeltProfile(
      policy({ readOnly: [{ path: "/Users/me/repo/.git", dev: 1, ino: 2 }] }),
      TMP,
    );
    assert.ok(!only.profile.includes("file-write-unlink"));
  });
});
