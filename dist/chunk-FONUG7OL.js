import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/present/usage.ts
var RUN_USAGE = `usage: pitcrew run [--repo DIR] [--model M] [--base-url URL] [--max-turns N] [--context-window N] [--sandbox auto|bwrap|none] [--include-uncommitted] [--json] "task"
       pitcrew run --continue [options] ["what to do next"]`;
var RUN_HELP = `${RUN_USAGE}

Runs the agent on a local checkout. It works in a separate git worktree on a new branch
(pitcrew/run-<time>), from HEAD; every command runs in the sandbox. Whatever it changed is
committed on that branch; your checkout, its index and HEAD are not touched.

options:
  --repo DIR             the checkout to work on (default: the current folder)
  --model M              the model (default: PITCREW_MODEL, else gpt-4.1)
  --base-url URL         an OpenAI-compatible /v1 endpoint (default: OPENAI_BASE_URL, else OpenAI)
  --max-turns N          model requests at most (default 50)
  --context-window N     the model's context window in tokens (default 128000): no request is
                         sent larger than it less room for the answer
  --sandbox MODE         auto (default), bwrap, seatbelt or none
  --include-uncommitted  start from your uncommitted changes too (tracked and untracked files,
                         not ignored ones): they are committed on the run's branch first, without
                         touching your checkout, index or HEAD
  --json                 one JSON event per line on stdout, for scripts (docs/agent.md)
  --continue             pick the last run up on its branch, with its handoff note
  -h, --help             this text

The key comes from OPENAI_API_KEY.
Exit status: 0 finished, 1 failed, 2 bad usage, 3 stopped by a limit, 130 cancelled.
`;
function closest(given, known) {
  const distance = (a, b) => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j];
        row[j] = Math.min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length];
  };
  const ranked = known.map((name) => ({ name, far: distance(given, name) })).filter(({ name, far }) => far <= 2 || name.startsWith(given) || given.startsWith(name)).sort((a, b) => a.far - b.far);
  return ranked[0]?.name;
}
var ARGUMENT_WORDS = {
  unknownOption: (option, known) => {
    const near = closest(option.replace(/^-+/, ""), known);
    return near === void 0 ? `There is no option ${option}. To pass text that starts with a dash, put it after --.` : `There is no option ${option}; did you mean --${near}?`;
  },
  missingValue: (option, example) => `--${option} needs a value, for example --${option} ${example}.`,
  unwantedValue: (option) => `--${option} takes no value; write --${option} on its own.`,
  wholeNumber: (option, what, given) => `--${option} takes a whole number ${what} above 0, not '${given}'.`,
  oneOf: (option, allowed, given) => `--${option} must be one of ${allowed.join(", ")}, not '${given}'.`
};
var RUN_WORDS = {
  noTask: 'Say what to do, for example: pitcrew run --repo . "make the failing test in test/parse.test.ts pass"',
  noApiKey: "No API key: set OPENAI_API_KEY (export OPENAI_API_KEY=sk-\u2026). For another OpenAI-compatible server set its key there too and pass --base-url (or OPENAI_BASE_URL).",
  includeWithContinue: "--include-uncommitted starts a new run from your uncommitted changes; --continue goes on from the last run's own branch, so the two do not go together.",
  noSuchRepo: (repo) => `--repo ${repo} does not exist; pass the folder of a git checkout.`,
  repoNotAFolder: (repo) => `--repo ${repo} is a file, not a folder; pass the folder of a git checkout.`
};

// src/commands/args.ts
var BAD_OPTION = "cli-bad-option";
function parseOptions(args, specs) {
  const values = /* @__PURE__ */ new Map();
  const positionals = [];
  let help = false;
  const bad = (sentence) => new PitcrewError(BAD_OPTION, sentence);
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
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
    const name = arg.startsWith("--") ? arg.slice(2, equals === -1 ? void 0 : equals) : "";
    const spec = Object.hasOwn(specs, name) ? specs[name] : void 0;
    if (spec === void 0) {
      throw bad(
        ARGUMENT_WORDS.unknownOption(
          equals === -1 ? arg : arg.slice(0, equals),
          Object.keys(specs)
        )
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
    if (next === void 0 || next.startsWith("--")) {
      throw bad(ARGUMENT_WORDS.missingValue(name, spec.example));
    }
    values.set(name, next);
    index++;
  }
  return { values, positionals, help };
}
function stringOption(parsed, name) {
  const value = parsed.values.get(name);
  return typeof value === "string" ? value : void 0;
}
function countOption(parsed, name, what, fallback) {
  const given = stringOption(parsed, name);
  if (given === void 0) return fallback;
  const value = /^\s*\d+\s*$/.test(given) ? Number(given) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new PitcrewError(BAD_OPTION, ARGUMENT_WORDS.wholeNumber(name, what, given));
  }
  return value;
}

export {
  RUN_USAGE,
  RUN_HELP,
  ARGUMENT_WORDS,
  RUN_WORDS,
  BAD_OPTION,
  parseOptions,
  stringOption,
  countOption
};
