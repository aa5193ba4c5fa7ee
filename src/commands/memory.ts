/**
 * `pitcrew memory list|show`: what the agent remembers in a repository, read from its
 * `pitcrew-memory` branch — the local branch, else the one fetched from origin — without a
 * checkout. `list` prints each file with its size and first line (flagged files say why they are
 * not loaded); `show PATH` prints one file. Changing memory is ordinary git on that branch.
 */
import { resolve } from "node:path";
import { describeError, PitcrewError } from "../errors.ts";
import { localGitData } from "../git/git-data.ts";
import { git } from "../git/git.ts";
import { MEMORY_BRANCH, createMemoryStore } from "../memory/store.ts";
import { parseOptions } from "./args.ts";
import type { CommandOutput } from "./context.ts";
import { EXIT_FAILED, EXIT_USAGE } from "./context.ts";

export const MEMORY_USAGE = "usage: pitcrew memory list|show [--repo DIR] [PATH]";

/** The ref memory is read from: the local branch, else origin's. */
async function memoryRef(repo: string): Promise<string | undefined> {
  for (const ref of [`heads/${MEMORY_BRANCH}`, `remotes/origin/${MEMORY_BRANCH}`]) {
    const found = await git(repo, ["rev-parse", "--verify", "--quiet", `refs/${ref}^{commit}`], {
      okCodes: [1, 128],
    });
    if (found.exitCode === 0) return ref;
  }
  return undefined;
}

export async function memoryCommand(
  args: string[],
  io: CommandOutput = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "--help" || subcommand === "-h" || rest.includes("--help")) {
    io.out.write(`${MEMORY_USAGE}\n`);
    return 0;
  }
  if (subcommand !== "list" && subcommand !== "show") {
    io.err.write(
      `pitcrew memory: ${subcommand === undefined ? "name a subcommand" : `unknown subcommand '${subcommand}'`}\n${MEMORY_USAGE}\n`,
    );
    return EXIT_USAGE;
  }
  let repo: string;
  let path: string | undefined;
  try {
    const parsed = parseOptions(rest, { repo: { type: "string", example: "." } });
    repo = resolve(String(parsed.values.get("repo") ?? "."));
    path = parsed.positionals[0];
    if (subcommand === "show" && (path === undefined || parsed.positionals.length > 1)) {
      throw new PitcrewError("cli-usage", "Name one memory file to show, such as db.md.");
    }
    if (subcommand === "list" && parsed.positionals.length > 0) {
      throw new PitcrewError("cli-usage", "list takes no file; use show PATH for one.");
    }
  } catch (error) {
    io.err.write(`pitcrew memory ${subcommand}: ${describeError(error)}\n${MEMORY_USAGE}\n`);
    return EXIT_USAGE;
  }
  try {
    const ref = await memoryRef(repo);
    if (ref === undefined) {
      io.out.write(
        `No memory yet: ${repo} has no ${MEMORY_BRANCH} branch (git fetch origin ${MEMORY_BRANCH} if a run made one on GitHub).\n`,
      );
      return 0;
    }
    const store = createMemoryStore({
      git: localGitData(repo),
      branch: ref.replace(/^heads\//, ""),
      ref,
      author: { run: "local", thread: "cli", requestedBy: "" },
      secrets: [],
    });
    if (subcommand === "list") {
      const entries = await store.list();
      if (entries.length === 0) io.out.write(`${MEMORY_BRANCH} holds no files.\n`);
      for (const entry of entries) {
        io.out.write(
          `${entry.path}\t${entry.bytes} bytes\t${entry.flagged === undefined ? entry.firstLine : `flagged: ${entry.flagged}`}\n`,
        );
      }
      return 0;
    }
    const text = await store.read(path!.replace(/^\/?memory\//, ""));
    if (text === undefined) {
      io.err.write(
        `pitcrew memory show: ${MEMORY_BRANCH} has no file ${path}; pitcrew memory list shows them.\n`,
      );
      return EXIT_FAILED;
    }
    io.out.write(text.endsWith("\n") ? text : `${text}\n`);
    return 0;
  } catch (error) {
    io.err.write(`pitcrew memory ${subcommand}: ${describeError(error)}\n`);
    return EXIT_FAILED;
  }
}
