// Codes on a page (issue #60 point 2): players see tiles drawn as tiles and Rumis moves
// as the stone with its place, never the notation (`r6`, `[k1 k2 k3]`, `I4 a3:1 a3:2`),
// except where they ask for it: inside an element marked `data-notation` (the record,
// "copy notation", the typed-move box).
//
// `visibleCodes(page)` walks the page's text nodes that are rendered (not in a closed
// `<details>`, not `display: none`, not hidden, with a box) and outside `[data-notation]`, and
// returns each text that holds a tile code or a move of the notation, with where it is.
import type { Page } from "@playwright/test";

/** A tile as the notation writes it: a colour letter and 1 to 13, or `J` for a joker. */
export const TILE_CODE = /\b[rbko](1[0-3]|[1-9])\b|\bJ\b/;
/** A Rumis move of the notation: a stone's code before a cell, or any cell (`a3:1`). */
export const MOVE_CODE = /\b[DILOTSYAB][234]\s+[a-z]{1,2}\d{1,2}:\d{1,2}\b|\b[a-z]{1,2}\d{1,2}:\d{1,2}\b/;

export interface FoundCode {
  /** The text node's text. */
  text: string;
  /** Where: the nearest ancestor's test id (or tag and class). */
  where: string;
  kind: "tile" | "move";
}

/** Every visible text outside `[data-notation]` that holds a tile code or a Rumis move
 * (in the element `within` selects, or the whole page). */
export async function visibleCodes(page: Page, within = "body"): Promise<FoundCode[]> {
  return page.evaluate(
    ({ tile, move, within }) => {
      const tileRe = new RegExp(tile);
      const moveRe = new RegExp(move);
      const found: { text: string; where: string; kind: "tile" | "move" }[] = [];
      const root = document.querySelector(within);
      if (!root) return [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        if (!text.trim()) continue;
        const parent = node.parentElement;
        if (!parent || parent.closest("[data-notation], script, style, noscript, template")) continue;
        // Rendered: not display:none, not visibility:hidden, not in a closed <details>.
        if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false } as CheckVisibilityOptions)) continue;
        // (in a closed <details> only its summary shows)
        const closed = parent.closest("details:not([open])");
        if (closed && !parent.closest("summary")?.parentElement?.isSameNode(closed)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length === 0) continue;
        const kind = moveRe.test(text) ? "move" : tileRe.test(text) ? "tile" : null;
        if (!kind) continue;
        const labelled = parent.closest<HTMLElement>("[data-testid]");
        const where = labelled ? `[data-testid="${labelled.dataset.testid}"]` : `${parent.tagName.toLowerCase()}.${parent.className}`;
        found.push({ text: text.trim().slice(0, 160), where, kind });
      }
      return found;
    },
    { tile: TILE_CODE.source, move: MOVE_CODE.source, within },
  );
}

/** A line per code found, for an assertion's message. */
export function describe(found: FoundCode[]): string {
  return found.map((f) => `${f.kind} code in ${f.where}: "${f.text}"`).join("\n");
}
