import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  defineTool,
  failure
} from "./chunk-QQV5CYGB.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";
import {
  isInside
} from "./chunk-P5UMHJDW.js";
import {
  protectingPattern
} from "./chunk-K5VWAPAE.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/agent/tools/edit.ts
import { relative as relative2 } from "node:path";

// src/agent/tools/format.ts
function formatDuration(ms) {
  if (ms < 1e3) return `${Math.round(ms)} ms`;
  const seconds = ms / 1e3;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
function plural(count, singular, pluralForm = `${singular}s`) {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

// src/agent/tools/files.ts
import { relative, resolve, sep } from "node:path";
function targetPath(workspace, given) {
  return { given, absolute: resolve(workspace, given) };
}
function shellQuote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
var CHECK_READABLE = String.raw`
f=$1
if [ ! -e "$f" ]; then
  if [ -L "$f" ]; then exit 12; fi
  exit 10
fi
if [ -d "$f" ]; then exit 11; fi
if [ ! -f "$f" ]; then exit 13; fi
if [ ! -r "$f" ]; then exit 14; fi
`;
var CHECK_TEXT = String.raw`
if [ "$(tr -dc '\000' < "$f" | head -c 1 | wc -c)" -ne 0 ]; then exit 16; fi
`;
var READ_LINES = CHECK_READABLE + CHECK_TEXT + String.raw`
exec awk -v s="$2" -v e="$3" -v w="$4" -v budget="$5" '
NR >= s && NR <= e && !full {
  line = substr($0, 1, w)
  used += length(line) + 1
  if (used > budget && NR > s) full = 1
  else print line
}
END { print NR }' < "$f"
`;
var READ_BYTES = CHECK_READABLE + String.raw`
size=$(wc -c < "$f") || exit 14
if [ "$size" -gt "$2" ]; then printf '%s' "$size"; exit 15; fi
printf '%s\n' "$size"
base64 < "$f"
`;
var WRITE_BYTES = String.raw`
f=$1
if [ -d "$f" ]; then exit 11; fi
if [ -e "$f" ] && [ ! -f "$f" ]; then exit 13; fi
if [ -e "$f" ]; then existed=1; else existed=0; fi
mkdir -p -- "$(dirname -- "$f")" || exit 20
cat > "$f" || exit 21
printf '%s\n' "$existed"
wc -c < "$f"
`;
function problemOf(code, path, verb) {
  const quoted = shellQuote(path);
  switch (code) {
    case 10:
      return `no such file: ${path}; check the path with \`ls\` or \`find\` (relative paths start at the repository root).`;
    case 11:
      return `${path} is a folder, not a file (list it with bash: \`ls -la ${quoted}\`).`;
    case 12:
      return `${path} is a symbolic link to something that does not exist or cannot be reached in the sandbox; see where it points with \`ls -l ${quoted}\`.`;
    case 13:
      return `${path} is not a regular file (a device, FIFO or socket); ${verb} works on regular files only.`;
    case 14:
      return `${path} cannot be read: permission denied (\`ls -l ${quoted}\` shows its mode).`;
    case 16:
      return `${path} is a binary file (it contains NUL bytes); this tool shows text only. Inspect it with bash, e.g. \`file ${quoted}\` or \`xxd ${quoted} | head\`.`;
    default:
      return null;
  }
}
function cleanStderr(text) {
  return text.trim().split("\n").map((line) => line.replace(/^pitcrew: line \d+: /, "")).join("\n");
}
function readOnlyHint(stderr) {
  return /Read-only file system/i.test(stderr) ? " That place is read-only in the sandbox: only the checkout is writable (not its .git, its .github folder or the repository's protected paths), and a symbolic link does not lead out of it. Write inside the checkout instead." : "";
}
async function runScript(context, script, args, doing, stdin) {
  let result;
  try {
    result = await context.sandbox.run({
      argv: ["bash", "-c", script, "pitcrew", ...args],
      stdin,
      signal: context.signal
    });
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    return {
      ok: false,
      outcome: failure(`Could not start the sandbox for ${doing}: ${describeError(error)}`)
    };
  }
  if (result.cancelled) {
    return { ok: false, outcome: failure(`Cancelled while ${doing}: the run is stopping.`) };
  }
  if (result.timedOut) {
    return {
      ok: false,
      outcome: failure(
        `Timed out after ${formatDuration(context.sandbox.policy.timeoutMs)} while ${doing}. Check what the path is with bash (\`ls -l\`, \`file\`).`
      )
    };
  }
  return { ok: true, value: result };
}
function unexpected(result, doing) {
  const stderr = cleanStderr(result.stderr.text);
  const detail = stderr === "" ? `exit code ${result.exitCode ?? result.signal}` : stderr;
  return failure(`Failed while ${doing}: ${detail}.${readOnlyHint(stderr)}`);
}
async function readLines(context, path, window) {
  const doing = `reading ${path.given}`;
  const run = await runScript(
    context,
    READ_LINES,
    [
      path.absolute,
      String(window.first),
      String(window.last),
      String(window.lineBytes),
      String(window.budgetBytes)
    ],
    doing
  );
  if (!run.ok) return run;
  const result = run.value;
  const problem = problemOf(result.exitCode, path.given, "read");
  if (problem !== null) return { ok: false, outcome: failure(problem) };
  if (result.exitCode !== 0 || result.stdout.truncated)
    return { ok: false, outcome: unexpected(result, doing) };
  const lines = result.stdout.text.replace(/\n$/, "").split("\n");
  const total = Number(lines.pop());
  if (!Number.isSafeInteger(total)) return { ok: false, outcome: unexpected(result, doing) };
  return { ok: true, value: { lines, total } };
}
async function readBytes(context, path, maxBytes, verb) {
  const doing = `reading ${path.given}`;
  const run = await runScript(context, READ_BYTES, [path.absolute, String(maxBytes)], doing);
  if (!run.ok) return run;
  const result = run.value;
  const problem = problemOf(result.exitCode, path.given, verb);
  if (problem !== null) return { ok: false, outcome: failure(problem) };
  if (result.exitCode === 15) {
    return {
      ok: false,
      outcome: failure(
        `${path.given} is ${result.stdout.text.trim()} bytes, more than ${verb} handles (${maxBytes}); change it with bash instead (\`sed -i\`, or a small script).`
      )
    };
  }
  if (result.exitCode !== 0 || result.stdout.truncated)
    return { ok: false, outcome: unexpected(result, doing) };
  const newline = result.stdout.text.indexOf("\n");
  const size = Number(result.stdout.text.slice(0, newline));
  const bytes = Buffer.from(result.stdout.text.slice(newline + 1), "base64");
  if (newline === -1 || bytes.length !== size) {
    return {
      ok: false,
      outcome: failure(`${path.given} changed while it was being read; try again.`)
    };
  }
  return { ok: true, value: bytes };
}
function protectedRefusal(context, path) {
  const { workspace, protectedPatterns } = context.sandbox.policy;
  if (!isInside(path.absolute, workspace)) return null;
  const rel = relative(workspace, path.absolute).split(sep).join("/");
  const pattern = protectingPattern(rel, protectedPatterns);
  if (pattern === void 0) return null;
  return failure(
    `path-protected: ${path.given} is protected (\`${pattern}\`): the repository's CI runs it with its secrets, so it is read-only here and pitcrew will not push a change to it. Take another way: change the code it runs instead, or leave it as it is and say in your summary what change it needs, so a person can make it.`
  );
}
async function writeBytes(context, path, bytes, verb) {
  const refused = protectedRefusal(context, path);
  if (refused !== null) return { ok: false, outcome: refused };
  const doing = `writing ${path.given}`;
  const run = await runScript(context, WRITE_BYTES, [path.absolute], doing, bytes);
  if (!run.ok) return run;
  const result = run.value;
  const problem = problemOf(result.exitCode, path.given, verb);
  if (problem !== null) return { ok: false, outcome: failure(problem) };
  if (result.exitCode === 20 || result.exitCode === 21) {
    const stderr = cleanStderr(result.stderr.text);
    return {
      ok: false,
      outcome: failure(
        `Could not write ${path.given}: ${stderr === "" ? "the sandbox refused" : stderr}.${readOnlyHint(stderr)}`
      )
    };
  }
  if (result.exitCode !== 0) return { ok: false, outcome: unexpected(result, doing) };
  const [existed, size] = result.stdout.text.trim().split("\n");
  if (Number(size) !== bytes.length) {
    return {
      ok: false,
      outcome: failure(
        `Wrote ${path.given}, but it now holds ${size ?? "?"} bytes instead of ${bytes.length}: something else changed it, or a limit cut the write (${cleanStderr(result.stderr.text) || "no message"}). Check it with read.`
      )
    };
  }
  return { ok: true, value: { existed: existed === "1", bytes: bytes.length } };
}

// src/agent/tools/edit.ts
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
function maxEditBytes(outputBytes) {
  return Math.floor(outputBytes / 2);
}
var utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
var schema = external_exports.object({
  path: external_exports.string().describe("The file to change: relative to the repository root, or absolute."),
  old_string: external_exports.string().describe(
    "The exact text to replace, as it is in the file (whitespace and indentation included, without read's line numbers). It must occur exactly once unless replace_all is true."
  ),
  new_string: external_exports.string().describe("The text to put in its place (must differ from old_string)."),
  replace_all: external_exports.boolean().optional().describe("Replace every occurrence of old_string instead of exactly one (default false).")
}).strict();
var editTool = defineTool({
  name: "edit",
  description: [
    "Replace an exact piece of text in a file of the workspace. old_string must occur exactly once (add surrounding lines to make it unique) unless replace_all is true.",
    "Returns how many replacements were made and the line numbers where they are now; when old_string is missing or occurs more than once, returns an error with the count and lines instead and changes nothing.",
    "Works on UTF-8 text files up to 2 MiB; for other changes use bash (sed, a script) or write."
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
        args.replace_all ?? false
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
        `${args.path} is a binary file (it contains NUL bytes); edit changes text files only. Use bash if you must change it.`
      );
    }
    let text;
    try {
      text = utf8.decode(bytes);
    } catch {
      return failure(
        `${args.path} is not valid UTF-8 text, so edit would damage it; change it with bash instead (e.g. \`sed -i\`).`
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
      details: { written: relative2(context.workspace, path.absolute) }
    };
  }
});

export {
  formatDuration,
  plural,
  targetPath,
  readLines,
  writeBytes,
  argumentProblem,
  applyEdit,
  editProblem,
  editTool
};
