import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  EXIT_FAILED,
  EXIT_USAGE
} from "./chunk-UEXP7TTN.js";
import {
  repositoryNotes
} from "./chunk-W35AUT3S.js";
import {
  parseOptions
} from "./chunk-FONUG7OL.js";
import "./chunk-A3SZIK73.js";
import {
  renderReport
} from "./chunk-RVPB4Q3M.js";
import "./chunk-ACUST24B.js";
import {
  compressionOf,
  unpack,
  unpackBudget
} from "./chunk-JCMIJNXI.js";
import "./chunk-EYJLS7SB.js";
import {
  NOTE_FILE,
  STATE_FILE,
  TRANSCRIPT_FILE
} from "./chunk-6CPZM6MN.js";
import "./chunk-RORLQNC6.js";
import "./chunk-V2YX4XL4.js";
import "./chunk-UBIXNM57.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/commands/report.ts
import { existsSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
var REPORT_USAGE = "usage: pitcrew report [--out FILE] SOURCE  |  pitcrew report --thread KEY [--repo DIR] [--out FILE]";
var DEFAULT_OUT = "pitcrew-report.html";
function inputOf(files) {
  if (files.transcript === void 0) {
    throw new PitcrewError(
      "report-no-transcript",
      `It holds no ${TRANSCRIPT_FILE}: give a transcript, a notes folder or a notes artifact zip.`
    );
  }
  let state;
  try {
    state = files.state === void 0 ? void 0 : JSON.parse(files.state);
  } catch {
    state = void 0;
  }
  return { transcript: files.transcript, state, note: files.note };
}
async function fromPath(source) {
  if (statSync(source).isDirectory()) {
    const read = async (name) => existsSync(join(source, name)) ? await readFile(join(source, name), "utf8") : void 0;
    return inputOf({
      state: await read(STATE_FILE),
      note: await read(NOTE_FILE),
      transcript: await read(TRANSCRIPT_FILE)
    });
  }
  const bytes = await readFile(source);
  if (compressionOf(bytes) === "zip") {
    const { contents, problems } = unpack(source, bytes, unpackBudget());
    if (problems[0] !== void 0) {
      throw new PitcrewError(
        "report-unreadable",
        `${problems[0].names.join(": ")}: ${problems[0].kind}.`
      );
    }
    const file = (name) => contents.find((one) => one.names.at(-1)?.split("/").at(-1) === name)?.bytes.toString("utf8");
    return inputOf({
      state: file(STATE_FILE),
      note: file(NOTE_FILE),
      transcript: file(TRANSCRIPT_FILE)
    });
  }
  return { transcript: bytes.toString("utf8") };
}
async function fromThread(repo, key) {
  const restored = await (await repositoryNotes(repo)).restore(key);
  if (!restored.found) {
    throw new PitcrewError(
      "report-no-thread",
      `No notes for thread ${key} in ${repo}: ${restored.reason}.`
    );
  }
  const { notes } = restored;
  return { transcript: notes.transcript, state: notes.state, note: notes.note };
}
async function reportCommand(args, io = { out: process.stdout, err: process.stderr }) {
  if (args.includes("--help") || args.includes("-h")) {
    io.out.write(`${REPORT_USAGE}
`);
    return 0;
  }
  let out;
  let thread;
  let repo;
  let source;
  try {
    const parsed = parseOptions(args, {
      out: { type: "string", example: DEFAULT_OUT },
      thread: { type: "string", example: "issue-12" },
      repo: { type: "string", example: "." }
    });
    out = resolve(String(parsed.values.get("out") ?? DEFAULT_OUT));
    const given = parsed.values.get("thread");
    thread = given === void 0 ? void 0 : String(given);
    repo = resolve(String(parsed.values.get("repo") ?? "."));
    source = parsed.positionals[0];
    if (thread === void 0 === (source === void 0) || parsed.positionals.length > 1) {
      throw new PitcrewError(
        "cli-usage",
        "Give one source: a transcript, a notes folder or a notes artifact zip, or --thread KEY."
      );
    }
    if (source !== void 0 && !existsSync(source)) {
      throw new PitcrewError("cli-usage", `${source} does not exist.`);
    }
  } catch (error) {
    io.err.write(`pitcrew report: ${describeError(error)}
${REPORT_USAGE}
`);
    return EXIT_USAGE;
  }
  try {
    const input = thread === void 0 ? await fromPath(source) : await fromThread(repo, thread);
    const html = renderReport(input);
    await writeFile(out, html);
    io.out.write(`${out}
`);
    return 0;
  } catch (error) {
    io.err.write(`pitcrew report: ${describeError(error)}
`);
    return EXIT_FAILED;
  }
}
export {
  REPORT_USAGE,
  reportCommand
};
