/**
 * A seccomp deny-list for bwrap's `--seccomp FD`, assembled as classic BPF. It returns EPERM for
 * kernel interfaces a build never needs but an escape often does (io_uring, keyrings, ptrace and
 * process_vm_*, bpf, perf, userfaultfd, module and kexec loading, every mount API), and for the
 * TIOCSTI/TIOCLINUX ioctls that push keystrokes into a terminal. Everything else is allowed.
 * Pure: the bytes depend only on the architecture.
 */

export type SeccompArch = "x64" | "arm64";

const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** Syscall numbers by name: x86_64 from asm/unistd_64.h, arm64 from asm-generic/unistd.h. */
export const DENIED: Readonly<Record<string, Record<SeccompArch, number>>> = {
  io_uring_setup: { x64: 425, arm64: 425 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  bpf: { x64: 321, arm64: 280 },
  perf_event_open: { x64: 298, arm64: 241 },
  userfaultfd: { x64: 323, arm64: 282 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  acct: { x64: 163, arm64: 89 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  reboot: { x64: 169, arm64: 142 },
  pivot_root: { x64: 155, arm64: 41 },
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  move_mount: { x64: 429, arm64: 429 },
  open_tree: { x64: 428, arm64: 428 },
  mount_setattr: { x64: 442, arm64: 442 },
};

const IOCTL: Record<SeccompArch, number> = { x64: 16, arm64: 29 };
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** x32 syscalls on x86_64 carry this bit; the filter denies them all rather than map them. */
const X32_SYSCALL_BIT = 0x40000000;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;

/** Offsets in `struct seccomp_data` (little-endian): nr, arch, low half of args[1]. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG1_LOW = 24;

type Label = "deny" | "ioctl";
interface Instruction {
  code: number;
  k: number;
  /** Jump targets for conditional jumps: a label, or null for "next instruction". */
  jt?: Label | null;
  jf?: Label | null;
  label?: Label;
}

function program(arch: SeccompArch): Instruction[] {
  const out: Instruction[] = [
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ_K, k: AUDIT_ARCH[arch], jt: null, jf: "deny" },
    { code: LD_W_ABS, k: OFFSET_NR },
  ];
  if (arch === "x64") out.push({ code: JGE_K, k: X32_SYSCALL_BIT, jt: "deny", jf: null });
  for (const numbers of Object.values(DENIED)) {
    out.push({ code: JEQ_K, k: numbers[arch], jt: "deny", jf: null });
  }
  out.push(
    { code: JEQ_K, k: IOCTL[arch], jt: "ioctl", jf: null },
    { code: RET_K, k: RET_ALLOW },
    { code: LD_W_ABS, k: OFFSET_ARG1_LOW, label: "ioctl" },
    { code: JEQ_K, k: TIOCSTI, jt: "deny", jf: null },
    { code: JEQ_K, k: TIOCLINUX, jt: "deny", jf: null },
    { code: RET_K, k: RET_ALLOW },
    { code: RET_K, k: RET_EPERM, label: "deny" },
  );
  return out;
}

/** The filter as `struct sock_filter[]` bytes, ready to be read by bwrap from a file descriptor. */
export function seccompFilter(arch: SeccompArch): Buffer {
  const instructions = program(arch);
  const labels = new Map<Label, number>();
  instructions.forEach((instruction, index) => {
    if (instruction.label) labels.set(instruction.label, index);
  });
  const offset = (from: number, target: Label | null | undefined): number => {
    if (target === null || target === undefined) return 0;
    const jump = (labels.get(target) ?? Number.NaN) - (from + 1);
    if (!(jump >= 0 && jump <= 255)) throw new Error(`seccomp jump to ${target} out of range`);
    return jump;
  };
  const bytes = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(offset(index, instruction.jt), index * 8 + 2);
    bytes.writeUInt8(offset(index, instruction.jf), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}

/** The architecture this process runs on, when the filter knows it. */
export function hostSeccompArch(): SeccompArch | null {
  if (process.arch === "x64") return "x64";
  if (process.arch === "arm64") return "arm64";
  return null;
}
