/**
 * What an exact-text edit does, the same wherever one is applied: the edit tool on a workspace
 * file and the memory store on a memory file (memory/store.ts). Pure: the callers read and write
 * the text.
 */
export type EditResult =
  | {
      ok: true;
      text: string;
      count: number;
      /** 1-based lines, in the new text, where each replacement begins. */
      lines: number[];
      /** Line feeds in old_string or new_string were turned into the file's CRLF line endings. */
      crlf: boolean;
    }
  | { ok: false; problem: "empty" | "unchanged" | "not_found" }
  /** `lines`: where the matches begin in the current text. */
  | { ok: false; problem: "ambiguous"; count: number; lines: number[] };

/** Start indices of the non-overlapping occurrences of `needle`, left to right. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

/** 1-based line numbers of ascending string indices. */
function lineNumbers(text: string, indices: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let newline = text.indexOf("\n");
  for (const index of indices) {
    while (newline !== -1 && newline < index) {
      line++;
      newline = text.indexOf("\n", newline + 1);
    }
    lines.push(line);
  }
  return lines;
}

/** A line feed without a carriage return before it. */
const BARE_LF = /(^|[^\r])\n/;

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** What is wrong with the arguments themselves, before any file is read. */
export function argumentProblem(
  oldString: string,
  newString: string,
): "empty" | "unchanged" | null {
  if (oldString === "") return "empty";
  if (oldString === newString) return "unchanged";
  return null;
}

/**
 * Replaces `oldString` with `newString` in `text`: exactly one occurrence, or every one when
 * `replaceAll`. Models write bare LF line endings: when nothing matches in a file with CRLF line
 * endings, the match is tried again with CRLF in old_string, and in a file that uses CRLF
 * throughout (or when that retry matched) new_string's line endings become CRLF too.
 */
export function applyEdit(
  text: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): EditResult {
  const problem = argumentProblem(oldString, newString);
  if (problem !== null) return { ok: false, problem };
  let search = oldString;
  let found = occurrences(text, search);
  if (found.length === 0 && text.includes("\r\n") && BARE_LF.test(oldString)) {
    search = toCrlf(oldString);
    found = occurrences(text, search);
  }
  if (found.length === 0) return { ok: false, problem: "not_found" };
  if (found.length > 1 && !replaceAll) {
    return {
      ok: false,
      problem: "ambiguous",
      count: found.length,
      lines: lineNumbers(text, found),
    };
  }
  const crlfFile = text.includes("\r\n") && !BARE_LF.test(text);
  const replacement = search !== oldString || crlfFile ? toCrlf(newString) : newString;
  const parts: string[] = [];
  const starts: number[] = [];
  let from = 0;
  let length = 0;
  for (const at of found) {
    parts.push(text.slice(from, at));
    length += at - from;
    starts.push(length);
    parts.push(replacement);
    length += replacement.length;
    from = at + search.length;
  }
  parts.push(text.slice(from));
  const result = parts.join("");
  const crlf = search !== oldString || replacement !== newString;
  return { ok: true, text: result, count: found.length, lines: lineNumbers(result, starts), crlf };
}
