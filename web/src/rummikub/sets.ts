// Client-side set validity (K3), mirroring crates/rummikub/src/set.rs: a set is valid
// if some reading of it is a group or a run, with the view's rules (jokers per set,
// wrap-around runs in the old rules). The server stays the judge; this only marks
// sets while a player works.
import type { RummikubRules } from "../api";
import { t } from "../i18n/i18n";

export const COLOURS = ["r", "b", "k", "o"] as const;
/** A tile colour's name in the player's language. */
export function tileColourName(c: string): string {
  return t(c === "r" ? "tile.r" : c === "b" ? "tile.b" : c === "k" ? "tile.k" : "tile.o");
}

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
  if (codes.length < 3) return t("problem.too_short", { count: codes.length });
  const tiles = codes.map(parseTile);
  const jokers = tiles.filter((x) => x.joker).length;
  if (jokers > rules.jokers_per_set) return t("problem.jokers", { jokers, allowed: rules.jokers_per_set });
  if (isGroup(tiles) || isRun(tiles, rules.run_wraps_around)) return null;
  return t("problem.neither");
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

/** The first number of each valid run window of a set (its readings as a run). */
function runStarts(tiles: Tile[], wraps: boolean): number[] {
  const len = tiles.length;
  const numbers = tiles.filter((x) => !x.joker).map((x) => x.number!);
  const starts: number[] = [];
  const lastStart = wraps ? 13 : 13 - len + 1;
  for (let start = 1; start <= lastStart; start++) {
    const window = new Set<number>();
    for (let i = 0; i < len; i++) window.add(((start - 1 + i) % 13) + 1);
    if (numbers.every((n) => window.has(n))) starts.push(start);
  }
  return starts;
}

/** A valid set's value at its highest reading (a joker counts as the tile it stands for,
 * KD3); null when the set is not valid. */
export function setValue(codes: string[], rules: Pick<RummikubRules, "jokers_per_set" | "run_wraps_around">): number | null {
  if (setProblem(codes, rules) !== null) return null;
  const tiles = codes.map(parseTile);
  let best = 0;
  if (isGroup(tiles)) best = tiles.find((x) => !x.joker)!.number! * tiles.length;
  if (isRun(tiles, rules.run_wraps_around)) {
    for (const start of runStarts(tiles, rules.run_wraps_around)) {
      let sum = 0;
      for (let i = 0; i < tiles.length; i++) sum += ((start - 1 + i) % 13) + 1;
      best = Math.max(best, sum);
    }
  }
  return best;
}

/** Tiles in reading order: a run (or the start of one: one colour, no repeats) ascending
 * with each joker in its gap, else as laid. Returns the indexes of `codes`. */
export function readingOrder(codes: string[], rules: Pick<RummikubRules, "run_wraps_around">): number[] {
  const tiles = codes.map(parseTile);
  const idx = codes.map((_, i) => i);
  const numbered = idx.filter((i) => !tiles[i].joker);
  const jokers = idx.filter((i) => tiles[i].joker);
  if (numbered.length < 2) return idx;
  const colour = tiles[numbered[0]].colour;
  const numbers = numbered.map((i) => tiles[i].number!);
  if (numbered.some((i) => tiles[i].colour !== colour) || new Set(numbers).size !== numbers.length) return idx;
  numbered.sort((a, b) => tiles[a].number! - tiles[b].number!);
  const starts = isRun(tiles, rules.run_wraps_around) ? runStarts(tiles, rules.run_wraps_around) : [];
  if (starts.length) {
    // The highest reading: jokers fill the gaps, then go to the top end (then the bottom).
    const start = starts[starts.length - 1];
    const out: number[] = [];
    const byNumber = new Map(numbered.map((i) => [tiles[i].number!, i]));
    const free = [...jokers];
    for (let k = 0; k < codes.length; k++) {
      const n = ((start - 1 + k) % 13) + 1;
      const i = byNumber.get(n);
      out.push(i !== undefined ? i : free.shift()!);
    }
    return out;
  }
  // Not (yet) a run: numbers ascending, jokers where a gap of one is, else at the end.
  const out: number[] = [];
  const free = [...jokers];
  numbered.forEach((i, k) => {
    if (k > 0 && free.length && tiles[i].number! - tiles[numbered[k - 1]].number! === 2) out.push(free.shift()!);
    out.push(i);
  });
  return [...out, ...free];
}
