// The lobby: what the two games are (a line and a picture each, drawn by the game's
// own renderer), one tap to play either against the computer or with friends; the
// full form under "more options" (game, options, seats: you, invited, open or bot) goes
// straight to your seat; your tables (kept in this tab); the tables with open seats.
import { api, ApiError, botsOf, forgetMyTable, joinAs, myTables, rememberTable, storeInvites, storeToken, type CreateRequest, type LobbyTable, type Meta, type SeatRequest } from "./api";
import { clear, h } from "./dom";
import { t, tr } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { BOT_NAMES, botLabel, botRatedName, botRating, localName, ratingPool, setBots } from "./names";
import { rulesName, tableTitle, titleName, type TitleSeat } from "./titles";

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

/** Creates a table and opens it on your seat (the token and the invite links stay in
 * this tab). */
export async function createTable(req: CreateRequest): Promise<void> {
  const answer = await api.create(req);
  if (answer.you) {
    storeToken(answer.id, answer.you.token);
    rememberTable({ id: answer.id, game: req.game, seat: answer.you.seat, token: answer.you.token, name: answer.you.name, at: Date.now() });
  }
  storeInvites(
    answer.id,
    answer.seats.filter((s) => s.invite).map((s) => ({ seat: s.seat, name: s.name ?? null, invite: s.invite! })),
  );
  location.href = `/t/${encodeURIComponent(answer.id)}`;
}

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
  status.remove();
  const form = createForm(meta, error);
  more.append(form.root);
  const mine = myTablesSection();
  if (mine) app.append(mine);
  app.append(openTablesSection(error, meta));
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
      h("p", { className: "muted card-note", id: `play-friends-note-${game}` }, t("home.play_friends_note"), " · ", h("a", { href: `/rules/${game}`, testid: `card-rules-${game}` }, t("rules.read")), " · ", h("a", { href: `/learn/${game}`, testid: `card-learn-${game}` }, t("tutorial.learn"))),
    ),
  );
}

/** Rummikub as the table draws its tiles: a run and a group with a joker. */
function rummikubPicture(): HTMLElement {
  const marks: Record<string, string> = { r: "◆", b: "●", k: "■", o: "▲" };
  const tile = (code: string) =>
    code === "J"
      ? h("span", { className: "tile joker" }, h("span", { className: "num" }, "J"))
      : h("span", { className: `tile c-${code[0]}` }, h("span", { className: "num" }, code.slice(1)), h("span", { className: "mark" }, marks[code[0]]));
  const set = (codes: string[]) => h("span", { className: "picture-set" }, ...codes.map(tile));
  return h(
    "div",
    { className: "game-picture rummikub-picture", testid: "picture-rummikub", role: "img", "aria-label": t("home.rummikub_picture") },
    set(["r3", "r4", "r5"]),
    set(["k7", "b7", "o7", "J"]),
  );
}


function showError(box: HTMLElement, e: unknown): void {
  box.hidden = false;
  box.textContent = e instanceof ApiError ? reason(e.message, e.code).text : e instanceof Error ? e.message : String(e);
}

function select(testid: string, options: { value: string; label: string; title?: string }[], value?: string): HTMLSelectElement {
  const s = h("select", { testid });
  for (const o of options) s.append(h("option", { value: o.value, title: o.title ?? null }, o.label));
  if (value !== undefined && options.some((o) => o.value === value)) s.value = value;
  return s;
}

let fieldCounter = 0;
function label(text: string, control: HTMLElement): HTMLElement {
  const id = control.id || `f${++fieldCounter}`;
  control.id = id;
  return h("div", { className: "field" }, h("label", { for: id }, text), control);
}

/** A variant in words: "Ruinas: build the ruin together first". */
export function variantLabel(v: string): string {
  return tr(`variant.${v.replace(/_/g, "-")}`, undefined, v);
}

export { botLabel };

function createForm(meta: Meta, error: HTMLElement): { root: HTMLElement } {
  const game = select("game-select", [
    { value: "rumis", label: t("game.rumis_3d") },
    { value: "rummikub", label: "Rummikub" },
  ]);
  const scenario = select(
    "scenario-select",
    meta.rumis.scenarios.map((s) => ({ value: s.key, label: s.name })),
    "chullpa",
  );
  const players = select("players-select", []);
  const variant = select("variant-select", []);
  const preset = select(
    "preset-select",
    meta.rummikub.presets.map((p) => ({ value: p, label: tr(`preset.${p}`, undefined, p) })),
  );
  const turnSeconds = h("input", { testid: "turn-seconds", type: "number", min: 5, max: 600, placeholder: t("lobby.preset") });
  const noClock = h("input", { testid: "no-clock", type: "checkbox" });
  const rounds = h("input", { testid: "rounds", type: "number", min: 1, max: 20, value: 1 });
  const seed = h("input", { testid: "seed", type: "number", min: 0, placeholder: t("lobby.random") });
  // Hints follow the seats (on for practice, off with other people) until the creator
  // chooses; the server applies the same default when none is sent.
  const hints = h("input", { testid: "hints", type: "checkbox" });
  const hintsNote = h("span", { className: "muted", testid: "hints-note" });
  let hintsChosen = false;
  hints.addEventListener("change", () => (hintsChosen = true));
  const seedNote = h("span", { className: "muted", testid: "seed-note" });
  const yourName = h("input", { testid: "your-name", type: "text", autocomplete: "nickname", placeholder: t("lobby.your_name_placeholder"), value: localStorage.getItem(NAME_KEY) ?? "" });
  const seatsBox = h("div", { className: "seats", testid: "seats" });
  const variantNote = h("div", { className: "muted variant-note", testid: "variant-note" });
  const rumisBox = h(
    "div",
    { className: "options", testid: "rumis-options" },
    label(t("lobby.scenario"), scenario),
    label(t("lobby.players"), players),
    label(t("lobby.variant"), variant),
    variantNote,
  );
  const rkPlayers = select("rk-players-select", (meta.rummikub.players.length ? meta.rummikub.players : [2, 3, 4]).map((n) => ({ value: String(n), label: String(n) })));
  const rummikubBox = h(
    "div",
    { className: "options", testid: "rummikub-options" },
    label(t("lobby.rules"), preset),
    label(t("lobby.players"), rkPlayers),
    label(t("lobby.turn_seconds"), turnSeconds),
    label(t("lobby.no_clock"), noClock),
    label(t("lobby.rounds"), rounds),
  );
  const rulesLink = h("a", { className: "rules-link", testid: "lobby-rules-link", href: "/rules/rumis" }, t("rules.read"));
  const createButton = h("button", { testid: "create", className: "primary" }, t("lobby.create"));

  const seatKinds: HTMLSelectElement[] = [];
  const seatBots: HTMLSelectElement[] = [];
  const seatMine: HTMLInputElement[] = [];
  /** The creator's own seat: a human seat, by default the first; null: only watch. */
  let mine: number | null = 0;

  function scenarioMeta() {
    return meta.rumis.scenarios.find((s) => s.key === scenario.value);
  }
  function refreshPlayers(): void {
    const s = scenarioMeta();
    const keep = players.value;
    clear(players);
    for (const n of s?.players ?? [2, 3, 4]) players.append(h("option", { value: String(n) }, String(n)));
    if ([...players.options].some((o) => o.value === keep)) players.value = keep;
    const keepV = variant.value;
    clear(variant);
    for (const v of s?.variants ?? ["standard"]) variant.append(h("option", { value: v }, variantLabel(v)));
    if ([...variant.options].some((o) => o.value === keepV)) variant.value = keepV;
    refreshVariants();
  }
  /** Variants this board cannot be played with at the chosen player count are disabled. */
  function refreshVariants(): void {
    const s = scenarioMeta();
    const n = Number(players.value);
    for (const o of variant.options) {
      const counts = s?.variant_players?.[o.value];
      o.disabled = !!counts && !counts.includes(n);
      o.title = counts ? t("lobby.variant_players", { counts: counts.join(", ") }) : "";
    }
    if (variant.selectedOptions[0]?.disabled) {
      const first = [...variant.options].find((o) => !o.disabled);
      if (first) variant.value = first.value;
    }
    variantNote.textContent = tr(`variant_note.${variant.value}`, undefined, "");
  }
  function seatCount(): number {
    return Number(game.value === "rumis" ? players.value : rkPlayers.value) || 2;
  }
  /** The pool the table will be rated in: its bots are shown with their ratings there. */
  function pool() {
    return ratingPool(game.value, seatCount());
  }
  /** Practice: every seat but the creator's is a bot; only then may a seed be chosen. */
  function practice(): boolean {
    return seatKinds.every((k, i) => i === mine || k.value === "bot");
  }
  function syncSeats(): void {
    if (mine !== null && seatKinds[mine]?.value !== "human") mine = null;
    if (mine === null) {
      const first = seatKinds.findIndex((k) => k.value === "human");
      mine = first >= 0 ? first : null;
    }
    seatKinds.forEach((k, i) => {
      // Your own seat reads "you", not "a person (invited)".
      const human = k.querySelector<HTMLOptionElement>('option[value="human"]');
      if (human) human.textContent = i === mine ? t("lobby.kind_you") : t("lobby.kind_human");
      seatBots[i].hidden = k.value !== "bot";
      seatMine[i].disabled = k.value !== "human";
      seatMine[i].checked = i === mine;
      seatMine[i].parentElement!.hidden = k.value !== "human";
      const note = seatsBox.querySelector(`[data-testid="seat-note-${i}"]`);
      if (note)
        note.textContent =
          k.value === "human"
            ? i === mine ? t("lobby.note_you") : t("lobby.note_invite")
            : k.value === "open" ? t("lobby.note_open") : botRatedName(i, seatBots[i].value, pool());
    });
    const ok = practice();
    seed.disabled = !ok;
    seed.placeholder = ok ? t("lobby.random") : t("lobby.only_bots");
    seedNote.textContent = ok ? t("lobby.seed_ok") : t("lobby.seed_no");
    // (as the server decides when none is sent: on for at most one person)
    const alone = seatKinds.filter((k) => k.value !== "bot").length <= 1;
    if (!hintsChosen) hints.checked = alone;
    hintsNote.textContent = alone ? t("lobby.hints_practice") : t("lobby.hints_people");
  }
  function refreshSeats(): void {
    const n = seatCount();
    const bots = botsOf(meta, game.value);
    const oldKinds = seatKinds.map((s) => s.value);
    const oldBots = seatBots.map((s) => s.value);
    clear(seatsBox);
    seatKinds.length = 0;
    seatBots.length = 0;
    seatMine.length = 0;
    for (let i = 0; i < n; i++) {
      const kind = select(`seat-kind-${i}`, [
        { value: "human", label: t("lobby.kind_human") },
        { value: "open", label: t("lobby.kind_open") },
        { value: "bot", label: t("lobby.kind_bot") },
      ]);
      kind.setAttribute("aria-label", t("lobby.seat_kind", { n: i + 1 }));
      kind.value = oldKinds[i] ?? (i === 0 ? "human" : "bot");
      const sorted = [...bots].sort((a, b) => a.level - b.level);
      // A new bot seat starts with the first casual bot (level 2), else the weakest.
      const casual = sorted.find((b) => b.level === 2) ?? sorted[0];
      const bot = select(
        `seat-bot-${i}`,
        sorted.map((b) => {
          const { label, title } = botLabel(sorted, b.name);
          const rating = botRating(b.name, pool());
          return { value: b.name, title, label: rating === null ? label : t("lobby.bot_rated_option", { label, rating }) };
        }),
        oldBots[i] ?? casual?.name ?? "",
      );
      bot.setAttribute("aria-label", t("lobby.seat_bot", { n: i + 1 }));
      const syncTitle = () => (bot.title = botLabel(sorted, bot.value).title);
      bot.addEventListener("change", syncTitle);
      bot.addEventListener("change", syncSeats);
      syncTitle();
      const radio = h("input", { type: "radio", name: "my-seat", testid: `seat-mine-${i}` });
      radio.addEventListener("change", () => {
        if (radio.checked) mine = i;
        syncSeats();
      });
      kind.addEventListener("change", syncSeats);
      seatKinds.push(kind);
      seatBots.push(bot);
      seatMine.push(radio);
      seatsBox.append(
        h(
          "div",
          { className: "seat-row", testid: `seat-row-${i}` },
          h("span", { className: "seat-label" }, t("seat.n", { n: i + 1 })),
          kind,
          bot,
          h("label", { className: "mine" }, radio, " ", t("lobby.mine")),
          h("span", { className: "muted", testid: `seat-note-${i}` }),
        ),
      );
    }
    syncSeats();
  }
  function refreshGame(): void {
    rumisBox.hidden = game.value !== "rumis";
    rummikubBox.hidden = game.value !== "rummikub";
    rulesLink.setAttribute("href", `/rules/${game.value}`);
    refreshSeats();
  }
  game.addEventListener("change", refreshGame);
  scenario.addEventListener("change", () => {
    refreshPlayers();
    refreshSeats();
  });
  players.addEventListener("change", () => {
    refreshVariants();
    refreshSeats();
  });
  variant.addEventListener("change", refreshVariants);
  rkPlayers.addEventListener("change", refreshSeats);
  noClock.addEventListener("change", () => (turnSeconds.disabled = noClock.checked));
  const presetClock = () => {
    const secs = meta.rummikub.preset_turn_seconds?.[preset.value];
    turnSeconds.placeholder = secs === undefined ? t("lobby.preset") : secs === null ? t("rk.no_clock") : t("lobby.preset_secs", { secs });
  };
  preset.addEventListener("change", presetClock);
  presetClock();
  refreshPlayers();
  refreshGame();

  createButton.addEventListener("click", async () => {
    error.hidden = true;
    const name = yourName.value.trim();
    localStorage.setItem(NAME_KEY, name);
    const seats: SeatRequest[] = seatKinds.map((k, i) =>
      k.value === "bot" ? { kind: "bot", bot: seatBots[i].value } : i === mine && name ? { kind: "human", name } : { kind: k.value as "human" | "open" },
    );
    const req: CreateRequest = { game: game.value as "rumis" | "rummikub", seats };
    if (mine !== null) req.creator_seat = mine;
    if (game.value === "rumis") {
      req.rumis = { scenario: scenario.value, players: Number(players.value), variant: variant.value };
    } else {
      req.rummikub = { rules: preset.value, rounds: Math.max(1, Number(rounds.value) || 1) };
      if (noClock.checked) req.rummikub.turn_seconds = null;
      else if (turnSeconds.value !== "") req.rummikub.turn_seconds = Number(turnSeconds.value);
    }
    if (practice() && seed.value !== "") req.seed = Number(seed.value);
    if (hintsChosen) req.hints = hints.checked;
    createButton.disabled = true;
    try {
      // Straight to your seat.
      await createTable(req);
    } catch (e) {
      showError(error, e);
      createButton.disabled = false;
    }
  });

  const root = h(
    "div",
    { className: "create-form", testid: "create-form" },
    label(t("lobby.game"), game),
    label(t("lobby.your_name"), yourName),
    rulesLink,
    rumisBox,
    rummikubBox,
    h("h3", {}, t("lobby.seats")),
    seatsBox,
    label(t("lobby.seed"), seed),
    seedNote,
    label(t("lobby.hints"), hints),
    hintsNote,
    h("div", {}, createButton),
  );
  return { root };
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
