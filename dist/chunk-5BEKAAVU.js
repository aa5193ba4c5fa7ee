import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/config/config.ts
var CI_REPAIR_DEFAULTS = {
  branches: ["**"],
  caps: { perHeadSha: 1, perBranch: 3, perSignature: 2, dollarsPerSignature: 5 },
  forks: "ignore",
  rerunFlaky: true,
  proofRuns: 3,
  classify: []
};
var FLAKY_TRIAGE_DEFAULTS = {
  workflows: [],
  lookbackDays: 14,
  top: 1,
  reruns: 20,
  label: "flaky-test",
  quarantine: true
};
var DEFAULTS = {
  model: "gpt-4.1",
  triggerPhrase: "/agent",
  maxTurns: 50,
  timeBudgetMinutes: 30,
  costBudget: 5,
  contextWindow: 128e3,
  commandTimeoutSeconds: 60,
  diskReserveMiB: 1024,
  branchPrefix: "pitcrew/",
  draft: false,
  allowWorkflowChanges: false,
  allowProtectedChanges: false,
  retentionDays: 30,
  notesStore: "artifact"
};

export {
  CI_REPAIR_DEFAULTS,
  FLAKY_TRIAGE_DEFAULTS,
  DEFAULTS
};
