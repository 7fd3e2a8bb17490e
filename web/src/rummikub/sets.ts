// Client-side set validity (K3), mirroring crates/rummikub/src/set.rs: a set is valid
// if some reading of it is a group or a run, with the view's rules (jokers per set,
// wrap-around runs in the old rules). The server stays the judge; this only marks
// sets while a player works.
import type { RummikubRules } from "../api";

export const COLOURS = ["r", "b", "k", "o"] as const;
export const COLOUR_NAMES: Record<string, string> = { r: "red", b: "blue", k: "black", o: "orange" };

export interface Tile {
  colour: string | null;
  number: number | null;
  joker: boolean;
}

export function parseTile(code: string): Tile {
  if (code === "J" || code === "j") return { colour: null, number: null, joker: true };
  const colour = code[0].toLowerCase();
  const number = Number(code.slice(1));
  return { colour, number, joker: false };
}

/** Why a set is not valid, or null when it is. */
export function setProblem(codes: string[], rules: Pick<RummikubRules, "jokers_per_set" | "run_wraps_around">): string | null {
  if (codes.length < 3) return `has only ${codes.length} tile${codes.length === 1 ? "" : "s"}; a set needs at least 3`;
  const tiles = codes.map(parseTile);
  const jokers = tiles.filter((t) => t.joker).length;
  if (jokers > rules.jokers_per_set) return `has ${jokers} jokers; these rules allow at most ${rules.jokers_per_set} per set`;
  if (isGroup(tiles) || isRun(tiles, rules.run_wraps_around)) return null;
  return "is neither a run nor a group";
}

function isGroup(tiles: Tile[]): boolean {
  if (tiles.length > 4) return false;
  const numbered = tiles.filter((t) => !t.joker);
  if (numbered.length === 0) return false;
  const n = numbered[0].number;
  const colours = new Set<string>();
  for (const t of numbered) {
    if (t.number !== n || colours.has(t.colour!)) return false;
    colours.add(t.colour!);
  }
  return true;
}

function isRun(tiles: Tile[], wraps: boolean): boolean {
  const len = tiles.length;
  if (len > 13) return false;
  const numbered = tiles.filter((t) => !t.joker);
  if (numbered.length === 0) return false;
  const colour = numbered[0].colour;
  if (numbered.some((t) => t.colour !== colour)) return false;
  const numbers = numbered.map((t) => t.number!).sort((a, b) => a - b);
  for (let i = 1; i < numbers.length; i++) if (numbers[i] === numbers[i - 1]) return false;
  const lastStart = wraps ? 13 : 13 - len + 1;
  for (let start = 1; start <= lastStart; start++) {
    const window = new Set<number>();
    for (let i = 0; i < len; i++) window.add(((start - 1 + i) % 13) + 1);
    if (numbers.every((n) => window.has(n))) return true;
  }
  return false;
}

/** Sort keys for the rack. */
export function byColour(a: string, b: string): number {
  const ta = parseTile(a);
  const tb = parseTile(b);
  if (ta.joker !== tb.joker) return ta.joker ? 1 : -1;
  if (ta.joker) return 0;
  return COLOURS.indexOf(ta.colour as never) - COLOURS.indexOf(tb.colour as never) || ta.number! - tb.number!;
}

export function byNumber(a: string, b: string): number {
  const ta = parseTile(a);
  const tb = parseTile(b);
  if (ta.joker !== tb.joker) return ta.joker ? 1 : -1;
  if (ta.joker) return 0;
  return ta.number! - tb.number! || COLOURS.indexOf(ta.colour as never) - COLOURS.indexOf(tb.colour as never);
}
