/**
 * A rerun batch in words (the numbers are stats/confidence.ts's), for the agent's rerun tool, the
 * tracking issue and the pull request.
 */
import { neverFailedBound, wilson } from "../stats/confidence.ts";

/** A fraction in whole percents, without the sign. */
function percents(fraction: number): number {
  return Math.round(fraction * 100);
}

/**
 * One batch in words, for the issue and the pull request: `shuffled: 3/20 failed (15%; 95% interval
 * 5–36%)`, or for a green batch the rate it rules out, `isolated: 0/20 failed (a rate above 14%
 * would have shown with 95% confidence)`.
 */
export function rerunWords(batch: { condition: string; runs: number; failures: number }): string {
  const { condition, runs, failures } = batch;
  if (runs === 0) return `${condition}: not run`;
  const seen = `${condition}: ${failures}/${runs} failed`;
  if (failures === 0) {
    return `${seen} (a rate above ${percents(neverFailedBound(runs))}% would have shown with 95% confidence)`;
  }
  const { low, high } = wilson(failures, runs);
  return `${seen} (${percents(failures / runs)}%; 95% interval ${percents(low)}–${percents(high)}%)`;
}
