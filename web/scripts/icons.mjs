#!/usr/bin/env node
// The app's icons for the web app manifest (run by `npm run build`): the game's mark,
// three cubes in the project's colours as in the favicon (src/turn.ts `faviconSvg`),
// drawn into PNGs with a tiny rasteriser (4×4 samples a pixel) and node's zlib, so
// the build needs no image library. Writes public/icons/icon-{192,512}.png (on a
// transparent ground) and maskable-512.png (full-bleed ground, the mark inside the
// central safe circle), and public/icons/icon.svg.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(web, "public/icons");

const hex = (c) => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)];
// The mark on a 64-unit square, as in the favicon.
const CUBES = [
  { x: 6, y: 34, w: 26, h: 26, r: 3, fill: "#b5522b" },
  { x: 32, y: 34, w: 26, h: 26, r: 3, fill: "#2f6f9f" },
  { x: 19, y: 8, w: 26, h: 26, r: 3, fill: "#e0a526" },
];
const GROUND = "#f7f1e6";

function inRoundRect(px, py, { x, y, w, h, r }) {
  if (px < x || py < y || px > x + w || py > y + h) return false;
  const cx = Math.min(Math.max(px, x + r), x + w - r);
  const cy = Math.min(Math.max(py, y + r), y + h - r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
}

/** RGBA pixels of the mark at `size`, scaled by `scale` about the centre, on `ground`. */
function draw(size, { ground = null, scale = 1, corner = 0 } = {}) {
  const px = new Uint8Array(size * size * 4);
  const S = 4;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sj = 0; sj < S; sj++) {
        for (let si = 0; si < S; si++) {
          // the sample in 64-unit coordinates
          const u = ((i + (si + 0.5) / S) / size) * 64;
          const v = ((j + (sj + 0.5) / S) / size) * 64;
          const mu = (u - 32) / scale + 32;
          const mv = (v - 32) / scale + 32;
          let colour = null;
          for (const c of CUBES) if (inRoundRect(mu, mv, c)) colour = c.fill;
          if (!colour && ground && inRoundRect(u, v, { x: 0, y: 0, w: 64, h: 64, r: corner })) colour = ground;
          if (colour) {
            const [cr, cg, cb] = hex(colour);
            r += cr; g += cg; b += cb; a += 1;
          }
        }
      }
      const k = (j * size + i) * 4;
      if (a) {
        px[k] = Math.round(r / a); px[k + 1] = Math.round(g / a); px[k + 2] = Math.round(b / a);
        px[k + 3] = Math.round((a / (S * S)) * 255);
      }
    }
  }
  return px;
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // no filter
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
const files = {
  "icon-192.png": png(192, draw(192, { ground: GROUND, corner: 12 })),
  "icon-512.png": png(512, draw(512, { ground: GROUND, corner: 12 })),
  // Maskable: the platform cuts its own shape; the mark stays inside the safe circle
  // (radius 40 % of the size), so it is drawn at 70 % on a full ground.
  "maskable-512.png": png(512, draw(512, { ground: GROUND, scale: 0.7 })),
};
const svgCubes = CUBES.map((c) => `<rect x="${c.x}" y="${c.y}" width="${c.w}" height="${c.h}" rx="${c.r}" fill="${c.fill}"/>`).join("");
files["icon.svg"] = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${GROUND}"/>${svgCubes}</svg>\n`;
for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(out, name), data);
console.log(`icons: ${Object.keys(files).join(", ")} in public/icons`);
