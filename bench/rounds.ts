/**
 * How the side-by-side benchmarks time their variants: interleaved rounds, each running every
 * variant once and starting at a different one each round, so load from elsewhere on the machine
 * falls on all of them alike; the warm-up rounds are not kept. And the figures of the samples.
 */

/**
 * Runs `warmup + runs` rounds of `variants`; `time` runs one variant once and says how many ms it
 * took. The measured samples, per variant in order.
 */
export async function interleaved<V>(
  variants: readonly V[],
  runs: number,
  warmup: number,
  time: (variant: V) => Promise<number> | number,
): Promise<number[][]> {
  const samples = variants.map(() => [] as number[]);
  for (let round = 0; round < warmup + runs; round++) {
    for (let step = 0; step < variants.length; step++) {
      const index = (round + step) % variants.length;
      const variant = variants[index];
      if (variant === undefined) continue;
      const ms = await time(variant);
      if (round >= warmup) samples[index]?.push(ms);
    }
  }
  return samples;
}

export interface Stats {
  n: number;
  min: number;
  max: number;
  p10: number;
  median: number;
  p90: number;
}

/** Percentile by linear interpolation between closest ranks (`sorted` ascending, p in 0..1). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const a = sorted[low] ?? Number.NaN;
  const b = sorted[high] ?? Number.NaN;
  return a + (b - a) * (rank - low);
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    p10: percentile(sorted, 0.1),
    median: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
  };
}
