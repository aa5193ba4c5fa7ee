/**
 * The action's inputs (action.yml), read and checked one by one: what the workflow set, typed,
 * with `undefined` where it set nothing, so the repository file and the defaults can fill in
 * (merging is load.ts's job). A bad value is a named error that names the input.
 */
import * as core from "@actions/core";
import type { Config, NotesStoreChoice } from "./config.ts";
import { PitcrewError } from "../errors.ts";
import {
  ABOVE_ZERO,
  BRANCH_PREFIX,
  BUDGET,
  FLAG_TAKES,
  WHOLE_ABOVE_ZERO,
  WHOLE_BUDGET,
  DISK_RESERVE,
  complaint,
} from "./rules.ts";
import type { Rule } from "./rules.ts";
import { sandboxChoice } from "../sandbox/policy.ts";

/**
 * What the workflow set; `undefined`: not set. Budgets keep a given 0 (0: no budget), so that a
 * 0 here still overrides the repository file.
 */
export type ActionInputs = Partial<
  Omit<Config, "instructions" | "deny" | "ciRepair" | "flakyTriage">
>;

/** `core.getInput`'s shape: the trimmed value, "" when the input is not set. */
export type GetInput = (name: string) => string;

/** Characters a `notes-key` must have: shorter secrets are guessable offline from a seal. */
export const NOTES_KEY_MIN = 16;

/** Plain decimals only: `Number()` would also take "0x10", "1e3" and " ". */
const DECIMAL = /^\d+(\.\d+)?$/;

/** The boolean spellings `core.getBooleanInput` accepts (YAML 1.2's core schema). */
const FLAGS: Record<string, boolean> = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false,
};

function invalid(input: string, says: string, raw: string): PitcrewError {
  return new PitcrewError("config-invalid", `Input '${input}' ${says}, not '${raw}'.`);
}

/**
 * Reads every input pitcrew declares. The key and the token are registered as secrets the moment
 * they are read, so nothing logged afterwards can show them.
 */
export function readInputs(getInput: GetInput = core.getInput): ActionInputs {
  const read = (input: string): string | undefined => {
    const value = getInput(input).trim();
    return value === "" ? undefined : value;
  };
  const secret = (input: string): string | undefined => {
    const value = read(input);
    if (value !== undefined) core.setSecret(value);
    return value;
  };
  const number = (input: string, rule: Rule<number>): number | undefined => {
    const raw = read(input);
    if (raw === undefined) return undefined;
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    const says = complaint(rule, value);
    if (says !== undefined) throw invalid(input, says, raw);
    return value;
  };
  const flag = (input: string): boolean | undefined => {
    const raw = read(input);
    if (raw === undefined) return undefined;
    const value = FLAGS[raw];
    if (value === undefined) throw invalid(input, `takes ${FLAG_TAKES}`, raw);
    return value;
  };

  const apiKey = secret("api-key");
  const githubToken = secret("github-token");
  const notesKey = secret("notes-key");
  if (notesKey !== undefined && notesKey.length < NOTES_KEY_MIN) {
    // The value is masked already; its length is all the message may say.
    throw new PitcrewError(
      "config-notes-key-short",
      `Input 'notes-key' is ${notesKey.length} characters long; a key for the notes' seal needs at ` +
        `least ${NOTES_KEY_MIN}. Store a long random value as a secret (for example the output of ` +
        "`openssl rand -hex 32`) and pass it, or remove `notes-key` to seal with the `api-key`.",
    );
  }
  const sandbox = read("sandbox");
  const branchPrefix = read("branch-prefix");
  if (branchPrefix !== undefined) {
    const says = complaint(BRANCH_PREFIX, branchPrefix);
    if (says !== undefined) throw invalid("branch-prefix", says, branchPrefix);
  }
  return {
    apiKey,
    githubToken,
    notesKey,
    baseUrl: baseUrl(read("base-url")),
    model: read("model"),
    triggerPhrase: triggerPhrase(read("trigger-phrase")),
    maxTurns: number("max-turns", WHOLE_ABOVE_ZERO),
    timeBudgetMinutes: number("time-budget", ABOVE_ZERO),
    costBudget: number("cost-budget", BUDGET),
    tokenBudget: number("token-budget", WHOLE_BUDGET),
    contextWindow: number("context-window", WHOLE_ABOVE_ZERO),
    sandbox:
      sandbox === undefined
        ? undefined
        : sandboxChoice(sandbox, "config-invalid", "Input 'sandbox'"),
    commandTimeoutSeconds: number("command-timeout", ABOVE_ZERO),
    diskReserveMiB: number("disk-reserve", DISK_RESERVE),
    allowedBots: allowedBots(read("allowed-bots")),
    branchPrefix,
    draft: flag("draft"),
    allowWorkflowChanges: flag("allow-workflow-changes"),
    retentionDays: number("retention-days", WHOLE_ABOVE_ZERO),
    notesStore: notesStore(read("notes-store")),
  };
}

function notesStore(raw: string | undefined): NotesStoreChoice | undefined {
  if (raw === undefined || raw === "artifact" || raw === "ref") return raw;
  throw invalid("notes-store", "takes artifact or ref", raw);
}

function baseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const protocol = URL.parse(raw)?.protocol;
  if (protocol !== "https:" && protocol !== "http:") {
    throw invalid("base-url", "takes the http(s) URL of an OpenAI-compatible API", raw);
  }
  return raw;
}

function triggerPhrase(raw: string | undefined): string | undefined {
  if (raw !== undefined && /\s/.test(raw)) {
    throw invalid("trigger-phrase", "takes one word without spaces, such as /agent", raw);
  }
  return raw;
}

/** Exact logins, one per line or comma-separated. Never a pattern: a wildcard would let any bot in. */
function allowedBots(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const logins = raw
    .split(/[,\n]/)
    .map((login) => login.trim())
    .filter((login) => login !== "");
  for (const login of logins) {
    if (login.includes("*")) {
      throw invalid(
        "allowed-bots",
        `takes exact bot logins such as dependabot[bot]; '${login}' is a wildcard, and wildcards are not allowed`,
        raw,
      );
    }
    if (/\s/.test(login)) {
      throw invalid(
        "allowed-bots",
        `takes logins separated by commas or new lines; '${login}' has a space in it`,
        raw,
      );
    }
  }
  return logins;
}
