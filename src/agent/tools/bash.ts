/**
 * The `bash` tool: one command line, checked by the permission rules, then run by `bash -c` in
 * the sandbox at the repository root. The result is the exit code first, then stdout and stderr,
 * with a timeout or a signal said plainly; a non-zero exit is an ordinary result for the model to
 * read, while a refused command or one that could not start (also inside the sandbox: the
 * wrapper's own "execvp" complaint is not the command's exit) is an error. A result longer than
 * INLINE_MAX_CHARS keeps its head and tail; the whole text goes to a spill file the model can page.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { PitcrewError, describeError } from "../../errors.ts";
import type { RunResult } from "../../sandbox/runner.ts";
import { shellStatus } from "../../sandbox/runner.ts";
import { INLINE_MAX_CHARS, capped, toSpill } from "../../context/cap.ts";
import type { Spilled, SpillPort } from "../../context/cap.ts";
import { formatDuration } from "./format.ts";
import { defineTool, failure } from "./tool.ts";
import type { ToolContext } from "./tool.ts";
import type { CommandEnd, ToolOutcome } from "../../domain/tools.ts";
import { notStarted } from "../../sandbox/not-started.ts";

/** The longest timeout a command may ask for. */
export const BASH_MAX_TIMEOUT_MS = 10 * 60 * 1000;

const schema = z
  .object({
    command: z
      .string()
      .describe(
        "The command line, run with `bash -c` at the repository root (pipes, `&&`, redirections and multi-line scripts work).",
      ),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Milliseconds before the command and everything it started are killed (default: the sandbox's per-command timeout, 60000 unless configured; at most ${BASH_MAX_TIMEOUT_MS}).`,
      ),
  })
  .strict();

function streamSection(label: string, stream: RunResult["stdout"]): string {
  if (stream.bytes === 0) return "";
  const note = stream.truncated
    ? ` (${stream.bytes} bytes; the sandbox kept only the head and the tail)`
    : "";
  return `${label}${note}:\n${stream.text}${stream.text.endsWith("\n") ? "" : "\n"}`;
}

/** The whole result text: status first, then stdout and stderr, each labelled. */
export function formatRun(result: RunResult, timeoutMs: number, clampedFrom?: number): string {
  const lines: string[] = [];
  if (result.exitCode !== null) lines.push(`exit code: ${result.exitCode}`);
  else lines.push(`exit code: ${shellStatus(result)} (killed by signal ${result.signal ?? "?"})`);
  if (clampedFrom !== undefined) {
    lines.push(
      `timeout_ms ${clampedFrom} is above the limit; the command ran with ${BASH_MAX_TIMEOUT_MS}.`,
    );
  }
  if (result.timedOut) {
    lines.push(
      `timed out after ${formatDuration(timeoutMs)}; the command and everything it started were killed; run long jobs with a larger timeout_ms (at most ${BASH_MAX_TIMEOUT_MS}) or in smaller steps.`,
    );
  } else if (result.cancelled) {
    lines.push(
      "cancelled: the run is stopping; the command and everything it started were killed.",
    );
  } else if (result.diskReserveReached) {
    lines.push(
      "disk-reserve-reached: the command and everything it started were killed because the disk is nearly full; the end of stderr says what to do.",
    );
  }
  const head = `${lines.join("\n")}\n`;
  const body = streamSection("stdout", result.stdout) + streamSection("stderr", result.stderr);
  return (head + (body === "" ? "(no output)\n" : body)).trimEnd();
}

/**
 * `text` when it fits in INLINE_MAX_CHARS. Otherwise `save` stores the whole text (a spill file;
 * it returns the path a command reads it at, or throws a PitcrewError) and the model gets what
 * the cap layer makes of it (context/cap.ts): the head and tail around a notice naming that file,
 * and saying when the sandbox's own output ceiling had already dropped bytes.
 */
export function limitResult(text: string, result: RunResult, save: SpillPort): string {
  const whole = toSpill(text);
  if (whole === null) return text;
  let spilled: Spilled;
  try {
    spilled = { path: save(whole) };
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    spilled = { notSaved: describeError(error) };
  }
  const cut = [
    { label: "stdout", stream: result.stdout },
    { label: "stderr", stream: result.stderr },
  ]
    .filter(({ stream }) => stream.truncated)
    .map(({ label, stream }) => ({ label, bytes: stream.bytes }));
  return capped(text, spilled, cut);
}

/** How the command ended, with the last lines of each stream, for the people watching. */
function commandEnd(result: RunResult): CommandEnd {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    stdoutTail: tail(result.stdout.text),
    stderrTail: tail(result.stderr.text),
  };
}

function tail(text: string): string {
  const lines = text.trimEnd().split("\n").slice(-TAIL_LINES).join("\n");
  return lines.length > TAIL_CHARS ? lines.slice(-TAIL_CHARS) : lines;
}

const TAIL_LINES = 40;
const TAIL_CHARS = 4000;

/**
 * A command line run with `bash -c` in the sandbox at the repository root, or the tool's error
 * when it could not start there (the wrapper's own "execvp" complaint is not the command's exit).
 */
export async function runLine(
  context: ToolContext,
  command: string,
  timeoutMs: number,
): Promise<{ ok: true; result: RunResult } | { ok: false; outcome: ToolOutcome }> {
  let result: RunResult;
  try {
    result = await context.sandbox.run({
      // No cwd: the sandbox starts every command at the workspace, the repository root.
      argv: ["bash", "-c", command],
      timeoutMs,
      signal: context.signal,
    });
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    const outcome = failure(
      `The command could not be started, so it did not run: ${describeError(error)}`,
    );
    return { ok: false, outcome };
  }
  const unstarted = notStarted(result);
  if (unstarted !== undefined) {
    const outcome = failure(
      `The sandbox could not start the command, so it did not run: ${unstarted}`,
    );
    return { ok: false, outcome };
  }
  return { ok: true, result };
}

export const bashTool = defineTool({
  name: "bash",
  description: [
    "Run a shell command in the sandbox with `bash -c`, starting at the repository root every time (a `cd` does not carry over to the next call; neither do variables).",
    "Returns `exit code: N` first, then stdout and stderr, each labelled; a non-zero exit code is a normal result to read, not a tool failure. A timeout or a killing signal is stated in the result.",
    `Commands are killed after the sandbox's per-command timeout (60 s unless configured) or after timeout_ms, at most ${BASH_MAX_TIMEOUT_MS} ms (10 minutes).`,
    `A result longer than ${INLINE_MAX_CHARS} characters is cut to its first and last 4000 or so; a line in the middle names a read-only file holding all of it, with its size in characters and lines. The file lasts until the run ends: page it with head, tail, sed -n 'A,Bp' or grep rather than running the command again.`,
    "The sandbox has no network, writes only inside the checkout (and a /tmp that is emptied after each command), and keeps .git and .github (except .github/pitcrew) read-only, with any other paths the repository protects. Some commands are refused before they run (e.g. git commit and git push: the harness commits and pushes).",
    "Use read, write and edit for files; bash for everything else (tests, builds, grep, find, git status/diff/log).",
  ].join(" "),
  schema,
  async run(args, context): Promise<ToolOutcome> {
    if (args.command.trim() === "") return failure("command is empty; give a command to run.");
    const verdict = context.gate.check(args.command);
    if (!verdict.allowed) {
      return failure(
        `refused by the permission rules: ${verdict.reason.replace(/\.\s*$/, "")}; the command was not run.`,
      );
    }
    const asked = args.timeout_ms;
    const clamped = asked !== undefined && asked > BASH_MAX_TIMEOUT_MS;
    const timeoutMs = clamped ? BASH_MAX_TIMEOUT_MS : (asked ?? context.sandbox.policy.timeoutMs);
    const ran = await runLine(context, args.command, timeoutMs);
    if (!ran.ok) return ran.outcome;
    const result = ran.result;
    const text = formatRun(result, timeoutMs, clamped ? asked : undefined);
    return {
      content: limitResult(text, result, (whole) =>
        context.sandbox.spill(context.callId ?? `bash-${randomUUID()}`, whole),
      ),
      isError: result.timedOut || result.cancelled || result.diskReserveReached === true,
      details: { command: commandEnd(result) },
    };
  },
});
