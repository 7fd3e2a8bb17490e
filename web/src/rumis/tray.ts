// Stone pictures for the tray: an isometric drawing of an orientation as SVG.
import type { Cell } from "../api";
import { normalise } from "./geometry";

function shade(hex: number, f: number): string {
  const r = Math.min(255, Math.round(((hex >> 16) & 255) * f));
  const g = Math.min(255, Math.round(((hex >> 8) & 255) * f));
  const b = Math.min(255, Math.round((hex & 255) * f));
  return `rgb(${r},${g},${b})`;
}

export function stoneSvg(cells: Cell[], colour: number, size = 64): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const s = 10;
  const c = s * 0.866;
  const P = (x: number, y: number, z: number): [number, number] => [(x - y) * c, (x + y) * 0.5 * s - z * s];
  const cubes = normalise(cells).sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]) || a[2] - b[2]);
  const polys: { pts: [number, number][]; fill: string }[] = [];
  for (const [x, y, z] of cubes) {
    polys.push({ pts: [P(x + 1, y, z), P(x + 1, y + 1, z), P(x + 1, y + 1, z + 1), P(x + 1, y, z + 1)], fill: shade(colour, 0.75) });
    polys.push({ pts: [P(x, y + 1, z), P(x + 1, y + 1, z), P(x + 1, y + 1, z + 1), P(x, y + 1, z + 1)], fill: shade(colour, 0.55) });
    polys.push({ pts: [P(x, y, z + 1), P(x + 1, y, z + 1), P(x + 1, y + 1, z + 1), P(x, y + 1, z + 1)], fill: shade(colour, 1.15) });
  }
  const all = polys.flatMap((p) => p.pts);
  const minX = Math.min(...all.map((p) => p[0])) - 1;
  const maxX = Math.max(...all.map((p) => p[0])) + 1;
  const minY = Math.min(...all.map((p) => p[1])) - 1;
  const maxY = Math.max(...all.map((p) => p[1])) + 1;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  for (const p of polys) {
    const poly = document.createElementNS(ns, "polygon");
    poly.setAttribute("points", p.pts.map((q) => q.join(",")).join(" "));
    poly.setAttribute("fill", p.fill);
    poly.setAttribute("stroke", "#222");
    poly.setAttribute("stroke-width", "0.5");
    poly.setAttribute("stroke-linejoin", "round");
    svg.append(poly);
  }
  return svg;
}
