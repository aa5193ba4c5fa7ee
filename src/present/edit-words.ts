/**
 * What the model is told when an exact-text edit cannot be made (domain/edit.ts), and how the
 * lines it touched are listed: the edit tool's and the memory store's words alike.
 */
import type { EditResult } from "../domain/edit.ts";

/** `12`, `3, 17 and 40`; long lists end with how many more. */
export function listLines(lines: readonly number[], max = 30): string {
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
