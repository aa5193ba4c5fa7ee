/**
 * What compressed data in a pushed file holds, for the secret scan: gzip streams, zip members
 * (stored, deflated or zstd) and zstd frames are unpacked within fixed bounds, nested ones too.
 * Data over a bound, or that does not unpack, comes back as a problem of its own kind — never
 * passed unseen. Pure: bytes in, bytes out; reading blobs is secret-files.ts's.
 */
import type { Buffer } from "node:buffer";
import { gunzipSync, inflateRawSync, zstdDecompressSync } from "node:zlib";

const MIB = 1024 * 1024;

/** The bounds of one push's unpacking: each member, all of them together, and nesting. */
export const UNPACK_LIMITS = {
  /** What one gzip stream, zstd frame or zip member may unpack to. */
  memberBytes: 32 * MIB,
  /** What all compressed data in one push may unpack to, together. */
  totalBytes: 256 * MIB,
  /** Compressed data inside compressed data, this many layers deep. */
  depth: 4,
  /** Members of one zip archive. */
  members: 10_000,
} as const;

export type Layer = "gzip" | "zip" | "zstd";

/** Where a piece of unpacked content sits: its path inside archives, and the layers around it. */
export interface Unpacked {
  /** The file and the members inside it: `["logs.zip", "2024/run.txt"]`. */
  names: string[];
  layers: Layer[];
  bytes: Buffer;
}

export interface UnpackProblem {
  names: string[];
  layers: Layer[];
  kind: string;
}

/** The room left for unpacking in one push; shared by every file of it. */
export interface UnpackBudget {
  bytesLeft: number;
}

export function unpackBudget(): UnpackBudget {
  return { bytesLeft: UNPACK_LIMITS.totalBytes };
}

export const PROBLEM_KINDS = {
  tooLarge: `compressed data too large to scan (over ${UNPACK_LIMITS.memberBytes / MIB} MiB unpacked, ${UNPACK_LIMITS.totalBytes / MIB} MiB in all, or ${UNPACK_LIMITS.depth} layers deep)`,
  broken: "compressed data that does not unpack",
  encrypted: "an encrypted zip member, which pitcrew cannot read",
} as const;

/** The compression `bytes` start with, by their magic number. */
export function compressionOf(bytes: Buffer): Layer | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes.readUInt32LE(0) === 0x04034b50) return "zip";
  if (bytes.readUInt32LE(0) === 0xfd2fb528) return "zstd";
  return undefined;
}

class Problem extends Error {
  readonly kind: string;

  constructor(kind: string) {
    super(kind);
    this.kind = kind;
  }
}

/** Runs one decompressor within the member bound and what is left of the push's budget. */
function inflate(budget: UnpackBudget, run: (limit: number) => Buffer): Buffer {
  const limit = Math.min(UNPACK_LIMITS.memberBytes, budget.bytesLeft);
  if (limit <= 0) throw new Problem(PROBLEM_KINDS.tooLarge);
  let out: Buffer;
  try {
    out = run(limit);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Problem(
      code === "ERR_BUFFER_TOO_LARGE" ? PROBLEM_KINDS.tooLarge : PROBLEM_KINDS.broken,
    );
  }
  // A stored zip member is not inflated, so its size is checked here.
  if (out.length > limit) throw new Problem(PROBLEM_KINDS.tooLarge);
  budget.bytesLeft -= out.length;
  return out;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ZSTD = 93;

/** The end-of-central-directory record's offset: within the last 64 KiB (its comment's bound). */
function endOfDirectory(bytes: Buffer): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new Problem(PROBLEM_KINDS.broken);
}

interface ZipMember {
  name: string;
  bytes: Buffer;
}

/** Every file member of a zip archive, unpacked; ZIP64 archives and unknown methods are problems. */
function zipMembers(bytes: Buffer, budget: UnpackBudget): ZipMember[] {
  const end = endOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Problem(PROBLEM_KINDS.tooLarge);
  if (count > UNPACK_LIMITS.members) throw new Problem(PROBLEM_KINDS.tooLarge);
  const members: ZipMember[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new Problem(PROBLEM_KINDS.broken);
    }
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const packedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at = next;
    if (name.endsWith("/")) continue;
    if ((flags & 1) !== 0) throw new Problem(PROBLEM_KINDS.encrypted);
    if (packedSize === 0xffffffff || local === 0xffffffff) {
      throw new Problem(PROBLEM_KINDS.tooLarge);
    }
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
      throw new Problem(PROBLEM_KINDS.broken);
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const packed = bytes.subarray(start, start + packedSize);
    if (packed.length !== packedSize) throw new Problem(PROBLEM_KINDS.broken);
    const unpacked =
      method === STORED
        ? inflate(budget, () => packed)
        : method === DEFLATED
          ? inflate(budget, (limit) => inflateRawSync(packed, { maxOutputLength: limit }))
          : method === ZSTD
            ? inflate(budget, (limit) => zstdDecompressSync(packed, { maxOutputLength: limit }))
            : undefined;
    if (unpacked === undefined) throw new Problem(PROBLEM_KINDS.broken);
    members.push({ name, bytes: unpacked });
  }
  return members;
}

function unpackLayer(layer: Layer, bytes: Buffer, budget: UnpackBudget): ZipMember[] {
  switch (layer) {
    case "gzip":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => gunzipSync(bytes, { maxOutputLength: limit })),
        },
      ];
    case "zstd":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => zstdDecompressSync(bytes, { maxOutputLength: limit })),
        },
      ];
    case "zip":
      return zipMembers(bytes, budget);
  }
}

/**
 * The content `bytes` (a file named `name`) hold for the scan: the bytes themselves when they are
 * not compressed, else what they unpack to, layer by layer (a gzip stream keeps its file's name; a
 * zip member adds its own). Anything that cannot be unpacked within the bounds is a problem.
 */
export function unpack(
  name: string,
  bytes: Buffer,
  budget: UnpackBudget,
): { contents: Unpacked[]; problems: UnpackProblem[] } {
  const contents: Unpacked[] = [];
  const problems: UnpackProblem[] = [];
  const visit = (names: string[], layers: Layer[], data: Buffer): void => {
    const layer = data.length >= 4 ? compressionOf(data) : undefined;
    if (layer === undefined) {
      contents.push({ names, layers, bytes: data });
      return;
    }
    const inner = [...layers, layer];
    if (inner.length > UNPACK_LIMITS.depth) {
      problems.push({ names, layers: inner, kind: PROBLEM_KINDS.tooLarge });
      return;
    }
    let members: ZipMember[];
    try {
      members = unpackLayer(layer, data, budget);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push({ names, layers: inner, kind: error.kind });
      return;
    }
    for (const member of members) {
      visit(member.name === "" ? names : [...names, member.name], inner, member.bytes);
    }
  };
  visit([name], [], bytes);
  return { contents, problems };
}
