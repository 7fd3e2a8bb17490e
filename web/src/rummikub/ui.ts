// Rummikub at the table: the rack and the table with drag and drop (mouse and touch),
// click to move and the keyboard (Tab to a tile, Enter to pick it up, arrows to move it,
// Enter on a set to drop it there), invalid sets marked with their full problem, runs
// kept in order, the initial meld's running value, what the last turn changed (sets and
// laid tiles, a bot's turn too) and your drawn tile highlighted until your next action,
// reset / end turn / draw, the server's countdown, rack sizes, round scores, next round.
import { api, ApiError, statusOf, type HintPlay, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { ClockWarning } from "../turn";
import { lastEvent, lastTiles, reason } from "../i18n/server";
import type { GameContext, GameUI } from "../table";
import { byColour, byNumber, loadRules, parseTile, readingOrder, rulesLoaded, setProblem, setValue, tileColourName } from "./sets";
import { eventLine, MARKS, MoveLog } from "./log";

interface WorkTile {
  id: number;
  code: string;
  /** Came from the player's rack this turn (may go back to the rack). */
  fromRack: boolean;
}

type SortMode = "none" | "colour" | "number";
type Place = { kind: "set"; index: number; before: number | null } | { kind: "new" } | { kind: "rack"; before: number | null };

const setKey = (codes: string[]) => [...codes].sort().join(" ");

function count(codes: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

export class RummikubUI implements GameUI {
  private view: TableView | null = null;
  private sets: WorkTile[][] = [];
  private rack: WorkTile[] = [];
  private baseKey = "";
  private sort: SortMode = "none";
  private selected: number | null = null;
  private busy = false;
  private timer: number;
  /** What the last turns changed, shown until this player's next action. */
  private changedSets = new Set<string>();
  private laid = new Map<string, number>();
  private drawn: string | null = null;
  private prevTable: string[][] | null = null;
  private prevRack: string[] | null = null;
  private prevVersion = -1;
  /** The element to focus after a render (keyboard moves). */
  private focusAfter: string | null = null;
  private places = new WeakMap<HTMLElement, () => Place>();

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
    const key = JSON.stringify([view.version, rk.rack ?? null, rk.table, view.to_move]);
    if (key !== this.baseKey) {
      this.baseKey = key;
      this.resetWork();
      this.hintBox.hidden = true;
    }
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
    return this.rack.length !== (this.view?.rummikub?.rack ?? []).length || JSON.stringify(this.sets.map((s) => s.map((x) => x.code))) !== JSON.stringify(this.view?.rummikub?.table ?? []);
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

  // ---- moving tiles -------------------------------------------------------------

  private take(id: number): WorkTile | null {
    for (const set of this.sets) {
      const i = set.findIndex((x) => x.id === id);
      if (i >= 0) return set.splice(i, 1)[0];
    }
    const i = this.rack.findIndex((x) => x.id === id);
    return i >= 0 ? this.rack.splice(i, 1)[0] : null;
  }

  private find(id: number): WorkTile | null {
    return [...this.sets.flat(), ...this.rack].find((x) => x.id === id) ?? null;
  }

  /** Where a tile lies: its set (index) or the rack (-1). */
  private where(id: number): number {
    const s = this.sets.findIndex((set) => set.some((x) => x.id === id));
    return s;
  }

  private move(id: number, place: Place): void {
    if (!this.myTurn()) return;
    const tile = this.find(id);
    if (!tile) return;
    if (place.kind === "rack" && !tile.fromRack) {
      this.ctx.error(t("rk.stays_on_table"));
      return;
    }
    this.acted();
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
    // Runs in order as they are built.
    const rules = this.view!.rummikub!.rules;
    this.sets = this.sets.map((s) => readingOrder(s.map((x) => x.code), rules).map((i) => s[i]));
    this.selected = null;
    if (place.kind === "rack") this.applySort();
    this.render();
  }

  private dropTarget(el: HTMLElement, place: () => Place): void {
    this.places.set(el, place);
    el.dataset.drop = "1";
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

  /** Keyboard: arrows move the picked-up tile (←/→ within its row, ↑/↓ to the set above
   * or below; below the last set a new set, above the first the rack), Escape puts it down. */
  private keyMove(id: number, key: string): boolean {
    const s = this.where(id);
    const list = s >= 0 ? this.sets[s] : this.rack;
    const i = list.findIndex((x) => x.id === id);
    const tile = list[i];
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const j = key === "ArrowLeft" ? i - 1 : i + 1;
      if (j < 0 || j >= list.length) return true;
      [list[i], list[j]] = [list[j], list[i]];
    } else if (key === "ArrowDown" || key === "ArrowUp") {
      const down = key === "ArrowDown";
      if (s < 0) {
        // From the rack: up to the last set, down to a new set.
        if (down || this.sets.length === 0) this.move(id, { kind: "new" });
        else this.move(id, { kind: "set", index: this.sets.length - 1, before: null });
      } else if (down) {
        if (s === this.sets.length - 1) this.move(id, { kind: "new" });
        else this.move(id, { kind: "set", index: s + 1, before: null });
      } else if (s > 0) this.move(id, { kind: "set", index: s - 1, before: null });
      else if (tile.fromRack) this.move(id, { kind: "rack", before: null });
      this.selected = id;
    } else return false;
    this.acted();
    this.focusAfter = `[data-id="${id}"]`;
    this.render();
    return true;
  }

  /** Touch: drag a tile with the finger and drop it where it is let go. */
  private touchDrag(el: HTMLElement, tile: WorkTile, e: PointerEvent): void {
    if (e.pointerType !== "touch" || !this.myTurn()) return;
    const startX = e.clientX;
    const startY = e.clientY;
    let ghost: HTMLElement | null = null;
    const onMove = (m: PointerEvent) => {
      if (!ghost && Math.hypot(m.clientX - startX, m.clientY - startY) < 8) return;
      if (!ghost) {
        ghost = el.cloneNode(true) as HTMLElement;
        ghost.classList.add("touch-ghost");
        document.body.append(ghost);
        el.classList.add("dragging");
      }
      m.preventDefault();
      ghost.style.left = `${m.clientX - 18}px`;
      ghost.style.top = `${m.clientY - 40}px`;
    };
    const onUp = (u: PointerEvent) => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
      if (!ghost) return; // a tap: the click handler selects
      ghost.remove();
      el.classList.remove("dragging");
      let target = document.elementFromPoint(u.clientX, u.clientY) as HTMLElement | null;
      while (target && !this.places.has(target)) target = target.parentElement;
      if (target) this.move(tile.id, this.places.get(target)!());
      else this.render();
      this.suppressClick = true;
    };
    window.addEventListener("pointermove", onMove, { passive: false });
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
  }
  private suppressClick = false;

  private tileEl(x: WorkTile, where: string, place: Place | null, highlight = false): HTMLElement {
    const tile = parseTile(x.code);
    const name = tile.joker ? t("tile.joker") : `${tileColourName(tile.colour!)} ${tile.number}`;
    const mine = this.myTurn();
    const el = h(
      "div",
      {
        className: `tile ${tile.joker ? "joker" : "c-" + tile.colour}${x.fromRack && where !== "rack" ? " new" : ""}${this.selected === x.id ? " selected" : ""}${highlight ? " laid" : ""}${where === "rack" && this.drawn === x.code ? " drawn" : ""}`,
        "data-tile": x.code,
        "data-id": x.id,
        testid: `tile-${where}-${x.code}`,
        title: name,
        role: mine ? "button" : "img",
        "aria-label": name + (this.selected === x.id ? ` (${t("rk.picked_up")})` : ""),
        "aria-pressed": mine ? String(this.selected === x.id) : null,
        tabindex: mine ? 0 : null,
        draggable: mine ? "true" : null,
      },
      h("span", { className: "num", "aria-hidden": "true" }, tile.joker ? "J" : String(tile.number)),
      tile.joker ? null : h("span", { className: "mark", "aria-hidden": "true" }, MARKS[tile.colour!] ?? ""),
    );
    if (mine) {
      el.addEventListener("dragstart", (e) => {
        e.dataTransfer?.setData("text/plain", String(x.id));
        if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
        el.classList.add("dragging");
      });
      el.addEventListener("dragend", () => el.classList.remove("dragging"));
      el.addEventListener("pointerdown", (e) => this.touchDrag(el, x, e));
      // Click to select a tile, then click where it goes (a tile, a set, the rack).
      el.addEventListener("click", (e) => {
        if (this.suppressClick) {
          this.suppressClick = false;
          e.stopImmediatePropagation();
          return;
        }
        if (this.selected !== null && this.selected !== x.id) return; // a drop target, below
        e.stopImmediatePropagation();
        this.selected = this.selected === x.id ? null : x.id;
        this.focusAfter = `[data-id="${x.id}"]`;
        this.render();
      });
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          e.stopPropagation();
          if (this.selected !== null && this.selected !== x.id && place) {
            const moving = this.selected;
            this.focusAfter = `[data-id="${moving}"]`;
            this.move(moving, place);
            return;
          }
          this.selected = this.selected === x.id ? null : x.id;
          this.focusAfter = `[data-id="${x.id}"]`;
          this.render();
        } else if (this.selected === x.id && e.key.startsWith("Arrow")) {
          e.preventDefault();
          e.stopPropagation();
          this.keyMove(x.id, e.key);
        } else if (e.key === "Escape" && this.selected !== null) {
          this.selected = null;
          this.focusAfter = `[data-id="${x.id}"]`;
          this.render();
        }
      });
      if (place) this.dropTarget(el, () => place);
    }
    return el;
  }

  /** A set or zone takes the picked-up tile by Enter too. */
  private keyDrop(el: HTMLElement, place: () => Place): void {
    el.addEventListener("keydown", (e) => {
      if (e.target !== el || (e.key !== "Enter" && e.key !== " ") || this.selected === null) return;
      e.preventDefault();
      const moving = this.selected;
      this.focusAfter = `[data-id="${moving}"]`;
      this.move(moving, place());
    });
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
    const table = this.sets.filter((s) => s.length > 0).map((s) => s.map((x) => x.code));
    this.send({ type: "play", table });
  }

  // ---- rendering ----------------------------------------------------------------

  /** The initial meld's running value: the new sets made only of rack tiles. */
  private meldValue(): number {
    const rules = this.view!.rummikub!.rules;
    let sum = 0;
    for (const s of this.sets) {
      if (!s.every((x) => x.fromRack)) continue;
      sum += setValue(s.map((x) => x.code), rules) ?? 0;
    }
    return sum;
  }

  private render(): void {
    const v = this.view;
    if (!v) return;
    // The set checks come from the rules module: the table shows once it has loaded.
    if (!rulesLoaded()) {
      loadRules().then(
        () => this.render(),
        (e) => this.ctx.error(t("rk.rules_failed", { why: String(e) })),
      );
      return;
    }
    const rk = v.rummikub!;
    const mine = this.myTurn();
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

    // The table: each set, marked when invalid (with its problem), changed sets of the
    // last turn lit up, and a zone for a new set.
    clear(this.tableBox);
    this.tableBox.classList.toggle("active", mine);
    const laid = new Map(this.laid);
    this.sets.forEach((set, index) => {
      const codes = set.map((x) => x.code);
      const problem = setProblem(codes, rk.rules);
      const changedSet = this.changedSets.has(setKey(codes)) && !set.some((x) => x.fromRack && !rk.table.flat().includes(x.code));
      const el = h("div", {
        className: "set" + (problem ? " invalid" : "") + (changedSet ? " changed" : ""),
        testid: `set-${index}`,
        "data-valid": String(!problem),
        "data-changed": String(changedSet),
        "data-tiles": codes.join(" "),
        role: "group",
        "aria-label": t("rk.set_label", { n: index + 1, tiles: codes.join(" ") }) + (problem ? `: ${problem}` : ""),
        tabindex: mine ? 0 : null,
      });
      const row = h("div", { className: "set-tiles" });
      set.forEach((x, i) => {
        let hi = false;
        if (changedSet && (laid.get(x.code) ?? 0) > 0 && !x.fromRack) {
          laid.set(x.code, laid.get(x.code)! - 1);
          hi = true;
        }
        row.append(this.tileEl(x, "table", { kind: "set", index, before: i }, hi));
      });
      el.append(row);
      if (problem) el.append(h("div", { className: "problem", testid: `set-problem-${index}` }, problem));
      const place = (): Place => ({ kind: "set", index, before: null });
      this.dropTarget(el, place);
      this.keyDrop(el, place);
      this.tableBox.append(el);
    });
    if (mine) {
      const zone = h("div", { className: "set new-set", testid: "new-set", tabindex: 0, role: "button" }, t("rk.new_set"));
      this.dropTarget(zone, () => ({ kind: "new" }));
      this.keyDrop(zone, () => ({ kind: "new" }));
      this.tableBox.append(zone);
    } else if (this.sets.length === 0) {
      this.tableBox.append(h("div", { className: "muted" }, t("rk.empty_table")));
    }

    // The rack.
    clear(this.rackBox);
    if (rk.rack) {
      this.rack.forEach((x, i) => this.rackBox.append(this.tileEl(x, "rack", { kind: "rack", before: i })));
      this.dropTarget(this.rackBox, () => ({ kind: "rack", before: null }));
      this.rackBox.dataset.count = String(this.rack.length);
      this.rackBox.dataset.drawn = this.drawn ?? "";
    } else {
      this.rackBox.append(h("div", { className: "muted" }, v.you === null ? t("rk.spectator_rack") : ""));
    }

    // The initial meld's value while it is built.
    clear(this.meldBox);
    const melded = v.you !== null ? rk.melded[v.you] : true;
    if (mine && !melded) {
      const value = this.meldValue();
      const need = rk.rules.initial_meld;
      this.meldBox.dataset.value = String(value);
      this.meldBox.className = "meld-value" + (value >= need ? " ok" : "");
      this.meldBox.append(t("rk.meld_value", { value, need }), " ", h("a", { href: "/rules/rummikub#K4", target: "_blank" }, t("table.why", { rule: "K4" })));
    } else delete this.meldBox.dataset.value;

    const invalid = this.sets.some((s) => setProblem(s.map((x) => x.code), rk.rules) !== null);
    clear(this.controls);
    if (rk.rack) {
      this.controls.append(
        // (short words on a phone, where one row of buttons has no room for the long ones)
        h("button", { testid: "sort-colour", onclick: () => ((this.sort = "colour"), this.applySort(), this.render()) }, h("span", { className: "long" }, t("rk.sort_colour")), h("span", { className: "short" }, t("rk.sort_colour_short"))),
        h("button", { testid: "sort-number", onclick: () => ((this.sort = "number"), this.applySort(), this.render()) }, h("span", { className: "long" }, t("rk.sort_number")), h("span", { className: "short" }, t("rk.sort_number_short"))),
      );
    }
    if (mine) {
      this.controls.append(
        h("button", { testid: "reset-turn", disabled: !this.changed(), onclick: () => (this.resetWork(), this.ctx.clearError(), this.render()) }, t("rk.reset")),
        h(
          "button",
          { testid: "end-turn", className: "primary" + (invalid ? " warn" : ""), disabled: !this.changed(), onclick: () => this.endTurn(), title: invalid ? t("rk.invalid_title") : "" },
          this.ctx.endTurnLabel ?? t("rk.end_turn"),
        ),
        h("button", { testid: "draw", disabled: this.changed(), onclick: () => this.send({ type: "draw" }) }, t("rk.draw")),
      );
      // Only where the table allows hints (a practice table, or its creator chose so).
      if (v.hints) this.controls.append(h("button", { testid: "hint-button", title: t("rk.hint_title"), onclick: () => this.showHint() }, t("rk.hint")));
      if (rk.can_claim_redeal) this.controls.append(h("button", { testid: "redeal", onclick: () => this.send({ type: "redeal" }) }, t("rk.redeal")));
      if (invalid) this.controls.append(h("span", { className: "warn-text", testid: "invalid-warning" }, t("rk.invalid_warning")));
    }
    // (no keyboard on a touch screen: no keyboard help either)
    this.keyHelp.hidden = !mine || matchMedia("(pointer: coarse)").matches;
    this.fit();
    if (this.focusAfter) {
      const el = this.tableBox.parentElement?.querySelector<HTMLElement>(this.focusAfter);
      this.focusAfter = null;
      el?.focus();
    }
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
      h("span", { testid: "hint-text" }, t("rk.hint_text", { tiles_list: play.placed.join(" "), tiles: play.tiles, value: play.value, changed })),
      h("button", { testid: "hint-apply", onclick: () => this.applyHint(play) }, t("rk.hint_apply")),
    );
  }

  /** Arranges the working table as the hint says; the player still ends the turn. */
  private applyHint(play: HintPlay): void {
    if (!this.myTurn()) return;
    this.resetWork();
    this.acted();
    const onTable = this.sets.flat();
    const sets: WorkTile[][] = [];
    for (const codes of play.table) {
      const set: WorkTile[] = [];
      for (const code of codes) {
        // Table tiles stay on the table; the rest come from the rack.
        const fromTable = onTable.findIndex((x) => x.code === code);
        if (fromTable >= 0) {
          set.push(onTable.splice(fromTable, 1)[0]);
          continue;
        }
        const fromRack = this.rack.findIndex((x) => x.code === code);
        if (fromRack < 0) {
          this.ctx.error(t("rk.hint_gone", { tile: code }));
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
