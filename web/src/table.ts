// The table page: the live connection, seats, whose turn (or whom the table waits for),
// hand a seat to a bot and take it back, the fairness commitment, result, errors; the
// game's own view (Rumis or Rummikub) is mounted below and fed every new view. Rumis
// (and three.js with it) is loaded only when the table is a Rumis table.
import {
  api,
  ApiError,
  botsOf,
  forgetToken,
  joinAs,
  statusOf,
  storedInvites,
  storeToken,
  TableSocket,
  type Action,
  type CreateRequest,
  type SeatRequest,
  type Meta,
  type Seat,
  type TableView,
} from "./api";
import { clear, h, seatName } from "./dom";
import { t } from "./i18n/i18n";
import { reason, ruleHref, setSeatNames } from "./i18n/server";
import type { CheckResult, Placement, Reason } from "./api";
import { showNotFound } from "./notfound";
import { rememberTable, forgetMyTable } from "./api";
import { RummikubUI } from "./rummikub/ui";
import { botLabel, botOwnName, botSeatName, localName, setBots } from "./names";
import { viewTitle } from "./titles";
import { createTable } from "./create-form";
import { TurnSignal } from "./turn";
import { colourChip } from "./rumis/palette";
import { ratedBadge, renderTakeSeat, seatNameNode } from "./table-account";
import { contrastToggle } from "./contrast";
import { fairnessBox } from "./fairness";

export interface GameContext {
  id: string;
  token: string | null;
  /** Sends an action made on the given view; resolves true if the server accepted it. */
  act(action: Action): Promise<boolean>;
  /** Shows a message for a person (a refusal, a reason), with the server's code if any. */
  error(message: string, code?: string | null, why?: Reason | null): void;
  clearError(): void;
  current(): TableView | null;
  /** Rumis: whether a placement is legal now, and why not (the red ghost); the table's
   * `POST …/check` when missing (a tutorial asks its step instead). */
  check?(placement: Placement): Promise<CheckResult>;
  /** Rummikub: the end-turn button's text where a play is checked, not played (a puzzle). */
  endTurnLabel?: string;
  /** The table page: the board fills the screen under the player strip, where the game
   * may put its own part (the Rummikub clock). */
  strip?: HTMLElement;
}

export interface GameUI {
  update(view: TableView): void;
  destroy(): void;
  /** Where the table's messages float: by the board or the rack, not at the page's top. */
  messageSlot?: HTMLElement;
}

/** The Rumis view, with three.js: a separate chunk, fetched only for Rumis tables. */
export async function rumisUI(root: HTMLElement, ctx: GameContext, readOnly = false, replay: { jump(move: number): void; final(): TableView } | null = null): Promise<GameUI> {
  const { RumisUI } = await import("./rumis/rumis");
  return new RumisUI(root, ctx, readOnly, replay);
}

const NAME_KEY = "rumi.name";
/** Codes of a seat token the server does not take: the page forgets it and watches. */
const REFUSED_TOKEN = ["bad_token", "seat_taken", "claim_needed"];

/** `/t/ID#token=…` as an absolute link. */
export function seatLink(id: string, token: string): string {
  return new URL(`/t/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`, location.origin).href;
}

function absolute(link: string): string {
  return new URL(link, location.origin).href;
}

/** A read-only field with a link and a copy button (the link is not an anchor: following
 * an invite link in this tab would put you on that seat). */
export function copyField(testid: string, value: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value, testid, className: "link-field", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  input.setAttribute("aria-label", t("table.link"));
  const button = h("button", { className: "small", testid: `copy-${testid}` }, t("table.copy"));
  button.addEventListener("click", async () => {
    input.select();
    let ok = false;
    try {
      await navigator.clipboard.writeText(value);
      ok = true;
    } catch {
      ok = document.execCommand?.("copy") ?? false;
    }
    button.textContent = ok ? t("table.copied") : t("table.select_copy");
    window.setTimeout(() => (button.textContent = t("table.copy")), 2000);
  });
  return h("span", { className: "copy-field" }, input, button);
}

/** A player's name for a sentence: "Ana" or "seat 2". */
function who(seat: Seat | undefined, index: number): string {
  return seat ? seatName(seat) : t("seat.n", { n: index + 1 });
}

/** "Ana's seat", or "seat 2" while nobody has taken it. */
function seatPhrase(s: Seat): string {
  return s.claimed ? t("table.seat_of", { name: seatName(s) }) : t("seat.n", { n: s.seat + 1 });
}

/** "Ana wins", "Ana and Bo win" in the player's language (the server's text is English). */
export function resultText(v: TableView): string {
  const r = v.result!;
  if (!r.winners.length) return r.text;
  const names = r.winners.map((w) => seatName(v.seats[w] ?? { seat: w })).join(` ${t("common.and")} `);
  return t(r.winners.length > 1 ? "result.win_many" : "result.wins", { names });
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

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

/** A create request for a new game like `v`: the same board or rules, clock and seats
 * (bots the same bots, you on your seat, the other people invited again), a new deal. */
function sameSettings(v: TableView): CreateRequest {
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

export function showTable(app: HTMLElement, id: string, token: string | null, notice: string | null = null): void {
  clear(app);
  document.body.classList.add("table-page");
  // (its words in a span: on a phone a live connection is a dot)
  const connectionText = h("span", { className: "connection-text" }, t("table.connecting"));
  const connection = h("span", { className: "connection", testid: "connection", "data-state": "connecting" }, connectionText);
  const turn = h("div", { className: "turn", testid: "turn-status", "aria-live": "polite" }, t("common.loading"));
  const seats = h("div", { className: "seat-list", testid: "seat-list" });
  // The table's hints setting, for everyone to see.
  const hintsLine = h("span", { className: "hints-setting muted", testid: "hints-setting" });
  const waitingBox = h("div", { className: "waiting", testid: "waiting-box", hidden: true });
  const takeBackBox = h("div", { className: "take-back", testid: "take-back-box", hidden: true });
  const troubleBox = h("div", { className: "bot-trouble", testid: "bot-trouble", role: "status", hidden: true });
  const fairness = h("div", { className: "fairness-slot" });
  const result = h("div", { className: "result", testid: "result", hidden: true });
  const errorBox = h("div", { className: "error", testid: "error", role: "alert", hidden: true });
  const joinBox = h("div", { className: "join-box", hidden: true });
  // A seat kept for the signed-in account: taken with one button.
  const takeSeatBox = h("div", { className: "take-seat", testid: "take-seat-box", hidden: true });
  const renameInput = h("input", { testid: "rename-input", type: "text", autocomplete: "nickname", maxlength: 40, "aria-label": t("lobby.your_name") });
  const renameBox = h(
    "form",
    { className: "rename-box", testid: "rename-box", hidden: true },
    renameInput,
    " ",
    h("button", { type: "submit", testid: "rename-save" }, t("table.rename_save")),
    " ",
    h("button", { type: "button", className: "secondary", onclick: () => (renameBox.hidden = true) }, t("common.cancel")),
  );
  renameBox.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = renameInput.value.trim();
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
      showError(err);
    }
  });
  const myLink = h("div", { className: "my-link" });
  const gameBox = h("div", { className: "game-box", testid: "game-box" });
  const title = h("h1", { className: "table-title", testid: "table-title" }, t("table.title_plain", { id }));
  // Your turn in the tab's title and favicon, and (if asked for) by sound and notification.
  const signal = new TurnSignal();
  signal.controls.hidden = true;
  // The board is the screen: one line of players above it, everything else at the
  // table in the menu below it (the ☰ button leads there).
  const menuTitle = h("h2", { className: "table-menu-title", id: "table-menu-title", tabindex: -1 }, t("table.menu_title"));
  const handOwnBox = h("div", { className: "hand-own", testid: "hand-own", hidden: true });
  // The stones' patterns: Rumis only (Rummikub's tiles carry their numbers).
  const contrastBox = h("div", { className: "contrast-setting", hidden: true }, contrastToggle());
  const menu = h(
    "section",
    { className: "table-menu", id: "table-menu", testid: "table-menu", "aria-labelledby": "table-menu-title" },
    menuTitle,
    signal.controls,
    contrastBox,
    handOwnBox,
    seats,
    renameBox,
    fairness,
    myLink,
  );
  const menuButton = h("button", { className: "menu-button", testid: "table-menu-button", "aria-controls": "table-menu", "aria-label": t("table.menu"), title: t("table.menu") }, "☰");
  menuButton.addEventListener("click", () => {
    menu.scrollIntoView({ block: "start" });
    menuTitle.focus({ preventScroll: true });
  });
  const stripSeats = h("div", { className: "strip-seats", testid: "strip-seats" });
  // (the game's own part of the strip: the Rummikub clock)
  const stripSlot = h("div", { className: "strip-slot" });
  app.append(
    h("div", { className: "table-strip", testid: "table-strip" }, menuButton, title, connection, turn, stripSeats, stripSlot),
    h("div", { className: "table-side" }, troubleBox, waitingBox, takeBackBox, result, joinBox, takeSeatBox),
    errorBox,
    gameBox,
    menu,
  );

  let view: TableView | null = null;
  let game: GameUI | null = null;
  let gameLoading = false;
  let meta: Meta | null = null;
  /** The bots to hand a seat to come from the server's meta. It may arrive after the last
   * view (a table waiting on my move sends no more), so the seats are drawn again then;
   * a failed fetch is tried again, a little later each time. */
  function loadMeta(attempt: number): void {
    api
      .meta()
      .then((m) => {
        meta = m;
        setBots(m);
        // The bots' levels name their seats now; the game's own view (which may be in
        // the middle of a drag) takes the names with the next view.
        if (view) {
          setSeatNames(view.seats.map(seatName));
          renderTitle(view);
          renderTurn(view);
          renderSeats(view);
          renderTakeBack(view);
        }
      })
      .catch(() => {
        if (!stopped && attempt < 5) window.setTimeout(() => loadMeta(attempt + 1), 1000 * 2 ** attempt);
      });
  }
  loadMeta(0);

  let errorTimer: number | null = null;
  const ctx: GameContext = {
    id,
    token,
    strip: stripSlot,
    current: () => view,
    error(message: string, code?: string | null, why?: Reason | null) {
      errorBox.hidden = false;
      clear(errorBox);
      const said = reason(message, code, why);
      errorBox.append(h("span", { className: "error-text", testid: "error-text", title: message }, said.text));
      if (said.rule) {
        errorBox.dataset.rule = said.rule;
        errorBox.append(" ", h("a", { href: ruleHref(said.rule), target: "_blank", testid: "why-link", className: "why" }, t("table.why", { rule: said.rule })));
      } else delete errorBox.dataset.rule;
      if (code) errorBox.dataset.code = code;
      else delete errorBox.dataset.code;
      if (why) errorBox.dataset.why = why.code;
      else delete errorBox.dataset.why;
      if (errorTimer !== null) window.clearTimeout(errorTimer);
      errorTimer = window.setTimeout(() => (errorBox.hidden = true), 15000);
    },
    clearError() {
      errorBox.hidden = true;
    },
    async act(action: Action): Promise<boolean> {
      if (!view) return false;
      try {
        // On the socket, the new view arrives before the ack; by HTTP, in its answer.
        const answer = await socket.act(view.version, action);
        ctx.clearError();
        if (answer) accept(answer, false);
        return true;
      } catch (e) {
        showError(e);
        return false;
      }
    },
  };

  function showError(e: unknown): void {
    if (e instanceof ApiError) ctx.error(e.message, e.code, e.why);
    else ctx.error(e instanceof Error ? e.message : String(e));
  }

  /** A newer view replaces the shown one; at the same version the socket's wins (it also
   * says who is connected as of the last change, where an HTTP answer may be older). */
  function accept(next: TableView, fromSocket: boolean): void {
    // Opened without a token, the account's seat found by the session: keep its token
    // like one from a link and go on as that seat's player (the socket needs the token).
    if (!token && next.seat_token) return sitAs(next.seat_token, next.you, next.seats[next.you ?? -1]?.name ?? null);
    if (view && (next.version < view.version || (next.version === view.version && !fromSocket))) return;
    // The stones' orientations come in the first views only: keep them, so that a game
    // view made after later views (the Rumis chunk loads meanwhile) still has them.
    if (next.rumis && !next.rumis.stones && view?.rumis?.stones) next.rumis.stones = view.rumis.stones;
    view = next;
    setSeatNames(next.seats.map(seatName));
    render();
  }

  let stopped = false;
  /** A seat token the server does not take (another table's, mistyped, or an invite
   * link's that was used already): forget it and watch instead, saying why. */
  function dropToken(message: string, code = "bad_token"): void {
    if (stopped) return;
    stopped = true;
    socket.close();
    window.clearInterval(ticker);
    game?.destroy();
    signal.destroy();
    forgetToken(id);
    forgetMyTable(id);
    showTable(app, id, null, code === "seat_taken" ? t("table.seat_taken") : t("table.bad_token", { message: reason(message, code).text }));
  }

  /** Goes on as the seat of `seatToken` (found by the session, or just taken). */
  function sitAs(seatToken: string, seat: number | null, name: string | null): void {
    if (stopped) return;
    stopped = true;
    socket.close();
    window.clearInterval(ticker);
    game?.destroy();
    signal.destroy();
    storeToken(id, seatToken);
    if (seat !== null) rememberTable({ id, game: view?.game ?? "", seat, token: seatToken, name, at: Date.now() });
    showTable(app, id, seatToken);
  }

  /** A table the server does not know: say so, stop reconnecting, link to the lobby. */
  function gone(): void {
    if (stopped) return;
    stopped = true;
    socket.close();
    window.clearInterval(ticker);
    game?.destroy();
    signal.destroy();
    forgetMyTable(id);
    showNotFound(app, "table", id);
  }

  async function refresh(): Promise<void> {
    if (stopped) return;
    try {
      accept(await api.view(id, token), false);
    } catch (e) {
      if (token && e instanceof ApiError && e.code && REFUSED_TOKEN.includes(e.code)) return dropToken(e.message, e.code);
      if (e instanceof ApiError && (e.status === 404 || e.code === "no_table")) return gone();
      if (!view) {
        turn.textContent = "";
        showError(e);
      }
    }
  }

  /** The bot picked in each seat's hand-over control (the seat list is redrawn on every view). */
  const botChoices = new Map<number, string>();

  function botsFor(v: TableView): string[] {
    return botsOf(meta, v.game).map((b) => b.name);
  }

  /** The hand-to-bot control of a seat, a countdown until it may be used, or null. */
  function handControl(v: TableView, s: Seat): HTMLElement | null {
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
    const chosen = botChoices.get(s.seat);
    if (chosen && botsFor(v).includes(chosen)) botChoice.value = chosen;
    botChoice.addEventListener("change", () => botChoices.set(s.seat, botChoice.value));
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
              ctx.clearError();
              refresh();
            } catch (e) {
              showError(e);
            }
          },
        },
        own ? t("table.hand_own") : t("table.hand_other"),
      ),
    );
  }

  function renderTurn(v: TableView): void {
    const status = statusOf(v);
    const myTurn = status === "playing" && v.you !== null && v.to_move === v.you;
    turn.dataset.myTurn = String(myTurn);
    signal.controls.hidden = v.you === null || status === "over" || status === "cancelled";
    signal.update(myTurn);
    turn.dataset.version = String(v.version);
    turn.dataset.over = String(v.over);
    turn.dataset.status = status;
    turn.className = "turn" + (myTurn ? " mine" : "") + (status === "waiting" ? " waiting" : "");
    if (status === "over") turn.textContent = t("table.game_over");
    // (RT7: a rated table whose seats were not all taken in time; nothing more happens)
    else if (status === "cancelled") turn.textContent = t("table.cancelled");
    else if (status === "waiting") {
      const waiting = v.waiting_for ?? v.seats.filter((s) => s.kind !== "bot" && !s.claimed).map((s) => s.seat);
      turn.dataset.waitingFor = waiting.join(",");
      turn.textContent = t("table.waiting_for", { who: waiting.map((i) => who(v.seats[i], i)).join(", ") || t("table.players") });
    } else if (myTurn) turn.textContent = t("table.your_turn");
    else if (v.to_move !== null && v.seats[v.to_move]) turn.textContent = t("table.to_move", { name: seatName(v.seats[v.to_move]) });
    else turn.textContent = "";
    // Rumis: the colour to move, with its symbol, as on the board and in the scores.
    if (status === "playing" && v.rumis?.to_move_colour) turn.prepend(colourChip(v.rumis.to_move_colour), " ");
    if (status !== "waiting") delete turn.dataset.waitingFor;
  }

  function renderSeats(v: TableView): void {
    const status = statusOf(v);
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
                    renameBox.hidden = false;
                    // (the server's default name is no name the player chose: an empty field)
                    renameInput.value = localName(s.name, false) === s.name ? s.name : "";
                    renameInput.focus();
                  },
                },
                "✎",
              )
            : null,
          // (your own seat's hand-over has a box of its own: it is not your level)
          s.seat === v.you ? null : handControl(v, s),
        ),
      );
    }
    renderHandOwn(v);
    renderStrip(v);
    hintsLine.textContent = t(v.hints ? "table.hints_on" : "table.hints_off");
    hintsLine.title = t(v.hints ? "table.hints_on_title" : "table.hints_off_title");
    hintsLine.dataset.on = String(v.hints);
    // (after the seats, in their row: no line of its own on a phone)
    seats.append(hintsLine);
    const rated = ratedBadge(v);
    if (rated) seats.append(rated);
  }

  /** Your own seat to a bot, in the menu: a bot that would take over, not your level. */
  function renderHandOwn(v: TableView): void {
    const mine = v.you !== null ? v.seats[v.you] : undefined;
    const control = mine ? handControl(v, mine) : null;
    clear(handOwnBox);
    handOwnBox.hidden = !control;
    if (control) handOwnBox.append(h("p", { className: "hand-own-note" }, t("hand.own_note")), control);
  }

  /** The one line above the board: each player, the one to move marked (Rumis: their
   * colours; Rummikub: their tiles left). */
  function renderStrip(v: TableView): void {
    const status = statusOf(v);
    clear(stripSeats);
    for (const s of v.seats) {
      const moving = status === "playing" && v.to_move === s.seat;
      const full = seatName(s);
      // (a bot by its own name: its level is in the menu and the tooltip)
      const short = s.kind === "bot" && !s.claimed ? botOwnName(s.seat, s.name) : full;
      const tiles = v.rummikub?.rack_sizes[s.seat];
      stripSeats.append(
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

  /** A bot seat whose bot failed: the server retries it, then a simpler bot moves for it. */
  function renderTrouble(v: TableView): void {
    clear(troubleBox);
    troubleBox.hidden = v.bot_trouble.length === 0;
    for (const trouble of v.bot_trouble) {
      const seat = v.seats[trouble.seat];
      const params = {
        name: seat ? seatName(seat) : t("seat.n_lower", { n: trouble.seat + 1 }),
        reason: t(`bot_trouble.code_${trouble.code}` as const),
        retry: trouble.retries,
      };
      troubleBox.append(
        h(
          "div",
          { testid: `bot-trouble-${trouble.seat}`, "data-code": trouble.code, "data-fallback": String(trouble.fallback) },
          trouble.fallback ? t("bot_trouble.fallback", params) : t("bot_trouble.retrying", params),
        ),
      );
    }
  }

  /** While waiting: whom for, and (for the creator) the invite links still to send. */
  function renderWaiting(v: TableView): void {
    const waiting = statusOf(v) === "waiting" ? (v.waiting_for ?? []) : [];
    clear(waitingBox);
    waitingBox.hidden = waiting.length === 0;
    if (waitingBox.hidden) return;
    const invites = storedInvites(id);
    waitingBox.append(h("div", {}, t("table.waiting_note")));
    const list = h("ul", { className: "links", testid: "invites" });
    for (const seat of waiting) {
      const s = v.seats[seat];
      const invite = invites.find((i) => i.seat === seat);
      if (invite) {
        list.append(h("li", {}, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), copyField(`invite-${seat}`, absolute(invite.invite)), h("span", { className: "muted" }, " ", t("table.send_link"))));
      } else if (s?.kind === "open") {
        list.append(
          h(
            "li",
            { testid: `open-seat-${seat}` },
            h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `),
            t("table.open_note"), " ",
            copyField(`table-link-${seat}`, absolute(`/t/${encodeURIComponent(id)}`)),
          ),
        );
      } else if (s?.kind === "account") {
        list.append(h("li", { testid: `kept-seat-${seat}` }, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), t("table.kept_note", { name: s.account ?? s.name })));
      } else {
        list.append(h("li", {}, h("span", { className: "seat-label" }, `${t("seat.n", { n: seat + 1 })}: `), t("table.invited_note")));
      }
    }
    waitingBox.append(list);
  }

  /** Your seat is played by a bot: take it back. */
  /** What the take-back box shows: it is drawn again only when that changes, so that
   * its button stays put while the bot plays (a button replaced on every move is hard
   * to press). */
  let takeBackKey = "";
  function renderTakeBack(v: TableView): void {
    const mine = v.you !== null ? v.seats[v.you] : undefined;
    const show = statusOf(v) !== "over" && statusOf(v) !== "cancelled" && mine?.kind === "bot";
    takeBackBox.hidden = !show;
    const key = JSON.stringify([show, v.you, mine?.bot ?? null, mine?.name ?? null]);
    if (key === takeBackKey) return;
    takeBackKey = key;
    clear(takeBackBox);
    if (!show || v.you === null) return;
    const seat = v.you;
    takeBackBox.append(
      h("span", { testid: "bot-plays" }, t("hand.bot_plays", { bot: botSeatName({ seat, name: null, bot: mine?.bot ?? null }) }), " "),
      h(
        "button",
        {
          className: "primary small",
          testid: "take-back",
          onclick: async () => {
            try {
              await api.takeBack(id, token, seat);
              ctx.clearError();
              refresh();
            } catch (e) {
              showError(e);
            }
          },
        },
        t("table.take_back"),
      ),
    );
  }

  function renderJoin(v: TableView): void {
    const canJoin = v.you === null && statusOf(v) !== "over" && statusOf(v) !== "cancelled" && v.seats.some((s) => s.kind === "open" && !s.claimed);
    joinBox.hidden = !canJoin;
    if (canJoin && !joinBox.firstChild) {
      const name = h("input", { type: "text", placeholder: t("lobby.your_name_placeholder"), "aria-label": t("lobby.your_name"), testid: "join-name", value: localStorage.getItem("rumi.name") ?? "" });
      joinBox.append(
        name,
        h(
          "button",
          {
            testid: "join-table",
            onclick: async () => {
              try {
                const seat = await joinAs(id, name.value.trim(), t("lobby.guest"));
                storeToken(id, seat.token);
                rememberTable({ id, game: view?.game ?? "", seat: seat.seat, token: seat.token, name: seat.name, at: Date.now() });
                location.reload();
              } catch (e) {
                showError(e);
              }
            },
          },
          t("table.take_open"),
        ),
      );
    }
  }

  /** The end: the ranking with scores, a new game with the same settings, the replay. */
  function endPanel(v: TableView): (HTMLElement | null)[] {
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
        showError(e);
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
      rematchBox(v),
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

  /** The rematch's table as a spectator sees it (who sits there already), fetched once
   * the finished table names it. */
  let rematchView: TableView | null = null;
  let rematchAsked: string | null = null;

  /** Rematch: the same seats and a new deal. A player asks (or, once someone has, joins
   * on their own seat there: the server finds it by this table's token); a spectator
   * may watch it. */
  function rematchBox(v: TableView): HTMLElement | null {
    const next = v.rematch ?? null;
    if (next && rematchAsked !== next) {
      rematchAsked = next;
      api
        .view(next, null)
        .then((r) => {
          rematchView = r;
          render();
        })
        .catch(() => {});
    }
    if (v.you === null || !token) {
      if (!next) return null;
      return h("div", { className: "rematch", testid: "rematch-box" }, h("a", { href: `/t/${encodeURIComponent(next)}`, testid: "rematch-watch" }, t("end.rematch_watch")));
    }
    const there = rematchView && rematchView.id === next ? rematchView : null;
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
        showError(e);
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

  function renderMyLink(v: TableView): void {
    clear(myLink);
    if (v.you === null || !token) return;
    myLink.append(
      h(
        "details",
        { testid: "my-link" },
        h("summary", {}, t("table.my_link")),
        h("div", { className: "muted" }, t("table.my_link_note")),
        copyField("my-seat-link", seatLink(id, token)),
      ),
    );
  }

  let fairnessKey = "";
  function renderFairness(v: TableView): void {
    const key = JSON.stringify([v.fairness ?? null, v.over]);
    if (key === fairnessKey) return;
    fairnessKey = key;
    clear(fairness);
    // Rumis deals nothing, except the random ruin of `ruinas-random`: no proof to show.
    if (v.game === "rumis" && v.rumis?.variant !== "ruinas-random") return;
    const box = fairnessBox(id, v.fairness, statusOf(v) === "over");
    if (!box) return;
    // During the game the commitment is for those who want it, behind "fair deal ✓".
    // A practice game says so on the summary's line.
    if (statusOf(v) !== "over") {
      const summary = h("summary", {}, t("fair.summary"));
      const practice = box.querySelector<HTMLElement>('[data-testid="practice-seed"]');
      if (practice) summary.append(" · ", practice);
      fairness.append(h("details", { className: "fair-deal", testid: "fair-deal" }, summary, box));
    }
    // Once over, the proof waits behind "check this deal", below the result.
    else fairness.append(h("details", { className: "check-deal", testid: "check-deal" }, h("summary", {}, t("end.check_deal")), box));
  }

  /** The heading and the tab's title name the game and the players (bots with their
   * levels once the meta has come). */
  function renderTitle(v: TableView): void {
    const named = viewTitle(v);
    signal.setTitle(`rumi — ${named}`);
    // (a player's own seat is marked in the seat list, not in the heading)
    title.textContent = `${named}${v.you === null ? (token ? ` ${t("table.link_refused")}` : ` (${t("table.spectator")})`) : ""}`;
    title.dataset.id = id;
    title.dataset.you = v.you === null ? "" : String(v.you);
  }

  function render(): void {
    if (!view) return;
    const v = view;
    renderTitle(v);
    const over = statusOf(v) === "over";
    document.body.classList.toggle("table-over", over);
    connection.hidden = over;
    if (v.you !== null && token)
      rememberTable({
        id,
        game: v.game,
        seat: v.you,
        token,
        name: v.seats[v.you]?.name ?? null,
        at: Date.now(),
        what: v.rumis ? { scenario: v.rumis.scenario.name } : { rules: v.rummikub?.rules.name ?? "current" },
        seats: v.seats.map((s) => ({ seat: s.seat, name: s.name, kind: s.kind, bot: s.bot, claimed: s.claimed })),
      });
    renderTurn(v);
    renderSeats(v);
    renderTrouble(v);
    renderWaiting(v);
    renderTakeBack(v);
    renderFairness(v);
    contrastBox.hidden = v.game !== "rumis";

    result.hidden = !v.over;
    clear(result);
    if (v.over && v.result) result.append(...endPanel(v).filter((x): x is HTMLElement => x !== null));
    renderJoin(v);
    void renderTakeSeat(takeSeatBox, v, id, (seatToken, seat, name) => sitAs(seatToken, seat, name));
    renderMyLink(v);

    if (game) game.update(v);
    else if (!gameLoading) {
      gameLoading = true;
      const made = v.game === "rumis" ? rumisUI(gameBox, ctx) : Promise.resolve<GameUI>(new RummikubUI(gameBox, ctx));
      made
        .then((ui) => {
          game = ui;
          ui.messageSlot?.append(errorBox);
          if (view) game.update(view);
        })
        .catch((e) => ctx.error(t("table.cannot_load", { error: (e as Error).message })));
    }
  }

  // The hand-over countdowns tick every second; a full render when one reaches zero.
  const ticker = window.setInterval(() => {
    let due = false;
    for (const el of seats.querySelectorAll<HTMLElement>("[data-handover-ms]")) {
      const left = Number(el.dataset.handoverMs) - Date.now();
      if (left <= 0) due = true;
      else el.textContent = ` · ${t("table.handover_in", { what: el.dataset.what ?? "", secs: seconds(left) })}`;
    }
    if (due) render();
  }, 1000);

  const socket = new TableSocket(
    id,
    token,
    (v) => accept(v, true),
    (message, code, why) => (token && code && REFUSED_TOKEN.includes(code) ? dropToken(message, code) : code === "no_table" ? gone() : ctx.error(message, code, why)),
    (state) => {
      connection.dataset.state = state;
      connectionText.textContent = state === "open" ? t("table.live") : state === "connecting" ? t("table.connecting") : t("table.reconnecting");
    },
  );
  if (notice) ctx.error(notice);
  refresh();
}
