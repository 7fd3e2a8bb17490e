// Rummikub at the table: the rack and the table with drag and drop (and click to move),
// invalid sets marked while working, reset / end turn / draw, the server's countdown,
// opponents' rack sizes, round scores and the next round.
import { api, ApiError, statusOf, type HintPlay, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import type { GameContext, GameUI } from "../table";
import { byColour, byNumber, COLOUR_NAMES, parseTile, setProblem } from "./sets";

interface WorkTile {
  id: number;
  code: string;
  /** Came from the player's rack this turn (may go back to the rack). */
  fromRack: boolean;
}

type SortMode = "none" | "colour" | "number";
type Place = { kind: "set"; index: number; before: number | null } | { kind: "new" } | { kind: "rack"; before: number | null };

export class RummikubUI implements GameUI {
  private view: TableView | null = null;
  private sets: WorkTile[][] = [];
  private rack: WorkTile[] = [];
  private baseKey = "";
  private sort: SortMode = "none";
  private selected: number | null = null;
  private busy = false;
  private timer: number;

  private info = h("div", { className: "rk-info", testid: "rk-info" });
  private countdown = h("span", { className: "countdown", testid: "countdown" });
  private players = h("div", { className: "rk-players", testid: "rk-players" });
  private tableBox = h("div", { className: "rk-table", testid: "table" });
  private rackBox = h("div", { className: "rk-rack", testid: "rack" });
  private controls = h("div", { className: "rk-controls" });
  private roundBox = h("div", { className: "round-over", testid: "round-over", hidden: true });
  private last = h("div", { className: "last muted", testid: "last" });
  private hintBox = h("div", { className: "hint", testid: "hint", hidden: true });

  constructor(
    root: HTMLElement,
    private ctx: GameContext,
  ) {
    root.append(
      h("div", { className: "rk-top" }, this.info, this.countdown),
      this.players,
      this.last,
      this.roundBox,
      h("h3", {}, "Table"),
      this.tableBox,
      h("h3", {}, "Your rack"),
      this.rackBox,
      this.controls,
      this.hintBox,
    );
    this.timer = window.setInterval(() => this.tick(), 250);
  }

  destroy(): void {
    window.clearInterval(this.timer);
  }

  private myTurn(): boolean {
    const v = this.view;
    return !!v && statusOf(v) === "playing" && v.you !== null && v.to_move === v.you && !v.rummikub?.round_over;
  }

  update(view: TableView): void {
    this.view = view;
    const rk = view.rummikub!;
    const key = JSON.stringify([view.version, rk.rack ?? null, rk.table, view.to_move]);
    if (key !== this.baseKey) {
      this.baseKey = key;
      this.resetWork();
      this.hintBox.hidden = true;
    }
    this.render();
  }

  private resetWork(): void {
    const rk = this.view!.rummikub!;
    let id = 0;
    this.sets = rk.table.map((set) => set.map((code) => ({ id: id++, code, fromRack: false })));
    this.rack = (rk.rack ?? []).map((code) => ({ id: id++, code, fromRack: true }));
    this.selected = null;
    this.applySort();
  }

  private applySort(): void {
    if (this.sort === "colour") this.rack.sort((a, b) => byColour(a.code, b.code));
    if (this.sort === "number") this.rack.sort((a, b) => byNumber(a.code, b.code));
  }

  private changed(): boolean {
    return this.rack.length !== (this.view?.rummikub?.rack ?? []).length || JSON.stringify(this.sets.map((s) => s.map((t) => t.code))) !== JSON.stringify(this.view?.rummikub?.table ?? []);
  }

  private tick(): void {
    const v = this.view;
    if (!v) return;
    if (v.deadline_ms === null || v.over || statusOf(v) === "waiting") {
      const clock = v.rummikub?.rules.turn_seconds;
      this.countdown.textContent =
        clock === null ? "no clock" : statusOf(v) === "waiting" && clock ? `${clock} s a turn, from when every seat is taken` : "";
      this.countdown.dataset.seconds = "";
      return;
    }
    const left = Math.max(0, Math.ceil((v.deadline_ms - Date.now()) / 1000));
    this.countdown.dataset.seconds = String(left);
    this.countdown.textContent = `time left ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    this.countdown.classList.toggle("urgent", left <= 10);
  }

  // ---- moving tiles -------------------------------------------------------------

  private take(id: number): WorkTile | null {
    for (const set of this.sets) {
      const i = set.findIndex((t) => t.id === id);
      if (i >= 0) return set.splice(i, 1)[0];
    }
    const i = this.rack.findIndex((t) => t.id === id);
    return i >= 0 ? this.rack.splice(i, 1)[0] : null;
  }

  private find(id: number): WorkTile | null {
    return [...this.sets.flat(), ...this.rack].find((t) => t.id === id) ?? null;
  }

  private move(id: number, place: Place): void {
    if (!this.myTurn()) return;
    const tile = this.find(id);
    if (!tile) return;
    if (place.kind === "rack" && !tile.fromRack) {
      this.ctx.error("A tile from the table must stay on the table.");
      return;
    }
    // Indexes are read before removal; adjust when the tile moves within the same list.
    let target: WorkTile[] | null = null;
    let before: WorkTile | null = null;
    if (place.kind === "set") {
      target = this.sets[place.index];
      before = place.before !== null ? (target[place.before] ?? null) : null;
    } else if (place.kind === "rack") {
      target = this.rack;
      before = place.before !== null ? (this.rack[place.before] ?? null) : null;
    }
    if (before && before.id === id) return;
    this.take(id);
    if (place.kind === "new") {
      this.sets.push([tile]);
    } else {
      const at = before ? target!.indexOf(before) : -1;
      if (at >= 0) target!.splice(at, 0, tile);
      else target!.push(tile);
    }
    this.sets = this.sets.filter((s) => s.length > 0);
    this.selected = null;
    if (place.kind === "rack") this.applySort();
    this.render();
  }

  private dropTarget(el: HTMLElement, place: () => Place): void {
    el.addEventListener("dragover", (e) => {
      if (!this.myTurn()) return;
      e.preventDefault();
      e.stopPropagation();
      el.classList.add("drag-over");
    });
    el.addEventListener("dragleave", () => el.classList.remove("drag-over"));
    el.addEventListener("drop", (e) => {
      e.preventDefault();
      e.stopPropagation();
      el.classList.remove("drag-over");
      const id = Number(e.dataTransfer?.getData("text/plain"));
      if (!Number.isNaN(id)) this.move(id, place());
    });
    el.addEventListener("click", (e) => {
      if (this.selected === null) return;
      e.stopPropagation();
      this.move(this.selected, place());
    });
  }

  private tileEl(t: WorkTile, where: string, place: Place | null): HTMLElement {
    const tile = parseTile(t.code);
    const el = h(
      "div",
      {
        className: `tile ${tile.joker ? "joker" : "c-" + tile.colour}${t.fromRack && where !== "rack" ? " new" : ""}${this.selected === t.id ? " selected" : ""}`,
        "data-tile": t.code,
        "data-id": t.id,
        testid: `tile-${where}-${t.code}`,
        title: tile.joker ? "joker" : `${COLOUR_NAMES[tile.colour!] ?? tile.colour} ${tile.number}`,
        draggable: this.myTurn() ? "true" : null,
      },
      tile.joker ? "J" : String(tile.number),
    );
    if (this.myTurn()) {
      el.addEventListener("dragstart", (e) => {
        e.dataTransfer?.setData("text/plain", String(t.id));
        if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
        el.classList.add("dragging");
      });
      el.addEventListener("dragend", () => el.classList.remove("dragging"));
      // Click to select a tile, then click where it goes (a tile, a set, the rack).
      el.addEventListener("click", (e) => {
        if (this.selected !== null && this.selected !== t.id) return; // a drop target, below
        e.stopImmediatePropagation();
        this.selected = this.selected === t.id ? null : t.id;
        this.render();
      });
      if (place) this.dropTarget(el, () => place);
    }
    return el;
  }

  // ---- actions ------------------------------------------------------------------

  private async send(action: Parameters<GameContext["act"]>[0]): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.ctx.act(action);
    } finally {
      this.busy = false;
    }
  }

  private endTurn(): void {
    const table = this.sets.filter((s) => s.length > 0).map((s) => s.map((t) => t.code));
    this.send({ type: "play", table });
  }

  // ---- rendering ----------------------------------------------------------------

  private render(): void {
    const v = this.view;
    if (!v) return;
    const rk = v.rummikub!;
    const mine = this.myTurn();
    this.tick();

    clear(this.info);
    this.info.append(
      h("span", { testid: "round" }, `Round ${rk.round} of ${rk.rounds}`),
      h("span", { testid: "pool-size" }, `Pool: ${rk.pool_size}`),
      h("span", { testid: "rules-name" }, `Rules: ${rk.rules.name} (initial meld ${rk.rules.initial_meld}${rk.rules.run_wraps_around ? ", runs wrap" : ""}${rk.rules.frozen_joker_sets ? ", joker sets frozen" : ""})`),
    );
    this.last.textContent = rk.last ?? "";

    clear(this.players);
    for (const s of v.seats) {
      this.players.append(
        h(
          "div",
          { className: "rk-player" + (v.to_move === s.seat && !v.over ? " to-move" : ""), testid: `rk-player-${s.seat}` },
          h("span", { className: "name" }, seatName(s) + (s.seat === v.you ? " (you)" : "")),
          h("span", { className: "rack-size", testid: `rack-size-${s.seat}` }, `${rk.rack_sizes[s.seat] ?? "?"} tiles`),
          h("span", { className: "muted" }, rk.melded[s.seat] ? "melded" : "not melded"),
          h("span", { className: "total", testid: `total-${s.seat}` }, `total ${rk.totals[s.seat] ?? 0}`),
        ),
      );
    }

    this.roundBox.hidden = !rk.round_over;
    clear(this.roundBox);
    if (rk.round_over) {
      const ro = rk.round_over;
      this.roundBox.append(
        h("h3", {}, `Round ${rk.round} over (${ro.reason}): ${ro.winners.map((w) => seatName(v.seats[w] ?? { seat: w })).join(" and ")} ${ro.winners.length > 1 ? "win" : "wins"}`),
        h(
          "table",
          { className: "scores", testid: "round-scores" },
          h("tr", {}, h("th", {}, "Player"), h("th", {}, "Round"), h("th", {}, "Total")),
          ...v.seats.map((s) => h("tr", {}, h("td", {}, seatName(s)), h("td", {}, String(ro.scores[s.seat] ?? 0)), h("td", {}, String(rk.totals[s.seat] ?? 0)))),
        ),
      );
      if (!v.over && v.you !== null) {
        this.roundBox.append(h("button", { className: "primary", testid: "next-round", onclick: () => this.send({ type: "next_round" }) }, "Next round"));
      }
    }

    // The table: each set, marked when invalid, and a zone for a new set.
    clear(this.tableBox);
    this.tableBox.classList.toggle("active", mine);
    this.sets.forEach((set, index) => {
      const problem = setProblem(
        set.map((t) => t.code),
        rk.rules,
      );
      const el = h("div", {
        className: "set" + (problem ? " invalid" : ""),
        testid: `set-${index}`,
        "data-valid": String(!problem),
        "data-tiles": set.map((t) => t.code).join(" "),
        title: problem ? `This set ${problem}` : "valid set",
      });
      set.forEach((t, i) => el.append(this.tileEl(t, "table", { kind: "set", index, before: i })));
      if (problem) el.append(h("span", { className: "problem", testid: `set-problem-${index}` }, problem));
      this.dropTarget(el, () => ({ kind: "set", index, before: null }));
      this.tableBox.append(el);
    });
    if (mine) {
      const zone = h("div", { className: "set new-set", testid: "new-set" }, "+ new set (drop here)");
      this.dropTarget(zone, () => ({ kind: "new" }));
      this.tableBox.append(zone);
    } else if (this.sets.length === 0) {
      this.tableBox.append(h("div", { className: "muted" }, "The table is empty."));
    }

    // The rack.
    clear(this.rackBox);
    if (rk.rack) {
      this.rack.forEach((t, i) => this.rackBox.append(this.tileEl(t, "rack", { kind: "rack", before: i })));
      this.dropTarget(this.rackBox, () => ({ kind: "rack", before: null }));
      this.rackBox.dataset.count = String(this.rack.length);
    } else {
      this.rackBox.append(h("div", { className: "muted" }, v.you === null ? "Spectators see no racks." : ""));
    }

    const invalid = this.sets.some((s) => setProblem(s.map((t) => t.code), rk.rules) !== null);
    clear(this.controls);
    if (rk.rack) {
      this.controls.append(
        h("button", { testid: "sort-colour", onclick: () => ((this.sort = "colour"), this.applySort(), this.render()) }, "Sort by colour"),
        h("button", { testid: "sort-number", onclick: () => ((this.sort = "number"), this.applySort(), this.render()) }, "Sort by number"),
      );
    }
    if (mine) {
      this.controls.append(
        h("button", { testid: "reset-turn", disabled: !this.changed(), onclick: () => (this.resetWork(), this.ctx.clearError(), this.render()) }, "Reset turn"),
        h(
          "button",
          { testid: "end-turn", className: "primary" + (invalid ? " warn" : ""), disabled: !this.changed(), onclick: () => this.endTurn(), title: invalid ? "Some sets are invalid; the server will refuse this table." : "" },
          "End turn",
        ),
        h("button", { testid: "draw", disabled: this.changed(), onclick: () => this.send({ type: "draw" }) }, "Draw a tile"),
      );
      this.controls.append(
        h("button", { testid: "hint-button", title: "The solver's best play: most tiles, then the fewest sets changed", onclick: () => this.showHint() }, "Hint"),
      );
      if (rk.can_claim_redeal) this.controls.append(h("button", { testid: "redeal", onclick: () => this.send({ type: "redeal" }) }, "Three pairs: new deal"));
      if (invalid) this.controls.append(h("span", { className: "warn-text", testid: "invalid-warning" }, "Invalid sets are marked in red."));
    }
  }

  // ---- hint ------------------------------------------------------------------------

  /** Asks the server's solver for this seat's best play and shows it. */
  private async showHint(): Promise<void> {
    this.hintBox.hidden = false;
    clear(this.hintBox);
    this.hintBox.append(h("span", { className: "muted" }, "Working out the best play…"));
    let play: HintPlay | null;
    try {
      play = (await api.hint(this.ctx.id, this.ctx.token)).play;
    } catch (e) {
      clear(this.hintBox);
      this.hintBox.append(h("span", { className: "warn-text" }, e instanceof ApiError ? e.message : String(e)));
      return;
    }
    clear(this.hintBox);
    if (!play) {
      this.hintBox.append(h("span", { testid: "hint-text" }, "No play lays a tile from your rack: draw."));
      return;
    }
    const changed =
      play.changed_sets === 0 ? "no set on the table changes" : play.changed_sets === 1 ? "1 set on the table changes" : `${play.changed_sets} sets on the table change`;
    this.hintBox.append(
      h("span", { testid: "hint-text" }, `Best play: lay ${play.placed.join(" ")} (${play.tiles} tiles, value ${play.value}; ${changed}).`),
      h("button", { testid: "hint-apply", onclick: () => this.applyHint(play) }, "Lay it out"),
    );
  }

  /** Arranges the working table as the hint says; the player still ends the turn. */
  private applyHint(play: HintPlay): void {
    if (!this.myTurn()) return;
    this.resetWork();
    const onTable = this.sets.flat();
    const sets: WorkTile[][] = [];
    for (const codes of play.table) {
      const set: WorkTile[] = [];
      for (const code of codes) {
        // Table tiles stay on the table; the rest come from the rack.
        const fromTable = onTable.findIndex((t) => t.code === code);
        if (fromTable >= 0) {
          set.push(onTable.splice(fromTable, 1)[0]);
          continue;
        }
        const fromRack = this.rack.findIndex((t) => t.code === code);
        if (fromRack < 0) {
          this.ctx.error(`The hint lays ${code}, which is not on your rack any more.`);
          this.resetWork();
          this.render();
          return;
        }
        set.push(this.rack.splice(fromRack, 1)[0]);
      }
      sets.push(set);
    }
    this.sets = sets;
    this.render();
  }
}
