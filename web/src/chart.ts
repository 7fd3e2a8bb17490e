// A rating's history as a small inline SVG: one point per rated game (evenly spaced,
// so a busy evening and a quiet month read alike), the start rating as a dashed line,
// each point with its date and rating as a title and a link to its game when known
// (so the chart is a group of links, not one image).
// Drawn by hand: no chart library for one line.
import { t } from "./i18n/i18n";

const SVG = "http://www.w3.org/2000/svg";
const W = 400;
const H = 160;
/** Room for the axis labels on the left, and around the plot. */
const PAD = { left: 40, right: 10, top: 10, bottom: 22 };
/** Where every rating starts (the server's scale). */
const START = 1500;

export interface ChartPoint {
  at_ms: number;
  rating: number;
  /** The game's page, when the profile lists the game. */
  href?: string | null;
  /** Its date, as the page writes dates. */
  label: string;
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** Round steps for the rating axis (every 10, 25, 50, … points). */
function step(span: number): number {
  for (const s of [10, 25, 50, 100, 200, 500]) if (span / s <= 4) return s;
  return 1000;
}

export function ratingChart(points: ChartPoint[], testid: string, caption: string): SVGSVGElement {
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(START, ...ratings);
  let hi = Math.max(START, ...ratings);
  if (hi - lo < 40) {
    lo -= 20;
    hi += 20;
  }
  const s = step(hi - lo);
  lo = Math.floor(lo / s) * s;
  hi = Math.ceil(hi / s) * s;
  const x = (i: number) => PAD.left + (points.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (r: number) => PAD.top + ((hi - r) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "group", "data-testid": testid, "data-points": points.length, "aria-label": caption });
  svg.append(el("title", {}, caption));
  // The grid and its labels.
  for (let r = lo; r <= hi; r += s) {
    svg.append(
      el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(r), y2: y(r), class: r === START ? "start" : "grid" }),
      el("text", { x: PAD.left - 6, y: y(r) + 4, "text-anchor": "end", class: "axis" }, String(r)),
    );
  }
  if ((START - lo) % s !== 0) svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(START), y2: y(START), class: "start" }));
  svg.append(el("text", { x: PAD.left, y: H - 6, class: "axis" }, t("profile.chart_games", { n: points.length })));
  if (points.length > 1) {
    svg.append(el("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  }
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i), cy: y(p.rating), r: 5, class: "dot", "data-rating": p.rating }, el("title", {}, t("profile.chart_point", { date: p.label, rating: Math.round(p.rating) })));
    // A point links to its game: opened with a click or a tap.
    svg.append(p.href ? el("a", { href: p.href, "data-testid": `${testid}-point-${i}` }, dot) : dot);
  });
  return svg;
}

/** One line of a series chart: a value per point of the x axis (`null`: no value). */
export interface Series {
  label: string;
  /** The line's CSS colour. */
  colour: string;
  values: (number | null)[];
  /** Points that may be clicked, by index: each point's title, and its action. */
  points?: Map<number, { title: string; mark?: string; onclick(): void }>;
}

/** Several lines over the same x axis (turns, moves), on a y axis from 0 to `max`,
 * each with its clickable points; the legend is the lines' labels. */
export function seriesChart(series: Series[], max: number, unit: string, testid: string, caption: string): SVGSVGElement {
  const n = Math.max(2, ...series.map((s) => s.values.length));
  const x = (i: number) => PAD.left + (i * (W - PAD.left - PAD.right)) / (n - 1);
  const y = (v: number) => PAD.top + ((max - v) * (H - PAD.top - PAD.bottom)) / (max || 1);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart series-chart", role: "group", "data-testid": testid, "aria-label": caption });
  svg.append(el("title", {}, caption));
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    svg.append(
      el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
      el("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, `${Math.round(v)}${unit}`),
    );
  }
  // Every line first, then the points above them all, so that no line covers a point.
  series.forEach((s, k) => {
    const line = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i)},${y(v)}`]));
    if (line.length > 1) svg.append(el("polyline", { points: line.join(" "), class: "line", style: `stroke: ${s.colour}`, "data-testid": `${testid}-line-${k}` }));
  });
  series.forEach((s, k) => {
    for (const [i, p] of s.points ?? new Map<number, { title: string; mark?: string; onclick(): void }>()) {
      const v = s.values[i];
      if (v === null || v === undefined) continue;
      const dot = el("circle", { cx: x(i), cy: y(v), r: p.mark ? 6 : 4, class: `dot ${p.mark ?? ""}`, style: `fill: ${s.colour}` }, el("title", {}, p.title));
      const link = el("a", { href: "#", "data-testid": `${testid}-point-${i}`, "aria-label": p.title }, dot);
      link.addEventListener("click", (e) => {
        e.preventDefault();
        p.onclick();
      });
      svg.append(link);
    }
    // The legend: the labels side by side along the bottom, each cut to its share.
    const room = (W - PAD.left - PAD.right) / series.length;
    const label = s.label.length > room / 7 ? s.label.slice(0, Math.max(1, Math.floor(room / 7) - 1)) + "…" : s.label;
    svg.append(el("text", { x: PAD.left + 4 + k * room, y: H - 6, class: "axis", style: `fill: ${s.colour}` }, label));
  });
  return svg;
}
