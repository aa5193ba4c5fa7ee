/**
 * The repository's own configuration, `.github/pitcrew.yml`, read from the base commit (never from
 * a branch the agent or a pull request could have changed). Parsed with `yaml`, validated with a
 * schema; a malformed file is a named error that gives the key and the line, before anything runs.
 */
import { LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { PitcrewError } from "../errors.ts";
import { patternProblem } from "../sandbox/protected-paths.ts";
import {
  ABOVE_ZERO,
  BRANCH_PREFIX,
  BUDGET,
  FLAG_TAKES,
  WHOLE_ABOVE_ZERO,
  WHOLE_BUDGET,
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

function numberSetting(rule: Rule<number>) {
  return z
    .number({ error: `takes ${rule.takes}` })
    .refine((value) => rule.problem(value) === undefined, {
      error: (issue) => complaint(rule, issue.input as number),
    })
    .optional();
}

const flagSetting = z.boolean({ error: `takes ${FLAG_TAKES}` }).optional();

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
    "branch-prefix": z
      .string({ error: `takes ${BRANCH_PREFIX.takes}` })
      .refine((value) => BRANCH_PREFIX.problem(value) === undefined, {
        error: (issue) => complaint(BRANCH_PREFIX, issue.input as string),
      })
      .optional(),
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
  const node = document.getIn(keyPath.map(String), true) as
    { range?: [number, number] } | undefined;
  const keyNode =
    unknownKey === undefined ? undefined : findKeyOffset(document, path.map(String), unknownKey);
  const offset = keyNode ?? node?.range?.[0];
  const where = offset === undefined ? "" : ` line ${lineCounter.linePos(offset).line}`;
  const name = keyPath.join(".") || "(top level)";
  if (unknownKey !== undefined && path.length === 0 && INPUT_ONLY.includes(unknownKey)) {
    throw new PitcrewError(
      "config-invalid",
      `${source}${where}: ${name}: only the workflow sets this. Remove it here and set it as the action input '${name}' under with: instead.`,
    );
  }
  const detail = unknownKey === undefined ? issue?.message : "not a setting pitcrew knows";
  throw new PitcrewError(
    "config-invalid",
    `${source}${where}: ${name}: ${detail}. Fix or remove it.`,
  );
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
