/**
 * The words of flaky-test triage: the run history it reads (runs, their attempts, their jobs), the
 * flakes found in it, the ledger that keeps them across scheduled runs, and the confirmation the
 * agent measures in the sandbox. Types only.
 */

/** One job of one attempt, as `/runs/{id}/attempts/{n}/jobs` lists it. */
export interface HistoryJob {
  id: number;
  name: string;
  /** `success`, `failure`, `timed_out`, `cancelled`, `skipped`, … or null while running. */
  conclusion: string | null;
  /**
   * The attempt that ran it: after a partial re-run, the jobs not re-run are listed again under
   * the new attempt with their old `run_attempt`.
   */
  runAttempt: number;
  /** For a failed job: the failing tests (its JUnit report or its log's excerpt) and first error. */
  failingTests?: string[];
  firstError?: string | null;
}

export interface HistoryAttempt {
  attempt: number;
  conclusion: string | null;
  /** When this attempt started (ISO). */
  startedAt: string;
  jobs: HistoryJob[];
}

/** One workflow run on the default branch with every attempt it had. */
export interface HistoryRun {
  id: number;
  /** The workflow's file (`.github/workflows/ci.yml`). */
  workflow: string;
  headSha: string;
  createdAt: string;
  htmlUrl: string;
  attempts: HistoryAttempt[];
  /** JUnit cases of the run's reports that failed and then passed on a runner retry (Surefire). */
  junitFlaky?: { id: string; message: string }[];
}

/** How a failure was shown to be a flake: the same code passed. */
export type FlakeEvidence =
  /** A later attempt of the same run passed the job. */
  | "rerun-passed"
  /** Another run of the workflow on the same commit passed the job. */
  | "other-run-passed"
  /** The test runner retried the test and it passed (`flakyFailure`, `rerunFailure`). */
  | "junit-retry";

/** One failure of a test that the same code then passed. */
export interface FlakeOccurrence {
  runId: number;
  attempt: number;
  job: string;
  workflow: string;
  headSha: string;
  /** When the failing attempt started (ISO). */
  at: string;
  /** The failure's signature key (ci/signature.ts) and its normalised first error. */
  signature: string;
  firstError: string;
  evidence: FlakeEvidence;
  /** The failure made its run red until the re-run (false for a runner retry inside a green run). */
  red: boolean;
}

/** A test that failed on every attempt of a commit: broken there, not flaky; never quarantined. */
export interface BrokenTest {
  test: string;
  headSha: string;
  /** The failing attempts, as `runId/attempt`. */
  attempts: string[];
  at: string;
}

/** What the history says, before the ledger merges it. */
export interface Detection {
  /** Per test id (a job's name, `job:<workflow>/<job>`, when its log named no test). */
  flakes: Record<string, FlakeOccurrence[]>;
  broken: BrokenTest[];
  /** Commits of the window, and those whose only red builds were flakes. */
  commits: { total: number; redOnlyFromFlakes: number };
}

/** The root causes the agent names (Luo et al.'s and Gruber et al.'s categories). */
export const FLAKE_CATEGORIES = [
  "order-dependency",
  "shared-state",
  "async-wait",
  "concurrency",
  "time",
  "randomness",
  "network",
  "resources",
  "infrastructure",
  "unknown",
] as const;
export type FlakeCategory = (typeof FLAKE_CATEGORIES)[number];

/** One batch of reruns the harness ran for the agent (the `rerun` tool), as measured. */
export interface RerunBatch {
  /** The agent's name for the condition: `isolated`, `in its file`, `shuffled`, `TZ=Asia/Tokyo`, … */
  condition: string;
  command: string;
  runs: number;
  failures: number;
  /** A hash of the workspace's changes when it ran: ties a green batch to the final diff. */
  changes: string;
}

/** What the agent decided, through the `flaky_verdict` tool. */
export interface FlakeVerdict {
  category: FlakeCategory;
  action: "fix" | "quarantine" | "none";
  /** The condition under which it failed (a `condition` of a rerun batch), for a fix. */
  condition?: string;
  because: string;
}

export type FlakeStatus = "open" | "fix-proposed" | "quarantined" | "broken" | "closed";

/** One flaky test (or a group that fails together) across scheduled triages. */
export interface FlakeEntry {
  /** The tests; one unless they failed in the same attempts (one cause is likely). */
  tests: string[];
  occurrences: FlakeOccurrence[];
  status: FlakeStatus;
  /** Its tracking issue and its latest pull request (a fix or a quarantine). */
  issue?: number;
  pullRequest?: number;
  category?: FlakeCategory;
  /** The reruns of its last confirmation. */
  reruns?: RerunBatch[];
  /** When `status` last changed (ISO), and when a quarantine's removal was proposed. */
  changedAt: string;
  unquarantineProposedAt?: string;
  /** When the agent last worked on it: not again until it fails after that. */
  triedAt?: string;
}

/** The triage thread's ledger: entries by a stable key of their tests. */
export interface FlakeLedger {
  entries: Record<string, FlakeEntry>;
}
