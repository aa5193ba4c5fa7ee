/**
 * The `edit` tool: replaces an exact piece of a text file. The file's bytes are read through the
 * sandbox, the replacement is computed here by a pure function (`applyEdit`), and the result is
 * written back through the sandbox. Files that are not UTF-8 text are refused rather than
 * re-encoded, so every byte the edit does not touch stays as it was.
 */
import { relative } from "node:path";
import { z } from "zod";
import { plural } from "./format.ts";
import { protectedRefusal, readBytes, targetPath, writeBytes } from "./files.ts";
import { defineTool, failure } from "./tool.ts";

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

/** `12`, `3, 17 and 40`; long lists end with how many more. */
function listLines(lines: readonly number[], max = 30): string {
  const shown = lines.slice(0, max).map(String);
  if (lines.length > max) return `${shown.join(", ")} and ${lines.length - max} more`;
  if (shown.length === 1) return shown[0] ?? "";
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1) ?? ""}`;
}

/** The tool's message for a failed `applyEdit`. */
export function editProblem(result: Extract<EditResult, { ok: false }>, path: string): string {
  switch (result.problem) {
    case "empty":
      return "old_string is empty. Give the exact text to replace; to create a file or replace all of it, use write.";
    case "unchanged":
      return "old_string and new_string are the same, so the edit would change nothing. Give the new text in new_string.";
    case "not_found":
      return `old_string was not found in ${path}. It must match the file exactly, whitespace and indentation included, without the line numbers that read shows. Read the file again (it may have changed) and copy the text from it.`;
    case "ambiguous":
      return `old_string matches ${result.count} places in ${path} (lines ${listLines(result.lines)}). Include more of the surrounding lines so that it matches one place only, or set replace_all to true to replace every one.`;
  }
}

/** The largest file edit takes: its base64 form must stay well inside the sandbox's output ceiling. */
function maxEditBytes(outputBytes: number): number {
  return Math.floor(outputBytes / 2);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const schema = z
  .object({
    path: z.string().describe("The file to change: relative to the repository root, or absolute."),
    old_string: z
      .string()
      .describe(
        "The exact text to replace, as it is in the file (whitespace and indentation included, without read's line numbers). It must occur exactly once unless replace_all is true.",
      ),
    new_string: z.string().describe("The text to put in its place (must differ from old_string)."),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence of old_string instead of exactly one (default false)."),
  })
  .strict();

export const editTool = defineTool({
  name: "edit",
  description: [
    "Replace an exact piece of text in a file of the workspace. old_string must occur exactly once (add surrounding lines to make it unique) unless replace_all is true.",
    "Returns how many replacements were made and the line numbers where they are now; when old_string is missing or occurs more than once, returns an error with the count and lines instead and changes nothing.",
    "Works on UTF-8 text files up to 2 MiB; for other changes use bash (sed, a script) or write.",
  ].join(" "),
  schema,
  async run(args, context) {
    if (args.path.trim() === "") return failure("path is empty; give a file path.");
    const problem = argumentProblem(args.old_string, args.new_string);
    if (problem !== null) return failure(editProblem({ ok: false, problem }, args.path));
    if (context.virtual?.owns(args.path) === true) {
      return context.virtual.edit(
        args.path,
        args.old_string,
        args.new_string,
        args.replace_all ?? false,
      );
    }

    const path = targetPath(context.workspace, args.path);
    const refused = protectedRefusal(context, path);
    if (refused !== null) return refused;
    const max = maxEditBytes(context.sandbox.policy.limits.outputBytes);
    const read = await readBytes(context, path, max, "edit");
    if (!read.ok) return read.outcome;
    const bytes = read.value;
    if (bytes.includes(0)) {
      return failure(
        `${args.path} is a binary file (it contains NUL bytes); edit changes text files only. Use bash if you must change it.`,
      );
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return failure(
        `${args.path} is not valid UTF-8 text, so edit would damage it; change it with bash instead (e.g. \`sed -i\`).`,
      );
    }

    const edited = applyEdit(text, args.old_string, args.new_string, args.replace_all ?? false);
    if (!edited.ok) return failure(editProblem(edited, args.path));

    const written = await writeBytes(context, path, Buffer.from(edited.text, "utf8"), "edit");
    if (!written.ok) return written.outcome;
    const where = `${edited.lines.length === 1 ? "line" : "lines"} ${listLines(edited.lines)}`;
    const crlf = edited.crlf ? " (line endings written as CRLF, like the file's)" : "";
    return {
      content: `Replaced ${plural(edited.count, "occurrence")} in ${args.path}; the new text starts at ${where}${crlf}.`,
      isError: false,
      details: { written: relative(context.workspace, path.absolute) },
    };
  },
});
