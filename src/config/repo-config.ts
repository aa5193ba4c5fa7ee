/**
 * The repository's own configuration, `.github/pitcrew.yml`, read from the base commit (never from
 * a branch the agent or a pull request could have changed). Parsed with `yaml`, validated with a
 * schema; a malformed file is a named error that gives the key and the line, before anything runs.
 */
import { LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { PitcrewError } from "../errors.ts";
import { patternProblem } from "../sandbox/protected-paths.ts";
import type { FailureClass } from "../domain/ci.ts";
import {
  ABOVE_ZERO,
  BRANCH_PATTERN,
  BRANCH_PREFIX,
  BUDGET,
  CLASSIFY_MATCH,
  FAILURE_ATTEMPTS,
  FLAG_TAKES,
  ISSUE_LABEL,
  LOOKBACK_DAYS,
  RERUNS,
  WHOLE_ABOVE_ZERO,
  WHOLE_BUDGET,
  WORKFLOW_FILE,
  complaint,
} from "./rules.ts";
import type { Rule } from "./rules.ts";

export const REPO_CONFIG_PATH = ".github/pitcrew.yml";

/**
 * Settings only the workflow may make. Keys and tokens never belong in a repository, and the
 * model, the trigger, who may trigger and how commands are confined are the workflow owner's
 * decisions, made before any repository file is read.
 */
const INPUT_ONLY = [
  "api-key",
  "base-url",
  "model",
  "github-token",
  "trigger-phrase",
  "context-window",
  "sandbox",
  "command-timeout",
  "disk-reserve",
  "allowed-bots",
];

/** Input-only settings people look for inside a section: who may trigger a CI repair. */
const INPUT_ONLY_IN: Record<string, string[]> = { "ci-repair": ["allowed-bots"] };

function numberSetting(rule: Rule<number>) {
  return z
    .number({ error: `takes ${rule.takes}` })
    .refine((value) => rule.problem(value) === undefined, {
      error: (issue) => complaint(rule, issue.input as number),
    })
    .optional();
}

const flagSetting = z.boolean({ error: `takes ${FLAG_TAKES}` }).optional();

function stringSetting(rule: Rule<string>) {
  return z
    .string({ error: `takes ${rule.takes}` })
    .refine((value) => rule.problem(value) === undefined, {
      error: (issue) => complaint(rule, issue.input as string),
    });
}

const CLASSES: { [Class in FailureClass]: Class } = {
  code: "code",
  flaky: "flaky",
  infrastructure: "infrastructure",
  configuration: "configuration",
};

/** Failing-CI repair; the caps are the ledger's (ci/ledger.ts), the rest the repair's. */
const CiRepairSchema = z
  .object({
    /** Head branches whose failed runs are repaired: names or globs (`release/*`, `**`). */
    branches: z
      .array(stringSetting(BRANCH_PATTERN), {
        error: `takes a list, each ${BRANCH_PATTERN.takes}`,
      })
      .min(1, { error: "takes a list of at least one branch or glob (** for every branch)" })
      .optional(),
    "attempts-per-sha": numberSetting(FAILURE_ATTEMPTS),
    "attempts-per-branch": numberSetting(WHOLE_ABOVE_ZERO),
    "attempts-per-signature": numberSetting(FAILURE_ATTEMPTS),
    /** US dollars spent on one failure at most, across all its attempts. */
    "dollars-per-signature": numberSetting(ABOVE_ZERO),
    forks: z.enum(["ignore", "comment"], { error: "takes ignore or comment" }).optional(),
    "rerun-flaky": flagSetting,
    "proof-runs": numberSetting(WHOLE_ABOVE_ZERO),
    /** The person's class for failures the first error or a failing test id names. */
    classify: z
      .array(
        z
          .object({
            match: stringSetting(CLASSIFY_MATCH),
            class: z.enum(CLASSES, {
              error: "takes code, flaky, infrastructure or configuration",
            }),
          })
          .strict(),
        { error: "takes a list of { match, class } entries" },
      )
      .optional(),
  })
  .strict();

/** Scheduled flaky-test triage (flaky/ and src/flaky-triage.ts). */
const FlakyTriageSchema = z
  .object({
    /** The workflows whose history is read, by file name. */
    workflows: z
      .array(stringSetting(WORKFLOW_FILE), { error: `takes a list, each ${WORKFLOW_FILE.takes}` })
      .min(1, { error: "takes a list of at least one workflow file name" })
      .optional(),
    "lookback-days": numberSetting(LOOKBACK_DAYS),
    top: numberSetting(WHOLE_ABOVE_ZERO),
    reruns: numberSetting(RERUNS),
    label: stringSetting(ISSUE_LABEL).optional(),
    quarantine: flagSetting,
  })
  .strict();

const RepoConfigSchema = z
  .object({
    /** Added to the task prompt, like AGENTS.md. */
    instructions: z.string().optional(),
    "max-turns": numberSetting(WHOLE_ABOVE_ZERO),
    /** Minutes for the whole agent loop. */
    "time-budget": numberSetting(ABOVE_ZERO),
    /** US dollars; 0: no cost budget. */
    "cost-budget": numberSetting(BUDGET),
    /** Prompt + completion tokens; 0: no token budget. */
    "token-budget": numberSetting(WHOLE_BUDGET),
    "branch-prefix": stringSetting(BRANCH_PREFIX).optional(),
    draft: flagSetting,
    "allow-workflow-changes": flagSetting,
    /**
     * Globs of more paths the repository's CI runs (`Makefile`, `scripts/ci/**`): read-only to the
     * agent and never pushed, like `.github/`.
     */
    "protected-paths": z
      .array(
        z
          .string({ error: "takes a list of paths or globs (* ** ?), relative to the root" })
          .refine((value) => patternProblem(value) === undefined, {
            error: (issue) =>
              `'${String(issue.input)}' ${patternProblem(issue.input as string) ?? ""}`,
          }),
        { error: "takes a list of paths or globs (* ** ?), relative to the root" },
      )
      .optional(),
    /** Let changes to `.github/` (but workflows) and the protected paths be made and pushed. */
    "allow-protected-changes": flagSetting,
    /** Days the thread's notes artifact is kept. */
    "retention-days": numberSetting(WHOLE_ABOVE_ZERO),
    permissions: z
      .object({
        /** Command prefixes the agent may not run (`npm publish`, `curl`). */
        deny: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .default({ deny: [] }),
    "ci-repair": CiRepairSchema.optional(),
    "flaky-triage": FlakyTriageSchema.optional(),
  })
  .strict();

export type RepoConfig = z.infer<typeof RepoConfigSchema>;

export const EMPTY_REPO_CONFIG: RepoConfig = { permissions: { deny: [] } };

/** Parses the file's text; `source` names it in errors. An empty file is the empty config. */
export function parseRepoConfig(text: string, source = REPO_CONFIG_PATH): RepoConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const line = lineCounter.linePos(syntax.pos[0]).line;
    throw new PitcrewError(
      "config-invalid",
      `${source} line ${line}: ${syntax.message.split("\n")[0]}. Fix the YAML.`,
    );
  }
  const checked = RepoConfigSchema.safeParse(document.toJS() ?? {});
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const path = issue?.path ?? [];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const keyPath = unknownKey === undefined ? path : [...path, unknownKey];
  const keyNode =
    unknownKey === undefined ? undefined : findKeyOffset(document, path.map(String), unknownKey);
  const offset = keyNode ?? nodeOffset(document, keyPath.map(String));
  const where = offset === undefined ? "" : ` line ${lineCounter.linePos(offset).line}`;
  const name = keyPath.join(".") || "(top level)";
  const inputOnly = path.length === 0 ? INPUT_ONLY : (INPUT_ONLY_IN[path.join(".")] ?? []);
  if (unknownKey !== undefined && inputOnly.includes(unknownKey)) {
    throw new PitcrewError(
      "config-invalid",
      `${source}${where}: ${name}: only the workflow sets this. Remove it here and set it as the action input '${unknownKey}' under with: instead.`,
    );
  }
  const detail = unknownKey === undefined ? issue?.message : "not a setting pitcrew knows";
  throw new PitcrewError(
    "config-invalid",
    `${source}${where}: ${name}: ${detail}. Fix or remove it.`,
  );
}

/**
 * Where the value at `path` starts; for a key that is missing (a required one), where the
 * nearest value above it that is there starts.
 */
function nodeOffset(
  document: ReturnType<typeof parseDocument>,
  path: string[],
): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as
      { range?: [number, number] } | undefined;
    if (node?.range) return node.range[0];
  }
  return undefined;
}

function findKeyOffset(
  document: ReturnType<typeof parseDocument>,
  path: string[],
  key: string,
): number | undefined {
  const parent: unknown = path.length === 0 ? document.contents : document.getIn(path, true);
  const items = (
    parent as { items?: { key?: { value?: unknown; range?: [number, number] } }[] } | null
  )?.items;
  return items?.find((item) => item.key?.value === key)?.key?.range?.[0];
}
