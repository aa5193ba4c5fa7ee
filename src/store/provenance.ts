/**
 * Where a notes artifact came from, and whether that is one of pitcrew's own runs: any workflow
 * run in the repository can upload an artifact under a thread's notes name — a fork pull
 * request's `pull_request` run among them — so a name proves nothing. Only the run that made the
 * artifact does: the same workflow file as this run, an event pitcrew acts on, and code from this
 * repository, not a fork. The decision is pure; the one lookup (`GET /actions/runs/{id}`) is here
 * too, thin.
 */
import type { createOctokit } from "../github/client.ts";
import { ACTED_ON_EVENTS, isActedOn } from "../triggers/event.ts";

/** What this run is, to compare the run that made an artifact with. */
export interface Expected {
  /** `.github/workflows/pitcrew.yml`: this run's workflow file (from GITHUB_WORKFLOW_REF). */
  workflowPath: string;
  /** This repository's id (the event payload's `repository.id`). */
  repositoryId: number;
}

/** The fields of GitHub's workflow run that the decision reads. */
export interface MadeBy {
  path: string;
  event: string;
  /** Where the run's code came from; GitHub leaves it null for some events. */
  head_repository: { id: number; full_name: string } | null;
}

/**
 * How many of a thread's newest notes artifacts are looked at before giving up: each costs a
 * run lookup and, once trusted, a download. Forged ones beyond this many only delay a restore.
 */
export const MAX_RUNS_CHECKED = 20;

/**
 * The workflow file's path in the repository from a workflow ref: GITHUB_WORKFLOW_REF is
 * `owner/repo/.github/workflows/x.yml@refs/heads/main`; a run's `path` is the file's path (with
 * `@ref` on some runs). Undefined when it names no file.
 */
export function workflowPathOf(ref: string, withRepository: boolean): string | undefined {
  const at = ref.lastIndexOf("@");
  const withoutRef = at === -1 ? ref : ref.slice(0, at);
  const path = withRepository ? withoutRef.split("/").slice(2).join("/") : withoutRef;
  return path === "" ? undefined : path;
}

/** Why notes made by this run are not pitcrew's own here, or undefined when they are. */
export function distrust(run: MadeBy, expected: Expected): string | undefined {
  const path = workflowPathOf(run.path, false);
  if (path !== expected.workflowPath) {
    return `its run ran the workflow ${run.path}, not ${expected.workflowPath}`;
  }
  if (!isActedOn(run.event)) {
    return (
      `its run was triggered by ${run.event}; pitcrew acts only on ` +
      `${ACTED_ON_EVENTS.slice(0, -1).join(", ")} and ${ACTED_ON_EVENTS.at(-1)}`
    );
  }
  const head = run.head_repository;
  if (head === null) return "its run names no head repository";
  if (head.id !== expected.repositoryId) {
    return `its run's code came from ${head.full_name} (repository ${head.id}), not from this repository (${expected.repositoryId})`;
  }
  return undefined;
}

type Client = ReturnType<typeof createOctokit>;

/** The run that made an artifact; undefined when GitHub knows no such run (404). */
export async function lookUpRun(
  octokit: Client,
  where: { owner: string; repo: string },
  runId: number,
): Promise<MadeBy | undefined> {
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...where, run_id: runId });
    return { path: data.path, event: data.event, head_repository: data.head_repository };
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return undefined;
    throw error;
  }
}

/**
 * Whether the run `runId` that made some notes is pitcrew's own here: `why` it is not, undefined
 * when it is; a lookup that fails throws (not knowing is not distrust: the caller says so). The
 * repository's id is asked once per checker when the payload did not give it.
 */
export function runChecker(
  octokit: Client,
  where: { owner: string; repo: string },
  repositoryId: number | undefined,
): (runId: number, workflowPath: string) => Promise<string | undefined> {
  let ownId: Promise<number> | undefined;
  return async (runId, workflowPath) => {
    const run = await lookUpRun(octokit, where, runId);
    if (run === undefined) return `its run ${runId} was not found`;
    ownId ??=
      repositoryId === undefined
        ? octokit.rest.repos.get(where).then(({ data }) => data.id)
        : Promise.resolve(repositoryId);
    return distrust(run, { workflowPath, repositoryId: await ownId });
  };
}
