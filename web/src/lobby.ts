// The lobby: create a table (game, options, seats: invited, open or bot, and which one is
// yours) and go straight to your seat; list the tables with open seats to join.
import { api, ApiError, botsOf, storeInvites, storeToken, type CreateRequest, type Meta, type SeatRequest } from "./api";
import { clear, h, seatName } from "./dom";

const NAME_KEY = "rumi.name";

export async function showLobby(app: HTMLElement): Promise<void> {
  clear(app);
  const error = h("div", { className: "error", testid: "error", hidden: true });
  const status = h("div", { className: "status", testid: "lobby-status" }, "Loading…");
  app.append(h("section", { className: "lobby" }, h("h1", {}, "New table"), status, error));
  let meta: Meta;
  try {
    meta = await api.meta();
  } catch (e) {
    status.textContent = "";
    showError(error, e);
    return;
  }
  status.remove();
  const form = createForm(meta, error);
  app.querySelector(".lobby")!.append(form.root);
  app.append(openTablesSection(error));
}

function showError(box: HTMLElement, e: unknown): void {
  box.hidden = false;
  box.textContent = e instanceof ApiError || e instanceof Error ? e.message : String(e);
}

function select(testid: string, options: { value: string; label: string }[], value?: string): HTMLSelectElement {
  const s = h("select", { testid });
  for (const o of options) s.append(h("option", { value: o.value }, o.label));
  if (value !== undefined && options.some((o) => o.value === value)) s.value = value;
  return s;
}

function label(text: string, control: HTMLElement): HTMLElement {
  return h("label", { className: "field" }, h("span", {}, text), control);
}

const VARIANT_LABELS: Record<string, string> = {
  standard: "standard",
  four_colours: "two players, four colours (R10)",
  "four-colours": "two players, four colours (R10)",
  ruinas: "Ruinas: joint build (R11)",
  "ruinas-random": "Ruinas: random ruin (R11)",
  inverse: "inverse (Rumis+, 5-6 players)",
  dismantle: "dismantle (Rumis+, 2 players)",
  random_ruin: "Ruinas: random ruin (R11)",
  "random-ruin": "Ruinas: random ruin (R11)",
};

function createForm(meta: Meta, error: HTMLElement): { root: HTMLElement } {
  const game = select("game-select", [
    { value: "rumis", label: "Rumis (3D)" },
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
    meta.rummikub.presets.map((p) => ({ value: p, label: p })),
  );
  const turnSeconds = h("input", { testid: "turn-seconds", type: "number", min: 5, max: 600, placeholder: "preset" });
  const noClock = h("input", { testid: "no-clock", type: "checkbox" });
  const rounds = h("input", { testid: "rounds", type: "number", min: 1, max: 20, value: 1 });
  const seed = h("input", { testid: "seed", type: "number", min: 0, placeholder: "random" });
  const seedNote = h("span", { className: "muted", testid: "seed-note" });
  const yourName = h("input", { testid: "your-name", type: "text", placeholder: "your name", value: localStorage.getItem(NAME_KEY) ?? "" });
  const seatsBox = h("div", { className: "seats", testid: "seats" });
  const rumisBox = h("div", { className: "options", testid: "rumis-options" }, label("Scenario", scenario), label("Players", players), label("Variant", variant));
  const rummikubBox = h(
    "div",
    { className: "options", testid: "rummikub-options" },
    label("Rules", preset),
    label("Players", h("span")),
    label("Turn seconds", turnSeconds),
    label("No clock", noClock),
    label("Rounds", rounds),
  );
  const rkPlayers = select("rk-players-select", (meta.rummikub.players.length ? meta.rummikub.players : [2, 3, 4]).map((n) => ({ value: String(n), label: String(n) })));
  (rummikubBox.children[1] as HTMLElement).replaceChild(rkPlayers, rummikubBox.children[1].children[1]);
  const createButton = h("button", { testid: "create", className: "primary" }, "Create table");

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
    for (const v of s?.variants ?? ["standard"]) variant.append(h("option", { value: v }, VARIANT_LABELS[v] ?? v));
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
      o.title = counts ? `${counts.join(", ")} players` : "";
    }
    if (variant.selectedOptions[0]?.disabled) {
      const first = [...variant.options].find((o) => !o.disabled);
      if (first) variant.value = first.value;
    }
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
          k.value === "human" ? (i === mine ? "you" : "invite link to send") : k.value === "open" ? "anyone may join from the lobby" : "";
    });
    const ok = practice();
    seed.disabled = !ok;
    seed.placeholder = ok ? "random" : "only against bots";
    seedNote.textContent = ok ? "practice: every other seat is a bot, so you may choose the deal" : "a seed only for practice (every other seat a bot)";
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
        { value: "human", label: "human (invited)" },
        { value: "open", label: "open (anyone)" },
        { value: "bot", label: "bot" },
      ]);
      kind.value = oldKinds[i] ?? (i === 0 ? "human" : "bot");
      const bot = select(
        `seat-bot-${i}`,
        bots.map((b) => ({ value: b.name, label: b.description ? `${b.name}: ${b.description}` : b.name })),
        oldBots[i] ?? (bots.some((b) => b.name === "greedy") ? "greedy" : bots[0].name),
      );
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
          h("span", { className: "seat-label" }, `Seat ${i + 1}`),
          kind,
          bot,
          h("label", { className: "mine" }, radio, " mine"),
          h("span", { className: "muted", testid: `seat-note-${i}` }),
        ),
      );
    }
    syncSeats();
  }
  function refreshGame(): void {
    rumisBox.hidden = game.value !== "rumis";
    rummikubBox.hidden = game.value !== "rummikub";
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
  rkPlayers.addEventListener("change", refreshSeats);
  noClock.addEventListener("change", () => (turnSeconds.disabled = noClock.checked));
  const presetClock = () => {
    const secs = meta.rummikub.preset_turn_seconds?.[preset.value];
    turnSeconds.placeholder = secs === undefined ? "preset" : secs === null ? "no clock" : `${secs} (preset)`;
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
      if (answer.you) storeToken(answer.id, answer.you.token);
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
    label("Game", game),
    label("Your name", yourName),
    rumisBox,
    rummikubBox,
    h("h3", {}, "Seats"),
    seatsBox,
    label("Seed", seed),
    seedNote,
    createButton,
  );
  return { root };
}

function openTablesSection(error: HTMLElement): HTMLElement {
  const list = h("div", { testid: "open-tables", className: "open-tables" });
  const joinName = h("input", { testid: "join-name", type: "text", placeholder: "your name", value: localStorage.getItem(NAME_KEY) ?? "" });
  async function refresh(): Promise<void> {
    try {
      const tables = await api.openTables();
      clear(list);
      if (tables.length === 0) list.append(h("p", { className: "muted" }, "No open tables."));
      for (const t of tables) {
        const open = t.open_seats;
        const seats = t.seats
          .map((s) => (s.kind === "bot" ? `${s.name} (bot)` : open.includes(s.seat) ? "open seat" : seatName(s)))
          .join(", ");
        list.append(
          h(
            "div",
            { className: "open-table", testid: `open-table-${t.id}`, "data-open-seats": open.join(",") },
            h("span", { className: "game" }, t.game === "rumis" ? "Rumis" : t.game === "rummikub" ? "Rummikub" : t.game),
            h("span", {}, ` ${t.detail}`),
            h("span", { className: "muted" }, ` ${t.id} — ${seats}`),
            " ",
            h(
              "button",
              {
                testid: `join-${t.id}`,
                onclick: async () => {
                  try {
                    const name = joinName.value.trim() || "guest";
                    localStorage.setItem(NAME_KEY, name);
                    const seat = await api.join(t.id, name);
                    storeToken(t.id, seat.token);
                    location.href = `/t/${encodeURIComponent(t.id)}`;
                  } catch (e) {
                    showError(error, e);
                  }
                },
              },
              "Join",
            ),
            " ",
            h("a", { href: `/t/${encodeURIComponent(t.id)}` }, "watch"),
          ),
        );
      }
    } catch (e) {
      clear(list);
      list.append(h("p", { className: "error" }, `Cannot list tables: ${(e as Error).message}`));
    }
  }
  refresh();
  const timer = window.setInterval(refresh, 5000);
  window.addEventListener("pagehide", () => window.clearInterval(timer));
  return h(
    "section",
    { className: "lobby" },
    h("h1", {}, "Open tables"),
    label("Join as", joinName),
    h("button", { className: "small", testid: "refresh-tables", onclick: refresh }, "refresh"),
    list,
  );
}
