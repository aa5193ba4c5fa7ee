/**
 * The one typed `Config` a run works from: the action's inputs merged over the repository's
 * `.github/pitcrew.yml` merged over the defaults below. Built once, before anything changes.
 */
import type { FailureClass, RepairCaps } from "../domain/ci.ts";
import type { SandboxSettings } from "../sandbox/policy.ts";

export interface Config {
  /** OpenAI-compatible API. */
  model: string;
  baseUrl: string | undefined;
  apiKey: string;
  githubToken: string;
  /** The secret the handoff notes' seal is keyed with; undefined: the API key is. */
  notesKey: string | undefined;
  /** The word a comment starts with to ask pitcrew (`/agent`). */
  triggerPhrase: string;
  maxTurns: number;
  /** Minutes for the whole agent loop. */
  timeBudgetMinutes: number;
  /** US dollars from the price table; undefined: no cost budget. */
  costBudget: number | undefined;
  /** Prompt + completion tokens; undefined: no token budget. */
  tokenBudget: number | undefined;
  contextWindow: number;
  sandbox: SandboxSettings["backend"];
  commandTimeoutSeconds: number;
  /** MiB kept free on the checkout's disk: a command that writes past it is killed; 0: none. */
  diskReserveMiB: number;
  /** Bot logins allowed to trigger, by exact name (never a wildcard). */
  allowedBots: string[];
  /** Thread branches are `<prefix>issue-<N>`, `<prefix>pr-<N>`, `<prefix>task-<run>`. */
  branchPrefix: string;
  /** Open every PR as a draft (a run stopped early always opens a draft). */
  draft: boolean;
  /** Let the agent's changes under .github/workflows/ be pushed (the token needs `workflows`). */
  allowWorkflowChanges: boolean;
  /** More paths CI runs, as globs (`.github/pitcrew.yml` only): protected like `.github/`. */
  protectedPaths: string[];
  /** Let the agent change and push `.github/` (but workflows) and `protectedPaths`. */
  allowProtectedChanges: boolean;
  /** Days the thread's notes artifact is kept (the repository's setting caps it). */
  retentionDays: number;
  /**
   * Where the thread's notes are kept: a workflow artifact, or a commit on `refs/pitcrew/notes/…`
   * (where there are no artifacts, GitHub Enterprise Server, refs whatever this says).
   */
  notesStore: NotesStoreChoice;
  /** From AGENTS.md and the file's `instructions`, read from the base branch. */
  instructions: string;
  /** Command prefixes the agent may not run. */
  deny: string[];
  /** Failing-CI repair (`ci-repair:` in `.github/pitcrew.yml` only). */
  ciRepair: CiRepairSettings;
  /** Scheduled flaky-test triage (`flaky-triage:` in `.github/pitcrew.yml` only). */
  flakyTriage: FlakyTriageSettings;
}

/** The `notes-store` input's values. */
export type NotesStoreChoice = "artifact" | "ref";

/** A person's class for a kind of failure, over the harness's and the agent's own. */
export interface ClassifyRule {
  /**
   * A piece of the first error line or of a failing test's id, as written; `/source/flags` is a
   * regular expression instead (classifyPattern).
   */
  match: string;
  class: FailureClass;
}

export interface CiRepairSettings {
  /**
   * The head branches whose failed runs are repaired, as globs: `*` within one name, `**` across
   * `/` too (`**` alone: every branch).
   */
  branches: string[];
  caps: RepairCaps;
  /** A failed run of a fork's head: left alone, or answered with a comment (never a fix). */
  forks: "ignore" | "comment";
  /** A flaky failure gets one re-run of its failed jobs. */
  rerunFlaky: boolean;
  /** Green runs of the failing step after the fix that a ready pull request needs. */
  proofRuns: number;
  /** Checked in order; the first that matches decides. */
  classify: ClassifyRule[];
}

/** What `ci-repair` is without the file saying otherwise; load.ts copies it, never shares it. */
export const CI_REPAIR_DEFAULTS: CiRepairSettings = {
  branches: ["**"],
  caps: { perHeadSha: 1, perBranch: 3, perSignature: 2, dollarsPerSignature: 5 },
  forks: "ignore",
  rerunFlaky: true,
  proofRuns: 3,
  classify: [],
};

export interface FlakyTriageSettings {
  /** The workflows whose runs on the default branch are read, by file name (`ci.yml`). */
  workflows: string[];
  /** How far back the history is read, in days. */
  lookbackDays: number;
  /** Flaky tests (or groups) handled per triage, highest ranked first. */
  top: number;
  /** Runs of the test in the sandbox per condition (the `rerun` tool's default and the least a fix needs). */
  reruns: number;
  /** The label of the tracking issues, one per flaky test or group. */
  label: string;
  /** A flake that is not fixed may be quarantined (skipped by its framework's own marker). */
  quarantine: boolean;
}

/** What `flaky-triage` is without the file saying otherwise; load.ts copies it. */
export const FLAKY_TRIAGE_DEFAULTS: FlakyTriageSettings = {
  workflows: [],
  lookbackDays: 14,
  top: 1,
  reruns: 20,
  label: "flaky-test",
  quarantine: true,
};

export const DEFAULTS = {
  model: "gpt-4.1",
  triggerPhrase: "/agent",
  maxTurns: 50,
  timeBudgetMinutes: 30,
  costBudget: 5,
  contextWindow: 128_000,
  commandTimeoutSeconds: 60,
  diskReserveMiB: 1024,
  branchPrefix: "pitcrew/",
  draft: false,
  allowWorkflowChanges: false,
  allowProtectedChanges: false,
  retentionDays: 30,
  notesStore: "artifact",
} as const;
