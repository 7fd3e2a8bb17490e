// The lobby: create a table (game, options, seats: invited, open or bot, and which one is
// yours) and go straight to your seat; your tables (kept in this tab); the tables
// with open seats to join.
import { api, ApiError, botsOf, forgetMyTable, joinAs, myTables, rememberTable, storeInvites, storeToken, type CreateRequest, type LobbyTable, type Meta, type SeatRequest } from "./api";
import { clear, h, seatName } from "./dom";
import { t, tr } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { botLabel, localName, setBots } from "./names";

const NAME_KEY = "rumi.name";

export async function showLobby(app: HTMLElement): Promise<void> {
  clear(app);
  document.title = `rumi — ${t("lobby.title")}`;
  const error = h("div", { className: "error", testid: "error", role: "alert", hidden: true });
  const status = h("div", { className: "status", testid: "lobby-status" }, t("common.loading"));
  app.append(
    h("h1", { className: "visually-hidden" }, t("lobby.title")),
    h("section", { className: "lobby" }, h("h2", {}, t("lobby.new_table")), status, error),
  );
  let meta: Meta;
  try {
    meta = await api.meta();
    setBots(meta);
  } catch (e) {
    status.textContent = "";
    showError(error, e);
    return;
  }
  status.remove();
  const form = createForm(meta, error);
  app.querySelector(".lobby")!.append(form.root);
  const mine = myTablesSection();
  if (mine) app.append(mine);
  app.append(openTablesSection(error, meta));
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
      seatBots[i].hidden = k.value !== "bot";
      seatMine[i].disabled = k.value !== "human";
      seatMine[i].checked = i === mine;
      seatMine[i].parentElement!.hidden = k.value !== "human";
      const note = seatsBox.querySelector(`[data-testid="seat-note-${i}"]`);
      if (note)
        note.textContent =
          k.value === "human" ? (i === mine ? t("lobby.note_you") : t("lobby.note_invite")) : k.value === "open" ? t("lobby.note_open") : "";
    });
    const ok = practice();
    seed.disabled = !ok;
    seed.placeholder = ok ? t("lobby.random") : t("lobby.only_bots");
    seedNote.textContent = ok ? t("lobby.seed_ok") : t("lobby.seed_no");
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
        sorted.map((b) => ({ value: b.name, ...botLabel(sorted, b.name) })),
        oldBots[i] ?? casual?.name ?? "",
      );
      bot.setAttribute("aria-label", t("lobby.seat_bot", { n: i + 1 }));
      const syncTitle = () => (bot.title = botLabel(sorted, bot.value).title);
      bot.addEventListener("change", syncTitle);
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
    createButton.disabled = true;
    try {
      const answer = await api.create(req);
      // Straight to your seat: the token and the invite links stay in this tab.
      if (answer.you) {
        storeToken(answer.id, answer.you.token);
        rememberTable({ id: answer.id, game: req.game, seat: answer.you.seat, token: answer.you.token, name: answer.you.name, at: Date.now() });
      }
      storeInvites(
        answer.id,
        answer.seats.filter((s) => s.invite).map((s) => ({ seat: s.seat, name: s.name ?? null, invite: s.invite! })),
      );
      location.href = `/t/${encodeURIComponent(answer.id)}`;
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
          `${m.game === "rumis" ? "Rumis" : "Rummikub"} ${m.id}`,
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
  if (st?.game === "rumis" && st.rumis) {
    const r = st.rumis;
    const name = meta.rumis.scenarios.find((s) => s.key === r.scenario)?.name ?? r.scenario;
    return `${t("rumis.info", { scenario: name, players: r.players })}, ${variantLabel(r.variant ?? "standard")}`;
  }
  if (st?.game === "rummikub") {
    const k = st.rummikub ?? {};
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
        const seats = tb.seats
          .map((s) =>
            s.kind === "bot" ? seatName(s) : open.includes(s.seat) ? `${t("lobby.open_seat")} (${openFor(s.open_since_ms)})` : seatName(s),
          )
          .join(", ");
        const since = tb.seats.map((s) => s.open_since_ms).filter((x): x is number => typeof x === "number");
        list.append(
          h(
            "div",
            { className: "open-table", testid: `open-table-${tb.id}`, "data-open-seats": open.join(","), "data-open-since": since.length ? String(Math.min(...since)) : "" },
            h("span", { className: "game" }, tb.game === "rumis" ? "Rumis" : tb.game === "rummikub" ? "Rummikub" : tb.game),
            h("span", { "data-detail": tb.detail }, ` ${lobbyDetail(tb, meta)}`),
            h("span", { className: "muted" }, ` ${tb.id} — ${seats}`),
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
