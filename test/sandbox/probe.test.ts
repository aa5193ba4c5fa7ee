/**
 * The session-start probe: diagnosis of each known failure, the AppArmor profile and workflow
 * advice, and probeBwrap against the real bwrap and against stand-in scripts that fail the way
 * Ubuntu and Debian runners fail. Setup (sudo) is never allowed here: it would change this host.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import {
  APPARMOR_PROFILE_PATH,
  BWRAP_LOCATIONS,
  apparmorProfile,
  diagnose,
  findBwrap,
  kernelFacts,
  probeBwrap,
} from "../../src/sandbox/probe.ts";
import type { KernelFacts } from "../../src/sandbox/probe.ts";
import { needsBwrap } from "../support/bwrap.ts";

const CLEAN: KernelFacts = {
  apparmorRestrict: null,
  usernsClone: null,
  maxUserNamespaces: "15000",
};
const UID_MAP = "bwrap: setting up uid map: Permission denied";
const RTM_ADDR = "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted";
const RTM_LINK = "bwrap: loopback: Failed RTM_NEWLINK: Operation not permitted";
const DEBIAN =
  "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.";
const ENOSPC = "bwrap: Creating new namespace failed: No space left on device";
const CONTAINER = "bwrap: Creating new namespace failed: Operation not permitted";
const BWRAP = "/usr/bin/bwrap";

/** The shell lines of the workflow step in the advice (the `run: |` block). */
function workflowRun(advice: string): string[] {
  const lines = advice.split("\n");
  const run = lines.findIndex((line) => line.trim() === "run: |");
  assert.ok(run > 0, "the advice holds a workflow step with a run block");
  assert.match(lines[run - 1] ?? "", /^- name: \S/);
  return lines.slice(run + 1).map((line) => {
    assert.match(line, /^ {4}\S/, "run lines are indented under run: |");
    return line.trim();
  });
}

describe("apparmorProfile", () => {
  test("an unconfined profile for the given bwrap path that allows user namespaces", () => {
    assert.equal(
      apparmorProfile("/usr/local/bin/bwrap"),
      [
        "abi <abi/4.0>,",
        "include <tunables/global>",
        "profile pitcrew-bwrap /usr/local/bin/bwrap flags=(unconfined) {",
        "  userns,",
        "}",
        "",
      ].join("\n"),
    );
    assert.equal(APPARMOR_PROFILE_PATH, "/etc/apparmor.d/pitcrew-bwrap");
  });
});

describe("diagnose", () => {
  for (const [what, stderr, facts] of [
    ["the uid map error", UID_MAP, CLEAN],
    ["the RTM_NEWADDR loopback error", RTM_ADDR, CLEAN],
    ["the RTM_NEWLINK loopback error", RTM_LINK, CLEAN],
    ["the AppArmor sysctl alone", CONTAINER, { ...CLEAN, apparmorRestrict: "1" }],
    ["the uid map error even when userns_clone is 0 too", UID_MAP, { ...CLEAN, usernsClone: "0" }],
  ] as const) {
    test(`apparmor-userns from ${what}`, () => {
      const diagnosis = diagnose(stderr, facts, "/opt/bwrap");
      assert.equal(diagnosis.cause, "apparmor-userns");
      const [profile, sysctl] = diagnosis.fixes;
      assert.equal(diagnosis.fixes.length, 2);
      assert.match(profile?.what ?? "", /AppArmor profile.*\/opt\/bwrap/);
      assert.deepEqual(profile?.commands, [
        { argv: ["tee", APPARMOR_PROFILE_PATH], stdin: apparmorProfile("/opt/bwrap") },
        { argv: ["apparmor_parser", "-r", APPARMOR_PROFILE_PATH] },
      ]);
      assert.deepEqual(sysctl?.commands, [
        { argv: ["sysctl", "-w", "kernel.apparmor_restrict_unprivileged_userns=0"] },
      ]);
      assert.match(diagnosis.advice, /AppArmor/);
    });
  }

  test("the AppArmor sysctl at 0 is not AppArmor's doing", () => {
    assert.equal(diagnose(CONTAINER, { ...CLEAN, apparmorRestrict: "0" }, BWRAP).cause, "unknown");
  });

  test("the apparmor workflow advice is a step whose printf writes a valid profile", () => {
    const { advice } = diagnose(UID_MAP, CLEAN, BWRAP);
    const run = workflowRun(advice);
    assert.equal(run.length, 2);
    assert.match(run[0] ?? "", /^printf '.*' \| sudo tee \/etc\/apparmor\.d\/bwrap$/);
    assert.equal(run[1], "sudo apparmor_parser -r /etc/apparmor.d/bwrap");
    // Run the printf itself: it must print the same profile pitcrew loads (named bwrap).
    const printf = (run[0] ?? "").replace(/ \| sudo tee .*$/, "");
    const written = execFileSync("/bin/sh", ["-c", printf], { encoding: "utf8" });
    assert.equal(written, apparmorProfile(BWRAP).replace("profile pitcrew-bwrap", "profile bwrap"));
  });

  test("userns-disabled from Debian's message or from unprivileged_userns_clone=0", () => {
    for (const [stderr, facts] of [
      [DEBIAN, CLEAN],
      [CONTAINER, { ...CLEAN, usernsClone: "0" }],
    ] as const) {
      const diagnosis = diagnose(stderr, facts, BWRAP);
      assert.equal(diagnosis.cause, "userns-disabled");
      assert.deepEqual(diagnosis.fixes, [
        {
          what: "turn on kernel.unprivileged_userns_clone",
          commands: [{ argv: ["sysctl", "-w", "kernel.unprivileged_userns_clone=1"] }],
        },
      ]);
      assert.match(diagnosis.advice, /`sudo sysctl -w kernel\.unprivileged_userns_clone=1`/);
    }
  });

  test("no-user-namespaces when user.max_user_namespaces is 0", () => {
    const diagnosis = diagnose(ENOSPC, { ...CLEAN, maxUserNamespaces: "0" }, BWRAP);
    assert.equal(diagnosis.cause, "no-user-namespaces");
    assert.deepEqual(diagnosis.fixes[0]?.commands, [
      { argv: ["sysctl", "-w", "user.max_user_namespaces=15000"] },
    ]);
    assert.match(diagnosis.advice, /`sudo sysctl -w user\.max_user_namespaces=15000`/);
  });

  test("unknown otherwise: no fixes, advice about containers and the docs", () => {
    for (const stderr of [CONTAINER, ENOSPC, "", "bwrap: something new"]) {
      const diagnosis = diagnose(stderr, CLEAN, BWRAP);
      assert.equal(diagnosis.cause, "unknown");
      assert.deepEqual(diagnosis.fixes, []);
      assert.match(diagnosis.advice, /container/);
      assert.match(diagnosis.advice, /docs\/sandbox\.md/);
    }
    assert.equal(
      diagnose(
        CONTAINER,
        { apparmorRestrict: null, usernsClone: null, maxUserNamespaces: null },
        BWRAP,
      ).cause,
      "unknown",
    );
  });

  test("kernelFacts reads the three sysctls as trimmed strings or null", () => {
    const facts = kernelFacts();
    assert.deepEqual(Object.keys(facts).sort(), [
      "apparmorRestrict",
      "maxUserNamespaces",
      "usernsClone",
    ]);
    for (const value of [facts.apparmorRestrict, facts.usernsClone, facts.maxUserNamespaces]) {
      assert.ok(value === null || /^\S+$/.test(value));
    }
  });
});

describe("probeBwrap with the real bwrap", needsBwrap(), () => {
  test("succeeds, names the binary and its version, applies no fix", async () => {
    const messages: string[] = [];
    const result = await probeBwrap({ allowSetup: false, log: (m) => messages.push(m) });
    assert.equal(result.bwrapPath, findBwrap());
    assert.ok(BWRAP_LOCATIONS.includes(result.bwrapPath));
    assert.match(result.version, /^\d+\.\d+\.\d+/);
    const reported = execFileSync(result.bwrapPath, ["--version"], { encoding: "utf8" });
    assert.ok(reported.includes(result.version));
    assert.deepEqual(result.fixesApplied, []);
    assert.deepEqual(messages, []);
  });
});

describe("probeBwrap with stand-ins", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-probe-test-")));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A fake bwrap: answers --version and --help, logs every other call, then fails or succeeds. */
  function standIn(
    name: string,
    opts: { version: string; help: string; stderr?: string; exit: number },
  ): { path: string; log: string } {
    const path = join(dir, name);
    const log = join(dir, `${name}.log`);
    writeFileSync(
      path,
      [
        "#!/bin/sh",
        `case "$1" in`,
        `  --version) echo 'bubblewrap ${opts.version}'; exit 0 ;;`,
        `  --help) printf '%s\\n' 'usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]' '${opts.help}'; exit 0 ;;`,
        "esac",
        `echo "$*" >> '${log}'`,
        opts.stderr ? `echo '${opts.stderr}' >&2` : ":",
        `exit ${opts.exit}`,
        "",
      ].join("\n"),
    );
    chmodSync(path, 0o755);
    return { path, log };
  }
  const HELP =
    "    --disable-userns             Disable further use of user namespaces inside sandbox";

  const unavailable =
    (...parts: (string | RegExp)[]) =>
    (error: unknown): boolean => {
      assert.ok(error instanceof PitcrewError, String(error));
      assert.equal(error.code, "sandbox-unavailable");
      for (const part of parts) {
        if (typeof part === "string")
          assert.ok(error.message.includes(part), `${part}\nin: ${error.message}`);
        else assert.match(error.message, part);
      }
      assert.match(error.message, /Nothing was run\.$/);
      return true;
    };

  test("findBwrap takes the first location that exists", () => {
    const { path } = standIn("first", { version: "0.9.0", help: HELP, exit: 0 });
    assert.equal(findBwrap([join(dir, "absent"), path, "/usr/bin/bwrap"]), path);
    assert.equal(findBwrap([join(dir, "absent")]), null);
  });

  test("a stand-in that works is accepted after one namespace attempt with the policy's flags", async () => {
    const { path, log } = standIn("works", { version: "0.11.0", help: HELP, exit: 0 });
    const result = await probeBwrap({ locations: [path], allowSetup: false, facts: CLEAN });
    assert.deepEqual(result, { bwrapPath: path, version: "0.11.0", fixesApplied: [] });
    const calls = readFileSync(log, "utf8").trim().split("\n");
    assert.equal(calls.length, 1);
    for (const flag of [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-net",
      "--disable-userns",
      "--ro-bind / /",
      "--proc /proc",
      "--dev /dev",
      "-- /bin/true",
    ]) {
      assert.ok(calls[0]?.includes(flag), `${flag} in ${calls[0]}`);
    }
  });

  test("Ubuntu's AppArmor refusal: sandbox-unavailable with bwrap's words and the workflow step", async () => {
    const { path, log } = standIn("apparmor", {
      version: "0.9.0",
      help: HELP,
      stderr: UID_MAP,
      exit: 1,
    });
    const messages: string[] = [];
    await assert.rejects(
      probeBwrap({
        locations: [path],
        allowSetup: false,
        facts: CLEAN,
        log: (m) => messages.push(m),
      }),
      unavailable(
        UID_MAP,
        "Ubuntu's AppArmor forbids unprivileged user namespaces",
        "sudo apparmor_parser -r /etc/apparmor.d/bwrap",
        "- name: Let bubblewrap create user namespaces",
      ),
    );
    assert.equal(
      readFileSync(log, "utf8").trim().split("\n").length,
      1,
      "no fix tried without setup",
    );
    assert.deepEqual(messages, []);
  });

  test("the loopback variant and the sysctl fact lead to the same advice", async () => {
    const { path } = standIn("rtm", { version: "0.9.0", help: HELP, stderr: RTM_ADDR, exit: 1 });
    await assert.rejects(
      probeBwrap({ locations: [path], allowSetup: false, facts: CLEAN }),
      unavailable(RTM_ADDR, "sudo apparmor_parser"),
    );
    const { path: other } = standIn("other", {
      version: "0.9.0",
      help: HELP,
      stderr: CONTAINER,
      exit: 1,
    });
    await assert.rejects(
      probeBwrap({
        locations: [other],
        allowSetup: false,
        facts: { ...CLEAN, apparmorRestrict: "1" },
      }),
      unavailable(CONTAINER, "sudo apparmor_parser"),
    );
  });

  test("Debian's disabled user namespaces: the sysctl to add", async () => {
    const { path } = standIn("debian", { version: "0.8.0", help: HELP, stderr: DEBIAN, exit: 1 });
    await assert.rejects(
      probeBwrap({ locations: [path], allowSetup: false, facts: { ...CLEAN, usernsClone: "0" } }),
      unavailable(
        "No permissions to create new namespace",
        "sudo sysctl -w kernel.unprivileged_userns_clone=1",
      ),
    );
  });

  test("an unknown failure still fails closed, with the container advice", async () => {
    const { path } = standIn("unknown", {
      version: "0.8.0",
      help: HELP,
      stderr: CONTAINER,
      exit: 1,
    });
    await assert.rejects(
      probeBwrap({ locations: [path], allowSetup: false, facts: CLEAN }),
      unavailable(CONTAINER, /container/),
    );
    const { path: silent } = standIn("silent", { version: "0.8.0", help: HELP, exit: 1 });
    await assert.rejects(
      probeBwrap({ locations: [silent], allowSetup: false, facts: CLEAN }),
      unavailable("The sandbox cannot start:"),
    );
  });

  test("a bwrap without --disable-userns is refused as too old, before any namespace attempt", async () => {
    const { path, log } = standIn("old", {
      version: "0.6.1",
      help: "    --unshare-user               Create new user namespace",
      exit: 0,
    });
    await assert.rejects(
      probeBwrap({ locations: [path], allowSetup: false, facts: CLEAN }),
      unavailable(`bubblewrap 0.6.1 at ${path} is too old`, "--disable-userns", "0.8.0 or later"),
    );
    assert.throws(() => readFileSync(log), "the stand-in was never asked to sandbox anything");
  });

  test("no bwrap at all: the apt-get command to add, nothing installed without setup", async () => {
    await assert.rejects(
      probeBwrap({ locations: [join(dir, "nowhere", "bwrap")], allowSetup: false, facts: CLEAN }),
      unavailable("bubblewrap (bwrap) is not installed", "sudo apt-get install -y bubblewrap"),
    );
  });

  test("a bwrap only on PATH is named and never run: pitcrew looks in fixed places only", async () => {
    // Any call at all, --version included, leaves a mark.
    const path = join(dir, "bwrap");
    const log = join(dir, "bwrap-on-path.log");
    writeFileSync(path, `#!/bin/sh\necho "$*" >> '${log}'\nexit 0\n`);
    chmodSync(path, 0o755);
    const nowhere = [join(dir, "nowhere", "bwrap"), join(dir, "nowhere-either", "bwrap")];
    await assert.rejects(
      probeBwrap({
        locations: nowhere,
        allowSetup: false,
        facts: CLEAN,
        pathVariable: `relative/bin:${dir}:/usr/bin`,
      }),
      unavailable(
        `bubblewrap (bwrap) is not installed at ${nowhere[0]} or ${nowhere[1]}`,
        "never on PATH",
        `The bwrap at ${path}, on your PATH, is not used`,
        `sudo ln -s ${path} /usr/local/bin/bwrap`,
      ),
    );
    assert.throws(() => readFileSync(log), "the bwrap on PATH was run");
  });
});
