/** Small formatting helpers the tools share: durations and counted nouns as a person reads them. */

/** Milliseconds as a person reads them: `90 s`, `1.5 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** `1 line`, `3 lines`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
