/**
 * Every GitHub REST call the action makes, behind one interface: the rest of the code speaks in
 * the domain's shapes (domain/conversation.ts), never in octokit's. The implementation
 * (createGitHubApi) retries transient failures and turns the ones a person must fix into named
 * errors.
 */
import type { CommentInfo, IssueInfo, PullInfo } from "../domain/conversation.ts";

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

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
  /** The open PR from `head` (a branch of this repository) into `base`, or into any branch when
   * `base` is left out (the pull a failing branch's CI repair comments on), if there is one. */
  findOpenPull(head: string, base?: string): Promise<PullInfo | undefined>;
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
