/**
 * The subcommands' option parser: `--name value`, `--name=value`, boolean flags, `-h`, and `--`
 * before text that starts with a dash. Unlike node:util's parseArgs it takes a value that starts
 * with one dash (`--max-turns -1` is the number -1, for the command to refuse in its own words),
 * and every mistake is a named usage error with pitcrew's sentence (present/usage.ts), never
 * Node's text.
 */
import { PitcrewError } from "../errors.ts";
import { ARGUMENT_WORDS } from "../present/usage.ts";

export type OptionSpec =
  | { type: "boolean" }
  /** `example`: a value the missing-value sentence shows. */
  | { type: "string"; example: string };

export interface Parsed {
  values: Map<string, string | true>;
  positionals: string[];
  help: boolean;
}

/** The code every argument mistake carries; the commands print the usage line after it. */
export const BAD_OPTION = "cli-bad-option";

export function parseOptions(
  args: readonly string[],
  specs: Readonly<Record<string, OptionSpec>>,
): Parsed {
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  let help = false;
  const bad = (sentence: string): PitcrewError => new PitcrewError(BAD_OPTION, sentence);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, equals === -1 ? undefined : equals) : "";
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined) {
      throw bad(
        ARGUMENT_WORDS.unknownOption(
          equals === -1 ? arg : arg.slice(0, equals),
          Object.keys(specs),
        ),
      );
    }
    if (spec.type === "boolean") {
      if (equals !== -1) throw bad(ARGUMENT_WORDS.unwantedValue(name));
      values.set(name, true);
      continue;
    }
    if (equals !== -1) {
      values.set(name, arg.slice(equals + 1));
      continue;
    }
    const next = args[index + 1];
    // A following option is not a value (`--repo --model m`); one dash can be (`-1`, `-`).
    if (next === undefined || next.startsWith("--")) {
      throw bad(ARGUMENT_WORDS.missingValue(name, spec.example));
    }
    values.set(name, next);
    index++;
  }
  return { values, positionals, help };
}

/** A string option's value, if given. */
export function stringOption(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values.get(name);
  return typeof value === "string" ? value : undefined;
}

/** A whole number above 0 (`what`: what it counts), or the default when not given. */
export function countOption(parsed: Parsed, name: string, what: string, fallback: number): number {
  const given = stringOption(parsed, name);
  if (given === undefined) return fallback;
  const value = /^\s*\d+\s*$/.test(given) ? Number(given) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new PitcrewError(BAD_OPTION, ARGUMENT_WORDS.wholeNumber(name, what, given));
  }
  return value;
}
