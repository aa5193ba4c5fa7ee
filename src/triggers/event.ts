/**
 * Reads a GitHub event payload into a `Trigger`: the task a comment or a manual run asks for, or
 * the plain reason there is nothing to do. Pure: who may ask is decided after, in authorize.ts.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { PitcrewError } from "../errors.ts";
import type { FailedRun } from "../domain/ci.ts";
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

/** A scheduled run's payload: the cron line and the repository; no sender. */
const ScheduleSchema = z.object({
  schedule: z.string().nullish(),
  repository: RepositorySchema,
});

/** The `task` input of a manual run that asks for a flaky-test triage instead of a free task. */
export const FLAKY_TRIAGE_TASK = "flaky-triage";

/** The triage's one thread: its notes hold the flake ledger. */
export const FLAKY_TRIAGE_THREAD = "flaky-triage";

/**
 * Who a scheduled run is for: nobody asked, so the workflow's own token account (the co-author of
 * what it commits).
 */
const SCHEDULE_ACCOUNT = { login: "github-actions[bot]", id: 41898282, type: "Bot" };

const WorkflowRunSchema = z.object({
  action: z.string(),
  workflow: z.object({ name: z.string() }).nullish(),
  workflow_run: z.object({
    id: z.number(),
    run_attempt: z.number().int().positive(),
    name: z.string().nullish(),
    path: z.string().min(1),
    head_sha: z.string().min(1),
    head_branch: z.string().nullable(),
    event: z.string(),
    conclusion: z.string().nullable(),
    html_url: z.string(),
    actor: AccountSchema,
    triggering_actor: AccountSchema,
    head_repository: z.object({ full_name: z.string() }).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  repository: RepositorySchema,
});

/**
 * The events that can start work, each once: what parseEvent reads, and the only events whose
 * runs' handoff notes a later run trusts (store/provenance.ts).
 */
export const ACTED_ON_EVENTS = [
  "issue_comment",
  "workflow_dispatch",
  "workflow_run",
  "schedule",
] as const;
export type ActedOnEvent = (typeof ACTED_ON_EVENTS)[number];

/** What the first word after the trigger phrase asks for; anything else is a free instruction. */
const COMMANDS: Record<string, TaskKind> = { fix: "fix", continue: "continue" };

export function parseEvent({ eventName, payload, triggerPhrase, runId }: GitHubEvent): Trigger {
  const parsers: { [Event in ActedOnEvent]: () => Trigger } = {
    issue_comment: () => parseIssueComment(payload, triggerPhrase),
    workflow_dispatch: () => parseWorkflowDispatch(payload, runId),
    workflow_run: () => parseWorkflowRun(payload),
    schedule: () => parseSchedule(payload),
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
  if (instruction.trim() === FLAKY_TRIAGE_TASK) {
    return {
      kind: "task",
      task: triageTask(person(event.sender, ""), repository(event.repository)),
    };
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

/** A scheduled run is a flaky-test triage: pitcrew has no other scheduled work. */
function parseSchedule(payload: unknown): Trigger {
  const event = checked(ScheduleSchema, payload, "schedule");
  return {
    kind: "task",
    task: triageTask(person(SCHEDULE_ACCOUNT, ""), repository(event.repository)),
  };
}

function triageTask(requester: Person, repo: Repository): Task {
  return {
    kind: "flaky-triage",
    thread: { kind: "triage" },
    threadKey: FLAKY_TRIAGE_THREAD,
    instruction: "",
    requester,
    repository: repo,
  };
}

/** The conclusions pitcrew repairs: the run failed, or ran out of time. */
const REPAIRED = new Set(["failure", "timed_out"]);

/**
 * A finished run of a watched workflow: a `ci-repair` task when it failed or timed out, keyed by its
 * branch (`ci-<branch>`), asked for by whoever started that attempt. Who may ask, forks, branch
 * patterns and the ledger's caps are decided after, with the repository's settings.
 */
function parseWorkflowRun(payload: unknown): Trigger {
  const event = checked(WorkflowRunSchema, payload, "workflow_run");
  const run = event.workflow_run;
  if (event.action !== "completed") {
    return {
      kind: "ignore",
      reason: `the workflow run is ${event.action}, not completed; pitcrew repairs finished runs`,
    };
  }
  if (run.conclusion === null || !REPAIRED.has(run.conclusion)) {
    return {
      kind: "ignore",
      reason: `the workflow run ended with ${run.conclusion ?? "no conclusion"}; pitcrew repairs failed or timed-out runs`,
    };
  }
  if (run.head_branch === null || run.head_branch === "") {
    return { kind: "ignore", reason: "the failed run has no branch (a tag or a detached commit)" };
  }
  const branch = run.head_branch;
  const failedRun: FailedRun = {
    id: run.id,
    attempt: run.run_attempt,
    workflowName: run.name || event.workflow?.name || run.path,
    workflowPath: run.path,
    headSha: run.head_sha,
    headBranch: branch,
    event: run.event,
    conclusion: run.conclusion === "timed_out" ? "timed_out" : "failure",
    htmlUrl: run.html_url,
    actor: run.actor.login,
    triggeringActor: run.triggering_actor.login,
    headRepository: run.head_repository?.full_name ?? "",
    createdAt: run.created_at,
    updatedAt: run.updated_at,
  };
  const task: Task = {
    kind: "ci-repair",
    thread: { kind: "ci", branch },
    threadKey: `ci-${branchKey(branch)}`,
    instruction: "",
    requester: person(run.triggering_actor, ""),
    repository: repository(event.repository),
    failedRun,
  };
  return { kind: "task", task };
}

/**
 * A branch as a thread's name: its characters that are safe in a ref and an artifact's name, and
 * when any were not, a short hash of the whole so `feature/a` and `feature-a` stay apart.
 */
export function branchKey(branch: string): string {
  const safe = branch
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 60);
  if (safe === branch) return safe;
  const hash = createHash("sha256").update(branch).digest("hex").slice(0, 6);
  return `${safe || "branch"}-${hash}`;
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
