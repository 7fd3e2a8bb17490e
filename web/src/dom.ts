// Tiny DOM helpers: no framework, just elements with attributes and children.
import { t } from "./i18n/i18n";
import { botLevel, botSeatName, localName } from "./names";

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === "testid") {
      el.setAttribute("data-testid", String(value));
    } else if (key === "className") {
      el.className = String(value);
    } else if (key === "value" && "value" in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** The name to show for a seat (the server's default names in the player's language; a
 * bot seat by its own name and level, "Inti, expert bot"; a person's seat handed to a
 * bot, `claimed`, keeps the person's name). */
export function seatName(seat: { seat: number; name?: string | null; kind?: string; bot?: string | null; claimed?: boolean }): string {
  if (seat.kind === "bot" && !seat.claimed) return botSeatName(seat);
  if (seat.name) return localName(seat.name, seat.kind === "bot" ? (seat.bot ?? null) : seat.kind ? false : undefined);
  if (seat.kind === "bot") return t("name.bot", { level: botLevel(seat.bot) ?? seat.bot ?? t("seat.bot") });
  return t("seat.n", { n: seat.seat + 1 });
}
