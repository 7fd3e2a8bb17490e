// Small helpers of the table page that other pages use too: a seat's link, a copy
// field, the result in words; and the words for seats in sentences.
import type { Seat, TableView } from "../api";
import { h, seatName } from "../dom";
import { t } from "../i18n/i18n";

/** `/t/ID#token=…` as an absolute link. */
export function seatLink(id: string, token: string): string {
  return new URL(`/t/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`, location.origin).href;
}

export function absolute(link: string): string {
  return new URL(link, location.origin).href;
}

/** A read-only field with a link and a copy button (the link is not an anchor: following
 * an invite link in this tab would put you on that seat). */
export function copyField(testid: string, value: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value, testid, className: "link-field", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  input.setAttribute("aria-label", t("table.link"));
  const button = h("button", { className: "small", testid: `copy-${testid}` }, t("table.copy"));
  button.addEventListener("click", async () => {
    input.select();
    let ok = false;
    try {
      await navigator.clipboard.writeText(value);
      ok = true;
    } catch {
      ok = document.execCommand?.("copy") ?? false;
    }
    button.textContent = ok ? t("table.copied") : t("table.select_copy");
    window.setTimeout(() => (button.textContent = t("table.copy")), 2000);
  });
  return h("span", { className: "copy-field" }, input, button);
}

/** A player's name for a sentence: "Ana" or "seat 2". */
export function who(seat: Seat | undefined, index: number): string {
  return seat ? seatName(seat) : t("seat.n", { n: index + 1 });
}

/** "Ana's seat", or "seat 2" while nobody has taken it. */
export function seatPhrase(s: Seat): string {
  return s.claimed ? t("table.seat_of", { name: seatName(s) }) : t("seat.n", { n: s.seat + 1 });
}

/** "Ana wins", "Ana and Bo win" in the player's language (the server's text is English). */
export function resultText(v: TableView): string {
  const r = v.result!;
  if (!r.winners.length) return r.text;
  const names = r.winners.map((w) => seatName(v.seats[w] ?? { seat: w })).join(` ${t("common.and")} `);
  return t(r.winners.length > 1 ? "result.win_many" : "result.wins", { names });
}

/** Whole seconds left of `ms` (never below zero). */
export function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
