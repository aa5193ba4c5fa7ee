/**
 * The `write` tool: puts the given text in a file, byte for byte as UTF-8, creating the folders
 * above it. The write happens inside the sandbox, so its walls (read-only outside the checkout,
 * `.git` and the protected paths read-only) hold for this tool as for bash.
 */
import { relative } from "node:path";
import { z } from "zod";
import { isInside } from "../../sandbox/policy.ts";
import { plural } from "./format.ts";
import { targetPath, writeBytes } from "./files.ts";
import { defineTool, failure } from "./tool.ts";

const schema = z
  .object({
    path: z.string().describe("The file to write: relative to the repository root, or absolute."),
    content: z
      .string()
      .describe(
        "The complete new contents, exactly as they should be on disk (include the final newline if the file should end with one).",
      ),
  })
  .strict();

export const writeTool = defineTool({
  name: "write",
  description: [
    "Write a text file in the workspace: creates it (and any missing folders above it) or replaces all of its contents.",
    "Returns the number of bytes written and whether the file was created or overwritten.",
    "Only the checkout is writable, and not its .git or its .github folder (except .github/pitcrew) or other paths the repository protects: a write elsewhere fails with a read-only error, and one to /tmp or the home folder is lost when the command ends, so it is reported as an error too.",
    "To change part of an existing file, prefer edit.",
  ].join(" "),
  schema,
  async run(args, context) {
    if (args.path.trim() === "") return failure("path is empty; give a file path.");
    if (context.virtual?.owns(args.path) === true) {
      return context.virtual.write(args.path, args.content);
    }
    const path = targetPath(context.workspace, args.path);
    const written = await writeBytes(context, path, Buffer.from(args.content, "utf8"), "write");
    if (!written.ok) return written.outcome;
    const { existed, bytes } = written.value;
    const { backend, workspace } = context.sandbox.policy;
    if (backend === "bwrap" && !isInside(path.absolute, workspace)) {
      return failure(
        `${args.path} is outside the checkout, where only places private to one command are writable (/tmp, the home folder), emptied when it ends: the file is already gone. Keep files that later commands need inside the checkout.`,
      );
    }
    return {
      content: `${existed ? "Overwrote" : "Created"} ${args.path}: ${plural(bytes, "byte")} written.`,
      isError: false,
      details: { written: relative(context.workspace, path.absolute) },
    };
  },
});
