// A player's profile (/u/{name}): since when they play, per pool their rating (marked
// provisional while it says little, with its uncertainty), games played and won, the
// rating over time, and their latest games with results, rating changes, opponents and
// a link to each game.
import type { PoolTotals, RatingPool, UserGame, UserProfile } from "./generated/api";
import { ApiError } from "./api";
import { ratingChart } from "./chart";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { localName } from "./names";
import { dateText, players, POOLS, poolName, profileLink, signed } from "./players";
import { gameName } from "./titles";

export async function showProfile(app: HTMLElement, name: string): Promise<void> {
  clear(app);
  document.title = `rumi — ${name}`;
  const status = h("p", { className: "muted", testid: "profile-status" }, t("common.loading"));
  app.append(status);
  let p: UserProfile;
  try {
    p = await players.profile(name);
  } catch (e) {
    clear(app);
    const unknown = e instanceof ApiError && e.status === 404;
    app.append(
      h(
        "section",
        { className: "lobby", testid: unknown ? "profile-unknown" : "profile-error" },
        h("h1", {}, unknown ? t("profile.unknown_title") : t("profile.title", { name })),
        h("p", { className: unknown ? "" : "error" }, unknown ? t("profile.unknown", { name }) : e instanceof ApiError ? reason(e.message, e.code).text : String(e)),
        h("p", {}, h("a", { href: "/leaderboard" }, t("nav.leaderboard"))),
      ),
    );
    return;
  }
  clear(app);
  document.title = `rumi — ${t("profile.title", { name: p.name })}`;
  app.append(
    h(
      "section",
      { className: "lobby profile", testid: "profile", "data-name": p.name },
      h("h1", { testid: "profile-name" }, p.name),
      h("p", { className: "muted", testid: "profile-since" }, t("profile.since", { date: dateText(p.created_ms) }), " · ", h("a", { href: "/leaderboard", testid: "profile-leaderboard" }, t("nav.leaderboard"))),
      poolsPart(p),
    ),
    h("section", { className: "lobby profile-games" }, h("h2", {}, t("profile.recent")), gamesPart(p)),
  );
}

/** Each pool the player has played in: rating, games, chart. */
function poolsPart(p: UserProfile): HTMLElement {
  const box = h("div", { className: "pools", testid: "profile-pools" });
  const totals = new Map<RatingPool, PoolTotals>(p.totals.map((x) => [x.pool, x]));
  for (const pool of POOLS) {
    const rating = p.ratings[pool];
    const total = totals.get(pool);
    if (!rating && !total?.played) continue;
    box.append(poolCard(p, pool, total));
  }
  if (!Object.keys(p.ratings).length) box.prepend(h("p", { className: "muted", testid: "no-ratings" }, t("profile.no_rated")));
  return box;
}

function poolCard(p: UserProfile, pool: RatingPool, total: PoolTotals | undefined): HTMLElement {
  const rating = p.ratings[pool];
  const card = h("div", { className: "pool-card", testid: `pool-${pool}` }, h("h3", {}, poolName(pool)));
  if (rating) {
    card.append(
      h(
        "p",
        { className: "rating-line" },
        h("strong", { className: "rating", testid: `rating-${pool}`, "data-rating": String(rating.rating) }, String(Math.round(rating.rating))),
        " ",
        h("span", { className: "muted", title: t("profile.uncertainty_title") }, `± ${Math.round(rating.uncertainty)}`),
        rating.provisional ? h("span", { className: "tag provisional", testid: `provisional-${pool}`, title: t("profile.provisional_title") }, t("profile.provisional")) : null,
      ),
    );
  }
  card.append(
    h("p", { className: "muted", testid: `totals-${pool}` }, t("profile.played_won", { n: total?.played ?? rating?.games ?? 0, won: total?.won ?? 0 })),
  );
  const history = p.history.filter((x) => x.pool === pool);
  if (history.length) {
    const points = history.map((x) => {
      const game = p.games.find((g) => g.pool === pool && g.rated && g.finished_ms === x.at_ms);
      return { at_ms: x.at_ms, rating: x.rating, label: dateText(x.at_ms, true), href: game ? `/t/${encodeURIComponent(game.id)}` : null };
    });
    card.append(ratingChart(points, `chart-${pool}`, t("profile.chart_title", { pool: poolName(pool) })));
  } else card.append(h("p", { className: "muted" }, t("profile.no_rated_pool")));
  return card;
}

/** The latest games: a table that scrolls sideways on a narrow screen. */
function gamesPart(p: UserProfile): HTMLElement {
  if (!p.games.length) return h("p", { className: "muted", testid: "no-games" }, t("profile.no_games"));
  const head = h(
    "tr",
    {},
    ...[t("profile.col_date"), t("profile.col_game"), t("profile.col_result"), t("profile.col_rating"), t("profile.col_opponents"), ""].map((c) => h("th", { scope: "col" }, c)),
  );
  return h(
    "div",
    { className: "table-scroll" },
    h("table", { className: "games-table profile-games-table", testid: "profile-games" }, h("thead", {}, head), h("tbody", {}, ...p.games.map(gameRow))),
  );
}

function gameRow(g: UserGame): HTMLElement {
  const opponents = g.names
    .map((n, i) => ({ n, i }))
    .filter((x) => x.i !== g.seat)
    // (every seat of a rated game is an account's; elsewhere a name may be a guest's)
    .map((x) => (g.rated ? profileLink(x.n) : h("span", {}, localName(x.n, false))));
  const joined: (Node | string)[] = [];
  opponents.forEach((o, i) => joined.push(...(i ? [", ", o] : [o])));
  const change = g.rating_change;
  return h(
    "tr",
    { testid: `game-${g.id}`, "data-result": g.result, "data-rated": String(g.rated), "data-change": change === null ? "" : String(change) },
    h("td", { className: "date" }, dateText(g.finished_ms)),
    h("td", {}, poolName(g.pool) || gameName(g.game), g.rated ? h("span", { className: "tag rated" }, t("table.rated")) : null),
    h("td", { className: `result-${g.result}` }, t(`profile.result_${g.result}`), " ", h("span", { className: "muted" }, t("profile.place", { n: g.place, score: g.score }))),
    h(
      "td",
      { className: "num", testid: `change-${g.id}` },
      change === null ? "—" : h("span", { className: change > 0 ? "up" : change < 0 ? "down" : "" }, signed(change)),
      g.rating !== null ? h("span", { className: "muted" }, ` → ${Math.round(g.rating)}`) : null,
    ),
    h("td", { className: "opponents", "data-label": t("profile.col_opponents") }, ...joined),
    h("td", {}, h("a", { href: `/t/${encodeURIComponent(g.id)}`, testid: `open-${g.id}` }, t("profile.open_game"))),
  );
}
