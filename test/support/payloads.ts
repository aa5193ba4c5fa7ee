/**
 * Real webhook payloads from `@octokit/webhooks-examples`, cloned and changed only where a test
 * needs it. The examples hold no comment on a pull request and none by a bot, so those are
 * derived here the way GitHub shapes them.
 */
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type { IssueCommentEvent, WorkflowDispatchEvent } from "@octokit/webhooks-types";

// The package's main file is a JSON array; require keeps it out of TypeScript's JSON inference.
const DEFINITIONS = createRequire(import.meta.url)(
  "@octokit/webhooks-examples",
) as WebhookDefinition[];

export function examples<Name extends WebhookDefinition["name"]>(
  name: Name,
): WebhookDefinition<Name>["examples"] {
  const definition = DEFINITIONS.find(
    (candidate): candidate is WebhookDefinition<Name> => candidate.name === name,
  );
  if (definition === undefined) throw new Error(`@octokit/webhooks-examples has no ${name} event`);
  return definition.examples;
}

export interface CommentPayloadOptions {
  body: string;
  action?: "created" | "edited" | "deleted";
  /** Make the conversation a pull request's (adds `issue.pull_request` as GitHub does). */
  onPullRequest?: boolean;
  /** The commenter (also the event's sender). */
  user?: { login: string; id: number; type: string };
  association?: string;
}

export function issueCommentPayload({
  body,
  action = "created",
  onPullRequest = false,
  user,
  association,
}: CommentPayloadOptions): IssueCommentEvent {
  const example = examples("issue_comment").find((candidate) => candidate.action === action);
  if (example === undefined) throw new Error(`no issue_comment example with action ${action}`);
  const payload = structuredClone(example);
  payload.comment.body = body;
  if (onPullRequest) {
    const pulls = `${payload.repository.url}/pulls/${payload.issue.number}`;
    const page = `${payload.repository.html_url}/pull/${payload.issue.number}`;
    payload.issue.pull_request = {
      url: pulls,
      html_url: page,
      diff_url: `${page}.diff`,
      patch_url: `${page}.patch`,
      merged_at: null,
    };
  }
  if (user !== undefined) {
    Object.assign(payload.comment.user, user);
    Object.assign(payload.sender, user);
  }
  if (association !== undefined) {
    payload.comment.author_association = association as typeof payload.comment.author_association;
  }
  return payload;
}

/** A manual run; `task` undefined leaves the example's empty inputs. */
export function workflowDispatchPayload({ task }: { task?: string }): WorkflowDispatchEvent {
  const [example] = examples("workflow_dispatch");
  if (example === undefined) throw new Error("no workflow_dispatch example");
  const payload = structuredClone(example);
  if (task !== undefined) payload.inputs = { ...payload.inputs, task };
  return payload;
}

export interface WorkflowRunPayloadOptions {
  conclusion?: string | null;
  action?: "completed" | "requested" | "in_progress";
  branch?: string | null;
  /** `owner/repo` of the run's head: another repository is a fork. */
  headRepository?: string;
  attempt?: number;
}

/** A finished run of a watched workflow, from the example, failed unless told otherwise. */
export function workflowRunPayload({
  conclusion = "failure",
  action = "completed",
  branch = "feature/login",
  headRepository,
  attempt = 1,
}: WorkflowRunPayloadOptions = {}): Record<string, unknown> {
  const example = examples("workflow_run").find(
    (candidate) => candidate.action === "completed" && candidate.workflow_run.conclusion !== null,
  );
  if (example === undefined) throw new Error("no completed workflow_run example");
  const payload = structuredClone(example) as unknown as {
    action: string;
    workflow_run: Record<string, unknown> & { head_repository: { full_name: string } };
  };
  payload.action = action;
  Object.assign(payload.workflow_run, {
    conclusion,
    head_branch: branch,
    run_attempt: attempt,
    status: action === "completed" ? "completed" : action,
  });
  if (headRepository !== undefined) payload.workflow_run.head_repository.full_name = headRepository;
  return payload;
}

/**
 * A scheduled run's event file: the cron line and the repository, as GitHub writes it for
 * `schedule` (no webhook exists for it, so no example either: the repository is the
 * workflow_dispatch example's).
 */
export function schedulePayload(cron = "17 6 * * 1-5"): { schedule: string; repository: unknown } {
  const [example] = examples("workflow_dispatch");
  if (example === undefined) throw new Error("no workflow_dispatch example");
  return { schedule: cron, repository: structuredClone(example.repository) };
}
