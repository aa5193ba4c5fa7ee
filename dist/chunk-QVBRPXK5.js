import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  ABOVE_ZERO,
  BRANCH_PREFIX,
  BUDGET,
  FLAG_TAKES,
  NOTE_CAP,
  NOTE_FILE,
  PitcrewError,
  STATE_CAP,
  STATE_FILE,
  TRANSCRIPT_CAP,
  TRANSCRIPT_FILE,
  WHOLE_ABOVE_ZERO,
  WHOLE_BUDGET,
  complaint,
  describeError,
  notesName,
  readNotesFolder,
  sandboxChoice,
  writeNotesFolder
} from "./chunk-2TAJJZDO.js";
import {
  getInput,
  getOctokit,
  retry,
  setSecret
} from "./chunk-UPY5WKLU.js";

// src/config/inputs.ts
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
  const sandbox = read("sandbox");
  const branchPrefix = read("branch-prefix");
  if (branchPrefix !== void 0) {
    const says = complaint(BRANCH_PREFIX, branchPrefix);
    if (says !== void 0) throw invalid("branch-prefix", says, branchPrefix);
  }
  return {
    apiKey,
    githubToken,
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
    allowedBots: allowedBots(read("allowed-bots")),
    branchPrefix,
    draft: flag("draft"),
    allowWorkflowChanges: flag("allow-workflow-changes"),
    retentionDays: number("retention-days", WHOLE_ABOVE_ZERO)
  };
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
function namedError(action, failure, context, cause) {
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
    return new PitcrewError(
      "github-permission-missing",
      `The token may not ${action} (${said(failure)}): give the workflow job \`${WORKFLOW_PERMISSIONS}\`.`,
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
function createGitHubApi(options) {
  const { owner, repo } = options;
  const context = {
    baseUrl: options.baseUrl,
    retries: options.retry?.retries ?? DEFAULT_RETRIES
  };
  const octokit = createOctokit(options);
  async function call(action, request) {
    try {
      return await request();
    } catch (error) {
      const failure = failureOf(error);
      if (failure === void 0) throw error;
      throw namedError(action, failure, context, error);
    }
  }
  async function openPull(head, base) {
    const { data } = await octokit.rest.pulls.list({
      owner,
      repo,
      head: `${owner}:${head}`,
      base,
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
    findOpenPull: (head, base) => call(`look for an open pull request from ${head} into ${base}`, () => openPull(head, base)),
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

// src/runner.ts
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
    tempDir: env.RUNNER_TEMP || tmpdir()
  };
}

// src/store/artifact.ts
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
var MAX_NOTES_ARTIFACT_BYTES = STATE_CAP + NOTE_CAP + TRANSCRIPT_CAP + 1024 * 1024;
var NO_NOTES = "no notes saved for this thread yet";
var EXPIRED = "the notes saved for this thread have expired: GitHub deletes an artifact when its retention period ends, and the thread's last run was longer ago than that";
var UNSUPPORTED = "workflow artifacts (v4) are not available on GitHub Enterprise Server, so pitcrew cannot keep a thread's notes there: each run starts fresh";
var PAGE = 100;
function newestFirst(a, b) {
  return (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id - a.id;
}
function chooseNotes(listed, name) {
  const named = listed.filter((artifact) => artifact.name === name);
  const newest = named.filter((artifact) => !artifact.expired).sort(newestFirst)[0];
  if (newest === void 0) return { reason: named.length === 0 ? NO_NOTES : EXPIRED };
  if (newest.size_in_bytes > MAX_NOTES_ARTIFACT_BYTES) {
    return {
      damaged: true,
      reason: `${describeArtifact(newest)} is ${newest.size_in_bytes} bytes, more than notes can be (${MAX_NOTES_ARTIFACT_BYTES}); it was not downloaded`
    };
  }
  return { artifact: newest };
}
function describeArtifact(artifact) {
  return `artifact ${artifact.id} of run ${artifact.workflow_run?.id ?? "unknown"}`;
}
function mismatch(notes, threadKey, repository) {
  const { state } = notes;
  if (state.repository.toLowerCase() !== repository.toLowerCase()) {
    return `they belong to the repository ${state.repository}, not ${repository}`;
  }
  if (state.threadKey !== threadKey) {
    return `they belong to the thread ${state.threadKey}, not ${threadKey}`;
  }
  return void 0;
}
function isNamed(error, name) {
  return error instanceof Error && error.name === name;
}
function statusOf(error) {
  const status = error?.status;
  return typeof status === "number" ? status : void 0;
}
function createArtifactStore(options) {
  const { token, owner, repo, log } = options;
  const repository = `${owner}/${repo}`;
  let loaded;
  const artifactClient = () => loaded ??= import("./chunk-EM22R24P.js").then((module) => new module.DefaultArtifactClient());
  const octokit = createOctokit({ token, baseUrl: options.apiUrl });
  let saving = Promise.resolve();
  async function upload(notes) {
    const name = notesName(notes.state.threadKey);
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-notes-save-"));
    try {
      writeNotesFolder(dir, notes);
      try {
        const client = await artifactClient();
        await client.deleteArtifact(name).catch((error) => {
          if (!isNamed(error, "ArtifactNotFoundError")) throw error;
        });
        const files = [NOTE_FILE, STATE_FILE, TRANSCRIPT_FILE].map((file) => join(dir, file));
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
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-notes-restore-"));
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
      let notes;
      try {
        notes = readNotesFolder(dir);
      } catch (error) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} are unusable (${describeError(error)})`
        };
      }
      const wrong = mismatch(notes, threadKey, repository);
      if (wrong !== void 0) {
        return {
          found: false,
          damaged: true,
          reason: `the notes in ${from} were not used: ${wrong}`
        };
      }
      log.info(`Restored the thread's notes from ${from}.`);
      return { found: true, notes, from };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    save(notes) {
      const saved = saving.then(() => upload(notes));
      saving = saved.catch(() => void 0);
      return saved;
    },
    async restore(threadKey) {
      const name = notesName(threadKey);
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
          reason: `pitcrew could not list the artifacts of ${repository} (${describeError(error)})${hint}`
        };
      }
      const choice = chooseNotes(listed, name);
      if ("reason" in choice) return { found: false, ...choice };
      return download(choice.artifact, threadKey);
    }
  };
}

// src/store/post-state.ts
var NOTES_DIR_STATE = "notes-dir";
var NOTES_SAVED_STATE = "notes-saved";

export {
  readInputs,
  createGitHubApi,
  runnerContext,
  createArtifactStore,
  NOTES_DIR_STATE,
  NOTES_SAVED_STATE
};
