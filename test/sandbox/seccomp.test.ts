/**
 * The seccomp filter: its bytes decoded as classic BPF and run through a small interpreter for
 * every denied syscall on both architectures; then the real kernel running it under bwrap.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { runContained } from "../../src/sandbox/runner.ts";
import { createSandbox } from "../../src/sandbox/sandbox.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import { DENIED, hostSeccompArch, seccompFilter } from "../../src/sandbox/seccomp.ts";
import type { SeccompArch } from "../../src/sandbox/seccomp.ts";
import { needsBwrap } from "../support/bwrap.ts";

/** The module's table; the kernel headers check it below. */
const NUMBERS = DENIED;
/** Syscalls every build makes, which must pass. */
const ORDINARY: Record<string, Record<SeccompArch, number>> = {
  read: { x64: 0, arm64: 63 },
  write: { x64: 1, arm64: 64 },
  openat: { x64: 257, arm64: 56 },
  clone: { x64: 56, arm64: 220 },
  clone3: { x64: 435, arm64: 435 },
  execve: { x64: 59, arm64: 221 },
  mmap: { x64: 9, arm64: 222 },
  exit_group: { x64: 231, arm64: 94 },
  unshare: { x64: 272, arm64: 97 },
  socket: { x64: 41, arm64: 198 },
};
const IOCTL: Record<SeccompArch, number> = { x64: 16, arm64: 29 };
const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const TCGETS = 0x5401;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;
const ARCHES: SeccompArch[] = ["x64", "arm64"];

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

function decode(bytes: Buffer): Instruction[] {
  assert.equal(bytes.length % 8, 0, "whole 8-byte sock_filter records");
  const out: Instruction[] = [];
  for (let offset = 0; offset < bytes.length; offset += 8) {
    out.push({
      code: bytes.readUInt16LE(offset),
      jt: bytes.readUInt8(offset + 2),
      jf: bytes.readUInt8(offset + 3),
      k: bytes.readUInt32LE(offset + 4),
    });
  }
  return out;
}

/** struct seccomp_data: nr, arch, instruction_pointer (u64), args[6] (u64), little-endian. */
function seccompData(arch: number, nr: number, args: bigint[] = []): Buffer {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, index) => data.writeBigUInt64LE(arg, 16 + index * 8));
  return data;
}

/** A classic-BPF interpreter for the opcodes a seccomp filter of this kind may use. */
function run(program: readonly Instruction[], data: Buffer): number {
  let accumulator = 0;
  for (let pc = 0, steps = 0; steps < 4096; steps++) {
    const ins = program[pc];
    assert.ok(ins, `fell off the end of the program at ${pc}`);
    switch (ins.code) {
      case 0x20: // BPF_LD | BPF_W | BPF_ABS
        assert.ok(ins.k % 4 === 0 && ins.k + 4 <= 64, `load at ${ins.k}`);
        accumulator = data.readUInt32LE(ins.k);
        pc++;
        break;
      case 0x15: // BPF_JMP | BPF_JEQ | BPF_K
        pc += 1 + (accumulator === ins.k ? ins.jt : ins.jf);
        break;
      case 0x35: // BPF_JMP | BPF_JGE | BPF_K
        pc += 1 + (accumulator >>> 0 >= ins.k >>> 0 ? ins.jt : ins.jf);
        break;
      case 0x06: // BPF_RET | BPF_K
        return ins.k;
      default:
        assert.fail(`unexpected opcode 0x${ins.code.toString(16)} at ${pc}`);
    }
  }
  assert.fail("no return");
}

describe("seccompFilter: the decoded program", () => {
  for (const arch of ARCHES) {
    const program = decode(seccompFilter(arch));
    const verdict = (nr: number, args: bigint[] = [], auditArch = AUDIT_ARCH[arch]): number =>
      run(program, seccompData(auditArch, nr, args));

    test(`${arch}: checks the architecture first, then loads the syscall number`, () => {
      assert.deepEqual(program[0], { code: 0x20, jt: 0, jf: 0, k: 4 });
      assert.equal(program[1]?.code, 0x15);
      assert.equal(program[1]?.k, AUDIT_ARCH[arch]);
      assert.equal(program[1]?.jt, 0);
      assert.deepEqual(program[2], { code: 0x20, jt: 0, jf: 0, k: 0 });
      const other = arch === "x64" ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
      for (const nr of [0, 1, 59]) assert.equal(verdict(nr, [], other), RET_EPERM);
      assert.equal(verdict(0, [], 0x40000003), RET_EPERM, "i386 on x86_64 is refused");
    });

    test(`${arch}: every jump lands inside the program, and every path ends in a return`, () => {
      program.forEach((ins, index) => {
        if (ins.code === 0x15 || ins.code === 0x35) {
          assert.ok(index + 1 + ins.jt < program.length, `jt at ${index}`);
          assert.ok(index + 1 + ins.jf < program.length, `jf at ${index}`);
        } else {
          assert.equal(ins.jt, 0);
          assert.equal(ins.jf, 0);
        }
      });
      assert.equal(program.at(-1)?.code, 0x06);
      const returns = new Set(program.filter(({ code }) => code === 0x06).map(({ k }) => k));
      assert.deepEqual(
        [...returns].sort(),
        [RET_EPERM, RET_ALLOW].sort(),
        "only ALLOW and EPERM(1)",
      );
      assert.ok(program.length < 4096);
    });

    test(`${arch}: every denied syscall has its number in the program and gets EPERM`, () => {
      const compared = new Set(program.filter(({ code }) => code === 0x15).map(({ k }) => k));
      for (const [name, numbers] of Object.entries(NUMBERS)) {
        assert.ok(compared.has(numbers[arch]), `${name} (${numbers[arch]}) missing`);
        assert.equal(verdict(numbers[arch]), RET_EPERM, name);
      }
    });

    test(`${arch}: ordinary syscalls are allowed`, () => {
      for (const [name, numbers] of Object.entries(ORDINARY)) {
        assert.equal(verdict(numbers[arch]), RET_ALLOW, name);
      }
    });

    test(`${arch}: ioctl is refused only for TIOCSTI and TIOCLINUX (low 32 bits of the request)`, () => {
      const ioctl = IOCTL[arch];
      assert.equal(verdict(ioctl, [0n, BigInt(TIOCSTI)]), RET_EPERM);
      assert.equal(verdict(ioctl, [0n, BigInt(TIOCLINUX)]), RET_EPERM);
      assert.equal(verdict(ioctl, [7n, 0xffffffff00000000n | BigInt(TIOCSTI)]), RET_EPERM);
      assert.equal(verdict(ioctl, [0n, BigInt(TCGETS)]), RET_ALLOW);
      assert.equal(verdict(ioctl, [BigInt(TIOCSTI), 0n]), RET_ALLOW, "the fd is not the request");
      // The request is args[1]: its low word lives at offset 24 of seccomp_data.
      const loads = program.filter(({ code }) => code === 0x20).map(({ k }) => k);
      assert.deepEqual(loads, [4, 0, 24]);
    });
  }

  test("x64 refuses x32 syscalls (bit 30); arm64 has no such check", () => {
    const x64 = decode(seccompFilter("x64"));
    assert.deepEqual(x64[3], { code: 0x35, jt: x64.length - 4 - 1, jf: 0, k: 0x40000000 });
    assert.equal(run(x64, seccompData(AUDIT_ARCH.x64, 0x40000000 + 1)), RET_EPERM);
    assert.equal(run(x64, seccompData(AUDIT_ARCH.x64, 0x40000000 + 59)), RET_EPERM);
    const arm64 = decode(seccompFilter("arm64"));
    assert.ok(!arm64.some(({ code }) => code === 0x35));
    assert.equal(x64.length, arm64.length + 1);
  });

  test("the bytes depend only on the architecture", () => {
    assert.deepEqual(seccompFilter("x64"), seccompFilter("x64"));
    assert.notDeepEqual(seccompFilter("x64"), seccompFilter("arm64"));
  });

  test("the syscall numbers match the kernel headers (linux-libc-dev; required under CI)", (t) => {
    const headers: [SeccompArch, string, RegExp][] = [
      ["x64", "/usr/include/x86_64-linux-gnu/asm/unistd_64.h", /#define __NR_(\w+) (\d+)/g],
      ["arm64", "/usr/include/asm-generic/unistd.h", /#define __NR(?:3264)?_(\w+) (\d+)/g],
    ];
    let checked = 0;
    for (const [arch, file, pattern] of headers) {
      if (!existsSync(file)) continue;
      const defined = new Map(
        [...readFileSync(file, "utf8").matchAll(pattern)].map((m) => [m[1], Number(m[2])]),
      );
      for (const [name, numbers] of Object.entries({ ...NUMBERS, ...ORDINARY, ioctl: IOCTL })) {
        if (defined.has(name)) {
          assert.equal(numbers[arch], defined.get(name), `${arch} ${name}`);
          checked++;
        }
      }
    }
    if (checked === 0) {
      assert.notEqual(
        process.env.CI,
        "true",
        "kernel headers missing: apt-get install linux-libc-dev",
      );
      t.skip("no kernel headers installed (apt-get install linux-libc-dev)");
      return;
    }
    assert.ok(checked >= Object.keys(NUMBERS).length * 2, `only ${checked} numbers checked`);
  });
});

/** Prints the errno each call gets (0 = success), one `name=errno` per line. */
const PROBE = String.raw`
import ctypes, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
x64 = platform.machine() == "x86_64"
nr = dict(keyctl=250 if x64 else 219, io_uring_setup=425, ptrace=101 if x64 else 117,
          ioctl=16 if x64 else 29, add_key=248 if x64 else 217)
params = ctypes.create_string_buffer(120)
def call(name, *args):
    ctypes.set_errno(0)
    result = libc.syscall(nr[name], *args)
    return ctypes.get_errno() if result == -1 else 0
r, w = __import__("os").pipe()
print("keyctl=%d" % call("keyctl", 0, -3, 0))
print("add_key=%d" % call("add_key", b"user", b"pitcrew", b"x", 1, -3))
print("io_uring_setup=%d" % call("io_uring_setup", 1, params))
print("tiocsti=%d" % call("ioctl", r, 0x5412, b"x"))
print("tioclinux=%d" % call("ioctl", r, 0x541C, b"x"))
print("tcgets=%d" % call("ioctl", r, 0x5401, ctypes.create_string_buffer(64)))
print("ptrace=%d" % call("ptrace", 0, 0, 0, 0))
`;

function errnos(text: string): Record<string, number> {
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => line.split("="))
      .map(([name, value]) => [name ?? "", Number(value)]),
  );
}

const EPERM = 1;
const ENOTTY = 25;

describe("seccomp under the real kernel", needsBwrap(), () => {
  let root = "";
  let sandbox: Sandbox;
  const python = ["/usr/bin/python3", "/bin/python3"].find((path) => existsSync(path));

  before(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "pitcrew-seccomp-test-")));
    mkdirSync(join(root, "home"));
    mkdirSync(join(root, "ws"));
    sandbox = await createSandbox(
      { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
      {
        workspace: join(root, "ws"),
        env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" },
        allowSetup: false,
      },
    );
  });
  after(() => {
    sandbox?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("the filter is passed to bwrap as fd 3 and an ordinary command works", async (t) => {
    if (hostSeccompArch() === null) return t.skip(`no filter for ${process.arch}`);
    const prepared = sandbox.prepare({ argv: ["true"] });
    assert.deepEqual(prepared.seccomp, seccompFilter(hostSeccompArch() ?? "x64"));
    const dashdash = prepared.argv.lastIndexOf("--");
    assert.deepEqual(prepared.argv.slice(dashdash - 2, dashdash), ["--seccomp", "3"]);
    const result = await sandbox.run({ argv: ["sh", "-c", "echo ok; ls / >/dev/null"] });
    assert.equal(result.exitCode, 0, result.stderr.text);
    assert.equal(result.stdout.text, "ok\n");
    const twice = await sandbox.run({ argv: ["true"] });
    assert.equal(twice.exitCode, 0, "a fresh descriptor per spawn: bwrap reads it to the end");
  });

  test("keyctl, add_key, io_uring_setup, ptrace and TIOCSTI/TIOCLINUX get EPERM; without the filter they do not", async (t) => {
    if (hostSeccompArch() === null) return t.skip(`no filter for ${process.arch}`);
    if (python === undefined) return t.skip("python3 is not installed");
    const argv = [python, "-c", PROBE];
    const filtered = await sandbox.run({ argv });
    assert.equal(filtered.exitCode, 0, filtered.stderr.text);
    const inside = errnos(filtered.stdout.text);
    assert.deepEqual(inside, {
      keyctl: EPERM,
      add_key: EPERM,
      io_uring_setup: EPERM,
      tiocsti: EPERM,
      tioclinux: EPERM,
      tcgets: ENOTTY,
      ptrace: EPERM,
    });

    // The same sandbox without --seccomp: proves the EPERMs above come from the filter.
    const prepared = sandbox.prepare({ argv });
    const seccomp = prepared.argv.indexOf("--seccomp");
    const unfiltered = prepared.argv.filter(
      (_, index) => index !== seccomp && index !== seccomp + 1,
    );
    const control = await runContained({
      argv: unfiltered,
      env: prepared.env,
      timeoutMs: 20_000,
      outputBytes: 1 << 16,
    });
    assert.equal(control.exitCode, 0, control.stderr.text);
    const outside = errnos(control.stdout.text);
    assert.notEqual(outside.keyctl, EPERM, "keyctl reaches the kernel without the filter");
    assert.equal(outside.tiocsti, ENOTTY, "TIOCSTI reaches the kernel without the filter");
    assert.equal(outside.tioclinux, ENOTTY);
    // These may be refused by the host itself (Yama, kernel.io_uring_disabled); then the
    // filtered EPERM above proves less, and the log says so.
    for (const name of ["add_key", "ptrace", "io_uring_setup"]) {
      if (outside[name] === EPERM)
        t.diagnostic(`${name} is refused by this host even without the filter`);
    }
  });
});
