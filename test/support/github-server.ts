/**
 * A fake of GitHub for tests: a real HTTP server on 127.0.0.1 that answers the REST routes
 * pitcrew calls with bodies shaped like GitHub's (test/github/fake-server.test.ts checks them
 * against GitHub's OpenAPI description), serves a bare repository over git smart HTTP through
 * `git http-backend` and its objects and refs over the Git Data routes with git's plumbing (a
 * ref's update a real compare-and-swap), serves the artifact service a job's `@actions/artifact` client talks to
 * (artifact-service.ts, whose artifacts the REST artifact routes list), and plays GitHub's faults
 * on demand. It keeps only the state those routes touch; it is not a general GitHub emulator.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Permission } from "../../src/github/api.ts";
import {
  createArtifactService,
  type FakeArtifact,
  type FakeArtifacts,
} from "./artifact-service.ts";

// ---------------------------------------------------------------------------------------------
// State, in GitHub's words

export interface FakeUser {
  login: string;
  id: number;
  /** "User", "Bot" or "Organization". */
  type: string;
}

/** Every reaction GitHub knows (pitcrew uses a few of them). */
export type ReactionContent =
  "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  user: FakeUser;
  /** Pull requests are issues too; GitHub marks them with `pull_request`. */
  pullRequest: boolean;
  state: "open" | "closed";
  /** Why it was closed or reopened (`state_reason`); null for an issue never closed. */
  stateReason: IssueStateReason | null;
  /** The names of its labels, as the repository's labels spell them. */
  labels: string[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: FakeUser | null;
}

/** GitHub's `state_reason`s. */
export type IssueStateReason = "completed" | "not_planned" | "duplicate" | "reopened";

/** A label of the repository (GitHub makes one when an issue is given a name it lacks). */
export interface FakeLabel {
  id: number;
  name: string;
  /** Six hex digits, without `#`. */
  color: string;
  description: string | null;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
}

export interface FakeReaction {
  id: number;
  commentId: number;
  content: ReactionContent;
  user: FakeUser;
  createdAt: string;
}

export interface FakePull {
  number: number;
  /** The pull's own id, not its number. */
  id: number;
  title: string;
  body: string | null;
  user: FakeUser;
  draft: boolean;
  state: "open" | "closed";
  /** `sha` is read from the bare repository when the pull is made (a fork's head: made up). */
  head: { ref: string; sha: string; repoFullName: string };
  base: { ref: string; sha: string };
  createdAt: string;
  updatedAt: string;
  /** When it was merged (it is then closed); null while it is not. */
  mergedAt: string | null;
}

/** A workflow run: where it came from, and each of its attempts with their jobs. */
export interface FakeRun {
  id: number;
  /** The workflow file the run ran, as GitHub's `path`. */
  path: string;
  /** The event that triggered it: `issue_comment`, `pull_request`, … */
  event: string;
  /** `owner/name` of the repository the run's code came from: this one, or a fork. */
  headRepository: string;
  headBranch: string;
  /** The commit the run ran; unset, the head of `headBranch` in the bare repository (in a fork,
   * a made-up one). */
  headSha?: string;
  /** Who started the run (a login). */
  actor: string;
  createdAt: string;
  /** Oldest first: attempt n is `attempts[n - 1]`; the last is the run as it stands now. */
  attempts: FakeAttempt[];
}

export interface FakeAttempt {
  number: number;
  status: "queued" | "in_progress" | "completed";
  /** `success`, `failure`, `timed_out`, `cancelled`, …; null until completed. */
  conclusion: string | null;
  /** Who started this attempt (a re-run can be someone else). */
  triggeringActor: string;
  /** `run_started_at`: when this attempt began. */
  startedAt: string;
  updatedAt: string;
  jobs: FakeJob[];
}

export interface FakeJob {
  /** The job's id, which is also its check run's id, as on GitHub. */
  id: number;
  name: string;
  /** The attempt that ran it (`run_attempt`): a job a partial re-run did not run again is listed
   * under the later attempts too, with its own id and this attempt. */
  runAttempt: number;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  steps: { name: string; number: number; conclusion: string | null }[];
  /** What `GET …/jobs/{id}/logs` leads to (the storage serves it as it is). */
  log: Buffer;
  annotations: FakeAnnotation[];
  startedAt: string;
  completedAt: string | null;
}

/** One annotation of a job's check run, as a problem matcher or `::error` makes it. */
export interface FakeAnnotation {
  path: string;
  startLine: number;
  endLine?: number;
  level: "notice" | "warning" | "failure";
  title?: string | null;
  message: string;
  rawDetails?: string | null;
}

/** How a test describes a job; everything but the name has a default. */
export interface FakeJobSpec {
  name: string;
  /** Default "success". */
  conclusion?: string | null;
  /** Default: one step, "Run tests", with the job's conclusion. */
  steps?: { name: string; conclusion?: string | null }[];
  /** Default: a short log with a line per step, as the runner writes it (BOM, timestamps). */
  log?: string | Buffer;
  annotations?: FakeAnnotation[];
}

/** How a test describes an attempt. */
export interface FakeAttemptSpec {
  /** Default "completed". */
  status?: FakeAttempt["status"];
  /** Default: `failure` when a job failed or timed out, else `success` (null unless completed). */
  conclusion?: string | null;
  /** Default: the run's actor. */
  triggeringActor?: string;
  /** Default: now. */
  startedAt?: string;
  updatedAt?: string;
  /** Jobs this attempt ran. */
  jobs?: FakeJobSpec[];
  /**
   * Names of the previous attempt's jobs this attempt did not run again (a partial re-run, such
   * as "Re-run failed jobs"): listed again under it, first, with their own id and `run_attempt`.
   */
  kept?: string[];
}

/** How a test describes a run: where it came from and its attempts, oldest first. */
export interface FakeRunSpec {
  /** Default: the next of a counter. */
  id?: number;
  /** Default FAKE_WORKFLOW_PATH. */
  path?: string;
  /** Default "push". */
  event?: string;
  /** Default: this repository. */
  headRepository?: string;
  /** Default: the default branch. */
  headBranch?: string;
  headSha?: string;
  /** Default: the token's account. */
  actor?: string;
  /** Default: now. */
  createdAt?: string;
  /** Default: one attempt that succeeded with no jobs. */
  attempts?: FakeAttemptSpec[];
}

/** What a GITHUB_TOKEN may do, per scope; a route that needs more answers GitHub's 403. */
export type TokenScope = "actions" | "checks" | "contents" | "issues" | "pull-requests";
export type TokenAccess = "none" | "read" | "write";

/** A link handed out by a 302 (a job's log, an artifact's zip) to the storage, and its use. */
export interface FakeLink {
  kind: "job-log" | "artifact";
  /** The job's or the artifact's id. */
  id: number;
  url: string;
  /** Date.now() when the API handed it out. */
  issuedAt: number;
  expiresAt: number;
  /** Every request for it, in order: whether it carried an Authorization header, and the answer. */
  fetches: { at: number; status: number; authorization: boolean }[];
}

/** The workflow file of the runs the tests simulate (GITHUB_WORKFLOW_REF names it). */
export const FAKE_WORKFLOW_PATH = ".github/workflows/pitcrew.yml";

export interface LoggedRequest {
  method: string;
  /** The path without the query string, decoded. */
  path: string;
  query: Record<string, string>;
  /** 0 when a fault dropped the connection. */
  status: number;
  /** The parsed JSON body of a REST or Twirp request; undefined for none and for binary bodies
   * (git's, blobs'). */
  body: unknown;
}

export interface Fault {
  /** Case-insensitive; "*" matches any method. */
  method: string;
  /** Tested against the decoded path without the query string. */
  path: RegExp;
  /** An HTTP status, or "reset" to drop the connection without answering (a network error). */
  status: number | "reset";
  /** Merged over `{ message, documentation_url, status }`. */
  body?: Record<string, unknown>;
  /** e.g. `retry-after` for a rate limit. */
  headers?: Record<string, string>;
  /** How many matching requests to answer this way; default 1. */
  times?: number;
}

/** GitHub's answer when the repository does not let Actions open pull requests (a setting). */
export const PR_NOT_PERMITTED: Fault = {
  method: "POST",
  path: /\/pulls$/,
  status: 422,
  body: {
    message: "Validation Failed",
    errors: [
      {
        resource: "PullRequest",
        code: "custom",
        message: "GitHub Actions is not permitted to create or approve pull requests.",
      },
    ],
  },
};

export interface GitHubServerOptions {
  /** The only token the fake accepts, for REST and for git. */
  token: string;
  /** Default "Codertocat". */
  owner?: string;
  /** Default "Hello-World". */
  repo?: string;
  /** Default "main". */
  defaultBranch?: string;
  /** Path of a bare git repository, served at `gitUrl`; the compare and contents routes read it,
   * the Git Data routes read and write it. */
  bareRepo: string;
  /** How long a storage link works after the API hands it out; default 60 s, as GitHub says. */
  linkLifetimeMs?: number;
  /** Whom the token belongs to: the author of what is made through the API. Default: the
   * `github-actions[bot]` account, as for a workflow's GITHUB_TOKEN. */
  actor?: FakeUser;
}

export interface FakeGitHub {
  owner: string;
  repo: string;
  /** The REST base (what GITHUB_API_URL would be). */
  url: string;
  /** `${url}/${owner}/${repo}.git`, the repository over smart HTTP. */
  gitUrl: string;
  /** The REST routes served, as OpenAPI path templates. */
  routes: readonly { method: string; path: string }[];
  /** Every request, in order of completion. */
  requests: LoggedRequest[];
  addUser(user: { login: string; id?: number; type?: string }): FakeUser;
  /** `maintain` and `triage` answer as permission write/read with that role_name, as GitHub does. */
  setPermission(login: string, permission: Permission): void;
  /** Labels it names that the repository lacks are made. A closed one's `stateReason` defaults to
   * `completed`. */
  addIssue(issue: {
    number: number;
    title: string;
    body: string | null;
    user: string;
    pullRequest?: boolean;
    /** Default "open". */
    state?: "open" | "closed";
    stateReason?: IssueStateReason;
    labels?: string[];
    /** Default: now. */
    createdAt?: string;
  }): FakeIssue;
  addComment(issueNumber: number, comment: { body: string; user: string }): FakeComment;
  /** Also adds the issue entry GitHub keeps for every pull request. */
  addPull(pull: {
    number: number;
    title: string;
    body: string | null;
    user: string;
    head: { ref: string; repoFullName?: string };
    base: { ref: string };
    draft?: boolean;
  }): FakePull;
  /** Merges pull request `number` at `at` (default now): it and its issue entry are closed. */
  mergePull(number: number, at?: string): FakePull;
  /** Every issue, pull requests' entries too, by number. */
  issues(): FakeIssue[];
  /** The repository's labels, oldest first. */
  labels(): FakeLabel[];
  /** The comments of an issue or pull request, oldest first. */
  comments(issueNumber: number): FakeComment[];
  reactions(commentId: number): FakeReaction[];
  pulls(): FakePull[];
  /** The artifact service on the same port (ACTIONS_RESULTS_URL, runtime tokens) and its state,
   * shared with the REST artifact routes. */
  artifacts: FakeArtifacts;
  /**
   * Says where workflow run `id` came from. Every run that was given a runner environment or
   * holds an artifact exists, as on GitHub; unless set here it ran FAKE_WORKFLOW_PATH on an
   * `issue_comment` with this repository's code.
   */
  setRun(id: number, run: Partial<Omit<FakeRun, "id">>): FakeRun;
  /**
   * Adds workflow run `id` with its attempts and their jobs (steps, conclusions, logs,
   * annotations), as the runs, attempts, jobs, logs, check-run annotations and workflow-runs
   * routes then answer. The jobs' ids come back in the run.
   */
  addRun(run: FakeRunSpec): FakeRun;
  /** The run as it stands (a re-run adds an attempt). */
  run(id: number): FakeRun | undefined;
  /** Takes permissions away from the token (each scope is `write` unless set here). */
  setTokenPermissions(permissions: Partial<Record<TokenScope, TokenAccess>>): void;
  /** The object a ref of the bare repository points at, the ref named as the Git Data API names
   * it (`heads/main`, `pitcrew/notes/issue-12`); undefined when there is no such ref. */
  refSha(ref: string): string | undefined;
  /** Points a ref at `sha` by force, or deletes it (null): another writer, behind every client's
   * back. */
  setRef(ref: string, sha: string | null): void;
  /** A recursive tree listing of more than `entries` answers its first `entries` with
   * `truncated: true`, as GitHub does past 100,000 (the default here too). */
  setTreeLimit(entries: number): void;
  /** Another origin, like GitHub's blob storage: where the log and artifact-zip redirects point. */
  storageUrl: string;
  /** Every storage link handed out, oldest first. */
  links: readonly FakeLink[];
  /** Every link handed out so far expires now, as a minute passing would. */
  expireLinks(): void;
  /** The next `count` links are handed out already expired (a client too slow to follow them). */
  expireNextLinks(count: number): void;
  /** Answers the next matching requests with a fault, before any other handling (Twirp, blob and
   * storage requests too, with GitHub's REST error body). */
  fail(fault: Fault): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The route table: each REST route is a method, an OpenAPI path template and a pure answer from
// the state. `{…_number}` and `{…_id}` match digits only; `{owner}/{repo}` must name this repo.

interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The full request URL, for Link headers. */
  url: URL;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Route {
  method: string;
  path: string;
  /** The documentation_url GitHub puts in this route's error bodies. */
  docs: string;
  /** The token permission the route needs; routes without (the repository, collaborators, an
   * issue read by its number, comments) are never refused. */
  needs?: [TokenScope, "read" | "write"];
  /** The Git Data routes answer later: they run git without blocking the server. */
  answer(call: Call): Answer | Promise<Answer>;
}

const HTML = "https://github.com";
const DOCS = "https://docs.github.com/rest";
const MAX_BODY = 65536;
const REACTIONS: readonly ReactionContent[] = [
  "+1",
  "-1",
  "laugh",
  "confused",
  "heart",
  "hooray",
  "rocket",
  "eyes",
];
const STATE_REASONS: readonly IssueStateReason[] = [
  "completed",
  "not_planned",
  "duplicate",
  "reopened",
];
/** GitHub's id for Codertocat/Hello-World, as the webhook examples the tests send carry it. */
export const REPO_ID = 186853002;

function githubError(status: number, message: string, docs: string, extra = {}): Answer {
  return {
    status,
    body: { message, documentation_url: docs, status: String(status), ...extra },
  };
}

function notFound(docs: string): Answer {
  return githubError(404, "Not Found", docs);
}

function validationFailed(docs: string, errors: Record<string, unknown>[]): Answer {
  return githubError(422, "Validation Failed", docs, { errors });
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

function nodeId(kind: string, id: number): string {
  return `${kind}_${Buffer.from(`fake:${id}`).toString("base64url")}`;
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}

/** A range of instants, each end included or not; an absent end is open. */
interface DateRange {
  from?: { at: number; included: boolean };
  to?: { at: number; included: boolean };
}

/**
 * A date qualifier of GitHub's search syntax (`>=2026-01-02`, `<2026-01-02T10:00:00Z`,
 * `2026-01-01..2026-01-31`, `2026-01-01..*`, a bare day): a day alone spans the whole UTC day,
 * both ends of `A..B` are included. Undefined when it is not one.
 */
function dateRange(text: string): DateRange | undefined {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  /** The first and the last millisecond `value` names, or undefined for no date. */
  const span = (value: string): [number, number] | undefined => {
    if (day.test(value)) {
      const start = Date.parse(`${value}T00:00:00Z`);
      return Number.isNaN(start) ? undefined : [start, start + 86_400_000 - 1];
    }
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) {
      return undefined;
    }
    const at = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
    return Number.isNaN(at) ? undefined : [at, at];
  };
  const range = /^(.+?)\.\.(.+)$/.exec(text);
  if (range !== null) {
    const [, low = "", high = ""] = range;
    const from = low === "*" ? undefined : span(low);
    const to = high === "*" ? undefined : span(high);
    if ((low !== "*" && from === undefined) || (high !== "*" && to === undefined)) return undefined;
    return {
      ...(from === undefined ? {} : { from: { at: from[0], included: true } }),
      ...(to === undefined ? {} : { to: { at: to[1], included: true } }),
    };
  }
  const [, operator = "", value = ""] = /^(>=|<=|>|<)?(.+)$/.exec(text) ?? [];
  const found = span(value);
  if (found === undefined) return undefined;
  const [first, last] = found;
  switch (operator) {
    case ">=":
      return { from: { at: first, included: true } };
    case ">":
      return { from: { at: last, included: false } };
    case "<=":
      return { to: { at: last, included: true } };
    case "<":
      return { to: { at: first, included: false } };
    default:
      return { from: { at: first, included: true }, to: { at: last, included: true } };
  }
}

function within(range: DateRange, date: string): boolean {
  const at = Date.parse(date);
  const { from, to } = range;
  if (from !== undefined && (from.included ? at < from.at : at <= from.at)) return false;
  if (to !== undefined && (to.included ? at > to.at : at >= to.at)) return false;
  return true;
}

/** `labels` of an issue's create or update: names, or objects with a `name`. */
function labelsField(body: Record<string, unknown>): string[] | "invalid" | undefined {
  const value = body.labels;
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return "invalid";
  const names = value.map((label: unknown) =>
    typeof label === "string"
      ? label
      : typeof label === "object" && label !== null && "name" in label
        ? label.name
        : undefined,
  );
  return names.every((name): name is string => typeof name === "string" && name !== "")
    ? names
    : "invalid";
}

/** The Link header GitHub sends with a page of a list. */
function linkHeader(url: URL, page: number, perPage: number, last: number): string {
  const at = (target: number): string => {
    const link = new URL(url);
    link.searchParams.set("per_page", String(perPage));
    link.searchParams.set("page", String(target));
    return link.toString();
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${at(page - 1)}>; rel="prev"`);
  if (page < last) links.push(`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (page > 1) links.push(`<${at(1)}>; rel="first"`);
  return links.join(", ");
}

/** One page of a list, `per_page` (default 30, at most 100) and `page` as GitHub reads them. */
function paginate<T>(
  items: readonly T[],
  call: Call,
): { items: T[]; headers: Record<string, string> } {
  const perPage = Math.min(Math.max(Number(call.query.get("per_page") ?? 30) || 30, 1), 100);
  const page = Math.max(Number(call.query.get("page") ?? 1) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = linkHeader(call.url, page, perPage, last);
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: link === "" ? {} : { link },
  };
}

// ---------------------------------------------------------------------------------------------
// The server

export async function startGitHubServer(options: GitHubServerOptions): Promise<FakeGitHub> {
  const owner = options.owner ?? "Codertocat";
  const repo = options.repo ?? "Hello-World";
  const fullName = `${owner}/${repo}`;
  const defaultBranch = options.defaultBranch ?? "main";
  const actor = options.actor ?? { login: "github-actions[bot]", id: 41898282, type: "Bot" };
  const createdAt = timestamp();

  const users = new Map<string, FakeUser>();
  const permissions = new Map<string, Permission>();
  const issues = new Map<number, FakeIssue>();
  /** By lower-cased name: GitHub's label names are case-insensitive. */
  const labels = new Map<string, FakeLabel>();
  const comments: FakeComment[] = [];
  const reactions: FakeReaction[] = [];
  const pulls = new Map<number, FakePull>();
  const runs = new Map<number, FakeRun>();
  const links: (FakeLink & { path: string; bytes: Buffer; contentType: string })[] = [];
  const tokenPermissions = new Map<TokenScope, TokenAccess>();
  let staleLinks = 0;
  let nextRunId = 9_000_000_001;
  let nextJobId = 29_000_000_001;
  const faults: (Fault & { left: number })[] = [];
  const requests: LoggedRequest[] = [];
  const repoIds = new Map<string, number>([[fullName.toLowerCase(), REPO_ID]]);
  let nextUserId = 1000;
  let nextCommentId = 2_000_000_001;
  let nextReactionId = 300_000_001;
  let nextPullId = 1_800_000_001;
  let nextLabelId = 208_045_946;
  let treeLimit = 100_000;
  let url = "";
  const artifacts = createArtifactService(() => url);

  // -- state --------------------------------------------------------------------------------

  function addUser(user: { login: string; id?: number; type?: string }): FakeUser {
    const added = { login: user.login, id: user.id ?? nextUserId++, type: user.type ?? "User" };
    users.set(user.login.toLowerCase(), added);
    return added;
  }

  function userNamed(login: string): FakeUser {
    return users.get(login.toLowerCase()) ?? addUser({ login });
  }

  addUser(actor);
  addUser({ login: owner, id: 1 });
  permissions.set(owner.toLowerCase(), "admin");

  function association(user: FakeUser): string {
    if (user.login.toLowerCase() === owner.toLowerCase()) return "OWNER";
    const permission = permissions.get(user.login.toLowerCase()) ?? "none";
    return permission === "none" ? "NONE" : "COLLABORATOR";
  }

  function bareGit(args: string[]): string | undefined {
    try {
      return execFileSync("git", ["--git-dir", options.bareRepo, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return undefined;
    }
  }

  function branchSha(ref: string): string | undefined {
    return bareGit(["rev-parse", "--verify", "--quiet", `refs/heads/${ref}^{commit}`]);
  }

  function isOwnRepo(repoFullName: string): boolean {
    return repoFullName.toLowerCase() === fullName.toLowerCase();
  }

  function nextNumber(): number {
    return Math.max(0, ...issues.keys()) + 1;
  }

  /** The repository's label of this name, made (in GitHub's grey) when there is none. */
  function labelNamed(name: string): FakeLabel {
    const known = labels.get(name.toLowerCase());
    if (known !== undefined) return known;
    const made = { id: nextLabelId++, name, color: "ededed", description: null };
    labels.set(name.toLowerCase(), made);
    return made;
  }

  /** The label names an issue is given, each the repository's (made if new), once each. */
  function labelNames(names: readonly string[]): string[] {
    return [...new Set(names.map((name) => labelNamed(name).name))];
  }

  function addIssueEntry(issue: {
    number: number;
    title: string;
    body: string | null;
    user: FakeUser;
    pullRequest: boolean;
    state?: FakeIssue["state"];
    stateReason?: IssueStateReason;
    labels?: readonly string[];
    createdAt?: string;
  }): FakeIssue {
    const at = issue.createdAt ?? timestamp();
    const state = issue.state ?? "open";
    const added: FakeIssue = {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      user: issue.user,
      pullRequest: issue.pullRequest,
      state,
      stateReason: issue.stateReason ?? (state === "closed" ? "completed" : null),
      labels: labelNames(issue.labels ?? []),
      createdAt: at,
      updatedAt: at,
      closedAt: state === "closed" ? at : null,
      closedBy: state === "closed" ? issue.user : null,
    };
    issues.set(issue.number, added);
    return added;
  }

  /** Opens or closes an issue (or a pull's entry) as GitHub does: a close is `completed` unless
   * told otherwise, a reopen is `reopened`; the same state again changes nothing. */
  function setIssueState(
    issue: FakeIssue,
    state: FakeIssue["state"],
    reason: IssueStateReason | undefined,
    by: FakeUser,
    at: string,
  ): void {
    if (state === issue.state) return;
    issue.state = state;
    if (state === "closed") {
      issue.stateReason = reason ?? "completed";
      issue.closedAt = at;
      issue.closedBy = by;
    } else {
      issue.stateReason = "reopened";
      issue.closedAt = null;
    }
    const pull = pulls.get(issue.number);
    if (pull !== undefined) pull.state = state;
  }

  function addCommentEntry(issueNumber: number, body: string, user: FakeUser): FakeComment {
    const now = timestamp();
    const comment = {
      id: nextCommentId++,
      issueNumber,
      body,
      user,
      createdAt: now,
      updatedAt: now,
    };
    comments.push(comment);
    return comment;
  }

  function addPullEntry(pull: {
    number: number;
    title: string;
    body: string | null;
    user: FakeUser;
    head: { ref: string; repoFullName: string };
    base: { ref: string };
    draft: boolean;
  }): FakePull {
    const headSha = isOwnRepo(pull.head.repoFullName) ? branchSha(pull.head.ref) : undefined;
    addIssueEntry({
      number: pull.number,
      title: pull.title,
      body: pull.body,
      user: pull.user,
      pullRequest: true,
      state: "open",
    });
    const now = timestamp();
    const added: FakePull = {
      ...pull,
      id: nextPullId++,
      state: "open",
      head: {
        ...pull.head,
        sha:
          headSha ??
          execFileSync("git", ["hash-object", "--stdin"], {
            input: `${pull.head.repoFullName}:${pull.head.ref}`,
            encoding: "utf8",
          }).trim(),
      },
      base: { ref: pull.base.ref, sha: branchSha(pull.base.ref) ?? "" },
      createdAt: now,
      updatedAt: now,
      mergedAt: null,
    };
    pulls.set(pull.number, added);
    return added;
  }

  function setRun(id: number, run: Partial<Omit<FakeRun, "id">>): FakeRun {
    const set: FakeRun = { ...runOf(id), ...run };
    runs.set(id, set);
    return set;
  }

  function runOf(id: number): FakeRun {
    return (
      runs.get(id) ?? {
        id,
        path: FAKE_WORKFLOW_PATH,
        event: "issue_comment",
        headRepository: fullName,
        headBranch: defaultBranch,
        actor: actor.login,
        createdAt,
        attempts: [
          {
            number: 1,
            status: "completed",
            conclusion: "success",
            triggeringActor: actor.login,
            startedAt: createdAt,
            updatedAt: createdAt,
            jobs: [],
          },
        ],
      }
    );
  }

  /** The log the runner would write for these steps: a BOM, then timestamped group markers. */
  function defaultLog(steps: FakeJob["steps"]): Buffer {
    const at = new Date().toISOString().replace("Z", "0000Z");
    const lines = steps.flatMap((step) => [
      `${at} ##[group]Run ${step.name}`,
      `${at} ##[endgroup]`,
      ...(step.conclusion === "failure"
        ? [`${at} ##[error]Process completed with exit code 1.`]
        : []),
    ]);
    return Buffer.from(`\uFEFF${lines.join("\n")}\n`);
  }

  function addJob(spec: FakeJobSpec, runAttempt: number, startedAt: string): FakeJob {
    const conclusion = spec.conclusion === undefined ? "success" : spec.conclusion;
    const steps = (spec.steps ?? [{ name: "Run tests", conclusion }]).map((step, i) => ({
      name: step.name,
      number: i + 1,
      conclusion: step.conclusion === undefined ? conclusion : step.conclusion,
    }));
    const log = spec.log ?? defaultLog(steps);
    return {
      id: nextJobId++,
      name: spec.name,
      runAttempt,
      status: conclusion === null ? "in_progress" : "completed",
      conclusion,
      steps,
      log: typeof log === "string" ? Buffer.from(log) : log,
      annotations: spec.annotations ?? [],
      startedAt,
      completedAt: conclusion === null ? null : startedAt,
    };
  }

  function addRun(spec: FakeRunSpec): FakeRun {
    const id = spec.id ?? nextRunId++;
    const now = timestamp();
    const by = spec.actor ?? actor.login;
    userNamed(by);
    const attempts: FakeAttempt[] = [];
    for (const [i, attempt] of (spec.attempts ?? [{}]).entries()) {
      const startedAt = attempt.startedAt ?? now;
      const previous = attempts.at(-1)?.jobs ?? [];
      const kept = (attempt.kept ?? []).map((name) => {
        const job = previous.find((candidate) => candidate.name === name);
        if (job === undefined)
          throw new Error(`attempt ${i + 1} keeps ${name}: attempt ${i} has no such job`);
        return job;
      });
      const jobs = [...kept, ...(attempt.jobs ?? []).map((job) => addJob(job, i + 1, startedAt))];
      const status = attempt.status ?? "completed";
      const failed = jobs.some(
        (job) => job.conclusion === "failure" || job.conclusion === "timed_out",
      );
      const triggeringActor = attempt.triggeringActor ?? by;
      userNamed(triggeringActor);
      attempts.push({
        number: i + 1,
        status,
        conclusion:
          attempt.conclusion !== undefined
            ? attempt.conclusion
            : status !== "completed"
              ? null
              : failed
                ? "failure"
                : "success",
        triggeringActor,
        startedAt,
        updatedAt: attempt.updatedAt ?? startedAt,
        jobs,
      });
    }
    const run: FakeRun = {
      id,
      path: spec.path ?? FAKE_WORKFLOW_PATH,
      event: spec.event ?? "push",
      headRepository: spec.headRepository ?? fullName,
      headBranch: spec.headBranch ?? defaultBranch,
      ...(spec.headSha === undefined ? {} : { headSha: spec.headSha }),
      actor: by,
      createdAt: spec.createdAt ?? now,
      attempts,
    };
    runs.set(id, run);
    return run;
  }

  function findJob(id: number): { run: FakeRun; attempt: FakeAttempt; job: FakeJob } | undefined {
    for (const run of runs.values()) {
      for (const attempt of run.attempts) {
        const job = attempt.jobs.find((candidate) => candidate.id === id);
        if (job !== undefined) return { run, attempt, job };
      }
    }
    return undefined;
  }

  function latest(run: FakeRun): FakeAttempt {
    const attempt = run.attempts.at(-1);
    if (attempt === undefined) throw new Error(`run ${run.id} has no attempts`);
    return attempt;
  }

  // -- GitHub's JSON ------------------------------------------------------------------------

  const api = (path: string): string => `${url}${path}`;
  const repoApi = (repoFullName: string, path = ""): string => api(`/repos/${repoFullName}${path}`);

  function userJson(user: FakeUser): Record<string, unknown> {
    const self = api(`/users/${encodeURIComponent(user.login)}`);
    return {
      login: user.login,
      id: user.id,
      node_id: nodeId(user.type === "Bot" ? "BOT" : "U", user.id),
      avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
      gravatar_id: "",
      url: self,
      html_url:
        user.type === "Bot"
          ? `${HTML}/apps/${user.login.replace(/\[bot\]$/, "")}`
          : `${HTML}/${user.login}`,
      followers_url: `${self}/followers`,
      following_url: `${self}/following{/other_user}`,
      gists_url: `${self}/gists{/gist_id}`,
      starred_url: `${self}/starred{/owner}{/repo}`,
      subscriptions_url: `${self}/subscriptions`,
      organizations_url: `${self}/orgs`,
      repos_url: `${self}/repos`,
      events_url: `${self}/events{/privacy}`,
      received_events_url: `${self}/received_events`,
      type: user.type,
      user_view_type: "public",
      site_admin: false,
    };
  }

  /** Both `repository` and `full-repository` in one: the fields of either. */
  function repositoryJson(repoFullName: string): Record<string, unknown> {
    const [repoOwner = owner, name = repo] = repoFullName.split("/");
    let id = repoIds.get(repoFullName.toLowerCase());
    if (id === undefined) {
      id = REPO_ID + repoIds.size;
      repoIds.set(repoFullName.toLowerCase(), id);
    }
    const self = repoApi(repoFullName);
    return {
      id,
      node_id: nodeId("R", id),
      name,
      full_name: repoFullName,
      owner: userJson(userNamed(repoOwner)),
      private: true,
      visibility: "private",
      html_url: `${HTML}/${repoFullName}`,
      description: null,
      fork: !isOwnRepo(repoFullName),
      url: self,
      archive_url: `${self}/{archive_format}{/ref}`,
      assignees_url: `${self}/assignees{/user}`,
      blobs_url: `${self}/git/blobs{/sha}`,
      branches_url: `${self}/branches{/branch}`,
      collaborators_url: `${self}/collaborators{/collaborator}`,
      comments_url: `${self}/comments{/number}`,
      commits_url: `${self}/commits{/sha}`,
      compare_url: `${self}/compare/{base}...{head}`,
      contents_url: `${self}/contents/{+path}`,
      contributors_url: `${self}/contributors`,
      deployments_url: `${self}/deployments`,
      downloads_url: `${self}/downloads`,
      events_url: `${self}/events`,
      forks_url: `${self}/forks`,
      git_commits_url: `${self}/git/commits{/sha}`,
      git_refs_url: `${self}/git/refs{/sha}`,
      git_tags_url: `${self}/git/tags{/sha}`,
      git_url: `git:${HTML.replace(/^https:/, "")}/${repoFullName}.git`,
      issue_comment_url: `${self}/issues/comments{/number}`,
      issue_events_url: `${self}/issues/events{/number}`,
      issues_url: `${self}/issues{/number}`,
      keys_url: `${self}/keys{/key_id}`,
      labels_url: `${self}/labels{/name}`,
      languages_url: `${self}/languages`,
      merges_url: `${self}/merges`,
      milestones_url: `${self}/milestones{/number}`,
      notifications_url: `${self}/notifications{?since,all,participating}`,
      pulls_url: `${self}/pulls{/number}`,
      releases_url: `${self}/releases{/id}`,
      ssh_url: `git@github.com:${repoFullName}.git`,
      stargazers_url: `${self}/stargazers`,
      statuses_url: `${self}/statuses/{sha}`,
      subscribers_url: `${self}/subscribers`,
      subscription_url: `${self}/subscription`,
      tags_url: `${self}/tags`,
      teams_url: `${self}/teams`,
      trees_url: `${self}/git/trees{/sha}`,
      clone_url: isOwnRepo(repoFullName) ? gitUrl() : `${HTML}/${repoFullName}.git`,
      mirror_url: null,
      hooks_url: `${self}/hooks`,
      svn_url: `${HTML}/${repoFullName}`,
      homepage: null,
      language: null,
      forks_count: 0,
      forks: 0,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      size: 0,
      default_branch: defaultBranch,
      open_issues_count: [...issues.values()].filter((issue) => issue.state === "open").length,
      open_issues: [...issues.values()].filter((issue) => issue.state === "open").length,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: true,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      pushed_at: createdAt,
      created_at: createdAt,
      updated_at: createdAt,
      allow_forking: true,
      web_commit_signoff_required: false,
      license: null,
    };
  }

  function fullRepositoryJson(): Record<string, unknown> {
    return {
      ...repositoryJson(fullName),
      subscribers_count: 1,
      network_count: 0,
      temp_clone_token: "",
      allow_squash_merge: true,
      allow_merge_commit: true,
      allow_rebase_merge: true,
      allow_auto_merge: false,
      delete_branch_on_merge: false,
    };
  }

  function reactionRollup(commentId: number | undefined, self: string): Record<string, unknown> {
    const counts = Object.fromEntries(
      REACTIONS.map((content) => [
        content,
        reactions.filter((r) => r.commentId === commentId && r.content === content).length,
      ]),
    );
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return { url: `${self}/reactions`, total_count: total, ...counts };
  }

  function issueHtmlUrl(issue: FakeIssue): string {
    return `${HTML}/${fullName}/${issue.pullRequest ? "pull" : "issues"}/${issue.number}`;
  }

  /** A label (the `label` schema). */
  function labelJson(name: string): Record<string, unknown> {
    const label = labelNamed(name);
    return {
      id: label.id,
      node_id: nodeId("LA", label.id),
      url: repoApi(fullName, `/labels/${encodeURIComponent(label.name)}`),
      name: label.name,
      description: label.description,
      color: label.color,
      default: false,
    };
  }

  function issueJson(issue: FakeIssue): Record<string, unknown> {
    const self = repoApi(fullName, `/issues/${issue.number}`);
    const pull = pulls.get(issue.number);
    return {
      id: 2_500_000_000 + issue.number,
      node_id: nodeId("I", issue.number),
      url: self,
      repository_url: repoApi(fullName),
      labels_url: `${self}/labels{/name}`,
      comments_url: `${self}/comments`,
      events_url: `${self}/events`,
      html_url: issueHtmlUrl(issue),
      number: issue.number,
      state: issue.state,
      state_reason: issue.stateReason,
      title: issue.title,
      body: issue.body,
      user: userJson(issue.user),
      labels: issue.labels.map(labelJson),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      active_lock_reason: null,
      comments: comments.filter((comment) => comment.issueNumber === issue.number).length,
      ...(issue.pullRequest
        ? {
            pull_request: {
              url: repoApi(fullName, `/pulls/${issue.number}`),
              html_url: issueHtmlUrl(issue),
              diff_url: `${issueHtmlUrl(issue)}.diff`,
              patch_url: `${issueHtmlUrl(issue)}.patch`,
              merged_at: pull?.mergedAt ?? null,
            },
            draft: pull?.draft ?? false,
          }
        : {}),
      closed_at: issue.closedAt,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_by: issue.closedBy === null ? null : userJson(issue.closedBy),
      author_association: association(issue.user),
      reactions: reactionRollup(undefined, self),
      timeline_url: `${self}/timeline`,
      performed_via_github_app: null,
    };
  }

  function commentJson(comment: FakeComment): Record<string, unknown> {
    const self = repoApi(fullName, `/issues/comments/${comment.id}`);
    const issue = issues.get(comment.issueNumber);
    const issuePage = issue === undefined ? "" : issueHtmlUrl(issue);
    return {
      id: comment.id,
      node_id: nodeId("IC", comment.id),
      url: self,
      html_url: `${issuePage}#issuecomment-${comment.id}`,
      body: comment.body,
      user: userJson(comment.user),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      issue_url: repoApi(fullName, `/issues/${comment.issueNumber}`),
      author_association: association(comment.user),
      performed_via_github_app: null,
      reactions: reactionRollup(comment.id, self),
    };
  }

  function reactionJson(reaction: FakeReaction): Record<string, unknown> {
    return {
      id: reaction.id,
      node_id: nodeId("REA", reaction.id),
      user: userJson(reaction.user),
      content: reaction.content,
      created_at: reaction.createdAt,
    };
  }

  /** What `git diff` says between base and head, as GitHub reports it on a pull. */
  function pullStats(headSha: string, baseSha: string): Record<string, number> {
    const commits = Number(bareGit(["rev-list", "--count", `${baseSha}..${headSha}`]) ?? 0);
    const shortstat = bareGit(["diff", "--shortstat", `${baseSha}...${headSha}`]) ?? "";
    const count = (pattern: RegExp): number => Number(pattern.exec(shortstat)?.[1] ?? 0);
    return {
      commits,
      additions: count(/(\d+) insertion/),
      deletions: count(/(\d+) deletion/),
      changed_files: count(/(\d+) files? changed/),
    };
  }

  /** A pull in full (`simple`: the shorter form the list returns). */
  function pullJson(pull: FakePull, simple = false): Record<string, unknown> {
    const self = repoApi(fullName, `/pulls/${pull.number}`);
    const issue = repoApi(fullName, `/issues/${pull.number}`);
    const html = `${HTML}/${fullName}/pull/${pull.number}`;
    const own = isOwnRepo(pull.head.repoFullName);
    const headSha = (own ? branchSha(pull.head.ref) : undefined) ?? pull.head.sha;
    const baseSha = branchSha(pull.base.ref) ?? pull.base.sha;
    const headOwner = pull.head.repoFullName.split("/")[0] ?? owner;
    const entry = issues.get(pull.number);
    const short = {
      url: self,
      id: pull.id,
      node_id: nodeId("PR", pull.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${self}/commits`,
      review_comments_url: `${self}/comments`,
      review_comment_url: repoApi(fullName, "/pulls/comments{/number}"),
      comments_url: `${issue}/comments`,
      statuses_url: repoApi(fullName, `/statuses/${headSha}`),
      number: pull.number,
      state: pull.state,
      locked: false,
      title: pull.title,
      user: userJson(pull.user),
      body: pull.body,
      labels: (entry?.labels ?? []).map(labelJson),
      milestone: null,
      active_lock_reason: null,
      created_at: pull.createdAt,
      updated_at: pull.updatedAt,
      closed_at: entry?.closedAt ?? null,
      merged_at: pull.mergedAt,
      // A merged pull's commit, as a rebase merge leaves it.
      merge_commit_sha: pull.mergedAt === null ? null : headSha,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: {
        label: `${headOwner}:${pull.head.ref}`,
        ref: pull.head.ref,
        sha: headSha,
        user: userJson(userNamed(headOwner)),
        repo: repositoryJson(pull.head.repoFullName),
      },
      base: {
        label: `${owner}:${pull.base.ref}`,
        ref: pull.base.ref,
        sha: baseSha,
        user: userJson(userNamed(owner)),
        repo: repositoryJson(fullName),
      },
      _links: {
        self: { href: self },
        html: { href: html },
        issue: { href: issue },
        comments: { href: `${issue}/comments` },
        review_comments: { href: `${self}/comments` },
        review_comment: { href: repoApi(fullName, "/pulls/comments{/number}") },
        commits: { href: `${self}/commits` },
        statuses: { href: repoApi(fullName, `/statuses/${headSha}`) },
      },
      author_association: association(pull.user),
      auto_merge: null,
      draft: pull.draft,
    };
    if (simple) return short;
    return {
      ...short,
      merged: pull.mergedAt !== null,
      // GitHub stops computing mergeability once a pull is merged.
      mergeable: pull.mergedAt === null ? true : null,
      rebaseable: pull.mergedAt === null ? true : null,
      mergeable_state: pull.mergedAt === null ? "clean" : "unknown",
      merged_by: pull.mergedAt === null ? null : userJson(userNamed(owner)),
      comments: comments.filter((comment) => comment.issueNumber === pull.number).length,
      review_comments: 0,
      maintainer_can_modify: false,
      ...pullStats(headSha, baseSha),
    };
  }

  function artifactJson(artifact: FakeArtifact): Record<string, unknown> {
    const self = repoApi(fullName, `/actions/artifacts/${artifact.id}`);
    return {
      id: artifact.id,
      node_id: nodeId("AR", artifact.id),
      name: artifact.name,
      size_in_bytes: artifact.content.length,
      url: self,
      archive_download_url: `${self}/zip`,
      expired: artifacts.isExpired(artifact),
      created_at: artifact.createdAt,
      expires_at: artifact.expiresAt,
      updated_at: artifact.updatedAt,
      digest: artifact.digest,
      workflow_run: {
        id: artifact.runId,
        repository_id: REPO_ID,
        head_repository_id: repositoryJson(runOf(artifact.runId).headRepository).id,
        head_branch: runOf(artifact.runId).headBranch,
        head_sha: runHeadSha(runOf(artifact.runId)),
      },
    };
  }

  /** The run's head commit: the branch's in this repository, a made-up one in a fork. */
  function runHeadSha(run: FakeRun): string {
    if (run.headSha !== undefined) return run.headSha;
    const own = isOwnRepo(run.headRepository) ? branchSha(run.headBranch) : undefined;
    return (
      own ??
      execFileSync("git", ["hash-object", "--stdin"], {
        input: `${run.headRepository}:${run.headBranch}`,
        encoding: "utf8",
      }).trim()
    );
  }

  /** GitHub's numeric id of the workflow a file defines (made up, stable per path). */
  function workflowIdOf(path: string): number {
    return 161_335 + [...path].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  }

  function workflowNameOf(run: FakeRun): string {
    return (
      run.path
        .split("/")
        .at(-1)
        ?.replace(/\.ya?ml$/, "") ?? run.path
    );
  }

  /**
   * A workflow run as `GET /actions/runs/{id}` answers (the `workflow-run` schema): as `attempt`
   * saw it, by default the latest.
   */
  function runJson(run: FakeRun, attempt = latest(run)): Record<string, unknown> {
    const self = repoApi(fullName, `/actions/runs/${run.id}`);
    const headSha = runHeadSha(run);
    const head = repositoryJson(run.headRepository);
    const workflowId = workflowIdOf(run.path);
    const checkSuite = 414_944_374 + run.id;
    const committer = { name: "Monalisa Octocat", email: "octocat@github.com" };
    const message = bareGit(["show", "-s", "--format=%B", `${headSha}^{commit}`]);
    return {
      id: run.id,
      name: workflowNameOf(run),
      node_id: nodeId("WFR", run.id),
      check_suite_id: checkSuite,
      check_suite_node_id: nodeId("CS", checkSuite),
      head_branch: run.headBranch,
      head_sha: headSha,
      path: run.path,
      run_number: run.id % 10_000,
      run_attempt: attempt.number,
      referenced_workflows: [],
      event: run.event,
      status: attempt.status,
      conclusion: attempt.conclusion,
      workflow_id: workflowId,
      url: self,
      html_url: `${HTML}/${fullName}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: run.createdAt,
      updated_at: attempt.updatedAt,
      actor: userJson(userNamed(run.actor)),
      triggering_actor: userJson(userNamed(attempt.triggeringActor)),
      run_started_at: attempt.startedAt,
      jobs_url: `${self}/jobs`,
      logs_url: `${self}/logs`,
      check_suite_url: repoApi(fullName, `/check-suites/${checkSuite}`),
      artifacts_url: `${self}/artifacts`,
      cancel_url: `${self}/cancel`,
      rerun_url: `${self}/rerun`,
      previous_attempt_url: attempt.number > 1 ? `${self}/attempts/${attempt.number - 1}` : null,
      workflow_url: repoApi(fullName, `/actions/workflows/${workflowId}`),
      head_commit: {
        id: headSha,
        tree_id: execFileSync("git", ["hash-object", "--stdin"], {
          input: `tree of ${headSha}`,
          encoding: "utf8",
        }).trim(),
        message: message ?? "Update",
        timestamp: run.createdAt,
        author: committer,
        committer,
      },
      repository: repositoryJson(fullName),
      head_repository: head,
      head_repository_id: head.id,
      display_title: (message ?? "pitcrew").split("\n")[0],
    };
  }

  /** A job as the jobs routes list it (the `job` schema). */
  function jobJson(run: FakeRun, job: FakeJob): Record<string, unknown> {
    const runUrl = repoApi(fullName, `/actions/runs/${run.id}`);
    return {
      id: job.id,
      run_id: run.id,
      run_url: runUrl,
      run_attempt: job.runAttempt,
      node_id: nodeId("CR", job.id),
      head_sha: runHeadSha(run),
      url: repoApi(fullName, `/actions/jobs/${job.id}`),
      html_url: `${HTML}/${fullName}/actions/runs/${run.id}/job/${job.id}`,
      status: job.status,
      conclusion: job.conclusion,
      created_at: job.startedAt,
      started_at: job.startedAt,
      completed_at: job.completedAt,
      name: job.name,
      steps: job.steps.map((step) => ({
        name: step.name,
        status: step.conclusion === null ? "queued" : "completed",
        conclusion: step.conclusion,
        number: step.number,
        started_at: job.startedAt,
        completed_at: step.conclusion === null ? null : job.completedAt,
      })),
      check_run_url: repoApi(fullName, `/check-runs/${job.id}`),
      labels: ["ubuntu-latest"],
      runner_id: 1,
      runner_name: "GitHub Actions 1",
      runner_group_id: 2,
      runner_group_name: "GitHub Actions",
      workflow_name: workflowNameOf(run),
      head_branch: run.headBranch,
    };
  }

  /** An annotation of a check run (the `check-annotation` schema). */
  function annotationJson(run: FakeRun, annotation: FakeAnnotation): Record<string, unknown> {
    return {
      path: annotation.path,
      blob_href: `${HTML}/${fullName}/blob/${runHeadSha(run)}/${annotation.path}`,
      start_line: annotation.startLine,
      end_line: annotation.endLine ?? annotation.startLine,
      start_column: null,
      end_column: null,
      annotation_level: annotation.level,
      title: annotation.title ?? null,
      message: annotation.message,
      raw_details: annotation.rawDetails ?? null,
    };
  }

  // -- git's view: commits, comparisons, contents -------------------------------------------

  interface GitCommit {
    sha: string;
    tree: string;
    parents: string[];
    author: { name: string; email: string; date: string };
    committer: { name: string; email: string; date: string };
    message: string;
  }

  const COMMIT_FORMAT = "%H%x1f%T%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%ce%x1f%cI%x1f%B%x1e";

  /** The commits `git log` lists for these arguments, parsed. */
  function gitCommits(args: string[]): GitCommit[] {
    const out = bareGit(["log", `--format=${COMMIT_FORMAT}`, ...args]) ?? "";
    const iso = (date: string) => new Date(date).toISOString().replace(/\.\d{3}Z$/, "Z");
    return out
      .split("\x1e")
      .map((record) => record.replace(/^\n/, ""))
      .filter((record) => record !== "")
      .map((record) => {
        const [sha = "", tree = "", parents = "", ...rest] = record.split("\x1f");
        const [an = "", ae = "", ad = "", cn = "", ce = "", cd = "", message = ""] = rest;
        return {
          sha,
          tree,
          parents: parents === "" ? [] : parents.split(" "),
          author: { name: an, email: ae, date: iso(ad) },
          committer: { name: cn, email: ce, date: iso(cd) },
          message: message.replace(/\n+$/, ""),
        };
      });
  }

  /** The account a commit's email names: GitHub's noreply form only (`id+login@users…`). */
  function accountOf(email: string): Record<string, unknown> | null {
    const login = /^(?:\d+\+)?([^@]+)@users\.noreply\.github\.com$/i.exec(email)?.[1];
    return login === undefined ? null : userJson(userNamed(login));
  }

  /** A commit (the `commit` schema, without `stats` and `files`). */
  function commitJson(commit: GitCommit): Record<string, unknown> {
    const self = repoApi(fullName, `/commits/${commit.sha}`);
    return {
      url: self,
      sha: commit.sha,
      node_id: `C_${Buffer.from(commit.sha).toString("base64url")}`,
      html_url: `${HTML}/${fullName}/commit/${commit.sha}`,
      comments_url: `${self}/comments`,
      commit: {
        url: repoApi(fullName, `/git/commits/${commit.sha}`),
        author: commit.author,
        committer: commit.committer,
        message: commit.message,
        comment_count: 0,
        tree: { sha: commit.tree, url: repoApi(fullName, `/git/trees/${commit.tree}`) },
        verification: {
          verified: false,
          reason: "unsigned",
          payload: null,
          signature: null,
          verified_at: null,
        },
      },
      author: accountOf(commit.author.email),
      committer: accountOf(commit.committer.email),
      parents: commit.parents.map((parent) => ({
        sha: parent,
        url: repoApi(fullName, `/commits/${parent}`),
        html_url: `${HTML}/${fullName}/commit/${parent}`,
      })),
    };
  }

  const DIFF_STATUS: Record<string, string> = {
    A: "added",
    D: "removed",
    M: "modified",
    R: "renamed",
    C: "copied",
    T: "changed",
  };

  /** The files `base..head` changes (the `diff-entry` schema, without patches), at most `max`. */
  function diffEntries(base: string, head: string, max: number): Record<string, unknown>[] {
    const raw = (bareGit(["diff", "--raw", "--no-abbrev", "-z", "-M", base, head]) ?? "").split(
      "\0",
    );
    const counts = (bareGit(["diff", "--numstat", "-z", "-M", base, head]) ?? "").split("\0");
    const numbers = new Map<string, [number, number]>();
    for (let i = 0; i < counts.length; i++) {
      const [added = "0", deleted = "0", path = ""] = (counts[i] ?? "").split("\t");
      // A rename's numstat leaves the path empty and names both after it.
      const key = path === "" ? (counts[(i += 2)] ?? "") : path;
      numbers.set(key, [Number(added) || 0, Number(deleted) || 0]);
    }
    const entries: Record<string, unknown>[] = [];
    for (let i = 0; i < raw.length && entries.length < max; i++) {
      const header = raw[i] ?? "";
      if (!header.startsWith(":")) continue;
      const [, , , newSha = "", status = ""] = header.slice(1).split(" ");
      const letter = status.charAt(0);
      const renamed = letter === "R" || letter === "C";
      const previous = renamed ? (raw[++i] ?? "") : undefined;
      const filename = raw[++i] ?? "";
      const [additions, deletions] = numbers.get(filename) ?? [0, 0];
      entries.push({
        sha: newSha,
        filename,
        status: DIFF_STATUS[letter] ?? "changed",
        additions,
        deletions,
        changes: additions + deletions,
        blob_url: `${HTML}/${fullName}/blob/${head}/${filename}`,
        raw_url: `${HTML}/${fullName}/raw/${head}/${filename}`,
        contents_url: repoApi(fullName, `/contents/${filename}?ref=${head}`),
        ...(previous === undefined ? {} : { previous_filename: previous }),
      });
    }
    return entries;
  }

  /** `GET /compare/{base}...{head}` over the bare repository (the `commit-comparison` schema). */
  function compareAnswer(basehead: string, call: Call): Answer {
    const [baseRef = "", headRef = ""] = basehead.split("...");
    const resolve = (ref: string) =>
      ref === "" ? undefined : bareGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    const base = resolve(baseRef);
    const head = resolve(headRef);
    if (!basehead.includes("...") || base === undefined || head === undefined) {
      return notFound(docs.compare);
    }
    const mergeBase = bareGit(["merge-base", base, head]) ?? base;
    const ahead = Number(bareGit(["rev-list", "--count", `${base}..${head}`]) ?? 0);
    const behind = Number(bareGit(["rev-list", "--count", `${head}..${base}`]) ?? 0);
    const status =
      ahead === 0 && behind === 0
        ? "identical"
        : behind === 0
          ? "ahead"
          : ahead === 0
            ? "behind"
            : "diverged";
    const all = gitCommits(["--reverse", `${base}..${head}`]);
    // Unpaged, GitHub lists the first 250 commits; paged, the changed files are on page 1 only.
    const paged = call.query.has("page") || call.query.has("per_page");
    const page = Math.max(Number(call.query.get("page") ?? 1) || 1, 1);
    const { items, headers } = paged
      ? paginate(all, call)
      : { items: all.slice(0, 250), headers: {} };
    const [baseCommit] = gitCommits(["-1", base]);
    const [mergeBaseCommit] = gitCommits(["-1", mergeBase]);
    const html = `${HTML}/${fullName}/compare/${basehead}`;
    return {
      status: 200,
      headers,
      body: {
        url: repoApi(fullName, `/compare/${basehead}`),
        html_url: html,
        permalink_url: `${HTML}/${fullName}/compare/${owner}:${base}...${owner}:${head}`,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        base_commit: baseCommit === undefined ? null : commitJson(baseCommit),
        merge_base_commit: mergeBaseCommit === undefined ? null : commitJson(mergeBaseCommit),
        status,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        commits: items.map(commitJson),
        ...(page === 1 ? { files: diffEntries(mergeBase, head, 300) } : {}),
      },
    };
  }

  /** `GET /commits/{ref}`: one commit with the files it changed against its first parent. */
  function commitAnswer(ref: string): Answer {
    const sha = bareGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    const [commit] = sha === undefined ? [] : gitCommits(["-1", sha]);
    if (sha === undefined || commit === undefined) return notFound(docs.commit);
    const parent = bareGit(["rev-parse", "--verify", "--quiet", `${sha}^`]);
    // A root commit's files are against the empty tree.
    const base = parent ?? "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    const files = diffEntries(base, sha, 300);
    const sum = (field: string) =>
      files.reduce((total, file) => total + Number(file[field] ?? 0), 0);
    return {
      status: 200,
      body: {
        ...commitJson(commit),
        stats: { additions: sum("additions"), deletions: sum("deletions"), total: sum("changes") },
        files,
      },
    };
  }

  /** `GET /contents/{path}?ref=`: a file (base64, wrapped as GitHub wraps it) or a folder. */
  function contentsAnswer(path: string, call: Call): Answer {
    const ref = call.query.get("ref") ?? defaultBranch;
    const commit = bareGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    if (commit === undefined) {
      return githubError(404, `No commit found for the ref ${ref}`, docs.contents);
    }
    const clean = path.replace(/\/+$/, "");
    const entry = (type: string, sha: string, size: string, name: string) => {
      const self = repoApi(fullName, `/contents/${name}?ref=${ref}`);
      const git = repoApi(fullName, `/git/${type === "tree" ? "trees" : "blobs"}/${sha}`);
      const html = `${HTML}/${fullName}/${type === "tree" ? "tree" : "blob"}/${ref}/${name}`;
      return {
        type: type === "tree" ? "dir" : "file",
        size: Number(size) || 0,
        name: name.split("/").at(-1) ?? name,
        path: name,
        sha,
        url: self,
        git_url: git,
        html_url: html,
        download_url:
          type === "tree" ? null : `https://raw.githubusercontent.com/${fullName}/${ref}/${name}`,
        _links: { self, git, html },
      };
    };
    const listing = (target: string) =>
      (bareGit(["ls-tree", "-z", "--long", commit, "--", target]) ?? "")
        .split("\0")
        .filter((line) => line !== "")
        .map((line) => {
          const [meta = "", name = ""] = line.split("\t");
          const [, type = "", sha = "", size = ""] = meta.split(/\s+/);
          return entry(type, sha, size, name);
        });
    const [found] = listing(clean);
    if (found === undefined || found.path !== clean) return notFound(docs.contents);
    if (found.type === "dir") return { status: 200, body: listing(`${clean}/`) };
    const bytes = execFileSync("git", [
      "--git-dir",
      options.bareRepo,
      "cat-file",
      "blob",
      found.sha,
    ]);
    const content = (bytes.toString("base64").match(/.{1,60}/g) ?? []).join("\n");
    return {
      status: 200,
      body: { ...found, type: "file", encoding: "base64", content: `${content}\n` },
    };
  }

  // -- git's objects: the Git Data API -------------------------------------------------------
  // Blobs, trees, commits and refs of the bare repository, made and read with git's plumbing. This
  // git runs without blocking the server, so that two clients' requests interleave as they do on
  // GitHub; a ref moves only by `update-ref <ref> <new> <old>`, a real compare-and-swap.

  const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
  const TREE_MODES = new Set(["100644", "100755", "040000", "160000", "120000"]);
  /** How often a ref's compare-and-swap is tried again while another request holds the ref. */
  const SWAP_TRIES = 10;
  /** The caller's environment without its GIT_* (a test run from a hook has GIT_DIR, …). */
  const gitEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith("GIT_"),
    ),
  );

  interface GitRun {
    code: number;
    stdout: Buffer;
    stderr: string;
  }

  /** git on the bare repository without blocking the server; it never throws, the exit code
   * says. */
  function bareGitLater(
    args: string[],
    extra: { input?: Buffer | string; env?: Record<string, string> } = {},
  ): Promise<GitRun> {
    return new Promise((resolve) => {
      const child = spawn("git", ["--git-dir", options.bareRepo, ...args], {
        env: { ...gitEnv, GIT_CONFIG_NOSYSTEM: "1", ...extra.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
      child.stdin.on("error", () => undefined);
      child.on("error", (error) =>
        resolve({ code: -1, stdout: Buffer.alloc(0), stderr: String(error) }),
      );
      child.on("close", (code) =>
        resolve({
          code: code ?? -1,
          stdout: Buffer.concat(stdout),
          stderr: Buffer.concat(stderr).toString("utf8"),
        }),
      );
      child.stdin.end(extra.input ?? "");
    });
  }

  /** git's output, trimmed; undefined when it fails. */
  async function bareGitTextLater(
    args: string[],
    extra?: { input?: Buffer | string; env?: Record<string, string> },
  ): Promise<string | undefined> {
    const run = await bareGitLater(args, extra);
    return run.code === 0 ? run.stdout.toString("utf8").trim() : undefined;
  }

  /** `commit`, `tree`, `blob` or `tag` for a full object id the repository holds. */
  async function objectType(sha: unknown): Promise<string | undefined> {
    if (typeof sha !== "string" || !FULL_SHA.test(sha)) return undefined;
    return bareGitTextLater(["cat-file", "-t", sha]);
  }

  /** What `refs/<ref>` points at, that ref exactly (a folder of refs is none). */
  function readRef(ref: string): Promise<string | undefined> {
    return bareGitTextLater(["show-ref", "--verify", "--hash", `refs/${ref}`]);
  }

  const gitObjectUrl = (type: string, sha: string): string =>
    repoApi(fullName, `/git/${type}s/${sha}`);

  /** A ref (the `git-ref` schema); `ref` without `refs/`. */
  function gitRefJson(ref: string, sha: string, type: string): Record<string, unknown> {
    return {
      ref: `refs/${ref}`,
      node_id: `REF_${Buffer.from(`refs/${ref}`).toString("base64url")}`,
      url: repoApi(fullName, `/git/refs/${ref}`),
      object: { type, sha, url: gitObjectUrl(type, sha) },
    };
  }

  /** `author Name <email> 1700000000 +0200`'s person, dated in UTC as GitHub answers. */
  function gitIdentity(line: string): GitCommit["author"] {
    const [, name = "", email = "", seconds = "0"] =
      /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(line) ?? [];
    const date = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    return { name, email, date };
  }

  /** A commit object read with `cat-file`: its message exactly, less trailing newlines. */
  async function readCommit(sha: string): Promise<GitCommit | undefined> {
    if ((await objectType(sha)) !== "commit") return undefined;
    const run = await bareGitLater(["cat-file", "commit", sha]);
    if (run.code !== 0) return undefined;
    const text = run.stdout.toString("utf8");
    const end = text.indexOf("\n\n");
    const commit: GitCommit = {
      sha,
      tree: "",
      parents: [],
      author: gitIdentity(""),
      committer: gitIdentity(""),
      message: (end === -1 ? "" : text.slice(end + 2)).replace(/\n+$/, ""),
    };
    for (const line of (end === -1 ? text : text.slice(0, end)).split("\n")) {
      const space = line.indexOf(" ");
      const [field, value] = [line.slice(0, space), line.slice(space + 1)];
      if (field === "tree") commit.tree = value;
      else if (field === "parent") commit.parents.push(value);
      else if (field === "author") commit.author = gitIdentity(value);
      else if (field === "committer") commit.committer = gitIdentity(value);
    }
    return commit;
  }

  /** A commit as the Git Data API shows it (the `git-commit` schema). */
  function gitCommitJson(commit: GitCommit): Record<string, unknown> {
    const html = (sha: string) => `${HTML}/${fullName}/commit/${sha}`;
    return {
      sha: commit.sha,
      node_id: `C_${Buffer.from(commit.sha).toString("base64url")}`,
      url: gitObjectUrl("commit", commit.sha),
      html_url: html(commit.sha),
      author: commit.author,
      committer: commit.committer,
      tree: { sha: commit.tree, url: gitObjectUrl("tree", commit.tree) },
      message: commit.message,
      parents: commit.parents.map((sha) => ({
        sha,
        url: gitObjectUrl("commit", sha),
        html_url: html(sha),
      })),
      verification: {
        verified: false,
        reason: "unsigned",
        signature: null,
        payload: null,
        verified_at: null,
      },
    };
  }

  interface GitTreeEntry {
    path: string;
    mode: string;
    type: string;
    sha: string;
    /** Blobs only. */
    size?: number;
  }

  /** A tree's entries (`recursive`: its subtrees' too, subtrees listed), as `ls-tree` orders them. */
  async function listTree(sha: string, recursive: boolean): Promise<GitTreeEntry[] | undefined> {
    const run = await bareGitLater([
      "ls-tree",
      "-z",
      "-l",
      ...(recursive ? ["-r", "-t"] : []),
      sha,
    ]);
    if (run.code !== 0) return undefined;
    return run.stdout
      .toString("utf8")
      .split("\0")
      .filter((line) => line !== "")
      .map((line) => {
        const tab = line.indexOf("\t");
        const [mode = "", type = "", object = "", size = "-"] = line.slice(0, tab).split(/ +/);
        const path = line.slice(tab + 1);
        return {
          path,
          mode,
          type,
          sha: object,
          ...(type === "blob" ? { size: Number(size) } : {}),
        };
      });
  }

  /** An entry of the `git-tree` schema (a submodule's commit has no API url). */
  function treeEntryJson(entry: GitTreeEntry): Record<string, unknown> {
    return entry.type === "commit"
      ? { ...entry }
      : { ...entry, url: gitObjectUrl(entry.type, entry.sha) };
  }

  async function gitTreeJson(sha: string, recursive: boolean): Promise<Record<string, unknown>> {
    const entries = (await listTree(sha, recursive)) ?? [];
    const truncated = recursive && entries.length > treeLimit;
    return {
      sha,
      url: gitObjectUrl("tree", sha),
      tree: (truncated ? entries.slice(0, treeLimit) : entries).map(treeEntryJson),
      truncated,
    };
  }

  /** GitHub's 422 for a request it cannot take: a field missing or malformed, an object or a ref
   * that is not there, a ref update it refuses. */
  const unprocessable = (message: string, docsUrl: string): Answer =>
    githubError(422, message, docsUrl);

  const notSupplied = (field: string, docsUrl: string): Answer =>
    unprocessable(`Invalid request.\n\n"${field}" wasn't supplied.`, docsUrl);

  async function createBlobAnswer(body: Record<string, unknown>): Promise<Answer> {
    const content = stringField(body, "content");
    if (content === undefined) return notSupplied("content", docs.createBlob);
    const encoding = body.encoding ?? "utf-8";
    if (encoding !== "utf-8" && encoding !== "base64") {
      return unprocessable(
        `Invalid request.\n\n${JSON.stringify(encoding)} is not a valid encoding (utf-8, base64).`,
        docs.createBlob,
      );
    }
    const bytes = Buffer.from(content, encoding === "base64" ? "base64" : "utf8");
    const sha = await bareGitTextLater(["hash-object", "-w", "--stdin"], { input: bytes });
    if (sha === undefined) throw new Error("git hash-object failed in the fake's bare repository");
    const self = gitObjectUrl("blob", sha);
    return { status: 201, body: { url: self, sha }, headers: { location: self } };
  }

  async function blobAnswer(sha: string): Promise<Answer> {
    if ((await objectType(sha)) !== "blob") return notFound(docs.gitBlob);
    const { stdout: bytes } = await bareGitLater(["cat-file", "blob", sha]);
    // Wrapped as GitHub wraps it: 60 characters a line.
    const lines = bytes.toString("base64").match(/.{1,60}/g) ?? [];
    return {
      status: 200,
      body: {
        sha,
        node_id: `B_${Buffer.from(sha).toString("base64url")}`,
        size: bytes.length,
        url: gitObjectUrl("blob", sha),
        content: lines.map((line) => `${line}\n`).join(""),
        encoding: "base64",
      },
    };
  }

  /** Why a path cannot name a tree entry, or undefined when it can. */
  function badTreePath(path: string): string | undefined {
    const parts = path.split("/");
    if (path === "" || parts.some((part) => part === "" || part === "." || part === "..")) {
      return `tree.path ${JSON.stringify(path)} contains a malformed path component`;
    }
    if (parts.some((part) => part.toLowerCase() === ".git") || /[\0\n]/.test(path)) {
      return `tree.path ${JSON.stringify(path)} is not allowed`;
    }
    return undefined;
  }

  /** A temporary index, removed after `work`, so that a tree is built the way git builds one. */
  async function withIndex<T>(work: (env: Record<string, string>) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), "fake-github-index-"));
    try {
      return await work({ GIT_INDEX_FILE: join(dir, "index") });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * `POST /git/trees`: `base_tree`'s files (or none) with the entries made: a blob by `sha` or by
   * `content`, a subtree by `sha` (it replaces what was at its path), a submodule's commit, and a
   * null `sha` deleting a file or a folder. Deletions are made first.
   */
  async function createTreeAnswer(body: Record<string, unknown>): Promise<Answer> {
    const entries: unknown = body.tree;
    const base: unknown = body.base_tree;
    if (!Array.isArray(entries)) return notSupplied("tree", docs.createTree);
    if (base !== undefined && (await objectType(base)) !== "tree") {
      return unprocessable(
        `base_tree ${JSON.stringify(base)} is not a valid tree`,
        docs.createTree,
      );
    }
    const deleted: string[] = [];
    const added: { mode: string; sha: string; path: string }[] = [];
    const subtrees: { path: string; sha: string }[] = [];
    for (const entry of entries as unknown[]) {
      const { path, mode, type, sha, content } = (entry ?? {}) as Record<string, unknown>;
      if (typeof path !== "string") return notSupplied("path", docs.createTree);
      const bad = badTreePath(path);
      if (bad !== undefined) return unprocessable(bad, docs.createTree);
      if (typeof mode !== "string" || !TREE_MODES.has(mode)) {
        return unprocessable(
          `tree.mode ${JSON.stringify(mode)} is not a valid mode`,
          docs.createTree,
        );
      }
      const kind = mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
      if (type !== kind) {
        return unprocessable(
          `tree.type ${JSON.stringify(type)} does not fit mode ${mode}`,
          docs.createTree,
        );
      }
      if (sha !== undefined && content !== undefined) {
        return unprocessable("tree.sha and tree.content cannot both be given", docs.createTree);
      }
      if (sha === null) {
        deleted.push(path);
      } else if (typeof content === "string" && kind === "blob") {
        const made = await bareGitTextLater(["hash-object", "-w", "--stdin"], { input: content });
        if (made === undefined)
          throw new Error("git hash-object failed in the fake's bare repository");
        added.push({ mode, sha: made, path });
      } else if (typeof sha !== "string" || !FULL_SHA.test(sha)) {
        return unprocessable(
          `tree.sha ${JSON.stringify(sha)} is not a valid object id`,
          docs.createTree,
        );
      } else if (kind !== "commit" && (await objectType(sha)) !== kind) {
        return unprocessable(`tree.sha ${sha} is not a valid ${kind}`, docs.createTree);
      } else if (kind === "tree") {
        subtrees.push({ path, sha });
      } else {
        added.push({ mode, sha, path });
      }
    }
    return withIndex(async (env) => {
      const read = await bareGitLater(
        typeof base === "string" ? ["read-tree", base] : ["read-tree", "--empty"],
        { env },
      );
      if (read.code !== 0) throw new Error(`git read-tree failed: ${read.stderr}`);
      const listed = await bareGitLater(["ls-files", "-z"], { env });
      const present = listed.stdout
        .toString("utf8")
        .split("\0")
        .filter((path) => path !== "");
      const zero = "0".repeat(40);
      const within = (path: string) =>
        present.filter((p) => p === path || p.startsWith(`${path}/`));
      const lines = [...deleted, ...subtrees.map((subtree) => subtree.path)]
        .flatMap(within)
        .map((path) => `0 ${zero}\t${path}`);
      for (const subtree of subtrees) {
        for (const entry of (await listTree(subtree.sha, true)) ?? []) {
          if (entry.type !== "tree")
            lines.push(`${entry.mode} ${entry.sha}\t${subtree.path}/${entry.path}`);
        }
      }
      lines.push(...added.map((entry) => `${entry.mode} ${entry.sha}\t${entry.path}`));
      const update = await bareGitLater(["update-index", "-z", "--index-info"], {
        env,
        input: lines.map((line) => `${line}\0`).join(""),
      });
      if (update.code !== 0) throw new Error(`git update-index failed: ${update.stderr}`);
      const sha = await bareGitTextLater(["write-tree"], { env });
      if (sha === undefined) throw new Error("git write-tree failed in the fake's bare repository");
      const self = gitObjectUrl("tree", sha);
      return { status: 201, body: await gitTreeJson(sha, false), headers: { location: self } };
    });
  }

  /** `author` or `committer` of a commit's create: a name and an email, and a date maybe. */
  function identityField(
    value: unknown,
  ): { name: string; email: string; date?: string } | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const { name, email, date } = value as Record<string, unknown>;
    if (typeof name !== "string" || typeof email !== "string") return undefined;
    return { name, email, ...(typeof date === "string" ? { date } : {}) };
  }

  /**
   * `POST /git/commits`: `git commit-tree`, the message exactly as given. Without `author` the
   * token's account is the author, GitHub's noreply address its email; without `committer`, the
   * author commits.
   */
  async function createCommitAnswer(body: Record<string, unknown>): Promise<Answer> {
    const message = stringField(body, "message");
    const tree = stringField(body, "tree");
    const parents: unknown = body.parents ?? [];
    if (message === undefined) return notSupplied("message", docs.createCommit);
    if (tree === undefined) return notSupplied("tree", docs.createCommit);
    if (!Array.isArray(parents)) {
      return unprocessable("Invalid request.\n\nparents is not an array.", docs.createCommit);
    }
    if ((await objectType(tree)) !== "tree")
      return unprocessable("Tree SHA does not exist", docs.createCommit);
    for (const parent of parents as unknown[]) {
      if ((await objectType(parent)) !== "commit") {
        return unprocessable(
          "Parent SHA does not exist or is not a commit object",
          docs.createCommit,
        );
      }
    }
    const author = identityField(body.author) ?? {
      name: actor.login,
      email: `${actor.id}+${actor.login}@users.noreply.github.com`,
    };
    const committer = identityField(body.committer) ?? author;
    const env: Record<string, string> = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      ...(author.date === undefined ? {} : { GIT_AUTHOR_DATE: author.date }),
      ...(committer.date === undefined ? {} : { GIT_COMMITTER_DATE: committer.date }),
    };
    const parentArgs = (parents as string[]).flatMap((parent) => ["-p", parent]);
    const sha = await bareGitTextLater(["commit-tree", "--no-gpg-sign", tree, ...parentArgs], {
      input: message,
      env,
    });
    const commit = sha === undefined ? undefined : await readCommit(sha);
    if (commit === undefined)
      throw new Error("git commit-tree failed in the fake's bare repository");
    return {
      status: 201,
      body: gitCommitJson(commit),
      headers: { location: gitObjectUrl("commit", commit.sha) },
    };
  }

  /** `POST /git/refs`: made only where there is no such ref, atomically (`update-ref` with a zero
   * old value). */
  async function createRefAnswer(body: Record<string, unknown>): Promise<Answer> {
    const ref = stringField(body, "ref");
    const sha = stringField(body, "sha");
    if (ref === undefined) return notSupplied("ref", docs.createRef);
    if (sha === undefined) return notSupplied("sha", docs.createRef);
    if (
      !/^refs\/[^/]+\/./.test(ref) ||
      (await bareGitLater(["check-ref-format", ref])).code !== 0
    ) {
      return unprocessable(`${ref} is not a valid ref name.`, docs.createRef);
    }
    const type = await objectType(sha);
    if (type === undefined) return unprocessable("Object does not exist", docs.createRef);
    const name = ref.slice("refs/".length);
    for (let tries = 0; tries < SWAP_TRIES; tries++) {
      const made = await bareGitLater(["update-ref", ref, sha, "0".repeat(sha.length)]);
      if (made.code === 0) {
        const body = gitRefJson(name, sha, type);
        return { status: 201, body, headers: { location: repoApi(fullName, `/git/refs/${name}`) } };
      }
      if ((await readRef(name)) !== undefined) {
        return unprocessable("Reference already exists", docs.createRef);
      }
      await sleep(5);
    }
    return unprocessable("Reference update failed", docs.createRef);
  }

  /**
   * `PATCH /git/refs/{ref}`: without `force`, only to a commit the ref's commit is an ancestor of
   * (`merge-base --is-ancestor`); either way by `update-ref <ref> <new> <old>`, so that a ref
   * another request moved after the check is read again, never overwritten.
   */
  async function updateRefAnswer(ref: string, body: Record<string, unknown>): Promise<Answer> {
    const sha = stringField(body, "sha");
    const force = body.force === true;
    if (sha === undefined) return notSupplied("sha", docs.updateRef);
    const type = await objectType(sha);
    if (type === undefined) return unprocessable("Object does not exist", docs.updateRef);
    for (let tries = 0; tries < SWAP_TRIES; tries++) {
      const current = await readRef(ref);
      if (current === undefined) return unprocessable("Reference does not exist", docs.updateRef);
      if (!force && current !== sha) {
        const ancestor = await bareGitLater(["merge-base", "--is-ancestor", current, sha]);
        if (ancestor.code !== 0)
          return unprocessable("Update is not a fast forward", docs.updateRef);
      }
      const moved = await bareGitLater(["update-ref", `refs/${ref}`, sha, current]);
      if (moved.code === 0) return { status: 200, body: gitRefJson(ref, sha, type) };
      await sleep(5);
    }
    return unprocessable("Reference update failed", docs.updateRef);
  }

  /** A list of artifacts as GitHub pages it: `{ total_count, artifacts }`. */
  function artifactList(matching: FakeArtifact[], call: Call): Answer {
    const { items, headers } = paginate(matching, call);
    return {
      status: 200,
      body: { total_count: matching.length, artifacts: items.map(artifactJson) },
      headers,
    };
  }

  /** Newest first, as GitHub lists them (ids break a tie within a second). */
  function newestFirst(a: FakeArtifact, b: FakeArtifact): number {
    return b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
  }

  function findArtifact(call: Call): FakeArtifact | undefined {
    const artifact = artifacts.find(Number(call.params.artifact_id));
    return artifact?.finalized === true ? artifact : undefined;
  }

  // -- routes -------------------------------------------------------------------------------

  function bodyTooLong(resource: string, body: string | undefined): Record<string, unknown>[] {
    if (body === undefined || body.length <= MAX_BODY) return [];
    return [
      {
        resource,
        code: "unprocessable",
        field: "data",
        message: `Body is too long (maximum is ${MAX_BODY} characters)`,
      },
    ];
  }

  function permissionJson(user: FakeUser): Record<string, unknown> {
    const role = permissions.get(user.login.toLowerCase()) ?? "none";
    const permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
    const at = (level: Permission): boolean =>
      ["none", "read", "triage", "write", "maintain", "admin"].indexOf(role) >=
      ["none", "read", "triage", "write", "maintain", "admin"].indexOf(level);
    return {
      permission,
      role_name: role,
      user: {
        ...userJson(user),
        permissions: {
          admin: at("admin"),
          maintain: at("maintain"),
          push: at("write"),
          triage: at("triage"),
          pull: at("read"),
        },
        role_name: role,
      },
    };
  }

  function findIssue(call: Call): FakeIssue | undefined {
    return issues.get(Number(call.params.issue_number));
  }

  function findComment(call: Call): FakeComment | undefined {
    return comments.find((comment) => comment.id === Number(call.params.comment_id));
  }

  /** `head` as GitHub takes it on create: `branch` or `owner:branch`. */
  function parseHead(head: string): { ref: string; repoFullName: string } {
    const colon = head.indexOf(":");
    if (colon === -1) return { ref: head, repoFullName: fullName };
    return { ref: head.slice(colon + 1), repoFullName: `${head.slice(0, colon)}/${repo}` };
  }

  const docs = {
    repo: `${DOCS}/repos/repos#get-a-repository`,
    permission: `${DOCS}/collaborators/collaborators#get-repository-permissions-for-a-user`,
    issue: `${DOCS}/issues/issues#get-an-issue`,
    listIssues: `${DOCS}/issues/issues#list-repository-issues`,
    createIssue: `${DOCS}/issues/issues#create-an-issue`,
    updateIssue: `${DOCS}/issues/issues#update-an-issue`,
    listComments: `${DOCS}/issues/comments#list-issue-comments`,
    createComment: `${DOCS}/issues/comments#create-an-issue-comment`,
    getComment: `${DOCS}/issues/comments#get-an-issue-comment`,
    updateComment: `${DOCS}/issues/comments#update-an-issue-comment`,
    react: `${DOCS}/reactions/reactions#create-reaction-for-an-issue-comment`,
    listPulls: `${DOCS}/pulls/pulls#list-pull-requests`,
    createPull: `${DOCS}/pulls/pulls#create-a-pull-request`,
    getPull: `${DOCS}/pulls/pulls#get-a-pull-request`,
    updatePull: `${DOCS}/pulls/pulls#update-a-pull-request`,
    listArtifacts: `${DOCS}/actions/artifacts#list-artifacts-for-a-repository`,
    runArtifacts: `${DOCS}/actions/artifacts#list-workflow-run-artifacts`,
    getArtifact: `${DOCS}/actions/artifacts#get-an-artifact`,
    deleteArtifact: `${DOCS}/actions/artifacts#delete-an-artifact`,
    downloadArtifact: `${DOCS}/actions/artifacts#download-an-artifact`,
    getRun: `${DOCS}/actions/workflow-runs#get-a-workflow-run`,
    getAttempt: `${DOCS}/actions/workflow-runs#get-a-workflow-run-attempt`,
    attemptJobs: `${DOCS}/actions/workflow-jobs#list-jobs-for-a-workflow-run-attempt`,
    jobLogs: `${DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run`,
    annotations: `${DOCS}/checks/runs#list-check-run-annotations`,
    workflowRuns: `${DOCS}/actions/workflow-runs#list-workflow-runs-for-a-workflow`,
    rerunFailed: `${DOCS}/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run`,
    compare: `${DOCS}/commits/commits#compare-two-commits`,
    commit: `${DOCS}/commits/commits#get-a-commit`,
    contents: `${DOCS}/repos/contents#get-repository-content`,
    gitRef: `${DOCS}/git/refs#get-a-reference`,
    createRef: `${DOCS}/git/refs#create-a-reference`,
    updateRef: `${DOCS}/git/refs#update-a-reference`,
    gitCommit: `${DOCS}/git/commits#get-a-commit-object`,
    createCommit: `${DOCS}/git/commits#create-a-commit`,
    gitTree: `${DOCS}/git/trees#get-a-tree`,
    createTree: `${DOCS}/git/trees#create-a-tree`,
    gitBlob: `${DOCS}/git/blobs#get-a-blob`,
    createBlob: `${DOCS}/git/blobs#create-a-blob`,
  };

  const routes: Route[] = [
    {
      method: "GET",
      path: "/repos/{owner}/{repo}",
      docs: docs.repo,
      answer: () => ({ status: 200, body: fullRepositoryJson() }),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/collaborators/{username}/permission",
      docs: docs.permission,
      answer(call) {
        const user = users.get(call.params.username?.toLowerCase() ?? "");
        if (user === undefined) return notFound(docs.permission);
        return { status: 200, body: permissionJson(user) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/issues",
      docs: docs.listIssues,
      needs: ["issues", "read"],
      answer(call) {
        // Pull requests are issues too: GitHub lists them, marked with `pull_request`.
        const state = call.query.get("state") ?? "open";
        const wanted = (call.query.get("labels") ?? "")
          .split(",")
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== "");
        const creator = call.query.get("creator")?.toLowerCase();
        const since = call.query.get("since");
        const sort = call.query.get("sort") === "updated" ? "updatedAt" : "createdAt";
        const direction = call.query.get("direction") === "asc" ? 1 : -1;
        if (!["open", "closed", "all"].includes(state)) {
          return validationFailed(docs.listIssues, [
            { resource: "Issue", code: "invalid", field: "state" },
          ]);
        }
        const matching = [...issues.values()]
          .filter((issue) => state === "all" || issue.state === state)
          .filter((issue) => {
            const has = new Set(issue.labels.map((name) => name.toLowerCase()));
            return wanted.every((name) => has.has(name));
          })
          .filter((issue) => creator === undefined || issue.user.login.toLowerCase() === creator)
          .filter((issue) => since === null || Date.parse(issue.updatedAt) >= Date.parse(since))
          .sort((a, b) => direction * (a[sort].localeCompare(b[sort]) || a.number - b.number));
        const { items, headers } = paginate(matching, call);
        return { status: 200, body: items.map(issueJson), headers };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/issues",
      docs: docs.createIssue,
      needs: ["issues", "write"],
      answer(call) {
        const title = stringField(call.body, "title");
        if (title === undefined || title === "") {
          return validationFailed(docs.createIssue, [
            { resource: "Issue", code: "missing_field", field: "title" },
          ]);
        }
        const body = stringField(call.body, "body") ?? null;
        const tooLong = bodyTooLong("Issue", body ?? undefined);
        if (tooLong.length > 0) return validationFailed(docs.createIssue, tooLong);
        const names = labelsField(call.body);
        if (names === "invalid") {
          return validationFailed(docs.createIssue, [
            { resource: "Issue", code: "invalid", field: "labels" },
          ]);
        }
        // With push access, names the repository lacks become labels, as on GitHub.
        const issue = addIssueEntry({
          number: nextNumber(),
          title,
          body,
          user: userNamed(actor.login),
          pullRequest: false,
          labels: names ?? [],
        });
        return {
          status: 201,
          body: issueJson(issue),
          headers: { location: repoApi(fullName, `/issues/${issue.number}`) },
        };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/issues/{issue_number}",
      docs: docs.issue,
      answer(call) {
        const issue = findIssue(call);
        if (issue === undefined) return notFound(docs.issue);
        return { status: 200, body: issueJson(issue) };
      },
    },
    {
      method: "PATCH",
      path: "/repos/{owner}/{repo}/issues/{issue_number}",
      docs: docs.updateIssue,
      needs: ["issues", "write"],
      answer(call) {
        const issue = findIssue(call);
        if (issue === undefined) return notFound(docs.updateIssue);
        const title = stringField(call.body, "title");
        const body = call.body.body === null ? null : stringField(call.body, "body");
        const state = call.body.state;
        const reason = call.body.state_reason;
        const why = STATE_REASONS.find((known) => known === reason);
        const names = labelsField(call.body);
        const invalid = [
          ...(state !== undefined && state !== "open" && state !== "closed" ? ["state"] : []),
          ...(reason !== undefined && reason !== null && why === undefined ? ["state_reason"] : []),
          ...(names === "invalid" ? ["labels"] : []),
        ];
        if (invalid.length > 0) {
          return validationFailed(
            docs.updateIssue,
            invalid.map((field) => ({ resource: "Issue", code: "invalid", field })),
          );
        }
        const tooLong = bodyTooLong("Issue", body ?? undefined);
        if (tooLong.length > 0) return validationFailed(docs.updateIssue, tooLong);
        const now = timestamp();
        const pull = pulls.get(issue.number);
        if (title !== undefined) issue.title = title;
        if (body !== undefined) issue.body = body;
        if (pull !== undefined) [pull.title, pull.body] = [issue.title, issue.body];
        if (names !== undefined && names !== "invalid") issue.labels = labelNames(names);
        // `state_reason` counts only where `state` changes.
        if (state === "open" || state === "closed") setIssueState(issue, state, why, actor, now);
        issue.updatedAt = now;
        if (pull !== undefined) pull.updatedAt = now;
        return { status: 200, body: issueJson(issue) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      docs: docs.listComments,
      answer(call) {
        const issue = findIssue(call);
        if (issue === undefined) return notFound(docs.listComments);
        const { items, headers } = paginate(
          comments.filter((comment) => comment.issueNumber === issue.number),
          call,
        );
        return { status: 200, body: items.map(commentJson), headers };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/issues/{issue_number}/comments",
      docs: docs.createComment,
      answer(call) {
        const issue = findIssue(call);
        if (issue === undefined) return notFound(docs.createComment);
        const body = stringField(call.body, "body");
        if (body === undefined) {
          return validationFailed(docs.createComment, [
            { resource: "IssueComment", code: "missing_field", field: "body" },
          ]);
        }
        const tooLong = bodyTooLong("IssueComment", body);
        if (tooLong.length > 0) return validationFailed(docs.createComment, tooLong);
        const comment = addCommentEntry(issue.number, body, actor);
        const self = repoApi(fullName, `/issues/comments/${comment.id}`);
        return { status: 201, body: commentJson(comment), headers: { location: self } };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      docs: docs.getComment,
      answer(call) {
        const comment = findComment(call);
        if (comment === undefined) return notFound(docs.getComment);
        return { status: 200, body: commentJson(comment) };
      },
    },
    {
      method: "PATCH",
      path: "/repos/{owner}/{repo}/issues/comments/{comment_id}",
      docs: docs.updateComment,
      answer(call) {
        const comment = findComment(call);
        if (comment === undefined) return notFound(docs.updateComment);
        const body = stringField(call.body, "body");
        if (body === undefined) {
          return validationFailed(docs.updateComment, [
            { resource: "IssueComment", code: "missing_field", field: "body" },
          ]);
        }
        const tooLong = bodyTooLong("IssueComment", body);
        if (tooLong.length > 0) return validationFailed(docs.updateComment, tooLong);
        comment.body = body;
        comment.updatedAt = timestamp();
        return { status: 200, body: commentJson(comment) };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
      docs: docs.react,
      answer(call) {
        const comment = findComment(call);
        if (comment === undefined) return notFound(docs.react);
        const content = REACTIONS.find((known) => known === call.body.content);
        if (content === undefined) {
          return validationFailed(docs.react, [
            { resource: "Reaction", code: "invalid", field: "content" },
          ]);
        }
        const existing = reactions.find(
          (r) =>
            r.commentId === comment.id && r.content === content && r.user.login === actor.login,
        );
        if (existing !== undefined) return { status: 200, body: reactionJson(existing) };
        const reaction = {
          id: nextReactionId++,
          commentId: comment.id,
          content,
          user: userNamed(actor.login),
          createdAt: timestamp(),
        };
        reactions.push(reaction);
        return { status: 201, body: reactionJson(reaction) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/pulls",
      docs: docs.listPulls,
      needs: ["pull-requests", "read"],
      answer(call) {
        const state = call.query.get("state") ?? "open";
        const head = call.query.get("head");
        const base = call.query.get("base");
        // GitHub filters by head only in the `owner:branch` form and ignores a bare branch name.
        const headFilter = head?.includes(":") ? head.toLowerCase() : undefined;
        const matching = [...pulls.values()]
          .filter((pull) => state === "all" || pull.state === state)
          .filter((pull) => base === null || pull.base.ref === base)
          .filter(
            (pull) =>
              headFilter === undefined ||
              `${pull.head.repoFullName.split("/")[0]}:${pull.head.ref}`.toLowerCase() ===
                headFilter,
          )
          .sort((a, b) => b.number - a.number);
        const { items, headers } = paginate(matching, call);
        return { status: 200, body: items.map((pull) => pullJson(pull, true)), headers };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/pulls",
      docs: docs.createPull,
      needs: ["pull-requests", "write"],
      answer(call) {
        const title = stringField(call.body, "title");
        const headParam = stringField(call.body, "head");
        const base = stringField(call.body, "base");
        const missing = [
          ...(title === undefined ? ["title"] : []),
          ...(headParam === undefined ? ["head"] : []),
          ...(base === undefined ? ["base"] : []),
        ];
        if (title === undefined || headParam === undefined || base === undefined) {
          return validationFailed(
            docs.createPull,
            missing.map((field) => ({ resource: "PullRequest", code: "missing_field", field })),
          );
        }
        const head = parseHead(headParam);
        const headSha = isOwnRepo(head.repoFullName) ? branchSha(head.ref) : undefined;
        const baseSha = branchSha(base);
        const invalid = [
          ...(headSha === undefined ? ["head"] : []),
          ...(baseSha === undefined ? ["base"] : []),
        ];
        if (headSha === undefined || baseSha === undefined) {
          return validationFailed(
            docs.createPull,
            invalid.map((field) => ({ resource: "PullRequest", field, code: "invalid" })),
          );
        }
        const existing = [...pulls.values()].find(
          (pull) =>
            pull.state === "open" &&
            isOwnRepo(pull.head.repoFullName) &&
            pull.head.ref === head.ref &&
            pull.base.ref === base,
        );
        if (existing !== undefined) {
          return validationFailed(docs.createPull, [
            {
              resource: "PullRequest",
              code: "custom",
              message: `A pull request already exists for ${owner}:${head.ref}.`,
            },
          ]);
        }
        if (bareGit(["merge-base", "--is-ancestor", headSha, baseSha]) !== undefined) {
          return validationFailed(docs.createPull, [
            {
              resource: "PullRequest",
              code: "custom",
              message: `No commits between ${base} and ${head.ref}`,
            },
          ]);
        }
        const body = stringField(call.body, "body") ?? null;
        const tooLong = bodyTooLong("PullRequest", body ?? undefined);
        if (tooLong.length > 0) return validationFailed(docs.createPull, tooLong);
        const pull = addPullEntry({
          number: nextNumber(),
          title,
          body,
          user: userNamed(actor.login),
          head,
          base: { ref: base },
          draft: call.body.draft === true,
        });
        return {
          status: 201,
          body: pullJson(pull),
          headers: { location: repoApi(fullName, `/pulls/${pull.number}`) },
        };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/pulls/{pull_number}",
      docs: docs.getPull,
      needs: ["pull-requests", "read"],
      answer(call) {
        const pull = pulls.get(Number(call.params.pull_number));
        if (pull === undefined) return notFound(docs.getPull);
        return { status: 200, body: pullJson(pull) };
      },
    },
    {
      method: "PATCH",
      path: "/repos/{owner}/{repo}/pulls/{pull_number}",
      docs: docs.updatePull,
      needs: ["pull-requests", "write"],
      answer(call) {
        const pull = pulls.get(Number(call.params.pull_number));
        const issue = issues.get(Number(call.params.pull_number));
        if (pull === undefined || issue === undefined) return notFound(docs.updatePull);
        const title = stringField(call.body, "title");
        const body = stringField(call.body, "body");
        const state = call.body.state;
        const tooLong = bodyTooLong("PullRequest", body);
        if (tooLong.length > 0) return validationFailed(docs.updatePull, tooLong);
        if (state !== undefined && state !== "open" && state !== "closed") {
          return validationFailed(docs.updatePull, [
            { resource: "PullRequest", code: "invalid", field: "state" },
          ]);
        }
        const now = timestamp();
        if (title !== undefined) pull.title = issue.title = title;
        if (body !== undefined) pull.body = issue.body = body;
        if (state !== undefined) setIssueState(issue, state, undefined, actor, now);
        pull.updatedAt = issue.updatedAt = now;
        return { status: 200, body: pullJson(pull) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/artifacts",
      docs: docs.listArtifacts,
      needs: ["actions", "read"],
      answer(call) {
        const name = call.query.get("name");
        const matching = artifacts
          .finalized()
          .filter((artifact) => name === null || artifact.name === name)
          .sort(newestFirst);
        return artifactList(matching, call);
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/runs/{run_id}",
      docs: docs.getRun,
      needs: ["actions", "read"],
      answer(call) {
        const id = Number(call.params.run_id);
        if (!runs.has(id) && !artifacts.knowsRun(id)) return notFound(docs.getRun);
        return { status: 200, body: runJson(runOf(id)) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
      docs: docs.runArtifacts,
      needs: ["actions", "read"],
      answer(call) {
        const name = call.query.get("name");
        const matching = artifacts
          .finalized()
          .filter((artifact) => artifact.runId === Number(call.params.run_id))
          .filter((artifact) => name === null || artifact.name === name)
          .sort(newestFirst);
        if (call.query.get("direction") === "asc") matching.reverse();
        return artifactList(matching, call);
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}",
      docs: docs.getArtifact,
      needs: ["actions", "read"],
      answer(call) {
        const artifact = findArtifact(call);
        if (artifact === undefined) return notFound(docs.getArtifact);
        return { status: 200, body: artifactJson(artifact) };
      },
    },
    {
      method: "DELETE",
      path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}",
      docs: docs.deleteArtifact,
      needs: ["actions", "write"],
      answer(call) {
        const artifact = findArtifact(call);
        if (artifact === undefined) return notFound(docs.deleteArtifact);
        artifacts.remove(artifact.id);
        return { status: 204, body: undefined };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
      docs: docs.downloadArtifact,
      needs: ["actions", "read"],
      answer(call) {
        const artifact = findArtifact(call);
        if (artifact === undefined || call.params.archive_format !== "zip") {
          return notFound(docs.downloadArtifact);
        }
        if (artifacts.isExpired(artifact)) {
          return githubError(410, "Artifact has expired", docs.downloadArtifact);
        }
        return {
          status: 302,
          body: undefined,
          headers: {
            location: issueLink("artifact", artifact.id, artifact.content, "application/zip"),
          },
        };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}",
      docs: docs.getAttempt,
      needs: ["actions", "read"],
      answer(call) {
        const run = runs.get(Number(call.params.run_id));
        const attempt = run?.attempts[Number(call.params.attempt_number) - 1];
        if (run === undefined || attempt === undefined) return notFound(docs.getAttempt);
        return { status: 200, body: runJson(run, attempt) };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs",
      docs: docs.attemptJobs,
      needs: ["actions", "read"],
      answer(call) {
        const run = runs.get(Number(call.params.run_id));
        const attempt = run?.attempts[Number(call.params.attempt_number) - 1];
        if (run === undefined || attempt === undefined) return notFound(docs.attemptJobs);
        const { items, headers } = paginate(attempt.jobs, call);
        return {
          status: 200,
          body: {
            total_count: attempt.jobs.length,
            jobs: items.map((job) => jobJson(run, job)),
          },
          headers,
        };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
      docs: docs.jobLogs,
      needs: ["actions", "read"],
      answer(call) {
        const found = findJob(Number(call.params.job_id));
        if (found === undefined) return notFound(docs.jobLogs);
        const location = issueLink("job-log", found.job.id, found.job.log, "text/plain");
        return { status: 302, body: undefined, headers: { location } };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
      docs: docs.annotations,
      needs: ["checks", "read"],
      answer(call) {
        const found = findJob(Number(call.params.check_run_id));
        if (found === undefined) return notFound(docs.annotations);
        const { items, headers } = paginate(found.job.annotations, call);
        return {
          status: 200,
          body: items.map((annotation) => annotationJson(found.run, annotation)),
          headers,
        };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      docs: docs.workflowRuns,
      needs: ["actions", "read"],
      answer(call) {
        // The workflow's id, or its file's name.
        const workflow = call.params.workflow_id ?? "";
        const ofWorkflow = [...runs.values()].filter(
          (run) => String(workflowIdOf(run.path)) === workflow || run.path.endsWith(`/${workflow}`),
        );
        if (ofWorkflow.length === 0) return notFound(docs.workflowRuns);
        const query = (name: string) => call.query.get(name) ?? undefined;
        const [branch, event, status, headSha, by, created] = [
          query("branch"),
          query("event"),
          query("status"),
          query("head_sha"),
          query("actor"),
          query("created"),
        ];
        const window = created === undefined ? undefined : dateRange(created);
        if (window === undefined && created !== undefined) {
          return validationFailed(docs.workflowRuns, [
            { resource: "WorkflowRun", code: "invalid", field: "created" },
          ]);
        }
        const matching = ofWorkflow
          .filter((run) => branch === undefined || run.headBranch === branch)
          .filter((run) => window === undefined || within(window, run.createdAt))
          .filter((run) => event === undefined || run.event === event)
          .filter((run) => headSha === undefined || runHeadSha(run) === headSha)
          .filter((run) => by === undefined || run.actor.toLowerCase() === by.toLowerCase())
          .filter(
            // `status` takes a status or a conclusion.
            (run) =>
              status === undefined ||
              latest(run).status === status ||
              latest(run).conclusion === status,
          )
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
        // Filtered, the list is a search: GitHub pages through its first 1,000 runs only.
        const searched = [
          "actor",
          "branch",
          "check_suite_id",
          "created",
          "event",
          "head_sha",
          "status",
        ].some((name) => call.query.has(name));
        const { items, headers } = paginate(searched ? matching.slice(0, 1000) : matching, call);
        return {
          status: 200,
          body: { total_count: matching.length, workflow_runs: items.map((run) => runJson(run)) },
          headers,
        };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs",
      docs: docs.rerunFailed,
      needs: ["actions", "write"],
      answer(call) {
        const run = runs.get(Number(call.params.run_id));
        if (run === undefined) return notFound(docs.rerunFailed);
        const last = latest(run);
        if (last.status !== "completed") {
          return githubError(403, "This workflow is already running", docs.rerunFailed);
        }
        const now = timestamp();
        const again = (job: FakeJob) =>
          job.conclusion === "failure" ||
          job.conclusion === "timed_out" ||
          job.conclusion === "cancelled";
        run.attempts.push({
          number: last.number + 1,
          status: "queued",
          conclusion: null,
          triggeringActor: actor.login,
          startedAt: now,
          updatedAt: now,
          jobs: last.jobs.map((job) =>
            again(job)
              ? {
                  ...job,
                  id: nextJobId++,
                  runAttempt: last.number + 1,
                  status: "queued",
                  conclusion: null,
                  steps: [],
                  log: Buffer.alloc(0),
                  annotations: [],
                  startedAt: now,
                  completedAt: null,
                }
              : job,
          ),
        });
        return { status: 201, body: {} };
      },
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/compare/{basehead}",
      docs: docs.compare,
      needs: ["contents", "read"],
      answer: (call) => compareAnswer(call.params.basehead ?? "", call),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/commits/{ref}",
      docs: docs.commit,
      needs: ["contents", "read"],
      answer: (call) => commitAnswer(call.params.ref ?? ""),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/contents/{path}",
      docs: docs.contents,
      needs: ["contents", "read"],
      answer: (call) => contentsAnswer(call.params.path ?? "", call),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/git/ref/{ref}",
      docs: docs.gitRef,
      needs: ["contents", "read"],
      async answer(call) {
        const ref = call.params.ref ?? "";
        const sha = await readRef(ref);
        const type = sha === undefined ? undefined : await objectType(sha);
        if (sha === undefined || type === undefined) return notFound(docs.gitRef);
        return { status: 200, body: gitRefJson(ref, sha, type) };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/git/refs",
      docs: docs.createRef,
      needs: ["contents", "write"],
      answer: (call) => createRefAnswer(call.body),
    },
    {
      method: "PATCH",
      path: "/repos/{owner}/{repo}/git/refs/{ref}",
      docs: docs.updateRef,
      needs: ["contents", "write"],
      answer: (call) => updateRefAnswer(call.params.ref ?? "", call.body),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/git/commits/{commit_sha}",
      docs: docs.gitCommit,
      needs: ["contents", "read"],
      async answer(call) {
        const commit = await readCommit(call.params.commit_sha ?? "");
        if (commit === undefined) return notFound(docs.gitCommit);
        return { status: 200, body: gitCommitJson(commit) };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/git/commits",
      docs: docs.createCommit,
      needs: ["contents", "write"],
      answer: (call) => createCommitAnswer(call.body),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/git/trees/{tree_sha}",
      docs: docs.gitTree,
      needs: ["contents", "read"],
      async answer(call) {
        // A tree's sha or any tree-ish (a commit, a branch), as GitHub takes it.
        const named = call.params.tree_sha ?? "";
        const sha = named.startsWith("-")
          ? undefined
          : await bareGitTextLater(["rev-parse", "--verify", "--quiet", `${named}^{tree}`]);
        if (sha === undefined) return notFound(docs.gitTree);
        // Any value of `recursive` recurses; only its absence does not.
        return { status: 200, body: await gitTreeJson(sha, call.query.has("recursive")) };
      },
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/git/trees",
      docs: docs.createTree,
      needs: ["contents", "write"],
      answer: (call) => createTreeAnswer(call.body),
    },
    {
      method: "GET",
      path: "/repos/{owner}/{repo}/git/blobs/{file_sha}",
      docs: docs.gitBlob,
      needs: ["contents", "read"],
      answer: (call) => blobAnswer(call.params.file_sha ?? ""),
    },
    {
      method: "POST",
      path: "/repos/{owner}/{repo}/git/blobs",
      docs: docs.createBlob,
      needs: ["contents", "write"],
      answer: (call) => createBlobAnswer(call.body),
    },
  ];

  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      // A file's path and a ref's name span folders; a workflow is named by its id or its file's
      // name.
      if (name === "path" || name === "ref") return "(.+)";
      return /_(number|id)$/.test(name) && name !== "workflow_id" ? "(\\d+)" : "([^/]+)";
    });
    return { route, names, pattern: new RegExp(`^${source}$`) };
  });

  // -- HTTP -----------------------------------------------------------------------------------

  function gitUrl(): string {
    return `${url}/${owner}/${repo}.git`;
  }

  function send(res: ServerResponse, answer: Answer): void {
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": "application/json; charset=utf-8",
      "x-github-media-type": "github.v3; format=json",
      ...answer.headers,
    });
    res.end(text);
  }

  function takeFault(method: string, path: string): Fault | undefined {
    const index = faults.findIndex(
      (fault) =>
        (fault.method === "*" || fault.method.toUpperCase() === method) && fault.path.test(path),
    );
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) faults.splice(index, 1);
    return fault;
  }

  function restAuthorized(req: IncomingMessage): boolean {
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    return match?.[1] === options.token;
  }

  /** HTTP Basic with `x-access-token:<token>`; the scheme's case does not matter (checkout sends `basic`). */
  function gitAuthorized(req: IncomingMessage): boolean {
    const match = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    return match?.[1] === Buffer.from(`x-access-token:${options.token}`).toString("base64");
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    return text.trim() === "" ? undefined : JSON.parse(text);
  }

  async function restAnswer(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Promise<Answer> {
    for (const { route, names, pattern } of compiled) {
      const match = pattern.exec(path);
      if (match === null) continue;
      const params = Object.fromEntries(
        names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]),
      );
      if (`${params.owner}/${params.repo}`.toLowerCase() !== fullName.toLowerCase()) {
        return notFound(route.docs);
      }
      if (route.method !== method) continue;
      const refused = route.needs === undefined ? undefined : refusal(route.needs, route.docs);
      if (refused !== undefined) return refused;
      const fields = typeof body === "object" && body !== null ? body : {};
      const full = new URL(path, url);
      full.search = query.toString();
      return route.answer({ params, query, body: fields as Record<string, unknown>, url: full });
    }
    return notFound(DOCS);
  }

  /** GitHub's 403 for a GITHUB_TOKEN without the permission a route needs. */
  function refusal(
    [scope, level]: [TokenScope, "read" | "write"],
    docs: string,
  ): Answer | undefined {
    const granted = tokenPermissions.get(scope) ?? "write";
    if (granted === "write" || granted === level) return undefined;
    return {
      ...githubError(403, "Resource not accessible by integration", docs),
      headers: { "x-accepted-github-permissions": `${scope.replace("-", "_")}=${level}` },
    };
  }

  // -- storage --------------------------------------------------------------------------------
  // Where GitHub's log and artifact-zip redirects point: another origin (its own port), so a
  // client following a redirect sends no token there, and each link works for a minute. Like
  // Azure's blob storage behind them, it refuses an expired or unknown signature with 403
  // AuthenticationFailed and a request that brings credentials of its own with 400.

  const linkLifetimeMs = options.linkLifetimeMs ?? 60_000;
  let storageUrl = "";

  function issueLink(
    kind: FakeLink["kind"],
    id: number,
    bytes: Buffer,
    contentType: string,
  ): string {
    const issuedAt = Date.now();
    const stale = staleLinks > 0;
    if (stale) staleLinks -= 1;
    const expiresAt = stale ? issuedAt - 1 : issuedAt + linkLifetimeMs;
    const sig = randomBytes(18).toString("base64url");
    const path = `/${kind === "job-log" ? "logs" : "artifacts"}/${id}/${randomBytes(6).toString("hex")}`;
    const se = new Date(expiresAt).toISOString();
    const link = {
      kind,
      id,
      url: `${storageUrl}${path}?sv=2023-11-03&sr=b&sp=r&se=${encodeURIComponent(se)}&sig=${sig}`,
      issuedAt,
      expiresAt,
      fetches: [],
      path,
      bytes,
      contentType,
    };
    links.push(link);
    return link.url;
  }

  function azureError(res: ServerResponse, status: number, code: string, message: string): number {
    res.writeHead(status, { "content-type": "application/xml", "x-ms-error-code": code });
    res.end(
      `\uFEFF<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code>` +
        `<Message>${message}</Message></Error>`,
    );
    return status;
  }

  function serveStorage(req: IncomingMessage, res: ServerResponse): void {
    const at = Date.now();
    const requestUrl = new URL(req.url ?? "/", storageUrl);
    const link = links.find(
      (candidate) =>
        candidate.path === requestUrl.pathname &&
        candidate.url.endsWith(`&sig=${requestUrl.searchParams.get("sig") ?? ""}`),
    );
    const authorization = req.headers.authorization !== undefined;
    const fault = takeFault(req.method ?? "GET", requestUrl.pathname);
    let status: number;
    if (fault?.status === "reset") {
      req.socket.destroy();
      status = 0;
    } else if (fault !== undefined) {
      status = fault.status;
      send(res, {
        ...githubError(status, STATUS_CODES[status] ?? "Error", DOCS, fault.body),
        headers: fault.headers,
      });
    } else if (link === undefined || req.method !== "GET") {
      status = azureError(res, 403, "AuthenticationFailed", "Signature did not match.");
    } else if (authorization) {
      status = azureError(
        res,
        400,
        "InvalidAuthenticationInfo",
        "Authentication information is not given in the correct format.",
      );
    } else if (at > link.expiresAt) {
      status = azureError(
        res,
        403,
        "AuthenticationFailed",
        `Signed expiry time [${new Date(link.expiresAt).toUTCString()}] must be after signed ` +
          `start time [${new Date(at).toUTCString()}]`,
      );
    } else {
      res.writeHead(200, {
        "content-type": link.contentType,
        "content-length": String(link.bytes.length),
        "x-ms-blob-type": "BlockBlob",
      });
      res.end(link.bytes);
      status = 200;
    }
    link?.fetches.push({ at, status, authorization });
  }

  /**
   * The one GraphQL mutation pitcrew sends (REST cannot take a pull request out of draft), in
   * GraphQL's answer shape: 200 with `data`, or 200 with `errors`.
   */
  function graphqlAnswer(body: unknown): Answer {
    const { query, variables } = (body ?? {}) as { query?: string; variables?: { id?: string } };
    const pull = [...pulls.values()].find(
      (candidate) => nodeId("PR", candidate.id) === variables?.id,
    );
    if (!query?.includes("markPullRequestReadyForReview") || pull === undefined) {
      return {
        status: 200,
        body: { errors: [{ type: "NOT_FOUND", message: "Could not resolve to a node." }] },
      };
    }
    pull.draft = false;
    pull.updatedAt = new Date().toISOString();
    return {
      status: 200,
      body: { data: { markPullRequestReadyForReview: { pullRequest: { isDraft: false } } } },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<LoggedRequest> {
    const method = req.method ?? "GET";
    const requestUrl = new URL(req.url ?? "/", url);
    const path = requestUrl.pathname;
    const log: LoggedRequest = {
      method,
      path: decodeURIComponent(path),
      query: Object.fromEntries(requestUrl.searchParams),
      status: 0,
      body: undefined,
    };
    const gitPrefix = `/${owner}/${repo}.git`;
    const isGit = path === gitPrefix || path.startsWith(`${gitPrefix}/`);
    const isArtifactService = artifacts.serves(path);

    // A REST body is read first so that the log holds it even for a request a fault answers.
    let body: unknown;
    let unparsable = false;
    if (!isGit && !isArtifactService) {
      try {
        body = await readJson(req);
      } catch {
        unparsable = true;
      }
    }

    const fault = takeFault(method, log.path);
    if (fault?.status === "reset") {
      req.socket.destroy();
      return { ...log, body };
    }
    if (fault !== undefined) {
      const status = fault.status;
      const answer = githubError(status, STATUS_CODES[status] ?? "Error", DOCS, fault.body);
      send(res, { ...answer, headers: fault.headers });
      return { ...log, status, body };
    }

    if (isGit) {
      if (!gitAuthorized(req)) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"' });
        res.end();
        return { ...log, status: 401 };
      }
      return { ...log, status: await serveGit(req, res, path.slice(gitPrefix.length), requestUrl) };
    }
    // The service checks its own credentials: the runtime token, the blob URLs' signatures.
    if (isArtifactService) return { ...log, ...(await artifacts.serve(req, res)) };
    if (unparsable) {
      send(res, githubError(400, "Problems parsing JSON", DOCS));
      return { ...log, status: 400 };
    }
    if (method === "POST" && path === "/graphql") {
      const answer = restAuthorized(req)
        ? graphqlAnswer(body)
        : githubError(401, "Bad credentials", DOCS);
      send(res, answer);
      return { ...log, status: answer.status, body };
    }
    const answer = restAuthorized(req)
      ? await restAnswer(method, path, requestUrl.searchParams, body)
      : githubError(401, "Bad credentials", DOCS);
    send(res, answer);
    return { ...log, status: answer.status, body };
  }

  /** Runs `git http-backend` as a CGI program for one request; resolves with the status. */
  function serveGit(
    req: IncomingMessage,
    res: ServerResponse,
    pathInfo: string,
    requestUrl: URL,
  ): Promise<number> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !name.startsWith("GIT_")) env[name] = value;
    }
    const header = (name: string): Record<string, string> => {
      const value = req.headers[name.toLowerCase()];
      return typeof value === "string"
        ? { [`HTTP_${name.toUpperCase().replace(/-/g, "_")}`]: value }
        : {};
    };
    const child = spawn("git", ["http-backend"], {
      env: {
        ...env,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_PROJECT_ROOT: options.bareRepo,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: pathInfo,
        QUERY_STRING: requestUrl.search.replace(/^\?/, ""),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-length"] === undefined
          ? {}
          : { CONTENT_LENGTH: req.headers["content-length"] }),
        REMOTE_USER: "x-access-token",
        REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
        ...header("Content-Encoding"),
        ...header("Git-Protocol"),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    req.pipe(child.stdin);
    child.stdin.on("error", () => undefined);
    const stderr: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));

    return new Promise((resolve) => {
      let head = Buffer.alloc(0);
      let status = 0;
      child.stdout.on("data", (chunk: Buffer) => {
        if (status !== 0) {
          res.write(chunk);
          return;
        }
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        const lfEnd = head.indexOf("\n\n");
        const [at, gap] = end !== -1 ? [end, 4] : lfEnd !== -1 ? [lfEnd, 2] : [-1, 0];
        if (at === -1) return;
        const headers: Record<string, string> = {};
        status = 200;
        for (const line of head.subarray(0, at).toString("latin1").split(/\r?\n/)) {
          const colon = line.indexOf(":");
          const name = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
          else if (colon > 0) headers[name] = value;
        }
        res.writeHead(status, headers);
        res.write(head.subarray(at + gap));
      });
      child.on("close", () => {
        if (status === 0) {
          status = 500;
          res.writeHead(500, { "content-type": "text/plain" });
          res.write(Buffer.concat(stderr));
        }
        res.end();
        resolve(status);
      });
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).then(
      (log) => requests.push(log),
      (error: unknown) => {
        if (!res.headersSent) send(res, githubError(500, String(error), DOCS));
        else res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const storage = createServer(serveStorage);
  await new Promise<void>((resolve) => storage.listen(0, "127.0.0.1", resolve));
  storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;

  return {
    owner,
    repo,
    url,
    gitUrl: gitUrl(),
    routes: routes.map(({ method, path }) => ({ method, path })),
    requests,
    artifacts,
    setRun,
    addUser,
    setPermission(login, permission) {
      userNamed(login);
      permissions.set(login.toLowerCase(), permission);
    },
    addIssue(issue) {
      return addIssueEntry({
        ...issue,
        user: userNamed(issue.user),
        pullRequest: issue.pullRequest ?? false,
      });
    },
    addComment(issueNumber, comment) {
      if (!issues.has(issueNumber)) throw new Error(`no issue #${issueNumber}: add it first`);
      return addCommentEntry(issueNumber, comment.body, userNamed(comment.user));
    },
    addPull(pull) {
      return addPullEntry({
        number: pull.number,
        title: pull.title,
        body: pull.body,
        user: userNamed(pull.user),
        head: { ref: pull.head.ref, repoFullName: pull.head.repoFullName ?? fullName },
        base: pull.base,
        draft: pull.draft ?? false,
      });
    },
    mergePull(number, at = timestamp()) {
      const pull = pulls.get(number);
      const issue = issues.get(number);
      if (pull === undefined || issue === undefined)
        throw new Error(`no pull #${number}: add it first`);
      pull.mergedAt = at;
      pull.updatedAt = issue.updatedAt = at;
      const by = userNamed(owner);
      setIssueState(issue, "closed", "completed", by, at);
      return pull;
    },
    issues: () => [...issues.values()].sort((a, b) => a.number - b.number),
    labels: () => [...labels.values()].sort((a, b) => a.id - b.id),
    comments: (issueNumber) => comments.filter((comment) => comment.issueNumber === issueNumber),
    reactions: (commentId) => reactions.filter((reaction) => reaction.commentId === commentId),
    pulls: () => [...pulls.values()],
    addRun,
    run: (id) => runs.get(id),
    setTokenPermissions(permissions) {
      for (const [scope, access] of Object.entries(permissions)) {
        tokenPermissions.set(scope as TokenScope, access);
      }
    },
    refSha: (ref) => bareGit(["show-ref", "--verify", "--hash", `refs/${ref}`]),
    setRef(ref, sha) {
      const args = sha === null ? ["-d", `refs/${ref}`] : [`refs/${ref}`, sha];
      execFileSync("git", ["--git-dir", options.bareRepo, "update-ref", ...args]);
    },
    setTreeLimit(entries) {
      treeLimit = entries;
    },
    storageUrl,
    links,
    expireLinks() {
      const now = Date.now();
      for (const link of links) link.expiresAt = Math.min(link.expiresAt, now - 1);
    },
    expireNextLinks(count) {
      staleLinks += count;
    },
    fail(fault) {
      faults.push({ ...fault, left: fault.times ?? 1 });
    },
    async close() {
      const closing = (which: typeof server) =>
        new Promise<void>((resolve, reject) => {
          which.close((error) => (error === undefined ? resolve() : reject(error)));
          which.closeAllConnections();
        });
      await Promise.all([closing(server), closing(storage)]);
    },
  };
}
