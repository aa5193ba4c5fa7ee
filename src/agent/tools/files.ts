/**
 * Workspace files as read, write and edit reach them: only through the sandbox. Each function
 * runs one small bash script inside it, with the path as an argument (never spliced into the
 * script), so the kernel's walls decide what may be read or written; the harness never opens a
 * workspace path itself, and a symlink the agent planted leads nowhere the sandbox cannot go.
 * Not a general file API: just what those three tools need, with failures as tool outcomes.
 */
import { relative, resolve, sep } from "node:path";
import { PitcrewError, describeError } from "../../errors.ts";
import { isInside } from "../../sandbox/policy.ts";
import { protectingPattern } from "../../sandbox/protected-paths.ts";
import type { RunResult } from "../../sandbox/runner.ts";
import { formatDuration } from "./format.ts";
import type { ToolContext } from "./tool.ts";
import type { ToolOutcome } from "../../domain/tools.ts";
import { failure } from "./tool.ts";

/** Either the value or the error outcome to hand the model. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; outcome: ToolOutcome };

/** A path the model gave, resolved against the workspace (lexically; the kernel does the rest). */
export interface TargetPath {
  /** What the model wrote, for messages. */
  given: string;
  absolute: string;
}

export function targetPath(workspace: string, given: string): TargetPath {
  return { given, absolute: resolve(workspace, given) };
}

/** `word` quoted for a bash command line the model may copy. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Checks that `$1` is a regular, readable file, exiting with a code `problemOf` names when not.
 * `[ -f ]` follows symlinks, so a link to a device or FIFO is refused too (reading one could hang).
 */
const CHECK_READABLE = String.raw`
f=$1
if [ ! -e "$f" ]; then
  if [ -L "$f" ]; then exit 12; fi
  exit 10
fi
if [ -d "$f" ]; then exit 11; fi
if [ ! -f "$f" ]; then exit 13; fi
if [ ! -r "$f" ]; then exit 14; fi
`;

/** Exit status when the file holds NUL bytes (checked over the whole file). */
const CHECK_TEXT = String.raw`
if [ "$(tr -dc '\000' < "$f" | head -c 1 | wc -c)" -ne 0 ]; then exit 16; fi
`;

/** $2 = first line, $3 = last line, $4 = bytes kept per line, $5 = bytes printed at most. */
const READ_LINES =
  CHECK_READABLE +
  CHECK_TEXT +
  String.raw`
exec awk -v s="$2" -v e="$3" -v w="$4" -v budget="$5" '
NR >= s && NR <= e && !full {
  line = substr($0, 1, w)
  used += length(line) + 1
  if (used > budget && NR > s) full = 1
  else print line
}
END { print NR }' < "$f"
`;

/** $2 = largest size read. Prints the size on one line, then the bytes in base64. */
const READ_BYTES =
  CHECK_READABLE +
  String.raw`
size=$(wc -c < "$f") || exit 14
if [ "$size" -gt "$2" ]; then printf '%s' "$size"; exit 15; fi
printf '%s\n' "$size"
base64 < "$f"
`;

/** Writes stdin to `$1`, creating folders; prints 1 when the file existed, then its new size. */
const WRITE_BYTES = String.raw`
f=$1
if [ -d "$f" ]; then exit 11; fi
if [ -e "$f" ] && [ ! -f "$f" ]; then exit 13; fi
if [ -e "$f" ]; then existed=1; else existed=0; fi
mkdir -p -- "$(dirname -- "$f")" || exit 20
cat > "$f" || exit 21
printf '%s\n' "$existed"
wc -c < "$f"
`;

/** The problems the scripts above report by exit status. */
function problemOf(code: number | null, path: string, verb: string): string | null {
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

/** bash's own prefix on its error lines (`pitcrew: line 7: `), which means nothing to the model. */
function cleanStderr(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => line.replace(/^pitcrew: line \d+: /, ""))
    .join("\n");
}

function readOnlyHint(stderr: string): string {
  return /Read-only file system/i.test(stderr)
    ? " That place is read-only in the sandbox: only the checkout is writable (not its .git, its .github folder or the repository's protected paths), and a symbolic link does not lead out of it. Write inside the checkout instead."
    : "";
}

/** Runs one of the scripts above; a sandbox that fails, times out or is cancelled is an outcome. */
async function runScript(
  context: ToolContext,
  script: string,
  args: readonly string[],
  doing: string,
  stdin?: Buffer,
): Promise<Attempt<RunResult>> {
  let result: RunResult;
  try {
    result = await context.sandbox.run({
      argv: ["bash", "-c", script, "pitcrew", ...args],
      stdin,
      signal: context.signal,
    });
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    return {
      ok: false,
      outcome: failure(`Could not start the sandbox for ${doing}: ${describeError(error)}`),
    };
  }
  if (result.cancelled) {
    return { ok: false, outcome: failure(`Cancelled while ${doing}: the run is stopping.`) };
  }
  if (result.timedOut) {
    return {
      ok: false,
      outcome: failure(
        `Timed out after ${formatDuration(context.sandbox.policy.timeoutMs)} while ${doing}. Check what the path is with bash (\`ls -l\`, \`file\`).`,
      ),
    };
  }
  return { ok: true, value: result };
}

function unexpected(result: RunResult, doing: string): ToolOutcome {
  const stderr = cleanStderr(result.stderr.text);
  const detail = stderr === "" ? `exit code ${result.exitCode ?? result.signal}` : stderr;
  return failure(`Failed while ${doing}: ${detail}.${readOnlyHint(stderr)}`);
}

export interface LineWindow {
  /** The lines from `first` on, in order (without their newline), each cut at `lineBytes` bytes. */
  lines: string[];
  /** Lines in the whole file (a last line without a newline counts). */
  total: number;
}

/** Lines `first`..`last` of a text file, at most `budgetBytes` of them after the first. */
export async function readLines(
  context: ToolContext,
  path: TargetPath,
  window: { first: number; last: number; lineBytes: number; budgetBytes: number },
): Promise<Attempt<LineWindow>> {
  const doing = `reading ${path.given}`;
  const run = await runScript(
    context,
    READ_LINES,
    [
      path.absolute,
      String(window.first),
      String(window.last),
      String(window.lineBytes),
      String(window.budgetBytes),
    ],
    doing,
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

/** The exact bytes of a file no larger than `maxBytes`. */
export async function readBytes(
  context: ToolContext,
  path: TargetPath,
  maxBytes: number,
  verb: string,
): Promise<Attempt<Buffer>> {
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
        `${path.given} is ${result.stdout.text.trim()} bytes, more than ${verb} handles (${maxBytes}); change it with bash instead (\`sed -i\`, or a small script).`,
      ),
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
      outcome: failure(`${path.given} changed while it was being read; try again.`),
    };
  }
  return { ok: true, value: bytes };
}

export interface Written {
  /** The file was there before (and was overwritten). */
  existed: boolean;
  bytes: number;
}

/**
 * The refusal for a path CI executes (protected-paths.ts), before anything runs: the sandbox's
 * read-only mount would stop the write too, but this says why and what to do instead. The check
 * is lexical; a path reached through a symlink is stopped by the mount (and the push check).
 */
export function protectedRefusal(context: ToolContext, path: TargetPath): ToolOutcome | null {
  const { workspace, protectedPatterns } = context.sandbox.policy;
  if (!isInside(path.absolute, workspace)) return null;
  const rel = relative(workspace, path.absolute).split(sep).join("/");
  const pattern = protectingPattern(rel, protectedPatterns);
  if (pattern === undefined) return null;
  return failure(
    `path-protected: ${path.given} is protected (\`${pattern}\`): the repository's CI runs it with its secrets, so it is read-only here and pitcrew will not push a change to it. Take another way: change the code it runs instead, or leave it as it is and say in your summary what change it needs, so a person can make it.`,
  );
}

/** Writes `bytes` to the file, creating its folders; every write goes through the sandbox. */
export async function writeBytes(
  context: ToolContext,
  path: TargetPath,
  bytes: Buffer,
  verb: string,
): Promise<Attempt<Written>> {
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
        `Could not write ${path.given}: ${stderr === "" ? "the sandbox refused" : stderr}.${readOnlyHint(stderr)}`,
      ),
    };
  }
  if (result.exitCode !== 0) return { ok: false, outcome: unexpected(result, doing) };
  const [existed, size] = result.stdout.text.trim().split("\n");
  if (Number(size) !== bytes.length) {
    return {
      ok: false,
      outcome: failure(
        `Wrote ${path.given}, but it now holds ${size ?? "?"} bytes instead of ${bytes.length}: something else changed it, or a limit cut the write (${cleanStderr(result.stderr.text) || "no message"}). Check it with read.`,
      ),
    };
  }
  return { ok: true, value: { existed: existed === "1", bytes: bytes.length } };
}
