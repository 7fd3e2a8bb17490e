// The end of a game at the table page: the ranking with scores, a new game with the
// same settings, the rematch, the replay and the review.
import { api, rememberTable, storeToken, type CreateRequest, type SeatRequest, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { createTable } from "../create-form";
import { localName } from "../names";
import { resultText } from "./links";
import type { TablePage } from "./state";

/** A create request for a new game like `v`: the same board or rules, clock and seats
 * (bots the same bots, you on your seat, the other people invited again), a new deal. */
export function sameSettings(v: TableView): CreateRequest {
  const you = v.you;
  const seats: SeatRequest[] = v.seats.map((s) => {
    if (s.kind === "bot" && !s.claimed && s.bot) return { kind: "bot", bot: s.bot };
    // (a rated table's next game: the same account holders, rated again)
    if (v.rated && s.account && s.seat !== you) return { kind: "account", name: s.account };
    const named = localName(s.name, false) === s.name ? s.name : undefined;
    return named ? { kind: "human", name: named } : { kind: "human" };
  });
  const req: CreateRequest = { game: v.game as "rumis" | "rummikub", seats };
  if (you !== null) req.creator_seat = you;
  if (v.rumis) req.rumis = { scenario: v.rumis.scenario.key, players: v.rumis.players, variant: v.rumis.variant };
  if (v.rummikub) req.rummikub = { rules: v.rummikub.rules.name, rounds: v.rummikub.rounds, turn_seconds: v.rummikub.rules.turn_seconds };
  if (v.rated) req.rated = true;
  else req.hints = v.hints;
  return req;
}

export class EndPanel {
  readonly box = h("div", { className: "result", testid: "result", hidden: true });
  /** The rematch's table as a spectator sees it (who sits there already), fetched once
   * the finished table names it. */
  private rematchView: TableView | null = null;
  private rematchAsked: string | null = null;

  constructor(private page: TablePage) {}

  render(v: TableView): void {
    this.box.hidden = !v.over;
    clear(this.box);
    if (v.over && v.result) this.box.append(...this.panel(v).filter((x): x is HTMLElement => x !== null));
  }

  /** The end: the ranking with scores, a new game with the same settings, the replay. */
  private panel(v: TableView): (HTMLElement | null)[] {
    const id = this.page.state.id;
    const r = v.result!;
    // Winners first, then by score; equal ones share a place.
    const better = (a: number, b: number) => Number(r.winners.includes(b)) - Number(r.winners.includes(a)) || (r.scores[b] ?? 0) - (r.scores[a] ?? 0);
    const order = v.seats.map((s) => s.seat).sort(better);
    const rows = order.map((seat) => {
      const place = 1 + order.filter((x) => better(x, seat) < 0).length;
      const s = v.seats[seat] ?? { seat };
      return h(
        "tr",
        { testid: `rank-${seat}`, className: (r.winners.includes(seat) ? "winner" : "") + (seat === v.you ? " you" : "") },
        h("td", {}, String(place)),
        h("td", {}, seatName(s) + (seat === v.you ? ` (${t("common.you")})` : "")),
        h("td", { className: "num" }, String(r.scores[seat] ?? 0)),
      );
    });
    const newGame = h("button", { className: "primary", testid: "new-game" }, t("end.new_game"));
    newGame.addEventListener("click", async () => {
      newGame.disabled = true;
      try {
        await createTable(sameSettings(v));
      } catch (e) {
        this.page.showError(e);
        newGame.disabled = false;
      }
    });
    return [
      h("h3", { className: "result-title" }, t("end.title")),
      h("div", { className: "result-text", testid: "result-text", "data-raw": r.text }, resultText(v)),
      h(
        "table",
        { className: "ranking", testid: "ranking" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("end.rank")), h("th", { scope: "col" }, t("end.player")), h("th", { scope: "col" }, t("end.score")))),
        h("tbody", {}, ...rows),
      ),
      this.rematchBox(v),
      h(
        "div",
        { className: "end-actions" },
        v.you !== null ? newGame : null,
        " ",
        h("a", { href: `/replay/${encodeURIComponent(id)}`, testid: "replay-link", className: "button" }, t("table.replay")),
        " ",
        v.you !== null ? h("a", { href: `/replay/${encodeURIComponent(id)}?review=1`, testid: "review-link", className: "button" }, t("end.review")) : null,
        " ",
        h("a", { href: "/", testid: "end-lobby" }, t("end.lobby")),
      ),
    ];
  }

  /** Rematch: the same seats and a new deal. A player asks (or, once someone has, joins
   * on their own seat there: the server finds it by this table's token); a spectator
   * may watch it. */
  private rematchBox(v: TableView): HTMLElement | null {
    const { id, token } = this.page.state;
    const next = v.rematch ?? null;
    if (next && this.rematchAsked !== next) {
      this.rematchAsked = next;
      api
        .view(next, null)
        .then((r) => {
          if (!this.page.state.running) return;
          this.rematchView = r;
          this.page.render();
        })
        .catch(() => {});
    }
    if (v.you === null || !token) {
      if (!next) return null;
      return h("div", { className: "rematch", testid: "rematch-box" }, h("a", { href: `/t/${encodeURIComponent(next)}`, testid: "rematch-watch" }, t("end.rematch_watch")));
    }
    const there = this.rematchView && this.rematchView.id === next ? this.rematchView : null;
    const mine = there?.seats[v.you];
    const asking = there ? there.seats.filter((s) => s.kind !== "bot" && s.claimed && s.seat !== v.you).map((s) => seatName(s)) : [];
    const button = h(
      "button",
      { className: next ? "primary" : "", testid: next ? "rematch-join" : "rematch" },
      // Rumis deals nothing: its rematch has no new deal to name.
      !next ? t(v.game === "rumis" ? "end.rematch_rumis" : "end.rematch") : mine?.claimed ? t("end.rematch_go") : t("end.rematch_join"),
    );
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const made = await api.rematch(id, token);
        if (made.you) {
          storeToken(made.id, made.you.token);
          rememberTable({ id: made.id, game: v.game, seat: made.you.seat, token: made.you.token, name: made.you.name, at: Date.now() });
        }
        location.href = `/t/${encodeURIComponent(made.id)}`;
      } catch (e) {
        this.page.showError(e);
        button.disabled = false;
      }
    });
    return h(
      "div",
      { className: "rematch", testid: "rematch-box", "data-rematch": next ?? "" },
      asking.length ? h("p", { testid: "rematch-asked" }, t(asking.length > 1 ? "end.rematch_asked_many" : "end.rematch_asked", { names: asking.join(` ${t("common.and")} `) })) : null,
      button,
    );
  }
}
