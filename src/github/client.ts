/**
 * The GitHubApi over GitHub's REST API, through @actions/github's octokit: it retries what is
 * transient, turns what a person must fix into named errors, and maps octokit's shapes onto
 * api.ts's. Git transport (fetch, push) is not here; git/git.ts runs it.
 */
import { getOctokit } from "@actions/github";
import { retry, type RetryPlugin } from "@octokit/plugin-retry";
import { PitcrewError } from "../errors.ts";
import type { Account, CommentInfo, IssueInfo, PullInfo } from "../domain/conversation.ts";
import type { GitHubApi, Permission, Reaction } from "./api.ts";

export interface GitHubApiOptions {
  token: string;
  /** The REST base (https://api.github.com, or a GHES `…/api/v3`). Always passed on purpose:
   * @actions/github reads GITHUB_API_URL once, when it is imported. */
  baseUrl: string;
  owner: string;
  repo: string;
  /** Transient failures are retried `retries` times (default 3), the n-th after n² × `delayMs`
   * (default 1000). */
  retry?: { retries?: number; delayMs?: number };
}

/** What went wrong with one request, read off octokit's RequestError. */
export interface Failure {
  /** 500 also when GitHub never answered (octokit's network error). */
  status: number;
  /** GitHub's `message`, or octokit's when there was no answer. */
  message: string;
  /** The `message`s of GitHub's `errors` (a 422's validation details). */
  details: string[];
  /** Whether GitHub answered at all. */
  answered: boolean;
  headers: Record<string, string | number | undefined>;
}

interface Context {
  baseUrl: string;
  retries: number;
}

/** One API call with its failures named: `action` completes "when pitcrew tried to …";
 * `permission` (`actions: read`) is what a 403 for a missing permission asks to add. */
export type NamedCall = <T>(
  action: string,
  request: () => Promise<T>,
  permission?: string,
) => Promise<T>;

const DEFAULT_RETRIES = 3;
const DEFAULT_DELAY_MS = 1000;
/** GitHub's advice for a secondary rate limit without `retry-after`: wait at least a minute. */
const SECONDARY_RATE_LIMIT_WAIT_SECONDS = 60;
/** GitHub returns deleted accounts as this one. */
const GHOST: Account = { login: "ghost", id: 10137, type: "User" };
const WORKFLOW_PERMISSIONS =
  "permissions: { contents: write, pull-requests: write, issues: write, actions: read }";

// ---------------------------------------------------------------------------------------------
// Decisions: which failures are which

export function failureOf(error: unknown): Failure | undefined {
  if (!(error instanceof Error) || !("status" in error) || typeof error.status !== "number") {
    return undefined;
  }
  const response = (error as { response?: { data?: unknown; headers?: Failure["headers"] } })
    .response;
  const data = (typeof response?.data === "object" ? response.data : null) as {
    message?: unknown;
    errors?: unknown;
  } | null;
  const details = Array.isArray(data?.errors)
    ? data.errors.flatMap((detail: unknown) => {
        const message = (detail as { message?: unknown } | null)?.message;
        return typeof message === "string" ? [message] : [];
      })
    : [];
  return {
    status: error.status,
    message: typeof data?.message === "string" ? data.message : error.message,
    details,
    answered: response !== undefined,
    headers: response?.headers ?? {},
  };
}

function mentions(failure: Failure, pattern: RegExp): boolean {
  return [failure.message, ...failure.details].some((text) => pattern.test(text));
}

const PR_NOT_PERMITTED = /GitHub Actions is not permitted to create or approve pull requests/i;
const PR_EXISTS = /A pull request already exists/i;

function isSecondaryRateLimit(failure: Failure): boolean {
  return (
    (failure.status === 403 || failure.status === 429) &&
    (failure.headers["retry-after"] !== undefined || mentions(failure, /secondary rate limit/i))
  );
}

function isRateLimit(failure: Failure): boolean {
  return (
    failure.status === 429 ||
    isSecondaryRateLimit(failure) ||
    (failure.status === 403 && String(failure.headers["x-ratelimit-remaining"]) === "0")
  );
}

function said(failure: Failure): string {
  const details = failure.details.length > 0 ? `: ${failure.details.join("; ")}` : "";
  return `${failure.status} ${failure.message}${details}`;
}

/** The named error for a failure that retrying did not (or could not) cure. */
function namedError(
  action: string,
  failure: Failure,
  context: Context,
  cause: unknown,
  permission?: string,
): PitcrewError {
  if (failure.status === 401) {
    return new PitcrewError(
      "github-token-invalid",
      `GitHub rejected the token when pitcrew tried to ${action} (${said(failure)}): give ` +
        "pitcrew a valid token (the workflow's GITHUB_TOKEN or a GitHub App installation token).",
      { cause },
    );
  }
  if (mentions(failure, PR_NOT_PERMITTED)) {
    return new PitcrewError(
      "github-pr-not-permitted",
      `GitHub does not let this workflow's token ${action} (${said(failure)}): turn on the ` +
        'repository setting Settings → Actions → General → Workflow permissions → "Allow GitHub ' +
        'Actions to create and approve pull requests" (an organisation must allow it too), or ' +
        "give pitcrew a GitHub App token.",
      { cause },
    );
  }
  if (failure.status === 403 && mentions(failure, /Resource not accessible by/i)) {
    const fix =
      permission === undefined
        ? `give the workflow job \`${WORKFLOW_PERMISSIONS}\``
        : `add \`${permission}\` to the workflow job's \`permissions:\``;
    return new PitcrewError(
      "github-permission-missing",
      `The token may not ${action} (${said(failure)}): ${fix}.`,
      { cause },
    );
  }
  if (isRateLimit(failure)) {
    const reset = Number(failure.headers["x-ratelimit-reset"]);
    const until = Number.isFinite(reset)
      ? `until ${new Date(reset * 1000).toISOString()}`
      : "a few minutes";
    return new PitcrewError(
      "github-rate-limited",
      `GitHub rate-limited the token when pitcrew tried to ${action} (${said(failure)}): ` +
        `wait ${until} and run the job again.`,
      { cause },
    );
  }
  if (!failure.answered) {
    return new PitcrewError(
      "github-unavailable",
      `pitcrew could not reach GitHub at ${context.baseUrl} to ${action}, still after ` +
        `${context.retries} retries (${failure.message}): check the runner's network and ` +
        "GITHUB_API_URL, then run the job again.",
      { cause },
    );
  }
  if (failure.status >= 500) {
    return new PitcrewError(
      "github-unavailable",
      `GitHub answered ${said(failure)} when pitcrew tried to ${action}, still after ` +
        `${context.retries} retries: GitHub may be having an incident ` +
        "(https://www.githubstatus.com); run the job again later.",
      { cause },
    );
  }
  return new PitcrewError(
    "github-request-failed",
    `GitHub answered ${said(failure)} when pitcrew tried to ${action}.`,
    { cause },
  );
}

// ---------------------------------------------------------------------------------------------
// octokit's shapes → api.ts's

interface UserShape {
  login: string;
  id: number;
  type: string;
}

interface PullShape {
  number: number;
  node_id: string;
  title: string;
  body: string | null;
  html_url: string;
  draft?: boolean;
  state: string;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string; sha: string; repo: { full_name: string } };
}

function account(user: UserShape | null | undefined): Account {
  return user ? { login: user.login, id: user.id, type: user.type } : GHOST;
}

function pullInfo(pull: PullShape): PullInfo {
  return {
    number: pull.number,
    nodeId: pull.node_id,
    title: pull.title,
    body: pull.body ?? "",
    htmlUrl: pull.html_url,
    draft: pull.draft ?? false,
    state: pull.state,
    head: {
      ref: pull.head.ref,
      sha: pull.head.sha,
      repoFullName: pull.head.repo?.full_name ?? null,
    },
    base: { ref: pull.base.ref, sha: pull.base.sha, repoFullName: pull.base.repo.full_name },
  };
}

function permissionOf(data: { permission: string; role_name: string }): Permission {
  if (data.role_name === "maintain" || data.role_name === "triage") return data.role_name;
  if (data.permission === "admin" || data.permission === "write" || data.permission === "read") {
    return data.permission;
  }
  return "none";
}

// ---------------------------------------------------------------------------------------------
// Effects

type Octokit = Parameters<typeof retry>[0];
type RequestError = Parameters<RetryPlugin["retry"]["retryRequest"]>[0];

/**
 * plugin-retry never retries a 403, yet GitHub answers a secondary rate limit with one: this
 * marks those for retry after `retry-after`. It must be listed before `retry`, so that its hook
 * runs inside retry's scheduler.
 */
function retrySecondaryRateLimits(retries: number) {
  return (octokit: Octokit): void => {
    octokit.hook.error("request", (error) => {
      const failure = failureOf(error);
      if (failure !== undefined && isSecondaryRateLimit(failure)) {
        const after = Number(failure.headers["retry-after"] ?? SECONDARY_RATE_LIMIT_WAIT_SECONDS);
        const { retry: plugin } = octokit as unknown as RetryPlugin;
        throw plugin.retryRequest(error as RequestError, retries, after);
      }
      throw error;
    });
  };
}

/**
 * The one way pitcrew makes an octokit: the base URL always explicit (@actions/github reads
 * GITHUB_API_URL only at import), transient failures and secondary rate limits retried.
 */
export function createOctokit(options: Pick<GitHubApiOptions, "token" | "baseUrl" | "retry">) {
  const retries = options.retry?.retries ?? DEFAULT_RETRIES;
  return getOctokit(
    options.token,
    {
      baseUrl: options.baseUrl,
      userAgent: "pitcrew",
      retry: { retries, retryAfterBaseValue: options.retry?.delayMs ?? DEFAULT_DELAY_MS },
    },
    retrySecondaryRateLimits(retries),
    retry,
  );
}

/** Runs API calls so that a failure that is not a bug becomes a named error. */
export function namedCalls(options: Pick<GitHubApiOptions, "baseUrl" | "retry">): NamedCall {
  const context: Context = {
    baseUrl: options.baseUrl,
    retries: options.retry?.retries ?? DEFAULT_RETRIES,
  };
  return async (action, request, permission) => {
    try {
      return await request();
    } catch (error) {
      const failure = failureOf(error);
      if (failure === undefined) throw error;
      throw namedError(action, failure, context, error, permission);
    }
  };
}

export function createGitHubApi(options: GitHubApiOptions): GitHubApi {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);

  /** The open pull from `head` (into `base`, when given), read without naming a failure (callers do). */
  async function openPull(head: string, base?: string): Promise<PullInfo | undefined> {
    const { data } = await octokit.rest.pulls.list({
      owner,
      repo,
      head: `${owner}:${head}`,
      ...(base === undefined ? {} : { base }),
      state: "open",
      per_page: 1,
    });
    return data[0] === undefined ? undefined : pullInfo(data[0]);
  }

  return {
    repository: () =>
      call(`read the repository ${owner}/${repo}`, async () => {
        const { data } = await octokit.rest.repos.get({ owner, repo });
        return { fullName: data.full_name, defaultBranch: data.default_branch };
      }),

    permission: (login) =>
      call(`read ${login}'s permission on ${owner}/${repo}`, async () => {
        try {
          const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
            owner,
            repo,
            username: login,
          });
          return permissionOf(data);
        } catch (error) {
          // GitHub answers 404 for an account that is no collaborator and no user (e.g. an app).
          if (failureOf(error)?.status === 404) return "none";
          throw error;
        }
      }),

    issue: (number) =>
      call(`read issue #${number}`, async () => {
        const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: number });
        return {
          number: data.number,
          title: data.title,
          body: data.body ?? "",
          user: account(data.user),
          authorAssociation: data.author_association ?? "NONE",
          htmlUrl: data.html_url,
          isPullRequest: data.pull_request !== undefined,
        } satisfies IssueInfo;
      }),

    comments: (issueNumber) =>
      call(`read the comments of #${issueNumber}`, async () => {
        const comments = await octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issueNumber,
          per_page: 100,
        });
        return comments.map((comment): CommentInfo => ({
          id: comment.id,
          body: comment.body ?? "",
          user: account(comment.user),
          authorAssociation: comment.author_association ?? "NONE",
          createdAt: comment.created_at,
          htmlUrl: comment.html_url,
        }));
      }),

    createComment: (issueNumber, body) =>
      call(`comment on #${issueNumber}`, async () => {
        const { data } = await octokit.rest.issues.createComment({
          owner,
          repo,
          issue_number: issueNumber,
          body,
        });
        return { id: data.id, htmlUrl: data.html_url };
      }),

    updateComment: (commentId, body) =>
      call(`edit comment ${commentId}`, async () => {
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body });
      }),

    react: (commentId, reaction: Reaction) =>
      call(`react ${reaction} to comment ${commentId}`, async () => {
        await octokit.rest.reactions.createForIssueComment({
          owner,
          repo,
          comment_id: commentId,
          content: reaction,
        });
      }),

    pull: (number) =>
      call(`read pull request #${number}`, async () => {
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
        return pullInfo(data);
      }),

    findOpenPull: (head, base) =>
      call(
        `look for an open pull request from ${head}${base === undefined ? "" : ` into ${base}`}`,
        () => openPull(head, base),
      ),

    createPull: (pull) =>
      call(`open a pull request from ${pull.head} into ${pull.base}`, async () => {
        try {
          const { data } = await octokit.rest.pulls.create({ owner, repo, ...pull });
          return pullInfo(data);
        } catch (error) {
          // Opening the same pull twice (a rerun) answers with the one already open.
          const failure = failureOf(error);
          if (failure?.status !== 422 || !mentions(failure, PR_EXISTS)) throw error;
          const existing = await openPull(pull.head, pull.base);
          if (existing === undefined) throw error;
          return existing;
        }
      }),

    updatePull: (number, pull) =>
      call(`edit pull request #${number}`, async () => {
        const { data } = await octokit.rest.pulls.update({
          owner,
          repo,
          pull_number: number,
          title: pull.title,
          body: pull.body,
        });
        return pullInfo(data);
      }),

    markReady: (pull) =>
      call(`mark pull request #${pull.number} ready for review`, async () => {
        await octokit.graphql(
          "mutation ($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }",
          { id: pull.nodeId },
        );
        return { ...pull, draft: false };
      }),
  };
}
