/**
 * Late injection: the volatile facts appended as the last message of each request and never
 * stored — the time, the branch, the todo list, and the files that changed since the model's last
 * turn without its own write or edit. Keeping them out of the system prompt and the history keeps
 * the prompt prefix byte-identical between requests. Pure: the session gathers the facts (it
 * reads git inside the sandbox, agent/workspace-facts.ts) and hands them in; this file only says
 * what they mean and how they read.
 */
import type { Message } from "../domain/messages.ts";
import type { Todo } from "../domain/todos.ts";

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
