// The analysis board (/analysis): a Rummikub table and rack set up by clicking tiles (or
// typed in the notation of `rumi solve`) and solved by the exact solver; a Rumis record
// replayed on the 3D board, where the strongest bot names its best moves at any point.
import "./analysis.css";
import { api, ApiError, call, type HintPlay } from "../api";
import type { RummikubAnalysis, RumisAnalysis, RumisAnalysisPosition, RumisBestMoves, RumisSuggestion, RumisView, ScenarioMeta } from "../generated/api";
import { clear, h } from "../dom";
import { t, type MessageKey } from "../i18n/i18n";
import { reason } from "../i18n/server";
import { moveEl, tileEl, tileName } from "../pictures";
import { COLOURS } from "../rummikub/sets";
import { notation } from "../rumis/geometry";
import { loadRumisBoard, type RumisBoard, type RumisPosition } from "../rumis/load";

/** Where a record waits for this page (the replay page's "analyse" link puts it here). */
export const RECORD_KEY = "rumi.analysis.record";

export function showAnalysis(app: HTMLElement): void {
  clear(app);
  document.title = `rumi — ${t("analysis.title")}`;
  const rummikub = h("section", { className: "analysis-part", testid: "analysis-rummikub" });
  const rumis = h("section", { className: "analysis-part", testid: "analysis-rumis", hidden: true });
  const tab = (name: "rummikub" | "rumis", label: string) =>
    h("button", { role: "tab", testid: `analysis-tab-${name}`, onclick: () => choose(name) }, label);
  const tabs = { rummikub: tab("rummikub", "Rummikub"), rumis: tab("rumis", "Rumis") };
  const choose = (name: "rummikub" | "rumis") => {
    rummikub.hidden = name !== "rummikub";
    rumis.hidden = name !== "rumis";
    tabs.rummikub.setAttribute("aria-selected", String(name === "rummikub"));
    tabs.rumis.setAttribute("aria-selected", String(name === "rumis"));
    history.replaceState(null, "", name === "rumis" ? "#rumis" : location.pathname);
  };
  app.append(
    h("h1", {}, t("analysis.title")),
    h("p", { className: "muted" }, t("analysis.intro")),
    h("div", { className: "analysis-tabs", role: "tablist" }, tabs.rummikub, tabs.rumis),
    rummikub,
    rumis,
  );
  rummikubBoard(rummikub);
  rumisBoard(rumis);
  const stored = sessionStorage.getItem(RECORD_KEY);
  choose(location.hash === "#rumis" || stored ? "rumis" : "rummikub");
}

/** The tiles of a notation text, in order (`[` and `]` apart). */
function tokens(text: string): string[] {
  return text.replace(/[[\]]/g, " ").split(/\s+/).filter(Boolean);
}

/** The sets of a table text: each bracketed group's tiles. */
function setsOf(text: string): string[][] {
  return [...text.matchAll(/\[([^\]]*)\]/g)].map((m) => tokens(m[1]));
}

function tableText(sets: string[][]): string {
  return sets.map((s) => `[${s.join(" ")}]`).join(" ");
}

/** A tile as drawn, with its notation: `r7`, or `J` for a joker. */
function tileCode(colour: string, n: number): string {
  return `${colour}${n}`;
}

function rummikubBoard(root: HTMLElement): void {
  // (its refusals quote the typed notation: they belong to the notation's boxes)
  const error = h("div", { className: "error", role: "alert", testid: "rk-analysis-error", hidden: true, "data-notation": "" });
  const tableInput = h("input", { type: "text", testid: "rk-analysis-table", spellcheck: "false", placeholder: "[r1 r2 r3] [b5 k5 o5]", "aria-label": t("analysis.table") });
  const rackInput = h("input", { type: "text", testid: "rk-analysis-rack", spellcheck: "false", placeholder: "r4 J b7", "aria-label": t("analysis.rack") });
  const rules = h("select", { testid: "rk-analysis-rules", "aria-label": t("analysis.rules") }, h("option", { value: "current" }, t("analysis.rules_current")), h("option", { value: "old" }, t("analysis.rules_old")));
  const initial = h("input", { type: "checkbox", testid: "rk-analysis-initial" });
  const drawn = h("div", { className: "rk-analysis-drawn", testid: "rk-analysis-drawn" });
  const answer = h("div", { className: "rk-analysis-answer", testid: "rk-analysis-answer", "aria-live": "polite" });
  // Where a clicked tile goes: the rack, or a set of the table (by index).
  let target: "rack" | number = "rack";
  const render = () => {
    clear(drawn);
    const sets = setsOf(tableInput.value);
    const place = (name: "rack" | number, label: string, tiles: string[], remove: (i: number) => void) =>
      h(
        "div",
        { className: `rk-analysis-line${target === name ? " target" : ""}`, testid: name === "rack" ? "rk-analysis-rack-line" : `rk-analysis-set-${name}` },
        h("button", { className: "small", "aria-pressed": String(target === name), onclick: () => ((target = name), render()) }, label),
        h("span", { className: "tile-list" }, ...tiles.map((code, i) => {
          const tile = tileEl(code);
          tile.title = t("analysis.remove_tile", { tile: tileName(code) });
          tile.addEventListener("click", () => remove(i));
          return tile;
        })),
      );
    sets.forEach((set, i) =>
      drawn.append(
        place(i, t("analysis.set_n", { n: i + 1 }), set, (j) => {
          sets[i].splice(j, 1);
          tableInput.value = tableText(sets.filter((s) => s.length > 0));
          if (sets[i].length === 0) target = "rack";
          render();
        }),
      ),
    );
    drawn.append(
      h("button", { className: "small new-set", testid: "rk-analysis-new-set", onclick: () => {
        target = sets.length;
        tableInput.value = tableText([...sets, []]).trim();
        render();
      } }, t("analysis.new_set")),
      place("rack", t("analysis.rack"), tokens(rackInput.value), (j) => {
        const rack = tokens(rackInput.value);
        rack.splice(j, 1);
        rackInput.value = rack.join(" ");
        render();
      }),
    );
  };
  const add = (code: string) => {
    if (target === "rack") rackInput.value = [...tokens(rackInput.value), code].join(" ");
    else {
      const sets = setsOf(tableInput.value);
      while (sets.length <= target) sets.push([]);
      sets[target].push(code);
      tableInput.value = tableText(sets);
    }
    render();
  };
  const palette = h("div", { className: "rk-palette", testid: "rk-palette" });
  for (const colour of COLOURS) {
    const row = h("div", { className: "tile-list" });
    for (let n = 1; n <= 13; n++) {
      const tile = tileEl(tileCode(colour, n));
      tile.setAttribute("role", "button");
      tile.tabIndex = 0;
      tile.addEventListener("click", () => add(tileCode(colour, n)));
      row.append(tile);
    }
    palette.append(row);
  }
  const joker = tileEl("J");
  joker.setAttribute("role", "button");
  joker.addEventListener("click", () => add("J"));
  palette.append(h("div", { className: "tile-list" }, joker));
  tableInput.addEventListener("input", render);
  rackInput.addEventListener("input", render);
  const solve = h("button", { testid: "rk-analysis-solve", className: "primary" }, t("analysis.best_play"));
  solve.addEventListener("click", async () => {
    error.hidden = true;
    clear(answer);
    solve.disabled = true;
    answer.append(h("p", { className: "muted" }, t("analysis.thinking")));
    try {
      const result = await call<RummikubAnalysis>("POST", "/api/analysis/rummikub", {
        table: tableInput.value,
        rack: rackInput.value,
        rules: rules.value,
        initial: initial.checked,
      });
      clear(answer);
      answer.append(playBox("tiles", t("analysis.by_tiles"), result.by_tiles, result.table), playBox("value", t("analysis.by_value"), result.by_value, result.table));
    } catch (e) {
      clear(answer);
      error.hidden = false;
      error.textContent = refusal(e);
    } finally {
      solve.disabled = false;
    }
  });
  root.append(
    h("p", { className: "muted" }, t(touchScreen() ? "analysis.rummikub_help_touch" : "analysis.rummikub_help")),
    palette,
    drawn,
    h("label", { className: "field", "data-notation": "" }, t("analysis.table"), " ", tableInput),
    h("label", { className: "field", "data-notation": "" }, t("analysis.rack"), " ", rackInput),
    h("div", { className: "row" }, rules, h("label", {}, initial, " ", t("analysis.initial")), solve),
    error,
    answer,
  );
  render();
}

/** A best play: what is laid, and the new table with its new or changed sets marked. */
function playBox(name: string, title: string, play: HintPlay | null, before: string[][]): HTMLElement {
  const box = h("div", { className: "rk-play", testid: `rk-analysis-${name}` }, h("h3", {}, title));
  if (!play) {
    box.append(h("p", { testid: `rk-analysis-${name}-none` }, t("analysis.no_play")));
    return box;
  }
  box.dataset.tiles = String(play.tiles);
  box.append(
    h("p", { testid: `rk-analysis-${name}-summary` }, t("analysis.play_summary", { tiles: play.tiles, value: play.value, changed: play.changed_sets })),
    h("div", { className: "tile-list", testid: `rk-analysis-${name}-placed` }, ...play.placed.map(tileEl)),
  );
  const unchanged = before.map((s) => [...s].sort().join(" "));
  for (const set of play.table) {
    const key = [...set].sort().join(" ");
    const at = unchanged.indexOf(key);
    if (at >= 0) unchanged.splice(at, 1);
    box.append(h("div", { className: `rk-play-set${at >= 0 ? "" : " changed"}` }, h("span", { className: "tile-list" }, ...set.map(tileEl))));
  }
  return box;
}

/** A touch screen: its texts say "tap", not "click". */
const touchScreen = () => matchMedia("(pointer: coarse)").matches;

/** A refusal of the server in the page's language: a record's line and what is wrong,
 * an engine's reason with the record's line, or the error code's text. */
function refusal(e: unknown): string {
  if (!(e instanceof ApiError)) return String(e);
  const why = e.why;
  if (why && !why.code.startsWith("record_") && why.params?.line !== undefined) {
    const { line, move, ...rest } = why.params;
    return t("analysis.record_line", { line: String(line), move: String(move), reason: reason(e.message, e.code, { ...why, params: rest }).text });
  }
  return reason(e.message, e.code, why).text;
}

/** A record's header for a board and a player count. */
function header(scenario: string, players: number): string {
  return `game: rumis\nscenario: ${scenario}\nplayers: ${players}\n\n`;
}

/** A record that loads: the first move of a two-player game on the Chullpa board. */
const SAMPLE = `${header("chullpa", 2)}O4 a1:1 b1:1 a2:1 b2:1\n`;

function rumisBoard(root: HTMLElement): void {
  // (its refusals may quote the record's notation)
  const error = h("div", { className: "error", role: "alert", testid: "rumis-analysis-error", hidden: true });
  const showError = (e: unknown) => ((error.hidden = false), (error.textContent = refusal(e)));
  // Playing from a scenario's start: the header and the moves played, sent as a record.
  const scenarioSelect = h("select", { testid: "rumis-analysis-scenario", "aria-label": t("analysis.scenario") });
  const playersSelect = h("select", { testid: "rumis-analysis-players", "aria-label": t("analysis.players") });
  const newBoard = h("button", { testid: "rumis-analysis-new", className: "primary" }, t("analysis.new_board"));
  const undo = h("button", { testid: "rumis-analysis-undo", disabled: true }, t("analysis.undo"));
  const played = h("span", { className: "muted", testid: "rumis-analysis-played" });
  let scenarios: ScenarioMeta[] = [];
  let playHeader = header("chullpa", 2);
  let moves: string[] = [];
  let playUi: RumisBoard | null = null;
  let version = 0;
  const playRecord = () => playHeader + moves.map((m) => m + "\n").join("");
  const playBox = h("div", { className: "game-box", testid: "rumis-analysis-play" });
  const fillPlayers = () => {
    const chosen = scenarios.find((s) => s.key === scenarioSelect.value);
    clear(playersSelect);
    for (const n of chosen?.players ?? [2]) playersSelect.append(h("option", { value: String(n) }, String(n)));
  };
  scenarioSelect.addEventListener("change", fillPlayers);
  /** Shows the position after `next` moves; keeps them only when the server took them. */
  const show = async (next: string[]): Promise<boolean> => {
    error.hidden = true;
    try {
      const answer = await call<RumisAnalysisPosition>("POST", "/api/analysis/rumis/position", { record: playHeader + next.map((m) => m + "\n").join("") });
      moves = next;
      const ui = (playUi ??= await loadRumisBoard(playBox, {
        onPlace: ({ stone, cells }) => show([...moves, notation(stone, cells)]),
        onTypedMove: (text) => show([...moves, text.trim()]),
        onError: (m) => ((error.hidden = false), (error.textContent = m)),
        onClearError: () => (error.hidden = true),
      }));
      ui.set({ rumis: answer.view, version: ++version, you: answer.to_move, toPlay: answer.to_move !== null, over: answer.to_move === null, seats: [], hints: false });
      undo.disabled = moves.length === 0;
      played.textContent = t("analysis.moves_played", { n: moves.length });
      played.dataset.n = String(moves.length);
      mode("play");
      return true;
    } catch (e) {
      showError(e);
      return false;
    }
  };
  newBoard.addEventListener("click", () => {
    playHeader = header(scenarioSelect.value, Number(playersSelect.value));
    void show([]);
  });
  undo.addEventListener("click", () => void show(moves.slice(0, -1)));
  void api.meta().then((meta) => {
    scenarios = meta.rumis.scenarios;
    for (const s of scenarios) scenarioSelect.append(h("option", { value: s.key }, s.name));
    fillPlayers();
    // The empty board at once, unless a record waits to be loaded.
    if (!record.value) newBoard.click();
  }, showError);

  // A record loaded and stepped through.
  const record = h("textarea", { "data-notation": "", testid: "rumis-analysis-record", rows: 6, spellcheck: "false", "aria-label": t("analysis.record") });
  record.value = sessionStorage.getItem(RECORD_KEY) ?? "";
  sessionStorage.removeItem(RECORD_KEY);
  const load = h("button", { testid: "rumis-analysis-load", className: "primary" }, t("analysis.load"));
  const sample = h("button", { testid: "rumis-analysis-sample", onclick: () => ((record.value = SAMPLE), load.click()) }, t("analysis.sample"));
  const board = h("div", { className: "game-box", testid: "rumis-analysis-board" });
  const controls = h("div", { className: "replay-controls" });
  const playControls = h("div", { className: "row", testid: "rumis-analysis-play-controls" }, undo, played);
  const best = h("div", { className: "rumis-analysis-best", testid: "rumis-analysis-best", "aria-live": "polite" });
  let steps: RumisPosition[] = [];
  let index = 0;
  let ui: RumisBoard | null = null;
  let showing: "play" | "record" = "play";
  const mode = (m: "play" | "record") => {
    if (m !== showing) clear(best);
    showing = m;
    // (by style: the rows' own `display` would outdo the `hidden` attribute)
    for (const [el, on] of [[playBox, m === "play"], [playControls, m === "play"], [board, m === "record"], [controls, m === "record"]] as const) el.style.display = on ? "" : "none";
  };
  const counter = h("span", { className: "replay-step", testid: "rumis-analysis-step" });
  const slider = h("input", { type: "range", min: 0, value: 0, testid: "rumis-analysis-slider", "aria-label": t("replay.step_label") });
  const go = (i: number) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    slider.value = String(index);
    counter.textContent = t("replay.step", { i: index, n: steps.length - 1 });
    counter.dataset.index = String(index);
    clear(best);
    ui?.set(steps[index]);
  };
  const ask = h("button", { testid: "rumis-analysis-ask" }, t("analysis.best_moves"));
  controls.append(
    h("button", { onclick: () => go(0) }, t("replay.first")),
    h("button", { testid: "rumis-analysis-prev", onclick: () => go(index - 1) }, t("replay.back")),
    h("button", { testid: "rumis-analysis-next", onclick: () => go(index + 1) }, t("replay.next")),
    h("button", { onclick: () => go(steps.length - 1) }, t("replay.last")),
    slider,
    counter,
    h("button", { testid: "rumis-analysis-play-on", onclick: () => void show(moves) }, t("analysis.play_on")),
  );
  slider.addEventListener("input", () => go(Number(slider.value)));
  let loaded = "";
  load.addEventListener("click", async () => {
    error.hidden = true;
    load.disabled = true;
    try {
      const answer = await call<RumisAnalysis>("POST", "/api/analysis/rumis", { record: record.value });
      loaded = record.value;
      // The board as a spectator sees it: nobody's seat, nobody's turn to act here.
      // A step after the first carries what changed: the cubes and history it keeps of
      // the step before, then its own.
      let before: RumisView | null = null;
      const boards = answer.steps.map((step, i) => {
        const kept = answer.kept[i] ?? { cubes: 0, history: 0 };
        const rumis: RumisView = before === null ? step : {
          ...step,
          cubes: before.cubes.slice(0, kept.cubes).concat(step.cubes),
          history: before.history.slice(0, kept.history).concat(step.history),
        };
        before = rumis;
        return rumis;
      });
      steps = boards.map((rumis, i) => ({ rumis, version: i, you: null, toPlay: false, over: false, seats: [], hints: false }));
      slider.max = String(steps.length - 1);
      mode("record");
      // A move of the list: the first step whose history holds it (as on the replay page).
      const jump = (move: number) => go(steps.findIndex((s) => (s.rumis?.history.length ?? 0) > move));
      if (!ui)
        ui = await loadRumisBoard(board, {
          readOnly: true,
          onError: (m) => ((error.hidden = false), (error.textContent = m)),
          onClearError: () => (error.hidden = true),
          replay: { jump, final: () => steps[steps.length - 1].rumis },
        });
      go(steps.length - 1);
    } catch (e) {
      showError(e);
    } finally {
      load.disabled = false;
    }
  });
  ask.addEventListener("click", async () => {
    error.hidden = true;
    clear(best);
    ask.disabled = true;
    best.append(h("p", { className: "muted", testid: "rumis-analysis-thinking" }, t("analysis.thinking")));
    try {
      const body = showing === "play" ? { record: playRecord() } : { record: loaded, ply: index };
      const answer = await call<RumisBestMoves>("POST", "/api/analysis/rumis/best", body);
      clear(best);
      if (answer.moves.length === 0) best.append(h("p", { testid: "rumis-analysis-none" }, t("analysis.game_over")));
      else best.append(h("p", {}, t("analysis.to_move", { colour: t(`colour.${answer.to_move}` as MessageKey) })), h("ol", {}, ...answer.moves.map((m, i) => moveLine(m, i, answer.to_move))));
    } catch (e) {
      clear(best);
      showError(e);
    } finally {
      ask.disabled = false;
    }
  });
  // (a move is shown on the board as a ghost on a tap, and while pointed at or focused)
  const ghost = (m: RumisSuggestion) => (showing === "play" ? playUi : ui)?.showGhost(m.cells);
  const moveLine = (m: RumisSuggestion, i: number, colour: string | null) =>
    h(
      "li",
      {},
      h(
        "button",
        { className: "small", testid: `rumis-analysis-move-${i}`, "data-move": m.move, title: t("rumis.hint_show"), onclick: () => ghost(m), onmouseenter: () => ghost(m), onfocus: () => ghost(m) },
        moveEl(m.stone, m.cells, colour),
      ),
      " ",
      h("span", { className: "muted", testid: `rumis-analysis-win-${i}` }, t("rumis.hint_win", { pct: Math.round(m.win_chance * 100) })),
    );
  const loader = h(
    "details",
    { className: "rumis-analysis-loader", testid: "rumis-analysis-loader", open: !!record.value },
    h("summary", {}, t("analysis.load_record")),
    h("label", { className: "field" }, t("analysis.record")),
    record,
    h("div", { className: "row" }, load, sample),
  );
  root.append(
    h("p", { className: "muted" }, t(touchScreen() ? "analysis.rumis_help_touch" : "analysis.rumis_help")),
    h("div", { className: "row" }, h("label", {}, t("analysis.scenario"), " ", scenarioSelect), h("label", {}, t("analysis.players"), " ", playersSelect), newBoard),
    loader,
    error,
    controls,
    playControls,
    h("div", { className: "row" }, ask),
    best,
    playBox,
    board,
  );
  mode("play");
  if (record.value) load.click();
}
