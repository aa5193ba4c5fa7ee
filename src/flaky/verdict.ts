/**
 * Whether the agent's verdict on a flaky test holds against what the harness measured and the
 * diff it left: a fix needs a rerun batch that failed under a condition and one of at least the
 * configured size that passed every run under the same condition on the final changes, and may
 * not weaken the tests; a quarantine is the framework's skip marker and nothing else that weakens,
 * with the tracking issue linked; "none" changes nothing. Pure: the answer is the sentence that
 * sends the agent back, or undefined when the verdict stands.
 */
import type { Weakening } from "../domain/ci.ts";
import type { FlakeVerdict, RerunBatch } from "../domain/flaky.ts";

export interface VerdictFacts {
  verdict: FlakeVerdict | undefined;
  batches: readonly RerunBatch[];
  /** The hash of the workspace's changes now (RerunBatch.changes). */
  changes: string;
  /** The diff from the base, and the weakenings the CI repair's check finds in it. */
  diff: string;
  weakenings: readonly Weakening[];
  /** The least runs a fix's green batch needs. */
  reruns: number;
  quarantineAllowed: boolean;
  issueUrl: string;
  /** How a refused weakening is said (present/ci-words.ts's, handed in: flaky/ sits below present/). */
  refused: (weakenings: readonly Weakening[]) => string;
}

/** The batch that shows the fix: under the failing condition, on these changes, all green. */
export function fixBatch(facts: VerdictFacts): RerunBatch | undefined {
  const condition = facts.verdict?.condition;
  return facts.batches.findLast(
    (batch) =>
      batch.condition === condition &&
      batch.changes === facts.changes &&
      batch.failures === 0 &&
      batch.runs >= facts.reruns,
  );
}

/** The batches under the verdict's condition that failed (before the fix). */
export function failingBatches(facts: Pick<VerdictFacts, "verdict" | "batches">): RerunBatch[] {
  return facts.batches.filter(
    (batch) => batch.condition === facts.verdict?.condition && batch.failures > 0,
  );
}

function fixProblem(facts: VerdictFacts): string | undefined {
  const condition = facts.verdict?.condition;
  if (facts.diff.trim() === "") {
    return "A fix changes the code, and the workspace holds no change: make the fix, or record quarantine or none with flaky_verdict.";
  }
  if (facts.weakenings.length > 0) return facts.refused(facts.weakenings);
  if (condition === undefined || condition.trim() === "") {
    return "A fix names the condition that made the test fail: call flaky_verdict again with `condition` set to the rerun batches' condition.";
  }
  if (failingBatches(facts).length === 0) {
    return `No rerun batch under "${condition}" failed, so nothing shows the change fixes it: reproduce the failure with rerun under that condition first, or record quarantine or none.`;
  }
  if (fixBatch(facts) !== undefined) return undefined;
  const last = facts.batches.findLast((batch) => batch.condition === condition);
  const why =
    last === undefined
      ? "none ran"
      : last.changes !== facts.changes
        ? "the last one ran on other changes than the ones you leave"
        : last.failures > 0
          ? `the last one still failed ${last.failures} of ${last.runs} runs`
          : `the last one ran ${last.runs} times`;
  return `Show the fix: run rerun under "${condition}" on the final code, at least ${facts.reruns} runs, all passing (${why}).`;
}

function quarantineProblem(facts: VerdictFacts): string | undefined {
  if (!facts.quarantineAllowed) {
    return "Quarantine is switched off in this repository (flaky-triage.quarantine: false): fix the test, or record none and undo your changes.";
  }
  const skips = facts.weakenings.filter((weakening) => weakening.kind === "skip-marker");
  const others = facts.weakenings.filter((weakening) => weakening.kind !== "skip-marker");
  if (others.length > 0) return facts.refused(others);
  if (skips.length === 0) {
    return "A quarantine skips the test with its framework's own marker (test.skip, @pytest.mark.xfail(strict=False), t.Skip, @Disabled, …), and the diff adds none: add it, or record another action.";
  }
  if (!facts.diff.includes(facts.issueUrl)) {
    return `A quarantine's comment links the tracking issue: put ${facts.issueUrl} in a comment beside the marker.`;
  }
  return undefined;
}

/** The sentence that sends the agent back, or undefined when the verdict stands. */
export function verdictProblem(facts: VerdictFacts): string | undefined {
  const { verdict } = facts;
  if (verdict === undefined) {
    return "Record your decision with the flaky_verdict tool (category, action: fix, quarantine or none, and why) before you finish.";
  }
  if (verdict.action === "fix") return fixProblem(facts);
  if (verdict.action === "quarantine") return quarantineProblem(facts);
  if (facts.diff.trim() !== "") {
    return "A verdict of none changes nothing, and the workspace holds changes: put the files back as they were, or record fix or quarantine.";
  }
  return undefined;
}
