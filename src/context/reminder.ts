/**
 * Late injection: the volatile facts appended as the last message of each request and never
 * stored — the time, the files that changed since the model's last turn without its own write or
 * edit, and the branch and the todo list when nothing else in the view shows them. Keeping them
 * out of the system prompt and the history keeps the prompt prefix byte-identical between
 * requests. Pure: the session gathers the facts (it reads git inside the sandbox,
 * agent/workspace-facts.ts) and hands them in; this file only says what they mean and how they
 * read.
 *
 * A reminder is never cached (the next request puts the model's answer where it stood), so it
 * says only what the model cannot see elsewhere in the request, and a request whose reminder
 * would say nothing new ends without one (`reminderNews`). The branch is named in the start
 * messages and the todo list in the model's own latest `todo_write` call; the reminder names them
 * only once a compaction or a drop has cut those messages out of the view (`ReminderOptions`).
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

/** What the view the reminder ends no longer shows, so the reminder must. */
export interface ReminderOptions {
  /** The start messages, which name the branch, were cut away. */
  branch: boolean;
  /** No todo_write call that shows the list as it stands is in view. */
  todos: boolean;
}

/** Everything: the reminder at its largest, for a view that shows none of it. */
export const WHOLE_REMINDER: ReminderOptions = { branch: true, todos: true };

const MARK: Record<Todo["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};

/**
 * How far the clock moves before a reminder with nothing else to say is sent for the time alone.
 * The run's start needs no saying, so a session shorter than this that changes no file outside
 * its own writes sends no reminder at all: its requests cost what they would without the layers.
 */
export const TIME_STEP_MS = 5 * 60_000;

/**
 * Whether a reminder would tell the model anything: files changed outside its own writes, a
 * nested repository, the branch or the list the view no longer shows, or a time at least
 * TIME_STEP_MS after `timeSaid` (the time the last reminder said, or the session's first).
 */
export function reminderNews(facts: ReminderFacts, show: ReminderOptions, timeSaid: Date): boolean {
  return (
    facts.changedFiles.length > 0 ||
    (facts.nestedRepositories ?? []).length > 0 ||
    (show.branch && facts.branch !== null) ||
    (show.todos && facts.todos.length > 0) ||
    facts.now.getTime() - timeSaid.getTime() >= TIME_STEP_MS
  );
}

/** The time to the minute: the model plans against its time budget, not seconds. */
function minute(now: Date): string {
  return `${now.toISOString().slice(0, 16)}Z`;
}

export function reminderText(facts: ReminderFacts, show: ReminderOptions): string {
  const lines = [`<reminder>`, `time: ${minute(facts.now)}`];
  if (show.branch && facts.branch) lines.push(`branch: ${facts.branch}`);
  if (show.todos && facts.todos.length > 0) {
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

export function reminderMessage(facts: ReminderFacts, show: ReminderOptions): Message {
  return { role: "user", content: reminderText(facts, show) };
}

/** Whether two todo lists say the same. */
export function sameTodos(a: readonly Todo[], b: readonly Todo[]): boolean {
  return (
    a.length === b.length &&
    a.every((todo, index) => todo.content === b[index]?.content && todo.status === b[index]?.status)
  );
}
