// "My games" on the account page: every table the account has a seat at, on any
// device, running ones first. A table opens on the account's seat without a link:
// the table page asks the server by the session.
import type { MyGame } from "./generated/api";
import { ApiError } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { dateText, players } from "./players";
import { gameName } from "./titles";

export function myGamesSection(): HTMLElement {
  const list = h("div", { testid: "my-games", "aria-live": "polite" }, h("p", { className: "muted" }, t("common.loading")));
  players
    .myGames()
    .then(({ games }) => {
      clear(list);
      if (!games.length) {
        list.append(h("p", { className: "muted", testid: "my-games-empty" }, t("account.no_games")));
        return;
      }
      // (running tables first, each part newest first as the server sends them)
      const sorted = [...games.filter((g) => !g.finished), ...games.filter((g) => g.finished)];
      list.append(h("ul", { className: "links my-games" }, ...sorted.map(item)));
    })
    .catch((e) => {
      clear(list);
      list.append(h("p", { className: "error" }, e instanceof ApiError ? reason(e.message, e.code).text : String(e)));
    });
  return h("div", { className: "card my-games-card" }, h("h2", {}, t("account.my_games")), list);
}

function item(g: MyGame): HTMLElement {
  const status = g.status === "over" ? "finished" : g.status === "playing" ? "running" : g.status;
  const tag = { finished: "account.game_finished", running: "account.game_running", waiting: "account.game_waiting", cancelled: "account.game_cancelled" } as const;
  // What a player wants to know of a past game: against whom, and how it went.
  const result = g.place == null || g.players == null ? null : g.place === 1 ? t("account.game_won") : t("account.game_place", { place: g.place, players: g.players });
  return h(
    "li",
    { testid: `my-game-${g.id}`, "data-finished": String(g.finished), "data-status": g.status },
    h("a", { href: `/t/${encodeURIComponent(g.id)}`, testid: `my-game-link-${g.id}` }, gameName(g.game)),
    " ",
    h("span", { testid: `my-game-opponents-${g.id}` }, t("account.game_against", { names: g.opponents.join(", ") })),
    " ",
    h("span", { className: `tag ${status}` }, t(tag[status])),
    result ? h("span", { className: `my-game-result${g.place === 1 ? " won" : ""}`, testid: `my-game-result-${g.id}` }, " ", result) : null,
    " ",
    h("span", { className: "muted my-game-date" }, dateText(g.created_ms, true)),
  );
}
