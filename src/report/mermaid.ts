/**
 * The context chart for the job summary, where no SVG of ours can go: a ```mermaid xychart-beta
 * block GitHub renders, for one run (the newest by default) — tokens sent per request as bars, the
 * cached part as bars in front, the window as a line. Only numbers and this file's words go in.
 */
import { axisFor, sentOf } from "./chart.ts";
import { readTranscript, requestsOf } from "./transcript.ts";

/** Up to this many requests, each is labelled by its turn; past it the axis is a range. */
const LABELLED = 40;

/** Bars: sent (light), cached (dark, drawn over it); the line: the window. */
const PALETTE = "#a8d1ff, #0969da, #cf222e";

export function contextMermaid(
  transcript: string,
  options: { run?: number } = {},
): string | undefined {
  const { runs } = readTranscript(transcript);
  const run =
    options.run === undefined ? runs.at(-1) : runs.find((each) => each.run === options.run);
  if (run === undefined) return undefined;
  const requests = requestsOf(run);
  if (requests.length === 0) return undefined;
  const sent = requests.map((turn) => sentOf(turn));
  const window = run.start !== undefined && run.start.window > 0 ? run.start.window : undefined;
  const highest = sent.reduce((most, one) => Math.max(most, one.tokens), window ?? 0);
  const axis =
    requests.length <= LABELLED
      ? `x-axis "turn" [${requests.map((turn) => turn.turn).join(", ")}]`
      : `x-axis "request" 1 --> ${requests.length}`;
  const lines = [
    "```mermaid",
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${PALETTE}"}}}}%%`,
    "xychart-beta",
    `  title "Context per request, run ${run.run}: tokens sent (cached part darker)${window === undefined ? "" : ", the window as a line"}"`,
    `  ${axis}`,
    `  y-axis "tokens" 0 --> ${axisFor(highest * 1.02).max}`,
    `  bar [${sent.map((one) => one.tokens).join(", ")}]`,
    `  bar [${sent.map((one) => one.cached).join(", ")}]`,
  ];
  if (window !== undefined) lines.push(`  line [${sent.map(() => window).join(", ")}]`);
  lines.push("```");
  return lines.join("\n");
}
