import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  notesName
} from "./chunk-ACUST24B.js";
import {
  ABOVE_ZERO,
  BRANCH_PREFIX,
  BUDGET,
  DISK_RESERVE,
  FLAG_TAKES,
  WHOLE_ABOVE_ZERO,
  WHOLE_BUDGET,
  complaint
} from "./chunk-VLL536XG.js";
import {
  getInput,
  getOctokit,
  retry,
  setSecret
} from "./chunk-ZVVRHBQD.js";
import {
  NOTE_CAP,
  NOTE_FILE,
  STATE_CAP,
  STATE_FILE,
  TRANSCRIPT_CAP,
  TRANSCRIPT_FILE,
  checkSize,
  notesFromText,
  notesInvalid,
  notesText,
  readCapped,
  readNotesText
} from "./chunk-6CPZM6MN.js";
import {
  external_exports
} from "./chunk-V2YX4XL4.js";
import {
  sandboxChoice
} from "./chunk-P5UMHJDW.js";
import {
  KNOWN_KINDS,
  MIN_KNOWN_LENGTH,
  PATTERNS,
  knownSecrets,
  looksRandom
} from "./chunk-3WPQHTFM.js";
import {
  PitcrewError,
  describeError
} from "./chunk-QPB5RBCF.js";

// src/config/inputs.ts
var NOTES_KEY_MIN = 16;
var DECIMAL = /^\d+(\.\d+)?$/;
var FLAGS = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false
};
function invalid(input, says, raw) {
  return new PitcrewError("config-invalid", `Input '${input}' ${says}, not '${raw}'.`);
}
function readInputs(getInput2 = getInput) {
  const read = (input) => {
    const value = getInput2(input).trim();
    return value === "" ? void 0 : value;
  };
  const secret = (input) => {
    const value = read(input);
    if (value !== void 0) setSecret(value);
    return value;
  };
  const number = (input, rule) => {
    const raw = read(input);
    if (raw === void 0) return void 0;
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    const says = complaint(rule, value);
    if (says !== void 0) throw invalid(input, says, raw);
    return value;
  };
  const flag = (input) => {
    const raw = read(input);
    if (raw === void 0) return void 0;
    const value = FLAGS[raw];
    if (value === void 0) throw invalid(input, `takes ${FLAG_TAKES}`, raw);
    return value;
  };
  const apiKey = secret("api-key");
  const githubToken = secret("github-token");
  const notesKey = secret("notes-key");
  if (notesKey !== void 0 && notesKey.length < NOTES_KEY_MIN) {
    throw new PitcrewError(
      "config-notes-key-short",
      `Input 'notes-key' is ${notesKey.length} characters long; a key for the notes' seal needs at least ${NOTES_KEY_MIN}. Store a long random value as a secret (for example the output of \`openssl rand -hex 32\`) and pass it, or remove \`notes-key\` to seal with the \`api-key\`.`
    );
  }
  const sandbox = read("sandbox");
  const branchPrefix = read("branch-prefix");
  if (branchPrefix !== void 0) {
    const says = complaint(BRANCH_PREFIX, branchPrefix);
    if (says !== void 0) throw invalid("branch-prefix", says, branchPrefix);
  }
  return {
    apiKey,
    githubToken,
    notesKey,
    baseUrl: baseUrl(read("base-url")),
    model: read("model"),
    triggerPhrase: triggerPhrase(read("trigger-phrase")),
    maxTurns: number("max-turns", WHOLE_ABOVE_ZERO),
    timeBudgetMinutes: number("time-budget", ABOVE_ZERO),
    costBudget: number("cost-budget", BUDGET),
    tokenBudget: number("token-budget", WHOLE_BUDGET),
    contextWindow: number("context-window", WHOLE_ABOVE_ZERO),
    sandbox: sandbox === void 0 ? void 0 : sandboxChoice(sandbox, "config-invalid", "Input 'sandbox'"),
    commandTimeoutSeconds: number("command-timeout", ABOVE_ZERO),
    diskReserveMiB: number("disk-reserve", DISK_RESERVE),
    allowedBots: allowedBots(read("allowed-bots")),
    branchPrefix,
    draft: flag("draft"),
    allowWorkflowChanges: flag("allow-workflow-changes"),
    retentionDays: number("retention-days", WHOLE_ABOVE_ZERO),
    notesStore: notesStore(read("notes-store"))
  };
}
function notesStore(raw) {
  if (raw === void 0 || raw === "artifact" || raw === "ref") return raw;
  throw invalid("notes-store", "takes artifact or ref", raw);
}
function baseUrl(raw) {
  if (raw === void 0) return void 0;
  const protocol = URL.parse(raw)?.protocol;
  if (protocol !== "https:" && protocol !== "http:") {
    throw invalid("base-url", "takes the http(s) URL of an OpenAI-compatible API", raw);
  }
  return raw;
}
function triggerPhrase(raw) {
  if (raw !== void 0 && /\s/.test(raw)) {
    throw invalid("trigger-phrase", "takes one word without spaces, such as /agent", raw);
  }
  return raw;
}
function allowedBots(raw) {
  if (raw === void 0) return void 0;
  const logins = raw.split(/[,\n]/).map((login) => login.trim()).filter((login) => login !== "");
  for (const login of logins) {
    if (login.includes("*")) {
      throw invalid(
        "allowed-bots",
        `takes exact bot logins such as dependabot[bot]; '${login}' is a wildcard, and wildcards are not allowed`,
        raw
      );
    }
    if (/\s/.test(login)) {
      throw invalid(
        "allowed-bots",
        `takes logins separated by commas or new lines; '${login}' has a space in it`,
        raw
      );
    }
  }
  return logins;
}

// src/github/client.ts
var DEFAULT_RETRIES = 3;
var DEFAULT_DELAY_MS = 1e3;
var SECONDARY_RATE_LIMIT_WAIT_SECONDS = 60;
var GHOST = { login: "ghost", id: 10137, type: "User" };
var WORKFLOW_PERMISSIONS = "permissions: { contents: write, pull-requests: write, issues: write, actions: read }";
function failureOf(error) {
  if (!(error instanceof Error) || !("status" in error) || typeof error.status !== "number") {
    return void 0;
  }
  const response = error.response;
  const data = typeof response?.data === "object" ? response.data : null;
  const details = Array.isArray(data?.errors) ? data.errors.flatMap((detail) => {
    const message = detail?.message;
    return typeof message === "string" ? [message] : [];
  }) : [];
  return {
    status: error.status,
    message: typeof data?.message === "string" ? data.message : error.message,
    details,
    answered: response !== void 0,
    headers: response?.headers ?? {}
  };
}
function mentions(failure, pattern) {
  return [failure.message, ...failure.details].some((text) => pattern.test(text));
}
var PR_NOT_PERMITTED = /GitHub Actions is not permitted to create or approve pull requests/i;
var PR_EXISTS = /A pull request already exists/i;
function isSecondaryRateLimit(failure) {
  return (failure.status === 403 || failure.status === 429) && (failure.headers["retry-after"] !== void 0 || mentions(failure, /secondary rate limit/i));
}
function isRateLimit(failure) {
  return failure.status === 429 || isSecondaryRateLimit(failure) || failure.status === 403 && String(failure.headers["x-ratelimit-remaining"]) === "0";
}
function said(failure) {
  const details = failure.details.length > 0 ? `: ${failure.details.join("; ")}` : "";
  return `${failure.status} ${failure.message}${details}`;
}
function namedError(action, failure, context, cause, permission) {
  if (failure.status === 401) {
    return new PitcrewError(
      "github-token-invalid",
      `GitHub rejected the token when pitcrew tried to ${action} (${said(failure)}): give pitcrew a valid token (the workflow's GITHUB_TOKEN or a GitHub App installation token).`,
      { cause }
    );
  }
  if (mentions(failure, PR_NOT_PERMITTED)) {
    return new PitcrewError(
      "github-pr-not-permitted",
      `GitHub does not let this workflow's token ${action} (${said(failure)}): turn on the repository setting Settings \u2192 Actions \u2192 General \u2192 Workflow permissions \u2192 "Allow GitHub Actions to create and approve pull requests" (an organisation must allow it too), or give pitcrew a GitHub App token.`,
      { cause }
    );
  }
  if (failure.status === 403 && mentions(failure, /Resource not accessible by/i)) {
    const fix = permission === void 0 ? `give the workflow job \`${WORKFLOW_PERMISSIONS}\`` : `add \`${permission}\` to the workflow job's \`permissions:\``;
    return new PitcrewError(
      "github-permission-missing",
      `The token may not ${action} (${said(failure)}): ${fix}.`,
      { cause }
    );
  }
  if (isRateLimit(failure)) {
    const reset = Number(failure.headers["x-ratelimit-reset"]);
    const until = Number.isFinite(reset) ? `until ${new Date(reset * 1e3).toISOString()}` : "a few minutes";
    return new PitcrewError(
      "github-rate-limited",
      `GitHub rate-limited the token when pitcrew tried to ${action} (${said(failure)}): wait ${until} and run the job again.`,
      { cause }
    );
  }
  if (!failure.answered) {
    return new PitcrewError(
      "github-unavailable",
      `pitcrew could not reach GitHub at ${context.baseUrl} to ${action}, still after ${context.retries} retries (${failure.message}): check the runner's network and GITHUB_API_URL, then run the job again.`,
      { cause }
    );
  }
  if (failure.status >= 500) {
    return new PitcrewError(
      "github-unavailable",
      `GitHub answered ${said(failure)} when pitcrew tried to ${action}, still after ${context.retries} retries: GitHub may be having an incident (https://www.githubstatus.com); run the job again later.`,
      { cause }
    );
  }
  return new PitcrewError(
    "github-request-failed",
    `GitHub answered ${said(failure)} when pitcrew tried to ${action}.`,
    { cause }
  );
}
function account(user) {
  return user ? { login: user.login, id: user.id, type: user.type } : GHOST;
}
function pullInfo(pull) {
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
      repoFullName: pull.head.repo?.full_name ?? null
    },
    base: { ref: pull.base.ref, sha: pull.base.sha, repoFullName: pull.base.repo.full_name }
  };
}
function permissionOf(data) {
  if (data.role_name === "maintain" || data.role_name === "triage") return data.role_name;
  if (data.permission === "admin" || data.permission === "write" || data.permission === "read") {
    return data.permission;
  }
  return "none";
}
function retrySecondaryRateLimits(retries) {
  return (octokit) => {
    octokit.hook.error("request", (error) => {
      const failure = failureOf(error);
      if (failure !== void 0 && isSecondaryRateLimit(failure)) {
        const after = Number(failure.headers["retry-after"] ?? SECONDARY_RATE_LIMIT_WAIT_SECONDS);
        const { retry: plugin } = octokit;
        throw plugin.retryRequest(error, retries, after);
      }
      throw error;
    });
  };
}
function createOctokit(options) {
  const retries = options.retry?.retries ?? DEFAULT_RETRIES;
  return getOctokit(
    options.token,
    {
      baseUrl: options.baseUrl,
      userAgent: "pitcrew",
      retry: { retries, retryAfterBaseValue: options.retry?.delayMs ?? DEFAULT_DELAY_MS }
    },
    retrySecondaryRateLimits(retries),
    retry
  );
}
function namedCalls(options) {
  const context = {
    baseUrl: options.baseUrl,
    retries: options.retry?.retries ?? DEFAULT_RETRIES
  };
  return async (action, request, permission) => {
    try {
      return await request();
    } catch (error) {
      const failure = failureOf(error);
      if (failure === void 0) throw error;
      throw namedError(action, failure, context, error, permission);
    }
  };
}
function createGitHubApi(options) {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);
  async function openPull(head, base) {
    const { data } = await octokit.rest.pulls.list({
      owner,
      repo,
      head: `${owner}:${head}`,
      ...base === void 0 ? {} : { base },
      state: "open",
      per_page: 1
    });
    return data[0] === void 0 ? void 0 : pullInfo(data[0]);
  }
  return {
    repository: () => call(`read the repository ${owner}/${repo}`, async () => {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      return { fullName: data.full_name, defaultBranch: data.default_branch };
    }),
    permission: (login) => call(`read ${login}'s permission on ${owner}/${repo}`, async () => {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
          owner,
          repo,
          username: login
        });
        return permissionOf(data);
      } catch (error) {
        if (failureOf(error)?.status === 404) return "none";
        throw error;
      }
    }),
    issue: (number) => call(`read issue #${number}`, async () => {
      const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: number });
      return {
        number: data.number,
        title: data.title,
        body: data.body ?? "",
        user: account(data.user),
        authorAssociation: data.author_association ?? "NONE",
        htmlUrl: data.html_url,
        isPullRequest: data.pull_request !== void 0
      };
    }),
    comments: (issueNumber) => call(`read the comments of #${issueNumber}`, async () => {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issueNumber,
        per_page: 100
      });
      return comments.map((comment) => ({
        id: comment.id,
        body: comment.body ?? "",
        user: account(comment.user),
        authorAssociation: comment.author_association ?? "NONE",
        createdAt: comment.created_at,
        htmlUrl: comment.html_url
      }));
    }),
    createComment: (issueNumber, body) => call(`comment on #${issueNumber}`, async () => {
      const { data } = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: issueNumber,
        body
      });
      return { id: data.id, htmlUrl: data.html_url };
    }),
    updateComment: (commentId, body) => call(`edit comment ${commentId}`, async () => {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body });
    }),
    react: (commentId, reaction) => call(`react ${reaction} to comment ${commentId}`, async () => {
      await octokit.rest.reactions.createForIssueComment({
        owner,
        repo,
        comment_id: commentId,
        content: reaction
      });
    }),
    pull: (number) => call(`read pull request #${number}`, async () => {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
      return pullInfo(data);
    }),
    findOpenPull: (head, base) => call(
      `look for an open pull request from ${head}${base === void 0 ? "" : ` into ${base}`}`,
      () => openPull(head, base)
    ),
    createPull: (pull) => call(`open a pull request from ${pull.head} into ${pull.base}`, async () => {
      try {
        const { data } = await octokit.rest.pulls.create({ owner, repo, ...pull });
        return pullInfo(data);
      } catch (error) {
        const failure = failureOf(error);
        if (failure?.status !== 422 || !mentions(failure, PR_EXISTS)) throw error;
        const existing = await openPull(pull.head, pull.base);
        if (existing === void 0) throw error;
        return existing;
      }
    }),
    updatePull: (number, pull) => call(`edit pull request #${number}`, async () => {
      const { data } = await octokit.rest.pulls.update({
        owner,
        repo,
        pull_number: number,
        title: pull.title,
        body: pull.body
      });
      return pullInfo(data);
    }),
    markReady: (pull) => call(`mark pull request #${pull.number} ready for review`, async () => {
      await octokit.graphql(
        "mutation ($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }",
        { id: pull.nodeId }
      );
      return { ...pull, draft: false };
    })
  };
}

// src/triggers/event.ts
import { createHash } from "node:crypto";
var AccountSchema = external_exports.object({ login: external_exports.string().min(1), id: external_exports.number(), type: external_exports.string() });
var RepositorySchema = external_exports.object({
  name: external_exports.string().min(1),
  owner: external_exports.object({ login: external_exports.string().min(1) }),
  default_branch: external_exports.string().min(1)
});
var IssueCommentSchema = external_exports.object({
  action: external_exports.string(),
  issue: external_exports.object({
    number: external_exports.number(),
    /** Present only when the conversation is a pull request's. */
    pull_request: external_exports.object({}).nullish()
  }),
  comment: external_exports.object({
    id: external_exports.number(),
    html_url: external_exports.string(),
    body: external_exports.string(),
    user: AccountSchema,
    author_association: external_exports.string()
  }),
  repository: RepositorySchema
});
var WorkflowDispatchSchema = external_exports.object({
  inputs: external_exports.record(external_exports.string(), external_exports.unknown()).nullish(),
  sender: AccountSchema,
  repository: RepositorySchema
});
var ScheduleSchema = external_exports.object({
  schedule: external_exports.string().nullish(),
  repository: RepositorySchema
});
var FLAKY_TRIAGE_TASK = "flaky-triage";
var FLAKY_TRIAGE_THREAD = "flaky-triage";
var SCHEDULE_ACCOUNT = { login: "github-actions[bot]", id: 41898282, type: "Bot" };
var WorkflowRunSchema = external_exports.object({
  action: external_exports.string(),
  workflow: external_exports.object({ name: external_exports.string() }).nullish(),
  workflow_run: external_exports.object({
    id: external_exports.number(),
    run_attempt: external_exports.number().int().positive(),
    name: external_exports.string().nullish(),
    path: external_exports.string().min(1),
    head_sha: external_exports.string().min(1),
    head_branch: external_exports.string().nullable(),
    event: external_exports.string(),
    conclusion: external_exports.string().nullable(),
    html_url: external_exports.string(),
    actor: AccountSchema,
    triggering_actor: AccountSchema,
    head_repository: external_exports.object({ full_name: external_exports.string() }).nullable(),
    created_at: external_exports.string(),
    updated_at: external_exports.string()
  }),
  repository: RepositorySchema
});
var ACTED_ON_EVENTS = [
  "issue_comment",
  "workflow_dispatch",
  "workflow_run",
  "schedule"
];
var COMMANDS = { fix: "fix", continue: "continue" };
function parseEvent({ eventName, payload, triggerPhrase: triggerPhrase2, runId }) {
  const parsers = {
    issue_comment: () => parseIssueComment(payload, triggerPhrase2),
    workflow_dispatch: () => parseWorkflowDispatch(payload, runId),
    workflow_run: () => parseWorkflowRun(payload),
    schedule: () => parseSchedule(payload)
  };
  if (!isActedOn(eventName)) {
    return { kind: "ignore", reason: `pitcrew does not act on ${eventName} events` };
  }
  return parsers[eventName]();
}
function isActedOn(eventName) {
  return ACTED_ON_EVENTS.includes(eventName);
}
function parseIssueComment(payload, triggerPhrase2) {
  const event = checked(IssueCommentSchema, payload, "issue_comment");
  if (event.action !== "created") {
    const what = event.action === "edited" || event.action === "deleted" ? `the comment was ${event.action}` : `the comment event's action is "${event.action}"`;
    return { kind: "ignore", reason: `${what}; only new comments start work` };
  }
  const request = parseRequest(event.comment.body, triggerPhrase2);
  if (request === void 0) {
    return {
      kind: "ignore",
      reason: `the comment does not start with "${triggerPhrase2}" followed by a space or the end`
    };
  }
  const { number } = event.issue;
  const thread = event.issue.pull_request ? { kind: "pr", number } : { kind: "issue", number };
  const task = {
    ...request,
    thread,
    threadKey: `${thread.kind}-${number}`,
    requester: person(event.comment.user, event.comment.author_association),
    comment: { id: event.comment.id, htmlUrl: event.comment.html_url },
    repository: repository(event.repository)
  };
  return { kind: "task", task };
}
function parseRequest(body, triggerPhrase2) {
  const text = body.trimStart();
  if (!text.startsWith(triggerPhrase2)) return void 0;
  const rest = text.slice(triggerPhrase2.length);
  if (rest !== "" && !/^\s/.test(rest)) return void 0;
  const words = rest.trim();
  if (words === "") return { kind: "fix", instruction: "" };
  const [first = ""] = words.split(/\s/, 1);
  const command = COMMANDS[first.toLowerCase()];
  if (command === void 0) return { kind: "instruction", instruction: words };
  return { kind: command, instruction: words.slice(first.length).trim() };
}
function parseWorkflowDispatch(payload, runId) {
  const event = checked(WorkflowDispatchSchema, payload, "workflow_dispatch");
  const instruction = event.inputs?.["task"];
  if (typeof instruction !== "string" || instruction.trim() === "") {
    throw new PitcrewError(
      "event-invalid",
      "The manual run has no task: add a `task` input under the workflow's `on.workflow_dispatch.inputs` and fill it in when starting the run."
    );
  }
  if (runId === "") {
    throw new PitcrewError(
      "event-invalid",
      "GITHUB_RUN_ID is empty, so the manual run's thread has no name; run pitcrew inside a GitHub Actions job."
    );
  }
  if (instruction.trim() === FLAKY_TRIAGE_TASK) {
    return {
      kind: "task",
      task: triageTask(person(event.sender, ""), repository(event.repository))
    };
  }
  const task = {
    kind: "dispatch",
    thread: { kind: "dispatch", runId },
    threadKey: `dispatch-${runId}`,
    instruction: instruction.trim(),
    // GitHub lets only people with write access start a workflow by hand; there is no association.
    requester: person(event.sender, ""),
    repository: repository(event.repository)
  };
  return { kind: "task", task };
}
function parseSchedule(payload) {
  const event = checked(ScheduleSchema, payload, "schedule");
  return {
    kind: "task",
    task: triageTask(person(SCHEDULE_ACCOUNT, ""), repository(event.repository))
  };
}
function triageTask(requester, repo) {
  return {
    kind: "flaky-triage",
    thread: { kind: "triage" },
    threadKey: FLAKY_TRIAGE_THREAD,
    instruction: "",
    requester,
    repository: repo
  };
}
var REPAIRED = /* @__PURE__ */ new Set(["failure", "timed_out"]);
function parseWorkflowRun(payload) {
  const event = checked(WorkflowRunSchema, payload, "workflow_run");
  const run = event.workflow_run;
  if (event.action !== "completed") {
    return {
      kind: "ignore",
      reason: `the workflow run is ${event.action}, not completed; pitcrew repairs finished runs`
    };
  }
  if (run.conclusion === null || !REPAIRED.has(run.conclusion)) {
    return {
      kind: "ignore",
      reason: `the workflow run ended with ${run.conclusion ?? "no conclusion"}; pitcrew repairs failed or timed-out runs`
    };
  }
  if (run.head_branch === null || run.head_branch === "") {
    return { kind: "ignore", reason: "the failed run has no branch (a tag or a detached commit)" };
  }
  const branch = run.head_branch;
  const failedRun = {
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
    updatedAt: run.updated_at
  };
  const task = {
    kind: "ci-repair",
    thread: { kind: "ci", branch },
    threadKey: `ci-${branchKey(branch)}`,
    instruction: "",
    requester: person(run.triggering_actor, ""),
    repository: repository(event.repository),
    failedRun
  };
  return { kind: "task", task };
}
function branchKey(branch) {
  const safe = branch.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 60);
  if (safe === branch) return safe;
  const hash = createHash("sha256").update(branch).digest("hex").slice(0, 6);
  return `${safe || "branch"}-${hash}`;
}
function checked(schema, payload, eventName) {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const what = field === "" ? "is not an object" : `has no usable ${field}`;
  throw new PitcrewError(
    "event-invalid",
    `The ${eventName} event payload ${what} (${issue?.message ?? "invalid"}); pitcrew reads the event file GitHub writes (GITHUB_EVENT_PATH), so run it from a workflow triggered by that event, not with a hand-made payload.`
  );
}
function person(account2, association) {
  return { login: account2.login, id: account2.id, type: account2.type, association };
}
function repository(repo) {
  return { owner: repo.owner.login, repo: repo.name, defaultBranch: repo.default_branch };
}

// src/runner.ts
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
function repositoryIdOf(payload) {
  const id = payload?.repository?.id;
  return typeof id === "number" && Number.isInteger(id) ? id : void 0;
}
function required(env, name) {
  const value = env[name];
  if (value === void 0 || value === "") {
    throw new PitcrewError(
      "runner-env-missing",
      `${name} is not set: pitcrew runs as a step of a GitHub Actions workflow (for a local checkout use the CLI: pitcrew run).`
    );
  }
  return value;
}
function runnerContext(env = process.env) {
  const eventPath = required(env, "GITHUB_EVENT_PATH");
  let payload;
  try {
    payload = JSON.parse(readFileSync(eventPath, "utf8"));
  } catch (error) {
    throw new PitcrewError(
      "event-invalid",
      `The event payload at ${eventPath} could not be read as JSON: ${describeError(error)}`
    );
  }
  const [owner, repo] = required(env, "GITHUB_REPOSITORY").split("/");
  if (!owner || !repo) {
    throw new PitcrewError(
      "runner-env-missing",
      `GITHUB_REPOSITORY should be owner/name, not '${env.GITHUB_REPOSITORY}'.`
    );
  }
  const serverUrl = env.GITHUB_SERVER_URL || "https://github.com";
  const runId = required(env, "GITHUB_RUN_ID");
  return {
    eventName: required(env, "GITHUB_EVENT_NAME"),
    payload,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || "https://api.github.com",
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    runId,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    sha: env.GITHUB_SHA || "HEAD",
    tempDir: env.RUNNER_TEMP || tmpdir(),
    workflowRef: env.GITHUB_WORKFLOW_REF || void 0,
    repositoryId: repositoryIdOf(payload)
  };
}
function runningActionRoot(from = import.meta.url) {
  let folder = dirname(fileURLToPath(from));
  for (; ; ) {
    if (existsSync(join(folder, "action.yml"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return void 0;
    folder = parent;
  }
}

// src/store/artifact.ts
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join as join2 } from "node:path";

// src/store/scrub.ts
import { Buffer as Buffer2 } from "node:buffer";
var KNOWN = KNOWN_KINDS.plain;
var KNOWN_BASE64 = KNOWN_KINDS.base64;
function withheldMarker(kind) {
  return `[withheld: ${kind}]`;
}
function base64(value) {
  return Buffer2.from(value).toString("base64").replace(/=+$/, "");
}
function jsonForms(value) {
  const once = JSON.stringify(value).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [once, twice];
}
function needsEscape(value) {
  return JSON.stringify(value) !== `"${value}"`;
}
function escapeRegex(value) {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
function inline(pattern) {
  const flags = pattern.regex.flags.replace(/[^ims]/g, "");
  return flags === "" ? `(?:${pattern.regex.source})` : `(?${flags}:${pattern.regex.source})`;
}
function compile(needles) {
  const literals = [...needles.keys()].sort((a, b) => b.length - a.length).map(escapeRegex);
  return new RegExp([...literals, ...PATTERNS.map(inline)].join("|"), `g${UNICODE}`);
}
var UNICODE = PATTERNS.some((pattern) => pattern.regex.unicode) ? "u" : "";
var WHOLE = PATTERNS.map((pattern) => ({
  pattern,
  whole: new RegExp(`^${inline(pattern)}$`, UNICODE)
}));
function patternKind(value) {
  for (const { pattern, whole } of WHOLE) {
    if (!whole.test(value)) continue;
    if (pattern.random === true && !looksRandom(value)) continue;
    if (pattern.example?.test(value) === true) continue;
    return pattern.kind;
  }
  return void 0;
}
function backslashesBefore(text, at) {
  let count = 0;
  while (at - count - 1 >= 0 && text[at - count - 1] === "\\") count++;
  return count;
}
var HEX = /^[0-9a-fA-F]*$/;
function widen(text, start, end) {
  let from = start;
  if (backslashesBefore(text, from) % 2 === 1) from -= 1;
  else {
    for (let back = 2; back <= 5; back++) {
      const at = from - back;
      if (at < 0) break;
      if (text[at] === "\\" && text[at + 1] === "u" && backslashesBefore(text, at) % 2 === 0 && HEX.test(text.slice(at + 2, from))) {
        from = at;
        break;
      }
    }
  }
  let to = end;
  for (let i = from; i < to; i++) {
    if (text[i] !== "\\") continue;
    const length = text[i + 1] === "u" ? 6 : 2;
    to = Math.max(to, i + length);
    i += length - 1;
  }
  return [from, Math.min(to, text.length)];
}
function createScrubber(known) {
  const values = known.filter((value) => value.length >= MIN_KNOWN_LENGTH);
  const needlesOf = (format) => {
    const needles = /* @__PURE__ */ new Map();
    for (const value of values) {
      const forms = [base64(value), base64(`x-access-token:${value}`)];
      for (const form of forms) needles.set(form, KNOWN_BASE64);
      if (format === "text" || !needsEscape(value)) needles.set(value, KNOWN);
      if (format === "json") for (const form of jsonForms(value)) needles.set(form, KNOWN);
    }
    return needles;
  };
  const compiled = /* @__PURE__ */ new Map();
  const of = (format) => {
    let found = compiled.get(format);
    if (found === void 0) {
      const needles = needlesOf(format);
      found = { regex: compile(needles), needles };
      compiled.set(format, found);
    }
    return found;
  };
  return {
    scrub(text, format) {
      const { regex, needles } = of(format);
      const parts = [];
      let last = 0;
      let withheld = 0;
      for (const match of text.matchAll(regex)) {
        const kind = needles.get(match[0]) ?? patternKind(match[0]);
        if (kind === void 0) continue;
        const [from, end] = format === "json" ? widen(text, match.index, match.index + match[0].length) : [match.index, match.index + match[0].length];
        const start = Math.max(from, last);
        if (end <= start) continue;
        parts.push(text.slice(last, start), withheldMarker(kind));
        last = end;
        withheld++;
      }
      if (withheld === 0) return { text, withheld };
      parts.push(text.slice(last));
      return { text: parts.join(""), withheld };
    }
  };
}
function scrubNotes(notes, known) {
  const scrubber = createScrubber(known);
  const note = scrubber.scrub(notes.note, "text");
  const state = scrubber.scrub(JSON.stringify(notes.state), "json");
  const transcript = scrubber.scrub(notes.transcript, "json");
  return {
    notes: {
      note: note.text,
      state: state.withheld === 0 ? notes.state : JSON.parse(state.text),
      transcript: transcript.text
    },
    withheld: note.withheld + state.withheld + transcript.withheld
  };
}

// src/store/seal.ts
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
var SEAL_FILE = "notes.mac";
var SEAL_CAP = 256;
var SCHEME = "hmac-sha256:";
var SEALED = /^hmac-sha256:([0-9a-f]{64})$/;
var KEY_INFO = "pitcrew notes seal v1";
var MAC_DOMAIN = "pitcrew-notes-seal-v1";
function sealKey(secret) {
  return Buffer.from(hkdfSync("sha256", secret, "pitcrew", KEY_INFO, 32));
}
function mac(key, text) {
  const hmac = createHmac("sha256", key);
  hmac.update(`${MAC_DOMAIN}\0`);
  for (const [name, value] of [
    ["note", text.note],
    ["state", text.state],
    ["transcript", text.transcript]
  ]) {
    const bytes = Buffer.from(value, "utf8");
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(bytes.length));
    hmac.update(`${name}\0`);
    hmac.update(length);
    hmac.update(bytes);
  }
  return hmac.digest();
}
function seal(key, text) {
  return `${SCHEME}${mac(key, text).toString("hex")}
`;
}
function sealMatches(key, text, sealed) {
  const hex = SEALED.exec(sealed.trim())?.[1];
  if (hex === void 0) return false;
  return timingSafeEqual(Buffer.from(hex, "hex"), mac(key, text));
}

// src/store/pack.ts
var SAVED_FILES = [NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE, SEAL_FILE];
var SEAL_MISMATCH = "its seal does not match: written by another key or changed after";
function packNotes(notes, key, secrets) {
  const scrubbed = scrubNotes(notes, secrets);
  const text = notesText(scrubbed.notes);
  return {
    files: {
      [NOTE_FILE]: text.note,
      [STATE_FILE]: text.state,
      [TRANSCRIPT_FILE]: text.transcript,
      [SEAL_FILE]: seal(key, text)
    },
    withheld: scrubbed.withheld
  };
}
function restoredNotes(notes, where) {
  const { state } = notes;
  const { threadKey, repository: repository2, from } = where;
  const wrong = state.repository.toLowerCase() !== repository2.toLowerCase() ? `they belong to the repository ${state.repository}, not ${repository2}` : state.threadKey !== threadKey ? `they belong to the thread ${state.threadKey}, not ${threadKey}` : void 0;
  if (wrong === void 0) return { found: true, notes, from };
  return { found: false, damaged: true, reason: `the notes in ${from} were not used: ${wrong}` };
}

// src/store/provenance.ts
var MAX_RUNS_CHECKED = 20;
function workflowPathOf(ref, withRepository) {
  const at = ref.lastIndexOf("@");
  const withoutRef = at === -1 ? ref : ref.slice(0, at);
  const path = withRepository ? withoutRef.split("/").slice(2).join("/") : withoutRef;
  return path === "" ? void 0 : path;
}
function distrust(run, expected) {
  const path = workflowPathOf(run.path, false);
  if (path !== expected.workflowPath) {
    return `its run ran the workflow ${run.path}, not ${expected.workflowPath}`;
  }
  if (!isActedOn(run.event)) {
    return `its run was triggered by ${run.event}; pitcrew acts only on ${ACTED_ON_EVENTS.slice(0, -1).join(", ")} and ${ACTED_ON_EVENTS.at(-1)}`;
  }
  const head = run.head_repository;
  if (head === null) return "its run names no head repository";
  if (head.id !== expected.repositoryId) {
    return `its run's code came from ${head.full_name} (repository ${head.id}), not from this repository (${expected.repositoryId})`;
  }
  return void 0;
}
async function lookUpRun(octokit, where, runId) {
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...where, run_id: runId });
    return { path: data.path, event: data.event, head_repository: data.head_repository };
  } catch (error) {
    if (error?.status === 404) return void 0;
    throw error;
  }
}
function runChecker(octokit, where, repositoryId) {
  let ownId;
  return async (runId, workflowPath) => {
    const run = await lookUpRun(octokit, where, runId);
    if (run === void 0) return `its run ${runId} was not found`;
    ownId ??= repositoryId === void 0 ? octokit.rest.repos.get(where).then(({ data }) => data.id) : Promise.resolve(repositoryId);
    return distrust(run, { workflowPath, repositoryId: await ownId });
  };
}

// src/store/artifact.ts
var MAX_NOTES_ARTIFACT_BYTES = STATE_CAP + NOTE_CAP + TRANSCRIPT_CAP + 1024 * 1024;
var NO_NOTES = "no notes saved for this thread yet";
var EXPIRED = "the notes saved for this thread have expired: GitHub deletes an artifact when its retention period ends, and the thread's last run was longer ago than that";
var UNSUPPORTED = "workflow artifacts (v4) are not available on GitHub Enterprise Server, so pitcrew cannot keep a thread's notes there: each run starts fresh";
var PAGE = 100;
var THREAD_PAGES = 3;
function artifactsAvailable(serverUrl) {
  const host = URL.parse(serverUrl || "https://github.com")?.hostname.toLowerCase();
  if (host === void 0) return false;
  return host === "github.com" || host.endsWith(".ghe.com") || host.endsWith(".localhost");
}
function newestFirst(a, b) {
  return (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id - a.id;
}
function notesCandidates(listed, name) {
  const named = listed.filter((artifact) => artifact.name === name);
  const artifacts = named.filter((artifact) => !artifact.expired).sort(newestFirst);
  if (artifacts.length === 0) return { reason: named.length === 0 ? NO_NOTES : EXPIRED };
  return { artifacts };
}
function oversized(artifact) {
  if (artifact.size_in_bytes <= MAX_NOTES_ARTIFACT_BYTES) return void 0;
  return `${describeArtifact(artifact)} is ${artifact.size_in_bytes} bytes, more than notes can be (${MAX_NOTES_ARTIFACT_BYTES}); it was not downloaded`;
}
function describeArtifact(artifact) {
  return `artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"}`;
}
function isNamed(error, name) {
  return error instanceof Error && error.name === name;
}
function statusOf(error) {
  const status = error?.status;
  return typeof status === "number" ? status : void 0;
}
function artifactModule() {
  return import("./chunk-G47V2ZNO.js");
}
function createArtifactStore(options) {
  const { token, owner, repo, log } = options;
  const repository2 = `${owner}/${repo}`;
  const key = sealKey(options.sealSecret);
  let loaded;
  const artifactClient = () => loaded ??= artifactModule().then((module) => new module.DefaultArtifactClient());
  const octokit = createOctokit({ token, baseUrl: options.apiUrl });
  let saving = Promise.resolve();
  async function upload(notes) {
    const name = notesName(notes.state.threadKey);
    const dir = await mkdtemp(join2(options.tempDir, "pitcrew-notes-save-"));
    try {
      const packed = packNotes(notes, key, options.secrets);
      for (const file of SAVED_FILES) await writeFile(join2(dir, file), packed.files[file]);
      if (packed.withheld > 0) {
        log.info(`notes: withheld ${packed.withheld} secret-looking value(s) before the upload`);
      }
      try {
        const client = await artifactClient();
        await client.deleteArtifact(name).catch((error) => {
          if (!isNamed(error, "ArtifactNotFoundError")) throw error;
        });
        const files = SAVED_FILES.map((file) => join2(dir, file));
        const { id } = await client.uploadArtifact(name, files, dir, {
          retentionDays: options.retentionDays
        });
        log.info(`Saved the thread's notes as artifact ${id} (${name}).`);
      } catch (error) {
        if (isNamed(error, "GHESNotSupportedError")) {
          throw new PitcrewError("notes-unsupported", `${UNSUPPORTED}.`, { cause: error });
        }
        throw new PitcrewError(
          "notes-save-failed",
          `pitcrew could not save the thread's notes as the artifact ${name} (${describeError(error)}); the next run continues from the notes saved before, if any.`,
          { cause: error }
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  async function download(artifact, threadKey) {
    const from = describeArtifact(artifact);
    const dir = await mkdtemp(join2(options.tempDir, "pitcrew-notes-restore-"));
    try {
      try {
        const client = await artifactClient();
        await client.downloadArtifact(artifact.id, {
          path: dir,
          findBy: {
            token,
            workflowRunId: artifact.workflow_run?.id ?? 0,
            repositoryOwner: owner,
            repositoryName: repo
          }
        });
      } catch (error) {
        if (isNamed(error, "GHESNotSupportedError")) return { found: false, reason: UNSUPPORTED };
        if (statusOf(error) === 410) return { found: false, reason: EXPIRED };
        return {
          found: false,
          damaged: true,
          reason: `${from} could not be downloaded and unpacked (${describeError(error)})`
        };
      }
      let text;
      let notes;
      try {
        text = readNotesText(dir);
        if (!sealed(dir, text)) return { ignored: SEAL_MISMATCH };
        notes = notesFromText(text);
      } catch (error) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} are unusable (${describeError(error)})`
        };
      }
      return restoredNotes(notes, { threadKey, repository: repository2, from });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  function sealed(dir, text) {
    let given;
    try {
      given = readCapped(dir, SEAL_FILE, SEAL_CAP);
    } catch {
      return false;
    }
    return sealMatches(key, text, given);
  }
  const checkRun = runChecker(octokit, { owner, repo }, options.repositoryId);
  async function consider(artifact, threadKey, workflowPath) {
    const runId = artifact.workflow_run?.id;
    if (runId === void 0) return { ignored: "it names no workflow run" };
    let why;
    try {
      why = await checkRun(runId, workflowPath);
    } catch (error) {
      return {
        found: false,
        damaged: true,
        reason: `pitcrew could not check which run made ${describeArtifact(artifact)} (${describeError(error)})`
      };
    }
    if (why !== void 0) return { ignored: why };
    const tooBig = oversized(artifact);
    if (tooBig !== void 0) return { found: false, damaged: true, reason: tooBig };
    return download(artifact, threadKey);
  }
  return {
    save(notes) {
      const saved = saving.then(() => upload(notes));
      saving = saved.catch(() => void 0);
      return saved;
    },
    async restore(threadKey) {
      const name = notesName(threadKey);
      const workflowPath = options.workflowRef === void 0 ? void 0 : workflowPathOf(options.workflowRef, true);
      if (workflowPath === void 0) {
        return {
          found: false,
          damaged: true,
          reason: "GITHUB_WORKFLOW_REF does not name this run's workflow file, so no notes artifact can be checked as pitcrew's own; run pitcrew as a step of a GitHub Actions workflow"
        };
      }
      let listed;
      try {
        const { data } = await octokit.rest.actions.listArtifactsForRepo({
          owner,
          repo,
          name,
          per_page: PAGE
        });
        listed = data.artifacts;
      } catch (error) {
        const hint = statusOf(error) === 403 ? "; the job needs `permissions: { actions: read }`" : "";
        return {
          found: false,
          reason: `pitcrew could not list the artifacts of ${repository2} (${describeError(error)})${hint}`
        };
      }
      const candidates = notesCandidates(listed, name);
      if ("reason" in candidates) return { found: false, reason: candidates.reason };
      const checked2 = candidates.artifacts.slice(0, MAX_RUNS_CHECKED);
      for (const artifact of checked2) {
        const outcome = await consider(artifact, threadKey, workflowPath);
        if (!("ignored" in outcome)) return outcome;
        log.warning(
          `ignored notes artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"} (${outcome.ignored})`
        );
      }
      const unchecked = candidates.artifacts.length - checked2.length;
      return {
        found: false,
        reason: `none of the thread's ${checked2.length} newest notes artifacts was saved by this workflow's own runs with a valid seal` + (unchecked > 0 ? `; ${unchecked} older ones were not checked (at most ${MAX_RUNS_CHECKED} are)` : "")
      };
    },
    async threads(prefix, limit) {
      const named = notesName(prefix);
      const keys = [];
      for (let page = 1; page <= THREAD_PAGES && keys.length < limit; page++) {
        const { data } = await octokit.rest.actions.listArtifactsForRepo({
          owner,
          repo,
          per_page: PAGE,
          page
        });
        for (const artifact of [...data.artifacts].sort(newestFirst)) {
          const key2 = artifact.name.slice(notesName("").length);
          if (artifact.expired || !artifact.name.startsWith(named) || keys.includes(key2)) continue;
          keys.push(key2);
        }
        if (data.artifacts.length < PAGE) break;
      }
      return keys.slice(0, limit);
    }
  };
}

// src/github/git-data.ts
var FILE_MODE = "100644";
var WALK_PARALLEL = 8;
var REF_EXISTS = /Reference already exists/i;
var NOT_FAST_FORWARD = /Update is not a fast forward/i;
var REF_GONE = /Reference does not exist/i;
var REF_UPDATE_FAILED = /Reference update failed/i;
function refused(error, ...patterns) {
  const failure = failureOf(error);
  if (failure?.status !== 422) return false;
  const said2 = [failure.message, ...failure.details];
  return patterns.some((pattern) => said2.some((text) => pattern.test(text)));
}
function byPath(a, b) {
  return Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));
}
function createGitData(options) {
  const { owner, repo } = options;
  const octokit = createOctokit(options);
  const call = namedCalls(options);
  const read = "contents: read";
  const write = "contents: write";
  async function listTree(sha, recursive) {
    const { data } = await octokit.rest.git.getTree({
      owner,
      repo,
      tree_sha: sha,
      ...recursive ? { recursive: "1" } : {}
    });
    return data;
  }
  async function walkTree(root) {
    const files = [];
    let level = [{ sha: root, prefix: "" }];
    while (level.length > 0) {
      const next = [];
      for (let i = 0; i < level.length; i += WALK_PARALLEL) {
        const listed = await Promise.all(
          level.slice(i, i + WALK_PARALLEL).map(async (tree) => ({
            tree,
            data: await listTree(tree.sha, false)
          }))
        );
        for (const { tree, data } of listed) {
          if (data.truncated) {
            throw new PitcrewError(
              "github-tree-too-big",
              `GitHub would not list tree ${tree.sha.slice(0, 12)} (${tree.prefix || "/"}) whole, even one level of it: keep fewer files in that folder of the ref.`
            );
          }
          for (const entry of data.tree) {
            if (entry.sha === void 0 || entry.path === void 0) continue;
            const path = `${tree.prefix}${entry.path}`;
            if (entry.type === "tree") next.push({ sha: entry.sha, prefix: `${path}/` });
            else if (entry.type === "blob")
              files.push({ path, sha: entry.sha, size: entry.size ?? 0 });
          }
        }
      }
      level = next;
    }
    return files.sort(byPath);
  }
  const refSha = (ref) => call(
    `read the ref ${ref}`,
    async () => {
      try {
        const { data } = await octokit.rest.git.getRef({ owner, repo, ref });
        return data.object.sha;
      } catch (error) {
        if (failureOf(error)?.status === 404) return void 0;
        throw error;
      }
    },
    read
  );
  return {
    refSha,
    commit: (sha) => call(
      `read commit ${sha.slice(0, 12)}`,
      async () => {
        const { data } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: sha });
        return {
          tree: data.tree.sha,
          parents: data.parents.map((parent) => parent.sha),
          message: data.message
        };
      },
      read
    ),
    treeFiles: (tree) => call(
      `list tree ${tree.slice(0, 12)}`,
      async () => {
        const data = await listTree(tree, true);
        if (data.truncated) return walkTree(tree);
        return data.tree.flatMap(
          (entry) => entry.type === "blob" && entry.sha !== void 0 && entry.path !== void 0 ? [{ path: entry.path, sha: entry.sha, size: entry.size ?? 0 }] : []
        );
      },
      read
    ),
    blob: (sha) => call(
      `read blob ${sha.slice(0, 12)}`,
      async () => {
        const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: sha });
        return Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8");
      },
      read
    ),
    createBlob: (content) => call(
      `write a blob of ${content.length} bytes`,
      async () => {
        const { data } = await octokit.rest.git.createBlob({
          owner,
          repo,
          content: content.toString("base64"),
          encoding: "base64"
        });
        return data.sha;
      },
      write
    ),
    createTree: (changes, base) => {
      if (changes.length === 0 && base !== void 0) return Promise.resolve(base);
      return call(
        `write a tree of ${changes.length} changes`,
        async () => {
          const { data } = await octokit.rest.git.createTree({
            owner,
            repo,
            ...base === void 0 ? {} : { base_tree: base },
            // A null sha deletes the path from the base tree.
            tree: changes.map((change) => ({
              path: change.path,
              mode: FILE_MODE,
              type: "blob",
              sha: change.sha
            }))
          });
          return data.sha;
        },
        write
      );
    },
    createCommit: ({ message, tree, parents }) => call(
      `write a commit on tree ${tree.slice(0, 12)}`,
      async () => {
        const { data } = await octokit.rest.git.createCommit({
          owner,
          repo,
          message,
          tree,
          parents
        });
        return data.sha;
      },
      write
    ),
    moveRef: (ref, sha, expected) => expected === void 0 ? call(
      `create the ref ${ref}`,
      async () => {
        try {
          await octokit.rest.git.createRef({ owner, repo, ref: `refs/${ref}`, sha });
          return true;
        } catch (error) {
          if (!refused(error, REF_EXISTS, REF_UPDATE_FAILED)) throw error;
          return await refSha(ref) === sha;
        }
      },
      write
    ) : call(
      `move the ref ${ref} to ${sha.slice(0, 12)}`,
      async () => {
        try {
          await octokit.rest.git.updateRef({ owner, repo, ref, sha, force: false });
          return true;
        } catch (error) {
          if (!refused(error, NOT_FAST_FORWARD, REF_GONE, REF_UPDATE_FAILED)) throw error;
          return false;
        }
      },
      write
    )
  };
}

// src/store/post-state.ts
var NOTES_DIR_STATE = "notes-dir";
var NOTES_SAVED_STATE = "notes-saved";

// src/run/ends/action-notes.ts
import { join as join3 } from "node:path";

// src/store/ref-store.ts
var NOTES_REF_PREFIX = "pitcrew/notes/";
var RUN_TRAILER = "Pitcrew-Run-Id";
var MAX_MOVES = 5;
var THREAD_REFS_READ = 100;
var READ_AT_ONCE = 8;
var NO_NOTES2 = "no notes saved for this thread yet";
var THREAD_KEY = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
var RUN_LINE = new RegExp(`^${RUN_TRAILER}:[ \\t]*(.*?)[ \\t]*$`, "gm");
var CAPS = {
  [NOTE_FILE]: NOTE_CAP,
  [STATE_FILE]: STATE_CAP,
  [TRANSCRIPT_FILE]: TRANSCRIPT_CAP,
  [SEAL_FILE]: SEAL_CAP
};
function notesRef(threadKey) {
  return `${NOTES_REF_PREFIX}${threadKey}`;
}
function badKey(threadKey) {
  if (THREAD_KEY.test(threadKey) && !threadKey.includes("..") && !threadKey.endsWith(".lock")) {
    return void 0;
  }
  return `the thread key ${JSON.stringify(threadKey)} cannot name a git ref`;
}
function notesCommitMessage(threadKey, runId) {
  return `pitcrew: handoff notes of ${threadKey}

${RUN_TRAILER}: ${runId}
`;
}
function runOfCommit(message) {
  const named = [...message.matchAll(RUN_LINE)].map((match) => match[1] ?? "");
  if (named.length === 0) return { ignored: "it names no workflow run" };
  if (named.length > 1) return { ignored: `it names ${named.length} runs in ${RUN_TRAILER}` };
  const [value = ""] = named;
  const runId = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(runId)) {
    return { ignored: `its ${RUN_TRAILER} ${JSON.stringify(value)} is not a run's id` };
  }
  return { runId };
}
function describeCommit(sha, runId, ref) {
  const run = runId === void 0 ? "" : ` of run ${runId}`;
  return `notes commit ${sha.slice(0, 12)}${run} on refs/${ref}`;
}
async function fetchFile(git, files, name) {
  const entry = files.find((file) => file.path === name);
  if (entry === void 0) throw notesInvalid(name, "missing");
  checkSize(name, entry.size, CAPS[name]);
  const content = await git.blob(entry.sha);
  checkSize(name, content.length, CAPS[name]);
  return content.toString("utf8");
}
function isInvalid(error) {
  return error instanceof PitcrewError && error.code === "notes-invalid";
}
function listRefsOverRest(where) {
  const octokit = createOctokit({ token: where.token, baseUrl: where.apiUrl });
  return async (prefix) => {
    const refs = await octokit.paginate(octokit.rest.git.listMatchingRefs, {
      owner: where.owner,
      repo: where.repo,
      ref: prefix,
      per_page: 100
    });
    return refs.filter((listed) => listed.object.type === "commit" && listed.ref.startsWith("refs/")).map((listed) => ({ ref: listed.ref.slice("refs/".length), sha: listed.object.sha }));
  };
}
function createRefStore(options) {
  const { git, owner, repo, log } = options;
  const repository2 = `${owner}/${repo}`;
  const key = sealKey(options.sealSecret);
  const octokit = createOctokit({ token: options.token, baseUrl: options.apiUrl });
  let saving = Promise.resolve();
  async function write(notes) {
    const { threadKey } = notes.state;
    const ref = notesRef(threadKey);
    const bad = badKey(threadKey);
    if (bad !== void 0) {
      throw new PitcrewError("notes-save-failed", `pitcrew could not save the notes: ${bad}.`);
    }
    const packed = packNotes(notes, key, options.secrets);
    if (packed.withheld > 0) {
      log.info(`notes: withheld ${packed.withheld} secret-looking value(s) before the save`);
    }
    const failed = (why, cause) => new PitcrewError(
      "notes-save-failed",
      `pitcrew could not save the thread's notes on refs/${ref} (${why}); the next run continues from the notes saved before, if any.`,
      { cause }
    );
    try {
      const changes = await Promise.all(
        SAVED_FILES.map(async (path) => ({
          path,
          sha: await git.createBlob(Buffer.from(packed.files[path], "utf8"))
        }))
      );
      const tree = await git.createTree(changes);
      const message = notesCommitMessage(threadKey, options.runId);
      for (let attempt = 1; attempt <= MAX_MOVES; attempt++) {
        const parent = await git.refSha(ref);
        const parents = parent === void 0 ? [] : [parent];
        const commit = await git.createCommit({ message, tree, parents });
        if (await git.moveRef(ref, commit, parent)) {
          log.info(`Saved the thread's notes as commit ${commit} on refs/${ref}.`);
          return;
        }
        log.info(`notes: another run moved refs/${ref} first; saving on top of its commit`);
      }
      throw failed(`another run moved the ref ${MAX_MOVES} times while this one saved`);
    } catch (error) {
      if (error instanceof PitcrewError && error.code === "notes-save-failed") throw error;
      throw failed(describeError(error), error);
    }
  }
  const checkRun = runChecker(octokit, { owner, repo }, options.repositoryId);
  async function read(sha, tree, runId, ref, threadKey) {
    const from = describeCommit(sha, runId, ref);
    let notes;
    try {
      const files = await git.treeFiles(tree);
      const text = {
        state: await fetchFile(git, files, STATE_FILE),
        note: await fetchFile(git, files, NOTE_FILE),
        transcript: await fetchFile(git, files, TRANSCRIPT_FILE)
      };
      let given;
      try {
        given = await fetchFile(git, files, SEAL_FILE);
      } catch (error) {
        if (isInvalid(error)) return { ignored: SEAL_MISMATCH };
        throw error;
      }
      if (!sealMatches(key, text, given)) return { ignored: SEAL_MISMATCH };
      notes = notesFromText(text);
    } catch (error) {
      return {
        found: false,
        damaged: true,
        reason: isInvalid(error) ? `the notes in ${from} are unusable (${describeError(error)})` : `${from} could not be read (${describeError(error)})`
      };
    }
    return restoredNotes(notes, { threadKey, repository: repository2, from });
  }
  async function consider(sha, commit, ref, threadKey, workflowPath) {
    const named = runOfCommit(commit.message);
    if ("ignored" in named) return named;
    const { runId } = named;
    let why;
    try {
      why = await checkRun(runId, workflowPath);
    } catch (error) {
      return {
        found: false,
        damaged: true,
        reason: `pitcrew could not check which run made ${describeCommit(sha, runId, ref)} (${describeError(error)})`
      };
    }
    if (why !== void 0) return { ignored: why };
    return read(sha, commit.tree, runId, ref, threadKey);
  }
  return {
    save(notes) {
      const saved = saving.then(() => write(notes));
      saving = saved.catch(() => void 0);
      return saved;
    },
    async restore(threadKey) {
      const bad = badKey(threadKey);
      if (bad !== void 0) return { found: false, damaged: true, reason: bad };
      const ref = notesRef(threadKey);
      const workflowPath = options.workflowRef === void 0 ? void 0 : workflowPathOf(options.workflowRef, true);
      if (workflowPath === void 0) {
        return {
          found: false,
          damaged: true,
          reason: "GITHUB_WORKFLOW_REF does not name this run's workflow file, so no notes commit can be checked as pitcrew's own; run pitcrew as a step of a GitHub Actions workflow"
        };
      }
      let at;
      try {
        at = await git.refSha(ref);
      } catch (error) {
        return {
          found: false,
          reason: `pitcrew could not read refs/${ref} of ${repository2} (${describeError(error)})`
        };
      }
      if (at === void 0) return { found: false, reason: NO_NOTES2 };
      let checked2 = 0;
      while (at !== void 0 && checked2 < MAX_RUNS_CHECKED) {
        const sha = at;
        let commit;
        try {
          commit = await git.commit(sha);
        } catch (error) {
          return {
            found: false,
            damaged: true,
            reason: `${describeCommit(sha, void 0, ref)} could not be read (${describeError(error)})`
          };
        }
        checked2++;
        const outcome = await consider(sha, commit, ref, threadKey, workflowPath);
        if (!("ignored" in outcome)) return outcome;
        const named = runOfCommit(commit.message);
        log.warning(
          `ignored ${describeCommit(sha, "runId" in named ? named.runId : void 0, ref)} (${outcome.ignored})`
        );
        at = commit.parents[0];
      }
      return {
        found: false,
        reason: `none of the ${checked2} newest commits on refs/${ref} was saved by this workflow's own runs with a valid seal` + (at !== void 0 ? `; older ones were not checked (at most ${MAX_RUNS_CHECKED} are)` : "")
      };
    },
    async threads(prefix, limit) {
      if (options.listRefs === void 0) {
        throw new PitcrewError(
          "notes-unlisted",
          "this notes store was made without a way to list refs, so it cannot list threads."
        );
      }
      const wanted = notesRef(prefix);
      const listed = (await options.listRefs(wanted)).filter(
        (listed2) => listed2.ref.startsWith(wanted) && badKey(listed2.ref.slice(NOTES_REF_PREFIX.length)) === void 0
      );
      const dated = [];
      const read2 = listed.slice(0, THREAD_REFS_READ);
      for (let start = 0; start < read2.length; start += READ_AT_ONCE) {
        const batch = read2.slice(start, start + READ_AT_ONCE).map(async ({ ref, sha }) => {
          const named = await git.commit(sha).then(
            ({ message }) => runOfCommit(message),
            () => ({ ignored: "unreadable" })
          );
          return {
            key: ref.slice(NOTES_REF_PREFIX.length),
            run: "runId" in named ? named.runId : 0
          };
        });
        dated.push(...await Promise.all(batch));
      }
      return dated.sort((a, b) => b.run - a.run || a.key.localeCompare(b.key)).slice(0, limit).map((thread) => thread.key);
    }
  };
}

// src/run/ends/action-notes.ts
function threadNotes(place, threadKey, log) {
  return {
    ...place,
    restore: async () => {
      const restored = await place.store.restore(threadKey);
      if (restored.found) log.info(`notes: restored from ${restored.from}`);
      else if (restored.damaged) log.warning(`notes: starting fresh: ${restored.reason}`);
      else log.info(`notes: starting fresh (${restored.reason})`);
      return restored.found ? restored.notes : void 0;
    }
  };
}
function notesBackend(choice, serverUrl) {
  return choice === "ref" || !artifactsAvailable(serverUrl) ? "ref" : "artifact";
}
function createNotesStore(setting) {
  const { runner, token, log } = setting;
  const where = { token, owner: runner.owner, repo: runner.repo };
  if (notesBackend(setting.choice, setting.serverUrl) === "artifact") {
    return createArtifactStore({
      ...where,
      apiUrl: runner.apiUrl,
      retentionDays: setting.retentionDays,
      sealSecret: setting.sealSecret,
      secrets: setting.secrets,
      workflowRef: runner.workflowRef,
      repositoryId: runner.repositoryId,
      log,
      tempDir: runner.tempDir
    });
  }
  if (setting.choice !== "ref") {
    log.info(
      `notes: GitHub Enterprise Server has no workflow artifacts; the notes are kept on refs/${notesRef("<thread>")} instead`
    );
  }
  return createRefStore({
    ...where,
    git: setting.gitData ?? createGitData({ ...where, baseUrl: runner.apiUrl }),
    apiUrl: runner.apiUrl,
    runId: runner.runId,
    sealSecret: setting.sealSecret,
    secrets: setting.secrets,
    workflowRef: runner.workflowRef,
    repositoryId: runner.repositoryId,
    log,
    listRefs: listRefsOverRest({ ...where, apiUrl: runner.apiUrl })
  });
}
function notesPlace(runner, config, env, threadKey, effects) {
  const localDir = join3(runner.tempDir, "pitcrew-notes", threadKey);
  effects.saveState(NOTES_DIR_STATE, localDir);
  return {
    store: createNotesStore({
      choice: config.notesStore,
      runner,
      serverUrl: env.GITHUB_SERVER_URL,
      token: config.githubToken,
      retentionDays: config.retentionDays,
      sealSecret: config.notesKey ?? config.apiKey,
      secrets: knownSecrets(env, config),
      log: effects.log,
      gitData: effects.gitData
    }),
    localDir,
    onSaved: () => effects.saveState(NOTES_SAVED_STATE, "true")
  };
}

export {
  readInputs,
  failureOf,
  createOctokit,
  namedCalls,
  createGitHubApi,
  parseEvent,
  runnerContext,
  runningActionRoot,
  artifactModule,
  createGitData,
  NOTES_DIR_STATE,
  NOTES_SAVED_STATE,
  threadNotes,
  createNotesStore,
  notesPlace
};
