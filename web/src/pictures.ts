// Tiles and stones as pictures, places in words (issue #60): players see a red 6 as a
// tile and a Rumis move as the stone's picture and name with its place ("straight four
// on A3 B3 C3 D3, level 1"), never the notation (`r6`, `I4 a3:1 …`). The notation is
// shown only where a player asks for it (the record, "copy notation", the typed-move
// box), in elements marked `data-notation`; web/e2e/codes.ts checks every page for
// codes outside them.
//
// One function draws a tile (`tileFace`, used by the table, the rack, the log, hints,
// refusals, puzzles, reviews and the analysis board); one says a Rumis move (`moveEl`).
import type { Cell } from "./api";
import { h } from "./dom";
import { t, tr, type Params } from "./i18n/i18n";
import { parseTile, tileColourName } from "./rummikub/sets";
import { colourHex } from "./rumis/palette";
import { stoneSvg } from "./rumis/tray";

// ---- Rummikub tiles ---------------------------------------------------------------

/** Colours are told apart by a mark too, not by hue alone. */
export const MARKS: Record<string, string> = { r: "◆", b: "●", k: "■", o: "▲" };
/** The joker's face (a face, as on the real tiles; not a letter). */
const JOKER_FACE = "☺";

/** A tile's name in the player's language: "red 6", "joker". */
export function tileName(code: string): string {
  const tile = parseTile(code);
  return tile.joker ? t("tile.joker") : `${tileColourName(tile.colour!)} ${tile.number}`;
}

/** Tiles named in words, for a title or a screen reader: "red 6, red 7". */
export function tileNames(codes: string[]): string {
  return codes.map(tileName).join(", ");
}

/** The tiles of a set as the server writes it (`[r6 r7 J]`) or a list (`r6 r7`). */
export function parseTiles(text: string): string[] {
  return text.replace(/[[\]]/g, " ").split(/\s+/).filter(Boolean);
}

/** What every drawn tile is made of: its classes, its name, and its face (the number
 * and the colour's mark, or the joker's face). The table's and the rack's tiles add
 * their own behaviour to these. */
export function tileFace(code: string): { className: string; name: string; face: HTMLElement[] } {
  const tile = parseTile(code);
  const face = [h("span", { className: "num", "aria-hidden": "true" }, tile.joker ? JOKER_FACE : String(tile.number))];
  if (!tile.joker) face.push(h("span", { className: "mark", "aria-hidden": "true" }, MARKS[tile.colour!] ?? ""));
  return { className: `tile ${tile.joker ? "joker" : "c-" + tile.colour}`, name: tileName(code), face };
}

/** A tile as a small picture. */
export function tileEl(code: string): HTMLElement {
  const { className, name, face } = tileFace(code);
  return h("span", { className: `${className} small`, role: "img", "aria-label": name, title: name, "data-code": code }, ...face);
}

/** Tiles in a row. */
export function tileList(codes: string[]): HTMLElement {
  return h("span", { className: "tile-list", "data-tiles": codes.join(" ") }, ...codes.map(tileEl));
}

// ---- Rumis stones and places ------------------------------------------------------

/** The eleven stones in one orientation each (R5), for their pictures. */
export const STONE_SHAPES: Record<string, Cell[]> = {
  D2: [[0, 0, 0], [1, 0, 0]],
  I3: [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
  L3: [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  I4: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]],
  O4: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
  T4: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  L4: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  S4: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
  Y4: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
  A4: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
  B4: [[0, 1, 0], [1, 1, 0], [1, 0, 0], [1, 0, 1]],
};

/** A stone's name as the rules call it ("straight four", "gerader Vierer"). */
export function stoneName(code: string): string {
  return tr(`stone.${code}`, undefined, code);
}

/** A stone as a small picture and its name; `cells` draw it as it lies (else as the
 * rules page shows it), in its colour's hue. */
export function stoneEl(code: string, colour: string | null = null, cells: Cell[] | null = null): HTMLElement {
  const shape = cells ?? STONE_SHAPES[code] ?? null;
  const name = stoneName(code);
  const pic = shape ? stoneSvg(shape, colour ? colourHex(colour) : 0xb5542c, 22) : null;
  pic?.setAttribute("aria-hidden", "true");
  return h("span", { className: "stone-name", "data-stone": code }, pic ?? "", name);
}

/** A column of the board as its label shows it: `B`. Capitals keep a place ("B3") from
 * reading as a tile or a move. */
export function columnLabel(x: number): string {
  return String.fromCharCode(65 + x);
}

/** A column of the board and its row as the board's labels name them: `B3`. */
export function columnName(x: number, y: number): string {
  return `${columnLabel(x)}${y + 1}`;
}

/** A column as the server names it in a refusal (`b5`), as the board labels it (`B5`). */
export function columnFromServer(name: string): string {
  return name.replace(/^[a-z]+/, (letters) => letters.toUpperCase());
}

/** Where cells lie, in words: "B3 C3 D3, level 1" ("levels 1–2" when it stands up). */
export function placeName(cells: Cell[]): string {
  const cols = [...new Set([...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([x, y]) => columnName(x, y)))].join(" ");
  const levels = [...new Set(cells.map((c) => c[2] + 1))].sort((a, b) => a - b);
  if (levels.length > 1) return t("place.levels", { cols, from: levels[0], to: levels[levels.length - 1] });
  return t("place.level", { cols, level: levels[0] ?? 1 });
}

/** A move read from the notation: a placement, or a stone taken off (`x L4 …`, R16). */
export interface ReadMove {
  stone: string;
  cells: Cell[];
  removed: boolean;
  /** `x L4 > aside`: the stone taken off was set aside. */
  aside: boolean;
}

/** Reads a move of the notation (`L4 a1:1 b1:1 c1:1 a2:1`); of a dismantling turn
 * (`x L4 … > L4 …`) the placement, or the removal when it was set aside. */
export function readMove(text: string): ReadMove | null {
  const [first, second] = text.split(">").map((s) => s.trim());
  const part = second && second !== "aside" ? second : first;
  const words = part.split(/\s+/).filter(Boolean);
  const removed = words[0] === "x";
  const stone = removed ? words[1] : words[0];
  if (!stone) return null;
  const cells: Cell[] = words.flatMap((w) => {
    const m = w.match(/^([a-z])(\d+):(\d+)$/);
    return m ? [[m[1].charCodeAt(0) - 97, Number(m[2]) - 1, Number(m[3]) - 1] as Cell] : [];
  });
  return { stone, cells, removed, aside: second === "aside" };
}

/** A Rumis move in words: "straight four on A3 B3 C3 D3, level 1". */
export function moveText(stone: string, cells: Cell[]): string {
  return cells.length ? t("place.move", { stone: stoneName(stone), place: placeName(cells) }) : stoneName(stone);
}

/** A Rumis move as the stone's picture, its name and its place. The notation is kept in
 * `data-move` (not shown), for tests and for "copy notation". */
export function moveEl(stone: string, cells: Cell[], colour: string | null = null, notation = ""): HTMLElement {
  const where = cells.length ? placeName(cells) : "";
  return h(
    "span",
    { className: "move-words", "data-move": notation, "data-stone": stone },
    stoneEl(stone, colour, cells.length ? cells : null),
    where ? " " + t("place.on", { place: where }) : "",
  );
}

/** A move of the notation drawn as `moveEl` (a removal says so). */
export function notationMoveEl(text: string, colour: string | null = null): HTMLElement {
  const m = readMove(text);
  if (!m) return h("span", { className: "move-words", "data-move": text }, "");
  if (m.removed) {
    const el = moveEl(m.stone, m.cells, colour, text);
    el.prepend(t("place.taken_off"), " ");
    return el;
  }
  return moveEl(m.stone, m.cells, colour, text);
}

// ---- texts with pictures in them ---------------------------------------------------

/** A text with some of its `{name}`s replaced by elements: `text` is the translated
 * sentence with each such parameter filled by `marker(i)`. */
export function withNodes(text: string, nodes: Node[]): (Node | string)[] {
  const out: (Node | string)[] = [];
  const parts = text.split(/\u0000(\d+)\u0000/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) out.push(part);
    } else {
      const n = nodes[Number(part)];
      if (n) out.push(n);
    }
  });
  return out;
}

/** The placeholder of the `i`th element in a text for `withNodes`. */
export const marker = (i: number): string => `\u0000${i}\u0000`;

/** `t(key, params)` with the parameters in `nodes` drawn as those elements. */
export function tNodes(key: Parameters<typeof t>[0], params: Params, nodes: Record<string, Node>): (Node | string)[] {
  const list: Node[] = [];
  const p: Params = { ...params };
  for (const [name, node] of Object.entries(nodes)) {
    p[name] = marker(list.length);
    list.push(node);
  }
  return withNodes(t(key, p), list);
}

// ---- the notation, where a player asks for it ---------------------------------------

/** "Copy notation": copies `text()` (the record or a move as the notation writes it);
 * the button itself is marked `data-notation`, and says when it has copied. */
export function copyNotationButton(text: () => string, testid = "copy-notation"): HTMLButtonElement {
  const button = h("button", { type: "button", className: "small copy-notation", testid, "data-notation": "" }, t("notation.copy"));
  button.addEventListener("click", async () => {
    const value = text();
    try {
      await navigator.clipboard.writeText(value);
      button.textContent = t("notation.copied");
    } catch {
      // No clipboard (an insecure page): the notation shown to select by hand.
      button.replaceWith(h("code", { className: "notation", "data-notation": "", testid }, value));
    }
    button.dataset.copied = value;
  });
  return button;
}
