/**
 * What the runner tells a JavaScript action about this run, read from its environment once: the
 * event, the repository, where the API and the workspace are. Shared by the main and post steps.
 */
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PitcrewError, describeError } from "./errors.ts";

export interface RunnerContext {
  eventName: string;
  payload: unknown;
  owner: string;
  repo: string;
  apiUrl: string;
  runUrl: string;
  runId: string;
  workspace: string;
  /** The commit the workflow runs on (the default branch's head for comment events). */
  sha: string;
  /** The runner's scratch folder (RUNNER_TEMP), emptied after every job. */
  tempDir: string;
  /** GITHUB_WORKFLOW_REF: `owner/repo/.github/workflows/x.yml@ref`, this run's workflow file. */
  workflowRef: string | undefined;
  /** The repository's id from the event payload (`repository.id`), when it has one. */
  repositoryId: number | undefined;
}

function repositoryIdOf(payload: unknown): number | undefined {
  const id = (payload as { repository?: { id?: unknown } } | null)?.repository?.id;
  return typeof id === "number" && Number.isInteger(id) ? id : undefined;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === "") {
    throw new PitcrewError(
      "runner-env-missing",
      `${name} is not set: pitcrew runs as a step of a GitHub Actions workflow (for a local checkout use the CLI: pitcrew run).`,
    );
  }
  return value;
}

export function runnerContext(env: NodeJS.ProcessEnv = process.env): RunnerContext {
  const eventPath = required(env, "GITHUB_EVENT_PATH");
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(eventPath, "utf8"));
  } catch (error) {
    throw new PitcrewError(
      "event-invalid",
      `The event payload at ${eventPath} could not be read as JSON: ${describeError(error)}`,
    );
  }
  const [owner, repo] = required(env, "GITHUB_REPOSITORY").split("/");
  if (!owner || !repo) {
    throw new PitcrewError(
      "runner-env-missing",
      `GITHUB_REPOSITORY should be owner/name, not '${env.GITHUB_REPOSITORY}'.`,
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
    workflowRef: env.GITHUB_WORKFLOW_REF || undefined,
    repositoryId: repositoryIdOf(payload),
  };
}

/**
 * The folder of the action now running: the nearest folder above this module that holds an
 * `action.yml` (dist/ in a release or a vendored copy, src/ in pitcrew's own checkout).
 */
export function runningActionRoot(from: string = import.meta.url): string | undefined {
  let folder = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(folder, "action.yml"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
