// Rumis at the table: the 3D build, the tray of your stones, turning a stone, the ghost
// (green where legal, red with the server's reason where not), placing on click, live
// scores, whose colour moves, eliminated colours, and a typed-move fallback.
import { api, statusOf, type Cell, type RumisView, type TableView } from "../api";
import { clear, h, seatName } from "../dom";
import type { GameContext, GameUI } from "../table";
import { cellsKey, drop, heightMap, normalise, notation, shapeKey, turn, type HeightMap, type Turn } from "./geometry";
import { colourHex, RumisScene, type Hover } from "./scene";
import { stoneSvg } from "./tray";

interface Verdict {
  legal: boolean;
  reason: string;
}

declare global {
  interface Window {
    __rumis?: {
      columnPoint(x: number, y: number): { x: number; y: number };
      setTopView(on: boolean): void;
    };
  }
}

const TURN_KEYS: Record<string, Turn> = { q: "yaw-", e: "yaw+", w: "pitch-", s: "pitch+", a: "roll-", d: "roll+" };

export class RumisUI implements GameUI {
  private view: TableView | null = null;
  private scene: RumisScene | null = null;
  private heights: HeightMap = [];
  private orientations = new Map<string, Cell[][]>();
  private orientationIndex = new Map<string, Map<string, number>>();
  private legalKeys = new Set<string>();
  private selected: string | null = null;
  private orientation = 0;
  private hover: Hover | null = null;
  private ghost: Cell[] | null = null;
  private verdicts = new Map<string, Verdict>();
  private checkTimer: number | null = null;
  private busy = false;
  private stonesKey = "";

  private viewport = h("div", { className: "rumis-viewport", testid: "rumis-viewport" });
  private scores = h("div", { className: "rumis-scores", testid: "rumis-scores" });
  private tray = h("div", { className: "tray", testid: "tray" });
  private turnControls = h("div", { className: "turn-controls", testid: "turn-controls" });
  private ghostStatus = h("div", { className: "ghost-status", testid: "ghost-status" });
  private moveInput = h("input", { type: "text", testid: "move-input", placeholder: "L4 a1:1 b1:1 c1:1 a2:1  or  L4/7@c3", spellcheck: "false" });
  private history = h("ol", { className: "history", testid: "history" });
  private topButton = h("button", { testid: "top-view" }, "Top view");
  private info = h("div", { className: "rumis-info", testid: "rumis-info" });
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(
    root: HTMLElement,
    private ctx: GameContext,
    private readOnly = false,
  ) {
    const moveForm = h(
      "form",
      { className: "move-form", testid: "move-form" },
      this.moveInput,
      h("button", { type: "submit", testid: "move-submit" }, "Play"),
    );
    moveForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.send({ move: text }).then((ok) => ok && (this.moveInput.value = ""));
    });
    this.topButton.addEventListener("click", () => this.toggleTop());
    root.append(
      h(
        "div",
        { className: "rumis" },
        h("div", { className: "rumis-main" }, this.viewport, h("div", { className: "view-controls" }, this.topButton, h("span", { className: "muted" }, " drag to orbit, wheel to zoom, right-drag to pan · T top view")), this.info),
        h(
          "div",
          { className: "rumis-side" },
          h("h3", {}, "Scores (top view)"),
          this.scores,
          readOnly ? null : h("h3", {}, "Your stones"),
          readOnly ? null : this.tray,
          readOnly ? null : this.turnControls,
          readOnly ? null : this.ghostStatus,
          readOnly ? null : h("h3", {}, "Type a move"),
          readOnly ? null : moveForm,
          h("h3", {}, "Moves"),
          this.history,
        ),
      ),
    );
    try {
      this.scene = new RumisScene(
        this.viewport,
        (hov) => this.onHover(hov),
        (hov) => this.onClick(hov),
      );
      if (!readOnly) {
        window.__rumis = {
          columnPoint: (x, y) => this.scene!.columnPoint(x, y),
          setTopView: (on) => {
            if (this.scene!.isTopView() !== on) this.toggleTop();
          },
        };
      }
    } catch (e) {
      this.viewport.append(h("div", { className: "error", testid: "webgl-error" }, `3D view unavailable (${(e as Error).message}); type moves below.`));
    }
    if (!readOnly) document.addEventListener("keydown", this.keyHandler);
  }

  destroy(): void {
    document.removeEventListener("keydown", this.keyHandler);
    this.scene?.destroy();
  }

  private rumis(): RumisView {
    return this.view!.rumis!;
  }

  private myTurn(): boolean {
    const v = this.view;
    return !this.readOnly && !!v && statusOf(v) === "playing" && v.you !== null && v.to_move === v.you;
  }

  /** The colour whose stones the tray shows: the colour to move on your turn, else your first colour. */
  private trayColour(): string | null {
    const v = this.view!;
    const r = this.rumis();
    if (this.myTurn() && r.to_move_colour) return r.to_move_colour;
    return r.colours.find((c) => c.owner === v.you)?.colour ?? null;
  }

  update(view: TableView): void {
    const prevVersion = this.view?.version;
    this.view = view;
    const r = view.rumis!;
    const sk = r.stones ? JSON.stringify(Object.keys(r.stones)) : this.stonesKey;
    if (r.stones && sk !== this.stonesKey) {
      this.stonesKey = sk;
      this.orientations.clear();
      this.orientationIndex.clear();
      for (const [stone, list] of Object.entries(r.stones)) {
        const norm = list.map((o) => normalise(o));
        this.orientations.set(stone, norm);
        this.orientationIndex.set(stone, new Map(norm.map((o, i) => [shapeKey(o), i])));
      }
    }
    this.legalKeys = new Set((r.legal ?? []).map((p) => `${p.stone}|${cellsKey(p.cells)}`));
    if (prevVersion !== view.version) this.verdicts.clear();
    this.heights = heightMap(r.scenario.width, r.scenario.depth, r.cubes);
    if (this.scene) {
      this.scene.setBoard(r.scenario);
      const stones = r.cubes.map((c) => c.stone ?? -1);
      const last = stones.length && Math.max(...stones) >= 0 ? Math.max(...stones) : null;
      this.scene.setCubes(r.cubes, this.heights, last);
    }
    const colour = this.trayColour();
    const supply = r.colours.find((c) => c.colour === colour)?.supply ?? [];
    if (this.selected && (!supply.includes(this.selected) || !this.myTurn())) this.selected = null;
    this.renderScores();
    this.renderTray();
    this.renderHistory();
    this.updateGhost();
  }

  // ---- panels -------------------------------------------------------------------

  private renderScores(): void {
    const v = this.view!;
    const r = this.rumis();
    clear(this.scores);
    const table = h("table", { className: "scores" }, h("tr", {}, h("th", {}, ""), h("th", {}, "Colour"), h("th", {}, "Player"), h("th", {}, "Stones"), h("th", {}, "Score")));
    for (const c of r.colours) {
      const moving = !v.over && r.to_move_colour === c.colour;
      const owner = c.owner === null ? "neutral" : seatName(v.seats[c.owner] ?? { seat: c.owner });
      table.append(
        h(
          "tr",
          { className: (moving ? "to-move" : "") + (c.out ? " out" : ""), testid: `colour-${c.colour}`, "data-out": String(c.out) },
          h("td", {}, moving ? "▶" : ""),
          h("td", {}, h("span", { className: "swatch", style: `background:#${colourHex(c.colour).toString(16).padStart(6, "0")}` }), " ", c.colour, c.out ? h("span", { className: "badge", testid: `out-${c.colour}` }, "out") : null),
          h("td", {}, owner + (c.owner !== null && c.owner === v.you ? " (you)" : "")),
          h("td", { testid: `supply-${c.colour}` }, String(c.supply.length)),
          h("td", { className: "score", testid: `score-${c.colour}` }, String(c.score)),
        ),
      );
    }
    this.scores.append(table);
    clear(this.info);
    this.info.append(
      ...[
      h("span", { testid: "scenario-name" }, `${r.scenario.name}, ${r.players} players${r.variant !== "standard" ? ", " + r.variant : ""}`),
      h("span", { testid: "cube-count", "data-count": r.cubes.length }, ` · ${r.cubes.length} cubes placed`),
      !v.over && r.to_move_colour ? h("span", { testid: "to-move-colour" }, ` · ${r.to_move_colour} to move`) : "",
      ],
    );
  }

  private renderTray(): void {
    const r = this.rumis();
    const colour = this.trayColour();
    clear(this.tray);
    if (!colour) {
      this.tray.append(h("div", { className: "muted" }, "Spectators have no stones."));
      return;
    }
    const supply = r.colours.find((c) => c.colour === colour)?.supply ?? [];
    const mine = this.myTurn();
    this.tray.dataset.colour = colour;
    if (supply.length === 0) this.tray.append(h("div", { className: "muted" }, "No stones left."));
    for (const stone of supply) {
      const list = this.orientations.get(stone);
      const shape = list?.[stone === this.selected ? this.orientation : 0];
      const legalCount = [...this.legalKeys].filter((k) => k.startsWith(stone + "|")).length;
      const b = h(
        "button",
        {
          className: "tray-stone" + (stone === this.selected ? " selected" : "") + (mine && r.legal && legalCount === 0 ? " stuck" : ""),
          testid: `tray-stone-${stone}`,
          disabled: !mine,
          title: mine ? `${stone}: ${legalCount} legal placements` : stone,
          onclick: () => this.select(stone),
        },
        shape ? stoneSvg(shape, colourHex(colour), 52) : null,
        h("span", { className: "code" }, stone),
      );
      this.tray.append(b);
    }
    clear(this.turnControls);
    if (mine) {
      const btn = (testid: string, text: string, t: Turn | "next", title: string) =>
        h("button", { testid, title, disabled: !this.selected, onclick: () => (t === "next" ? this.nextOrientation() : this.turnStone(t)) }, text);
      const count = this.selected ? (this.orientations.get(this.selected)?.length ?? 0) : 0;
      this.turnControls.append(
        btn("turn-yaw-left", "⟲ turn", "yaw-", "turn left about the vertical (Q)"),
        btn("turn-yaw-right", "⟳ turn", "yaw+", "turn right about the vertical (E)"),
        btn("turn-pitch-back", "⤒ tilt", "pitch-", "tilt back (W)"),
        btn("turn-pitch-fwd", "⤓ tilt", "pitch+", "tilt forward (S)"),
        btn("turn-roll-left", "↶ roll", "roll-", "roll left (A)"),
        btn("turn-roll-right", "↷ roll", "roll+", "roll right (D)"),
        btn("next-orientation", "next", "next", "next orientation (R)"),
        h(
          "span",
          {
            className: "orientation",
            testid: "orientation",
            "data-stone": this.selected ?? "",
            "data-index": this.orientation,
            "data-key": this.selected ? shapeKey(this.orientations.get(this.selected)![this.orientation]) : "",
          },
          this.selected ? `${this.selected} orientation ${this.orientation + 1}/${count}` : "pick a stone",
        ),
      );
    }
  }

  private renderHistory(): void {
    const r = this.rumis();
    clear(this.history);
    r.history.forEach((m, i) => this.history.append(h("li", { testid: `history-${i}` }, m)));
    this.history.scrollTop = this.history.scrollHeight;
  }

  // ---- stone, orientation, ghost -----------------------------------------------

  private select(stone: string): void {
    if (!this.myTurn()) return;
    this.ctx.clearError();
    if (this.selected === stone) {
      this.selected = null;
    } else {
      this.selected = stone;
      this.orientation = 0;
    }
    this.renderTray();
    this.updateGhost();
  }

  private turnStone(t: Turn): void {
    if (!this.selected) return;
    const list = this.orientations.get(this.selected)!;
    const key = shapeKey(turn(list[this.orientation], t));
    const next = this.orientationIndex.get(this.selected)!.get(key);
    if (next !== undefined) this.orientation = next;
    this.renderTray();
    this.updateGhost();
  }

  private nextOrientation(): void {
    if (!this.selected) return;
    const n = this.orientations.get(this.selected)!.length;
    this.orientation = (this.orientation + 1) % n;
    this.renderTray();
    this.updateGhost();
  }

  private toggleTop(): void {
    if (!this.scene) return;
    this.scene.setTopView(!this.scene.isTopView());
    this.topButton.textContent = this.scene.isTopView() ? "3D view" : "Top view";
    this.topButton.dataset.on = String(this.scene.isTopView());
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    const k = e.key.toLowerCase();
    if (k in TURN_KEYS) this.turnStone(TURN_KEYS[k]);
    else if (k === "r") this.nextOrientation();
    else if (k === "t") this.toggleTop();
    else if (k === "escape") {
      this.selected = null;
      this.renderTray();
      this.updateGhost();
    } else return;
    e.preventDefault();
  }

  private onHover(hover: Hover | null): void {
    if (hover && this.hover && hover.x === this.hover.x && hover.y === this.hover.y) return;
    this.hover = hover;
    this.updateGhost();
  }

  private updateGhost(): void {
    const stone = this.selected;
    if (!stone || !this.hover || !this.myTurn()) {
      this.ghost = null;
      this.scene?.setGhost(null, false);
      this.setStatus(stone ? "Point at the build to place the stone." : this.myTurn() ? "Pick a stone from the tray." : "", null);
      return;
    }
    const cells = drop(this.orientations.get(stone)![this.orientation], this.hover.x, this.hover.y, this.heights);
    this.ghost = cells;
    const key = `${stone}|${cellsKey(cells)}`;
    const r = this.rumis();
    if (this.legalKeys.has(key)) {
      this.scene?.setGhost(cells, true);
      this.setStatus(`Legal: ${notation(stone, cells)} — click to place.`, { legal: true, reason: "" }, cells);
      return;
    }
    this.scene?.setGhost(cells, false);
    const { width, depth } = r.scenario;
    if (cells.some(([x, y]) => x < 0 || y < 0 || x >= width || y >= depth)) {
      this.setStatus("Not here: the stone would stick out of the board.", { legal: false, reason: "outside the board" }, cells);
      return;
    }
    const known = this.verdicts.get(key);
    if (known) {
      this.showVerdict(stone, cells, known);
      return;
    }
    this.setStatus(`${notation(stone, cells)}: checking…`, null, cells);
    if (this.checkTimer !== null) window.clearTimeout(this.checkTimer);
    const version = this.view!.version;
    this.checkTimer = window.setTimeout(async () => {
      try {
        const answer = await api.check(this.ctx.id, this.ctx.token, { stone, cells });
        const verdict = { legal: answer.legal, reason: answer.reason ?? "" };
        if (this.view?.version !== version) return;
        this.verdicts.set(key, verdict);
        if (this.ghost && cellsKey(this.ghost) === cellsKey(cells) && this.selected === stone) this.showVerdict(stone, cells, verdict);
      } catch (e) {
        this.setStatus(`Cannot check: ${(e as Error).message}`, null, cells);
      }
    }, 80);
  }

  private showVerdict(stone: string, cells: Cell[], v: Verdict): void {
    // `legal` is the authority for green; a check that says legal (if `legal` was not sent) is trusted too.
    this.scene?.setGhost(cells, v.legal);
    if (v.legal) this.setStatus(`Legal: ${notation(stone, cells)} — click to place.`, v, cells);
    else this.setStatus(`Not here: ${v.reason || "illegal placement"}`, v, cells);
  }

  private setStatus(text: string, verdict: Verdict | null, cells?: Cell[]): void {
    this.ghostStatus.textContent = text;
    this.ghostStatus.dataset.legal = verdict ? String(verdict.legal) : "";
    this.ghostStatus.dataset.reason = verdict?.reason ?? "";
    this.ghostStatus.dataset.move = cells && this.selected ? notation(this.selected, cells) : "";
    this.ghostStatus.className = "ghost-status" + (verdict ? (verdict.legal ? " legal" : " illegal") : "");
  }

  private async onClick(hover: Hover | null): Promise<void> {
    if (!this.myTurn() || !this.selected) return;
    if (hover) this.onHover(hover);
    if (!this.ghost) return;
    const stone = this.selected;
    const cells = this.ghost;
    const key = `${stone}|${cellsKey(cells)}`;
    const verdict = this.legalKeys.has(key) ? { legal: true, reason: "" } : this.verdicts.get(key);
    if (!verdict?.legal) {
      this.ctx.error(`Cannot place ${stone} there${verdict ? ": " + verdict.reason : ""}.`);
      return;
    }
    const ok = await this.send({ stone, cells });
    if (ok) {
      this.selected = null;
      this.updateGhost();
    }
  }

  private async send(action: { move: string } | { stone: string; cells: Cell[] }): Promise<boolean> {
    if (this.busy || this.readOnly) return false;
    this.busy = true;
    try {
      return await this.ctx.act(action);
    } finally {
      this.busy = false;
    }
  }
}
