// The table page: the live connection, seats, whose turn (or whom the table waits for),
// hand a seat to a bot and take it back, the fairness commitment, result, errors; the
// game's own view (Rumis or Rummikub) is mounted below and fed every new view. Rumis
// (and three.js with it) is loaded only when the table is a Rumis table.
//
// The state (state.ts: view, token, meta, socket, timers, one teardown) is apart from
// the views that draw it (status.ts, seats.ts, boxes.ts, end.ts); this module lays the
// page out and wires the two.
import { forgetMyTable, forgetToken, rememberTable, statusOf, storeToken, type Reason } from "../api";
import { contrastToggle } from "../contrast";
import { clear, h } from "../dom";
import { t } from "../i18n/i18n";
import { reason, ruleHref } from "../i18n/server";
import { showNotFound } from "../notfound";
import { RummikubUI } from "../rummikub/ui";
import { renderTakeSeat } from "../table-account";
import { TurnSignal } from "../turn";
import { FairnessSlot, JoinBox, renderMyLink, TakeBackBox } from "./boxes";
import { EndPanel } from "./end";
import { rumisUI, type GameContext, type GameUI } from "./game";
import { SeatsView } from "./seats";
import { TableState, type TablePage } from "./state";
import { renderTitle, renderTrouble, renderTurn, renderWaiting } from "./status";

/** How long a message stays on the page. */
const MESSAGE_MS = 15000;

export function showTable(app: HTMLElement, id: string, token: string | null, notice: string | null = null): void {
  clear(app);
  document.body.classList.add("table-page");
  // (its words in a span: on a phone a live connection is a dot)
  const connectionText = h("span", { className: "connection-text" }, t("table.connecting"));
  const connection = h("span", { className: "connection", testid: "connection", "data-state": "connecting" }, connectionText);
  const turn = h("div", { className: "turn", testid: "turn-status", "aria-live": "polite" }, t("common.loading"));
  const waitingBox = h("div", { className: "waiting", testid: "waiting-box", hidden: true });
  const troubleBox = h("div", { className: "bot-trouble", testid: "bot-trouble", role: "status", hidden: true });
  const errorBox = h("div", { className: "error", testid: "error", role: "alert", hidden: true });
  // A seat kept for the signed-in account: taken with one button.
  const takeSeatBox = h("div", { className: "take-seat", testid: "take-seat-box", hidden: true });
  const myLink = h("div", { className: "my-link" });
  const gameBox = h("div", { className: "game-box", testid: "game-box" });
  const title = h("h1", { className: "table-title", testid: "table-title" }, t("table.title_plain", { id }));
  // Your turn in the tab's title and favicon, and (if asked for) by sound and notification.
  const signal = new TurnSignal();
  signal.controls.hidden = true;
  // (the game's own part of the strip: the Rummikub clock)
  const stripSlot = h("div", { className: "strip-slot" });

  let game: GameUI | null = null;
  let gameLoading = false;
  const cancelMessage: { run: (() => void) | null } = { run: null };

  const showMessage = (message: string, code?: string | null, why?: Reason | null): void => {
    errorBox.hidden = false;
    clear(errorBox);
    const said = reason(message, code, why);
    errorBox.append(h("span", { className: "error-text", testid: "error-text", title: said.text }, ...said.nodes));
    if (said.rule) {
      errorBox.dataset.rule = said.rule;
      errorBox.append(" ", h("a", { href: ruleHref(said.rule), target: "_blank", testid: "why-link", className: "why" }, t("table.why", { rule: said.rule })));
    } else delete errorBox.dataset.rule;
    if (code) errorBox.dataset.code = code;
    else delete errorBox.dataset.code;
    if (why) errorBox.dataset.why = why.code;
    else delete errorBox.dataset.why;
    cancelMessage.run?.();
    cancelMessage.run = state.after(MESSAGE_MS, () => (errorBox.hidden = true));
  };
  const clearMessage = (): void => {
    errorBox.hidden = true;
  };

  /** Goes on as the seat of `seatToken` (found by the session, or just taken). */
  const sitAs = (seatToken: string, seat: number | null, name: string | null): void => {
    storeToken(id, seatToken);
    if (seat !== null) rememberTable({ id, game: state.view?.game ?? "", seat, token: seatToken, name, at: Date.now() });
    showTable(app, id, seatToken);
  };

  const state: TableState = new TableState(id, token, {
    view: () => render(),
    meta: () => {
      // The bots' levels name their seats now; the game's own view (which may be in
      // the middle of a drag) takes the names with the next view.
      const v = state.view;
      if (!v) return;
      renderTitle(title, signal, v, id, token);
      renderTurn(turn, signal, v);
      seats.render(v);
      takeBack.render(v);
    },
    error: showMessage,
    clearError: clearMessage,
    connection: (s) => {
      connection.dataset.state = s;
      connectionText.textContent = s === "open" ? t("table.live") : s === "connecting" ? t("table.connecting") : t("table.reconnecting");
    },
    // A seat token the server does not take (another table's, mistyped, or an invite
    // link's that was used already): forget it and watch instead, saying why.
    refused: (message, code) => {
      forgetToken(id);
      forgetMyTable(id);
      showTable(app, id, null, code === "seat_taken" ? t("table.seat_taken") : t("table.bad_token", { message: reason(message, code).text }));
    },
    // A table the server does not know: say so, stop reconnecting, link to the lobby.
    gone: () => {
      forgetMyTable(id);
      showNotFound(app, "table", id);
    },
    seated: sitAs,
    failed: (e) => {
      turn.textContent = "";
      page.showError(e);
    },
  });
  const page: TablePage = {
    state,
    render: () => render(),
    showError: (e) => state.showError(e),
    clearError: clearMessage,
  };
  state.onStop(() => signal.destroy());
  state.onStop(() => game?.destroy());

  const seats = new SeatsView(page);
  const takeBack = new TakeBackBox(page);
  const join = new JoinBox(page);
  const fairness = new FairnessSlot(id);
  const end = new EndPanel(page);

  // The board is the screen: one line of players above it, everything else at the
  // table in the menu below it (the ☰ button leads there).
  const menuTitle = h("h2", { className: "table-menu-title", id: "table-menu-title", tabindex: -1 }, t("table.menu_title"));
  // The stones' patterns: Rumis only (Rummikub's tiles carry their numbers).
  const contrastBox = h("div", { className: "contrast-setting", hidden: true }, contrastToggle());
  const menu = h(
    "section",
    { className: "table-menu", id: "table-menu", testid: "table-menu", "aria-labelledby": "table-menu-title" },
    menuTitle,
    signal.controls,
    contrastBox,
    seats.handOwn,
    seats.list,
    seats.renameBox,
    fairness.box,
    myLink,
  );
  const menuButton = h("button", { className: "menu-button", testid: "table-menu-button", "aria-controls": "table-menu", "aria-label": t("table.menu"), title: t("table.menu") }, "☰");
  menuButton.addEventListener(
    "click",
    () => {
      menu.scrollIntoView({ block: "start" });
      menuTitle.focus({ preventScroll: true });
    },
    { signal: state.signal },
  );
  app.append(
    h("div", { className: "table-strip", testid: "table-strip" }, menuButton, title, connection, turn, seats.strip, stripSlot),
    h("div", { className: "table-side" }, troubleBox, waitingBox, takeBack.box, end.box, join.box, takeSeatBox),
    errorBox,
    gameBox,
    menu,
  );

  const ctx: GameContext = {
    id,
    token,
    strip: stripSlot,
    current: () => state.view,
    error: showMessage,
    clearError: clearMessage,
    act: (action) => state.act(action),
  };

  function render(): void {
    const v = state.view;
    if (!v || !state.running) return;
    renderTitle(title, signal, v, id, token);
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
    renderTurn(turn, signal, v);
    seats.render(v);
    renderTrouble(troubleBox, v);
    renderWaiting(waitingBox, v, id);
    takeBack.render(v);
    fairness.render(v);
    contrastBox.hidden = v.game !== "rumis";
    end.render(v);
    join.render(v);
    void renderTakeSeat(takeSeatBox, v, id, (seatToken, seat, name) => {
      if (!state.running) return;
      state.stop();
      sitAs(seatToken, seat, name);
    });
    renderMyLink(myLink, v, id, token);

    if (game) game.update(v);
    else if (!gameLoading) {
      gameLoading = true;
      const made = v.game === "rumis" ? rumisUI(gameBox, ctx) : Promise.resolve<GameUI>(new RummikubUI(gameBox, ctx));
      made
        .then((ui) => {
          // (the page went on elsewhere while the Rumis chunk loaded)
          if (!state.running) return ui.destroy();
          game = ui;
          ui.messageSlot?.append(errorBox);
          if (state.view) ui.update(state.view);
        })
        .catch((e) => showMessage(t("table.cannot_load", { error: (e as Error).message })));
    }
  }

  // The hand-over countdowns tick every second; a full render when one reaches zero.
  state.every(1000, () => {
    if (seats.tick()) render();
  });
  state.start();
  if (notice) showMessage(notice);
}
