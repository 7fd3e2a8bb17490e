#!/usr/bin/env node
// The Rumis player colours stay apart for people with colour-vision deficiencies:
// every pair of the six colours (web/src/rumis/palette.json), as seen with full
// protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009,
// severity 1.0, applied in linear RGB), and with normal vision, differs by at least
// MIN_DE2000 in CIEDE2000. Run by `npm run build`; exits non-zero and names the pairs
// that are too close.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const palette = JSON.parse(fs.readFileSync(path.join(here, "../src/rumis/palette.json"), "utf8"));

/** The threshold: clearly different at a glance (ΔE2000 ≈ 2.3 is a just-noticeable difference). */
export const MIN_DE2000 = 10;

export const MACHADO = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
};

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const clamp = (x) => Math.min(1, Math.max(0, x));

function hexToLinear(hex) {
  const n = parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => toLinear(v / 255));
}

export function simulate(hex, kind) {
  const m = MACHADO[kind];
  const c = hexToLinear(hex);
  return m.map((row) => clamp(row[0] * c[0] + row[1] * c[1] + row[2] * c[2]));
}

/** Linear sRGB to CIELAB (D65). */
export function lab([r, g, b]) {
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 (Sharma, Wu & Dalal 2005). */
export function deltaE2000([L1, a1, b1], [L2, a2, b2]) {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const ap1 = (1 + G) * a1;
  const ap2 = (1 + G) * a2;
  const Cp1 = Math.hypot(ap1, b1);
  const Cp2 = Math.hypot(ap2, b2);
  const hue = (b, a) => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / rad;
    return h < 0 ? h + 360 : h;
  };
  const hp1 = hue(b1, ap1);
  const hp2 = hue(b2, ap2);
  const dL = L2 - L1;
  const dC = Cp2 - Cp1;
  let dh = 0;
  if (Cp1 * Cp2 !== 0) {
    dh = hp2 - hp1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(Cp1 * Cp2) * Math.sin((dh / 2) * rad);
  const Lm = (L1 + L2) / 2;
  const Cpm = (Cp1 + Cp2) / 2;
  let hm = hp1 + hp2;
  if (Cp1 * Cp2 !== 0) {
    if (Math.abs(hp1 - hp2) <= 180) hm = (hp1 + hp2) / 2;
    else hm = hp1 + hp2 < 360 ? (hp1 + hp2 + 360) / 2 : (hp1 + hp2 - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hm - 30) * rad) + 0.24 * Math.cos(2 * hm * rad) + 0.32 * Math.cos((3 * hm + 6) * rad) - 0.2 * Math.cos((4 * hm - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const Sc = 1 + 0.045 * Cpm;
  const Sh = 1 + 0.015 * Cpm * T;
  const Rt = -Math.sin(2 * dTheta * rad) * Rc;
  return Math.sqrt((dL / Sl) ** 2 + (dC / Sc) ** 2 + (dH / Sh) ** 2 + Rt * (dC / Sc) * (dH / Sh));
}

export function check() {
  const names = Object.keys(palette.colours);
  const rows = [];
  const bad = [];
  for (const kind of Object.keys(MACHADO)) {
    let min = Infinity;
    let at = "";
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) {
        const a = palette.colours[names[i]].hex;
        const b = palette.colours[names[j]].hex;
        const d = deltaE2000(lab(simulate(a, kind)), lab(simulate(b, kind)));
        if (d < min) [min, at] = [d, `${names[i]}/${names[j]}`];
        if (d < MIN_DE2000) bad.push(`${kind}: ${names[i]} ${a} and ${names[j]} ${b} differ by ΔE2000 ${d.toFixed(1)}`);
      }
    rows.push(`${kind}: closest pair ${at}, ΔE2000 ${min.toFixed(1)}`);
  }
  const symbols = names.map((n) => palette.colours[n].symbol);
  if (new Set(symbols).size !== symbols.length) bad.push(`the colours' symbols are not all different: ${symbols.join(" ")}`);
  return { rows, bad };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { rows, bad } = check();
  if (bad.length) {
    console.error(`check-palette: player colours too close (threshold ΔE2000 ≥ ${MIN_DE2000}):\n- ${bad.join("\n- ")}\n${rows.join("\n")}`);
    process.exit(1);
  }
  console.log(`check-palette: 6 Rumis colours, every pair ΔE2000 ≥ ${MIN_DE2000} (Machado 2009, severity 1.0); ${rows.join("; ")}`);
}
