// The table page's lines of status: the heading and the tab's title, whose turn (or
// whom the table waits for, with the invite links still to send), and a bot in trouble.
import { statusOf, storedInvites, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { colourChip } from "../rumis/palette";
import { viewTitle } from "../titles";
import type { TurnSignal } from "../turn";
import { absolute, copyField, who } from "./links";

/** The heading and the tab's title name the game and the players (bots with their
 * levels once the meta has come). */
export function renderTitle(title: HTMLElement, signal: TurnSignal, v: TableView, id: string, token: string | null): void {
  const named = viewTitle(v);
  signal.setTitle(`rumi — ${named}`);
  // (a player's own seat is marked in the seat list, not in the heading)
  title.textContent = `${named}${v.you === null ? (token ? ` ${t("table.link_refused")}` : ` (${t("table.spectator")})`) : ""}`;
  title.dataset.id = id;
  title.dataset.you = v.you === null ? "" : String(v.you);
}

/** Whose turn, or whom the table waits for; your turn also in the tab (`signal`). */
export function renderTurn(turn: HTMLElement, signal: TurnSignal, v: TableView): void {
  const status = statusOf(v);
  const myTurn = status === "playing" && v.you !== null && v.to_move === v.you;
  turn.dataset.myTurn = String(myTurn);
  signal.controls.hidden = v.you === null || status === "over" || status === "cancelled";
  signal.update(myTurn);
  turn.dataset.version = String(v.version);
  turn.dataset.over = String(v.over);
  turn.dataset.status = status;
  turn.className = "turn" + (myTurn ? " mine" : "") + (status === "waiting" ? " waiting" : "");
  if (status === "over") turn.textContent = t("table.game_over");
  // (RT7: a rated table whose seats were not all taken in time; nothing more happens)
  else if (status === "cancelled") turn.textContent = t("table.cancelled");
  else if (status === "waiting") {
    const waiting = v.waiting_for ?? v.seats.filter((s) => s.kind !== "bot" && !s.claimed).map((s) => s.seat);
    turn.dataset.waitingFor = waiting.join(",");
    turn.textContent = t("table.waiting_for", { who: waiting.map((i) => who(v.seats[i], i)).join(", ") || t("table.players") });
  } else if (myTurn) turn.textContent = t("table.your_turn");
  else if (v.to_move !== null && v.seats[v.to_move]) turn.textContent = t("table.to_move", { name: seatName(v.seats[v.to_move]) });
  else turn.textContent = "";
  // Rumis: the colour to move, with its symbol, as on the board and in the scores.
  if (status === "playing" && v.rumis?.to_move_colour) turn.prepend(colourChip(v.rumis.to_move_colour), " ");
  if (status !== "waiting") delete turn.dataset.waitingFor;
}

/** A bot seat whose bot failed: the server retries it, then a simpler bot moves for it. */
export function renderTrouble(box: HTMLElement, v: TableView): void {
  clear(box);
  box.hidden = v.bot_trouble.length === 0;
  for (const trouble of v.bot_trouble) {
    const seat = v.seats[trouble.seat];
    const params = {
      name: seat ? seatName(seat) : t("seat.n_lower", { n: trouble.seat + 1 }),
      reason: t(`bot_trouble.code_${trouble.code}` as const),
      retry: trouble.retries,
    };
    box.append(
      h(
        "div",
        { testid: `bot-trouble-${trouble.seat}`, "data-code": trouble.code, "data-fallback": String(trouble.fallback) },
        trouble.fallback ? t("bot_trouble.fallback", params) : t("bot_trouble.retrying", params),
      ),
    );
  }
}

/** While waiting: whom for, and (for the creator) the invite links still to send. */
export function renderWaiting(box: HTMLElement, v: TableView, id: string): void {
  const waiting = statusOf(v) === "waiting" ? (v.waiting_for ?? []) : [];
  clear(box);
  box.hidden = waiting.length === 0;
  if (box.hidden) return;
  const invites = storedInvites(id);
  box.append(h("div", {}, t("table.waiting_note")));
  const list = h("ul", { className: "links", testid: "invites" });
  for (const seat of waiting) {
    const s = v.seats[seat];
    const invite = invites.find((i) => i.seat === seat);
    if (invite) {
      list.append(h("li", {}, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), copyField(`invite-${seat}`, absolute(invite.invite)), h("span", { className: "muted" }, " ", t("table.send_link"))));
    } else if (s?.kind === "open") {
      list.append(
        h(
          "li",
          { testid: `open-seat-${seat}` },
          h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `),
          t("table.open_note"), " ",
          copyField(`table-link-${seat}`, absolute(`/t/${encodeURIComponent(id)}`)),
        ),
      );
    } else if (s?.kind === "account") {
      list.append(h("li", { testid: `kept-seat-${seat}` }, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), t("table.kept_note", { name: s.account ?? s.name })));
    } else {
      list.append(h("li", {}, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), t("table.invited_note")));
    }
  }
  box.append(list);
}
