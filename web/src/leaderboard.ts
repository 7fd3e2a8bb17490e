// The leaderboards (/leaderboard?pool=…): one tab per pool (Rumis for two, Rumis for
// three or more, Rummikub), settled ratings best first; each name links to its profile.
// Provisional ratings are not listed: the server leaves them out until they say enough.
import type { Leaderboard, RatingPool } from "./generated/api";
import { ApiError } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { players, POOLS, poolName, profileLink } from "./players";

export function showLeaderboard(app: HTMLElement): void {
  clear(app);
  document.title = `rumi — ${t("leaderboard.title")}`;
  const asked = new URLSearchParams(location.search).get("pool") as RatingPool | null;
  let pool: RatingPool = asked && POOLS.includes(asked) ? asked : "rumis_two";
  const tabs = h("div", { className: "tabs", role: "tablist", "aria-label": t("leaderboard.pools") });
  const panel = h("div", { className: "board-panel", role: "tabpanel", testid: "leaderboard-panel", "aria-live": "polite" });
  const buttons = POOLS.map((p) =>
    h(
      "button",
      {
        role: "tab",
        id: `tab-${p}`,
        className: "tab",
        testid: `tab-${p}`,
        onclick: () => {
          pool = p;
          history.replaceState(null, "", `/leaderboard?pool=${p}`);
          void load();
        },
      },
      poolName(p),
    ),
  );
  tabs.append(...buttons);
  app.append(
    h("section", { className: "lobby leaderboard", testid: "leaderboard" }, h("h1", {}, t("leaderboard.title")), h("p", { className: "muted" }, t("leaderboard.note")), tabs, panel),
  );
  let asking = 0;
  async function load(): Promise<void> {
    const mine = ++asking;
    buttons.forEach((b, i) => {
      b.setAttribute("aria-selected", String(POOLS[i] === pool));
      b.classList.toggle("on", POOLS[i] === pool);
    });
    panel.setAttribute("aria-labelledby", `tab-${pool}`);
    panel.dataset.pool = pool;
    clear(panel);
    panel.append(h("p", { className: "muted" }, t("common.loading")));
    let board: Leaderboard;
    try {
      board = await players.leaderboard(pool);
    } catch (e) {
      if (mine !== asking) return;
      clear(panel);
      panel.append(h("p", { className: "error" }, e instanceof ApiError ? reason(e.message, e.code).text : String(e)));
      return;
    }
    // (a later tab's answer wins)
    if (mine !== asking) return;
    clear(panel);
    panel.append(boardTable(board));
  }
  void load();
}

function boardTable(board: Leaderboard): HTMLElement {
  if (!board.entries.length) return h("p", { className: "muted", testid: "leaderboard-empty" }, t("leaderboard.empty"));
  const head = h("tr", {}, ...[t("end.rank"), t("end.player"), t("leaderboard.rating"), t("leaderboard.games")].map((c) => h("th", { scope: "col" }, c)));
  const rows = board.entries.map((e) =>
    h(
      "tr",
      { testid: `entry-${e.name}` },
      h("td", { className: "num" }, String(e.rank)),
      h("td", {}, profileLink(e.name)),
      h("td", { className: "num" }, String(Math.round(e.rating)), h("span", { className: "muted" }, ` ± ${Math.round(e.uncertainty)}`)),
      h("td", { className: "num" }, String(e.games)),
    ),
  );
  return h("div", { className: "table-scroll" }, h("table", { className: "games-table", testid: "leaderboard-table" }, h("thead", {}, head), h("tbody", {}, ...rows)));
}
