/**
 * The `edit` tool: replaces an exact piece of a text file. The file's bytes are read through the
 * sandbox, the replacement is computed by a pure function (`applyEdit`, domain/edit.ts), and the result is
 * written back through the sandbox. Files that are not UTF-8 text are refused rather than
 * re-encoded, so every byte the edit does not touch stays as it was.
 */
import { relative } from "node:path";
import { z } from "zod";
import { applyEdit, argumentProblem } from "../../domain/edit.ts";
import { editProblem, listLines } from "../../present/edit-words.ts";
import { plural } from "./format.ts";
import { protectedRefusal, readBytes, targetPath, writeBytes } from "./files.ts";
import { defineTool, failure } from "./tool.ts";

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
