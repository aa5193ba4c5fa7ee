/**
 * The secret scan of the files a push adds or changes, as git will push them (read whole from the
 * index, not from the worktree): each file's name, and its whole content — unpacked when it is
 * compressed (secret-unpack.ts) — for the values the harness holds. Token patterns in unpacked
 * content count too; in plain files they are looked for in the added lines only (publish.ts), so
 * a token-shaped fixture already in the repository does not block every later change to its file.
 */
import { Buffer } from "node:buffer";
import { gitBytes } from "./git.ts";
import { scanForSecrets, scanNames, showSource } from "./secret-scan.ts";
import type { Finding } from "./secret-scan.ts";
import { UNPACK_LIMITS, compressionOf, unpack, unpackBudget } from "./secret-unpack.ts";
import type { Layer, UnpackBudget } from "./secret-unpack.ts";
import type { StagedChange } from "./staged-checks.ts";

/** A file read whole for the scan; a larger one is a finding, not passed unseen. */
export const MAX_FILE_BYTES = UNPACK_LIMITS.memberBytes;
export const TOO_LARGE = `a file too large to scan (over ${MAX_FILE_BYTES / 1024 / 1024} MiB)`;
/** Blobs read per `git cat-file --batch`, by size: bounds what is held in memory at once. */
const BATCH_BYTES = 64 * 1024 * 1024;

/** Regular files, executables and symlinks (whose target is a blob too). */
const CONTENT_MODES = new Set(["100644", "100755", "120000"]);

async function blobSizes(workspace: string, shas: readonly string[]): Promise<number[]> {
  const out = await gitBytes(workspace, ["cat-file", "--batch-check"], `${shas.join("\n")}\n`);
  return out
    .toString("utf8")
    .trimEnd()
    .split("\n")
    .map((line) => Number(line.split(" ")[2]));
}

/** The contents of `shas`, in order, from one `git cat-file --batch` (`<sha> blob <size>\n…\n`). */
async function readBlobs(workspace: string, shas: readonly string[]): Promise<Buffer[]> {
  const out = await gitBytes(workspace, ["cat-file", "--batch"], `${shas.join("\n")}\n`);
  const blobs: Buffer[] = [];
  let at = 0;
  for (let index = 0; index < shas.length; index++) {
    const header = out.indexOf(0x0a, at);
    const size = Number(out.subarray(at, header).toString("latin1").split(" ")[2]);
    blobs.push(out.subarray(header + 1, header + 1 + size));
    at = header + 1 + size + 1;
  }
  return blobs;
}

/** The layers around unpacked content, innermost first: `, inside zip inside gzip data`. */
function within(layers: readonly Layer[]): string {
  return layers.length === 0 ? "" : `, inside ${[...layers].reverse().join(" inside ")} data`;
}

/** A member's place as a person reads it: `logs.zip → 2024/run.txt`. */
function placeOf(names: readonly string[]): string {
  return names.join(" → ");
}

/**
 * One file's content: a plain file is searched for the held values; compressed data is unpacked
 * and each piece searched for them and for token patterns (none of it shows in the diff), each
 * member's name too; what does not unpack within the bounds is a finding of its own.
 */
export function scanFileContent(
  path: string,
  bytes: Buffer,
  known: readonly string[],
  budget: UnpackBudget = unpackBudget(),
): Finding[] {
  if (bytes.length < 4 || compressionOf(bytes) === undefined) {
    return scanForSecrets([{ source: path, text: bytes.toString("utf8") }], known, {
      patterns: false,
    });
  }
  const { contents, problems } = unpack(path, bytes, budget);
  const findings: Finding[] = problems.map((problem) => ({
    source: showSource(placeOf(problem.names), known),
    line: 0,
    kind: `${problem.kind} (${[...problem.layers].reverse().join(" inside ")})`,
  }));
  const members = contents.filter((piece) => piece.names.length > 1);
  findings.push(
    ...scanNames(
      members.map((piece) => placeOf(piece.names)),
      known,
    ),
  );
  for (const piece of contents) {
    const item = { source: placeOf(piece.names), text: piece.bytes.toString("utf8") };
    for (const finding of scanForSecrets([item], known)) {
      findings.push({ ...finding, kind: `${finding.kind}${within(piece.layers)}` });
    }
  }
  return findings;
}

interface Sized {
  blob: StagedChange;
  size: number;
}

/**
 * Findings in the names of the added paths (a rename adds its new path) and in the whole content
 * of every added or changed file, compressed or not.
 */
export async function scanStagedFiles(
  workspace: string,
  changes: readonly StagedChange[],
  known: readonly string[],
): Promise<Finding[]> {
  const staged = changes.filter((blob) => blob.status !== "D" && CONTENT_MODES.has(blob.newMode));
  const added = staged.filter((blob) => blob.status === "A").map((blob) => blob.path);
  const findings = scanNames(added, known);
  if (staged.length === 0) return findings;
  const sizes = await blobSizes(
    workspace,
    staged.map((blob) => blob.newSha),
  );
  const readable: Sized[] = [];
  staged.forEach((blob, index) => {
    const size = sizes[index] ?? 0;
    if (size <= MAX_FILE_BYTES) readable.push({ blob, size });
    else findings.push({ source: showSource(blob.path, known), line: 0, kind: TOO_LARGE });
  });
  const budget = unpackBudget();
  for (const batch of batches(readable)) {
    const contents = await readBlobs(
      workspace,
      batch.map(({ blob }) => blob.newSha),
    );
    batch.forEach(({ blob }, index) => {
      const bytes = contents[index] ?? Buffer.alloc(0);
      findings.push(...scanFileContent(blob.path, bytes, known, budget));
    });
  }
  return findings;
}

/** Blobs in runs of at most BATCH_BYTES together (a larger one runs alone). */
function batches(readable: readonly Sized[]): Sized[][] {
  const runs: Sized[][] = [];
  let run: Sized[] = [];
  let bytes = 0;
  for (const sized of readable) {
    if (run.length > 0 && bytes + sized.size > BATCH_BYTES) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(sized);
    bytes += sized.size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
