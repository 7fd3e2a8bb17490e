// The lobby's full form ("more options"): the game and its options, and each seat:
// you, a person invited by link, an open seat, a bot, or (signed in) an account holder
// by name; a rated game when every other seat is an account holder's. It goes straight
// to your seat.
import { api, ApiError, botsOf, rememberTable, storeInvites, storeToken, type CreateRequest, type Meta, type SeatRequest } from "./api";
import type { AccountView } from "./generated/api";
import { clear, h } from "./dom";
import { t, tr } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { botLabel, botRatedName, botRating, ratingPool } from "./names";

const NAME_KEY = "rumi.name";

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

export function showError(box: HTMLElement, e: unknown): void {
  box.hidden = false;
  box.textContent = e instanceof ApiError ? reason(e.message, e.code).text : e instanceof Error ? e.message : String(e);
}

export function select(testid: string, options: { value: string; label: string; title?: string }[], value?: string): HTMLSelectElement {
  const s = h("select", { testid });
  for (const o of options) s.append(h("option", { value: o.value, title: o.title ?? null }, o.label));
  if (value !== undefined && options.some((o) => o.value === value)) s.value = value;
  return s;
}

let fieldCounter = 0;
export function label(text: string, control: HTMLElement): HTMLElement {
  const id = control.id || `f${++fieldCounter}`;
  control.id = id;
  return h("div", { className: "field" }, h("label", { for: id }, text), control);
}

/** A variant in words: "Ruinas: build the ruin together first". */
export function variantLabel(v: string): string {
  return tr(`variant.${v.replace(/_/g, "-")}`, undefined, v);
}

/** The form; `me` is the signed-in account (null for a guest). */
export function createForm(meta: Meta, error: HTMLElement, me: AccountView | null = null): { root: HTMLElement } {
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
  // Rumis: no clock unless asked for; a rated table always has one, 20 s or more (RT9).
  const rumisSeconds = h("input", { testid: "rumis-turn-seconds", type: "number", min: 5, max: 3600, placeholder: t("rk.no_clock") });
  const rounds = h("input", { testid: "rounds", type: "number", min: 1, max: 20, value: 1 });
  const seed = h("input", { testid: "seed", type: "number", min: 0, placeholder: t("lobby.random") });
  // Hints follow the seats (on for practice, off with other people) until the creator
  // chooses; the server applies the same default when none is sent.
  const hints = h("input", { testid: "hints", type: "checkbox" });
  const hintsNote = h("span", { className: "muted", testid: "hints-note" });
  let hintsChosen = false;
  hints.addEventListener("change", () => (hintsChosen = true));
  const seedNote = h("span", { className: "muted", testid: "seed-note" });
  // Signed in, your seat is the account's and carries its name (the server sees to it).
  const yourName = h("input", { testid: "your-name", type: "text", autocomplete: "nickname", placeholder: t("lobby.your_name_placeholder"), value: me ? me.name : (localStorage.getItem(NAME_KEY) ?? "") });
  if (me) {
    yourName.disabled = true;
    yourName.title = t("lobby.name_from_account");
  }
  // A rated game: only when every other seat is an account holder's (the server's rule).
  const rated = h("input", { testid: "rated", type: "checkbox", disabled: true });
  const ratedNote = h("span", { className: "muted", testid: "rated-note" });
  rated.addEventListener("change", () => syncRated());
  const seatsBox = h("div", { className: "seats", testid: "seats" });
  const variantNote = h("div", { className: "muted variant-note", testid: "variant-note" });
  const rumisBox = h(
    "div",
    { className: "options", testid: "rumis-options" },
    label(t("lobby.scenario"), scenario),
    label(t("lobby.players"), players),
    label(t("lobby.variant"), variant),
    label(t("lobby.turn_seconds"), rumisSeconds),
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
  const seatAccounts: HTMLInputElement[] = [];
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
  /** Why a rated game is not possible now, or null when it is. */
  function notRated(): string | null {
    if (!me) return t("lobby.rated_sign_in");
    if (mine === null) return t("lobby.rated_sit");
    const others = seatKinds.filter((_, i) => i !== mine);
    if (others.some((k) => k.value !== "account")) return t("lobby.rated_accounts");
    if (seatAccounts.some((a, i) => i !== mine && !a.value.trim())) return t("lobby.rated_names");
    return null;
  }
  function syncRated(): void {
    const why = notRated();
    rated.disabled = why !== null;
    if (why !== null) rated.checked = false;
    ratedNote.textContent = why ?? (rated.checked ? t("lobby.rated_on") : t("lobby.rated_ok"));
    // (a rated game has no hints and a deal nobody chose)
    if (rated.checked) {
      hints.checked = false;
      seed.value = "";
    }
    hints.disabled = rated.checked;
    seed.disabled = rated.checked || !practice();
    // (a rated table has a clock of at least 20 s: 60 s unless another is given)
    const minimum = rated.checked ? 20 : 5;
    rumisSeconds.min = turnSeconds.min = String(minimum);
    rumisSeconds.placeholder = rated.checked ? t("lobby.preset_secs", { secs: 60 }) : t("rk.no_clock");
    if (rated.checked) noClock.checked = false;
    noClock.disabled = rated.checked;
    turnSeconds.disabled = noClock.checked;
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
      seatAccounts[i].hidden = k.value !== "account";
      const note = seatsBox.querySelector(`[data-testid="seat-note-${i}"]`);
      if (note)
        note.textContent =
          k.value === "human"
            ? i === mine ? t("lobby.note_you") + (me ? ` (${me.name})` : "") : t("lobby.note_invite")
            : k.value === "open" ? t("lobby.note_open")
            : k.value === "account" ? t("lobby.note_account") : botRatedName(i, seatBots[i].value, pool());
    });
    const ok = practice();
    seed.disabled = !ok;
    seed.placeholder = ok ? t("lobby.random") : t("lobby.only_bots");
    seedNote.textContent = ok ? t("lobby.seed_ok") : t("lobby.seed_no");
    // (as the server decides when none is sent: on for at most one person)
    const alone = seatKinds.filter((k) => k.value !== "bot").length <= 1;
    if (!hintsChosen) hints.checked = alone;
    hintsNote.textContent = alone ? t("lobby.hints_practice") : t("lobby.hints_people");
    syncRated();
  }
  function refreshSeats(): void {
    const n = seatCount();
    const bots = botsOf(meta, game.value);
    const oldKinds = seatKinds.map((s) => s.value);
    const oldBots = seatBots.map((s) => s.value);
    const oldAccounts = seatAccounts.map((s) => s.value);
    clear(seatsBox);
    seatKinds.length = 0;
    seatBots.length = 0;
    seatMine.length = 0;
    seatAccounts.length = 0;
    for (let i = 0; i < n; i++) {
      const kind = select(`seat-kind-${i}`, [
        { value: "human", label: t("lobby.kind_human") },
        { value: "open", label: t("lobby.kind_open") },
        { value: "bot", label: t("lobby.kind_bot") },
        ...(me ? [{ value: "account", label: t("lobby.kind_account") }] : []),
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
      const account = h("input", {
        testid: `seat-account-${i}`,
        type: "text",
        className: "account-name",
        maxlength: 20,
        autocomplete: "off",
        spellcheck: "false",
        placeholder: t("lobby.account_placeholder"),
        "aria-label": t("lobby.seat_account", { n: i + 1 }),
        value: oldAccounts[i] ?? "",
      });
      account.addEventListener("input", syncRated);
      seatKinds.push(kind);
      seatBots.push(bot);
      seatMine.push(radio);
      seatAccounts.push(account);
      seatsBox.append(
        h(
          "div",
          { className: "seat-row", testid: `seat-row-${i}` },
          h("span", { className: "seat-label" }, t("seat.n", { n: i + 1 })),
          kind,
          bot,
          account,
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
    // (signed in, the server names your seat after the account)
    const name = me ? "" : yourName.value.trim();
    if (!me) localStorage.setItem(NAME_KEY, name);
    const seats: SeatRequest[] = seatKinds.map((k, i) =>
      k.value === "bot"
        ? { kind: "bot", bot: seatBots[i].value }
        : k.value === "account" ? { kind: "account", name: seatAccounts[i].value.trim() }
        : i === mine && name ? { kind: "human", name } : { kind: k.value as "human" | "open" },
    );
    const req: CreateRequest = { game: game.value as "rumis" | "rummikub", seats };
    if (mine !== null) req.creator_seat = mine;
    if (game.value === "rumis") {
      req.rumis = { scenario: scenario.value, players: Number(players.value), variant: variant.value };
      if (rumisSeconds.value !== "") req.rumis.turn_seconds = Number(rumisSeconds.value);
    } else {
      req.rummikub = { rules: preset.value, rounds: Math.max(1, Number(rounds.value) || 1) };
      if (noClock.checked) req.rummikub.turn_seconds = null;
      else if (turnSeconds.value !== "") req.rummikub.turn_seconds = Number(turnSeconds.value);
    }
    if (rated.checked && !rated.disabled) req.rated = true;
    else {
      if (practice() && seed.value !== "") req.seed = Number(seed.value);
      if (hintsChosen) req.hints = hints.checked;
    }
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
    h("div", { className: "rated-row" }, label(t("lobby.rated"), rated), ratedNote),
    h("div", {}, createButton),
  );
  return { root };
}

