/**
 * What kind of failure a run is, read from the harness's own signals before any model is asked:
 * the same commit passing on a re-run attempt (flaky), the runner or the network failing under
 * the job (infrastructure), a secret or an action the run could not get (configuration). Only
 * what is left over is `code`, for the agent to look at; its answer's `Class:` line and the
 * repository's `ci-repair.classify` overrides have the last word (ci-repair.ts). Pure.
 */
import type { Classified, FailureClass } from "../domain/ci.ts";

/** What the classifier reads of a failed run. */
export interface ClassifySignals {
  conclusion: "failure" | "timed_out";
  /** Each failed job's conclusion and its excerpt's lines (the error lines and their context). */
  jobs: { name: string; conclusion: string; lines: readonly string[] }[];
  /** A later attempt of the same run on the same commit passed (the API's attempts). */
  passedOnRerun: boolean;
}

interface Signal {
  class: Exclude<FailureClass, "code" | "flaky">;
  pattern: RegExp;
  what: string;
}

const INFRA_ADVICE =
  "Re-run the failed jobs; if it keeps happening, check the runner (its disk, its network) or the service named in the log.";
const CONFIG_ADVICE =
  "Check the workflow's secrets, variables and actions: a fork's run and a Dependabot run get no secrets, and a renamed secret or action breaks every run.";

/**
 * Lines the runner, the network or the workflow's setup print, not a test. Each is specific
 * enough that a test's own output rarely matches it (a test of DNS handling may: the agent and
 * `ci-repair.classify` can overrule).
 */
const SIGNALS: readonly Signal[] = [
  {
    class: "infrastructure",
    pattern:
      /The runner has received a shutdown signal|lost communication with the server|The self-hosted runner .* lost/i,
    what: "the runner went away during the job",
  },
  {
    class: "infrastructure",
    pattern: /No space left on device|ENOSPC/i,
    what: "the runner's disk was full",
  },
  {
    class: "infrastructure",
    pattern:
      /getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Could not resolve host|Temporary failure in name resolution|Name or service not known|ECONNRESET|ETIMEDOUT|ECONNREFUSED .*:(?:443|80)\b|socket hang up/i,
    what: "the network failed (DNS, a reset or a timed-out connection)",
  },
  {
    class: "infrastructure",
    pattern:
      /\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b|API rate limit exceeded|You have exceeded a secondary rate limit|toomanyrequests/i,
    what: "a service the job needed was down or rate-limited",
  },
  {
    class: "configuration",
    pattern:
      /Input required and not supplied|secret .* (?:is )?not (?:set|found|available)|Bad credentials|The (?:token|secret) .* (?:is )?(?:empty|missing)|Resource not accessible by integration/i,
    what: "a secret, a token or a permission the job needed was missing",
  },
  {
    class: "configuration",
    pattern:
      /Unable to resolve action|Can't find 'action\.ya?ml'|Invalid workflow file|The workflow is not valid|Unrecognized named-value/i,
    what: "the workflow names an action or a value that does not exist",
  },
];

/** The first signal a line matches, if any; lines over 2000 characters are data, not messages. */
function signalOf(line: string): Signal | undefined {
  if (line.length > 2000) return undefined;
  return SIGNALS.find((signal) => signal.pattern.test(line));
}

/** A line cut short for a sentence. */
function quoted(line: string): string {
  const text = line.trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * The harness's reading: flaky when a re-run of the same commit passed; infrastructure or
 * configuration when a job's log holds one of SIGNALS (the first, in log order, of the first job
 * that has one) or the job was cancelled under the run; otherwise code.
 */
export function classifyFailure(signals: ClassifySignals): Classified {
  if (signals.passedOnRerun) {
    return {
      class: "flaky",
      because: "a re-run of the same commit passed",
      advice: "Flaky triage tracks the test; nothing in the code is changed for it.",
    };
  }
  for (const job of signals.jobs) {
    for (const line of job.lines) {
      const signal = signalOf(line);
      if (signal === undefined) continue;
      return {
        class: signal.class,
        because: `${signal.what}: job ${job.name} printed “${quoted(line)}”`,
        advice: signal.class === "infrastructure" ? INFRA_ADVICE : CONFIG_ADVICE,
      };
    }
  }
  const cancelled = signals.jobs.find((job) => job.conclusion === "cancelled");
  if (cancelled !== undefined && signals.jobs.every((job) => job.conclusion !== "failure")) {
    return {
      class: "infrastructure",
      because: `job ${cancelled.name} was cancelled, not failed`,
      advice: INFRA_ADVICE,
    };
  }
  return {
    class: "code",
    because:
      signals.conclusion === "timed_out"
        ? "the run timed out with no sign of the runner or the network failing: a hang in the code is likely"
        : "no sign of the runner, the network or the workflow's setup failing",
  };
}
