import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  INLINE_MAX_CHARS,
  capped,
  toSpill
} from "./chunk-NGIHAK4Q.js";
import {
  defineTool,
  failure,
  parametersOf,
  todoWriteTool
} from "./chunk-AYN3Q6DD.js";
import {
  shellStatus
} from "./chunk-FSDONFOK.js";
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
  applyEdit,
  argumentProblem,
  editProblem,
  listLines
} from "./chunk-6LOFZIYU.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/agent/tools/bash.ts
import { randomUUID } from "node:crypto";

// src/agent/tools/format.ts
function formatDuration(ms) {
  if (ms < 1e3) return `${Math.round(ms)} ms`;
  const seconds = ms / 1e3;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
function plural(count, singular, pluralForm = `${singular}s`) {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

// src/sandbox/not-started.ts
function notStarted(result) {
  if (result.exitCode === 0 || result.stdout.bytes > 0) return void 0;
  const said = result.stderr.text.trim();
  if (said === "" || said.includes("\n")) return void 0;
  return /^(?:bwrap: execvp |prlimit: failed to execute |sandbox-exec: execvp\(\) of )/.test(said) ? said : void 0;
}

// src/agent/tools/bash.ts
var BASH_MAX_TIMEOUT_MS = 10 * 60 * 1e3;
var schema = external_exports.object({
  command: external_exports.string().describe(
    "The command line, run with `bash -c` at the repository root (pipes, `&&`, redirections and multi-line scripts work)."
  ),
  timeout_ms: external_exports.number().int().min(1).optional().describe(
    `Milliseconds before the command and everything it started are killed (default: the sandbox's per-command timeout, 60000 unless configured; at most ${BASH_MAX_TIMEOUT_MS}).`
  )
}).strict();
function streamSection(label, stream) {
  if (stream.bytes === 0) return "";
  const note = stream.truncated ? ` (${stream.bytes} bytes; the sandbox kept only the head and the tail)` : "";
  return `${label}${note}:
${stream.text}${stream.text.endsWith("\n") ? "" : "\n"}`;
}
function formatRun(result, timeoutMs, clampedFrom) {
  const lines = [];
  if (result.exitCode !== null) lines.push(`exit code: ${result.exitCode}`);
  else lines.push(`exit code: ${shellStatus(result)} (killed by signal ${result.signal ?? "?"})`);
  if (clampedFrom !== void 0) {
    lines.push(
      `timeout_ms ${clampedFrom} is above the limit; the command ran with ${BASH_MAX_TIMEOUT_MS}.`
    );
  }
  if (result.timedOut) {
    lines.push(
      `timed out after ${formatDuration(timeoutMs)}; the command and everything it started were killed; run long jobs with a larger timeout_ms (at most ${BASH_MAX_TIMEOUT_MS}) or in smaller steps.`
    );
  } else if (result.cancelled) {
    lines.push(
      "cancelled: the run is stopping; the command and everything it started were killed."
    );
  } else if (result.diskReserveReached) {
    lines.push(
      "disk-reserve-reached: the command and everything it started were killed because the disk is nearly full; the end of stderr says what to do."
    );
  }
  const head = `${lines.join("\n")}
`;
  const body = streamSection("stdout", result.stdout) + streamSection("stderr", result.stderr);
  return (head + (body === "" ? "(no output)\n" : body)).trimEnd();
}
function limitResult(text, result, save) {
  const whole = toSpill(text);
  if (whole === null) return text;
  let spilled;
  try {
    spilled = { path: save(whole) };
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    spilled = { notSaved: describeError(error) };
  }
  const cut = [
    { label: "stdout", stream: result.stdout },
    { label: "stderr", stream: result.stderr }
  ].filter(({ stream }) => stream.truncated).map(({ label, stream }) => ({ label, bytes: stream.bytes }));
  return capped(text, spilled, cut);
}
function commandEnd(result) {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    stdoutTail: tail(result.stdout.text),
    stderrTail: tail(result.stderr.text)
  };
}
function tail(text) {
  const lines = text.trimEnd().split("\n").slice(-TAIL_LINES).join("\n");
  return lines.length > TAIL_CHARS ? lines.slice(-TAIL_CHARS) : lines;
}
var TAIL_LINES = 40;
var TAIL_CHARS = 4e3;
async function runLine(context, command, timeoutMs) {
  let result;
  try {
    result = await context.sandbox.run({
      // No cwd: the sandbox starts every command at the workspace, the repository root.
      argv: ["bash", "-c", command],
      timeoutMs,
      signal: context.signal
    });
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    const outcome = failure(
      `The command could not be started, so it did not run: ${describeError(error)}`
    );
    return { ok: false, outcome };
  }
  const unstarted = notStarted(result);
  if (unstarted !== void 0) {
    const outcome = failure(
      `The sandbox could not start the command, so it did not run: ${unstarted}`
    );
    return { ok: false, outcome };
  }
  return { ok: true, result };
}
var bashTool = defineTool({
  name: "bash",
  description: [
    "Run a shell command in the sandbox with `bash -c`, starting at the repository root every time (a `cd` does not carry over to the next call; neither do variables).",
    "Returns `exit code: N` first, then stdout and stderr, each labelled; a non-zero exit code is a normal result to read, not a tool failure. A timeout or a killing signal is stated in the result.",
    `Commands are killed after the sandbox's per-command timeout (60 s unless configured) or after timeout_ms, at most ${BASH_MAX_TIMEOUT_MS} ms (10 minutes).`,
    `A result longer than ${INLINE_MAX_CHARS} characters is cut to its first and last 4000 or so; a line in the middle names a read-only file holding all of it, with its size in characters and lines. The file lasts until the run ends: page it with head, tail, sed -n 'A,Bp' or grep rather than running the command again.`,
    "The sandbox has no network, writes only inside the checkout (and a /tmp that is emptied after each command), and keeps .git and .github (except .github/pitcrew) read-only, with any other paths the repository protects. Some commands are refused before they run (e.g. git commit and git push: the harness commits and pushes).",
    "Use read, write and edit for files; bash for everything else (tests, builds, grep, find, git status/diff/log)."
  ].join(" "),
  schema,
  async run(args, context) {
    if (args.command.trim() === "") return failure("command is empty; give a command to run.");
    const verdict = context.gate.check(args.command);
    if (!verdict.allowed) {
      return failure(
        `refused by the permission rules: ${verdict.reason.replace(/\.\s*$/, "")}; the command was not run.`
      );
    }
    const asked = args.timeout_ms;
    const clamped = asked !== void 0 && asked > BASH_MAX_TIMEOUT_MS;
    const timeoutMs = clamped ? BASH_MAX_TIMEOUT_MS : asked ?? context.sandbox.policy.timeoutMs;
    const ran = await runLine(context, args.command, timeoutMs);
    if (!ran.ok) return ran.outcome;
    const result = ran.result;
    const text = formatRun(result, timeoutMs, clamped ? asked : void 0);
    return {
      content: limitResult(
        text,
        result,
        (whole) => context.sandbox.spill(context.callId ?? `bash-${randomUUID()}`, whole)
      ),
      isError: result.timedOut || result.cancelled || result.diskReserveReached === true,
      details: { command: commandEnd(result) }
    };
  }
});

// src/agent/tools/edit.ts
import { relative as relative2 } from "node:path";

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
function maxEditBytes(outputBytes) {
  return Math.floor(outputBytes / 2);
}
var utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
var schema2 = external_exports.object({
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
  schema: schema2,
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

// src/agent/tools/read.ts
var READ_DEFAULT_LIMIT = 2e3;
var READ_LINE_CHARS = 2e3;
var READ_MAX_CHARS = 1e5;
var LINE_BYTES = READ_LINE_CHARS * 4;
var BUDGET_BYTES = 1024 * 1024;
var schema3 = external_exports.object({
  path: external_exports.string().describe("The file: relative to the repository root, or absolute."),
  offset: external_exports.number().int().min(1).optional().describe("The first line to show, counting from 1 (default 1)."),
  limit: external_exports.number().int().min(1).optional().describe(`How many lines to show at most (default ${READ_DEFAULT_LIMIT}).`)
}).strict();
function numbered(number, line) {
  let text = line;
  if (text.length > READ_LINE_CHARS) {
    const end = /[\udc00-\udfff]/.test(text.charAt(READ_LINE_CHARS)) ? READ_LINE_CHARS - 1 : READ_LINE_CHARS;
    text = `${text.slice(0, end)} \u2026 [line cut at ${READ_LINE_CHARS} characters]`;
  }
  return `${String(number).padStart(6)}	${text}`;
}
function renderWindow(window, first, limit) {
  const { lines, total } = window;
  if (total === 0) return { text: "(the file is empty: 0 lines)", last: 0 };
  const shown = [];
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
  return { text: `${shown.join("\n")}
${footer}`, last };
}
function virtualRead(read, path, first, limit) {
  if ("error" in read) return failure(read.error);
  if ("listing" in read) return { content: read.listing, isError: false };
  const all = read.file === "" ? [] : read.file.replace(/\n$/, "").split("\n");
  if (all.length > 0 && first > all.length) {
    return failure(
      `offset ${first} is past the end of ${path}: it has ${all.length} lines. Read from offset 1 to ${all.length}.`
    );
  }
  const window = { lines: all.slice(first - 1, first - 1 + limit), total: all.length };
  const { text, last } = renderWindow(window, first, limit);
  return {
    content: text,
    isError: false,
    details: { lines: { from: all.length === 0 ? 0 : first, to: last, total: all.length } }
  };
}
var readTool = defineTool({
  name: "read",
  description: [
    "Read a text file from the workspace. Returns its lines numbered like `cat -n` (line number, a tab, the line), then a footer with the file's total line count and, when more lines remain, the offset to read on from.",
    `Shows at most ${READ_DEFAULT_LIMIT} lines from \`offset\` (1-based) unless \`limit\` says otherwise, and about ${READ_MAX_CHARS} characters at most; lines longer than ${READ_LINE_CHARS} characters are cut.`,
    "Refuses folders (list them with bash `ls`) and binary files (NUL bytes; use bash `file`, `xxd`). The line numbers are not part of the file: leave them out of edit's old_string."
  ].join(" "),
  schema: schema3,
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
      budgetBytes: BUDGET_BYTES
    });
    if (!read.ok) return read.outcome;
    const { total } = read.value;
    if (total > 0 && first > total) {
      return failure(
        `offset ${first} is past the end of ${args.path}: it has ${total} lines. Read from offset 1 to ${total}.`
      );
    }
    const { text, last } = renderWindow(read.value, first, limit);
    return {
      content: text,
      isError: false,
      details: { lines: { from: total === 0 ? 0 : first, to: last, total } }
    };
  }
});

// src/agent/tools/write.ts
import { relative as relative3 } from "node:path";
var schema4 = external_exports.object({
  path: external_exports.string().describe("The file to write: relative to the repository root, or absolute."),
  content: external_exports.string().describe(
    "The complete new contents, exactly as they should be on disk (include the final newline if the file should end with one)."
  )
}).strict();
var writeTool = defineTool({
  name: "write",
  description: [
    "Write a text file in the workspace: creates it (and any missing folders above it) or replaces all of its contents.",
    "Returns the number of bytes written and whether the file was created or overwritten.",
    "Only the checkout is writable, and not its .git or its .github folder (except .github/pitcrew) or other paths the repository protects: a write elsewhere fails with a read-only error, and one to /tmp or the home folder is lost when the command ends, so it is reported as an error too.",
    "To change part of an existing file, prefer edit."
  ].join(" "),
  schema: schema4,
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
        `${args.path} is outside the checkout, where only places private to one command are writable (/tmp, the home folder), emptied when it ends: the file is already gone. Keep files that later commands need inside the checkout.`
      );
    }
    return {
      content: `${existed ? "Overwrote" : "Created"} ${args.path}: ${plural(bytes, "byte")} written.`,
      isError: false,
      details: { written: relative3(context.workspace, path.absolute) }
    };
  }
});

// src/agent/tools/index.ts
var TOOLS = [bashTool, readTool, writeTool, editTool, todoWriteTool];
function toolDefinitions(tools = TOOLS) {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool)
  }));
}

export {
  BASH_MAX_TIMEOUT_MS,
  runLine,
  TOOLS,
  toolDefinitions
};
