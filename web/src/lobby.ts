// The lobby: what the two games are (a line and a picture each, drawn by the game's
// own renderer), one tap to play either against the computer or with friends; the
// full form under "more options" (create-form.ts) goes straight to your seat; your
// tables (kept in this tab); the tables with open seats; the leaderboards and the
// account at the foot.
import { api, botsOf, forgetMyTable, joinAs, myTables, rememberTable, storeToken, type CreateRequest, type LobbyTable, type Meta, type SeatRequest } from "./api";
import { createForm, createTable, label, showError, variantLabel } from "./create-form";
import { clear, h } from "./dom";
import { t, tr } from "./i18n/i18n";
import { BOT_NAMES, localName, setBots } from "./names";
import { signedIn } from "./players";
import { challengesSection } from "./challenges";
import { rulesName, tableTitle, titleName, type TitleSeat } from "./titles";
import { tileFace } from "./pictures";

const NAME_KEY = "rumi.name";
/** Rumis's picture: the small build of rumis/picture.ts drawn by the game's own 3D scene
 * (`/picture/rumis` draws it live), kept as a static image so that the lobby loads no
 * three.js; the lobby browser scenario checks it against a live render. */
const RUMIS_PICTURE = "/pictures/rumis-build.png";
/** The computer's level in a quick game: the middle of five. */
const QUICK_LEVEL = 3;
/** A quick Rummikub game's clock: relaxed, twice the current rules' minute. */
const QUICK_TURN_SECONDS = 120;

type Game = "rumis" | "rummikub";

/** Your seat as the lobby's quick games ask for it: under your remembered name, if any. */
function mySeat(): SeatRequest {
  let name = "";
  try {
    name = (localStorage.getItem(NAME_KEY) ?? "").trim();
  } catch {
    /* no storage */
  }
  return name ? { kind: "human", name } : { kind: "human" };
}

/** The quick games: against a mid-level bot, or with a friend invited by link. */
function quickRequest(meta: Meta, game: Game, against: "bot" | "friend"): CreateRequest {
  const other: SeatRequest = against === "bot" ? { kind: "bot", bot: quickBot(meta, game) } : { kind: "human" };
  const req: CreateRequest = { game, seats: [mySeat(), other], creator_seat: 0 };
  if (game === "rumis") req.rumis = { scenario: "chullpa", players: 2, variant: "standard" };
  else req.rummikub = { rules: "current", rounds: 1, ...(against === "bot" ? { turn_seconds: QUICK_TURN_SECONDS } : {}) };
  return req;
}

/** The first bot of the middle level (else the nearest below it). */
function quickBot(meta: Meta, game: Game): string {
  const bots = [...botsOf(meta, game)].sort((a, b) => a.level - b.level);
  return (bots.find((b) => b.level === QUICK_LEVEL) ?? [...bots].reverse().find((b) => b.level < QUICK_LEVEL) ?? bots[0])?.name ?? "random";
}

export async function showLobby(app: HTMLElement): Promise<void> {
  clear(app);
  document.title = `rumi — ${t("lobby.title")}`;
  const error = h("div", { className: "error", testid: "error", role: "alert", hidden: true });
  const status = h("div", { className: "status", testid: "lobby-status" }, t("common.loading"));
  const metaPromise = api.meta().then((m) => (setBots(m), m));
  const more = h(
    "details",
    { className: "more-options", testid: "more-options" },
    h("summary", { testid: "more-options-summary" }, t("home.more_options")),
    h("h2", { className: "visually-hidden" }, t("lobby.new_table")),
    status,
  );
  app.append(
    h("h1", { className: "home-title" }, t("home.title")),
    h("div", { className: "game-cards" }, gameCard("rumis", metaPromise, error), gameCard("rummikub", metaPromise, error)),
    error,
    h("section", { className: "lobby" }, more),
  );
  // (for the newcomer figures: when the quick starts can be tapped)
  performance.mark?.("rumi-lobby-usable");
  let meta: Meta;
  try {
    meta = await metaPromise;
  } catch (e) {
    status.textContent = "";
    showError(error, e);
    return;
  }
  // (signed in: account seats and rated games in the form; a failure counts as a guest)
  const me = await signedIn();
  status.remove();
  const form = createForm(meta, error, me);
  more.append(form.root);
  // (a challenge waits for an answer: first thing under the title)
  if (me) app.querySelector(".game-cards")?.before(challengesSection());
  const mine = myTablesSection();
  if (mine) app.append(mine);
  app.append(openTablesSection(error, meta), footer(me?.name ?? null));
}

/** The foot of the lobby: the leaderboards, and the account (by name when signed in). */
function footer(name: string | null): HTMLElement {
  return h(
    "footer",
    { className: "lobby-footer", testid: "lobby-footer" },
    h("a", { href: "/leaderboard", testid: "footer-leaderboard" }, t("nav.leaderboard")),
    " · ",
    h("a", { href: "/analysis", testid: "footer-analysis" }, t("nav.analysis")),
    " · ",
    name ? h("a", { href: `/u/${encodeURIComponent(name)}`, testid: "footer-profile" }, t("lobby.footer_profile", { name })) : null,
    name ? " · " : null,
    h("a", { href: "/account", testid: "footer-account" }, name ? t("account.title") : t("lobby.footer_sign_in")),
  );
}

/** A game's card: its picture, what it is in a line, the two quick starts, its rules. */
function gameCard(game: Game, metaPromise: Promise<Meta>, error: HTMLElement): HTMLElement {
  const name = game === "rumis" ? "Rumis" : "Rummikub";
  // The bot of a quick game sits on seat 2: it is called as the table will call it.
  const bot = t("name.bot_named", { name: BOT_NAMES[1], level: t(`botlevel.${QUICK_LEVEL}` as "botlevel.3") });
  const note = game === "rumis" ? t("home.play_bot_note_rumis", { bot }) : t("home.play_bot_note_rummikub", { bot, secs: QUICK_TURN_SECONDS });
  const start = (against: "bot" | "friend") => async (e: Event) => {
    const button = e.currentTarget as HTMLButtonElement;
    error.hidden = true;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await createTable(quickRequest(await metaPromise, game, against));
    } catch (err) {
      showError(error, err);
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  };
  const picture =
    game === "rumis"
      ? h("img", { className: "game-picture rumis-picture", testid: "picture-rumis", alt: t("home.rumis_picture"), width: 320, height: 200, src: RUMIS_PICTURE })
      : rummikubPicture();
  return h(
    "section",
    { className: `game-card game-${game}`, testid: `card-${game}`, "aria-labelledby": `card-title-${game}` },
    h("div", { className: "picture-frame" }, picture),
    h("div", { className: "card-body" },
      h("h2", { id: `card-title-${game}` }, name),
      h("p", { className: "card-line" }, game === "rumis" ? t("home.rumis_line") : t("home.rummikub_line")),
      h("div", { className: "card-actions" },
        h("button", { className: "primary big", testid: `play-bot-${game}`, "aria-describedby": `play-bot-note-${game}`, onclick: start("bot") }, t("home.play_bot")),
        h("button", { className: "big", testid: `play-friends-${game}`, "aria-describedby": `play-friends-note-${game}`, onclick: start("friend") }, t("home.play_friends")),
      ),
      h("p", { className: "muted card-note", id: `play-bot-note-${game}`, testid: `play-bot-note-${game}` }, note),
      h(
        "p",
        { className: "muted card-note", id: `play-friends-note-${game}` },
        t("home.play_friends_note"),
        " · ",
        h("a", { href: `/rules/${game}`, testid: `card-rules-${game}` }, t("rules.read")),
        " · ",
        h("a", { href: `/learn/${game}`, testid: `card-learn-${game}` }, t("tutorial.learn")),
        " · ",
        game === "rumis" ? h("a", { href: "/solo", testid: "card-solo" }, t("solo.lobby_link")) : h("a", { href: "/puzzles", testid: "card-puzzles" }, t("puzzles.daily_link")),
      ),
    ),
  );
}

/** Rummikub as the table draws its tiles: a run and a group with a joker. */
function rummikubPicture(): HTMLElement {
  const tile = (code: string) => {
    const { className, face } = tileFace(code);
    return h("span", { className }, ...face);
  };
  const set = (codes: string[]) => h("span", { className: "picture-set" }, ...codes.map(tile));
  return h(
    "div",
    { className: "game-picture rummikub-picture", testid: "picture-rummikub", role: "img", "aria-label": t("home.rummikub_picture") },
    set(["r3", "r4", "r5"]),
    set(["k7", "b7", "o7", "J"]),
  );
}


/** Tables this tab holds a seat at (sessionStorage, like their tokens). */
function myTablesSection(): HTMLElement | null {
  const list = myTables();
  if (list.length === 0) return null;
  const ul = h("ul", { className: "links", testid: "my-tables" });
  for (const m of list) {
    ul.append(
      h(
        "li",
        { testid: `my-table-${m.id}` },
        h(
          "a",
          {
            href: `/t/${encodeURIComponent(m.id)}`,
            testid: `my-table-link-${m.id}`,
            onclick: () => storeToken(m.id, m.token),
          },
          myTitle(m),
        ),
        " ",
        h("span", { className: "muted" }, t("lobby.my_seat", { n: m.seat + 1, name: m.name ? localName(m.name, false) : "" }), " · ", new Date(m.at).toLocaleString(document.documentElement.lang)),
        " ",
        h("button", { className: "small", testid: `forget-${m.id}`, onclick: () => (forgetMyTable(m.id), location.reload()) }, t("lobby.forget")),
      ),
    );
  }
  return h("section", { className: "lobby" }, h("h2", {}, t("lobby.your_tables")), ul);
}

/** A table of yours by its game, board or rules and players, as its page names it. */
function myTitle(m: ReturnType<typeof myTables>[number]): string {
  const what = m.what?.scenario ?? (m.what?.rules ? rulesName(m.what.rules) : null);
  // (a table not opened since it was made: its game and your name)
  if (!m.seats) return tableTitle(m.game, what, []) + (m.name ? ` · ${localName(m.name, false)}` : "");
  return tableTitle(m.game, what, m.seats);
}

/** How long a seat has been open to join ("open for 3 min"). */
function openFor(since: number | null | undefined): string {
  if (typeof since !== "number") return t("lobby.open_for", { time: "?" });
  const minutes = Math.floor(Math.max(0, Date.now() - since) / 60_000);
  const time = minutes < 1 ? t("lobby.just_now") : minutes < 120 ? t("lobby.minutes", { n: minutes }) : t("lobby.hours", { n: Math.floor(minutes / 60) });
  return t("lobby.open_for", { time });
}

/** A lobby line ("Chullpa, 2 players, Ruins") from the table's settings, in the player's language. */
function lobbyDetail(tb: LobbyTable, meta: Meta): string {
  const st = tb.settings;
  if (st && "rumis" in st) {
    const r = st.rumis;
    const name = meta.rumis.scenarios.find((s) => s.key === r.scenario)?.name ?? r.scenario;
    return `${t("rumis.info", { scenario: name, players: r.players })}, ${variantLabel(r.variant ?? "standard")}`;
  }
  if (st && "rummikub" in st) {
    const k = st.rummikub;
    const rules = k.rules ?? "current";
    return t("lobby.rk_detail", { rules: tr(`preset.${rules}`, undefined, rules), players: st.players, rounds: k.rounds ?? 1 });
  }
  return tb.detail;
}

function openTablesSection(error: HTMLElement, meta: Meta): HTMLElement {
  const list = h("div", { testid: "open-tables", className: "open-tables", "aria-live": "polite" });
  const joinName = h("input", { testid: "join-name", type: "text", autocomplete: "nickname", placeholder: t("lobby.your_name_placeholder"), value: localStorage.getItem(NAME_KEY) ?? "" });
  async function refresh(): Promise<void> {
    try {
      const tables = await api.openTables();
      clear(list);
      if (tables.length === 0) list.append(h("p", { className: "muted" }, t("lobby.no_open")));
      for (const tb of tables) {
        const open = tb.open_seats;
        const st = tb.settings;
        const what =
          st && "rumis" in st
            ? (meta.rumis.scenarios.find((s) => s.key === st.rumis.scenario)?.name ?? st.rumis.scenario)
            : rulesName(st && "rummikub" in st ? st.rummikub.rules : undefined);
        const title = tableTitle(tb.game, what, tb.seats, (s: TitleSeat) =>
          s.kind !== "bot" && open.includes(s.seat) ? `${t("lobby.open_seat")} (${openFor((s as { open_since_ms?: number | null }).open_since_ms)})` : titleName(s),
        );
        const since = tb.seats.map((s) => s.open_since_ms).filter((x): x is number => typeof x === "number");
        list.append(
          h(
            "div",
            { className: "open-table", testid: `open-table-${tb.id}`, "data-open-seats": open.join(","), "data-open-since": since.length ? String(Math.min(...since)) : "" },
            h("span", { className: "game", testid: `open-title-${tb.id}` }, title),
            h("span", { className: "muted", "data-detail": tb.detail }, ` — ${lobbyDetail(tb, meta)}`),
            " ",
            h(
              "button",
              {
                testid: `join-${tb.id}`,
                onclick: async () => {
                  try {
                    const typed = joinName.value.trim();
                    if (typed) localStorage.setItem(NAME_KEY, typed);
                    const seat = await joinAs(tb.id, typed, t("lobby.guest"));
                    storeToken(tb.id, seat.token);
                    rememberTable({ id: tb.id, game: tb.game, seat: seat.seat, token: seat.token, name: seat.name, at: Date.now() });
                    location.href = `/t/${encodeURIComponent(tb.id)}`;
                  } catch (e) {
                    showError(error, e);
                  }
                },
              },
              t("lobby.join"),
            ),
            " ",
            h("a", { href: `/t/${encodeURIComponent(tb.id)}` }, t("lobby.watch")),
          ),
        );
      }
    } catch (e) {
      clear(list);
      list.append(h("p", { className: "error" }, t("lobby.cannot_list", { error: (e as Error).message })));
    }
  }
  refresh();
  const timer = window.setInterval(refresh, 5000);
  window.addEventListener("pagehide", () => window.clearInterval(timer));
  return h(
    "section",
    { className: "lobby" },
    h("h2", {}, t("lobby.open_tables")),
    label(t("lobby.join_as"), joinName),
    h("button", { className: "small", testid: "refresh-tables", onclick: refresh }, t("lobby.refresh")),
    list,
  );
}
