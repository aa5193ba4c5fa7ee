import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  EXIT_FAILED,
  EXIT_USAGE
} from "./chunk-UEXP7TTN.js";
import {
  localGitData
} from "./chunk-RT5U4QBF.js";
import {
  parseOptions
} from "./chunk-FONUG7OL.js";
import "./chunk-A3SZIK73.js";
import {
  MEMORY_BRANCH,
  createMemoryStore
} from "./chunk-DCMTOHGV.js";
import {
  git
} from "./chunk-UBIXNM57.js";
import "./chunk-3WPQHTFM.js";
import "./chunk-4CVXQSD5.js";
import "./chunk-6LOFZIYU.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/commands/memory.ts
import { resolve } from "node:path";
var MEMORY_USAGE = "usage: pitcrew memory list|show [--repo DIR] [PATH]";
async function memoryRef(repo) {
  for (const ref of [`heads/${MEMORY_BRANCH}`, `remotes/origin/${MEMORY_BRANCH}`]) {
    const found = await git(repo, ["rev-parse", "--verify", "--quiet", `refs/${ref}^{commit}`], {
      okCodes: [1, 128]
    });
    if (found.exitCode === 0) return ref;
  }
  return void 0;
}
async function memoryCommand(args, io = { out: process.stdout, err: process.stderr }) {
  const [subcommand, ...rest] = args;
  if (subcommand === "--help" || subcommand === "-h" || rest.includes("--help")) {
    io.out.write(`${MEMORY_USAGE}
`);
    return 0;
  }
  if (subcommand !== "list" && subcommand !== "show") {
    io.err.write(
      `pitcrew memory: ${subcommand === void 0 ? "name a subcommand" : `unknown subcommand '${subcommand}'`}
${MEMORY_USAGE}
`
    );
    return EXIT_USAGE;
  }
  let repo;
  let path;
  try {
    const parsed = parseOptions(rest, { repo: { type: "string", example: "." } });
    repo = resolve(String(parsed.values.get("repo") ?? "."));
    path = parsed.positionals[0];
    if (subcommand === "show" && (path === void 0 || parsed.positionals.length > 1)) {
      throw new PitcrewError("cli-usage", "Name one memory file to show, such as db.md.");
    }
    if (subcommand === "list" && parsed.positionals.length > 0) {
      throw new PitcrewError("cli-usage", "list takes no file; use show PATH for one.");
    }
  } catch (error) {
    io.err.write(`pitcrew memory ${subcommand}: ${describeError(error)}
${MEMORY_USAGE}
`);
    return EXIT_USAGE;
  }
  try {
    const ref = await memoryRef(repo);
    if (ref === void 0) {
      io.out.write(
        `No memory yet: ${repo} has no ${MEMORY_BRANCH} branch (git fetch origin ${MEMORY_BRANCH} if a run made one on GitHub).
`
      );
      return 0;
    }
    const store = createMemoryStore({
      git: localGitData(repo),
      branch: ref.replace(/^heads\//, ""),
      ref,
      author: { run: "local", thread: "cli", requestedBy: "" },
      secrets: []
    });
    if (subcommand === "list") {
      const entries = await store.list();
      if (entries.length === 0) io.out.write(`${MEMORY_BRANCH} holds no files.
`);
      for (const entry of entries) {
        io.out.write(
          `${entry.path}	${entry.bytes} bytes	${entry.flagged === void 0 ? entry.firstLine : `flagged: ${entry.flagged}`}
`
        );
      }
      return 0;
    }
    const text = await store.read(path.replace(/^\/?memory\//, ""));
    if (text === void 0) {
      io.err.write(
        `pitcrew memory show: ${MEMORY_BRANCH} has no file ${path}; pitcrew memory list shows them.
`
      );
      return EXIT_FAILED;
    }
    io.out.write(text.endsWith("\n") ? text : `${text}
`);
    return 0;
  } catch (error) {
    io.err.write(`pitcrew memory ${subcommand}: ${describeError(error)}
`);
    return EXIT_FAILED;
  }
}
export {
  MEMORY_USAGE,
  memoryCommand
};
