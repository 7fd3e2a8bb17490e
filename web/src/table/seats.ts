// The table page's seats: the seat list in the menu (with renaming and handing a seat
// to a bot), your own seat's hand-over, and the one line of players above the board.
import { api, botsOf, statusOf, type Seat, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { botLabel, botOwnName, botSeatName, localName } from "../names";
import { colourChip } from "../rumis/palette";
import { ratedBadge, seatNameNode } from "../table-account";
import { seatPhrase, seconds } from "./links";
import type { TablePage } from "./state";

const NAME_KEY = "rumi.name";

/** Asks before a seat goes to a bot, naming the bot; resolves whether to go ahead. */
function confirmHand(own: boolean, bot: string, what: string): Promise<boolean> {
  return new Promise((resolve) => {
    const yes = h("button", { className: "primary", testid: "hand-confirm", value: "yes" }, t("hand.confirm_yes"));
    const no = h("button", { testid: "hand-cancel", value: "no" }, t("common.cancel"));
    const dialog = h(
      "dialog",
      { className: "confirm", testid: "hand-dialog", "aria-labelledby": "hand-dialog-title" },
      h("h2", { id: "hand-dialog-title" }, own ? t("hand.confirm_title") : t("hand.confirm_other_title", { what })),
      h("p", { testid: "hand-dialog-text" }, own ? t("hand.confirm_text", { bot }) : t("hand.confirm_other_text", { bot, what })),
      h("form", { method: "dialog", className: "confirm-actions" }, no, " ", yes),
    );
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}

export class SeatsView {
  readonly list = h("div", { className: "seat-list", testid: "seat-list" });
  /** The one line above the board: each player, the one to move marked. */
  readonly strip = h("div", { className: "strip-seats", testid: "strip-seats" });
  readonly handOwn = h("div", { className: "hand-own", testid: "hand-own", hidden: true });
  /** The table's hints setting, for everyone to see. */
  private hintsLine = h("span", { className: "hints-setting muted", testid: "hints-setting" });
  private renameInput = h("input", { testid: "rename-input", type: "text", autocomplete: "nickname", maxlength: 40, "aria-label": t("lobby.your_name") });
  readonly renameBox: HTMLFormElement;
  /** The bot picked in each seat's hand-over control (the seat list is redrawn on every view). */
  private botChoices = new Map<number, string>();

  constructor(private page: TablePage) {
    const renameBox = h(
      "form",
      { className: "rename-box", testid: "rename-box", hidden: true },
      this.renameInput,
      " ",
      h("button", { type: "submit", testid: "rename-save" }, t("table.rename_save")),
      " ",
      h("button", { type: "button", className: "secondary", onclick: () => (renameBox.hidden = true) }, t("common.cancel")),
    );
    this.renameBox = renameBox;
    renameBox.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = this.renameInput.value.trim();
      const { view, id, token } = page.state;
      if (!name || !view || view.you === null) return;
      try {
        await api.rename(id, token, view.you, name);
        renameBox.hidden = true;
        try {
          localStorage.setItem(NAME_KEY, name);
        } catch {
          /* no storage */
        }
      } catch (err) {
        page.showError(err);
      }
    });
  }

  /** The hand-over countdowns tick every second; true when one has reached zero (the
   * page draws again then). */
  tick(): boolean {
    let due = false;
    for (const el of this.list.querySelectorAll<HTMLElement>("[data-handover-ms]")) {
      const left = Number(el.dataset.handoverMs) - Date.now();
      if (left <= 0) due = true;
      else el.textContent = ` · ${t("table.handover_in", { what: el.dataset.what ?? "", secs: seconds(left) })}`;
    }
    return due;
  }

  render(v: TableView): void {
    const status = statusOf(v);
    const token = this.page.state.token;
    const seats = this.list;
    clear(seats);
    for (const s of v.seats) {
      const moving = status === "playing" && v.to_move === s.seat;
      const state =
        s.left
          ? ` · ${t("seat.left", { bot: botSeatName({ seat: s.seat, name: null, bot: s.bot }) })}`
          : s.kind === "bot"
          ? s.claimed ? ` · ${t("hand.played_by", { bot: botSeatName({ seat: s.seat, name: null, bot: s.bot }) })}` : ""
          : !s.claimed
            ? s.kind === "open" ? ` · ${t("seat.open")}` : s.kind === "account" ? ` · ${t("seat.kept")}` : ` · ${t("seat.invited")}`
            : s.connected ? ` · ${t("seat.online")}` : s.away_since_ms !== null ? ` · ${t("seat.away")}` : ` · ${t("seat.offline")}`;
      seats.append(
        h(
          "div",
          {
            className: "seat" + (moving ? " to-move" : "") + (s.seat === v.you ? " you" : ""),
            testid: `seat-${s.seat}`,
            "data-kind": s.kind,
            "data-claimed": String(s.claimed),
            "data-connected": String(s.connected),
          },
          h("span", { className: "marker" }, moving ? "▶" : ""),
          // Rumis: the seat's colours, each with its symbol, as in the build and the scores.
          ...(v.rumis?.colours.filter((c) => c.owner === s.seat).map((c) => colourChip(c.colour)) ?? []),
          h("span", { className: "name" }, seatNameNode(s, seatName(s)), s.seat === v.you ? ` (${t("common.you")})` : ""),
          h("span", { className: "muted" }, state),
          // (an account's seat carries the account's name: not renamed here)
          s.seat === v.you && token && !s.account
            ? h(
                "button",
                {
                  className: "small secondary",
                  testid: "rename-seat",
                  title: t("table.rename"),
                  "aria-label": t("table.rename"),
                  onclick: () => {
                    this.renameBox.hidden = false;
                    // (the server's default name is no name the player chose: an empty field)
                    this.renameInput.value = localName(s.name, false) === s.name ? s.name : "";
                    this.renameInput.focus();
                  },
                },
                "✎",
              )
            : null,
          // (your own seat's hand-over has a box of its own: it is not your level)
          s.seat === v.you ? null : this.handControl(v, s),
        ),
      );
    }
    this.renderHandOwn(v);
    this.renderStrip(v);
    const hintsLine = this.hintsLine;
    hintsLine.textContent = t(v.hints ? "table.hints_on" : "table.hints_off");
    hintsLine.title = t(v.hints ? "table.hints_on_title" : "table.hints_off_title");
    hintsLine.dataset.on = String(v.hints);
    // (after the seats, in their row: no line of its own on a phone)
    seats.append(hintsLine);
    const rated = ratedBadge(v);
    if (rated) seats.append(rated);
  }

  /** The hand-to-bot control of a seat, a countdown until it may be used, or null. */
  private handControl(v: TableView, s: Seat): HTMLElement | null {
    const { id, token, meta } = this.page.state;
    if (statusOf(v) === "over" || statusOf(v) === "cancelled" || v.you === null || s.kind === "bot") return null;
    const own = s.seat === v.you;
    // (at a rated table you play your own seat: the server refuses to hand it to a bot)
    if (own && v.rated) return null;
    if (!own) {
      // Another player's seat: only once the server says they have been away long enough.
      // (An invited seat nobody took counts as away since the table was made.)
      if (s.handover_ms === null) return null;
      const left = s.handover_ms - Date.now();
      if (left > 0) {
        return h(
          "span",
          { className: "handover muted", testid: `handover-${s.seat}`, "data-handover-ms": String(s.handover_ms), "data-what": seatPhrase(s) },
          ` · ${t("table.handover_in", { what: seatPhrase(s), secs: seconds(left) })}`,
        );
      }
    }
    const metas = [...botsOf(meta, v.game)].sort((a, b) => a.level - b.level);
    // The bots come from the server's meta; until it has arrived there is none to offer.
    if (metas.length === 0) return null;
    const botChoice = h("select", { testid: `hand-bot-choice-${s.seat}`, className: "small", id: `hand-bot-choice-${s.seat}`, "aria-label": t("hand.level_label") });
    for (const b of metas) botChoice.append(h("option", { value: b.name, title: botLabel(metas, b.name).title }, botLabel(metas, b.name).label));
    const chosen = this.botChoices.get(s.seat);
    if (chosen && metas.some((b) => b.name === chosen)) botChoice.value = chosen;
    botChoice.addEventListener("change", () => this.botChoices.set(s.seat, botChoice.value));
    return h(
      "span",
      { className: "hand" },
      " ",
      // The menu is the level of the bot that would play, not the player's own.
      h("label", { className: "hand-level", for: `hand-bot-choice-${s.seat}`, title: t("hand.level_label") }, own ? t("hand.own_label") : t("hand.level_short"), " "),
      botChoice,
      " ",
      h(
        "button",
        {
          className: "small",
          testid: `hand-bot-${s.seat}`,
          title: own ? t("table.hand_own_title") : t("table.hand_other_title", { what: seatPhrase(s) }),
          onclick: async () => {
            // Asked first, naming the bot that will play and its level.
            const bot = botSeatName({ seat: s.seat, name: null, bot: botChoice.value });
            if (!(await confirmHand(own, bot, seatPhrase(s)))) return;
            try {
              await api.seatToBot(id, token, s.seat, botChoice.value);
              this.page.clearError();
              void this.page.state.refresh();
            } catch (e) {
              this.page.showError(e);
            }
          },
        },
        own ? t("table.hand_own") : t("table.hand_other"),
      ),
    );
  }

  /** Your own seat to a bot, in the menu: a bot that would take over, not your level. */
  private renderHandOwn(v: TableView): void {
    const mine = v.you !== null ? v.seats[v.you] : undefined;
    const control = mine ? this.handControl(v, mine) : null;
    clear(this.handOwn);
    this.handOwn.hidden = !control;
    if (control) this.handOwn.append(h("p", { className: "hand-own-note" }, t("hand.own_note")), control);
  }

  /** The one line above the board: each player, the one to move marked (Rumis: their
   * colours; Rummikub: their tiles left). */
  private renderStrip(v: TableView): void {
    const status = statusOf(v);
    clear(this.strip);
    for (const s of v.seats) {
      const moving = status === "playing" && v.to_move === s.seat;
      const full = seatName(s);
      // (a bot by its own name: its level is in the menu and the tooltip)
      const short = s.kind === "bot" && !s.claimed ? botOwnName(s.seat, s.name) : full;
      const tiles = v.rummikub?.rack_sizes[s.seat];
      this.strip.append(
        h(
          "span",
          { className: "strip-seat" + (moving ? " to-move" : "") + (s.seat === v.you ? " you" : ""), testid: `strip-seat-${s.seat}`, title: full + (s.seat === v.you ? ` (${t("common.you")})` : "") },
          moving ? h("span", { className: "marker", "aria-hidden": "true" }, "▶") : null,
          ...(v.rumis?.colours.filter((c) => c.owner === s.seat).map((c) => colourChip(c.colour)) ?? []),
          h("span", { className: "strip-name" }, short),
          tiles !== undefined ? h("span", { className: "strip-count", title: t("rk.tiles", { n: tiles }) }, h("span", { "aria-hidden": "true" }, String(tiles)), h("span", { className: "visually-hidden" }, t("rk.tiles", { n: tiles }))) : null,
        ),
      );
    }
  }
}
