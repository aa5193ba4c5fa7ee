/**
 * One line per replayed file or total, and the per-session distribution, for the replay suites'
 * diagnostics (the shared trajectories and the corpus print the same figures).
 */
import type { Distribution, ReplayStats } from "../../src/context/replay/replay.ts";

export function statsLine(name: string, s: ReplayStats): string {
  return `${name}: tokens ${s.tokens_ratio.toFixed(3)}, cache ${s.cache_hit_ratio.toFixed(3)} (naive ${s.naive_cache_hit_ratio.toFixed(3)}), cost@0.1 ${s.cost_ratio_r01.toFixed(3)} (layers ${s.layers_cost_ratio_r01.toFixed(3)}), cost@0.25 ${s.cost_ratio_r025.toFixed(3)}, over ${s.over_window}, compactions ${s.compactions}, peak ${s.peak_tokens}; uncached: ${uncachedWords(s)}`;
}

function uncachedWords(s: ReplayStats): string {
  const p = (share: number): string => `${(share * 100).toFixed(2)}%`;
  const { uncached: u, naive_uncached: n } = s;
  return `new ${p(u.new_messages)} (naive ${p(n.new_messages)}), rounding ${p(u.rounding)} (naive ${p(n.rounding)}), reminders ${p(u.reminders)}, edits ${p(u.edits)}`;
}

export function distributionLines(name: string, d: Distribution): string[] {
  const spread = (label: string, figure: keyof Distribution, scale = 1): string => {
    const value = d[figure];
    if (typeof value === "number") return `${label} ${value}`;
    const f = (x: number): string => (x * scale).toFixed(3);
    return `${label} min ${f(value.min)} median ${f(value.median)} p90 ${f(value.p90)} max ${f(value.max)}`;
  };
  return [
    `${name} per session (${d.sessions}): ${d.costlier_than_naive} costlier than naive at 0.1×, ${d.layers_costlier_than_naive} by the layers alone`,
    `  ${spread("tokens", "tokens_ratio")}`,
    `  ${spread("cache gap (points)", "cache_hit_gap", 100)}`,
    `  ${spread("cost@0.1", "cost_ratio_r01")}`,
    `  ${spread("cost@0.25", "cost_ratio_r025")}`,
    `  ${spread("cost@0.1, layers", "layers_cost_ratio_r01")}`,
    `  ${spread("edits (% of sent)", "uncached_edits", 100)}`,
    `  ${spread("over", "over_window")}`,
  ];
}
