import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  EXIT_FAILED,
  EXIT_USAGE
} from "./chunk-UEXP7TTN.js";
import {
  countOption,
  parseOptions
} from "./chunk-FONUG7OL.js";
import "./chunk-A3SZIK73.js";
import {
  DEFAULT_MAX_TOKENS,
  excerptLog,
  isJunit,
  readJunit
} from "./chunk-ES2FBY7Z.js";
import {
  readJobLog,
  readRunLogs
} from "./chunk-DVOXXDTS.js";
import {
  compressionOf
} from "./chunk-JCMIJNXI.js";
import "./chunk-6BQ7F7WX.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/commands/logs.ts
import { readFile } from "node:fs/promises";
var LOGS_USAGE = "usage: pitcrew logs excerpt [--max-tokens N] [--json] FILE";
function excerptFile(bytes, file, maxTokens) {
  if (compressionOf(bytes) === "zip") {
    const jobs = readRunLogs(bytes, file).map((job) => ({
      name: job.name,
      excerpt: excerptLog(job.log, { maxTokens: Math.max(500, Math.floor(maxTokens / 2)) })
    }));
    const failing = jobs.filter((job) => job.excerpt.firstError !== null);
    const shown = failing.length > 0 ? failing : jobs;
    return {
      excerpt: shown.map((job) => `=== job ${job.name}
${job.excerpt.excerpt}`).join("\n\n"),
      failingTests: [...new Set(shown.flatMap((job) => job.excerpt.failingTests))],
      firstError: shown.find((job) => job.excerpt.firstError !== null)?.excerpt.firstError ?? null
    };
  }
  const text = bytes.toString("utf8");
  if (isJunit(text)) {
    const report = readJunit(text, file);
    return {
      excerpt: report.failing.map((test) => `${test.id}: ${test.message}`).join("\n"),
      failingTests: report.failing.map((test) => test.id),
      firstError: report.failing[0]?.message ?? null
    };
  }
  return excerptLog(readJobLog(text), { maxTokens });
}
function plain(excerpt) {
  return [
    excerpt.excerpt,
    "",
    `failing tests: ${excerpt.failingTests.length === 0 ? "none found" : excerpt.failingTests.join(", ")}`,
    `first error: ${excerpt.firstError ?? "none found"}`,
    ""
  ].join("\n");
}
async function logsCommand(args, io = { out: process.stdout, err: process.stderr }) {
  const [subcommand, ...rest] = args;
  if (subcommand === "--help" || subcommand === "-h" || subcommand === "help" || rest.includes("--help") || rest.includes("-h")) {
    io.out.write(`${LOGS_USAGE}
`);
    return 0;
  }
  if (subcommand !== "excerpt") {
    io.err.write(
      `pitcrew logs: ${subcommand === void 0 ? "name a subcommand" : `unknown subcommand '${subcommand}'`}
${LOGS_USAGE}
`
    );
    return EXIT_USAGE;
  }
  let file;
  let maxTokens;
  let json;
  try {
    const parsed = parseOptions(rest, {
      "max-tokens": { type: "string", example: String(DEFAULT_MAX_TOKENS) },
      json: { type: "boolean" }
    });
    maxTokens = countOption(parsed, "max-tokens", "of tokens", DEFAULT_MAX_TOKENS);
    json = parsed.values.get("json") === true;
    if (parsed.positionals.length !== 1) {
      throw new PitcrewError(
        "cli-no-files",
        parsed.positionals.length === 0 ? "Name one file: a saved job log, a log zip or a JUnit report." : "Name one file at a time."
      );
    }
    file = parsed.positionals[0];
  } catch (error) {
    io.err.write(`pitcrew logs excerpt: ${describeError(error)}
${LOGS_USAGE}
`);
    return EXIT_USAGE;
  }
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const missing = error.code === "ENOENT";
    io.err.write(
      `pitcrew logs excerpt: ${missing ? `${file} does not exist` : `${file} could not be read (${describeError(error)})`}
${LOGS_USAGE}
`
    );
    return EXIT_USAGE;
  }
  let excerpt;
  try {
    excerpt = excerptFile(bytes, file, maxTokens);
  } catch (error) {
    io.err.write(`pitcrew logs excerpt: ${describeError(error)}
`);
    return EXIT_FAILED;
  }
  io.out.write(
    json ? `${JSON.stringify({ excerpt: excerpt.excerpt, failing_tests: excerpt.failingTests, first_error: excerpt.firstError }, null, 2)}
` : plain(excerpt)
  );
  return 0;
}
export {
  LOGS_USAGE,
  excerptFile,
  logsCommand
};
