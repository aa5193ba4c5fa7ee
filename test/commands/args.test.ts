/**
 * The subcommands' option parser (src/commands/args.ts): values in both spellings, a value that
 * starts with one dash, `--` before dashed text, help, and each mistake as pitcrew's own named
 * sentence (present/usage.ts), never node:util's.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BAD_OPTION, countOption, parseOptions, stringOption } from "../../src/commands/args.ts";
import type { OptionSpec } from "../../src/commands/args.ts";
import { PitcrewError } from "../../src/errors.ts";

const SPECS: Record<string, OptionSpec> = {
  repo: { type: "string", example: "." },
  "max-turns": { type: "string", example: "50" },
  json: { type: "boolean" },
};

function refused(args: string[], sentence: RegExp): void {
  assert.throws(
    () => parseOptions(args, SPECS),
    (error: unknown) => {
      assert.ok(error instanceof PitcrewError);
      assert.equal(error.code, BAD_OPTION);
      assert.match(error.message, sentence);
      return true;
    },
    args.join(" "),
  );
}

describe("parseOptions", () => {
  test("values given both ways, flags, positionals around them, -- before dashed text", () => {
    const parsed = parseOptions(
      ["fix", "--repo", "a", "--max-turns=3", "--json", "it", "--", "--not-an-option", "-x"],
      SPECS,
    );
    assert.equal(stringOption(parsed, "repo"), "a");
    assert.equal(parsed.values.get("json"), true);
    assert.equal(countOption(parsed, "max-turns", "of turns", 50), 3);
    assert.deepEqual(parsed.positionals, ["fix", "it", "--not-an-option", "-x"]);
    assert.equal(parsed.help, false);
  });

  test("a value may start with one dash; the command then refuses it in its own words", () => {
    const parsed = parseOptions(["--max-turns", "-1", "task"], SPECS);
    assert.equal(stringOption(parsed, "max-turns"), "-1");
    assert.deepEqual(parsed.positionals, ["task"]);
    assert.throws(
      () => countOption(parsed, "max-turns", "of turns", 50),
      /^PitcrewError: --max-turns takes a whole number of turns above 0, not '-1'\.$/,
    );
    for (const given of ["0", "2.5", "1e3", " ", "0x10", "9007199254740993"]) {
      const bad = parseOptions(["--max-turns", given], SPECS);
      assert.throws(() => countOption(bad, "max-turns", "of turns", 50), /whole number/, given);
    }
    assert.equal(countOption(parseOptions([], SPECS), "max-turns", "of turns", 50), 50);
  });

  test("-h and --help anywhere ask for help", () => {
    assert.equal(parseOptions(["x", "-h"], SPECS).help, true);
    assert.equal(parseOptions(["--help"], SPECS).help, true);
    assert.equal(parseOptions(["--", "--help"], SPECS).help, false, "after --, it is text");
  });

  test("each mistake is a named sentence", () => {
    refused(["--bogus"], /^There is no option --bogus\. To pass text that starts with a dash/);
    refused(["--max-turn", "2"], /^There is no option --max-turn; did you mean --max-turns\?$/);
    refused(["--jsn"], /did you mean --json\?/);
    refused(["-x"], /^There is no option -x\./);
    refused(["--repo"], /^--repo needs a value, for example --repo \.\.$/);
    refused(["--repo", "--json"], /^--repo needs a value/);
    refused(["--json=1"], /^--json takes no value; write --json on its own\.$/);
    refused(["--toString"], /There is no option --toString/);
  });
});
