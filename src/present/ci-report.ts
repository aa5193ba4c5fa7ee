/**
 * What a CI repair tells people: the proof line ("reproduced: exit 1 → after the fix: exit 0 ×3"),
 * the section the fix PR and the job summary carry (signature, class, proof, attempts, time from
 * the failure to the PR, cost), and the comment on the failing branch's PR. Logs and commands are
 * written by others: they appear only inside code spans and blocks, which GitHub renders as
 * they are (no mention, link or closing keyword works there).
 */
import type { Classified } from "../domain/ci.ts";
import type { FailedRun, FailureSignature, ProofRun, Weakening } from "../domain/ci.ts";
import type { PullLink } from "../domain/ending.ts";
import { CI_WORDS } from "./ci-words.ts";
import { codeBlock, codeSpan, pullLink } from "./text.ts";

/** The proof as it was run, or why the step could not be. */
export type ProofReport =
  | { runnable: true; command: string; before: ProofRun; after: ProofRun[] }
  | { runnable: false; step: string; why: string };

/** A command the agent ran, and how it ended: the evidence when the step could not be run. */
export interface AgentRun {
  command: string;
  exitCode: number | null;
}

export interface CiFacts {
  run: FailedRun;
  signatures: FailureSignature[];
  classified: Classified;
  proof?: ProofReport;
  agentRuns: AgentRun[];
  /** Attempts on the first signature, this one included, and the cap. */
  attempts: { count: number; cap: number };
  /** What the harness refused in the repair as it stands, if anything. */
  weakenings: Weakening[];
  /** ms from the run's failure to the PR; undefined when no PR was opened. */
  failureToPullMs?: number;
  costUsd: number;
}

function exitWords(run: ProofRun): string {
  if (run.timedOut) return "timed out";
  return run.exitCode === null ? "killed by a signal" : `exit ${run.exitCode}`;
}

/** `exit 0 ×3`, or `exit 0 ×2, exit 1 ×1` when the runs disagree (a flaky fix). */
function runsWords(runs: readonly ProofRun[]): string {
  const counts = new Map<string, number>();
  for (const run of runs) counts.set(exitWords(run), (counts.get(exitWords(run)) ?? 0) + 1);
  return [...counts].map(([words, count]) => `${words} ×${count}`).join(", ");
}

/** The proof in one line: what the step did before the agent, and after. */
export function proofLine(proof: ProofReport): string {
  if (!proof.runnable) return `not run in the sandbox: ${proof.why}`;
  const before = proof.before.exitCode === 0 && !proof.before.timedOut;
  const reproduced = before
    ? `not reproduced (the step passed in the sandbox: ${exitWords(proof.before)})`
    : `reproduced: ${exitWords(proof.before)}`;
  return proof.after.length === 0
    ? reproduced
    : `${reproduced} → after the fix: ${runsWords(proof.after)}`;
}

/** Green after the fix on every run, from a reproduced red. */
export function proofHolds(proof: ProofReport | undefined): boolean {
  if (proof === undefined || !proof.runnable) return false;
  const green = (run: ProofRun): boolean => run.exitCode === 0 && !run.timedOut;
  return !green(proof.before) && proof.after.length > 0 && proof.after.every(green);
}

function minutes(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** The facts of a repair as a Markdown list, for the PR body and the job summary. */
export function ciFactsList(facts: CiFacts): string {
  const { run } = facts;
  const [first] = facts.signatures;
  const lines = [
    `Failed run: [${run.workflowName} #${run.id}](${run.htmlUrl}) (attempt ${run.attempt}) on ${codeSpan(run.headBranch)} at ${codeSpan(run.headSha.slice(0, 12))}`,
    `Failure signature: ${facts.signatures.map((signature) => codeSpan(signature.key)).join(", ") || "none"}${first === undefined || first.firstError === "" ? "" : ` — ${codeSpan(first.firstError)}`}`,
    `Class: **${facts.classified.class}** (${facts.classified.because.replace(/“[^”]*”/, (quote) => codeSpan(quote.slice(1, -1)))})`,
  ];
  if (facts.proof !== undefined) lines.push(`Proof: ${proofLine(facts.proof)}`);
  lines.push(`Attempts on this failure: ${facts.attempts.count} of ${facts.attempts.cap}`);
  if (facts.failureToPullMs !== undefined) {
    lines.push(`From the failure to this pull request: ${minutes(facts.failureToPullMs)}`);
  }
  lines.push(`Cost: $${facts.costUsd.toFixed(4)}`);
  return lines.map((line) => `- ${line}`).join("\n");
}

/** The section the fix PR's body carries: the proof with its command, then the facts. */
export function ciPullSection(facts: CiFacts): string {
  const parts = ["### CI repair"];
  const { proof } = facts;
  if (proof !== undefined && proof.runnable) {
    parts.push(
      `**${proofLine(proof)}**`,
      `The failing step, as the proof ran it:\n\n${codeBlock(proof.command)}`,
    );
    if (!proofHolds(proof)) {
      parts.push(
        "> [!WARNING]\n> The proof does not hold: the step did not go from red to green on every run. This pull request is a draft until it does.",
      );
    }
  } else {
    if (proof !== undefined) parts.push(`**Proof:** ${proofLine(proof)}.`);
    if (facts.agentRuns.length > 0) {
      const runs = facts.agentRuns
        .map(
          (run) => `${run.exitCode === null ? "signal" : `exit ${run.exitCode}`}  ${run.command}`,
        )
        .join("\n");
      parts.push(
        `The agent's own test runs instead, last ${facts.agentRuns.length}:\n\n${codeBlock(runs)}`,
      );
    }
  }
  if (facts.weakenings.length > 0) {
    parts.push(
      `> [!CAUTION]\n> pitcrew refused this repair: ${CI_WORDS.refusedWeakening(facts.weakenings).replace(/^refused-weakening: /, "")}`,
    );
  }
  parts.push(ciFactsList(facts));
  return parts.join("\n\n");
}

/** The comment on the failing branch's open PR: where the fix is, with the proof. */
export function fixPullComment(facts: CiFacts, pull: PullLink): string {
  const proof = facts.proof === undefined ? "" : ` Proof: ${proofLine(facts.proof)}.`;
  return `pitcrew proposes a fix for the failed run [${facts.run.workflowName} #${facts.run.id}](${facts.run.htmlUrl}) in ${pullLink(pull)}.${proof}`;
}

/** The comment (or summary) for a failure pitcrew does not fix in code: the evidence and advice. */
export function notCodeComment(
  facts: CiFacts,
  firstError: string | null,
  said?: string,
  fork?: string,
): string {
  const run = `the failed run [${facts.run.workflowName} #${facts.run.id}](${facts.run.htmlUrl}) on ${codeSpan(facts.run.headBranch)}`;
  const parts = [
    fork === undefined
      ? `pitcrew looked at ${run}: it reads as **${facts.classified.class}**, not a bug in the code, so no fix was proposed.`
      : `pitcrew looked at ${run} from the fork ${codeSpan(fork)}: it reads as **${facts.classified.class}**. pitcrew does not work on a fork's code (its CI-repair job runs with this repository's secrets), so this is the evidence only, for the author to act on.`,
  ];
  if (firstError !== null) parts.push(`The first error:\n\n${codeBlock(firstError)}`);
  if (said !== undefined && said.trim() !== "")
    parts.push(`The agent said:\n\n${codeBlock(said.trim())}`);
  if (facts.classified.advice !== undefined) parts.push(`What to do: ${facts.classified.advice}`);
  parts.push(ciFactsList(facts));
  return parts.join("\n\n");
}
