/**
 * An issue or pull request conversation as pitcrew reads it: the issue, its comments, the pull
 * request, and the marker on pitcrew's own comments. github/api.ts fetches these shapes; the
 * prompt and the triggers read them without knowing how they were fetched. Types and one constant.
 */

/** Every comment pitcrew posts starts with this, so later runs can tell its own comments apart. */
export const PITCREW_COMMENT_MARKER = "<!-- pitcrew -->";

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
