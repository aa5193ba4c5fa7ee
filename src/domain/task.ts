import type { FailedRun } from "./ci.ts";

/**
 * What a GitHub event asks of pitcrew, as data: a `Task` to work, or a plain reason why there is
 * nothing to do. Built by triggers/event.ts from the payload alone; who may ask is decided after,
 * in triggers/authorize.ts.
 */

/** `author_association` as GitHub reports it (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, …). */
export type Association = string;

export interface Person {
  login: string;
  /** The account id: the `Co-authored-by` trailer's noreply address needs it. */
  id: number;
  /** "User", "Bot" or "Organization", from the payload's user object. */
  type: string;
  association: Association;
}

/** Where the work belongs: one branch, one pull request and one notes artifact per thread. */
export type Thread =
  | { kind: "issue"; number: number }
  | { kind: "pr"; number: number }
  | { kind: "dispatch"; runId: string }
  /** A branch whose CI failed: its repairs share one fix branch and one notes thread. */
  | { kind: "ci"; branch: string }
  /** The scheduled flaky-test triage: one thread whose notes hold the flake ledger. */
  | { kind: "triage" };

/** The or pull request's number a thread is about; none for a dispatch or a branch. */
export function threadNumber(thread: Thread): number | undefined {
  return thread.kind === "issue" || thread.kind === "pr" ? thread.number : undefined;
}

export type TaskKind =
  "fix" | "continue" | "instruction" | "dispatch" | "ci-repair" | "flaky-triage";

export interface Repository {
  owner: string;
  repo: string;
  defaultBranch: string;
}

export interface Task {
  kind: TaskKind;
  thread: Thread;
  /** `issue-12`, `pr-7`, `dispatch-<run id>`: names the branch and the notes. */
  threadKey: string;
  /** The words after the command (`/agent fix <these>`), or the free instruction; "" if none. */
  instruction: string;
  requester: Person;
  /** The comment that asked, when a comment did. */
  comment?: { id: number; htmlUrl: string };
  repository: Repository;
  /** The run whose failure a `ci-repair` task repairs. */
  failedRun?: FailedRun;
}

export type Trigger =
  | { kind: "task"; task: Task }
  /** Nothing to do (an edited comment, other text, an unknown event): said in the log, exit 0. */
  | { kind: "ignore"; reason: string };
