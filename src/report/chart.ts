/**
 * The report's two charts of a run, as inline SVG (no script, no external asset): the context of
 * each request (tokens sent, the cached part, the window and the compaction threshold as lines, a
 * mark in a lane for each context layer that fired) and the cost so far. Only numbers and this
 * file's own words go into the markup; a layer name from the transcript is never a class name.
 */
import type { RunView, TurnView } from "./transcript.ts";
import { requestsOf } from "./transcript.ts";
import { escapeHtml } from "./html.ts";
import { dollars, grouped, percent, shortCount } from "./words.ts";

/** The context layers in the order they act, each with its lane in the chart. */
export const LAYERS = ["stub", "clear", "drop", "compact"] as const;
export type Layer = (typeof LAYERS)[number];

const WIDTH = 960;
const LEFT = 56;
const RIGHT = WIDTH - 132;
const LANE = 11;
const LANES_TOP = 8;
const PLOT_TOP = LANES_TOP + LANE * LAYERS.length + 16;
const HEIGHT = 300;
const PLOT_BOTTOM = HEIGHT - 24;

/** One decimal: enough for a screen, small in the file. */
const at = (value: number): string => String(Math.round(value * 10) / 10);

/** An axis for values up to `highest`: a 1, 2, 2.5 or 5 × 10ⁿ step, five of them at most. */
export function axisFor(highest: number): { step: number; max: number } {
  if (!(highest > 0)) return { step: 1, max: 1 };
  const least = highest / 5;
  const power = 10 ** Math.floor(Math.log10(least));
  const step = [1, 2, 2.5, 5, 10].map((times) => times * power).find((one) => one >= least);
  const chosen = step ?? 10 * power;
  return { step: chosen, max: chosen * Math.ceil(highest / chosen - 1e-9) };
}

/** Dollars with as many decimals as the axis step needs (two at least). */
function money(value: number, step: number): string {
  const decimals = (String(Number(step.toPrecision(3))).split(".")[1] ?? "").length;
  return `$${value.toFixed(Math.min(6, Math.max(2, decimals)))}`;
}

/** Tokens at which compaction fires: `compactAt` is a share of the window (a count when over 1). */
export function thresholdOf(start: RunView["start"]): number | undefined {
  if (start === undefined || start.window <= 0 || start.compactAt <= 0) return undefined;
  return start.compactAt <= 1 ? start.window * start.compactAt : start.compactAt;
}

/** What a request sent: the provider's count when it answered, else the harness's estimate. */
export function sentOf(turn: TurnView): { tokens: number; cached: number; estimated: boolean } {
  if (turn.usage !== undefined)
    return { tokens: turn.usage.promptTokens, cached: turn.usage.cachedTokens, estimated: false };
  return { tokens: turn.context?.tokens ?? 0, cached: 0, estimated: true };
}

export function firedLayers(turn: TurnView): Layer[] {
  const fired = turn.context?.fired ?? [];
  return LAYERS.filter((layer) => fired.includes(layer));
}

function requestTitle(run: number, turn: TurnView): string {
  const sent = sentOf(turn);
  const parts = [
    sent.estimated
      ? `about ${grouped(sent.tokens)} tokens sent (estimated; no answer recorded)`
      : `${grouped(sent.tokens)} tokens sent, ${grouped(sent.cached)} cached (${percent(sent.cached, sent.tokens)})`,
  ];
  if (turn.usage !== undefined) parts.push(`${grouped(turn.usage.completionTokens)} out`);
  if (turn.cost !== undefined) parts.push(dollars(turn.cost));
  const fired = turn.context?.fired ?? [];
  if (fired.length > 0) parts.push(`fired: ${fired.join(", ")}`);
  return escapeHtml(`run ${run}, turn ${turn.turn}: ${parts.join(" · ")}`);
}

/** The x axis: a dozen turn numbers at most under their bars, the last one always. */
function xLabels(requests: readonly TurnView[], step: number, baseline: number): string {
  const every = Math.max(1, Math.ceil(requests.length / 12));
  const last = requests.length - 1;
  let out = "";
  requests.forEach((turn, index) => {
    const shown =
      index % every === 0 ? index + every / 2 <= last || index === last : index === last;
    if (!shown) return;
    const x = LEFT + step * (index + 0.5);
    out += `<text class="tick" x="${at(x)}" y="${baseline + 14}" text-anchor="middle">${turn.turn}</text>`;
  });
  return out;
}

function yAxis(
  axis: { step: number; max: number },
  label: (value: number) => string,
  top: number,
  bottom: number,
): string {
  let out = "";
  const parts = Math.round(axis.max / axis.step);
  for (let part = 0; part <= parts; part++) {
    const value = axis.step * part;
    const y = bottom - ((bottom - top) * part) / parts;
    out += `<line class="grid" x1="${LEFT}" x2="${RIGHT}" y1="${at(y)}" y2="${at(y)}"/>`;
    out += `<text class="tick" x="${LEFT - 6}" y="${at(y + 4)}" text-anchor="end">${label(value)}</text>`;
  }
  return out;
}

function level(className: string, y: number, label: string): string {
  return (
    `<line class="${className}" x1="${LEFT}" x2="${RIGHT}" y1="${at(y)}" y2="${at(y)}"/>` +
    `<text class="lab ${className}-lab" x="${RIGHT + 6}" y="${at(y + 4)}">${label}</text>`
  );
}

const LEGEND =
  '<ul class="legend">' +
  '<li><i class="sw sent"></i>tokens sent</li>' +
  '<li><i class="sw cached"></i>of which cached</li>' +
  '<li><i class="sw window"></i>context window</li>' +
  '<li><i class="sw threshold"></i>compaction threshold</li>' +
  LAYERS.map((layer) => `<li><i class="dot m-${layer}"></i>${layer} fired</li>`).join("") +
  "</ul>";

/** The context chart of a run (a <figure>), or "" when it made no request. */
export function contextChart(run: RunView): string {
  const requests = requestsOf(run);
  if (requests.length === 0) return "";
  const window = run.start !== undefined && run.start.window > 0 ? run.start.window : undefined;
  const threshold = thresholdOf(run.start);
  let highest = window ?? 0;
  for (const turn of requests) highest = Math.max(highest, sentOf(turn).tokens);
  const axis = axisFor(highest * 1.02);
  const max = axis.max;
  const y = (tokens: number) => PLOT_BOTTOM - ((PLOT_BOTTOM - PLOT_TOP) * tokens) / max;
  const step = (RIGHT - LEFT) / requests.length;
  const width = Math.max(step * 0.78, 0.6);

  let bars = "";
  requests.forEach((turn, index) => {
    const sent = sentOf(turn);
    const x = LEFT + step * index + (step - width) / 2;
    const data = sent.estimated ? "" : ` data-sent="${sent.tokens}" data-cached="${sent.cached}"`;
    bars += `<g class="req" data-turn="${turn.turn}"${data}><title>${requestTitle(run.run, turn)}</title>`;
    const top = y(sent.tokens);
    bars += `<rect class="${sent.estimated ? "est" : "sent"}" x="${at(x)}" y="${at(top)}" width="${at(width)}" height="${at(PLOT_BOTTOM - top)}"/>`;
    if (sent.cached > 0) {
      const cachedTop = y(sent.cached);
      bars += `<rect class="cached" x="${at(x)}" y="${at(cachedTop)}" width="${at(width)}" height="${at(PLOT_BOTTOM - cachedTop)}"/>`;
    }
    for (const layer of firedLayers(turn)) {
      const lane = LANES_TOP + LANE * (LAYERS.indexOf(layer) + 0.5);
      bars += `<circle class="mark m-${layer}" data-layer="${layer}" cx="${at(x + width / 2)}" cy="${at(lane)}" r="${at(Math.min(4, Math.max(1.5, step / 2.5)))}"/>`;
    }
    bars += "</g>";
  });

  let lanes = "";
  LAYERS.forEach((layer, index) => {
    const lane = LANES_TOP + LANE * (index + 0.5);
    lanes += `<text class="tick" x="${LEFT - 6}" y="${at(lane + 3.5)}" text-anchor="end">${layer}</text>`;
    lanes += `<line class="lane" x1="${LEFT}" x2="${RIGHT}" y1="${at(lane)}" y2="${at(lane)}"/>`;
  });

  let levels = "";
  if (window !== undefined) levels += level("window", y(window), `window ${shortCount(window)}`);
  if (threshold !== undefined && window !== undefined)
    levels += level(
      "threshold",
      y(threshold),
      `compacts at ${shortCount(threshold)} (${percent(threshold, window)})`,
    );

  const label = `Tokens sent per request in run ${run.run}`;
  const svg =
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">` +
    lanes +
    yAxis(axis, shortCount, PLOT_TOP, PLOT_BOTTOM) +
    bars +
    levels +
    xLabels(requests, step, PLOT_BOTTOM) +
    `<text class="tick" x="${RIGHT + 6}" y="${PLOT_BOTTOM + 14}">turn</text>` +
    "</svg>";
  const estimated = requests.some((turn) => sentOf(turn).estimated)
    ? '<ul class="legend"><li><i class="sw est"></i>estimated: the request has no answer recorded</li></ul>'
    : "";
  return `<figure class="figure"><figcaption>Context per request</figcaption>${svg}${LEGEND}${estimated}</figure>`;
}

const COST_HEIGHT = 150;
const COST_TOP = 12;
const COST_BOTTOM = COST_HEIGHT - 24;

/** The run's cost so far after each request, as a line (a <figure>); "" without any cost. */
export function costChart(run: RunView): string {
  const requests = requestsOf(run);
  let total = 0;
  const totals = requests.map((turn) => (total += turn.cost ?? 0));
  if (requests.length === 0 || total <= 0) return "";
  const axis = axisFor(total * 1.02);
  const max = axis.max;
  const step = (RIGHT - LEFT) / requests.length;
  const point = (value: number, index: number) =>
    `${at(LEFT + step * (index + 0.5))},${at(COST_BOTTOM - ((COST_BOTTOM - COST_TOP) * value) / max)}`;
  const points = totals.map(point).join(" ");
  const first = `${at(LEFT + step * 0.5)},${COST_BOTTOM}`;
  const last = `${at(LEFT + step * (requests.length - 0.5))},${COST_BOTTOM}`;
  const end = totals.length - 1;
  const [endX, endY] = point(total, end).split(",");
  const svg =
    `<svg class="chart cost-chart" viewBox="0 0 ${WIDTH} ${COST_HEIGHT}" role="img" aria-label="Cost so far in run ${run.run}">` +
    yAxis(axis, (value) => money(value, axis.step), COST_TOP, COST_BOTTOM) +
    `<polygon class="cost-area" points="${first} ${points} ${last}"/>` +
    `<polyline class="cost" points="${points}"/>` +
    `<circle class="cost-end" cx="${endX}" cy="${endY}" r="3"/>` +
    `<text class="lab" x="${RIGHT + 6}" y="${endY}">${dollars(total)}</text>` +
    xLabels(requests, step, COST_BOTTOM) +
    "</svg>";
  return `<figure class="figure"><figcaption>Cost so far</figcaption>${svg}</figure>`;
}
