/**
 * The words of the CLI's command lines: `pitcrew run`'s usage and help, and the sentences of an
 * argument error (an unknown option, a value missing or not wanted, a bad number, a missing task
 * or `--repo` folder), shared by every subcommand that parses options (commands/args.ts). A usage
 * error is printed as its sentence, then the usage line.
 */

export const RUN_USAGE = `usage: pitcrew run [--repo DIR] [--model M] [--base-url URL] [--max-turns N] [--context-window N] [--sandbox auto|bwrap|none] [--include-uncommitted] [--json] "task"
       pitcrew run --continue [options] ["what to do next"]`;

export const RUN_HELP = `${RUN_USAGE}

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

/** `--max-turns` is close to `--max-turn`: the option a typo most likely meant. */
function closest(given: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  const ranked = known
    .map((name) => ({ name, far: distance(given, name) }))
    .filter(({ name, far }) => far <= 2 || name.startsWith(given) || given.startsWith(name))
    .sort((a, b) => a.far - b.far);
  return ranked[0]?.name;
}

export const ARGUMENT_WORDS = {
  unknownOption: (option: string, known: readonly string[]): string => {
    const near = closest(option.replace(/^-+/, ""), known);
    return near === undefined
      ? `There is no option ${option}. To pass text that starts with a dash, put it after --.`
      : `There is no option ${option}; did you mean --${near}?`;
  },
  missingValue: (option: string, example: string): string =>
    `--${option} needs a value, for example --${option} ${example}.`,
  unwantedValue: (option: string): string =>
    `--${option} takes no value; write --${option} on its own.`,
  wholeNumber: (option: string, what: string, given: string): string =>
    `--${option} takes a whole number ${what} above 0, not '${given}'.`,
  oneOf: (option: string, allowed: readonly string[], given: string): string =>
    `--${option} must be one of ${allowed.join(", ")}, not '${given}'.`,
};

export const RUN_WORDS = {
  noTask:
    'Say what to do, for example: pitcrew run --repo . "make the failing test in test/parse.test.ts pass"',
  noApiKey:
    "No API key: set OPENAI_API_KEY (export OPENAI_API_KEY=sk-…). For another OpenAI-compatible server set its key there too and pass --base-url (or OPENAI_BASE_URL).",
  includeWithContinue:
    "--include-uncommitted starts a new run from your uncommitted changes; --continue goes on from the last run's own branch, so the two do not go together.",
  noSuchRepo: (repo: string): string =>
    `--repo ${repo} does not exist; pass the folder of a git checkout.`,
  repoNotAFolder: (repo: string): string =>
    `--repo ${repo} is a file, not a folder; pass the folder of a git checkout.`,
};
