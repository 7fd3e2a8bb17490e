// Rummikub at a table (the table page, the tutorial, the puzzles, the replay): the table
// and rack component (board.ts: the tiles moved by drag and drop, click and keyboard)
// fed the table's views, and around it the initial meld's running value, what the last
// turn changed (sets and laid tiles, a bot's turn too) and your drawn tile highlighted
// until your next action, reset / end turn / draw, the server's countdown, rack sizes,
// round scores, next round, the move log and the hint.
import { api, ApiError, statusOf, type HintPlay, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { ClockWarning } from "../turn";
import { lastEvent, lastTiles, reason } from "../i18n/server";
import type { GameContext, GameUI } from "../table";
import { eventLine, MoveLog } from "./log";
import { tileList, tileName, tNodes } from "../pictures";
import { RummikubBoard, setKey } from "./board";
import { loadRules, rulesLoaded } from "./sets";

function count(codes: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

export class RummikubUI implements GameUI {
  private view: TableView | null = null;
  private busy = false;
  private timer: number;
  /** What the last turns changed, shown until this player's next action. */
  private changedSets = new Set<string>();
  private laid = new Map<string, number>();
  private drawn: string | null = null;
  private prevTable: string[][] | null = null;
  private prevRack: string[] | null = null;
  private prevVersion = -1;

  private info = h("div", { className: "rk-info", testid: "rk-info" });
  private countdown = h("span", { className: "countdown", testid: "countdown", role: "timer" });
  /** The last 10 s: the clock turns red and says so once to screen readers. */
  private clockWarning = new ClockWarning();
  private players = h("div", { className: "rk-players", testid: "rk-players" });
  private tableBox = h("div", { className: "rk-table", testid: "table", role: "group", "aria-label": t("rk.table"), "data-area": "board" });
  private rackBox = h("div", { className: "rk-rack", testid: "rack", role: "group", "aria-label": t("rk.your_rack"), "data-area": "rack" });
  private controls = h("div", { className: "rk-controls" });
  private meldBox = h("div", { className: "meld-value", testid: "meld-value", "aria-live": "polite" });
  private roundBox = h("div", { className: "round-over", testid: "round-over", hidden: true });
  private last = h("div", { className: "last", testid: "last", "aria-live": "polite" });
  private hintBox = h("div", { className: "hint", testid: "hint", hidden: true });
  private keyHelp = h("p", { className: "muted key-help", testid: "key-help" }, t("rk.key_help"));
  /** Every turn of the round as a line, kept until the round ends. */
  private log = new MoveLog();
  private logBox = h("ol", { className: "rk-log", testid: "rk-log", tabindex: 0, "aria-label": t("board.log") });
  /** Where the table's messages float: just above the rack. */
  readonly messageSlot = h("div", { className: "msg-slot" });
  private dock = h("div", { className: "rk-dock", testid: "rk-dock" }, this.messageSlot, h("h3", {}, t("rk.your_rack")), this.rackBox, this.meldBox, this.hintBox, this.controls);
  private fitHandler = () => this.fit();
  /** The replay: the log is built from every step up to the one on show. */
  private replaySteps: TableView[] | null = null;
  /** The table and the rack with the player's arrangement. */
  private board = new RummikubBoard(
    { table: this.tableBox, rack: this.rackBox },
    {
      onMove: () => this.acted(),
      onChange: () => (this.renderAround(), this.renderWork()),
      onRefuse: (message) => this.ctx.error(message),
    },
  );

  constructor(
    root: HTMLElement,
    private ctx: GameContext,
  ) {
    // The table above with the last turn under it, the rack docked below (on a phone
    // at the screen's bottom edge), the rest after them; the move log beside (below on a
    // phone). At a table the clock sits in the player strip, the table fills the screen.
    ctx.strip?.append(this.countdown);
    root.append(
      h(
        "div",
        { className: "rk-board" + (ctx.strip ? " fill" : "") },
        h(
          "div",
          { className: "rk-main" },
          h("h3", { className: "visually-hidden" }, t("rk.table")),
          this.tableBox,
          this.last,
          this.roundBox,
          this.dock,
          this.keyHelp,
          h("div", { className: "rk-top" }, this.info, ctx.strip ? null : this.countdown, this.clockWarning.live),
          this.players,
        ),
        h("div", { className: "rk-aside" }, h("h3", { id: "rk-log-title" }, t("board.log")), this.logBox),
      ),
    );
    this.timer = window.setInterval(() => this.tick(), 250);
    window.addEventListener("resize", this.fitHandler);
  }

  destroy(): void {
    window.clearInterval(this.timer);
    window.removeEventListener("resize", this.fitHandler);
  }

  /** At a table the table takes the screen's height left above the rack (at least 40 %
   * of it), and its tiles shrink until every set is in sight (not below 24 px). */
  private fit(): void {
    const box = this.tableBox;
    if (!this.ctx.strip || !box.isConnected) return;
    const H = window.innerHeight;
    const rect = box.getBoundingClientRect();
    // (heights, not places: a sticky dock's place is not where the flow puts it)
    const outer = (e: HTMLElement) => {
      if (e.hidden) return 0;
      const cs = getComputedStyle(e);
      return e.getBoundingClientRect().height + parseFloat(cs.marginTop) + parseFloat(cs.marginBottom);
    };
    // (a phone held sideways: the rack beside the table)
    const beside = this.dock.getBoundingClientRect().left >= rect.right - 1;
    const below = outer(this.last) + outer(this.roundBox) + (beside ? 0 : outer(this.dock)) + parseFloat(getComputedStyle(box).marginBottom);
    const height = Math.max(Math.round(0.4 * H), Math.floor(H - (rect.top + window.scrollY) - below - 6));
    if (box.style.height !== `${height}px`) box.style.height = `${height}px`;
    const base = parseFloat(getComputedStyle(box).getPropertyValue("--tile-w")) || 36;
    const smallest = 24 / base;
    let scale = 1;
    for (const next of [1, 0.9, 0.8, 0.72, 0.64, 0.58, 0.52]) {
      scale = Math.max(next, smallest);
      box.style.setProperty("--s", String(scale));
      if (box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1) break;
    }
    box.dataset.scale = String(scale);
  }

  private myTurn(): boolean {
    const v = this.view;
    return !!v && statusOf(v) === "playing" && v.you !== null && v.to_move === v.you && !v.rummikub?.round_over;
  }

  update(view: TableView): void {
    const rk = view.rummikub!;
    const prev = this.view;
    this.view = view;
    if (view.version !== this.prevVersion) {
      this.noteChanges(prev, view);
      if (this.replaySteps) {
        this.log = new MoveLog();
        for (const step of this.replaySteps) if (step.version <= view.version) this.log.note(step);
        // (in a replay only the step on show is new)
        for (const l of this.log.lines) l.fresh = l.version === view.version;
      } else this.log.note(view);
    }
    const fresh = this.board.set({
      version: view.version,
      table: rk.table,
      rack: rk.rack ?? null,
      rules: rk.rules,
      active: this.myTurn(),
      spectator: view.you === null,
      changedSets: this.changedSets,
      laid: this.laid,
      drawn: this.drawn,
    });
    if (fresh) this.hintBox.hidden = true;
    this.render();
  }

  /** Marks what changed since the last view: the sets that are new or changed, the
   * tiles laid (from `last`, or the table's growth), your drawn tile. */
  private noteChanges(prev: TableView | null, view: TableView): void {
    const rk = view.rummikub!;
    const table = rk.table;
    const rack = rk.rack ?? null;
    const sameRound = prev?.rummikub?.round === rk.round;
    if (this.prevTable && sameRound) {
      const before = count(this.prevTable.map(setKey));
      const tableChanged = setKey(this.prevTable.map(setKey)) !== setKey(table.map(setKey));
      if (tableChanged) {
        this.changedSets.clear();
        this.laid.clear();
        for (const s of table) {
          const k = setKey(s);
          const left = before.get(k) ?? 0;
          if (left > 0) before.set(k, left - 1);
          else this.changedSets.add(k);
        }
        const old = count(this.prevTable.flat());
        for (const c of table.flat()) {
          const n = old.get(c) ?? 0;
          if (n > 0) old.set(c, n - 1);
          else this.laid.set(c, (this.laid.get(c) ?? 0) + 1);
        }
      }
      // Your drawn tile: the rack grew by one (or three: a time-out) without a play.
      if (rack && this.prevRack && rack.length > this.prevRack.length && !tableChanged) {
        const had = count(this.prevRack);
        const extra: string[] = [];
        for (const c of rack) {
          const n = had.get(c) ?? 0;
          if (n > 0) had.set(c, n - 1);
          else extra.push(c);
        }
        this.drawn = extra.length === 1 ? extra[0] : null;
      }
    } else if (!this.prevTable) {
      // First view: the last event's tiles, in the sets that hold them.
      const tiles = lastTiles(rk);
      if (tiles.length) {
        const want = count(tiles);
        for (const s of table) if (s.some((c) => want.has(c))) this.changedSets.add(setKey(s));
        this.laid = want;
      }
    } else {
      this.changedSets.clear();
      this.laid.clear();
      this.drawn = null;
    }
    this.prevTable = table.map((s) => [...s]);
    this.prevRack = rack ? [...rack] : null;
    this.prevVersion = view.version;
  }

  /** The replay's steps (each a version): its log is read from them. With every rack
   * shown by the replay page, the spectator's empty rack goes away. */
  replayOf(steps: TableView[], racksShown: boolean): void {
    this.replaySteps = steps;
    this.dock.hidden = racksShown;
  }

  /** Your own action clears the marks of the last turn. */
  private acted(): void {
    this.log.seen();
    this.changedSets.clear();
    this.laid.clear();
    this.drawn = null;
    this.board.clearMarks();
  }

  private tick(): void {
    const v = this.view;
    if (!v) return;
    // (a replay's step is the past: its deadline has long gone)
    if (this.replaySteps || v.deadline_ms === null || v.over || statusOf(v) === "waiting") {
      const clock = v.rummikub?.rules.turn_seconds;
      this.countdown.textContent = clock === null ? t("rk.no_clock") : statusOf(v) === "waiting" && clock ? t("rk.clock_waiting", { secs: clock }) : "";
      this.countdown.dataset.seconds = "";
      this.clockWarning.update(this.countdown, null, null, false);
      return;
    }
    const left = Math.max(0, Math.ceil((v.deadline_ms - Date.now()) / 1000));
    this.countdown.dataset.seconds = String(left);
    this.countdown.textContent = t("rk.time_left", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
    this.clockWarning.update(this.countdown, left, v.deadline_ms, v.you !== null && v.to_move === v.you);
  }

  // ---- actions ------------------------------------------------------------------

  private async send(action: Parameters<GameContext["act"]>[0]): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.acted();
    try {
      await this.ctx.act(action);
    } finally {
      this.busy = false;
    }
  }

  private endTurn(): void {
    this.send({ type: "play", table: this.board.arrangement() });
  }

  // ---- rendering ----------------------------------------------------------------

  private render(): void {
    // The set checks come from the rules module: the table shows once it has loaded.
    if (!rulesLoaded()) {
      loadRules().then(
        () => this.render(),
        (e) => this.ctx.error(t("rk.rules_failed", { why: String(e) })),
      );
      return;
    }
    this.renderAround();
    this.board.draw();
    this.renderWork();
    this.board.focus();
  }

  /** Everything but the table and the rack: the rules line, the last turn, the log,
   * the players, the round's end. */
  private renderAround(): void {
    const v = this.view;
    if (!v) return;
    const rk = v.rummikub!;
    this.tick();

    clear(this.info);
    this.info.append(
      h("span", { testid: "round" }, t("rk.round", { round: rk.round, rounds: rk.rounds })),
      h("span", { testid: "pool-size" }, t("rk.pool", { n: rk.pool_size })),
      h(
        "span",
        { testid: "rules-name" },
        t("rk.rules_line", { name: t(rk.rules.name === "old" ? "preset.old" : "preset.current"), meld: rk.rules.initial_meld }),
        rk.rules.run_wraps_around ? `, ${t("rk.runs_wrap")}` : "",
        rk.rules.frozen_joker_sets ? `, ${t("rk.frozen")}` : "",
        " ",
        h("a", { href: "/rules/rummikub", target: "_blank" }, t("rules.short")),
      ),
    );
    clear(this.last);
    // The last event's tiles as tiles (colour in words and by a mark), not as codes.
    // (its words in spans: on one line they give way, the tiles stay whole)
    const words = (x: Node | string) => (typeof x === "string" ? (x.trim() ? h("span", { className: "last-text", title: x.trim() }, x) : null) : x);
    const line = rk.last_event ? eventLine(rk.last_event, this.view!.seats.map(seatName)) : [lastEvent(rk, this.view!.seats.map(seatName))];
    this.last.append(...line.map(words).filter((x): x is Node => x !== null));
    this.last.dataset.event = rk.last_event?.code ?? "";
    this.last.dataset.tiles = Array.isArray(rk.last_event?.params?.tiles) ? (rk.last_event.params.tiles as unknown[]).join(" ") : "";
    this.last.dataset.raw = rk.last ?? "";

    this.log.render(this.logBox, v);

    clear(this.players);
    for (const s of v.seats) {
      this.players.append(
        h(
          "div",
          { className: "rk-player" + (v.to_move === s.seat && !v.over ? " to-move" : ""), testid: `rk-player-${s.seat}` },
          h("span", { className: "name" }, seatName(s) + (s.seat === v.you ? ` (${t("common.you")})` : "")),
          h("span", { className: "rack-size", testid: `rack-size-${s.seat}` }, t("rk.tiles", { n: rk.rack_sizes[s.seat] ?? "?" })),
          h("span", { className: "muted" }, rk.melded[s.seat] ? t("rk.melded") : t("rk.not_melded")),
          h("span", { className: "total", testid: `total-${s.seat}` }, t("rk.total", { n: rk.totals[s.seat] ?? 0 })),
        ),
      );
    }

    this.roundBox.hidden = !rk.round_over;
    clear(this.roundBox);
    if (rk.round_over) {
      const ro = rk.round_over;
      const winners = ro.winners.map((w) => seatName(v.seats[w] ?? { seat: w })).join(` ${t("common.and")} `);
      this.roundBox.append(
        h("h3", {}, t(ro.winners.length > 1 ? "rk.round_over_many" : "rk.round_over", { round: rk.round, reason: ro.reason === "rummikub" ? "Rummikub" : t("rk.pool_exhausted"), winners })),
        h(
          "table",
          { className: "scores", testid: "round-scores" },
          h("tr", {}, h("th", { scope: "col" }, t("rumis.player")), h("th", { scope: "col" }, t("rk.round_col")), h("th", { scope: "col" }, t("rk.total_col"))),
          ...v.seats.map((s) => h("tr", {}, h("td", {}, seatName(s)), h("td", {}, String(ro.scores[s.seat] ?? 0)), h("td", {}, String(rk.totals[s.seat] ?? 0)))),
        ),
      );
      if (!v.over && v.you !== null) {
        this.roundBox.append(h("button", { className: "primary", testid: "next-round", onclick: () => this.send({ type: "next_round" }) }, t("rk.next_round")));
      }
    }

  }

  /** What the arrangement decides: the initial meld's value, the buttons, the table's
   * size. */
  private renderWork(): void {
    const v = this.view;
    if (!v) return;
    const rk = v.rummikub!;
    const mine = this.myTurn();
    // The initial meld's value while it is built.
    clear(this.meldBox);
    const melded = v.you !== null ? rk.melded[v.you] : true;
    if (mine && !melded) {
      const value = this.board.meldValue();
      const need = rk.rules.initial_meld;
      this.meldBox.dataset.value = String(value);
      this.meldBox.className = "meld-value" + (value >= need ? " ok" : "");
      this.meldBox.append(t("rk.meld_value", { value, need }), " ", h("a", { href: "/rules/rummikub#K4", target: "_blank" }, t("table.why", { rule: "K4" })));
    } else delete this.meldBox.dataset.value;

    const invalid = this.board.invalid();
    clear(this.controls);
    if (rk.rack) {
      this.controls.append(
        // (short words on a phone, where one row of buttons has no room for the long ones)
        h("button", { testid: "sort-colour", onclick: () => this.board.sortRack("colour") }, h("span", { className: "long" }, t("rk.sort_colour")), h("span", { className: "short" }, t("rk.sort_colour_short"))),
        h("button", { testid: "sort-number", onclick: () => this.board.sortRack("number") }, h("span", { className: "long" }, t("rk.sort_number")), h("span", { className: "short" }, t("rk.sort_number_short"))),
      );
    }
    if (mine) {
      this.controls.append(
        h("button", { testid: "reset-turn", disabled: !this.board.changed(), onclick: () => (this.board.reset(), this.ctx.clearError(), this.render()) }, t("rk.reset")),
        h(
          "button",
          { testid: "end-turn", className: "primary" + (invalid ? " warn" : ""), disabled: !this.board.changed(), onclick: () => this.endTurn(), title: invalid ? t("rk.invalid_title") : "" },
          this.ctx.endTurnLabel ?? t("rk.end_turn"),
        ),
        h("button", { testid: "draw", disabled: this.board.changed(), onclick: () => this.send({ type: "draw" }) }, t("rk.draw")),
      );
      // Only where the table allows hints (a practice table, or its creator chose so).
      if (v.hints) this.controls.append(h("button", { testid: "hint-button", title: t("rk.hint_title"), onclick: () => this.showHint() }, t("rk.hint")));
      if (rk.can_claim_redeal) this.controls.append(h("button", { testid: "redeal", onclick: () => this.send({ type: "redeal" }) }, t("rk.redeal")));
      if (invalid) this.controls.append(h("span", { className: "warn-text", testid: "invalid-warning" }, t("rk.invalid_warning")));
    }
    // (no keyboard on a touch screen: no keyboard help either)
    this.keyHelp.hidden = !mine || matchMedia("(pointer: coarse)").matches;
    this.fit();
  }

  // ---- hint ------------------------------------------------------------------------

  /** Asks the server's solver for this seat's best play and shows it (in the dock: the
   * table makes room for it). */
  private async showHint(): Promise<void> {
    try {
      await this.askHint();
    } finally {
      this.fit();
    }
  }

  private async askHint(): Promise<void> {
    this.hintBox.hidden = false;
    clear(this.hintBox);
    this.hintBox.append(h("span", { className: "muted" }, t("rk.hint_working")));
    this.fit();
    let play: HintPlay | null;
    try {
      play = (await api.hint(this.ctx.id, this.ctx.token)).play;
    } catch (e) {
      clear(this.hintBox);
      // Hints off at this table: the refusal is the table's, said where refusals are.
      if (e instanceof ApiError && e.code === "hints_off") {
        this.hintBox.hidden = true;
        this.ctx.error(e.message, e.code);
        return;
      }
      this.hintBox.append(h("span", { className: "warn-text" }, e instanceof ApiError ? reason(e.message, e.code).text : String(e)));
      return;
    }
    clear(this.hintBox);
    if (!play) {
      this.hintBox.append(h("span", { testid: "hint-text" }, t("rk.hint_draw")));
      return;
    }
    const sets = play.changed_sets === 0 ? t("rk.hint_changed_0") : play.changed_sets === 1 ? t("rk.hint_changed_1") : t("rk.hint_changed_n", { n: play.changed_sets });
    // Past the solver's state limit the play is still best, the fewest changed sets not proven.
    const changed = play.fewest_changed_proven ? sets : t("rk.hint_changed_unproven", { changed: sets });
    this.hintBox.append(
      h("span", { testid: "hint-text", "data-tiles": play.placed.join(" ") }, ...tNodes("rk.hint_text", { tiles: play.tiles, value: play.value, changed }, { tiles_list: tileList(play.placed) })),
      h("button", { testid: "hint-apply", onclick: () => this.applyHint(play) }, t("rk.hint_apply")),
    );
  }

  /** Arranges the working table as the hint says; the player still ends the turn. */
  private applyHint(play: HintPlay): void {
    if (!this.myTurn()) return;
    this.acted();
    // (table tiles stay on the table; the rest come from the rack)
    const gone = this.board.arrange(play.table);
    if (gone) this.ctx.error(t("rk.hint_gone", { tile: tileName(gone) }));
  }
}
