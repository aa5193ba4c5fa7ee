/**
 * A unified `git diff` read into files, hunks and numbered lines, for the checks that judge a
 * change line by line (ci/weakened.ts). Pure: text in. Expects git's own prefixes (`a/`, `b/`:
 * the default, or `--src-prefix=a/ --dst-prefix=b/` whatever the user's config says); any amount
 * of context (`-U0` or more); no combined (merge) diffs.
 */
import { Buffer } from "node:buffer";

export interface DiffLine {
  kind: "added" | "removed" | "context";
  text: string;
  /** Its line in the new file; for a removed line, in the old one. */
  line: number;
}

export interface DiffHunk {
  lines: DiffLine[];
}

export interface DiffFile {
  /** The path before the change; undefined for a new file. */
  oldPath: string | undefined;
  /** The path after it; undefined for a deleted file. */
  newPath: string | undefined;
  binary: boolean;
  hunks: DiffHunk[];
}

/** A path as `git diff` prints it: C-quoted (octal bytes, \t, \", \\) when it has odd characters. */
export function unquotePath(path: string): string {
  if (!path.startsWith('"')) return path;
  const escapes: Record<string, number> = { t: 9, n: 10, r: 13, '"': 34, "\\": 92 };
  const bytes: number[] = [];
  for (let index = 1; index < path.length - 1; index++) {
    const char = path[index] ?? "";
    if (char !== "\\") {
      bytes.push(...Buffer.from(char));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(path.slice(index + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
    } else {
      const next = path[index + 1] ?? "";
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * The path of a `---`/`+++` line: undefined for /dev/null. git ends a path holding a space with a
 * tab (so `patch` can tell where it stops); that tab is not part of the name.
 */
function sidePath(raw: string, prefix: "a/" | "b/"): string | undefined {
  const path = unquotePath(raw.replace(/\t$/, ""));
  if (path === "/dev/null") return undefined;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** `rename from x`, `copy to y`: unprefixed, quoted like the rest. */
function headerPath(line: string, word: string): string | undefined {
  return line.startsWith(word) ? unquotePath(line.slice(word.length)) : undefined;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The files of `diff` in order. A hunk's lines are read by the counts in its header, so a line
 * whose text starts with `+++` or `diff --git` is still a line of the file.
 */
export function parseDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  // The newline after the last line ends it; it starts no empty one.
  const lines = diff.replace(/\n$/, "").split("\n");
  let file: DiffFile | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.startsWith("diff --git ")) {
      file = { oldPath: undefined, newPath: undefined, binary: false, hunks: [] };
      files.push(file);
      const names = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
      // Right for every name without " b/" in it; the ---/+++ lines or rename lines, where
      // present, say it exactly.
      if (names) [file.oldPath, file.newPath] = [names[1], names[2]];
      continue;
    }
    if (file === undefined) continue;
    const from = headerPath(line, "rename from ") ?? headerPath(line, "copy from ");
    const to = headerPath(line, "rename to ") ?? headerPath(line, "copy to ");
    if (from !== undefined) file.oldPath = from;
    else if (to !== undefined) file.newPath = to;
    else if (line.startsWith("new file mode ")) file.oldPath = undefined;
    else if (line.startsWith("deleted file mode ")) file.newPath = undefined;
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") file.binary = true;
    else if (line.startsWith("--- ")) file.oldPath = sidePath(line.slice(4), "a/");
    else if (line.startsWith("+++ ")) file.newPath = sidePath(line.slice(4), "b/");
    else {
      const header = HUNK.exec(line);
      if (!header) continue;
      const hunk = readHunk(lines, index + 1, header);
      file.hunks.push(hunk.hunk);
      index = hunk.next - 1;
    }
  }
  return files;
}

function readHunk(
  lines: readonly string[],
  start: number,
  header: RegExpExecArray,
): { hunk: DiffHunk; next: number } {
  let oldLine = Number(header[1]);
  let newLine = Number(header[3]);
  let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
  let newLeft = header[4] === undefined ? 1 : Number(header[4]);
  const hunk: DiffHunk = { lines: [] };
  let index = start;
  while (index < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[index] ?? "";
    const mark = line[0];
    const text = line.slice(1);
    if (mark === "+" && newLeft > 0) {
      hunk.lines.push({ kind: "added", text, line: newLine });
      newLine += 1;
      newLeft -= 1;
    } else if (mark === "-" && oldLeft > 0) {
      hunk.lines.push({ kind: "removed", text, line: oldLine });
      oldLine += 1;
      oldLeft -= 1;
    } else if ((mark === " " || line === "") && oldLeft > 0 && newLeft > 0) {
      hunk.lines.push({ kind: "context", text, line: newLine });
      oldLine += 1;
      newLine += 1;
      oldLeft -= 1;
      newLeft -= 1;
    } else if (mark !== "\\") {
      // Not a line this hunk still expects: the diff was cut short or is malformed.
      break;
    }
    index += 1;
  }
  // `\ No newline at end of file` after the hunk's last line.
  while (lines[index]?.startsWith("\\")) index += 1;
  return { hunk, next: index };
}
