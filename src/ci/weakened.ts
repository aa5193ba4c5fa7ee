/**
 * The weakened-test check: the changes in a repair's diff that would hide a failure instead of
 * fixing it — a test deleted (or its file, or its file renamed where no runner looks, or its
 * lines commented out), a skip/only/xfail/ignore marker added, an assertion removed, or a CI
 * definition made to pass whatever fails (`continue-on-error: true`, `|| true`, …). What counts
 * as a test, a marker or an assertion in each language is test-syntax.ts's; what lets a CI step
 * pass, ci-syntax.ts's. Pure: the text of `git diff` in, the weakenings out. Not a proof of
 * anything: it catches the usual ways a model games a red check, not every way.
 */
import type { Weakening } from "../domain/ci.ts";
import { parseDiff } from "../git/diff.ts";
import type { DiffFile, DiffHunk, DiffLine } from "../git/diff.ts";
import { ciFile, ciWeakening } from "./ci-syntax.ts";
import {
  declarationAt,
  isAssertion,
  isSkipMarker,
  isTestFile,
  isTrivialAssertion,
  maskLines,
  testLanguage,
} from "./test-syntax.ts";
import type { MaskState, Masked, TestLanguage } from "./test-syntax.ts";

/** The most of a line a weakening quotes, in characters. */
export const WEAKENING_TEXT_LIMIT = 120;

/** A test or an assertion on a changed line, and whether a line on the other side took it up. */
interface Mark {
  at: Position;
  text: string;
  /** What must match on the other side: a test's name, an assertion's code; none: any. */
  key: string | undefined;
  hunk: number;
  used: boolean;
}

interface Position {
  file: string;
  line: number;
  /** The file's place in the diff: weakenings are listed in the diff's order. */
  order: number;
}

/** What the walk over the diff gathers before tests and assertions can be matched up. */
interface Gathered {
  found: (Weakening & { order: number })[];
  tests: { removed: Mark[]; added: Mark[] };
  assertions: { removed: Mark[]; added: Mark[] };
  /** Hunks whose removed assertions go with a deleted test or file, not counted again. */
  deletedHunks: Set<number>;
  /** Files deleted as a whole, with their hunks, for the check that their lines moved. */
  deletedFiles: { at: Position; hunks: number[]; lines: string[] }[];
  /** Every added line, trimmed: where a deleted file's lines may have gone. */
  addedLines: Set<string>;
}

/** The line as the refusal quotes it: on one line, cut short. */
function shown(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(line);
  return characters.length > WEAKENING_TEXT_LIMIT
    ? `${characters.slice(0, WEAKENING_TEXT_LIMIT - 1).join("")}…`
    : line;
}

/** An assertion's code as it must reappear to count as kept: spacing and the final `;` aside. */
function assertionKey(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/[;,]$/, "");
}

/**
 * The weakenings in `diff` (`git diff` output, any context), in the diff's order: each with the
 * file and line it is on — the new file's line for an added one, the old file's for a removed
 * one. A test that is removed and added again with the same name anywhere in the diff moved (or
 * its file was renamed); a test or an assertion removed and another added in the same hunk was
 * changed (a renamed test, an assertion that checks the new behaviour) — neither is a weakening,
 * unless the new assertion can never fail.
 */
export function findWeakenings(diff: string): Weakening[] {
  const files = parseDiff(diff).filter((file) => !file.binary);
  const gathered: Gathered = {
    found: [],
    tests: { removed: [], added: [] },
    assertions: { removed: [], added: [] },
    deletedHunks: new Set(),
    deletedFiles: [],
    addedLines: new Set(
      files.flatMap((file) =>
        file.hunks.flatMap((hunk) =>
          hunk.lines.filter((line) => line.kind === "added").map((line) => line.text.trim()),
        ),
      ),
    ),
  };
  let hunks = 0;
  files.forEach((file, order) => {
    const first = hunks;
    hunks += file.hunks.length;
    gatherFile(gathered, file, order, first);
  });
  return resolve(gathered)
    .sort((a, b) => a.order - b.order || a.line - b.line)
    .map(({ kind, file, line, text }) => ({ kind, file, line, text }));
}

function gatherFile(gathered: Gathered, file: DiffFile, order: number, firstHunk: number): void {
  const { oldPath, newPath } = file;
  const ci = newPath === undefined ? undefined : ciFile(newPath);
  if (ci !== undefined && newPath !== undefined) {
    for (const line of file.hunks.flatMap((hunk) => hunk.lines)) {
      const kind = line.kind === "added" ? ciWeakening(line.text, ci) : undefined;
      if (kind !== undefined) {
        gathered.found.push({
          kind,
          file: newPath,
          line: line.line,
          text: shown(line.text),
          order,
        });
      }
    }
  }
  // Renamed to a name no runner collects (`a.test.js.bak`): its tests are gone, whatever it holds.
  if (
    oldPath !== undefined &&
    newPath !== undefined &&
    isTestFile(oldPath) &&
    !isTestFile(newPath)
  ) {
    const text = shown(`${oldPath} → ${newPath}`);
    gathered.found.push({ kind: "deleted-test", file: oldPath, line: 1, text, order });
    return;
  }
  const path = newPath ?? oldPath;
  const language = path === undefined ? undefined : testLanguage(path);
  if (path === undefined || language === undefined) return;
  const removedBefore = gathered.tests.removed.length;
  // A comment or string a hunk leaves open runs on through the unchanged lines to the next.
  let open: Open = { before: undefined, after: undefined };
  file.hunks.forEach((hunk, index) => {
    const place = {
      oldFile: oldPath ?? path,
      newFile: path,
      order,
      hunk: firstHunk + index,
      assertions: isTestFile(path),
    };
    open = gatherHunk(gathered, hunk, language, place, open);
  });
  // A deleted file whose tests are declared is judged test by test (they may have moved); one
  // without (a script of top-level asserts) as a whole.
  const undeclared = gathered.tests.removed.length === removedBefore;
  if (newPath === undefined && oldPath !== undefined && isTestFile(oldPath) && undeclared) {
    gathered.deletedFiles.push({
      at: { file: oldPath, line: 1, order },
      hunks: file.hunks.map((_, index) => firstHunk + index),
      lines: file.hunks.flatMap((hunk) => hunk.lines.map((line) => line.text.trim())),
    });
  }
}

interface HunkPlace {
  oldFile: string;
  newFile: string;
  order: number;
  hunk: number;
  /** Whether removed assertions count here (a test file, not a Rust source with tests in it). */
  assertions: boolean;
}

/** Where the old and the new side of the next hunk start: in code, a comment or a string. */
interface Open {
  before: MaskState;
  after: MaskState;
}

/** One side of a hunk (the old file's lines or the new one's), as written and masked. */
interface Side {
  lines: DiffLine[];
  raw: string[];
  masked: Masked;
}

function side(
  hunk: DiffHunk,
  changed: "added" | "removed",
  language: TestLanguage,
  start: MaskState,
): Side {
  const lines = hunk.lines.filter((line) => line.kind === "context" || line.kind === changed);
  const raw = lines.map((line) => line.text);
  return { lines, raw, masked: maskLines(raw, language, start) };
}

function gatherHunk(
  gathered: Gathered,
  hunk: DiffHunk,
  language: TestLanguage,
  place: HunkPlace,
  open: Open,
): Open {
  const before = side(hunk, "removed", language, open.before);
  const after = side(hunk, "added", language, open.after);
  const mark = (at: Position, text: string, key: string | undefined): Mark => ({
    at,
    text,
    key,
    hunk: place.hunk,
    used: false,
  });
  before.lines.forEach((line, index) => {
    if (line.kind !== "removed") return;
    const at = { file: place.oldFile, line: line.line, order: place.order };
    const code = before.masked.lines[index] ?? "";
    const test = declarationAt(before.raw, before.masked.lines, index, language);
    if (test)
      gathered.tests.removed.push(mark(at, testText(line.text, test.name, language), test.name));
    if (place.assertions && isAssertion(code, language)) {
      gathered.assertions.removed.push(mark(at, shown(line.text), assertionKey(line.text)));
    }
  });
  after.lines.forEach((line, index) => {
    if (line.kind !== "added") return;
    const at = { file: place.newFile, line: line.line, order: place.order };
    const code = after.masked.lines[index] ?? "";
    const test = declarationAt(after.raw, after.masked.lines, index, language);
    if (test) gathered.tests.added.push(mark(at, shown(line.text), test.name));
    if (isSkipMarker(code, language)) {
      gathered.found.push({ kind: "skip-marker", ...at, text: shown(line.text) });
    }
    if (isAssertion(code, language) && !isTrivialAssertion(line.text)) {
      gathered.assertions.added.push(mark(at, shown(line.text), assertionKey(line.text)));
    }
  });
  for (const opened of commentedOut(hunk, before, after, open)) {
    gathered.found.push({
      kind: "deleted-test",
      file: place.newFile,
      line: opened.line,
      text: shown(opened.text),
      order: place.order,
    });
    gathered.deletedHunks.add(place.hunk);
  }
  return { before: before.masked.end, after: after.masked.end };
}

/** A test declared by an attribute (`#[test]`, `@Test`) is named by the function after it. */
function testText(text: string, name: string | undefined, language: TestLanguage): string {
  const attributed = language === "rust" || language === "jvm";
  return shown(attributed && name !== undefined ? `${text.trim()} ${name}` : text);
}

/**
 * The added lines that open a block comment or a long string the change leaves open, where the
 * old file was in code: the unchanged lines after it are commented out (`/*` above a test, `"""`
 * around one). A comment opened and closed within the added lines is just a comment.
 */
function commentedOut(hunk: DiffHunk, before: Side, after: Side, start: Open): DiffLine[] {
  const opened: DiffLine[] = [];
  const openBefore = new Map(
    before.lines.map((line, index) => [line, before.masked.openAfter[index]]),
  );
  const openAfter = new Map(
    after.lines.map((line, index) => [line, after.masked.openAfter[index]]),
  );
  let oldOpen = start.before !== undefined;
  let newOpen = start.after !== undefined;
  let newWasOpen = newOpen;
  let opener: DiffLine | undefined;
  const endRun = (): void => {
    if (opener !== undefined && newOpen && !newWasOpen && !oldOpen) opened.push(opener);
    opener = undefined;
  };
  for (const line of hunk.lines) {
    if (line.kind === "context") {
      endRun();
      newWasOpen = openAfter.get(line) ?? false;
      oldOpen = openBefore.get(line) ?? false;
      newOpen = newWasOpen;
      continue;
    }
    if (line.kind === "removed") oldOpen = openBefore.get(line) ?? false;
    else {
      const open = openAfter.get(line) ?? false;
      if (open && !newOpen) opener = line;
      if (!open) opener = undefined;
      newOpen = open;
    }
  }
  endRun();
  return opened;
}

/**
 * The removed marks no added one takes up: first one with the same key in the same hunk, then
 * one with the same key anywhere (a move), then — for what is left — any other added in the same
 * hunk (a rename, a changed assertion).
 */
function unmatched(removed: readonly Mark[], added: readonly Mark[]): Mark[] {
  const take = (found: Mark | undefined): boolean => {
    if (found === undefined) return false;
    found.used = true;
    return true;
  };
  const free = (candidate: Mark): boolean => !candidate.used;
  const left = removed.filter((mark) => {
    if (mark.key === undefined) return true;
    const same = (candidate: Mark): boolean => free(candidate) && candidate.key === mark.key;
    return !(
      take(added.find((candidate) => same(candidate) && candidate.hunk === mark.hunk)) ||
      take(added.find(same))
    );
  });
  return left.filter(
    (mark) => !take(added.find((candidate) => free(candidate) && candidate.hunk === mark.hunk)),
  );
}

function resolve(gathered: Gathered): (Weakening & { order: number })[] {
  const found = [...gathered.found];
  for (const deleted of gathered.deletedFiles) {
    const moved = deleted.lines.every((line) => line === "" || gathered.addedLines.has(line));
    if (moved) continue;
    found.push({ kind: "deleted-test", ...deleted.at, text: shown(deleted.at.file) });
    deleted.hunks.forEach((hunk) => gathered.deletedHunks.add(hunk));
  }
  const deletedTests = unmatched(gathered.tests.removed, gathered.tests.added);
  for (const test of deletedTests) {
    found.push({ kind: "deleted-test", ...test.at, text: test.text });
  }
  const counted = new Set([...gathered.deletedHunks, ...deletedTests.map((test) => test.hunk)]);
  const removed = gathered.assertions.removed.filter((mark) => !counted.has(mark.hunk));
  for (const assertion of unmatched(removed, gathered.assertions.added)) {
    found.push({ kind: "removed-assertion", ...assertion.at, text: assertion.text });
  }
  return found;
}
