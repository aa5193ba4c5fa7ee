/**
 * The `read` tool: a window of a text file's lines, numbered like `cat -n`, read through the
 * sandbox. The window is chosen inside the sandbox (a large log costs what is shown, not its
 * size); numbering, cutting long lines and the footer are pure functions here.
 */
import { z } from "zod";
import { readLines, targetPath } from "./files.ts";
import type { LineWindow } from "./files.ts";
import type { VirtualRead } from "../../domain/memory.ts";
import type { ToolOutcome } from "../../domain/tools.ts";
import { defineTool, failure } from "./tool.ts";

export const READ_DEFAULT_LIMIT = 2000;
/** Characters kept of one line. */
export const READ_LINE_CHARS = 2000;
/** About how many characters one read returns; the window stops at a line before this. */
export const READ_MAX_CHARS = 100_000;
/** Bytes the sandbox keeps of one line: at least READ_LINE_CHARS characters of UTF-8. */
const LINE_BYTES = READ_LINE_CHARS * 4;
/** Bytes the sandbox prints at most for one read (well under its output ceiling). */
const BUDGET_BYTES = 1024 * 1024;

const schema = z
  .object({
    path: z.string().describe("The file: relative to the repository root, or absolute."),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The first line to show, counting from 1 (default 1)."),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`How many lines to show at most (default ${READ_DEFAULT_LIMIT}).`),
  })
  .strict();

/** One line as `cat -n` shows it, cut when longer than READ_LINE_CHARS. */
function numbered(number: number, line: string): string {
  let text = line;
  if (text.length > READ_LINE_CHARS) {
    const end = /[\udc00-\udfff]/.test(text.charAt(READ_LINE_CHARS))
      ? READ_LINE_CHARS - 1
      : READ_LINE_CHARS;
    text = `${text.slice(0, end)} … [line cut at ${READ_LINE_CHARS} characters]`;
  }
  return `${String(number).padStart(6)}\t${text}`;
}

/**
 * The result text for lines `first`.. of a file: numbered lines, then a footer with the total
 * and, when lines remain, the offset to continue from. Stops before READ_MAX_CHARS.
 */
export function formatWindow(window: LineWindow, first: number, limit: number): string {
  return renderWindow(window, first, limit).text;
}

/** The result text, and the last line it shows (first - 1 when it shows none). */
function renderWindow(
  window: LineWindow,
  first: number,
  limit: number,
): { text: string; last: number } {
  const { lines, total } = window;
  if (total === 0) return { text: "(the file is empty: 0 lines)", last: 0 };
  const shown: string[] = [];
  let chars = 0;
  for (const [index, line] of lines.slice(0, limit).entries()) {
    const text = numbered(first + index, line);
    if (shown.length > 0 && chars + text.length + 1 > READ_MAX_CHARS) break;
    shown.push(text);
    chars += text.length + 1;
  }
  const last = first + shown.length - 1;
  let footer = `[lines ${first}-${last} of ${total}`;
  if (last >= total) footer += "; end of file]";
  else if (shown.length < limit && shown.length < total - first + 1)
    footer += `; the rest did not fit in one result (about ${READ_MAX_CHARS} characters): read more with offset=${last + 1}]`;
  else footer += `; read more with offset=${last + 1}]`;
  return { text: `${shown.join("\n")}\n${footer}`, last };
}

/** A memory or skills file shown as a workspace file is, or a folder's listing, or why not. */
function virtualRead(read: VirtualRead, path: string, first: number, limit: number): ToolOutcome {
  if ("error" in read) return failure(read.error);
  if ("listing" in read) return { content: read.listing, isError: false };
  const all = read.file === "" ? [] : read.file.replace(/\n$/, "").split("\n");
  if (all.length > 0 && first > all.length) {
    return failure(
      `offset ${first} is past the end of ${path}: it has ${all.length} lines. Read from offset 1 to ${all.length}.`,
    );
  }
  const window = { lines: all.slice(first - 1, first - 1 + limit), total: all.length };
  const { text, last } = renderWindow(window, first, limit);
  return {
    content: text,
    isError: false,
    details: { lines: { from: all.length === 0 ? 0 : first, to: last, total: all.length } },
  };
}

export const readTool = defineTool({
  name: "read",
  description: [
    "Read a text file from the workspace. Returns its lines numbered like `cat -n` (line number, a tab, the line), then a footer with the file's total line count and, when more lines remain, the offset to read on from.",
    `Shows at most ${READ_DEFAULT_LIMIT} lines from \`offset\` (1-based) unless \`limit\` says otherwise, and about ${READ_MAX_CHARS} characters at most; lines longer than ${READ_LINE_CHARS} characters are cut.`,
    "Refuses folders (list them with bash `ls`) and binary files (NUL bytes; use bash `file`, `xxd`). The line numbers are not part of the file: leave them out of edit's old_string.",
  ].join(" "),
  schema,
  async run(args, context) {
    if (args.path.trim() === "") return failure("path is empty; give a file path.");
    const first = args.offset ?? 1;
    const limit = args.limit ?? READ_DEFAULT_LIMIT;
    if (context.virtual?.owns(args.path) === true) {
      return virtualRead(await context.virtual.read(args.path), args.path, first, limit);
    }
    const path = targetPath(context.workspace, args.path);
    const read = await readLines(context, path, {
      first,
      last: Math.min(first + limit - 1, Number.MAX_SAFE_INTEGER),
      lineBytes: LINE_BYTES,
      budgetBytes: BUDGET_BYTES,
    });
    if (!read.ok) return read.outcome;
    const { total } = read.value;
    if (total > 0 && first > total) {
      return failure(
        `offset ${first} is past the end of ${args.path}: it has ${total} lines. Read from offset 1 to ${total}.`,
      );
    }
    const { text, last } = renderWindow(read.value, first, limit);
    return {
      content: text,
      isError: false,
      details: { lines: { from: total === 0 ? 0 : first, to: last, total } },
    };
  },
});
