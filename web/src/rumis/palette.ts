// The Rumis player colours and the symbol each carries (colour is never the only sign):
// one palette for the cubes, the tray, the top view, the score table, the move list,
// the seat pills and the turn line. `npm run build` checks (scripts/check-palette.mjs)
// that every pair stays apart under simulated protanopia, deuteranopia and tritanopia.
import { h } from "../dom";
import { colourName } from "../i18n/server";
import palette from "./palette.json";

const COLOURS: Record<string, { hex: string; symbol: string; pattern: string }> = { ...palette.colours, purple: palette.colours.violet };
export const NEUTRAL_HEX = 0x9a8f84;

export function colourHex(colour: string): number {
  const c = COLOURS[colour.toLowerCase()];
  return c ? parseInt(c.hex.slice(1), 16) : NEUTRAL_HEX;
}

export function colourCss(colour: string): string {
  return `#${colourHex(colour).toString(16).padStart(6, "0")}`;
}

/** A colour's pattern on its stones' faces (a second sign besides the symbol, which
 * still reads where a face is a few pixels wide); neutral stones have none. */
export function colourPattern(colour: string): string {
  return COLOURS[colour.toLowerCase()]?.pattern ?? "";
}

/** The colour's symbol (● ■ ▲ ◆ ✚ ★); neutral stones have none. */
export function colourSymbol(colour: string): string {
  return COLOURS[colour.toLowerCase()]?.symbol ?? "";
}

/** Black or white, whichever reads better on the colour (WCAG contrast). */
export function inkOn(colour: string): string {
  const hex = colourHex(colour);
  const lin = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const l = 0.2126 * lin((hex >> 16) & 255) + 0.7152 * lin((hex >> 8) & 255) + 0.0722 * lin(hex & 255);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

/** A colour's marker: its symbol on its colour (drawn by CSS from `data-symbol`, so
 * that texts around it read as before), and its name for screen readers (`named`: the
 * name shown as text after it too). */
export function colourChip(colour: string, named = false): HTMLElement {
  const chip = h(
    "span",
    { className: "chip", "data-colour": colour, "data-symbol": colourSymbol(colour), style: `background:${colourCss(colour)};color:${inkOn(colour)}`, role: named ? null : "img", "aria-label": named ? null : colourName(colour), "aria-hidden": named ? "true" : null },
  );
  if (!named) return chip;
  return h("span", { className: "chip-named" }, chip, " ", colourName(colour));
}
