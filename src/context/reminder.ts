/**
 * Late injection: the volatile facts appended as the last message of each request and never
 * stored — the time, the branch, the todo list, and the files that changed since the model's last
 * turn without its own write or edit. Keeping them out of the system prompt and the history keeps
 * the prompt prefix byte-identical between requests. Pure, except `workspaceSnapshot`, which asks
 * git inside the sandbox.
 */
import type { Message } from "../domain/messages.ts";
import type { Todo } from "../domain/todos.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";

export interface ReminderFacts {
  now: Date;
  branch: string | null;
  todos: readonly Todo[];
  /** Paths that changed since the last turn other than through write/edit. */
  changedFiles: readonly string[];
  /** Untracked folders with a `.git` of their own: their files would not be pushed. */
  nestedRepositories?: readonly string[];
}

const MARK: Record<Todo["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};

export function reminderText(facts: ReminderFacts): string {
  const lines = [`<reminder>`, `time: ${facts.now.toISOString()}`];
  if (facts.branch) lines.push(`branch: ${facts.branch}`);
  if (facts.todos.length > 0) {
    lines.push("todo list:", ...facts.todos.map((todo) => `${MARK[todo.status]} ${todo.content}`));
  }
  if (facts.changedFiles.length > 0) {
    lines.push(
      "these files changed since your last turn; read them again before editing:",
      ...facts.changedFiles.slice(0, 50).map((path) => `- ${path}`),
    );
    if (facts.changedFiles.length > 50)
      lines.push(`- … and ${facts.changedFiles.length - 50} more`);
  }
  for (const folder of facts.nestedRepositories ?? []) {
    lines.push(
      `push-blocked-nested-repository: ${folder}/ is a git repository of its own (it has a .git), so none of its files would be pushed and the push would be refused. Remove ${folder}/.git to keep its files as ordinary files, or delete the folder if it is not part of the change.`,
    );
  }
  lines.push("</reminder>");
  return lines.join("\n");
}

export function reminderMessage(facts: ReminderFacts): Message {
  return { role: "user", content: reminderText(facts) };
}

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

const SNAPSHOT_SCRIPT = `git rev-parse --abbrev-ref HEAD 2>/dev/null || echo
git status --porcelain=v1 -z --untracked-files=all 2>/dev/null | tr '\\0' '\\n' | while IFS= read -r line; do
  case "$line" in ??" "*) ;; *) continue ;; esac
  path=\${line:3}
  if [ -f "$path" ]; then hash=$(git hash-object -- "$path" 2>/dev/null); else hash=gone; fi
  printf '%s\\t%s\\t%s\\n' "\${line:0:2}" "$hash" "$path"
done`;

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
