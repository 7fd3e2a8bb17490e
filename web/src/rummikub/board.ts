// The Rummikub table and rack, a component with a narrow interface: made with the two
// elements it draws into and a config of callbacks, fed a position with `set` (the
// table, the rack, the rules, whether the player arranges now, what the last turn
// changed), it keeps the player's working arrangement and tells what the player does.
// The tiles move by drag and drop (mouse and touch), by click (a tile, then where it
// goes) and by the keyboard (Tab to a tile, Enter to pick it up, arrows to move it,
// Enter on a set to drop it there); invalid sets are marked with their full problem,
// runs kept in order.
import type { RulesView } from "../generated/api";
import { h } from "../dom";
import { t } from "../i18n/i18n";
import { byColour, byNumber, readingOrder, setProblem, setValue } from "./sets";
import { tileFace, tileNames } from "../pictures";

/** What the table and rack show. */
export interface RummikubPosition {
  /** Changes with every new position (with the rest: the arrangement starts again). */
  version: number;
  table: string[][];
  /** The player's rack; null for a spectator. */
  rack: string[] | null;
  rules: RulesView;
  /** Whether the player arranges tiles now (their turn). */
  active: boolean;
  /** Nobody's rack here: the rack says the player watches. */
  spectator: boolean;
  /** What the last turns changed: sets (their tiles sorted, space-separated) and laid
   * tiles lit up, the player's drawn tile. */
  changedSets: ReadonlySet<string>;
  laid: ReadonlyMap<string, number>;
  drawn: string | null;
}

export interface RummikubBoardConfig {
  /** The player moved a tile (the marks of the last turn are gone then). */
  onMove?(): void;
  /** The arrangement changed and is drawn (the owner updates its buttons). */
  onChange?(): void;
  /** A move refused (a table tile to the rack). */
  onRefuse?(message: string): void;
}

interface WorkTile {
  id: number;
  code: string;
  /** Came from the player's rack this turn (may go back to the rack). */
  fromRack: boolean;
}

export type SortMode = "none" | "colour" | "number";
type Place = { kind: "set"; index: number; before: number | null } | { kind: "new" } | { kind: "rack"; before: number | null };

/** A set's tiles as one key, whatever their order. */
export const setKey = (codes: string[]) => [...codes].sort().join(" ");

export class RummikubBoard {
  private pos: RummikubPosition | null = null;
  private sets: WorkTile[][] = [];
  private rack: WorkTile[] = [];
  private baseKey = "";
  private sort: SortMode = "none";
  private selected: number | null = null;
  /** The marks of the last turn, until the player's own move. */
  private changedSets = new Set<string>();
  private laid = new Map<string, number>();
  private drawn: string | null = null;
  /** The element to focus after a drawing (keyboard moves). */
  private focusAfter: string | null = null;
  private places = new WeakMap<HTMLElement, () => Place>();
  private suppressClick = false;

  constructor(
    private boxes: { table: HTMLElement; rack: HTMLElement },
    private config: RummikubBoardConfig = {},
  ) {
    // (the rack's element stays: a drop target once, not once per drawing)
    this.dropTarget(boxes.rack, () => ({ kind: "rack", before: null }));
  }

  /** Shows a position; true when the working arrangement started again from it (a new
   * version, table or rack), false when the player's arrangement is kept. */
  set(position: RummikubPosition): boolean {
    this.pos = position;
    this.changedSets = new Set(position.changedSets);
    this.laid = new Map(position.laid);
    this.drawn = position.drawn;
    const key = JSON.stringify([position.version, position.rack, position.table, position.active]);
    if (key === this.baseKey) return false;
    this.baseKey = key;
    this.reset();
    return true;
  }

  /** The arrangement as the position has it (the player's moves undone). */
  reset(): void {
    const p = this.pos!;
    let id = 0;
    this.sets = p.table.map((set) => set.map((code) => ({ id: id++, code, fromRack: false })));
    this.rack = (p.rack ?? []).map((code) => ({ id: id++, code, fromRack: true }));
    this.selected = null;
    this.applySort();
  }

  /** The table as the player arranged it (empty sets left out). */
  arrangement(): string[][] {
    return this.sets.filter((s) => s.length > 0).map((s) => s.map((x) => x.code));
  }

  /** Whether the player moved anything. */
  changed(): boolean {
    return this.rack.length !== (this.pos?.rack ?? []).length || JSON.stringify(this.sets.map((s) => s.map((x) => x.code))) !== JSON.stringify(this.pos?.table ?? []);
  }

  /** Whether a set of the arrangement is not valid. */
  invalid(): boolean {
    return this.sets.some((s) => setProblem(s.map((x) => x.code), this.pos!.rules) !== null);
  }

  /** The initial meld's running value: the new sets made only of rack tiles. */
  meldValue(): number {
    const rules = this.pos!.rules;
    let sum = 0;
    for (const s of this.sets) {
      if (!s.every((x) => x.fromRack)) continue;
      sum += setValue(s.map((x) => x.code), rules) ?? 0;
    }
    return sum;
  }

  sortRack(mode: SortMode): void {
    this.sort = mode;
    this.applySort();
    this.redraw();
  }

  /** Lays the table out as `table` says, table tiles staying on the table and the rest
   * from the rack; returns a tile that is in neither (the arrangement is reset then). */
  arrange(table: string[][]): string | null {
    this.reset();
    this.clearMarks();
    const onTable = this.sets.flat();
    const sets: WorkTile[][] = [];
    for (const codes of table) {
      const set: WorkTile[] = [];
      for (const code of codes) {
        const fromTable = onTable.findIndex((x) => x.code === code);
        if (fromTable >= 0) {
          set.push(onTable.splice(fromTable, 1)[0]);
          continue;
        }
        const fromRack = this.rack.findIndex((x) => x.code === code);
        if (fromRack < 0) {
          this.reset();
          this.redraw();
          return code;
        }
        set.push(this.rack.splice(fromRack, 1)[0]);
      }
      sets.push(set);
    }
    this.sets = sets;
    this.redraw();
    return null;
  }

  /** The marks of the last turn go (the player acted). */
  clearMarks(): void {
    this.changedSets.clear();
    this.laid.clear();
    this.drawn = null;
  }

  private applySort(): void {
    if (this.sort === "colour") this.rack.sort((a, b) => byColour(a.code, b.code));
    if (this.sort === "number") this.rack.sort((a, b) => byNumber(a.code, b.code));
  }

  private active(): boolean {
    return !!this.pos?.active;
  }

  /** Draws again after a move of the player's and tells the owner. */
  private redraw(): void {
    this.draw();
    this.config.onChange?.();
    this.focus();
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
    return this.sets.findIndex((set) => set.some((x) => x.id === id));
  }

  /** The player moved: the marks of the last turn go. */
  private acted(): void {
    this.clearMarks();
    this.config.onMove?.();
  }

  private move(id: number, place: Place): void {
    if (!this.active()) return;
    const tile = this.find(id);
    if (!tile) return;
    if (place.kind === "rack" && !tile.fromRack) {
      this.config.onRefuse?.(t("rk.stays_on_table"));
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
    const rules = this.pos!.rules;
    this.sets = this.sets.map((s) => readingOrder(s.map((x) => x.code), rules).map((i) => s[i]));
    this.selected = null;
    if (place.kind === "rack") this.applySort();
    this.redraw();
  }

  private dropTarget(el: HTMLElement, place: () => Place): void {
    this.places.set(el, place);
    el.dataset.drop = "1";
    el.addEventListener("dragover", (e) => {
      if (!this.active()) return;
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
    this.redraw();
    return true;
  }

  /** Touch: drag a tile with the finger and drop it where it is let go. */
  private touchDrag(el: HTMLElement, tile: WorkTile, e: PointerEvent): void {
    if (e.pointerType !== "touch" || !this.active()) return;
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
      else this.redraw();
      this.suppressClick = true;
    };
    window.addEventListener("pointermove", onMove, { passive: false });
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
  }

  private tileEl(x: WorkTile, where: string, place: Place | null, highlight = false): HTMLElement {
    const { className, name, face } = tileFace(x.code);
    const mine = this.active();
    const el = h(
      "div",
      {
        className: `${className}${x.fromRack && where !== "rack" ? " new" : ""}${this.selected === x.id ? " selected" : ""}${highlight ? " laid" : ""}${where === "rack" && this.drawn === x.code ? " drawn" : ""}`,
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
      ...face,
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
        this.redraw();
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
          this.redraw();
        } else if (this.selected === x.id && e.key.startsWith("Arrow")) {
          e.preventDefault();
          e.stopPropagation();
          this.keyMove(x.id, e.key);
        } else if (e.key === "Escape" && this.selected !== null) {
          this.selected = null;
          this.focusAfter = `[data-id="${x.id}"]`;
          this.redraw();
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

  // ---- drawing ------------------------------------------------------------------

  /** Draws the table and the rack: each set, marked when invalid (with its problem),
   * changed sets of the last turn lit up, and a zone for a new set. */
  draw(): void {
    const p = this.pos;
    if (!p) return;
    const mine = this.active();
    const tableBox = this.boxes.table;
    tableBox.replaceChildren();
    tableBox.classList.toggle("active", mine);
    const laid = new Map(this.laid);
    const onTable = p.table.flat();
    this.sets.forEach((set, index) => {
      const codes = set.map((x) => x.code);
      const problem = setProblem(codes, p.rules);
      const changedSet = this.changedSets.has(setKey(codes)) && !set.some((x) => x.fromRack && !onTable.includes(x.code));
      const el = h("div", {
        className: "set" + (problem ? " invalid" : "") + (changedSet ? " changed" : ""),
        testid: `set-${index}`,
        "data-valid": String(!problem),
        "data-changed": String(changedSet),
        "data-tiles": codes.join(" "),
        role: "group",
        "aria-label": t("rk.set_label", { n: index + 1, tiles: tileNames(codes) }) + (problem ? `: ${problem}` : ""),
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
      tableBox.append(el);
    });
    if (mine) {
      const zone = h("div", { className: "set new-set", testid: "new-set", tabindex: 0, role: "button" }, t("rk.new_set"));
      this.dropTarget(zone, () => ({ kind: "new" }));
      this.keyDrop(zone, () => ({ kind: "new" }));
      tableBox.append(zone);
    } else if (this.sets.length === 0) {
      tableBox.append(h("div", { className: "muted" }, t("rk.empty_table")));
    }

    // The rack.
    const rackBox = this.boxes.rack;
    rackBox.replaceChildren();
    if (p.rack) {
      this.rack.forEach((x, i) => rackBox.append(this.tileEl(x, "rack", { kind: "rack", before: i })));
      rackBox.dataset.count = String(this.rack.length);
      rackBox.dataset.drawn = this.drawn ?? "";
    } else {
      rackBox.append(h("div", { className: "muted" }, p.spectator ? t("rk.spectator_rack") : ""));
    }
  }

  /** Focuses the tile a keyboard move asked for (after the owner's layout settled). */
  focus(): void {
    if (!this.focusAfter) return;
    const el = this.boxes.table.parentElement?.querySelector<HTMLElement>(this.focusAfter) ?? this.boxes.rack.querySelector<HTMLElement>(this.focusAfter);
    this.focusAfter = null;
    el?.focus();
  }
}
