/**
 * The words of failing-CI repair, shared by the layers that gather the evidence (github/ci.ts),
 * read it (ci/: excerpts, signatures, the ledger, the proof's step, the weakened-test check), ask
 * the agent (agent/prompt.ts) and report (present/). Types only.
 */

/** A workflow run that failed, as GitHub's `workflow_run` event and the runs API describe it. */
export interface FailedRun {
  id: number;
  /** The attempt that failed (`run_attempt`). */
  attempt: number;
  workflowName: string;
  /** `.github/workflows/ci.yml`: the file the run ran, at `headSha`. */
  workflowPath: string;
  headSha: string;
  headBranch: string;
  /** `push`, `pull_request`, …: the event that started the failing run. */
  event: string;
  conclusion: "failure" | "timed_out";
  htmlUrl: string;
  /** Who started the run, and who started this attempt (a re-run can be someone else). */
  actor: string;
  triggeringActor: string;
  /** `owner/repo` of the head: another repository's name means a fork. */
  headRepository: string;
  createdAt: string;
  updatedAt: string;
}

/** One annotation of a job's check run (a problem matcher's `::error file=…`). */
export interface Annotation {
  path: string;
  startLine: number;
  level: "notice" | "warning" | "failure";
  title: string;
  message: string;
}

/** A step of a job as the jobs API lists it. */
export interface JobStep {
  name: string;
  number: number;
  conclusion: string | null;
}

/** A failed job of the failing attempt, with what was fetched of it. */
export interface FailedJob {
  id: number;
  name: string;
  conclusion: string;
  steps: JobStep[];
  /** The job's whole log as downloaded (timestamps, BOM and markers included). */
  log: string;
  annotations: Annotation[];
  /** JUnit XML reports found in the run's artifacts (file name → text). */
  reports: Record<string, string>;
}

/** What the model is shown of a failure: a log cut to what matters, and what it names. */
export interface Excerpt {
  excerpt: string;
  /** Test ids, JUnit first (`classname.name` or `file::name`), console otherwise. */
  failingTests: string[];
  firstError: string | null;
}

/** What kind of failure it is; only `code` gets a fix pull request. */
export type FailureClass = "code" | "flaky" | "infrastructure" | "configuration";

/** A class and the evidence for it, as people read it in the job summary and the comment. */
export interface Classified {
  class: FailureClass;
  /** Why, in a sentence: the signal and the line it was read from. */
  because: string;
  /** What a person does about it (only for the classes pitcrew does not fix). */
  advice?: string;
}

/** A failure's identity across runs, jobs and branches. */
export interface FailureSignature {
  /** A short stable hash of the normalised first error and the sorted failing tests. */
  key: string;
  /** The first error line with numbers, paths and hex normalised. */
  firstError: string;
  tests: string[];
}

/** What became of one repair attempt. */
export type AttemptOutcome =
  "pull-request" | "draft" | "no-change" | "refused-weakening" | "rerun" | "commented" | "failed";

export interface RepairAttempt {
  runId: number;
  attempt: number;
  headSha: string;
  branch: string;
  outcome: AttemptOutcome;
  pullRequest?: number;
  costUsd: number;
  /** ISO time the attempt ended. */
  at: string;
}

/** Every failure pitcrew has seen in a repository, by signature, with each attempt on it. */
export interface FailureLedger {
  failures: Record<
    string,
    { firstError: string; tests: string[]; firstSeen: string; attempts: RepairAttempt[] }
  >;
}

/** The limits on repair attempts (`ci-repair` in .github/pitcrew.yml). */
export interface RepairCaps {
  perHeadSha: number;
  perBranch: number;
  perSignature: number;
  /** US dollars spent on one signature at most, across all its attempts. */
  dollarsPerSignature: number;
}

/** The failing step of a job, read from the workflow file at the failing commit. */
export type ProofStep =
  | {
      runnable: true;
      job: string;
      step: string;
      /** The step's `run:` script, as the runner would run it. */
      script: string;
      /** `bash -e {0}` unless the step or job says otherwise. */
      shell: string;
      /** Relative to the checkout; "" for its root. */
      workingDirectory: string;
      /** The step's, job's and workflow's `env:` that need no secret or expression. */
      env: Record<string, string>;
    }
  | { runnable: false; job: string; step: string; why: string };

/** One run of the proof's step in the sandbox. */
export interface ProofRun {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  excerpt: string;
}

/** Red before the agent, green after: what the pull request shows. */
export interface Proof {
  command: string;
  before: ProofRun;
  after: ProofRun[];
}

/** A change the harness refuses in a repair: it would hide the failure, not fix it. */
export interface Weakening {
  kind:
    | "deleted-test"
    | "skip-marker"
    | "removed-assertion"
    | "continue-on-error"
    | "ignored-exit-code";
  file: string;
  line: number;
  /** The line as changed, cut short. */
  text: string;
}
