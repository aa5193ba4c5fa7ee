/**
 * The evidence of a failed run, gathered once before anything is decided: each failed job of the
 * failing attempt with its log cut to an excerpt and its failure signature, whether the same
 * commit passed elsewhere (a re-run attempt, or another run of the workflow), the commits since
 * the last green run with the likeliest culprit, and the failing step as the proof can run it.
 * Fetching is github/ci.ts's, reading is ci/'s; this only puts them together.
 */
import { excerptLog } from "../../ci/excerpt.ts";
import { readJobLog } from "../../ci/log.ts";
import { proofStep } from "../../ci/proof-step.ts";
import { failureSignature } from "../../ci/signature.ts";
import type { SinceCommit } from "../../agent/ci-prompt.ts";
import type { Excerpt, FailedRun, FailureSignature, JobStep, ProofStep } from "../../domain/ci.ts";
import { describeError } from "../../errors.ts";
import type { CiApi } from "../../github/ci.ts";
import { gatherFailedJobs } from "../../github/ci.ts";

export interface JobEvidence {
  id: number;
  name: string;
  conclusion: string;
  /** The step the jobs API marks failed; "" when none is (a job cancelled before its steps). */
  step: string;
  excerpt: Excerpt;
  signature: FailureSignature;
  /** The excerpt's lines, which the harness's classifier reads. */
  lines: string[];
}

export interface Evidence {
  jobs: JobEvidence[];
  /** The same commit passed: a later attempt of this run, or the last green run is at it. */
  passedElsewhere: boolean;
  sinceGreen?: { runUrl: string; sha: string; commits: SinceCommit[]; culprit?: SinceCommit };
  /** The first failed job's failing step, as the proof runs it (or why it cannot). */
  proof: ProofStep;
}

/** Files a failure names: annotations, test ids (`tests/a.py::test_b`), paths in the first error. */
function failingFiles(jobs: readonly { excerpt: Excerpt; annotations: string[] }[]): Set<string> {
  const files = new Set<string>();
  for (const job of jobs) {
    for (const path of job.annotations) files.add(path);
    for (const test of job.excerpt.failingTests) {
      const file = test.split("::")[0] ?? "";
      if (/[/.]/.test(file) && file !== test) files.add(file);
    }
    const error = job.excerpt.firstError ?? "";
    for (const match of error.matchAll(/[\w./-]+\.[A-Za-z]{1,5}\b/g)) files.add(match[0]);
  }
  return files;
}

/** The one commit that touches a failing file, if exactly one does. */
export function culpritOf(
  commits: readonly SinceCommit[],
  files: ReadonlySet<string>,
): SinceCommit | undefined {
  const touching = commits.filter((commit) =>
    commit.files.some((file) =>
      [...files].some(
        (failing) =>
          file === failing || file.endsWith(`/${failing}`) || failing.endsWith(`/${file}`),
      ),
    ),
  );
  return touching.length === 1 ? touching[0] : undefined;
}

function failedStepOf(steps: readonly JobStep[]): JobStep | undefined {
  return steps.find((step) => step.conclusion === "failure" || step.conclusion === "timed_out");
}

export async function gatherEvidence(
  ci: CiApi,
  run: FailedRun,
  log: { info(message: string): void; warning(message: string): void },
): Promise<Evidence> {
  const [failed, current, workflow] = await Promise.all([
    gatherFailedJobs(ci, run.id, run.attempt),
    ci.run(run.id),
    ci.fileAt(run.workflowPath, run.headSha),
  ]);
  const jobs = failed.map((job) => {
    const read = readJobLog(job.log);
    const excerpt = excerptLog(read, { reports: job.reports });
    return {
      id: job.id,
      name: job.name,
      conclusion: job.conclusion,
      step: failedStepOf(job.steps)?.name ?? "",
      excerpt,
      signature: failureSignature(excerpt.firstError, excerpt.failingTests),
      lines: excerpt.excerpt.split("\n"),
      annotations: job.annotations.map((annotation) => annotation.path),
      steps: job.steps,
    };
  });
  const rerunPassed = current.attempt > run.attempt && current.conclusion === "success";

  let sinceGreen: Evidence["sinceGreen"];
  try {
    const green = await ci.lastGreenRun(current.workflowId, run.headBranch, run.createdAt);
    if (green !== undefined) {
      const { commits } =
        green.headSha === run.headSha
          ? { commits: [] }
          : await ci.commitsBetween(green.headSha, run.headSha);
      sinceGreen = {
        runUrl: green.htmlUrl,
        sha: green.headSha,
        commits,
        culprit: culpritOf(commits, failingFiles(jobs)),
      };
    }
  } catch (error) {
    // The history helps the agent; without it the repair still goes on.
    log.warning(`could not read the commits since the last green run: ${describeError(error)}`);
  }

  const [first] = jobs;
  const failedStep = first === undefined ? undefined : failedStepOf(first.steps);
  const proof: ProofStep =
    first === undefined || failedStep === undefined
      ? {
          runnable: false,
          job: first?.name ?? "",
          step: "",
          why: "no step of the failed jobs is marked failed",
        }
      : workflow === undefined
        ? {
            runnable: false,
            job: first.name,
            step: failedStep.name,
            why: `the workflow file ${run.workflowPath} was not found at the failing commit`,
          }
        : proofStep(workflow, first.name, failedStep);
  log.info(
    `evidence: ${jobs.length} failed job(s)${jobs.map((job) => ` · ${job.name}: ${job.excerpt.failingTests.length} failing test(s), signature ${job.signature.key}`).join("")}`,
  );
  return {
    jobs: jobs.map(({ annotations: _annotations, steps: _steps, ...job }) => job),
    passedElsewhere: rerunPassed || (sinceGreen !== undefined && sinceGreen.sha === run.headSha),
    sinceGreen,
    proof,
  };
}
