// The Rumis board, a component with a narrow interface (as chessground is for lichess):
// made with an element and a config (how to check a placement, what to do with one
// placed, where to say a refusal), fed positions with `set` (the build, whose turn, the
// seats' names), it tells what the player does through the config's callbacks. The
// table page, the tutorial and the replay adapt their table views to it (`RumisUI`); the
// solo cube and the analysis board use it directly.
//
// What it shows: the 3D build, the tray of your stones, turning a stone, the move
// finder (columns where the selected stone fits marked from the view's `legal` list,
// orientations that fit first, "next" skipping those that fit nowhere, the ghost snapping
// to the legal placement under the pointer), the ghost (green where legal, red with the
// reason where not), placing on click (touch: first tap shows, second tap or Place
// places), keyboard ghost movement, live scores with stones left, the move list with
// colour and player, the last move of each player highlighted, and typed moves.
import { ApiError, type Cell, type CheckResult, type Placement, type Reason, type RumisView } from "../api";
import type { HintAnswer } from "../generated/api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { colourName, reason, ruleHref } from "../i18n/server";
import { cellsKey, drop, heightMap, normalise, notation, shapeKey, turn, type HeightMap, type Turn } from "./geometry";
import { colourChip, colourHex } from "./palette";
import { liveResources, RumisScene, type Hover, type SceneMemory } from "./scene";
import { stoneSvg } from "./tray";
import { columnName as placeColumn, copyNotationButton, moveEl, moveText, notationMoveEl, readMove, stoneName, tNodes } from "../pictures";

interface Verdict {
  legal: boolean;
  reason: string;
  /** The server's reason, or the client's own for a stone off the board. */
  why?: Reason | (Omit<Reason, "code"> & { code: "off_board" }) | null;
}

declare global {
  interface Window {
    __rumis?: {
      columnPoint(x: number, y: number): { x: number; y: number };
      topViewBoxes(x: number, y: number): { label: DOMRect; symbol: DOMRect };
      hiddenColumn(x: number, y: number): boolean;
      cameraState(): { distance: number; azimuth: number; polar: number };
      setTopView(on: boolean): void;
      firstFrameMs(): number | null;
      /** The board's renderer and materials, and what all boards of the page hold. */
      memory(): SceneMemory & { live: ReturnType<typeof liveResources> };
    };
  }
}

/** What the board shows: one position of a game. */
export interface RumisPosition {
  rumis: RumisView;
  /** Changes with every new position: verdicts, the armed ghost and hints are forgotten. */
  version: number;
  /** The seat whose colours are the player's (null: nobody's, a spectator). */
  you: number | null;
  /** Whether the player places now (their turn in a running game). */
  toPlay: boolean;
  over: boolean;
  /** The seats owning colours by name, and by a short one for one line (a bot's own). */
  seats: { name: string; short: string }[];
  /** Whether suggestions may be asked for. */
  hints: boolean;
}

/** What the board needs and tells. */
export interface RumisBoardConfig {
  /** Nothing is placed here (a replay, the analysis board): no keys, no ghost. */
  readOnly?: boolean;
  /** Without the tray, the turning buttons and Place (nobody's stones to place). */
  spectator?: boolean;
  /** The table page: the board fills the screen's height. */
  fill?: boolean;
  /** Whether a placement is legal now, and why not (the red ghost); without it a
   * placement outside the position's `legal` list is red without a reason. */
  check?(placement: Placement): Promise<CheckResult>;
  /** The player placed a stone; resolves whether it was taken. */
  onPlace?(placement: Placement): Promise<boolean>;
  /** The player typed a move (`L4 a1:1 …`); resolves whether it was taken. */
  onTypedMove?(move: string): Promise<boolean>;
  /** The strongest bot's best moves for "Suggest moves". */
  suggest?(): Promise<HintAnswer>;
  /** A message for the player (a refusal, a reason), with the server's code if any. */
  onError(message: string, code?: string | null, why?: Reason | null): void;
  onClearError(): void;
  /** A replay: every move of the game listed, a click on one shows the game after it. */
  replay?: { jump(move: number): void; final(): RumisView } | null;
}

/** Phones (portrait, and landscape with a low screen): the compact table layout. */
const PHONE = "(max-width: 700px), (max-height: 500px) and (pointer: coarse)";
const LANDSCAPE = "(max-height: 500px) and (pointer: coarse) and (orientation: landscape)";
/** A touch screen: its texts say "tap", not "click". */
const touchScreen = () => matchMedia("(pointer: coarse)").matches;

const TURN_KEYS: Record<string, Turn> = { q: "yaw-", e: "yaw+", w: "pitch-", s: "pitch+", a: "roll-", d: "roll+" };

export class RumisBoard {
  private pos: RumisPosition | null = null;
  private scene: RumisScene | null = null;
  private heights: HeightMap = [];
  private orientations = new Map<string, Cell[][]>();
  private orientationIndex = new Map<string, Map<string, number>>();
  private legalKeys = new Set<string>();
  /** Legal placements of each stone, by orientation index. */
  private legalBy = new Map<string, Map<number, Placement[]>>();
  private selected: string | null = null;
  private orientation = 0;
  private hover: Hover | null = null;
  private ghost: Cell[] | null = null;
  private verdicts = new Map<string, Verdict>();
  private checkTimer: number | null = null;
  private busy = false;
  private stonesKey = "";
  /** Touch: the first tap shows the ghost, the second (or Place) places it. */
  private armed: string | null = null;

  private viewport = h("div", { className: "rumis-viewport", testid: "rumis-viewport", "data-area": "board" });
  private scores = h("div", { className: "rumis-scores", testid: "rumis-scores" });
  private tray = h("div", { className: "tray", testid: "tray", role: "group", "aria-label": t("rumis.your_stones"), "data-area": "rack" });
  private turnControls = h("div", { className: "turn-controls", testid: "turn-controls" });
  private ghostStatus = h("div", { className: "ghost-status", testid: "ghost-status", "aria-live": "polite" });
  private placeButton = h("button", { className: "primary place", testid: "place-button", disabled: true }, t("rumis.place"));
  private moveInput = h("input", { type: "text", testid: "move-input", placeholder: "L4 a1:1 b1:1 c1:1 a2:1", spellcheck: "false", "aria-label": t("rumis.type_move") });
  private history = h("ol", { className: "history", testid: "history", tabindex: 0, "aria-label": t("rumis.moves") });
  private topButton = h("button", { testid: "top-view" }, t("rumis.top_view"));
  private info = h("div", { className: "rumis-info", testid: "rumis-info" });
  private hintButton = h("button", { testid: "rumis-hint", title: t("rumis.hint_title") }, t("rumis.hint"));
  private hintList = h("ol", { className: "rumis-hints", testid: "rumis-hints", hidden: true });
  private hintRow = h("div", { className: "hint-row", testid: "rumis-hint-row" }, this.hintButton, this.hintList);
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private viewControls = h("div", { className: "view-controls" });
  private viewHelp = h("p", { className: "muted view-help", testid: "view-help" }, t(touchScreen() ? "board.view_help_touch" : "rumis.view_help"));
  private placeRow = h("div", { className: "place-row" }, this.ghostStatus, this.placeButton);
  private side = h("div", { className: "rumis-side" });
  /** The last move, drawn, under the board; the board lights its stone up for a moment. */
  private lastMove = h("div", { className: "rumis-last", testid: "last-move", "aria-live": "polite" });
  /** Where the table's messages float: over the board's lower edge. */
  readonly messageSlot = h("div", { className: "msg-slot" });
  private fitHandler = () => this.fitBoard();
  private spectator = false;

  private readOnly: boolean;
  private replay: { jump(move: number): void; final(): RumisView } | null;

  constructor(
    root: HTMLElement,
    private config: RumisBoardConfig,
  ) {
    const readOnly = (this.readOnly = !!config.readOnly);
    const replay = (this.replay = config.replay ?? null);
    const moveForm = h(
      "form",
      { className: "move-form", testid: "move-form" },
      this.moveInput,
      h("button", { type: "submit", testid: "move-submit" }, t("rumis.play")),
    );
    moveForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.send(() => config.onTypedMove?.(text) ?? Promise.resolve(false)).then((ok) => ok && (this.moveInput.value = ""));
    });
    this.topButton.addEventListener("click", () => this.toggleTop());
    this.placeButton.addEventListener("click", () => this.placeGhost());
    this.hintButton.addEventListener("click", () => void this.showHints());
    const spectator = readOnly || !!config.spectator;
    this.spectator = spectator;
    // The board, with the last move under it; beside it (a phone: under it) the tray,
    // the turn buttons and Place; the rest below those.
    const parts: (HTMLElement | null)[] = [
      spectator ? null : h("h3", {}, t("rumis.your_stones")),
      spectator ? null : this.tray,
      spectator ? null : this.turnControls,
      spectator ? null : this.placeRow,
      spectator ? null : this.hintRow,
      this.viewHelp,
      this.info,
      h("h3", {}, t("rumis.scores")),
      this.scores,
      spectator || !config.onTypedMove ? null : h("details", { className: "typed", open: window.innerWidth > 700, "data-notation": "" }, h("summary", {}, t("rumis.type_move")), moveForm),
      h("h3", {}, t(replay ? (touchScreen() ? "board.replay_moves_touch" : "board.replay_moves") : "rumis.moves")),
      this.history,
      // (the moves as the notation writes them, one a line, for who asks for them)
      copyNotationButton(() => (this.replay?.final() ?? this.pos?.rumis)?.history.join("\n") ?? "", "copy-moves"),
    ];
    this.side.append(...parts.filter((x): x is HTMLElement => x !== null));
    root.append(
      h(
        "div",
        { className: "rumis" + (config.fill ? " fill" : "") },
        h("div", { className: "rumis-main" }, this.viewport, this.viewControls, this.messageSlot, this.lastMove),
        this.side,
      ),
    );
    this.viewControls.append(this.topButton);
    window.addEventListener("resize", this.fitHandler);
    try {
      this.scene = new RumisScene(
        this.viewport,
        (hov) => this.onHover(hov),
        (hov, touch) => this.onClick(hov, touch),
      );
      this.scene.canvas.setAttribute("aria-label", t("rumis.canvas_label"));
      this.scene.canvas.setAttribute("role", "img");
      const scene = this.scene;
      this.hooks = {
        memory: () => ({ ...scene.memory(), live: liveResources() }),
        columnPoint: (x, y) => this.scene!.columnPoint(x, y),
        topViewBoxes: (x, y) => this.scene!.topViewBoxes(x, y),
        hiddenColumn: (x, y) => this.scene!.hiddenColumn(x, y),
        cameraState: () => this.scene!.cameraState(),
        setTopView: (on) => {
          if (this.scene!.isTopView() !== on) this.toggleTop();
        },
        firstFrameMs: () => this.scene?.firstFrameMs ?? null,
      };
      window.__rumis = this.hooks;
    } catch (e) {
      this.viewport.append(h("div", { className: "error", testid: "webgl-error" }, t("rumis.no_webgl", { error: (e as Error).message })));
    }
    if (!readOnly) document.addEventListener("keydown", this.keyHandler);
  }

  /** The test hooks of this board (the page's `window.__rumis` while it is shown). */
  private hooks: Window["__rumis"] | null = null;

  destroy(): void {
    window.removeEventListener("resize", this.fitHandler);
    document.removeEventListener("keydown", this.keyHandler);
    if (this.checkTimer !== null) window.clearTimeout(this.checkTimer);
    if (window.__rumis === this.hooks) delete window.__rumis;
    this.scene?.destroy();
    this.scene = null;
  }

  /** The build takes the screen's height left once the tray, the turn buttons and
   * Place are on it too (under it on a phone held upright, else beside it), so that
   * nobody scrolls between a stone and its column. On a desktop only at a table (the
   * tutorial, replay and solo pages keep their fixed board). */
  private fitBoard(): void {
    const phone = matchMedia(PHONE).matches;
    if (!phone && !this.config.fill) {
      this.viewport.style.height = "";
      return;
    }
    const landscape = matchMedia(LANDSCAPE).matches;
    // (at a table on a phone held upright: "Suggest moves" over the board's corner,
    // beside the top view, where it costs the board no row of its own)
    const home = !landscape && phone && this.config.fill ? this.viewControls : this.hintRow;
    if (!this.spectator && this.hintButton.parentElement !== home) home.insertBefore(this.hintButton, home === this.hintRow ? this.hintList : null);
    const board = this.viewport.getBoundingClientRect();
    const shown = (e: HTMLElement) => e.isConnected && !e.hidden && e.getClientRects().length > 0;
    // (the side column is under the board when the two do not fit side by side)
    const sideBelow = !landscape && this.side.getBoundingClientRect().top >= board.bottom - 1;
    const needed = sideBelow ? [this.hintRow, this.placeRow, this.tray].find(shown) : undefined;
    const end = needed ?? this.lastMove;
    const below = end.getBoundingClientRect().bottom + parseFloat(getComputedStyle(end).marginBottom) - board.bottom;
    const top = board.top + window.scrollY;
    const min = phone ? (landscape ? 140 : 170) : 420;
    const height = Math.max(min, Math.floor(window.innerHeight - top - below - 8));
    if (this.viewport.style.height !== `${height}px`) this.viewport.style.height = `${height}px`;
  }

  private rumis(): RumisView {
    return this.pos!.rumis;
  }

  private myTurn(): boolean {
    return !this.readOnly && !!this.pos?.toPlay;
  }

  /** The colour whose stones the tray shows: the colour to move on your turn, else your first colour. */
  private trayColour(): string | null {
    const you = this.pos!.you;
    const r = this.rumis();
    if (this.myTurn() && r.to_move_colour) return r.to_move_colour;
    return r.colours.find((c) => c.owner === you)?.colour ?? null;
  }

  /** Shows a position (the same one again keeps the player's stone, orientation and ghost). */
  set(position: RumisPosition): void {
    delete this.viewport.dataset.reviewGhost;
    const prevVersion = this.pos?.version;
    this.pos = position;
    const r = position.rumis;
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
    const legal = this.myTurn() ? (r.legal ?? []) : [];
    this.legalKeys = new Set(legal.map((p) => `${p.stone}|${cellsKey(p.cells)}`));
    this.legalBy.clear();
    for (const p of legal) {
      const idx = this.orientationIndex.get(p.stone)?.get(shapeKey(p.cells));
      if (idx === undefined) continue;
      let byStone = this.legalBy.get(p.stone);
      if (!byStone) this.legalBy.set(p.stone, (byStone = new Map()));
      const list = byStone.get(idx) ?? [];
      list.push(p);
      byStone.set(idx, list);
    }
    if (prevVersion !== position.version) {
      this.verdicts.clear();
      this.armed = null;
      this.hintList.hidden = true;
    }
    this.hintButton.disabled = !this.myTurn() || !!r.removing || legal.length === 0;
    // Only where the table allows hints (a practice table, or its creator chose so).
    this.hintRow.hidden = !position.hints;
    this.hintButton.hidden = !position.hints;
    this.heights = heightMap(r.scenario.width, r.scenario.depth, r.cubes);
    if (this.scene) {
      this.scene.setBoard(r.scenario);
      this.scene.setRedLine(r.red_line ?? null);
      this.scene.setCubes(r.cubes, this.heights, this.lastStones());
    }
    const colour = this.trayColour();
    const supply = this.supplyOf(colour);
    if (this.selected && (!supply.includes(this.selected) || !this.myTurn() || r.removing)) this.selected = null;
    this.autoSelect();
    this.renderScores();
    this.renderTray();
    this.renderHistory();
    this.updateMarks();
    this.updateGhost();
    this.renderLastMove();
    this.fitBoard();
  }

  /** The last move under the board, drawn: who, the stone as it lies, and where. The
   * stones others placed since the last view light up on the board for a moment. */
  private renderLastMove(): void {
    const r = this.rumis();
    const i = r.history.length - 1;
    const before = this.flashFrom;
    this.flashFrom = r.history.length;
    clear(this.lastMove);
    this.lastMove.dataset.move = i >= 0 ? r.history[i] : "";
    this.lastMove.dataset.index = String(i);
    if (i < 0) {
      this.lastMove.append(h("span", { className: "muted" }, t("rumis.last_none")));
      return;
    }
    const read = readMove(r.history[i]);
    const removed = !!read?.removed;
    const stone = stoneName(read?.stone ?? "");
    const cells: Cell[] = read?.cells ?? [];
    const colour = r.cubes.find((c) => c.stone === i)?.colour ?? null;
    const cols = [...new Set(cells.map(([x, y]) => placeColumn(x, y)))].join(" ");
    const levels = [...new Set(cells.map((c) => c[2] + 1))].sort((a, b) => a - b);
    const level = levels.length > 1 ? `${levels[0]}–${levels[levels.length - 1]}` : String(levels[0] ?? 1);
    this.lastMove.dataset.colour = colour ?? "";
    const parts: (Node | null)[] = [
      h("span", { className: "visually-hidden" }, t("rumis.last_label"), " "),
      colour ? colourChip(colour) : null,
      colour ? h("span", { className: "last-who", title: this.ownerName(colour) }, `${this.ownerShort(colour)}:`) : null,
      cells.length ? stoneSvg(cells, colourHex(colour ?? "neutral"), 24) : null,
      h("span", { className: "last-what" }, removed ? t("rumis.last_removed", { stone, cols }) : t("rumis.last_placed", { stone, cols, level })),
    ];
    this.lastMove.append(...parts.filter((x): x is Node => x !== null));
    this.lastMove.querySelector("svg")?.setAttribute("aria-hidden", "true");
    // Others' stones placed since the last view (not on the first view, not in a replay).
    if (before === null || this.readOnly || !this.scene) return;
    const mine = new Set(r.colours.filter((c) => c.owner !== null && c.owner === this.pos!.you).map((c) => c.colour));
    const fresh = new Set(r.cubes.filter((c) => c.stone !== null && c.stone >= before && !mine.has(c.colour)).map((c) => c.stone!));
    if (fresh.size) this.scene.flash([...fresh]);
  }
  /** The history's length at the last view: stones from there on are new. */
  private flashFrom: number | null = null;

  /** The strongest bot's best three moves with their win chances (`GET …/hint`, about a
   * second of search); if the server cannot answer, the browser's quick suggestions. */
  private async showHints(): Promise<void> {
    const version = this.pos?.version;
    if (!this.config.suggest) return;
    clear(this.hintList);
    this.hintList.hidden = false;
    this.hintList.dataset.source = "";
    this.hintButton.disabled = true;
    this.hintList.append(h("li", { className: "muted", testid: "rumis-hint-wait" }, t("rumis.hint_thinking")));
    this.fitBoard();
    try {
      const answer = await this.config.suggest();
      if (this.pos?.version !== version) return;
      clear(this.hintList);
      this.hintList.dataset.source = "server";
      const moves = [...answer.moves].sort((a, b) => b.win_chance - a.win_chance);
      moves.forEach((m, i) => {
        const pct = Math.round(m.win_chance * 100);
        this.hintList.append(
          h(
            "li",
            {},
            h(
              "button",
              { className: "small hint-move", testid: `rumis-hint-${i}`, "data-win": String(pct), "data-move": notation(m.stone, m.cells), title: t("rumis.hint_show"), ...this.showsOnBoard({ stone: m.stone, cells: m.cells }) },
              moveEl(m.stone, m.cells, this.rumis().to_move_colour),
            ),
            " ",
            h("span", { className: "muted", testid: `rumis-hint-win-${i}`, title: t("rumis.hint_visits", { visits: m.visits }) }, t("rumis.hint_win", { pct })),
          ),
        );
      });
      if (answer.moves.length === 0) this.quickHints(t("rumis.hint_none"));
    } catch (e) {
      if (this.pos?.version !== version) return;
      // Hints off at this table: no suggestions at all, the browser's neither.
      if (e instanceof ApiError && e.code === "hints_off") {
        this.hintList.hidden = true;
        this.config.onError(e.message, e.code);
        return;
      }
      this.quickHints(t("rumis.hint_failed", { error: e instanceof ApiError ? reason(e.message, e.code, e.why).text : (e as Error).message }));
    } finally {
      this.hintButton.disabled = !this.myTurn() || !!this.rumis().removing || (this.rumis().legal ?? []).length === 0;
      this.fitBoard();
    }
  }

  /** The three placements that win the most squares seen from above at once (yours
   * gained plus others' covered), computed in the browser from `legal`. */
  private quickHints(note: string): void {
    const r = this.rumis();
    const me = r.to_move_colour;
    const owner = new Map(r.colours.map((c) => [c.colour, c.owner]));
    const top = new Map<string, { z: number; colour: string }>();
    for (const c of r.cubes) {
      const k = `${c.x},${c.y}`;
      if ((top.get(k)?.z ?? -1) < c.z) top.set(k, { z: c.z, colour: c.colour });
    }
    const myOwner = owner.get(me ?? "");
    const scored = (r.legal ?? []).map((p) => {
      const cols = new Set(p.cells.map(([x, y]) => `${x},${y}`));
      let gain = 0;
      let taken = 0;
      for (const k of cols) {
        const old = top.get(k)?.colour;
        if (old === undefined || owner.get(old) !== myOwner) gain++;
        if (old !== undefined && owner.get(old) !== myOwner && owner.get(old) !== null) taken++;
      }
      return { p, gain, taken, value: gain + taken };
    });
    scored.sort((a, b) => b.value - a.value || b.p.cells.length - a.p.cells.length);
    clear(this.hintList);
    this.hintList.hidden = false;
    this.hintList.dataset.source = "browser";
    this.hintList.append(h("li", { className: "muted" }, note));
    scored.slice(0, 3).forEach((s, i) => {
      this.hintList.append(
        h(
          "li",
          {},
          h(
            "button",
            { className: "small hint-move", testid: `rumis-hint-${i}`, "data-move": notation(s.p.stone, s.p.cells), title: t("rumis.hint_show"), ...this.showsOnBoard(s.p) },
            moveEl(s.p.stone, s.p.cells, this.rumis().to_move_colour),
          ),
          " ",
          h("span", { className: "muted" }, t("rumis.hint_gain", { gain: s.gain, taken: s.taken })),
        ),
      );
    });
  }

  /** The replay's review: a better move as the ghost on the position on show (`null`
   * clears it); the next step shown clears it too. */
  showBetter(cells: Cell[] | null): void {
    this.scene?.setGhost(cells, true);
    this.viewport.dataset.reviewGhost = cells ? cellsKey(cells) : "";
  }

  /** Shows a placement as the ghost: its stone and orientation selected, the pointer on its anchor. */
  /** A move shown as a ghost on a read-only board (the analysis board's best moves). */
  showGhost(cells: Cell[] | null): void {
    this.scene?.setGhost(cells, true);
  }

  /** A suggested move in a list: shown on the board on a tap or click, and while the
   * pointer or the keyboard's focus rests on it. */
  private showsOnBoard(p: Placement): Record<string, EventListener> {
    const show = () => this.showPlacement(p);
    return { onclick: show, onmouseenter: show, onfocus: show };
  }

  private showPlacement(p: Placement): void {
    const idx = this.orientationIndex.get(p.stone)?.get(shapeKey(p.cells));
    if (idx === undefined) return;
    this.selected = p.stone;
    this.orientation = idx;
    const [x, y] = anchorOf(p.cells, normalise(p.cells)[0]);
    this.hover = { x, y };
    this.armed = cellsKey(p.cells);
    this.renderTray();
    this.updateMarks();
    this.updateGhost();
  }

  /** The dismantling game (R16): the stone taken off is the one to place. */
  private autoSelect(): void {
    const r = this.rumis();
    if (this.myTurn() && !r.removing && r.stone_in_hand && this.selected !== r.stone_in_hand) {
      this.selected = r.stone_in_hand;
      this.orientation = this.orientationOrder(r.stone_in_hand)[0] ?? 0;
    }
  }

  /** The stones a colour may still place (with the stone in hand, R16). */
  private supplyOf(colour: string | null): string[] {
    const r = this.rumis();
    const supply = r.colours.find((c) => c.colour === colour)?.supply ?? [];
    return r.stone_in_hand && this.myTurn() && !supply.includes(r.stone_in_hand) ? [r.stone_in_hand, ...supply] : supply;
  }

  /** Whether this turn takes a stone off the build (R16). */
  private removing(): boolean {
    return this.myTurn() && !!this.rumis().removing;
  }

  /** The stone to take off under the pointer: the removable stone with the highest cube in that column. */
  private removalAt(hover: Hover): Placement | null {
    let best: Placement | null = null;
    let top = -1;
    for (const p of this.rumis().legal ?? []) {
      for (const [x, y, z] of p.cells)
        if (x === hover.x && y === hover.y && z > top) {
          top = z;
          best = p;
        }
    }
    return best;
  }

  /** The last stone each colour placed (its index in `history`); the latest move is the first. */
  private lastStones(): number[] {
    const last = new Map<string, number>();
    for (const c of this.rumis().cubes) if (c.stone !== null && c.stone >= (last.get(c.colour) ?? -1)) last.set(c.colour, c.stone);
    return [...last.values()].sort((a, b) => b - a);
  }

  // ---- panels -------------------------------------------------------------------

  private ownerName(colour: string): string {
    const c = this.rumis().colours.find((x) => x.colour === colour);
    if (!c || c.owner === null) return t("rumis.neutral");
    return this.seatName(c.owner);
  }

  /** A seat's name (its number where the position names no seats). */
  private seatName(seat: number): string {
    return this.pos!.seats[seat]?.name ?? seatName({ seat });
  }

  /** The owner by a short name for one line: a bot by its own name ("Inti"). */
  private ownerShort(colour: string): string {
    const c = this.rumis().colours.find((x) => x.colour === colour);
    return (c && c.owner !== null ? this.pos!.seats[c.owner]?.short : undefined) ?? this.ownerName(colour);
  }

  private renderScores(): void {
    const v = this.pos!;
    const r = this.rumis();
    clear(this.scores);
    const table = h(
      "table",
      { className: "scores" },
      h("caption", { className: "visually-hidden" }, t("rumis.scores")),
      h("tr", {}, h("th", { scope: "col" }, h("span", { className: "visually-hidden" }, t("rumis.to_move"))), h("th", { scope: "col" }, t("rumis.colour")), h("th", { scope: "col" }, t("rumis.player")), h("th", { scope: "col" }, t("rumis.stones_left")), h("th", { scope: "col" }, t("rumis.score"))),
    );
    for (const c of r.colours) {
      const moving = !v.over && r.to_move_colour === c.colour;
      const owner = c.owner === null ? t("rumis.neutral") : this.seatName(c.owner);
      table.append(
        h(
          "tr",
          { className: (moving ? "to-move" : "") + (c.out ? " out" : ""), testid: `colour-${c.colour}`, "data-out": String(c.out) },
          h("td", {}, moving ? "▶" : ""),
          h("td", {}, colourChip(c.colour, true), c.out ? h("span", { className: "badge", testid: `out-${c.colour}` }, t("rumis.out")) : null),
          h("td", {}, owner + (c.owner !== null && c.owner === v.you ? ` (${t("common.you")})` : "")),
          h("td", { testid: `supply-${c.colour}`, title: c.supply.map(stoneName).join(", ") }, String(c.supply.length)),
          h("td", { className: "score", testid: `score-${c.colour}` }, String(c.score)),
        ),
      );
    }
    this.scores.append(table, h("p", { className: "score-note muted", testid: "score-note" }, t("rumis.score_note", { n: this.orientations.size || 11 })));
    clear(this.info);
    this.info.append(
      h("span", { testid: "scenario-name" }, t("rumis.info", { scenario: r.scenario.name, players: r.players }), r.variant !== "standard" ? `, ${t(("variant." + r.variant) as never)}` : ""),
      h("span", { testid: "cube-count", "data-count": r.cubes.length }, ` · ${t("rumis.cubes", { n: r.cubes.length })}`),
      !v.over && r.to_move_colour ? h("span", { testid: "to-move-colour" }, ` · ${t("rumis.colour_to_move", { colour: colourName(r.to_move_colour) })}`) : "",
    );
  }

  /** Orientation indexes of a stone, those with legal placements first. */
  private orientationOrder(stone: string): number[] {
    const n = this.orientations.get(stone)?.length ?? 0;
    const legal = this.legalBy.get(stone);
    const all = [...Array(n).keys()];
    if (!legal) return all;
    return [...all.filter((i) => legal.has(i)), ...all.filter((i) => !legal.has(i))];
  }

  private renderTray(): void {
    const r = this.rumis();
    const colour = this.trayColour();
    clear(this.tray);
    if (!colour) {
      this.tray.append(h("div", { className: "muted" }, t("rumis.spectator_stones")));
      return;
    }
    const supply = this.supplyOf(colour);
    const mine = this.myTurn() && !r.removing;
    this.tray.dataset.colour = colour;
    if (this.removing()) this.tray.append(h("div", { className: "muted", testid: "remove-note" }, t(touchScreen() ? "rumis.remove_pick_touch" : "rumis.remove_pick")));
    if (supply.length === 0) this.tray.append(h("div", { className: "muted" }, t("rumis.no_stones")));
    for (const stone of supply) {
      const list = this.orientations.get(stone);
      const shape = list?.[stone === this.selected ? this.orientation : (this.orientationOrder(stone)[0] ?? 0)];
      const legalCount = [...(this.legalBy.get(stone)?.values() ?? [])].reduce((a, l) => a + l.length, 0);
      const b = h(
        "button",
        {
          className: "tray-stone" + (stone === this.selected ? " selected" : "") + (mine && legalCount === 0 ? " stuck" : ""),
          testid: `tray-stone-${stone}`,
          disabled: !mine,
          "aria-pressed": String(stone === this.selected),
          // (named by the code it shows and by its name)
          "aria-label": mine ? t("rumis.stone_fits", { stone: `${stone} ${stoneName(stone)}`, n: legalCount }) : `${stone} ${stoneName(stone)}`,
          title: mine ? t("rumis.stone_fits", { stone: stoneName(stone), n: legalCount }) : stoneName(stone),
          "data-legal": legalCount,
          onclick: () => this.select(stone),
        },
        shape ? stoneSvg(shape, colourHex(colour), 48) : null,
        h("span", { className: "code" }, stone),
      );
      this.tray.append(b);
    }
    clear(this.turnControls);
    if (mine) {
      const btn = (testid: string, text: string, tt: Turn | "next", title: string) =>
        h("button", { testid, title, "aria-label": title, disabled: !this.selected, onclick: () => (tt === "next" ? this.nextOrientation() : this.turnStone(tt)) }, text);
      const count = this.selected ? (this.orientations.get(this.selected)?.length ?? 0) : 0;
      const fitting = this.selected ? (this.legalBy.get(this.selected)?.size ?? 0) : 0;
      this.turnControls.append(
        btn("turn-yaw-left", "⟲", "yaw-", t("rumis.turn_left")),
        btn("turn-yaw-right", "⟳", "yaw+", t("rumis.turn_right")),
        btn("turn-pitch-back", "⤒", "pitch-", t("rumis.tilt_back")),
        btn("turn-pitch-fwd", "⤓", "pitch+", t("rumis.tilt_fwd")),
        btn("turn-roll-left", "↶", "roll-", t("rumis.roll_left")),
        btn("turn-roll-right", "↷", "roll+", t("rumis.roll_right")),
        btn("next-orientation", t("rumis.next"), "next", t("rumis.next_title")),
        h(
          "span",
          {
            className: "orientation",
            testid: "orientation",
            "data-stone": this.selected ?? "",
            "data-index": this.orientation,
            "data-fits": String(!!this.selected && !!this.legalBy.get(this.selected)?.has(this.orientation)),
            "data-key": this.selected ? shapeKey(this.orientations.get(this.selected)![this.orientation]) : "",
          },
          this.selected ? t("rumis.orientation", { stone: stoneName(this.selected), i: this.orientation + 1, n: count, fit: fitting }) : t("rumis.pick_stone"),
        ),
      );
    }
  }

  private renderHistory(): void {
    const r = this.rumis();
    // The replay lists every move of the game, the one on show marked; the table, the moves so far.
    const all = this.replay?.final() ?? r;
    const colours = new Map<number, string>();
    for (const c of [...all.cubes, ...r.cubes]) if (c.stone !== null) colours.set(c.stone, c.colour);
    clear(this.history);
    const last = new Set(this.lastStones());
    const current = r.history.length - 1;
    all.history.forEach((m, i) => {
      const colour = colours.get(i);
      const line = [colour ? colourChip(colour) : null, colour ? ` ${colourName(colour)} (${this.ownerName(colour)}): ` : " ", notationMoveEl(m, colour ?? null)];
      const cls = (last.has(i) ? "last-move" : "") + (this.replay && i > current ? " future" : "") + (this.replay && i === current ? " current" : "");
      this.history.append(
        h(
          "li",
          { testid: `history-${i}`, className: cls.trim(), "data-colour": colour ?? "", "data-move": m, "aria-current": this.replay && i === current ? "step" : null },
          ...(this.replay ? [h("button", { className: "move-jump", testid: `history-jump-${i}`, onclick: () => this.replay?.jump(i) }, ...line)] : line),
        ),
      );
    });
    const at = this.replay ? this.history.querySelector<HTMLElement>("li.current") : null;
    if (at) this.history.scrollTop = Math.max(0, at.offsetTop - this.history.clientHeight / 2);
    else if (!this.replay) this.history.scrollTop = this.history.scrollHeight;
  }

  // ---- stone, orientation, ghost -----------------------------------------------

  private select(stone: string): void {
    if (!this.myTurn()) return;
    this.config.onClearError();
    this.armed = null;
    if (this.selected === stone) {
      this.selected = null;
    } else {
      this.selected = stone;
      this.orientation = this.orientationOrder(stone)[0] ?? 0;
    }
    this.renderTray();
    this.updateMarks();
    this.updateGhost();
  }

  private turnStone(tt: Turn): void {
    if (!this.selected) return;
    const list = this.orientations.get(this.selected)!;
    const key = shapeKey(turn(list[this.orientation], tt));
    const next = this.orientationIndex.get(this.selected)!.get(key);
    if (next !== undefined) this.orientation = next;
    this.armed = null;
    this.renderTray();
    this.updateMarks();
    this.updateGhost();
  }

  /** The next orientation that fits somewhere (all of them when none fits). */
  private nextOrientation(): void {
    if (!this.selected) return;
    const order = this.orientationOrder(this.selected);
    const legal = this.legalBy.get(this.selected);
    const ring = legal && legal.size ? order.filter((i) => legal.has(i)) : order;
    const at = ring.indexOf(this.orientation);
    this.orientation = ring[(at + 1) % ring.length] ?? this.orientation;
    this.armed = null;
    this.renderTray();
    this.updateMarks();
    this.updateGhost();
  }

  /** Legal placements of the selected stone in the shown orientation. */
  private placementsHere(): Placement[] {
    if (!this.selected) return [];
    return this.legalBy.get(this.selected)?.get(this.orientation) ?? [];
  }

  /** The columns to point at: the anchor of every legal placement in this orientation. */
  private updateMarks(): void {
    const marks: Hover[] = [];
    const seen = new Set<string>();
    const removing = this.removing();
    for (const p of removing ? (this.rumis().legal ?? []) : this.placementsHere()) {
      if (removing) {
        for (const [x, y] of p.cells) {
          if (this.removalAt({ x, y }) === p && !seen.has(`${x},${y}`)) {
            seen.add(`${x},${y}`);
            marks.push({ x, y });
          }
        }
        continue;
      }
      const a = normalise(p.cells)[0];
      const [x, y] = anchorOf(p.cells, a);
      const k = `${x},${y}`;
      if (!seen.has(k)) {
        seen.add(k);
        marks.push({ x, y });
      }
    }
    this.viewport.dataset.marks = marks.map((m) => `${m.x},${m.y}`).join(";");
    this.scene?.setMarks(marks, this.heights);
  }

  private toggleTop(): void {
    if (!this.scene) return;
    this.scene.setTopView(!this.scene.isTopView());
    this.topButton.textContent = this.scene.isTopView() ? t("rumis.view_3d") : t("rumis.top_view");
    this.topButton.dataset.on = String(this.scene.isTopView());
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    const onCanvas = target === this.scene?.canvas;
    if (k in TURN_KEYS) this.turnStone(TURN_KEYS[k]);
    else if (k === "r") this.nextOrientation();
    else if (k === "t") this.toggleTop();
    else if (k.startsWith("arrow") && this.selected && (onCanvas || target === document.body)) this.moveGhostBy(k);
    else if ((k === "enter" || k === " ") && onCanvas && this.ghost) this.placeGhost();
    else if (k === "escape") {
      this.selected = null;
      this.renderTray();
      this.updateMarks();
      this.updateGhost();
    } else return;
    e.preventDefault();
  }

  /** The keyboard moves the ghost one column (from the first mark when there is none). */
  private moveGhostBy(key: string): void {
    const r = this.rumis();
    let { x, y } = this.hover ?? this.firstMark() ?? { x: 0, y: 0 };
    if (this.hover) {
      if (key === "arrowleft") x--;
      if (key === "arrowright") x++;
      if (key === "arrowup") y--;
      if (key === "arrowdown") y++;
    }
    x = Math.max(0, Math.min(r.scenario.width - 1, x));
    y = Math.max(0, Math.min(r.scenario.depth - 1, y));
    this.hover = { x, y };
    this.updateGhost();
  }

  private firstMark(): Hover | null {
    const m = this.viewport.dataset.marks?.split(";")[0];
    if (!m) return null;
    const [x, y] = m.split(",").map(Number);
    return { x, y };
  }

  private onHover(hover: Hover | null): void {
    if (hover && this.hover && hover.x === this.hover.x && hover.y === this.hover.y) return;
    // A touch ghost stays until it is placed; a legal ghost stays for the Place button.
    if (!hover && (this.armed || !this.placeButton.disabled)) return;
    this.hover = hover;
    this.updateGhost();
  }

  /** The legal placement under the pointer: one of its cubes in the pointed column,
   * preferring the one anchored there. */
  private snapped(hover: Hover): Cell[] | null {
    let best: Cell[] | null = null;
    let bestScore = Infinity;
    for (const p of this.placementsHere()) {
      if (!p.cells.some(([x, y]) => x === hover.x && y === hover.y)) continue;
      const [ax, ay] = anchorOf(p.cells, normalise(p.cells)[0]);
      const score = Math.abs(ax - hover.x) + Math.abs(ay - hover.y);
      if (score < bestScore) {
        best = p.cells;
        bestScore = score;
      }
    }
    return best;
  }

  private updateGhost(): void {
    if (this.removing()) {
      this.placeButton.disabled = true;
      const p = this.hover ? this.removalAt(this.hover) : null;
      this.ghost = p?.cells ?? null;
      this.selected = p?.stone ?? null;
      this.scene?.setGhost(this.ghost, true);
      if (p) {
        this.placeButton.disabled = false;
        this.setStatus(t(touchScreen() ? "rumis.remove_this_touch" : "rumis.remove_this", { stone: stoneName(p.stone) }), { legal: true, reason: "" }, p.cells);
      } else this.setStatus(t(touchScreen() ? "rumis.remove_pick_touch" : "rumis.remove_pick"), null);
      return;
    }
    const stone = this.selected;
    this.placeButton.disabled = true;
    if (!stone || !this.hover || !this.myTurn()) {
      this.ghost = null;
      this.scene?.setGhost(null, false);
      if (!stone) this.scene?.setMarks([], this.heights);
      this.setStatus(stone ? (this.placementsHere().length ? t(touchScreen() ? "rumis.point_marked_touch" : "rumis.point_marked") : t("rumis.no_fit_here")) : this.myTurn() ? t("rumis.pick_stone_tray") : "", null);
      return;
    }
    const cells = this.snapped(this.hover) ?? drop(this.orientations.get(stone)![this.orientation], this.hover.x, this.hover.y, this.heights);
    this.ghost = cells;
    const key = `${stone}|${cellsKey(cells)}`;
    const r = this.rumis();
    if (this.legalKeys.has(key)) {
      this.scene?.setGhost(cells, true);
      this.placeButton.disabled = false;
      this.setStatus(t(touchScreen() ? "rumis.legal_touch" : "rumis.legal", { move: moveText(stone, cells) }), { legal: true, reason: "" }, cells);
      return;
    }
    this.scene?.setGhost(cells, false);
    const { width, depth } = r.scenario;
    if (cells.some(([x, y]) => x < 0 || y < 0 || x >= width || y >= depth)) {
      this.showVerdict(stone, cells, { legal: false, reason: "outside the board", why: { code: "off_board", rule: "R4", params: {} } });
      return;
    }
    const known = this.verdicts.get(key);
    if (known) {
      this.showVerdict(stone, cells, known);
      return;
    }
    this.setStatus(t("rumis.checking", { move: moveText(stone, cells) }), null, cells);
    if (this.checkTimer !== null) window.clearTimeout(this.checkTimer);
    const version = this.pos!.version;
    this.checkTimer = window.setTimeout(async () => {
      try {
        const placement = { stone, cells };
        const answer = this.config.check ? await this.config.check(placement) : { legal: false };
        const verdict = { legal: answer.legal, reason: answer.reason ?? "", why: answer.why ?? null };
        if (this.pos?.version !== version) return;
        this.verdicts.set(key, verdict);
        if (this.ghost && cellsKey(this.ghost) === cellsKey(cells) && this.selected === stone) this.showVerdict(stone, cells, verdict);
      } catch (e) {
        this.setStatus(t("rumis.cannot_check", { error: (e as Error).message }), null, cells);
      }
    }, 80);
  }

  private showVerdict(stone: string, cells: Cell[], v: Verdict): void {
    // `legal` is the authority for green; a check that says legal (if `legal` was not sent) is trusted too.
    this.scene?.setGhost(cells, v.legal);
    this.placeButton.disabled = !v.legal;
    if (v.legal) this.setStatus(t(touchScreen() ? "rumis.legal_touch" : "rumis.legal", { move: moveText(stone, cells) }), v, cells);
    else {
      const said = reason(v.reason || "illegal placement", "illegal", v.why);
      this.setStatus(tNodes("rumis.not_here", {}, { reason: h("span", {}, ...said.nodes) }), v, cells, said.rule);
    }
  }

  private setStatus(text: string | (Node | string)[], verdict: Verdict | null, cells?: Cell[], rule: string | null = null): void {
    clear(this.ghostStatus);
    this.ghostStatus.append(...(typeof text === "string" ? [text] : text));
    if (rule) this.ghostStatus.append(" ", h("a", { href: ruleHref(rule), target: "_blank", testid: "ghost-why", className: "why" }, t("table.why", { rule })));
    this.ghostStatus.dataset.legal = verdict ? String(verdict.legal) : "";
    this.ghostStatus.dataset.reason = verdict?.reason ?? "";
    this.ghostStatus.dataset.rule = rule ?? "";
    this.ghostStatus.dataset.why = verdict?.why?.code ?? "";
    this.ghostStatus.dataset.move = cells && this.selected ? notation(this.selected, cells) : "";
    this.ghostStatus.className = "ghost-status" + (verdict ? (verdict.legal ? " legal" : " illegal") : "");
  }

  private async onClick(hover: Hover | null, touch: boolean): Promise<void> {
    if (!this.myTurn() || (!this.selected && !this.removing())) return;
    if (touch) {
      // First tap: show the ghost (snapped) with its reason; a second tap on it places.
      const before = this.ghost ? cellsKey(this.ghost) : null;
      if (this.armed && before === this.armed && hover && this.ghost!.some(([x, y]) => x === hover.x && y === hover.y)) return this.placeGhost();
      if (hover) {
        this.hover = hover;
        this.updateGhost();
      }
      const now = this.ghost ? cellsKey(this.ghost) : null;
      if (now && now === before && this.armed === now) return this.placeGhost();
      this.armed = now;
      return;
    }
    if (hover) this.onHover(hover);
    return this.placeGhost();
  }

  private async placeGhost(): Promise<void> {
    if (!this.myTurn() || !this.selected || !this.ghost) return;
    const stone = this.selected;
    const cells = this.ghost;
    const key = `${stone}|${cellsKey(cells)}`;
    const verdict = this.legalKeys.has(key) ? { legal: true, reason: "" } : this.verdicts.get(key);
    if (!verdict?.legal) {
      const said = verdict ? reason(verdict.reason, "illegal", verdict.why) : null;
      this.config.onError(t("rumis.cannot_place", { stone: stoneName(stone), reason: said ? ": " + said.text : "" }));
      return;
    }
    const ok = await this.send(() => this.config.onPlace?.({ stone, cells }) ?? Promise.resolve(false));
    if (ok) {
      this.selected = null;
      this.armed = null;
      this.hover = null;
      this.autoSelect();
      this.renderTray();
      this.updateMarks();
      this.updateGhost();
    }
  }

  /** One move at a time: a second click while the first is on its way does nothing. */
  private async send(move: () => Promise<boolean>): Promise<boolean> {
    if (this.busy || this.readOnly) return false;
    this.busy = true;
    try {
      return await move();
    } finally {
      this.busy = false;
    }
  }
}

/** The board column of a placement's anchor cube (the first of its lowest layer). */
function anchorOf(cells: Cell[], a: Cell): [number, number] {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return [mx + a[0], my + a[1]];
}
