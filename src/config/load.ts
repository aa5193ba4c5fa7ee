/**
 * The one `Config` a run works from: an input the workflow set wins over `.github/pitcrew.yml`,
 * which wins over `DEFAULTS`. `buildConfig` is the pure merge; `loadConfig` reads the repository's
 * side and merges, once, before anything changes.
 */
import { CI_REPAIR_DEFAULTS, DEFAULTS, FLAKY_TRIAGE_DEFAULTS } from "./config.ts";
import type { CiRepairSettings, Config, FlakyTriageSettings } from "./config.ts";
import type { ActionInputs } from "./inputs.ts";
import type { RepoConfig } from "./repo-config.ts";
import { readRepositorySetup } from "./repository.ts";
import { PitcrewError } from "../errors.ts";
import { DEFAULT_SETTINGS } from "../sandbox/policy.ts";

/** A budget of 0 means no budget. */
function budget(value: number | undefined): number | undefined {
  return value === 0 ? undefined : value;
}

/** The file's `ci-repair:` over CI_REPAIR_DEFAULTS (only the file sets these), copied. */
function ciRepairSettings(file: RepoConfig["ci-repair"]): CiRepairSettings {
  const defaults = CI_REPAIR_DEFAULTS;
  return {
    branches: [...(file?.branches ?? defaults.branches)],
    caps: {
      perHeadSha: file?.["attempts-per-sha"] ?? defaults.caps.perHeadSha,
      perBranch: file?.["attempts-per-branch"] ?? defaults.caps.perBranch,
      perSignature: file?.["attempts-per-signature"] ?? defaults.caps.perSignature,
      dollarsPerSignature: file?.["dollars-per-signature"] ?? defaults.caps.dollarsPerSignature,
    },
    forks: file?.forks ?? defaults.forks,
    rerunFlaky: file?.["rerun-flaky"] ?? defaults.rerunFlaky,
    proofRuns: file?.["proof-runs"] ?? defaults.proofRuns,
    classify: (file?.classify ?? defaults.classify).map((rule) => ({ ...rule })),
  };
}

/** The file's `flaky-triage:` over FLAKY_TRIAGE_DEFAULTS (only the file sets these), copied. */
function flakyTriageSettings(file: RepoConfig["flaky-triage"]): FlakyTriageSettings {
  const defaults = FLAKY_TRIAGE_DEFAULTS;
  return {
    workflows: [...(file?.workflows ?? defaults.workflows)],
    lookbackDays: file?.["lookback-days"] ?? defaults.lookbackDays,
    top: file?.top ?? defaults.top,
    reruns: file?.reruns ?? defaults.reruns,
    label: file?.label ?? defaults.label,
    quarantine: file?.quarantine ?? defaults.quarantine,
  };
}

/** Merges what the workflow set over the repository's file over the defaults. */
export function buildConfig(
  inputs: ActionInputs,
  repoConfig: RepoConfig,
  instructions: string,
): Config {
  if (inputs.apiKey === undefined) {
    throw new PitcrewError(
      "config-missing-api-key",
      "No API key: add `api-key: ${{ secrets.OPENAI_API_KEY }}` under `with:` in the workflow, and create the secret OPENAI_API_KEY in the repository's Settings → Secrets and variables → Actions.",
    );
  }
  if (inputs.githubToken === undefined) {
    throw new PitcrewError(
      "config-missing-github-token",
      "No GitHub token: remove `github-token` from `with:` to use the workflow's own token, or pass one, e.g. `github-token: ${{ secrets.PITCREW_TOKEN }}`.",
    );
  }
  return {
    model: inputs.model ?? DEFAULTS.model,
    baseUrl: inputs.baseUrl,
    apiKey: inputs.apiKey,
    githubToken: inputs.githubToken,
    notesKey: inputs.notesKey,
    triggerPhrase: inputs.triggerPhrase ?? DEFAULTS.triggerPhrase,
    maxTurns: inputs.maxTurns ?? repoConfig["max-turns"] ?? DEFAULTS.maxTurns,
    timeBudgetMinutes:
      inputs.timeBudgetMinutes ?? repoConfig["time-budget"] ?? DEFAULTS.timeBudgetMinutes,
    costBudget: budget(inputs.costBudget ?? repoConfig["cost-budget"] ?? DEFAULTS.costBudget),
    tokenBudget: budget(inputs.tokenBudget ?? repoConfig["token-budget"]),
    contextWindow: inputs.contextWindow ?? DEFAULTS.contextWindow,
    sandbox: inputs.sandbox ?? DEFAULT_SETTINGS.backend,
    commandTimeoutSeconds: inputs.commandTimeoutSeconds ?? DEFAULTS.commandTimeoutSeconds,
    diskReserveMiB: inputs.diskReserveMiB ?? DEFAULTS.diskReserveMiB,
    allowedBots: inputs.allowedBots ?? [],
    branchPrefix: inputs.branchPrefix ?? repoConfig["branch-prefix"] ?? DEFAULTS.branchPrefix,
    draft: inputs.draft ?? repoConfig.draft ?? DEFAULTS.draft,
    allowWorkflowChanges:
      inputs.allowWorkflowChanges ??
      repoConfig["allow-workflow-changes"] ??
      DEFAULTS.allowWorkflowChanges,
    protectedPaths: repoConfig["protected-paths"] ?? [],
    allowProtectedChanges: repoConfig["allow-protected-changes"] ?? DEFAULTS.allowProtectedChanges,
    retentionDays: inputs.retentionDays ?? repoConfig["retention-days"] ?? DEFAULTS.retentionDays,
    notesStore: inputs.notesStore ?? DEFAULTS.notesStore,
    instructions,
    deny: repoConfig.permissions.deny,
    ciRepair: ciRepairSettings(repoConfig["ci-repair"]),
    flakyTriage: flakyTriageSettings(repoConfig["flaky-triage"]),
  };
}

export interface LoadOptions {
  /** What readInputs found: read first, so the secrets are masked and bad inputs fail early. */
  inputs: ActionInputs;
  /** The repository checkout; its files are read as committed on `baseRef`, never from disk. */
  workspace: string;
  /** The commit the repository's setup is read from: the base, never a pull request's head. */
  baseRef: string;
}

/** Reads the repository's setup and merges the inputs over it. */
export async function loadConfig({ inputs, workspace, baseRef }: LoadOptions): Promise<Config> {
  const { config, instructions } = await readRepositorySetup(workspace, baseRef);
  return buildConfig(inputs, config, instructions);
}
