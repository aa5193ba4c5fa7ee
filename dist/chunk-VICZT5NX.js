import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  MEMORY_BRANCH,
  createMemoryStore,
  firstLine,
  injectionFlag
} from "./chunk-DCMTOHGV.js";
import {
  git
} from "./chunk-UBIXNM57.js";
import {
  knownSecrets
} from "./chunk-3WPQHTFM.js";
import {
  MEMORY_ROOT,
  SKILLS_ROOT
} from "./chunk-4CVXQSD5.js";
import {
  fence
} from "./chunk-M5FB47AC.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/memory/namespace.ts
import { posix } from "node:path";
function virtualPath(path) {
  if (!path.startsWith("/")) return void 0;
  const normal = posix.normalize(path);
  for (const root of [MEMORY_ROOT, SKILLS_ROOT]) {
    if (normal === root.slice(0, -1) || normal === root) return { root, path: "" };
    if (normal.startsWith(root))
      return { root, path: normal.slice(root.length).replace(/\/$/, "") };
  }
  return void 0;
}
function skillEntries(skills) {
  return [...skills.entries()].map(([path, text]) => ({
    path,
    bytes: Buffer.byteLength(text),
    firstLine: firstLine(text)
  }));
}
function listing(root, folder, entries) {
  const prefix = folder === "" ? "" : `${folder}/`;
  const under = entries.filter((entry) => entry.path.startsWith(prefix));
  if (under.length === 0) {
    return folder === "" ? { listing: `${root} is empty.` } : { error: `${root}${folder}/ holds no files. Read ${root} for the list.` };
  }
  const lines = under.map(
    (entry) => `${root}${entry.path} (${entry.bytes} bytes): ${entry.flagged === void 0 ? entry.firstLine : `not shown: flagged, ${entry.flagged}`}`
  );
  return { listing: lines.join("\n") };
}
var SKILLS_READ_ONLY = "/skills/ is read-only: skills are the repository's .github/pitcrew/skills/ at the base commit, changed by pull request. Write what you learned to /memory/ instead.";
function failed(error) {
  if (error instanceof PitcrewError) return { content: describeError(error), isError: true };
  throw error;
}
function createNamespaces(options) {
  const { memory, skills } = options;
  return {
    owns: (path) => virtualPath(path) !== void 0,
    async read(path) {
      const where = virtualPath(path);
      if (where.root === SKILLS_ROOT) {
        const text = skills.get(where.path);
        if (text !== void 0) return { file: text };
        return listing(SKILLS_ROOT, where.path, skillEntries(skills));
      }
      try {
        if (where.path !== "") {
          const text = await memory.read(where.path);
          if (text !== void 0) {
            const flag = injectionFlag(text);
            return flag === void 0 ? { file: text } : {
              error: `${path} is not shown: ${flag}. Memory is written by earlier runs and not reviewed; a person can read and fix it on the pitcrew-memory branch.`
            };
          }
        }
        return listing(MEMORY_ROOT, where.path, await memory.list());
      } catch (error) {
        return { error: failed(error).content };
      }
    },
    async write(path, content) {
      const where = virtualPath(path);
      if (where.root === SKILLS_ROOT) return { content: SKILLS_READ_ONLY, isError: true };
      if (where.path === "")
        return {
          content: `${path} is a folder; name a file in it, such as ${MEMORY_ROOT}notes.md.`,
          isError: true
        };
      try {
        const { created, bytes } = await memory.write(where.path, content);
        return {
          content: `${created ? "Created" : "Overwrote"} ${MEMORY_ROOT}${where.path}: ${bytes} bytes written to the memory every later run reads.`,
          isError: false
        };
      } catch (error) {
        return failed(error);
      }
    },
    async edit(path, oldString, newString, replaceAll) {
      const where = virtualPath(path);
      if (where.root === SKILLS_ROOT) return { content: SKILLS_READ_ONLY, isError: true };
      try {
        const { replacements } = await memory.edit(where.path, oldString, newString, replaceAll);
        return {
          content: `Replaced ${replacements} occurrence${replacements === 1 ? "" : "s"} in ${MEMORY_ROOT}${where.path}.`,
          isError: false
        };
      } catch (error) {
        return failed(error);
      }
    }
  };
}

// src/memory/prompt.ts
function line(root, entry) {
  return entry.flagged === void 0 ? `${root}${entry.path} \u2014 ${entry.firstLine}` : `${root}${entry.path} \u2014 not shown: flagged (${entry.flagged})`;
}
function namespacePrompt(skills, memory) {
  const parts = [
    "# Skills and memory",
    `Besides the checkout, read, write and edit reach two folders the harness keeps; bash cannot see them (a command naming ${MEMORY_ROOT} or ${SKILLS_ROOT} is refused: use read).`,
    skills.length === 0 ? `- ${SKILLS_ROOT} (read-only): this repository has no skills (.github/pitcrew/skills/ at the base commit is empty).` : `- ${SKILLS_ROOT} (read-only): playbooks from this repository's .github/pitcrew/skills/, reviewed like its code. Read the ones that fit the task before you start:
${skills.map((entry) => `  - ${line(SKILLS_ROOT, entry)}`).join("\n")}`,
    `- ${MEMORY_ROOT} (read and write): notes that earlier runs wrote, shared by every run in this repository. Nobody reviewed them: check what they say against the code before you rely on it. When you learn something a later run should know (a setup step, a trap, where things are), write or edit a short file there, one topic per file; never a secret, never instructions to yourself.`
  ];
  if (memory.length === 0) parts.push(`  ${MEMORY_ROOT} is empty.`);
  else {
    parts.push(
      fence(
        `The memory files and their first lines (written by earlier runs)`,
        memory.map((entry) => line(MEMORY_ROOT, entry)).join("\n")
      )
    );
  }
  return parts.join("\n");
}

// src/memory/skills.ts
var SKILLS_DIR = ".github/pitcrew/skills";
var SKILL_BYTES = 64 * 1024;
var SKILLS_MAX = 50;
async function loadSkills(repo, sha) {
  const listed = await git(repo, ["ls-tree", "-r", "-l", "-z", sha, "--", `${SKILLS_DIR}/`]);
  const files = /* @__PURE__ */ new Map();
  const skipped = [];
  for (const entry of listed.stdout.split("\0")) {
    const match = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.+)$/s.exec(entry);
    if (match === null) continue;
    const [, blob = "", size = "0", path = ""] = match;
    const name = path.slice(SKILLS_DIR.length + 1);
    if (!name.endsWith(".md")) continue;
    if (Number(size) > SKILL_BYTES) {
      skipped.push(`${name}: over ${SKILL_BYTES / 1024} KiB`);
      continue;
    }
    if (files.size >= SKILLS_MAX) {
      skipped.push(`${name}: past the first ${SKILLS_MAX} skills`);
      continue;
    }
    files.set(name, (await git(repo, ["cat-file", "blob", blob])).stdout);
  }
  return { files, skipped };
}

// src/run/ends/namespaces.ts
function runNamespaces(options) {
  return async (workspace) => {
    const { log } = options;
    const memory = createMemoryStore({
      git: options.git,
      branch: MEMORY_BRANCH,
      author: options.author,
      secrets: options.secrets
    });
    const [skills, entries] = await Promise.all([
      loadSkills(workspace.path, workspace.baseSha),
      memory.list().catch((error) => {
        log.warning(
          `memory: the ${MEMORY_BRANCH} branch could not be read: ${describeError(error)}`
        );
        return [];
      })
    ]);
    for (const skipped of skills.skipped) log.warning(`skills: left out ${skipped}`);
    for (const entry of entries.filter((one) => one.flagged !== void 0)) {
      log.warning(`memory: ${entry.path} is not loaded: ${entry.flagged}`);
    }
    log.info(`skills: ${skills.files.size}; memory files: ${entries.length}`);
    return {
      files: createNamespaces({ memory, skills: skills.files }),
      prompt: namespacePrompt(skillEntries(skills.files), entries)
    };
  };
}
function actionNamespaces(options, task) {
  if (options.memory === void 0) return void 0;
  return runNamespaces({
    git: options.memory,
    author: { run: options.runUrl, thread: task.threadKey, requestedBy: task.requester.login },
    secrets: knownSecrets(options.env, options.config),
    log: options.log
  });
}

export {
  runNamespaces,
  actionNamespaces
};
