/**
 * The namespaces behind read, write and edit: `/memory/…` (the memory store: read-write, shared by
 * every run of the repository, on a git ref) and `/skills/…` (the repository's playbooks at the
 * base commit: read-only). A path is normalised before it is routed, so `/memory/../etc/passwd`
 * is the sandbox's `/etc/passwd`, not a memory file; a relative `memory/x` is the checkout's.
 * Store errors come back as the tool's error text, for the agent to act on.
 */
import { posix } from "node:path";
import { MEMORY_ROOT, SKILLS_ROOT } from "../domain/memory.ts";
import type {
  NamespaceEntry,
  VirtualFiles,
  VirtualRead,
  VirtualWritten,
} from "../domain/memory.ts";
import { describeError, PitcrewError } from "../errors.ts";
import { injectionFlag } from "./injection.ts";
import { firstLine } from "./store.ts";
import type { MemoryStore } from "./store.ts";

/** The namespace and the path inside it, or undefined for a path of the workspace. */
export function virtualPath(path: string): { root: string; path: string } | undefined {
  if (!path.startsWith("/")) return undefined;
  const normal = posix.normalize(path);
  for (const root of [MEMORY_ROOT, SKILLS_ROOT]) {
    if (normal === root.slice(0, -1) || normal === root) return { root, path: "" };
    if (normal.startsWith(root))
      return { root, path: normal.slice(root.length).replace(/\/$/, "") };
  }
  return undefined;
}

export function skillEntries(skills: ReadonlyMap<string, string>): NamespaceEntry[] {
  return [...skills.entries()].map(([path, text]) => ({
    path,
    bytes: Buffer.byteLength(text),
    firstLine: firstLine(text),
  }));
}

/** A folder's listing: the files under `folder` (relative to the root) with sizes and first lines. */
function listing(root: string, folder: string, entries: readonly NamespaceEntry[]): VirtualRead {
  const prefix = folder === "" ? "" : `${folder}/`;
  const under = entries.filter((entry) => entry.path.startsWith(prefix));
  if (under.length === 0) {
    return folder === ""
      ? { listing: `${root} is empty.` }
      : { error: `${root}${folder}/ holds no files. Read ${root} for the list.` };
  }
  const lines = under.map(
    (entry) =>
      `${root}${entry.path} (${entry.bytes} bytes): ${entry.flagged === undefined ? entry.firstLine : `not shown: flagged, ${entry.flagged}`}`,
  );
  return { listing: lines.join("\n") };
}

const SKILLS_READ_ONLY =
  "/skills/ is read-only: skills are the repository's .github/pitcrew/skills/ at the base commit, changed by pull request. Write what you learned to /memory/ instead.";

function failed(error: unknown): VirtualWritten {
  if (error instanceof PitcrewError) return { content: describeError(error), isError: true };
  throw error;
}

export function createNamespaces(options: {
  memory: MemoryStore;
  skills: ReadonlyMap<string, string>;
}): VirtualFiles {
  const { memory, skills } = options;
  return {
    owns: (path) => virtualPath(path) !== undefined,

    async read(path) {
      const where = virtualPath(path)!;
      if (where.root === SKILLS_ROOT) {
        const text = skills.get(where.path);
        if (text !== undefined) return { file: text };
        return listing(SKILLS_ROOT, where.path, skillEntries(skills));
      }
      try {
        if (where.path !== "") {
          const text = await memory.read(where.path);
          if (text !== undefined) {
            const flag = injectionFlag(text);
            return flag === undefined
              ? { file: text }
              : {
                  error: `${path} is not shown: ${flag}. Memory is written by earlier runs and not reviewed; a person can read and fix it on the pitcrew-memory branch.`,
                };
          }
        }
        return listing(MEMORY_ROOT, where.path, await memory.list());
      } catch (error) {
        return { error: failed(error).content };
      }
    },

    async write(path, content) {
      const where = virtualPath(path)!;
      if (where.root === SKILLS_ROOT) return { content: SKILLS_READ_ONLY, isError: true };
      if (where.path === "")
        return {
          content: `${path} is a folder; name a file in it, such as ${MEMORY_ROOT}notes.md.`,
          isError: true,
        };
      try {
        const { created, bytes } = await memory.write(where.path, content);
        return {
          content: `${created ? "Created" : "Overwrote"} ${MEMORY_ROOT}${where.path}: ${bytes} bytes written to the memory every later run reads.`,
          isError: false,
        };
      } catch (error) {
        return failed(error);
      }
    },

    async edit(path, oldString, newString, replaceAll) {
      const where = virtualPath(path)!;
      if (where.root === SKILLS_ROOT) return { content: SKILLS_READ_ONLY, isError: true };
      try {
        const { replacements } = await memory.edit(where.path, oldString, newString, replaceAll);
        return {
          content: `Replaced ${replacements} occurrence${replacements === 1 ? "" : "s"} in ${MEMORY_ROOT}${where.path}.`,
          isError: false,
        };
      } catch (error) {
        return failed(error);
      }
    },
  };
}
