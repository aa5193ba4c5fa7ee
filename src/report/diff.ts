/**
 * The final diff in the report: its diffstat (files, lines added and removed, read from the
 * unified diff itself) and the diff, one closed <details> per file, each line coloured by what it
 * does. The diff is untrusted text like the rest; it is escaped, never interpreted.
 */
import { countLines, escapeHtml } from "./html.ts";
import { grouped } from "./words.ts";

export interface DiffFile {
  path: string;
  added: number;
  removed: number;
  /** The file's part of the diff, its header lines included. */
  text: string;
  binary: boolean;
}

/** The path a `diff --git a/x b/y` line names (the new side), or the line's rest. */
function gitPath(line: string): string {
  const rest = line.slice("diff --git ".length);
  const b = rest.lastIndexOf(" b/");
  return b === -1 ? rest : rest.slice(b + 3);
}

/** The old and new line counts a hunk header announces (`@@ -1,5 +1,6 @@`). */
function hunkSize(line: string): { old: number; new: number } | undefined {
  const match = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
  if (match === null) return undefined;
  return { old: Number(match[1] ?? 1), new: Number(match[2] ?? 1) };
}

/** A file being read: its counts so far, where it starts, the hunk lines still to come. */
interface Reading extends DiffFile {
  start: number;
  git: boolean;
  hunks: boolean;
  left?: { old: number; new: number };
}

/** Counts one line of a hunk; false when the hunk is over (so the line is a header). */
function hunkLine(file: Reading, line: string): boolean {
  const left = file.left;
  if (left === undefined || (left.old <= 0 && left.new <= 0) || line.startsWith("diff --git "))
    return false;
  const sign = line[0];
  if (sign === "+") [file.added, left.new] = [file.added + 1, left.new - 1];
  else if (sign === "-") [file.removed, left.old] = [file.removed + 1, left.old - 1];
  else if (sign !== "\\") [left.old, left.new] = [left.old - 1, left.new - 1];
  return true;
}

/** The unified diff cut into files, each with its counts (hunks are read by their headers). */
export function diffFiles(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  let current: Reading | undefined;
  const close = (end: number) => {
    if (current === undefined) return;
    const { path, added, removed, binary, start } = current;
    files.push({ path, added, removed, binary, text: diff.slice(start, end) });
  };
  for (let from = 0; from < diff.length;) {
    let to = diff.indexOf("\n", from);
    if (to === -1) to = diff.length;
    const line = diff.slice(from, to);
    if (current === undefined || !hunkLine(current, line)) {
      // `--- a/x` then `+++ b/x` opens a file, unless it is the header of a git diff's file.
      const plain = line.startsWith("--- ") && diff.startsWith("+++ ", to + 1);
      if (line.startsWith("diff --git ") || (plain && !(current?.git === true && !current.hunks))) {
        close(from);
        const path = plain ? line.slice(4).replace(/^a\//, "") : gitPath(line);
        current = {
          path,
          added: 0,
          removed: 0,
          text: "",
          binary: false,
          start: from,
          git: !plain,
          hunks: false,
        };
      } else if (current !== undefined) {
        const size = hunkSize(line);
        if (size !== undefined) [current.left, current.hunks] = [size, true];
        else if (line.startsWith("+++ ") && line !== "+++ /dev/null")
          current.path = line.slice(4).replace(/^b\//, "");
        else if (line.startsWith("Binary files ")) current.binary = true;
      }
    }
    from = to + 1;
  }
  close(diff.length);
  return files;
}

/** Lines of a diff coloured per line beyond this many are shown plain: the DOM stays lean. */
const COLOURED_LINES = 20_000;
/** A diff this short shows its files open. */
const OPEN_LINES = 300;

function lineClass(line: string, inHunk: boolean): string | undefined {
  if (!inHunk) return "dh";
  if (line.startsWith("@@")) return "dk";
  if (line.startsWith("+")) return "da";
  if (line.startsWith("-")) return "dd";
  return undefined;
}

function diffBody(text: string, budget: { lines: number }): string {
  let out = "";
  let inHunk = false;
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf("\n", from);
    if (to === -1) to = text.length;
    const line = text.slice(from, to);
    if (line.startsWith("@@")) inHunk = true;
    if (budget.lines <= 0) {
      out += escapeHtml(text.slice(from));
      break;
    }
    budget.lines -= 1;
    const className = lineClass(line, inHunk);
    const escaped = escapeHtml(line);
    out +=
      className === undefined ? `${escaped}\n` : `<span class="${className}">${escaped}</span>\n`;
    from = to + 1;
  }
  return out;
}

/** The diffstat table and the diff per file (closed), or "" when the diff is empty. */
export function diffSection(diff: string): string {
  const files = diffFiles(diff);
  if (diff.trim() === "") return "";
  let added = 0;
  let removed = 0;
  for (const file of files) [added, removed] = [added + file.added, removed + file.removed];
  const most = files.reduce((top, file) => Math.max(top, file.added + file.removed), 1);
  const rows = files
    .map((file, index) => {
      const share = (n: number) => Math.round((40 * n) / most);
      const [plus, minus] = [share(file.added), share(file.removed)];
      const bar = `<svg class="bars" viewBox="0 0 40 8" width="80" height="8" aria-hidden="true"><rect class="ba" width="${plus}" height="8"/><rect class="bd" x="${plus}" width="${minus}" height="8"/></svg>`;
      const counts = file.binary
        ? '<td class="num" colspan="2">binary</td>'
        : `<td class="num add">+${grouped(file.added)}</td><td class="num del">−${grouped(file.removed)}</td>`;
      return `<tr><td><a href="#diff-${index}">${escapeHtml(file.path)}</a></td>${counts}<td>${bar}</td></tr>`;
    })
    .join("");
  const summary =
    `${files.length === 1 ? "1 file" : `${grouped(files.length)} files`} changed, ` +
    `${grouped(added)} ${added === 1 ? "insertion" : "insertions"}(+), ` +
    `${grouped(removed)} ${removed === 1 ? "deletion" : "deletions"}(−)`;
  const budget = { lines: COLOURED_LINES };
  // A small diff is open to read at once; a large one keeps the page light.
  const open = countLines(diff) <= OPEN_LINES ? " open" : "";
  const bodies =
    files.length === 0
      ? `<pre class="diff">${diffBody(diff, budget)}</pre>`
      : files
          .map(
            (file, index) =>
              `<details class="file" id="diff-${index}"${open}><summary><code>${escapeHtml(file.path)}</code> <span class="add">+${grouped(file.added)}</span> <span class="del">−${grouped(file.removed)}</span></summary><pre class="diff">${diffBody(file.text, budget)}</pre></details>`,
          )
          .join("");
  return (
    `<p class="diffstat">${summary}</p>` +
    (files.length === 0 ? "" : `<table class="stat">${rows}</table>`) +
    bodies
  );
}
