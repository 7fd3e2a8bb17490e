// The table page's smaller boxes: take your seat back from a bot, take an open seat,
// your own seat's link, and the fairness commitment (or its proof once over).
import { api, joinAs, rememberTable, statusOf, storeToken, type TableView } from "../api";
import { clear, h } from "../dom";
import { t } from "../i18n/i18n";
import { botSeatName } from "../names";
import { fairnessBox } from "../fairness";
import { copyField, seatLink } from "./links";
import type { TablePage } from "./state";

/** Your seat is played by a bot: take it back. It is drawn again only when what it
 * shows changes, so that its button stays put while the bot plays (a button replaced on
 * every move is hard to press). */
export class TakeBackBox {
  readonly box = h("div", { className: "take-back", testid: "take-back-box", hidden: true });
  private key = "";

  constructor(private page: TablePage) {}

  render(v: TableView): void {
    const { id, token } = this.page.state;
    const mine = v.you !== null ? v.seats[v.you] : undefined;
    const show = statusOf(v) !== "over" && statusOf(v) !== "cancelled" && mine?.kind === "bot";
    this.box.hidden = !show;
    const key = JSON.stringify([show, v.you, mine?.bot ?? null, mine?.name ?? null]);
    if (key === this.key) return;
    this.key = key;
    clear(this.box);
    if (!show || v.you === null) return;
    const seat = v.you;
    this.box.append(
      h("span", { testid: "bot-plays" }, t("hand.bot_plays", { bot: botSeatName({ seat, name: null, bot: mine?.bot ?? null }) }), " "),
      h(
        "button",
        {
          className: "primary small",
          testid: "take-back",
          onclick: async () => {
            try {
              await api.takeBack(id, token, seat);
              this.page.clearError();
              void this.page.state.refresh();
            } catch (e) {
              this.page.showError(e);
            }
          },
        },
        t("table.take_back"),
      ),
    );
  }
}

/** A spectator at a table with an open seat: take it under a name. */
export class JoinBox {
  readonly box = h("div", { className: "join-box", hidden: true });

  constructor(private page: TablePage) {}

  render(v: TableView): void {
    const id = this.page.state.id;
    const canJoin = v.you === null && statusOf(v) !== "over" && statusOf(v) !== "cancelled" && v.seats.some((s) => s.kind === "open" && !s.claimed);
    this.box.hidden = !canJoin;
    if (!canJoin || this.box.firstChild) return;
    const name = h("input", { type: "text", placeholder: t("lobby.your_name_placeholder"), "aria-label": t("lobby.your_name"), testid: "join-name", value: localStorage.getItem("rumi.name") ?? "" });
    this.box.append(
      name,
      h(
        "button",
        {
          testid: "join-table",
          onclick: async () => {
            try {
              const seat = await joinAs(id, name.value.trim(), t("lobby.guest"));
              storeToken(id, seat.token);
              rememberTable({ id, game: this.page.state.view?.game ?? "", seat: seat.seat, token: seat.token, name: seat.name, at: Date.now() });
              location.reload();
            } catch (e) {
              this.page.showError(e);
            }
          },
        },
        t("table.take_open"),
      ),
    );
  }
}

/** Your seat's own link, to open the table on another device. */
export function renderMyLink(box: HTMLElement, v: TableView, id: string, token: string | null): void {
  clear(box);
  if (v.you === null || !token) return;
  box.append(
    h(
      "details",
      { testid: "my-link" },
      h("summary", {}, t("table.my_link")),
      h("div", { className: "muted" }, t("table.my_link_note")),
      copyField("my-seat-link", seatLink(id, token)),
    ),
  );
}

/** The deal's commitment during the game, its proof once over (drawn again only when
 * either changes). */
export class FairnessSlot {
  readonly box = h("div", { className: "fairness-slot" });
  private key = "";

  constructor(private id: string) {}

  render(v: TableView): void {
    const key = JSON.stringify([v.fairness ?? null, v.over]);
    if (key === this.key) return;
    this.key = key;
    const fairness = this.box;
    clear(fairness);
    // Rumis deals nothing, except the random ruin of `ruinas-random`: no proof to show.
    if (v.game === "rumis" && v.rumis?.variant !== "ruinas-random") return;
    const box = fairnessBox(this.id, v.fairness, statusOf(v) === "over");
    if (!box) return;
    // During the game the commitment is for those who want it, behind "fair deal ✓".
    // A practice game says so on the summary's line.
    if (statusOf(v) !== "over") {
      const summary = h("summary", {}, t("fair.summary"));
      const practice = box.querySelector<HTMLElement>('[data-testid="practice-seed"]');
      if (practice) summary.append(" · ", practice);
      fairness.append(h("details", { className: "fair-deal", testid: "fair-deal" }, summary, box));
    }
    // Once over, the proof waits behind "check this deal", below the result.
    else fairness.append(h("details", { className: "check-deal", testid: "check-deal" }, h("summary", {}, t("end.check_deal")), box));
  }
}
