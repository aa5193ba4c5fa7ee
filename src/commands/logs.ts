/**
 * `pitcrew logs excerpt`: the excerpting CI repair does, on a file you have — a saved job log,
 * a run's log zip (each job excerpted under its name) or a JUnit report — so you can see what the
 * agent would be shown. `--json` prints `{ "excerpt", "failing_tests", "first_error" }`, names
 * that scripts outside this repository rely on.
 */
import { readFile } from "node:fs/promises";
import { excerptLog, DEFAULT_MAX_TOKENS } from "../ci/excerpt.ts";
import { isJunit, readJunit } from "../ci/junit.ts";
import { readJobLog, readRunLogs } from "../ci/log.ts";
import { compressionOf } from "../git/secret-unpack.ts";
import type { Excerpt } from "../domain/ci.ts";
import { PitcrewError, describeError } from "../errors.ts";
import { countOption, parseOptions } from "./args.ts";
import type { CommandOutput } from "./context.ts";
import { EXIT_FAILED, EXIT_USAGE } from "./context.ts";

export const LOGS_USAGE = "usage: pitcrew logs excerpt [--max-tokens N] [--json] FILE";

/** The excerpt of whatever the file is: a zip of job logs, a JUnit report, or a log. */
export function excerptFile(bytes: Buffer, file: string, maxTokens: number): Excerpt {
  if (compressionOf(bytes) === "zip") {
    const jobs = readRunLogs(bytes, file).map((job) => ({
      name: job.name,
      excerpt: excerptLog(job.log, { maxTokens: Math.max(500, Math.floor(maxTokens / 2)) }),
    }));
    const failing = jobs.filter((job) => job.excerpt.firstError !== null);
    const shown = failing.length > 0 ? failing : jobs;
    return {
      excerpt: shown.map((job) => `=== job ${job.name}\n${job.excerpt.excerpt}`).join("\n\n"),
      failingTests: [...new Set(shown.flatMap((job) => job.excerpt.failingTests))],
      firstError: shown.find((job) => job.excerpt.firstError !== null)?.excerpt.firstError ?? null,
    };
  }
  const text = bytes.toString("utf8");
  if (isJunit(text)) {
    const report = readJunit(text, file);
    return {
      excerpt: report.failing.map((test) => `${test.id}: ${test.message}`).join("\n"),
      failingTests: report.failing.map((test) => test.id),
      firstError: report.failing[0]?.message ?? null,
    };
  }
  return excerptLog(readJobLog(text), { maxTokens });
}

function plain(excerpt: Excerpt): string {
  return [
    excerpt.excerpt,
    "",
    `failing tests: ${excerpt.failingTests.length === 0 ? "none found" : excerpt.failingTests.join(", ")}`,
    `first error: ${excerpt.firstError ?? "none found"}`,
    "",
  ].join("\n");
}

export async function logsCommand(
  args: string[],
  io: CommandOutput = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const [subcommand, ...rest] = args;
  if (
    subcommand === "--help" ||
    subcommand === "-h" ||
    subcommand === "help" ||
    rest.includes("--help") ||
    rest.includes("-h")
  ) {
    io.out.write(`${LOGS_USAGE}\n`);
    return 0;
  }
  if (subcommand !== "excerpt") {
    io.err.write(
      `pitcrew logs: ${subcommand === undefined ? "name a subcommand" : `unknown subcommand '${subcommand}'`}\n${LOGS_USAGE}\n`,
    );
    return EXIT_USAGE;
  }
  let file: string;
  let maxTokens: number;
  let json: boolean;
  try {
    const parsed = parseOptions(rest, {
      "max-tokens": { type: "string", example: String(DEFAULT_MAX_TOKENS) },
      json: { type: "boolean" },
    });
    maxTokens = countOption(parsed, "max-tokens", "of tokens", DEFAULT_MAX_TOKENS);
    json = parsed.values.get("json") === true;
    if (parsed.positionals.length !== 1) {
      throw new PitcrewError(
        "cli-no-files",
        parsed.positionals.length === 0
          ? "Name one file: a saved job log, a log zip or a JUnit report."
          : "Name one file at a time.",
      );
    }
    file = parsed.positionals[0]!;
  } catch (error) {
    io.err.write(`pitcrew logs excerpt: ${describeError(error)}\n${LOGS_USAGE}\n`);
    return EXIT_USAGE;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    io.err.write(
      `pitcrew logs excerpt: ${missing ? `${file} does not exist` : `${file} could not be read (${describeError(error)})`}\n${LOGS_USAGE}\n`,
    );
    return EXIT_USAGE;
  }
  let excerpt: Excerpt;
  try {
    excerpt = excerptFile(bytes, file, maxTokens);
  } catch (error) {
    io.err.write(`pitcrew logs excerpt: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }
  io.out.write(
    json
      ? `${JSON.stringify({ excerpt: excerpt.excerpt, failing_tests: excerpt.failingTests, first_error: excerpt.firstError }, null, 2)}\n`
      : plain(excerpt),
  );
  return 0;
}
