/**
 * The words of failing-CI repair that people and the agent read: why a failure is not repaired now
 * (each names the `ci-repair` setting that would change it), and what the agent is told when its
 * repair hides the failure instead of fixing it. Words only; the decisions are ci/ledger.ts's and
 * ci/weakened.ts's.
 */
import type { ProofRun, Weakening } from "../domain/ci.ts";
import { codeSpan } from "./text.ts";

/** Run ids as people read them: `run 1, run 5`, the first few only. */
function runList(runs: readonly number[], shown = 5): string {
  const named = runs.slice(0, shown).map((run) => `run ${run}`);
  const more = runs.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}

function attempts(count: number): string {
  return count === 1 ? "1 attempt" : `${count} attempts`;
}

function dollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/** What each kind of weakening does, before the line that does it. */
const WEAKENING_VERBS: Record<Weakening["kind"], string> = {
  "deleted-test": "deletes the test",
  "skip-marker": "skips or singles out tests with",
  "removed-assertion": "removes the assertion",
  "continue-on-error": "lets a failing step pass with",
  "ignored-exit-code": "ignores a failing command's exit code with",
};

/** The weakenings named in one refusal; the rest are counted. */
const WEAKENINGS_SHOWN = 5;

export const CI_WORDS = {
  alreadyHandled: (runId: number, attempt: number): string =>
    `already handled (run ${runId}, attempt ${attempt})`,
  triedOnCommit: (runs: readonly number[], cap: number): string =>
    `already tried on this commit (${runList(runs)}; the cap, ci-repair.attempts-per-sha: ${cap})`,
  branchCap: (branch: string, count: number, cap: number): string =>
    `${attempts(count)} on branch ${branch} in the last 24 hours already (the cap, ci-repair.attempts-per-branch: ${cap})`,
  signatureCap: (count: number, runs: readonly number[], cap: number): string =>
    `${attempts(count)} on this failure across branches (${runList(runs)}; the cap, ci-repair.attempts-per-signature: ${cap})`,
  dollarsCap: (spentUsd: number, cap: number): string =>
    `${dollars(spentUsd)} spent on this failure already (the cap, ci-repair.dollars-per-signature: ${dollars(cap)})`,

  /** What the agent is told when the failing step still fails after its repair (the output follows). */
  stillRed: (run: ProofRun): string =>
    `still-red: the harness ran the failing step again and it ${run.timedOut ? "timed out" : `exited with ${run.exitCode ?? "a signal"}`}, so the failure is not fixed yet. Fix the cause and check with the step itself; if it cannot pass in the sandbox (it needs the network or a service), say so in your answer. What it printed:`,

  /**
   * What the agent is told when its repair weakens the checks (`refused-weakening`): each change by
   * file and line, then what to do instead.
   */
  refusedWeakening: (weakenings: readonly Weakening[]): string => {
    const named = weakenings
      .slice(0, WEAKENINGS_SHOWN)
      .map(
        (weakening) =>
          `${WEAKENING_VERBS[weakening.kind]} ${codeSpan(weakening.text)} in ${weakening.file}:${weakening.line}`,
      );
    const more = weakenings.length - named.length;
    const changes =
      more > 0 ? `${named.join("; ")}; and ${more} more like these` : named.join("; ");
    return (
      `refused-weakening: the repair ${changes}; fix the cause instead — change the code under ` +
      "test so the checks pass as they were written. If a test or a CI step is wrong itself, leave " +
      "it as it is and say why in your answer; a person will decide."
    );
  },
};
