// The table page's part of accounts: a seat kept for the signed-in account is taken with
// one button (no link: the session says who), a seat's account links to its profile,
// and a rated table says so.
import { ApiError, type Seat, type TableView } from "./api";
import { h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { players, sameName, signedIn } from "./players";

/** The seat kept for `name` that nobody has taken yet, if any. */
export function keptSeat(v: TableView, name: string): Seat | undefined {
  return v.seats.find((s) => s.kind === "account" && !s.claimed && sameName(s.account, name));
}

/** Whether the view has a seat kept for some account that is not taken yet. */
export function hasKeptSeat(v: TableView): boolean {
  return v.seats.some((s) => s.kind === "account" && !s.claimed);
}

/**
 * Fills `box` with "Take your seat" when a spectator's account has a seat kept here;
 * `taken` gets the seat's token. The account is asked for only when such a seat exists.
 */
export async function renderTakeSeat(box: HTMLElement, v: TableView, id: string, taken: (token: string, seat: number, name: string) => void): Promise<void> {
  const show = v.you === null && v.status !== "over" && v.status !== "cancelled" && hasKeptSeat(v);
  if (!show) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const me = await signedIn();
  const seat = me ? keptSeat(v, me.name) : undefined;
  if (!seat) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  // (drawn once: the button stays put while other views arrive)
  if (box.dataset.seat === String(seat.seat) && !box.hidden) return;
  box.dataset.seat = String(seat.seat);
  const message = h("span", { className: "error", testid: "take-seat-error", role: "alert", hidden: true });
  const button = h("button", { className: "primary", testid: "take-seat" }, t("table.take_your_seat"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    message.hidden = true;
    try {
      const grant = await players.takeSeat(id);
      taken(grant.token, grant.seat, grant.name);
    } catch (e) {
      message.hidden = false;
      message.textContent = e instanceof ApiError ? reason(e.message, e.code).text : String(e);
      button.disabled = false;
    }
  });
  box.replaceChildren(h("span", {}, t("table.seat_kept", { n: seat.seat + 1 }), " "), button, message);
  box.hidden = false;
}

/** A seat's name: a link to the profile when the seat is an account's. */
export function seatNameNode(s: Seat, text: string): Node {
  if (!s.account) return document.createTextNode(text);
  return h("a", { className: "player-link", href: `/u/${encodeURIComponent(s.account)}`, testid: `seat-account-link-${s.seat}` }, text);
}

/** "rated" next to the hints setting, on rated tables. */
export function ratedBadge(v: TableView): HTMLElement | null {
  return v.rated ? h("span", { className: "tag rated", testid: "rated-table", title: t("table.rated_title") }, t("table.rated")) : null;
}
