/**
 * Commands that run another command: which of their words are that command (`timeout 5 npm
 * publish`), or the script string they hand to a shell (`watch 'npm publish'`, `script -c …`,
 * `flock lock -c …`, `npx -c …`), or that they read commands from standard input (`unshare`,
 * `script` and `parallel` with no command). Only the words; checking what they run is
 * commands.ts's business.
 */
import { has, optionValues, parseOptions } from "../shell/options.ts";
import type { OptionSpec } from "../shell/options.ts";
import { literalWord, unknownWord } from "../shell/words.ts";
import type { Word } from "../shell/words.ts";

/** What a wrapper runs: a command's words, a script string, a script on stdin, or nothing. */
export type Unwrapped =
  { command: Word[] } | { script: Word; flag: string } | { stdin: true } | null;

interface Wrapper extends OptionSpec {
  /** Operands between the options and the command (`timeout DURATION`, `chrt PRIORITY`). */
  operands?: number;
  /** Options that mean no command is run (`taskset -p PID`). */
  inspects?: readonly string[];
  /** Runs a shell reading standard input when given no command (`unshare`). */
  shellWhenEmpty?: boolean;
}

/** Wrappers that run the rest of their words as a command: options, then the command. */
export const WRAPPERS: Record<string, Wrapper> = {
  nice: { valued: "n", long: ["adjustment"] },
  nohup: {},
  timeout: { valued: "sk", long: ["signal", "kill-after"], operands: 1 },
  time: { valued: "fo", long: ["format", "output"] },
  exec: { valued: "a" },
  builtin: {},
  coproc: {},
  setsid: {},
  stdbuf: { valued: "ioe", long: ["input", "output", "error"] },
  ionice: { valued: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"] },
  busybox: {},
  xargs: {
    valued: "adEILnPs",
    attached: "eil",
    long: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars"],
  },
  chrt: { valued: "TPD", operands: 1, inspects: ["p", "pid"] },
  taskset: { operands: 1, inspects: ["p", "pid"] },
  unshare: {
    valued: "SGRw",
    long: ["setuid", "setgid", "root", "wd", "propagation", "setgroups", "map-user", "map-group"],
    shellWhenEmpty: true,
  },
  nsenter: {
    valued: "tSG",
    attached: "mutipnUCTrw",
    long: ["target", "setuid", "setgid"],
    shellWhenEmpty: true,
  },
  setpriv: {
    long: ["reuid", "regid", "ruid", "euid", "rgid", "egid", "groups", "inh-caps"],
  },
  prlimit: { valued: "po", attached: "cdefilmnqrstuvxy", long: ["pid", "output"] },
  strace: { valued: "abeEIoOpPsSuUX" },
  ltrace: { valued: "aenoprsuxXA" },
  watch: { valued: "nq", attached: "d", long: ["interval", "equexit"] },
  script: { valued: "cEIOBmT", attached: "t", long: ["command", "echo", "log-in", "log-out"] },
  flock: { valued: "wE", long: ["timeout", "conflict-exit-code"] },
  npx: { valued: "pc", long: ["package", "call"] },
  pnpx: { valued: "pc", long: ["package", "call"] },
  bunx: { valued: "p", long: ["package"] },
};

/** What `name ARGS…` runs, for a wrapper of WRAPPERS. */
export function unwrap(name: string, spec: Wrapper, args: Word[]): Unwrapped {
  switch (name) {
    case "script": {
      // `script [file] -c CMD`: options may follow the file.
      const parsed = parseOptions(args, spec, false);
      const command = optionValues(parsed, "c", "command")[0];
      return command ? { script: command, flag: "-c" } : { stdin: true };
    }
    case "flock": {
      // `flock [options] FILE -c CMD`, `flock [options] FILE CMD ARGS…`, `flock [options] FD`.
      const parsed = parseOptions(args, spec, true);
      const after = args.slice(parsed.rest + 1);
      const flag = after[0]?.value;
      if (flag === "-c" || flag === "--command") {
        const script = after[1];
        return script ? { script, flag } : null;
      }
      return after.length > 0 ? { command: after } : null;
    }
    case "npx":
    case "pnpx": {
      const parsed = parseOptions(args, spec, true);
      const call = optionValues(parsed, "c", "call")[0];
      if (call) return { script: call, flag: "-c" };
      const command = args.slice(parsed.rest);
      return command.length > 0 ? { command } : null;
    }
    case "watch": {
      // Without -x, watch joins its words with spaces and hands them to `sh -c`.
      const parsed = parseOptions(args, spec, true);
      const command = args.slice(parsed.rest);
      if (command.length === 0) return null;
      if (has(parsed, "x", "exec")) return { command };
      if (command.some((word) => word.value === null)) {
        return { script: unknownWord(command.map((word) => word.text).join(" ")), flag: "" };
      }
      return { script: literalWord(command.map((word) => word.value).join(" ")), flag: "" };
    }
    case "xargs":
      return xargs(spec, args);
    case "coproc": {
      // `coproc NAME { …; }` (the parser sees the group's words as the command's).
      const start = args[0]?.value === "{" ? 1 : args[1]?.value === "{" ? 2 : 0;
      const command = args.slice(start);
      return command.length > 0 ? { command } : null;
    }
  }
  const parsed = parseOptions(args, spec, true);
  if (spec.inspects && has(parsed, ...spec.inspects)) return null;
  const command = args.slice(parsed.rest + (spec.operands ?? 0));
  if (command.length > 0) return { command };
  return spec.shellWhenEmpty ? { stdin: true } : null;
}

/**
 * `xargs CMD ARGS…` runs CMD with more words read from standard input: they are unknown here,
 * appended, or standing in for the replace string (`-I {}`).
 */
function xargs(spec: Wrapper, args: Word[]): Unwrapped {
  const parsed = parseOptions(args, spec, true);
  const command = args.slice(parsed.rest);
  if (command.length === 0) return null; // xargs alone runs echo
  const replace =
    optionValues(parsed, "I", "replace")[0]?.value ?? (has(parsed, "i", "replace") ? "{}" : null);
  const input = unknownWord("(a word xargs reads)");
  if (replace === null) return { command: [...command, input] };
  return {
    command: command.map((word) =>
      word.value !== null && word.value.includes(replace) ? input : word,
    ),
  };
}

/** GNU parallel's options that take a value. */
const PARALLEL: OptionSpec = {
  valued: "jnNIaSdEP",
  long: ["jobs", "joblog", "colsep", "halt", "timeout", "delay", "arg-file", "sshlogin"],
};
const SEPARATORS = new Set([":::", "::::", ":::+", "::::+"]);

/**
 * The scripts `parallel TEMPLATE… ::: ARGS…` runs through a shell, one per argument (`{}`-style
 * placeholders replaced by it, quoted, or it appended); with no template each argument is a
 * command line itself. An argument from standard input, a file (`::::`) or an expansion is an
 * unknown word (`"$@"`). "stdin" when it reads its command lines from standard input.
 */
export function parallelScripts(args: Word[]): string[] | "stdin" {
  const parsed = parseOptions(args, PARALLEL, true);
  const rest = args.slice(parsed.rest);
  const split = rest.findIndex((word) => word.value !== null && SEPARATORS.has(word.value));
  const template = split < 0 ? rest : rest.slice(0, split);
  const values = split < 0 ? null : rest.slice(split);
  if (template.length === 0 && values === null) return "stdin";
  const fromFiles = values?.some((word) => word.value === "::::" || word.value === "::::+");
  const inputs: (string | null)[] =
    values === null || fromFiles
      ? [null]
      : values
          .filter((word) => word.value === null || !SEPARATORS.has(word.value))
          .map((word) => word.value);
  const unknown = '"$@"';
  if (template.length === 0) return inputs.map((input) => input ?? unknown);
  const text = template.map((word) => word.value ?? unknown).join(" ");
  // parallel quotes each argument before putting it where `{}` (or `{.}`, `{1}`…) stands.
  const placeholder = /\{[^}\s]*\}/;
  return inputs.map((input) => {
    const word = input === null ? unknown : quote(input);
    return placeholder.test(text)
      ? text.replace(new RegExp(placeholder, "g"), () => word)
      : `${text} ${word}`;
  });
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
