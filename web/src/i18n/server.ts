// What the server says, in the player's language. The server sends every refusal of a
// move as a key with parameters and the rule it enforces (`why: {code, rule, params}`,
// crates/server/src/games/reasons.rs) and each Rummikub event as `last_event`; the
// client says them with `reason.<code>`, `problem.<problem>` and `event.<code>`, names
// players by their seats' names and links each refusal to its rule ("Why? R7").
// The codes are the server's enums (`RefusalCode`, `EventCode`, `SetProblemCode` in
// ../generated/api.ts); i18n.ts makes the compiler check that each has a text.
// A message without `why` (not a refusal of a move) is shown by its error code's text,
// or as the server wrote it.
import type { Event, Reason } from "../generated/api";
import { has, lang, t, tr, type Params } from "./i18n";
import { columnFromServer, marker, parseTiles, stoneEl, stoneName, tileList, tileNames, withNodes } from "../pictures";

export interface Said {
  text: string;
  /** The rule paragraph the refusal enforces: `R7` (Rumis) or `K4` (Rummikub). */
  rule: string | null;
  key: string | null;
  /** The text with its tiles drawn as tiles and its stones as pictures. */
  nodes: (Node | string)[];
}

/** A colour's name ("red" → "rot"). */
export function colourName(colour: string): string {
  return tr(`colour.${colour.toLowerCase()}`, undefined, colour);
}

/** Names of the seats of the table on show, to say `player` parameters. */
let seatNames: string[] = [];
export function setSeatNames(names: string[]): void {
  seatNames = names;
}
function playerName(seat: unknown, names: string[]): string {
  const n = Number(seat);
  return names[n] ?? t("seat.n", { n: n + 1 });
}

/** Parameters that name stones (`I4`), tiles (`r6`) or tile lists (`[r6 r7]`, `["r6"]`). */
const STONE_PARAMS = ["stone", "example", "given"];
const TILE_PARAMS = ["tile", "tiles"];

/** The tiles a parameter names, or null when it names none (a count of penalty tiles). */
function tilesOf(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string") return parseTiles(v);
  return null;
}

/** The parameters of a reason or event as the texts show them: in words, never as codes
 * (a tile is "red 6", a stone "straight four", a cell "B5, level 2"). */
function params(raw: Record<string, unknown>, names: string[]): Params {
  const p: Params = {};
  for (const [k, v] of Object.entries(raw)) {
    if (["colour", "other", "to_move", "by"].includes(k)) p[k] = colourName(String(v));
    else if (["player", "current"].includes(k)) p[k] = playerName(v, names);
    else if (k === "cell" && v && typeof v === "object") {
      const c = v as { column?: unknown; level?: unknown };
      p[k] = t("cell.level", { cell: columnFromServer(String(c.column)), level: String(c.level) });
    } else if (k === "column" && typeof v === "string") p[k] = columnFromServer(v);
    else if (STONE_PARAMS.includes(k) && typeof v === "string") p[k] = stoneName(v);
    else if (TILE_PARAMS.includes(k) && tilesOf(v)) p[k] = tileNames(tilesOf(v)!);
    else if (Array.isArray(v)) p[k] = v.join(" ");
    else p[k] = typeof v === "number" ? v : String(v);
  }
  return p;
}

/** A key with parameters: a refusal (`Reason`), an event, or one of the client's own. */
type Keyed = { code: Reason["code"] | Event["code"] | "off_board"; rule?: string | null; params: Record<string, unknown> };

/** A reason (`why`) or event (`last_event`) in the player's language. */
export function said(why: Keyed, family: "reason" | "event" = "reason", names: string[] = seatNames): Said {
  const key = `${family}.${why.code}`;
  const rule = "rule" in why ? (why.rule ?? null) : null;
  const p = params(why.params ?? {}, names);
  if (why.code === "set_problem" && typeof why.params?.problem === "string") p.problem = tr(`problem.${why.params.problem}`, p, String(why.params.problem));
  if (!has(key)) return { text: why.code, rule, key: null, nodes: [why.code] };
  // The same sentence with its tiles and stones drawn.
  const drawn: Node[] = [];
  const q: Params = { ...p };
  for (const [k, v] of Object.entries(why.params ?? {})) {
    const tiles = TILE_PARAMS.includes(k) ? tilesOf(v) : null;
    if (tiles) q[k] = marker(drawn.push(tileList(tiles)) - 1);
    else if (STONE_PARAMS.includes(k) && typeof v === "string") q[k] = marker(drawn.push(stoneEl(v)) - 1);
  }
  return { text: t(key, p), rule, key, nodes: drawn.length ? withNodes(t(key, q), drawn) : [t(key, p)] };
}

/** A refusal: from `why` when the server sent it, else by the error code's text. */
export function reason(text: string, code?: string | null, why?: Keyed | null): Said {
  if (why) return said(why);
  const s = text.trim();
  // English: the server's own sentence is the most precise; other languages: the code's text.
  if (code && has(`code.${code}`) && code !== "illegal" && lang() !== "en") return { text: tr(`code.${code}`), rule: null, key: `code.${code}`, nodes: [tr(`code.${code}`)] };
  return { text: s, rule: null, key: null, nodes: [s] };
}

/** The last event of a Rummikub view ("Ana drew a tile") in the player's language. */
export function lastEvent(rk: { last: string | null; last_event?: Event | null } | null | undefined, names: string[] = seatNames): string {
  if (!rk) return "";
  if (rk.last_event) return said(rk.last_event, "event", names).text;
  return rk.last ?? "";
}

/** The tiles the last event laid, for highlighting. */
export function lastTiles(rk: { last: string | null; last_event?: Event | null }): string[] {
  const e = rk.last_event;
  if (e && (e.code === "played" || e.code === "melded") && Array.isArray(e.params?.tiles)) return (e.params.tiles as unknown[]).map(String);
  const m = rk.last?.match(/ (?:melded|played) ((?:[rbko]\d+|J)(?: (?:[rbko]\d+|J))*)$/);
  return m ? m[1].split(" ") : [];
}

/** The rule link for a refusal: `/rules/rumis#R7`. */
export function ruleHref(rule: string): string {
  return `/rules/${rule.startsWith("K") ? "rummikub" : "rumis"}#${rule}`;
}
