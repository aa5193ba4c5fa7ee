/**
 * Every GitHub REST call the action makes, behind one interface: the rest of the code speaks in
 * these small domain shapes, never in octokit's. The implementation (createGitHubApi) retries
 * transient failures and turns the ones a person must fix into named errors.
 */

/** Every comment pitcrew posts starts with this, so later runs can tell its own comments apart. */
export const PITCREW_COMMENT_MARKER = "<!-- pitcrew -->";

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface Account {
  login: string;
  id: number;
  /** "User", "Bot" or "Organization". */
  type: string;
}

export interface IssueInfo {
  number: number;
  title: string;
  body: string;
  user: Account;
  authorAssociation: string;
  htmlUrl: string;
  isPullRequest: boolean;
}

export interface CommentInfo {
  id: number;
  body: string;
  user: Account;
  authorAssociation: string;
  createdAt: string;
  htmlUrl: string;
}

export interface PullInfo {
  number: number;
  /** The GraphQL id: marking a draft ready for review exists only in GraphQL. */
  nodeId: string;
  title: string;
  body: string;
  htmlUrl: string;
  draft: boolean;
  state: string;
  head: { ref: string; sha: string; repoFullName: string | null };
  base: { ref: string; sha: string; repoFullName: string };
}

export type Reaction = "eyes" | "rocket" | "confused" | "+1" | "-1";

export interface GitHubApi {
  repository(): Promise<{ fullName: string; defaultBranch: string }>;
  /** The person's permission on the repository (`maintain`/`triage` from role_name). */
  permission(login: string): Promise<Permission>;
  issue(number: number): Promise<IssueInfo>;
  /** All comments of an issue or PR conversation, oldest first. */
  comments(issueNumber: number): Promise<CommentInfo[]>;
  createComment(issueNumber: number, body: string): Promise<{ id: number; htmlUrl: string }>;
  updateComment(commentId: number, body: string): Promise<void>;
  react(commentId: number, reaction: Reaction): Promise<void>;
  pull(number: number): Promise<PullInfo>;
  /** The open PR from `head` (a branch of this repository) into `base`, if there is one. */
  findOpenPull(head: string, base: string): Promise<PullInfo | undefined>;
  createPull(pull: {
    title: string;
    body: string;
    head: string;
    base: string;
    draft: boolean;
  }): Promise<PullInfo>;
  updatePull(number: number, pull: { title: string; body: string }): Promise<PullInfo>;
  /** Takes a draft out of draft (a continued run finished what an early stop left as a draft). */
  markReady(pull: PullInfo): Promise<PullInfo>;
}
