// Stone geometry on the client: orientations normalised and keyed, the quarter turns
// that walk through all 24 rotations, and the drop of a stone onto the height map (R3:
// lowered from above until it rests), which gives the ghost's resting position.
import type { Cell, RumisCube } from "../api";

/** Offsets moved to the origin and sorted by level, row, column. */
export function normalise(cells: Cell[]): Cell[] {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  const mz = Math.min(...cells.map((c) => c[2]));
  return cells.map((c) => [c[0] - mx, c[1] - my, c[2] - mz] as Cell).sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}

export function shapeKey(cells: Cell[]): string {
  return normalise(cells)
    .map((c) => c.join(","))
    .join(";");
}

/** Absolute cells as a key, independent of their order. */
export function cellsKey(cells: Cell[]): string {
  return [...cells]
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
    .map((c) => c.join(","))
    .join(";");
}

export type Turn = "yaw+" | "yaw-" | "pitch+" | "pitch-" | "roll+" | "roll-";

/** A quarter turn of cube offsets: yaw about the vertical, pitch about the x axis, roll about the y axis. */
export function turn(cells: Cell[], t: Turn): Cell[] {
  return cells.map(([x, y, z]) => {
    switch (t) {
      case "yaw+":
        return [-y, x, z] as Cell;
      case "yaw-":
        return [y, -x, z] as Cell;
      case "pitch+":
        return [x, -z, y] as Cell;
      case "pitch-":
        return [x, z, -y] as Cell;
      case "roll+":
        return [z, y, -x] as Cell;
      case "roll-":
        return [-z, y, x] as Cell;
    }
  });
}

/** The cube that sits under the pointer: the first of the lowest layer. */
export function anchor(orientation: Cell[]): Cell {
  return normalise(orientation)[0];
}

export type HeightMap = number[][]; // [y][x]

export function heightMap(width: number, depth: number, cubes: RumisCube[]): HeightMap {
  const h: HeightMap = Array.from({ length: depth }, () => new Array(width).fill(0));
  for (const c of cubes) if (c.y < depth && c.x < width) h[c.y][c.x] = Math.max(h[c.y][c.x], c.z + 1);
  return h;
}

/**
 * The orientation lowered with its anchor over column (px, py) until it rests. Columns
 * off the board count as height 0 (the placement is then refused as outside).
 */
export function drop(orientation: Cell[], px: number, py: number, heights: HeightMap): Cell[] {
  const cells = normalise(orientation);
  const a = cells[0];
  const tx = px - a[0];
  const ty = py - a[1];
  let z0 = 0;
  for (const [dx, dy, dz] of cells) {
    const x = tx + dx;
    const y = ty + dy;
    const h = heights[y]?.[x] ?? 0;
    z0 = Math.max(z0, h - dz);
  }
  return cells.map(([dx, dy, dz]) => [tx + dx, ty + dy, z0 + dz] as Cell);
}

/** Column letter(s) as in the notation: a = 0. */
export function columnName(x: number): string {
  return String.fromCharCode(97 + x);
}

/** A placement in the canonical cells notation (crates/rumis/src/notation.rs). */
export function notation(stone: string, cells: Cell[]): string {
  const sorted = [...cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  return `${stone} ${sorted.map(([x, y, z]) => `${columnName(x)}${y + 1}:${z + 1}`).join(" ")}`;
}
