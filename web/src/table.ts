// The table page: the live connection, seats, whose turn, result, errors; the game's own
// view (Rumis or Rummikub) is mounted below and fed every new view.
import { api, ApiError, TableSocket, type Action, type Meta, type TableView } from "./api";
import { clear, h, seatName } from "./dom";
import { RumisUI } from "./rumis/ui";
import { RummikubUI } from "./rummikub/ui";

export interface GameContext {
  id: string;
  token: string | null;
  /** Sends an action made on the given view; resolves true if the server accepted it. */
  act(action: Action): Promise<boolean>;
  /** Shows a message for a person (a refusal, a reason). */
  error(message: string): void;
  clearError(): void;
  current(): TableView | null;
}

export interface GameUI {
  update(view: TableView): void;
  destroy(): void;
}

export function showTable(app: HTMLElement, id: string, token: string | null, seatParam: string | null): void {
  clear(app);
  document.body.classList.add("table-page");
  const connection = h("span", { className: "connection", testid: "connection", "data-state": "connecting" }, "connecting…");
  const turn = h("div", { className: "turn", testid: "turn-status" }, "Loading…");
  const seats = h("div", { className: "seat-list", testid: "seat-list" });
  const result = h("div", { className: "result", testid: "result", hidden: true });
  const errorBox = h("div", { className: "error", testid: "error", hidden: true });
  const joinBox = h("div", { className: "join-box", hidden: true });
  const gameBox = h("div", { className: "game-box", testid: "game-box" });
  const title = h("h2", { className: "table-title", testid: "table-title" }, `Table ${id}`);
  app.append(
    h("div", { className: "table-head" }, title, connection, turn),
    h("div", { className: "table-side" }, seats, result, joinBox),
    errorBox,
    gameBox,
  );

  let view: TableView | null = null;
  let game: GameUI | null = null;
  let meta: Meta | null = null;
  api.meta().then((m) => (meta = m)).catch(() => {});

  let errorTimer: number | null = null;
  const ctx: GameContext = {
    id,
    token,
    current: () => view,
    error(message: string) {
      errorBox.hidden = false;
      errorBox.textContent = message;
      if (errorTimer !== null) window.clearTimeout(errorTimer);
      errorTimer = window.setTimeout(() => (errorBox.hidden = true), 15000);
    },
    clearError() {
      errorBox.hidden = true;
    },
    async act(action: Action): Promise<boolean> {
      if (!view) return false;
      try {
        await api.act(id, token, view.version, action);
        ctx.clearError();
        // The socket brings the new view too; fetching it makes the page independent of
        // the socket's timing.
        refresh();
        return true;
      } catch (e) {
        ctx.error(e instanceof ApiError ? e.message : String(e));
        refresh();
        return false;
      }
    },
  };

  function accept(next: TableView): void {
    if (view && next.version < view.version) return;
    view = next;
    render();
  }

  async function refresh(): Promise<void> {
    try {
      accept(await api.view(id, token));
    } catch (e) {
      if (!view) {
        turn.textContent = "";
        ctx.error(e instanceof ApiError ? e.message : String(e));
      }
    }
  }

  function render(): void {
    if (!view) return;
    const v = view;
    document.title = `rumi — ${v.game === "rumis" ? "Rumis" : "Rummikub"} ${id}`;
    title.textContent = `${v.game === "rumis" ? "Rumis" : "Rummikub"} — table ${id}${v.you === null ? (token ? ` (seat ${seatParam ?? "?"}: token not accepted)` : " (spectator)") : ` — seat ${v.you + 1}`}`;
    const myTurn = !v.over && v.you !== null && v.to_move === v.you;
    turn.dataset.myTurn = String(myTurn);
    turn.dataset.version = String(v.version);
    turn.dataset.over = String(v.over);
    turn.className = "turn" + (myTurn ? " mine" : "");
    if (v.over) turn.textContent = "Game over";
    else if (myTurn) turn.textContent = "Your turn";
    else if (v.to_move !== null && v.seats[v.to_move]) turn.textContent = `${seatName(v.seats[v.to_move])} to move`;
    else turn.textContent = "";

    clear(seats);
    for (const s of v.seats) {
      const canHand = !v.over && s.kind === "human" && v.you !== null && (s.seat === v.you || !s.connected);
      const bots = meta ? (v.game === "rumis" ? meta.rumisBots : meta.rummikubBots) : v.game === "rumis" ? ["greedy", "random"] : ["random"];
      const botChoice = h("select", { testid: `hand-bot-choice-${s.seat}`, className: "small" });
      for (const b of bots) botChoice.append(h("option", { value: b }, b));
      seats.append(
        h(
          "div",
          {
            className: "seat" + (v.to_move === s.seat && !v.over ? " to-move" : "") + (s.seat === v.you ? " you" : ""),
            testid: `seat-${s.seat}`,
            "data-kind": s.kind,
            "data-connected": String(s.connected),
          },
          h("span", { className: "marker" }, v.to_move === s.seat && !v.over ? "▶" : ""),
          h("span", { className: "name" }, seatName(s) + (s.seat === v.you ? " (you)" : "")),
          h("span", { className: "muted" }, s.kind === "bot" ? (/bot/i.test(seatName(s)) ? "" : " · bot") : s.claimed ? (s.connected ? " · online" : " · offline") : " · free seat"),
          canHand
            ? h(
                "span",
                { className: "hand" },
                " ",
                botChoice,
                h(
                  "button",
                  {
                    className: "small",
                    testid: `hand-bot-${s.seat}`,
                    onclick: async () => {
                      try {
                        await api.seatToBot(id, token, s.seat, botChoice.value);
                        refresh();
                      } catch (e) {
                        ctx.error((e as Error).message);
                      }
                    },
                  },
                  "hand to bot",
                ),
              )
            : null,
        ),
      );
    }

    result.hidden = !v.over;
    clear(result);
    if (v.over && v.result) {
      result.append(
        h("div", { className: "result-text", testid: "result-text" }, v.result.text),
        h("div", { className: "muted" }, "Scores: " + v.result.scores.map((sc, i) => `${seatName(v.seats[i] ?? { seat: i })} ${sc}`).join(", ")),
        h("a", { href: `/replay/${encodeURIComponent(id)}`, testid: "replay-link" }, "Replay this game"),
      );
    }

    joinBox.hidden = !(v.you === null && !v.over && v.seats.some((s) => s.kind === "human" && !s.claimed));
    if (!joinBox.hidden && !joinBox.firstChild) {
      const name = h("input", { type: "text", placeholder: "your name", testid: "join-name", value: localStorage.getItem("rumi.name") ?? "" });
      joinBox.append(
        name,
        h(
          "button",
          {
            testid: "join-table",
            onclick: async () => {
              try {
                const seat = await api.join(id, name.value.trim() || "guest");
                location.href = `/t/${encodeURIComponent(id)}?seat=${seat.seat}&token=${encodeURIComponent(seat.token)}`;
              } catch (e) {
                ctx.error((e as Error).message);
              }
            },
          },
          "Take a free seat",
        ),
      );
    }

    if (!game) {
      game = v.game === "rumis" ? new RumisUI(gameBox, ctx) : new RummikubUI(gameBox, ctx);
    }
    game.update(v);
  }

  new TableSocket(
    id,
    token,
    (v) => accept(v),
    (message) => ctx.error(message),
    (state) => {
      connection.dataset.state = state;
      connection.textContent = state === "open" ? "live" : state === "connecting" ? "connecting…" : "reconnecting…";
      if (state === "open") refresh();
    },
  );
  refresh();
}
