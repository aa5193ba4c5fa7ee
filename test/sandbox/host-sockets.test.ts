/**
 * Which host sockets the sandbox covers: the kernel's table parsed, the pure choice of what a
 * command would see, the argv that covers them, and the discovery run against real listeners
 * (the escape battery, T50–T55, runs the attacks themselves).
 */
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { bwrapArgs } from "../../src/sandbox/bwrap.ts";
import {
  hostSocketPaths,
  lostMaskRace,
  parseUnixTable,
  socketMasks,
} from "../../src/sandbox/host-sockets.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { testPolicy } from "../support/policy.ts";

const TABLE = `Num       RefCount Protocol Flags    Type St Inode Path
00000000dd065b13: 00000002 00000000 00010000 0001 01 100576 /var/tmp/a b/x.sock
000000001ced6c12: 00000003 00000000 00000000 0001 03  1056
00000000445c5c1b: 00000002 00000000 00010000 0001 01 47582 @/tmp/.X11-unix/X0
00000000445c5c1c: 00000002 00000000 00010000 0005 01 47583 relative.sock
000000006df6658f: 00000003 00000000 00000000 0001 03 45459 /run/systemd/notify
`;

describe("host sockets", () => {
  test("parseUnixTable keeps absolute paths (spaces included), not abstract or unnamed ones", () => {
    assert.deepEqual(parseUnixTable(TABLE), ["/var/tmp/a b/x.sock", "/run/systemd/notify"]);
  });

  test("socketMasks: what a command would see, the deepest mount deciding", () => {
    const policy = testPolicy({
      workspace: "/h/user/work/repo",
      home: "/h/user",
      homeReadOnly: ["/h/user/.cache/pip"],
      hidden: ["/run", "/opt/runner"],
    });
    const shown = [
      "/var/tmp/x.sock",
      "/srv/app/x.sock",
      "/h/user/work/repo/x.sock",
      "/h/user/.cache/pip/x.sock",
      "/opt/hostedtoolcache/x.sock",
    ];
    const hidden = [
      "/run/docker.sock",
      "/tmp/x.sock",
      "/dev/log",
      "/dev/shm/x.sock",
      "/h/user/x.sock",
      "/h/user/work/other/x.sock",
      "/opt/runner/x.sock",
    ];
    assert.deepEqual(socketMasks(policy, [...shown, ...hidden]), shown);
  });

  test("each covered socket is bound over with /dev/null after every other bind", () => {
    const policy = testPolicy({
      overlays: [{ source: "/state/gitconfig-0", target: "/w/repo/.git/config" }],
    });
    const args = bwrapArgs(policy, { argv: ["true"], maskedSockets: ["/w/repo/s.sock", "/srv/s"] });
    const mask = args.indexOf("/w/repo/s.sock");
    assert.deepEqual(args.slice(mask - 2, mask + 4), [
      "--ro-bind",
      "/dev/null",
      "/w/repo/s.sock",
      "--ro-bind",
      "/dev/null",
      "/srv/s",
    ]);
    const lastBind = Math.max(args.lastIndexOf("--bind"), args.indexOf("/state/gitconfig-0") - 1);
    assert.ok(lastBind < mask - 2, "a bind after the masks could show a socket again");
  });

  test("hostSocketPaths finds a listener bound just now, by its real path, and drops it once closed", async () => {
    const folder = realpathSync(mkdtempSync("/var/tmp/pitcrew-host-sockets-"));
    const path = join(folder, "now.sock");
    const server = createServer();
    try {
      await new Promise<void>((resolve) => server.listen(path, () => resolve()));
      assert.ok(hostSocketPaths().includes(path));
      await new Promise((resolve) => server.close(resolve));
      assert.ok(!hostSocketPaths().includes(path));
    } finally {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test(
    "a socket removed between the scan and bwrap's mounts: the command runs once, on a fresh scan",
    needsBwrap(),
    async () => {
      const workspace = realpathSync(mkdtempSync("/var/tmp/pitcrew-race-"));
      const gone = join(workspace, "..", `pitcrew-gone-${process.pid}.sock`);
      const scans: (readonly string[])[] = [[gone], []];
      let scanned = 0;
      const sandbox = await createSandbox(DEFAULT_SETTINGS, {
        workspace,
        allowSetup: false,
        hostSockets: () => scans[scanned++] ?? [],
      });
      try {
        const result = await sandbox.run({
          argv: ["bash", "-c", "echo ran >> runs.txt; cat runs.txt"],
        });
        assert.equal(result.exitCode, 0, result.stderr.text);
        assert.equal(result.stdout.text, "ran\n", "the command ran exactly once");
        assert.equal(scanned, 2, "the retry scanned again");
      } finally {
        sandbox.dispose();
        rmSync(workspace, { recursive: true, force: true });
      }
    },
  );

  test("lostMaskRace: only bwrap's own error for a covered path that is gone", () => {
    const failed = (text: string) => ({ exitCode: 1, stderr: { text } });
    const gone = "/var/tmp/pitcrew-surely-gone.sock";
    const said = (path: string) => `bwrap: Can't create file at ${path}: Read-only file system\n`;
    assert.equal(lostMaskRace(failed(said(gone)), [gone]), true);
    assert.equal(lostMaskRace(failed(said(gone)), []), false, "not a path bwrap covered");
    assert.equal(lostMaskRace(failed(said("/dev/null")), ["/dev/null"]), false, "still there");
    assert.equal(lostMaskRace({ exitCode: 2, stderr: { text: said(gone) } }, [gone]), false);
    assert.equal(lostMaskRace(failed(`output\n${said(gone)}`), [gone]), false, "the command spoke");
    // The socket's folder removed with it: bwrap cannot make the folders above the mount point.
    const parents = `bwrap: Can't mkdir parents for ${gone}: Read-only file system\n`;
    assert.equal(lostMaskRace(failed(parents), [gone]), true);
    assert.equal(lostMaskRace(failed(parents), []), false);
  });
});
