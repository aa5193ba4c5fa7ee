/**
 * Reads a GitHub event payload into a `Trigger`: the task a comment or a manual run asks for, or
 * the plain reason there is nothing to do. Pure: who may ask is decided after, in authorize.ts.
 */
import { z } from "zod";
import { PitcrewError } from "../errors.ts";
import type { Person, Repository, Task, TaskKind, Thread, Trigger } from "../domain/task.ts";

export interface GitHubEvent {
  /** `GITHUB_EVENT_NAME`. */
  eventName: string;
  /** The parsed `GITHUB_EVENT_PATH` file. */
  payload: unknown;
  /** The word a comment starts with to ask pitcrew (`/agent`). */
  triggerPhrase: string;
  /** `GITHUB_RUN_ID`: names a manual run's thread. */
  runId: string;
}

const AccountSchema = z.object({ login: z.string().min(1), id: z.number(), type: z.string() });

const RepositorySchema = z.object({
  name: z.string().min(1),
  owner: z.object({ login: z.string().min(1) }),
  default_branch: z.string().min(1),
});

const IssueCommentSchema = z.object({
  action: z.string(),
  issue: z.object({
    number: z.number(),
    /** Present only when the conversation is a pull request's. */
    pull_request: z.object({}).nullish(),
  }),
  comment: z.object({
    id: z.number(),
    html_url: z.string(),
    body: z.string(),
    user: AccountSchema,
    author_association: z.string(),
  }),
  repository: RepositorySchema,
});

const WorkflowDispatchSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).nullish(),
  sender: AccountSchema,
  repository: RepositorySchema,
});

/**
 * The events that can start work, each once: what parseEvent reads, and the only events whose
 * runs' handoff notes a later run trusts (store/provenance.ts).
 */
export const ACTED_ON_EVENTS = ["issue_comment", "workflow_dispatch"] as const;
export type ActedOnEvent = (typeof ACTED_ON_EVENTS)[number];

/** What the first word after the trigger phrase asks for; anything else is a free instruction. */
const COMMANDS: Record<string, TaskKind> = { fix: "fix", continue: "continue" };

export function parseEvent({ eventName, payload, triggerPhrase, runId }: GitHubEvent): Trigger {
  const parsers: { [Event in ActedOnEvent]: () => Trigger } = {
    issue_comment: () => parseIssueComment(payload, triggerPhrase),
    workflow_dispatch: () => parseWorkflowDispatch(payload, runId),
  };
  if (!isActedOn(eventName)) {
    return { kind: "ignore", reason: `pitcrew does not act on ${eventName} events` };
  }
  return parsers[eventName]();
}

export function isActedOn(eventName: string): eventName is ActedOnEvent {
  return (ACTED_ON_EVENTS as readonly string[]).includes(eventName);
}

function parseIssueComment(payload: unknown, triggerPhrase: string): Trigger {
  const event = checked(IssueCommentSchema, payload, "issue_comment");
  if (event.action !== "created") {
    const what =
      event.action === "edited" || event.action === "deleted"
        ? `the comment was ${event.action}`
        : `the comment event's action is "${event.action}"`;
    return { kind: "ignore", reason: `${what}; only new comments start work` };
  }
  const request = parseRequest(event.comment.body, triggerPhrase);
  if (request === undefined) {
    return {
      kind: "ignore",
      reason: `the comment does not start with "${triggerPhrase}" followed by a space or the end`,
    };
  }
  const { number } = event.issue;
  const thread: Thread = event.issue.pull_request
    ? { kind: "pr", number }
    : { kind: "issue", number };
  const task: Task = {
    ...request,
    thread,
    threadKey: `${thread.kind}-${number}`,
    requester: person(event.comment.user, event.comment.author_association),
    comment: { id: event.comment.id, htmlUrl: event.comment.html_url },
    repository: repository(event.repository),
  };
  return { kind: "task", task };
}

/** `/agent fix …`, `/agent continue …`, `/agent` alone (fix), or `/agent <anything>`. */
function parseRequest(
  body: string,
  triggerPhrase: string,
): { kind: TaskKind; instruction: string } | undefined {
  const text = body.trimStart();
  if (!text.startsWith(triggerPhrase)) return undefined;
  const rest = text.slice(triggerPhrase.length);
  if (rest !== "" && !/^\s/.test(rest)) return undefined;
  const words = rest.trim();
  if (words === "") return { kind: "fix", instruction: "" };
  const [first = ""] = words.split(/\s/, 1);
  const command = COMMANDS[first.toLowerCase()];
  if (command === undefined) return { kind: "instruction", instruction: words };
  return { kind: command, instruction: words.slice(first.length).trim() };
}

function parseWorkflowDispatch(payload: unknown, runId: string): Trigger {
  const event = checked(WorkflowDispatchSchema, payload, "workflow_dispatch");
  const instruction = event.inputs?.["task"];
  if (typeof instruction !== "string" || instruction.trim() === "") {
    throw new PitcrewError(
      "event-invalid",
      "The manual run has no task: add a `task` input under the workflow's " +
        "`on.workflow_dispatch.inputs` and fill it in when starting the run.",
    );
  }
  if (runId === "") {
    throw new PitcrewError(
      "event-invalid",
      "GITHUB_RUN_ID is empty, so the manual run's thread has no name; run pitcrew inside a GitHub Actions job.",
    );
  }
  const task: Task = {
    kind: "dispatch",
    thread: { kind: "dispatch", runId },
    threadKey: `dispatch-${runId}`,
    instruction: instruction.trim(),
    // GitHub lets only people with write access start a workflow by hand; there is no association.
    requester: person(event.sender, ""),
    repository: repository(event.repository),
  };
  return { kind: "task", task };
}

/** The payload's shape, or a named error that gives the first field missing or of the wrong type. */
function checked<T>(schema: z.ZodType<T>, payload: unknown, eventName: string): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const what = field === "" ? "is not an object" : `has no usable ${field}`;
  throw new PitcrewError(
    "event-invalid",
    `The ${eventName} event payload ${what} (${issue?.message ?? "invalid"}); pitcrew reads the ` +
      "event file GitHub writes (GITHUB_EVENT_PATH), so run it from a workflow triggered by " +
      "that event, not with a hand-made payload.",
  );
}

function person(account: z.infer<typeof AccountSchema>, association: string): Person {
  return { login: account.login, id: account.id, type: account.type, association };
}

function repository(repo: z.infer<typeof RepositorySchema>): Repository {
  return { owner: repo.owner.login, repo: repo.name, defaultBranch: repo.default_branch };
}
