import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/git/secret-unpack.ts
import { gunzipSync, inflateRawSync, zstdDecompressSync } from "node:zlib";
var MIB = 1024 * 1024;
var UNPACK_LIMITS = {
  /** What one gzip stream, zstd frame or zip member may unpack to. */
  memberBytes: 32 * MIB,
  /** What all compressed data in one push may unpack to, together. */
  totalBytes: 256 * MIB,
  /** Compressed data inside compressed data, this many layers deep. */
  depth: 4,
  /** Members of one zip archive. */
  members: 1e4
};
function unpackBudget() {
  return { bytesLeft: UNPACK_LIMITS.totalBytes };
}
var PROBLEM_KINDS = {
  tooLarge: `compressed data too large to scan (over ${UNPACK_LIMITS.memberBytes / MIB} MiB unpacked, ${UNPACK_LIMITS.totalBytes / MIB} MiB in all, or ${UNPACK_LIMITS.depth} layers deep)`,
  broken: "compressed data that does not unpack",
  encrypted: "an encrypted zip member, which pitcrew cannot read"
};
function compressionOf(bytes) {
  if (bytes[0] === 31 && bytes[1] === 139) return "gzip";
  if (bytes.readUInt32LE(0) === 67324752) return "zip";
  if (bytes.readUInt32LE(0) === 4247762216) return "zstd";
  return void 0;
}
var Problem = class extends Error {
  kind;
  constructor(kind) {
    super(kind);
    this.kind = kind;
  }
};
function inflate(budget, run) {
  const limit = Math.min(UNPACK_LIMITS.memberBytes, budget.bytesLeft);
  if (limit <= 0) throw new Problem(PROBLEM_KINDS.tooLarge);
  let out;
  try {
    out = run(limit);
  } catch (error) {
    const code = error.code;
    throw new Problem(
      code === "ERR_BUFFER_TOO_LARGE" ? PROBLEM_KINDS.tooLarge : PROBLEM_KINDS.broken
    );
  }
  if (out.length > limit) throw new Problem(PROBLEM_KINDS.tooLarge);
  budget.bytesLeft -= out.length;
  return out;
}
var END_OF_DIRECTORY = 101010256;
var DIRECTORY_ENTRY = 33639248;
var LOCAL_HEADER = 67324752;
var STORED = 0;
var DEFLATED = 8;
var ZSTD = 93;
function endOfDirectory(bytes) {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65535); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new Problem(PROBLEM_KINDS.broken);
}
function zipMembers(bytes, budget) {
  const end = endOfDirectory(bytes);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 65535 || at === 4294967295) throw new Problem(PROBLEM_KINDS.tooLarge);
  if (count > UNPACK_LIMITS.members) throw new Problem(PROBLEM_KINDS.tooLarge);
  const members = [];
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
    if (packedSize === 4294967295 || local === 4294967295) {
      throw new Problem(PROBLEM_KINDS.tooLarge);
    }
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
      throw new Problem(PROBLEM_KINDS.broken);
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const packed = bytes.subarray(start, start + packedSize);
    if (packed.length !== packedSize) throw new Problem(PROBLEM_KINDS.broken);
    const unpacked = method === STORED ? inflate(budget, () => packed) : method === DEFLATED ? inflate(budget, (limit) => inflateRawSync(packed, { maxOutputLength: limit })) : method === ZSTD ? inflate(budget, (limit) => zstdDecompressSync(packed, { maxOutputLength: limit })) : void 0;
    if (unpacked === void 0) throw new Problem(PROBLEM_KINDS.broken);
    members.push({ name, bytes: unpacked });
  }
  return members;
}
function unpackLayer(layer, bytes, budget) {
  switch (layer) {
    case "gzip":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => gunzipSync(bytes, { maxOutputLength: limit }))
        }
      ];
    case "zstd":
      return [
        {
          name: "",
          bytes: inflate(budget, (limit) => zstdDecompressSync(bytes, { maxOutputLength: limit }))
        }
      ];
    case "zip":
      return zipMembers(bytes, budget);
  }
}
function unpack(name, bytes, budget) {
  const contents = [];
  const problems = [];
  const visit = (names, layers, data) => {
    const layer = data.length >= 4 ? compressionOf(data) : void 0;
    if (layer === void 0) {
      contents.push({ names, layers, bytes: data });
      return;
    }
    const inner = [...layers, layer];
    if (inner.length > UNPACK_LIMITS.depth) {
      problems.push({ names, layers: inner, kind: PROBLEM_KINDS.tooLarge });
      return;
    }
    let members;
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

export {
  UNPACK_LIMITS,
  unpackBudget,
  compressionOf,
  unpack
};
