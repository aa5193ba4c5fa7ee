/**
 * The numbers behind a flake's confirmation: how sure a batch of reruns makes us of a failure rate
 * (the Wilson score interval; the rule of three's exact form when nothing failed), how sure a green
 * batch after a fix makes us that the fix worked (present/rerun-words.ts says it in words). Pure
 * arithmetic; running the reruns is the harness's job.
 */

/** z for a two-sided 95% interval. */
const Z_95 = 1.96;

/**
 * The Wilson score interval of a failure rate seen as `failures` in `runs`: unlike the plain
 * p ± z·√(p(1−p)/n), it stays inside [0, 1] and is honest for small batches and rates near 0.
 * No runs say nothing: [0, 1].
 */
export function wilson(failures: number, runs: number, z = Z_95): { low: number; high: number } {
  if (runs === 0) return { low: 0, high: 1 };
  const rate = failures / runs;
  const z2 = z * z;
  const scale = 1 + z2 / runs;
  const centre = (rate + z2 / (2 * runs)) / scale;
  const half = (z * Math.sqrt((rate * (1 - rate)) / runs + z2 / (4 * runs * runs))) / scale;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The highest failure rate still consistent, at `confidence`, with no failure in `runs` runs: a
 * rate above it would have shown at least once with that probability. 1 when nothing ran.
 */
export function neverFailedBound(runs: number, confidence = 0.95): number {
  if (runs === 0) return 1;
  return 1 - (1 - confidence) ** (1 / runs);
}

interface Counts {
  runs: number;
  failures: number;
}

/**
 * How sure a green batch after a fix makes us that it worked: the chance that, had nothing
 * changed, the `after` batch would have failed at least once at the rate the `before` batch
 * showed. Undefined unless before failed and after did not (otherwise there is nothing to weigh).
 */
export function fixConfidence(before: Counts, after: Counts): number | undefined {
  if (after.failures !== 0 || before.failures === 0) return undefined;
  return 1 - (1 - before.failures / before.runs) ** after.runs;
}
