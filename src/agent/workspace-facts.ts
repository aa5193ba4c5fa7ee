/**
 * The facts of each request's reminder, gathered by the session: the branch and the files that
 * changed since the model's last turn without its own write or edit, read with git inside the
 * sandbox, the nested repositories that would block the push, the time and the todo list. The
 * reminder itself (what the facts say, how they read) is context/reminder.ts, which does no I/O.
 */
import { relative, resolve } from "node:path";
import type { ReminderFacts } from "../context/reminder.ts";
import type { LoopEvent } from "../domain/loop.ts";
import { callArguments } from "../domain/messages.ts";
import type { Todo } from "../domain/todos.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";

/** The workspace as git sees it: path → status and content hash. */
export type Snapshot = ReadonlyMap<string, string>;

/** Paths whose status or content differ between two snapshots, minus those the tools wrote. */
export function changedSince(
  before: Snapshot,
  after: Snapshot,
  writtenByTools: ReadonlySet<string>,
): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths]
    .filter((path) => before.get(path) !== after.get(path) && !writtenByTools.has(path))
    .sort();
}

/**
 * The untracked folders that are repositories of their own: with every untracked file listed,
 * git names such a folder (`sub/`) instead of its files, and the snapshot keeps it as it is.
 */
export function nestedRepositories(snapshot: Snapshot): string[] {
  return [...snapshot.entries()]
    .filter(([path, state]) => path.endsWith("/") && state.startsWith("?? "))
    .map(([path]) => path.slice(0, -1))
    .sort();
}

const SNAPSHOT_SCRIPT = `git rev-parse --abbrev-ref HEAD 2>/dev/null || echo
git status --porcelain=v1 -z --untracked-files=all 2>/dev/null | tr '\\0' '\\n' | while IFS= read -r line; do
  case "$line" in ??" "*) ;; *) continue ;; esac
  path=\${line:3}
  if [ -f "$path" ]; then hash=$(git hash-object -- "$path" 2>/dev/null); else hash=gone; fi
  printf '%s\\t%s\\t%s\\n' "\${line:0:2}" "$hash" "$path"
done`;

/** Reads the branch and a snapshot of changed files through git inside the sandbox. */
export async function workspaceSnapshot(
  sandbox: Sandbox,
): Promise<{ branch: string | null; snapshot: Snapshot }> {
  const result = await sandbox.run({ argv: ["bash", "-c", SNAPSHOT_SCRIPT], timeoutMs: 20_000 });
  const [branchLine = "", ...lines] = result.stdout.text.split("\n");
  const snapshot = new Map<string, string>();
  for (const line of lines) {
    const [status, hash, ...path] = line.split("\t");
    if (status === undefined || hash === undefined || path.length === 0) continue;
    snapshot.set(path.join("\t"), `${status} ${hash}`);
  }
  const branch = branchLine.trim();
  return { branch: branch === "" || branch === "HEAD" ? null : branch, snapshot };
}

export interface WorkspaceFacts {
  /** The facts of the next request; each call compares the workspace with the call before. */
  next(): Promise<ReminderFacts>;
  /** Sees the loop's events, to leave out the files the agent wrote or edited itself. */
  observe(event: LoopEvent): void;
}

/**
 * Git state read inside the sandbox and compared with the previous request's, leaving out the
 * files the agent itself wrote or edited in between.
 */
export function workspaceFacts(sandbox: Sandbox, todos: () => readonly Todo[]): WorkspaceFacts {
  let previous: Snapshot | null = null;
  const written = new Set<string>();
  return {
    observe(event) {
      if (event.type !== "tool_end" || event.outcome.isError) return;
      if (event.call.name !== "write" && event.call.name !== "edit") return;
      const path = callArguments(event.call)?.path;
      if (typeof path === "string") {
        written.add(relative(sandbox.policy.workspace, resolve(sandbox.policy.workspace, path)));
      }
    },
    async next() {
      const { branch, snapshot } = await workspaceSnapshot(sandbox);
      const changedFiles = previous === null ? [] : changedSince(previous, snapshot, written);
      previous = snapshot;
      written.clear();
      return {
        now: new Date(),
        branch,
        todos: todos(),
        changedFiles,
        nestedRepositories: nestedRepositories(snapshot),
      };
    },
  };
}
