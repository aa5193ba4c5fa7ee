/**
 * `pitcrew report [--out FILE] SOURCE` / `pitcrew report --thread KEY [--repo DIR]`: one
 * self-contained HTML page of a run (src/report/render.ts) from a transcript
 * (`transcript.jsonl`), a notes folder, a downloaded notes artifact zip, or a thread of the local
 * notes store. Nothing in the sources is trusted: the page escapes it all and runs no script
 * from it.
 */
import { existsSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describeError, PitcrewError } from "../errors.ts";
import { compressionOf, unpack, unpackBudget } from "../git/secret-unpack.ts";
import { renderReport } from "../report/render.ts";
import type { ReportInput } from "../report/render.ts";
import { repositoryNotes } from "../run/ends/local-notes.ts";
import { NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE } from "../store/notes.ts";
import { parseOptions } from "./args.ts";
import type { CommandOutput } from "./context.ts";
import { EXIT_FAILED, EXIT_USAGE } from "./context.ts";

export const REPORT_USAGE =
  "usage: pitcrew report [--out FILE] SOURCE  |  pitcrew report --thread KEY [--repo DIR] [--out FILE]";

const DEFAULT_OUT = "pitcrew-report.html";

/** The notes' three files, as found (any may be missing), into the report's input. */
function inputOf(files: { state?: string; note?: string; transcript?: string }): ReportInput {
  if (files.transcript === undefined) {
    throw new PitcrewError(
      "report-no-transcript",
      `It holds no ${TRANSCRIPT_FILE}: give a transcript, a notes folder or a notes artifact zip.`,
    );
  }
  let state: unknown;
  try {
    state = files.state === undefined ? undefined : JSON.parse(files.state);
  } catch {
    state = undefined;
  }
  return { transcript: files.transcript, state, note: files.note };
}

async function fromPath(source: string): Promise<ReportInput> {
  if (statSync(source).isDirectory()) {
    const read = async (name: string) =>
      existsSync(join(source, name)) ? await readFile(join(source, name), "utf8") : undefined;
    return inputOf({
      state: await read(STATE_FILE),
      note: await read(NOTE_FILE),
      transcript: await read(TRANSCRIPT_FILE),
    });
  }
  const bytes = await readFile(source);
  if (compressionOf(bytes) === "zip") {
    // Read within the secret scan's unpacking bounds: a zip from anywhere is not trusted.
    const { contents, problems } = unpack(source, bytes, unpackBudget());
    if (problems[0] !== undefined) {
      throw new PitcrewError(
        "report-unreadable",
        `${problems[0].names.join(": ")}: ${problems[0].kind}.`,
      );
    }
    const file = (name: string) =>
      contents.find((one) => one.names.at(-1)?.split("/").at(-1) === name)?.bytes.toString("utf8");
    return inputOf({
      state: file(STATE_FILE),
      note: file(NOTE_FILE),
      transcript: file(TRANSCRIPT_FILE),
    });
  }
  return { transcript: bytes.toString("utf8") };
}

async function fromThread(repo: string, key: string): Promise<ReportInput> {
  const restored = await (await repositoryNotes(repo)).restore(key);
  if (!restored.found) {
    throw new PitcrewError(
      "report-no-thread",
      `No notes for thread ${key} in ${repo}: ${restored.reason}.`,
    );
  }
  const { notes } = restored;
  return { transcript: notes.transcript, state: notes.state, note: notes.note };
}

export async function reportCommand(
  args: string[],
  io: CommandOutput = { out: process.stdout, err: process.stderr },
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.out.write(`${REPORT_USAGE}\n`);
    return 0;
  }
  let out: string;
  let thread: string | undefined;
  let repo: string;
  let source: string | undefined;
  try {
    const parsed = parseOptions(args, {
      out: { type: "string", example: DEFAULT_OUT },
      thread: { type: "string", example: "issue-12" },
      repo: { type: "string", example: "." },
    });
    out = resolve(String(parsed.values.get("out") ?? DEFAULT_OUT));
    const given = parsed.values.get("thread");
    thread = given === undefined ? undefined : String(given);
    repo = resolve(String(parsed.values.get("repo") ?? "."));
    source = parsed.positionals[0];
    if ((thread === undefined) === (source === undefined) || parsed.positionals.length > 1) {
      throw new PitcrewError(
        "cli-usage",
        "Give one source: a transcript, a notes folder or a notes artifact zip, or --thread KEY.",
      );
    }
    if (source !== undefined && !existsSync(source)) {
      throw new PitcrewError("cli-usage", `${source} does not exist.`);
    }
  } catch (error) {
    io.err.write(`pitcrew report: ${describeError(error)}\n${REPORT_USAGE}\n`);
    return EXIT_USAGE;
  }
  try {
    const input = thread === undefined ? await fromPath(source!) : await fromThread(repo, thread);
    const html = renderReport(input);
    await writeFile(out, html);
    io.out.write(`${out}\n`);
    return 0;
  } catch (error) {
    io.err.write(`pitcrew report: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }
}
