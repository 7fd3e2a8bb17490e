// The replay page: a finished game, step by step (the spectator view after every action).
import { api, ApiError, type Cell, type Fairness, type TableView } from "./api";
import { clear, h, seatName } from "./dom";
import { RummikubUI } from "./rummikub/ui";
import { t } from "./i18n/i18n";
import { lastEvent } from "./i18n/server";
import { copyNotationButton, notationMoveEl, tileEl, tNodes } from "./pictures";
import { eventLine } from "./rummikub/log";
import { showNotFound } from "./notfound";
import { setBots } from "./names";
import { viewTitle } from "./titles";
import { fairnessBox } from "./fairness";
import { resultText, rumisUI, type GameContext, type GameUI } from "./table";

export async function showReplay(app: HTMLElement, id: string): Promise<void> {
  clear(app);
  const error = h("div", { className: "error", testid: "error", role: "alert", hidden: true });
  document.title = `rumi — ${t("replay.title", { id })}`;
  app.append(h("h1", { testid: "replay-title" }, t("replay.title", { id })), error);
  let steps: TableView[];
  let record: string | undefined;
  let racks: string[][][] | undefined;
  let fairness: Fairness | undefined;
  try {
    const answer = await api.replay(id);
    steps = answer.steps;
    record = answer.record;
    fairness = answer.fairness;
    racks = answer.racks;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return showNotFound(app, "table", id);
    error.hidden = false;
    error.textContent = e instanceof ApiError ? e.message : String(e);
    return;
  }
  if (steps.length === 0) {
    error.hidden = false;
    error.textContent = t("replay.no_steps");
    return;
  }
  // Named as the table page names it: the game, its board or rules, the players.
  await api.meta().then(setBots, () => {});
  const named = t("replay.title_named", { title: viewTitle(steps[steps.length - 1]) });
  document.title = `rumi — ${named}`;
  app.querySelector("h1")!.textContent = named;
  const ctx: GameContext = {
    id,
    token: null,
    act: async () => false,
    error: (m) => {
      error.hidden = false;
      error.textContent = m;
    },
    clearError: () => (error.hidden = true),
    current: () => steps[index],
  };
  let index = 0;
  const counter = h("span", { className: "replay-step", testid: "replay-step" });
  const caption = h("div", { className: "replay-caption", testid: "replay-caption" });
  const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, testid: "replay-slider", "aria-label": t("replay.step_label") });
  const box = h("div", { className: "game-box" });
  // Rummikub, after the game: every seat's rack at the step on show.
  const rackBox = h("div", { className: "rk-racks", testid: "replay-racks", role: "group", "aria-labelledby": "replay-racks-title" });
  const go = (i: number) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    show();
  };
  const controls = h(
    "div",
    { className: "replay-controls" },
    h("button", { testid: "replay-first", onclick: () => go(0) }, t("replay.first")),
    h("button", { testid: "replay-prev", onclick: () => go(index - 1) }, t("replay.back")),
    h("button", { testid: "replay-next", onclick: () => go(index + 1) }, t("replay.next")),
    h("button", { testid: "replay-last", onclick: () => go(steps.length - 1) }, t("replay.last")),
    slider,
    counter,
  );
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  });
  // The review of the game (started here, or at once when the end panel's link asked).
  const reviewBox = h("div", { className: "review-box" });
  app.append(controls, caption, box, reviewBox);
  if (racks) app.append(h("h3", { id: "replay-racks-title" }, t("board.racks")), h("p", { className: "muted" }, t("board.racks_note")), rackBox);
  const last = steps[steps.length - 1];
  const fair = fairnessBox(id, fairness ?? last.fairness, true);
  if (fair) app.append(fair);
  if (record) {
    const analyse = () => sessionStorage.setItem("rumi.analysis.record", record!);
    const open = steps[0].game === "rumis" ? h("a", { href: "/analysis#rumis", testid: "replay-analyse", onclick: analyse }, t("analysis.open")) : null;
    // (the record is the notation: shown where the player opens it, and to copy)
    app.append(h("details", { "data-notation": "" }, h("summary", {}, t("replay.record")), h("pre", { testid: "record" }, record), copyNotationButton(() => record!, "copy-record"), " ", open));
  }
  let ui: GameUI;
  try {
    // A move of the Rumis list: the first step whose history holds it.
    const jump = (move: number) => go(steps.findIndex((s) => (s.rumis?.history.length ?? 0) > move));
    if (steps[0].game === "rumis") ui = await rumisUI(box, ctx, true, { jump, final: () => last });
    else {
      const rk = new RummikubUI(box, ctx);
      rk.replayOf(steps, !!racks);
      ui = rk;
    }
  } catch (e) {
    ctx.error(t("table.cannot_load", { error: (e as Error).message }));
    return;
  }
  const better = ui as GameUI & { showBetter?(cells: Cell[] | null): void };
  void import("./review").then((review) => {
    const hooks = { go, ghost: (cells: Cell[] | null) => better.showBetter?.(cells) };
    const start = new URLSearchParams(location.search).has("review");
    reviewBox.append(review.reviewSection(id, last.seats.map(seatName), hooks, start));
  });
  function show(): void {
    const v = steps[index];
    counter.textContent = t("replay.step", { i: index, n: steps.length - 1 });
    counter.dataset.index = String(index);
    slider.value = String(index);
    ui.update(v);
    // What the step did: the stone and where, or the Rummikub turn with its tiles drawn.
    let said: (Node | string)[] = [];
    if (index === 0) said = [t("replay.start")];
    else if (v.game === "rumis") {
      const hist = v.rumis?.history ?? [];
      const last = hist.length ? hist[hist.length - 1] : null;
      const colour = v.rumis?.cubes.find((c) => c.stone === hist.length - 1)?.colour ?? null;
      if (last) said = tNodes("replay.move", { n: hist.length }, { move: notationMoveEl(last, colour) });
    } else if (v.rummikub?.last_event) said = eventLine(v.rummikub.last_event, v.seats.map(seatName));
    else said = [lastEvent(v.rummikub, v.seats.map(seatName))];
    let text = "";
    if (v.over && v.result) text += ` — ${resultText(v)}`;
    else if (v.to_move !== null && v.seats[v.to_move]) text += ` — ${t("table.to_move", { name: seatName(v.seats[v.to_move]) })}`;
    clear(caption);
    caption.append(...said, text);
    if (racks) {
      clear(rackBox);
      v.seats.forEach((seat, i) => {
        const rack = racks![index]?.[i] ?? [];
        rackBox.append(
          h(
            "div",
            { className: "rack-line", testid: `replay-rack-${i}`, "data-tiles": rack.join(" ") },
            h("span", { className: "who" }, t("board.rack_of", { player: seatName(seat) })),
            h("span", { className: "tile-list" }, ...rack.map(tileEl)),
          ),
        );
      });
    }
  }
  show();
}
