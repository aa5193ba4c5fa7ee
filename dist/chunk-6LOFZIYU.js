import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/domain/edit.ts
function occurrences(text, needle) {
  const found = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}
function lineNumbers(text, indices) {
  const lines = [];
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
var BARE_LF = /(^|[^\r])\n/;
function toCrlf(text) {
  return text.replace(/\r?\n/g, "\r\n");
}
function argumentProblem(oldString, newString) {
  if (oldString === "") return "empty";
  if (oldString === newString) return "unchanged";
  return null;
}
function applyEdit(text, oldString, newString, replaceAll = false) {
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
      lines: lineNumbers(text, found)
    };
  }
  const crlfFile = text.includes("\r\n") && !BARE_LF.test(text);
  const replacement = search !== oldString || crlfFile ? toCrlf(newString) : newString;
  const parts = [];
  const starts = [];
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

// src/present/edit-words.ts
function listLines(lines, max = 30) {
  const shown = lines.slice(0, max).map(String);
  if (lines.length > max) return `${shown.join(", ")} and ${lines.length - max} more`;
  if (shown.length === 1) return shown[0] ?? "";
  return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1) ?? ""}`;
}
function editProblem(result, path) {
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

export {
  argumentProblem,
  applyEdit,
  listLines,
  editProblem
};
