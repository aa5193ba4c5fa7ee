/**
 * Publishes what the agent left in the checkout: checks it (no nested repository, no change to
 * workflows or other protected paths unless allowed, no secrets), commits it as the bot with the
 * requester as co-author, catches up with origin and pushes the thread's branch with a lease.
 * Opening the pull request is not done here.
 */
import { PitcrewError } from "../errors.ts";
import type { Person } from "../domain/task.ts";
import { fetchBranches } from "./branch.ts";
import { unquotePath } from "./diff.ts";
import { git, originEnv } from "./git.ts";
import { scanStagedFiles } from "./secret-files.ts";
import { scanForSecrets } from "./secret-scan.ts";
import {
  addedGitlinks,
  refuseNestedRepositories,
  refuseProtectedChanges,
  stagedChanges,
  untrackedRepositories,
} from "./staged-checks.ts";
import type { Finding, ScanItem } from "./secret-scan.ts";

export interface Identity {
  name: string;
  email: string;
}

/** GitHub's own Actions bot: commits pushed with GITHUB_TOKEN show as made by it. */
export const BOT_IDENTITY: Identity = {
  name: "github-actions[bot]",
  email: "41898282+github-actions[bot]@users.noreply.github.com",
};

export interface PublishRequest {
  workspace: string;
  branch: string;
  base: string;
  /** From prepareThreadBranch: what the run started from, and what origin's branch should still be. */
  startSha: string;
  message: string;
  coAuthor: Person;
  /** Sent with the fetch and the push only; absent: whatever the checkout has configured. */
  token?: string;
  /** Values that must never be published (knownSecrets()). */
  secrets: readonly string[];
  /** Everything else about to be published (pull request body, comment text): scanned too. */
  texts: readonly ScanItem[];
  /**
   * The pull request's title and body as they will be posted, given the branch's diffstat against
   * its base: made and scanned after the commit, before the push, so the file names the diffstat
   * lists are checked in the final text.
   */
  pullRequestText?: (diffstat: string) => PullRequestText;
  allowWorkflowChanges: boolean;
  /**
   * What the repository's CI runs besides workflows (protectedPatterns()): a change under one is
   * refused. Empty when the repository set `allow-protected-changes: true`.
   */
  protectedPaths: readonly string[];
  identity?: Identity;
}

export interface PullRequestText {
  title: string;
  body: string;
}

export interface Published {
  outcome: "pushed" | "no-changes";
  sha?: string;
  diffstat: string;
  files: string[];
  /** The commits were replayed onto a newer remote branch or base before the push. */
  rebased: boolean;
  /** Things a person should know about how the push went (a skipped rebase, …). */
  notes: string[];
  /** pullRequestText's answer, scanned, when the branch was pushed. */
  pullRequest?: PullRequestText;
}

const WORKFLOWS = ".github/workflows/";

/** The noreply address GitHub attributes to the account, whatever its email settings. */
export function coAuthorTrailer(person: Person): string {
  return `Co-authored-by: ${person.login} <${person.id}+${person.login}@users.noreply.github.com>`;
}

export function workflowFiles(files: readonly string[]): string[] {
  return files.filter((file) => file.startsWith(WORKFLOWS));
}

/**
 * The added lines of a `git diff -U0 --src-prefix=a/ --dst-prefix=b/` as scan items: one per
 * hunk, numbered from the hunk's first line in the new file.
 */
export function addedLines(diff: string): ScanItem[] {
  const items: ScanItem[] = [];
  let path: string | undefined;
  let inHunk = false;
  let block: string[] = [];
  let start = 0;
  const flush = (): void => {
    if (path !== undefined && block.length > 0) {
      items.push({ source: path, text: block.join("\n"), line: start });
    }
    block = [];
  };
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) {
      flush();
      path = undefined;
      inHunk = false;
    } else if (!inHunk && line.startsWith("+++ ")) {
      const name = unquotePath(line.slice(4));
      path = name.startsWith("b/") ? name.slice(2) : undefined;
    } else if (line.startsWith("@@ ")) {
      flush();
      inHunk = true;
      start = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 0);
    } else if (inHunk && line.startsWith("+")) {
      block.push(line.slice(1));
    }
  }
  flush();
  return items;
}

function describeFindings(findings: readonly Finding[]): string {
  const shown = findings
    .slice(0, 10)
    .map((f) => `${f.source}${f.line > 0 ? `:${f.line}` : ""} (${f.kind})`);
  const more = findings.length > shown.length ? ` and ${findings.length - shown.length} more` : "";
  return shown.join(", ") + more;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

/** Runs git as the bot, so rebased commits get the bot as committer whatever the checkout says. */
function asIdentity(identity: Identity): string[] {
  return ["author", "committer"].flatMap((role) => [
    "-c",
    `${role}.name=${identity.name}`,
    "-c",
    `${role}.email=${identity.email}`,
  ]);
}

/** Replays `upstream..HEAD` onto `onto`; a conflict leaves HEAD where it was and answers false. */
async function rebase(
  workspace: string,
  identity: Identity,
  onto: string,
  upstream: string,
): Promise<boolean> {
  try {
    await git(workspace, [
      ...asIdentity(identity),
      "rebase",
      "--quiet",
      "--no-autosquash",
      "--no-autostash",
      "--onto",
      onto,
      upstream,
    ]);
    return true;
  } catch {
    await git(workspace, ["rebase", "--abort"]).catch(() => undefined);
    return false;
  }
}

async function isAncestor(workspace: string, older: string, newer: string): Promise<boolean> {
  const answer = await git(workspace, ["merge-base", "--is-ancestor", older, newer], {
    okCodes: [1],
  });
  return answer.exitCode === 0;
}

async function changedFiles(workspace: string, range: readonly string[]): Promise<string[]> {
  const names = await git(workspace, ["diff", "--name-only", "-z", "--no-renames", ...range]);
  return names.stdout.split("\0").filter((name) => name !== "");
}

/** The same finding once, in the order first found (a file's lines are seen whole and as added). */
function distinct(findings: readonly Finding[]): Finding[] {
  const seen = new Map<string, Finding>();
  for (const finding of findings) {
    seen.set(`${finding.source}\0${finding.line}\0${finding.kind}`, finding);
  }
  return [...seen.values()];
}

/** Throws `push-blocked-secret` naming where and what kind, never the value. */
export function refuseSecrets(findings: readonly Finding[]): void {
  if (findings.length === 0) return;
  const unique = distinct(findings);
  throw new PitcrewError(
    "push-blocked-secret",
    `Nothing was pushed: what pitcrew would publish holds what looks like a secret at ${describeFindings(unique)}. Remove it from the change (and rotate it if it is real).`,
  );
}

/** The pull request's title and body as scan items. */
export function pullRequestItems(text: PullRequestText): ScanItem[] {
  return [
    { source: "the pull request title", text: text.title },
    { source: "the pull request description", text: text.body },
  ];
}

/** The commit message exactly as commit() records it. */
function finalMessage(request: PublishRequest): string {
  return `${request.message}\n\n${coAuthorTrailer(request.coAuthor)}`;
}

/** Refuses what must not be pushed; throws before anything is committed. */
async function check(request: PublishRequest): Promise<void> {
  const { workspace, startSha } = request;
  const changes = await stagedChanges(workspace, startSha);
  refuseNestedRepositories(addedGitlinks(changes));
  const workflows = workflowFiles(changes.map(({ path }) => path));
  if (workflows.length > 0 && !request.allowWorkflowChanges) {
    throw new PitcrewError(
      "push-blocked-workflows",
      `The agent changed workflow files (${workflows.join(", ")}), which pitcrew does not push unless \`allow-workflow-changes: true\` is set and the token has the \`workflows\` permission (a GitHub App or PAT: GITHUB_TOKEN can never have it).`,
    );
  }
  refuseProtectedChanges(changes, request.protectedPaths);
  // Whole files first: a file too large to read whole is refused before the diff reads it.
  const files = await scanStagedFiles(workspace, changes, request.secrets);
  const diff = await git(workspace, [
    "-c",
    "core.quotePath=false",
    "diff",
    "--cached",
    "-U0",
    "--text",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    startSha,
  ]);
  const items = [
    ...addedLines(diff.stdout),
    { source: "commit message", text: finalMessage(request) },
    ...request.texts,
  ];
  refuseSecrets([...files, ...scanForSecrets(items, request.secrets)]);
}

async function commit(request: PublishRequest): Promise<void> {
  const identity = request.identity ?? BOT_IDENTITY;
  await git(request.workspace, [
    ...asIdentity(identity),
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    request.message,
    "--trailer",
    coAuthorTrailer(request.coAuthor),
  ]);
}

interface CaughtUp {
  /** The commit this run's commits now sit on. */
  from: string;
  /** What origin's branch must still point at when the push lands ("" = must not exist). */
  lease: string;
  rebased: boolean;
  notes: string[];
}

/**
 * Puts this run's commits on top of whatever origin has now. A branch someone else pushed to is
 * rebased onto (a conflict stops the push and keeps the commit); a branch not yet on origin is
 * moved to the fresh base when that applies cleanly, because a stale base makes GitHub refuse the
 * push as a workflow change when the base's workflows changed since.
 */
async function catchUp(request: PublishRequest): Promise<CaughtUp> {
  const { workspace, branch, base, startSha, token } = request;
  const identity = request.identity ?? BOT_IDENTITY;
  const heads = await fetchBranches(workspace, [branch, base], token);
  const remote = heads.get(branch);
  if (remote !== undefined) {
    if (remote === startSha) return { from: startSha, lease: remote, rebased: false, notes: [] };
    if (await rebase(workspace, identity, remote, startSha)) {
      return {
        from: remote,
        lease: remote,
        rebased: true,
        notes: [`${branch} moved on origin during the run; rebased onto ${short(remote)}.`],
      };
    }
    const sha = (await git(workspace, ["rev-parse", "HEAD"])).stdout;
    throw new PitcrewError(
      "push-branch-moved",
      `${branch} moved on origin during the run (now ${short(remote)}, was ${short(startSha)}) and this run's commit ${sha} does not rebase cleanly onto it. Nothing was pushed; the commit is kept in the checkout at ${workspace}.`,
    );
  }
  const fresh = heads.get(base);
  if (fresh === undefined || fresh === startSha) {
    return { from: startSha, lease: "", rebased: false, notes: [] };
  }
  if (!(await isAncestor(workspace, startSha, fresh))) {
    const note = `${base} on origin no longer contains ${short(startSha)}; pushed on the old base.`;
    return { from: startSha, lease: "", rebased: false, notes: [note] };
  }
  if (await rebase(workspace, identity, fresh, startSha)) {
    const note = `${base} moved during the run; rebased onto ${short(fresh)}.`;
    return { from: fresh, lease: "", rebased: true, notes: [note] };
  }
  const note = `${base} moved during the run and the change conflicts with it; pushed on ${short(startSha)}, resolve the conflict in the pull request.`;
  return { from: startSha, lease: "", rebased: false, notes: [note] };
}

async function push(request: PublishRequest, lease: string, sha: string): Promise<void> {
  const { workspace, branch, token } = request;
  const env = await originEnv(workspace, token, "push");
  const ref = `refs/heads/${branch}`;
  const args = ["push", "--quiet", "--no-verify", `--force-with-lease=${ref}:${lease}`];
  await git(workspace, [...args, "origin", `HEAD:${ref}`], { env }).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const hint = /workflow/i.test(message)
      ? " GitHub refuses workflow changes from a token without the `workflows` permission."
      : /stale info|fetch first|non-fast-forward/.test(message)
        ? " Another push reached the branch first; run again to rebase onto it."
        : "";
    throw new PitcrewError(
      "push-failed",
      `Pushing ${short(sha)} to ${branch} failed (${message}).${hint} The commit is kept in the checkout at ${workspace}.`,
      { cause: error },
    );
  });
}

/** Commits and pushes the agent's work on the thread's branch, or says there was nothing to push. */
export async function publish(request: PublishRequest): Promise<Published> {
  const { workspace, startSha } = request;
  // Before staging: `git add` turns a nested repository into a bare gitlink (or fails on one
  // without a commit).
  refuseNestedRepositories(await untrackedRepositories(workspace));
  await git(workspace, ["add", "--all"]);
  const staged = (await git(workspace, ["diff", "--cached", "--quiet"], { okCodes: [1] })).exitCode;
  const ahead = Number((await git(workspace, ["rev-list", "--count", `${startSha}..HEAD`])).stdout);
  if (staged === 0 && ahead === 0) {
    return { outcome: "no-changes", diffstat: "", files: [], rebased: false, notes: [] };
  }
  await check(request);
  if (staged === 1) await commit(request);
  const caughtUp = await catchUp(request);
  const sha = (await git(workspace, ["rev-parse", "HEAD"])).stdout;
  const files = await changedFiles(workspace, [caughtUp.from, sha]);
  if (files.length === 0) {
    const note = "The change is already on origin; nothing was pushed.";
    const notes = [...caughtUp.notes, note];
    return { outcome: "no-changes", diffstat: "", files, rebased: caughtUp.rebased, notes };
  }
  // The final pull request text lists the branch's file names: scanned before anything leaves.
  const pullRequest = request.pullRequestText?.(await branchDiffstat(workspace, request.base));
  if (pullRequest) refuseSecrets(scanForSecrets(pullRequestItems(pullRequest), request.secrets));
  await push(request, caughtUp.lease, sha);
  const diffstat = (await git(workspace, ["diff", "--stat", caughtUp.from, sha])).stdout;
  return {
    outcome: "pushed",
    sha,
    diffstat,
    files,
    rebased: caughtUp.rebased,
    notes: caughtUp.notes,
    ...(pullRequest ? { pullRequest } : {}),
  };
}

/** What the thread's branch changes against its base, all runs together: the PR's "Changes". */
export async function branchDiffstat(workspace: string, base: string): Promise<string> {
  return (await git(workspace, ["diff", "--stat", `refs/remotes/origin/${base}...HEAD`])).stdout;
}
