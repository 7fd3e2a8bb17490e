// A set's validity, value and reading order while a player works, from the rules crate
// itself (crates/rummikub, compiled to WebAssembly: ../wasm/rules.ts): the browser has
// no second implementation of the rules. The server stays the judge. What is only
// drawing (colour names, reading a code, sorting the rack) stays here.
import type { RummikubRules } from "../api";
import { t } from "../i18n/i18n";
import { checkSet, loadRules, rulesLoaded } from "../wasm/rules";

export { loadRules, rulesLoaded };

type SetRules = Pick<RummikubRules, "jokers_per_set" | "run_wraps_around">;

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

/** Why a set is not valid, in the player's language, or null when it is. */
export function setProblem(codes: string[], rules: SetRules): string | null {
  const check = checkSet(codes, rules);
  switch (check.verdict) {
    case "valid":
      return null;
    case "too_short":
      return t("problem.too_short", { count: check.tiles });
    case "too_many_jokers":
      return t("problem.jokers", { jokers: check.jokers, allowed: rules.jokers_per_set });
    case "neither":
      return t("problem.neither");
  }
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

/** A valid set's value at its highest reading (a joker counts as the tile it stands for,
 * KD3); null when the set is not valid. */
export function setValue(codes: string[], rules: SetRules): number | null {
  const check = checkSet(codes, rules);
  return check.verdict === "valid" ? check.value : null;
}

/** Tiles in reading order, as indexes of `codes`: a valid set as the rules read it (runs
 * ascending with each joker in its gap, KD8); the start of a run (one colour, no
 * repeats) ascending with a joker where a gap of one is; anything else as laid. */
export function readingOrder(codes: string[], rules: SetRules): number[] {
  const check = checkSet(codes, rules);
  if (check.verdict === "valid") return check.order;
  const tiles = codes.map(parseTile);
  const idx = codes.map((_, i) => i);
  const numbered = idx.filter((i) => !tiles[i].joker);
  const jokers = idx.filter((i) => tiles[i].joker);
  if (numbered.length < 2) return idx;
  const colour = tiles[numbered[0]].colour;
  const numbers = numbered.map((i) => tiles[i].number!);
  if (numbered.some((i) => tiles[i].colour !== colour) || new Set(numbers).size !== numbers.length) return idx;
  numbered.sort((a, b) => tiles[a].number! - tiles[b].number!);
  const out: number[] = [];
  const free = [...jokers];
  numbered.forEach((i, k) => {
    if (k > 0 && free.length && tiles[i].number! - tiles[numbered[k - 1]].number! === 2) out.push(free.shift()!);
    out.push(i);
  });
  return [...out, ...free];
}
