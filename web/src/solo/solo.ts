// The solo cube, /solo (R12): the 48 levels (edge 3, 4, 5 × one to four colours × the
// placement rules and alternating colours) with the best times and which have a full
// cube at all (the server's solver decides); then the build, on the Rumis board
// component (marks, ghost, turning, phone layout) fed the cube as a position. The server keeps
// no build: every request names the level and the stones so far, and its puzzle engine
// checks each stone. "Can this still be finished?" and the hint ask the server's solver
// (within its time bound: "unknown" beyond it). Best times are kept in this browser
// (localStorage `rumi.solo.bests`) and, signed in, in the account.
import "./solo.css";
import { ApiError, call, type Placement } from "../api";
import type { SoloBest, SoloBests, SoloFinishable, SoloHint, SoloLevel, SoloLevelInfo, SoloLevels, SoloPiece, SoloPlaced, SoloRecorded, SoloState } from "../generated/api";
import { clear, h } from "../dom";
import { t } from "../i18n/i18n";
import { colourName, reason } from "../i18n/server";
import { stoneName } from "../pictures";
import { signedIn } from "../players";
import { loadRumisBoard, type RumisBoard, type RumisBoardConfig, type RumisPosition } from "../rumis/load";

const BESTS_KEY = "rumi.solo.bests";

const soloApi = {
  levels: () => call<SoloLevels>("GET", "/api/solo/levels"),
  build: (level: SoloLevel, pieces: SoloPiece[], colour: string | null) => call<SoloState>("POST", "/api/solo/build", colour ? { level, pieces, colour } : { level, pieces }),
  place: (level: SoloLevel, pieces: SoloPiece[], piece: SoloPiece) => call<SoloPlaced>("POST", "/api/solo/place", { level, pieces, piece }),
  finishable: (level: SoloLevel, pieces: SoloPiece[]) => call<SoloFinishable>("POST", "/api/solo/finishable", { level, pieces }),
  hint: (level: SoloLevel, pieces: SoloPiece[]) => call<SoloHint>("POST", "/api/solo/hint", { level, pieces }),
  bests: () => call<SoloBests>("GET", "/api/me/solo"),
  record: (level: SoloLevel, pieces: SoloPiece[], millis: number) => call<SoloRecorded>("POST", "/api/me/solo", { level, pieces, millis }),
};

/** A level as a key: `3-1-rules-alternate`, `4-2-free`. */
export function levelKey(l: SoloLevel): string {
  const options = [l.rules ? "rules" : "", l.alternate ? "alternate" : ""].filter(Boolean);
  return `${l.edge}-${l.colours}-${options.length ? options.join("-") : "free"}`;
}

function levelName(l: SoloLevel): string {
  return t("solo.level_name", { edge: l.edge, colours: l.colours, options: optionsName(l) });
}

function optionsName(l: SoloLevel): string {
  if (l.rules && l.alternate) return t("solo.both");
  if (l.rules) return t("solo.rules");
  if (l.alternate) return t("solo.alternate");
  return t("solo.free");
}

/** 1:02.3 */
export function clock(ms: number): string {
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}

type Bests = Record<string, { millis: number; stones: number }>;

function localBests(): Bests {
  try {
    return JSON.parse(localStorage.getItem(BESTS_KEY) ?? "{}") as Bests;
  } catch {
    return {};
  }
}

/** Keeps a time if it beats the browser's best; true if it does. */
function keepLocal(key: string, millis: number, stones: number): boolean {
  const bests = localBests();
  const old = bests[key];
  if (old && old.millis <= millis) return false;
  bests[key] = { millis, stones };
  try {
    localStorage.setItem(BESTS_KEY, JSON.stringify(bests));
  } catch {
    /* no storage */
  }
  return true;
}

/** The browser's bests, with the account's where they are better. */
async function allBests(): Promise<Bests> {
  const bests = localBests();
  if (await signedIn()) {
    try {
      const mine: SoloBest[] = (await soloApi.bests()).bests;
      for (const b of mine) {
        const key = levelKey(b.level);
        if (!bests[key] || bests[key].millis > b.millis) bests[key] = { millis: b.millis, stones: b.stones };
      }
    } catch (e) {
      console.warn("GET /api/me/solo:", e);
    }
  }
  return bests;
}

function errorText(e: unknown): string {
  return e instanceof ApiError ? reason(e.message, e.code, e.why).text : String(e);
}

export async function showSolo(app: HTMLElement): Promise<void> {
  clear(app);
  document.title = `rumi — ${t("solo.title")}`;
  const page = h("article", { className: "solo", testid: "solo" });
  app.append(page);
  const loading = h("p", { className: "muted", testid: "solo-loading" }, t("solo.loading"));
  // The introduction is for choosing; a level's own goal and rule stand above its board.
  const intro = h("p", { className: "solo-intro", testid: "solo-intro" }, t("solo.intro"), " ", h("a", { href: "/rules/rumis" }, t("rules.read")));
  page.append(h("h1", {}, t("solo.title")), intro, loading);
  let levels: SoloLevelInfo[];
  try {
    levels = (await soloApi.levels()).levels;
  } catch (e) {
    loading.textContent = t("solo.failed", { error: errorText(e) });
    loading.className = "error";
    return;
  }
  loading.remove();
  const list = h("div", { className: "solo-levels", testid: "solo-levels" });
  const board = h("div", { className: "solo-build", testid: "solo-build", hidden: true });
  page.append(list, board);
  const session = new SoloSession(board, () => {
    board.hidden = true;
    list.hidden = false;
    intro.hidden = false;
    history.replaceState(null, "", "/solo");
    void renderLevels(list, levels, open);
  });
  const open = (l: SoloLevel) => {
    list.hidden = true;
    intro.hidden = true;
    board.hidden = false;
    history.replaceState(null, "", `/solo#${levelKey(l)}`);
    void session.start(l);
  };
  const asked = levels.find((l) => levelKey(l.level) === location.hash.slice(1) && l.solvable !== "no");
  if (asked) open(asked.level);
  else await renderLevels(list, levels, open);
}

/** The level list: a section per edge with its playable levels as buttons (each
 * with its rule and best time), and the levels without a full cube folded away below
 * them with their reasons, so that the page reads as a choice, not a wall of
 * "impossible". */
async function renderLevels(root: HTMLElement, levels: SoloLevelInfo[], open: (l: SoloLevel) => void): Promise<void> {
  const bests = await allBests();
  clear(root);
  for (const edge of [3, 4, 5]) {
    const ofEdge = levels.filter((l) => l.level.edge === edge);
    const playable = ofEdge.filter((l) => l.solvable !== "no");
    const impossible = ofEdge.filter((l) => l.solvable === "no");
    const choices = h("ul", { className: "solo-choices" });
    for (const info of playable) {
      const key = levelKey(info.level);
      const best = bests[key];
      const status = best ? t("solo.best", { time: clock(best.millis) }) : info.solvable === "unknown" ? t("solo.undecided") : t("solo.play");
      const item = h(
        "li",
        { testid: `solo-level-${key}`, "data-solvable": info.solvable },
        h(
          "button",
          { className: "solo-choice", testid: `solo-open-${key}`, onclick: () => open(info.level) },
          h("span", { className: "solo-choice-name" }, choiceName(info.level)),
          h("span", { className: "solo-choice-rule" }, ruleText(info.level)),
          h("span", { className: best ? "solo-choice-best" : "solo-choice-play" }, status),
        ),
      );
      if (best) item.dataset.best = String(best.millis);
      choices.append(item);
    }
    const section = h(
      "section",
      { className: "solo-edge", testid: `solo-edge-${edge}` },
      h("h2", {}, t("solo.edge_cells", { edge, cells: edge ** 3 })),
      choices,
    );
    if (impossible.length) {
      const reasons = h("ul", { className: "solo-impossible" });
      for (const info of impossible) {
        const why = t(`solo.impossible_${info.impossible ?? "search_exhausted"}`, { cells: info.cells, cubes: info.cubes });
        reasons.append(h("li", { testid: `solo-level-${levelKey(info.level)}`, "data-solvable": "no" }, choiceName(info.level), ": ", why));
      }
      section.append(h("details", { testid: `solo-impossible-${edge}` }, h("summary", {}, t("solo.impossible_levels", { n: impossible.length })), reasons));
    }
    root.append(section);
  }
  root.append(h("p", { className: "muted" }, t("solo.levels_note")));
}

/** "2 colours · placement rules" */
function choiceName(l: SoloLevel): string {
  return t("solo.choice_name", { n: l.colours, options: optionsName(l) });
}

/** What the level's options ask of the player (R12; PD3–PD5). */
function ruleText(l: SoloLevel): string {
  if (l.rules && l.alternate) return t("solo.rule_both");
  if (l.rules) return t("solo.rule_rules");
  if (l.alternate) return t("solo.rule_alternate");
  return t("solo.rule_free");
}

/** One level being built. */
class SoloSession {
  private level!: SoloLevel;
  private pieces: SoloPiece[] = [];
  private state: SoloState | null = null;
  private colour: string | null = null;
  private ui: RumisBoard | null = null;
  private version = 0;
  private started = 0;
  private stopped: number | null = null;
  private hints = 0;
  private busy = false;
  private timer: number | null = null;

  private title = h("h2", { testid: "solo-title" });
  private goal = h("p", { className: "solo-goal", testid: "solo-goal" });
  private clockText = h("span", { className: "solo-clock", testid: "solo-timer" }, "0:00.0");
  private stonesText = h("span", { testid: "solo-stones" });
  private colours = h("div", { className: "solo-colours", testid: "solo-colours", role: "group", "aria-label": t("solo.colour") });
  private undoButton = h("button", { testid: "solo-undo" }, t("solo.undo"));
  private restartButton = h("button", { testid: "solo-restart" }, t("solo.restart"));
  private hintButton = h("button", { testid: "solo-hint" }, t("solo.hint"));
  private finishableButton = h("button", { testid: "solo-finishable" }, t("solo.finishable"));
  private answer = h("p", { className: "solo-answer", testid: "solo-answer", "aria-live": "polite" });
  private finished = h("div", { className: "solo-finished", testid: "solo-finished", hidden: true });
  private boardBox = h("div", { className: "solo-board game-box", testid: "solo-board" });

  constructor(
    root: HTMLElement,
    private back: () => void,
  ) {
    this.undoButton.addEventListener("click", () => void this.undo());
    this.restartButton.addEventListener("click", () => void this.restart());
    this.hintButton.addEventListener("click", () => void this.hint());
    this.finishableButton.addEventListener("click", () => void this.askFinishable());
    root.append(
      h("p", {}, h("a", { href: "/solo", testid: "solo-back", onclick: (e: Event) => (e.preventDefault(), this.leave()) }, t("solo.back"))),
      this.title,
      this.goal,
      h("div", { className: "solo-status" }, h("span", {}, t("solo.time"), " ", this.clockText), h("span", {}, this.stonesText)),
      h("div", { className: "solo-controls" }, this.undoButton, this.restartButton, this.finishableButton, this.hintButton),
      this.colours,
      this.answer,
      this.finished,
      this.boardBox,
    );
  }

  private leave(): void {
    this.stopTimer();
    this.ui?.destroy();
    this.ui = null;
    this.back();
  }

  async start(level: SoloLevel): Promise<void> {
    this.level = level;
    this.title.textContent = levelName(level);
    this.goal.textContent = `${t("solo.goal", { edge: level.edge, cells: level.edge ** 3 })} ${ruleText(level)}`;
    this.pieces = [];
    this.colour = null;
    this.hints = 0;
    this.finished.hidden = true;
    this.say("", "");
    this.ui?.destroy();
    this.ui = null;
    clear(this.boardBox);
    this.ui = await loadRumisBoard(this.boardBox, this.config());
    this.startTimer();
    await this.refresh();
  }

  private startTimer(): void {
    this.started = performance.now();
    this.stopped = null;
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = window.setInterval(() => this.tick(), 100);
    this.tick();
  }

  private stopTimer(): void {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
  }

  private elapsed(): number {
    return Math.max(1, Math.round((this.stopped ?? performance.now()) - this.started));
  }

  private tick(): void {
    this.clockText.textContent = clock(this.elapsed());
  }

  /** Asks the server for the build as it stands and shows it. */
  private async refresh(): Promise<void> {
    try {
      this.state = await soloApi.build(this.level, this.pieces, this.colour);
    } catch (e) {
      this.say("error", errorText(e));
      return;
    }
    this.version++;
    this.colour = this.state.view.to_move_colour ?? null;
    this.ui?.set(this.position(this.state));
    this.renderColours();
    this.stonesText.textContent = t("solo.stones_used", { n: this.state.stones_used });
    this.stonesText.dataset.n = String(this.state.stones_used);
    this.undoButton.disabled = this.pieces.length === 0;
    this.hintButton.disabled = this.state.complete;
    this.finishableButton.disabled = this.state.complete;
    if (this.state.complete && this.stopped === null) await this.complete();
  }

  /** The cube as the board shows it: the player's to build until it is full. */
  private position(s: SoloState): RumisPosition {
    return {
      rumis: s.view,
      version: this.version,
      you: 0,
      toPlay: !s.complete,
      over: s.complete,
      seats: [{ name: t("solo.you"), short: t("solo.you") }],
      hints: false,
    };
  }

  /** Without the rules the player picks the colour to place; under them it is the colour to move. */
  private renderColours(): void {
    clear(this.colours);
    const s = this.state;
    if (!s) return;
    const label = h("span", { className: "muted" }, t(this.level.rules ? "solo.to_move" : "solo.colour"), " ");
    this.colours.append(label);
    for (const c of s.view.colours) {
      const on = c.colour === s.view.to_move_colour;
      this.colours.append(
        h(
          "button",
          {
            className: `solo-colour c-${c.colour}` + (on ? " on" : ""),
            testid: `solo-colour-${c.colour}`,
            "aria-pressed": String(on),
            disabled: this.level.rules || c.supply.length === 0 || s.complete,
            onclick: () => {
              this.colour = c.colour;
              void this.refresh();
            },
          },
          colourName(c.colour),
          ` (${c.supply.length})`,
        ),
      );
    }
  }

  private config(): RumisBoardConfig {
    return {
      check: async (placement) => {
        const answer = await soloApi.place(this.level, this.pieces, this.pieceOf(placement));
        return { legal: answer.legal, reason: answer.reason, why: answer.why };
      },
      // A stone of the board's: the engine places it or says why not.
      onPlace: (placement) => this.place(this.pieceOf(placement)),
      onTypedMove: async () => {
        this.say("error", t("solo.typed_moves"));
        return false;
      },
      onError: (message, code, why) => this.say("error", reason(message, code, why).text),
      onClearError: () => {
        if (this.answer.dataset.kind === "error") this.say("", "");
      },
    };
  }

  private pieceOf({ stone, cells }: Placement): SoloPiece {
    return { colour: this.colour ?? "", stone, cells: cells.map((c) => [c[0], c[1], c[2]] as [number, number, number]) };
  }

  private async place(piece: SoloPiece): Promise<boolean> {
    if (this.busy || this.stopped !== null) return false;
    this.busy = true;
    try {
      const answer = await soloApi.place(this.level, this.pieces, piece);
      if (!answer.legal || !answer.piece) {
        this.say("error", t("solo.refused", { reason: answer.why ? reason(answer.reason ?? "", "illegal", answer.why).text : (answer.reason ?? "") }));
        return false;
      }
      this.pieces.push(answer.piece);
      this.say("", "");
      await this.refresh();
      return true;
    } catch (e) {
      this.say("error", errorText(e));
      return false;
    } finally {
      this.busy = false;
    }
  }

  private async undo(): Promise<void> {
    if (this.busy || this.pieces.length === 0 || this.stopped !== null) return;
    this.pieces.pop();
    this.say("", "");
    await this.refresh();
  }

  private async restart(): Promise<void> {
    if (this.busy) return;
    this.pieces = [];
    this.colour = null;
    this.hints = 0;
    this.finished.hidden = true;
    this.say("", "");
    this.startTimer();
    await this.refresh();
  }

  private async askFinishable(): Promise<void> {
    this.finishableButton.disabled = true;
    this.say("wait", t("solo.thinking"));
    try {
      const answer = await soloApi.finishable(this.level, this.pieces);
      this.say(answer.answer, t(`solo.finishable_${answer.answer}`, { seconds: 2 }));
    } catch (e) {
      this.say("error", errorText(e));
    } finally {
      this.finishableButton.disabled = !!this.state?.complete;
    }
  }

  /** The next stone of a full cube that extends this build, placed at once. */
  private async hint(): Promise<void> {
    if (this.busy) return;
    this.hintButton.disabled = true;
    this.say("wait", t("solo.thinking"));
    try {
      const answer = await soloApi.hint(this.level, this.pieces);
      if (answer.answer === "yes" && answer.piece) {
        this.hints++;
        this.colour = answer.piece.colour;
        if (await this.place(answer.piece)) this.say("hint", t("solo.hint_placed", { stone: stoneName(answer.piece.stone), colour: colourName(answer.piece.colour) }));
      } else {
        this.say(answer.answer, t(`solo.hint_${answer.answer === "no" ? "no" : "unknown"}`, { seconds: 2 }));
      }
    } catch (e) {
      this.say("error", errorText(e));
    } finally {
      this.hintButton.disabled = !!this.state?.complete;
    }
  }

  private say(kind: string, text: string): void {
    this.answer.textContent = text;
    this.answer.dataset.kind = kind;
    this.answer.className = `solo-answer ${kind}`;
  }

  /** The cube is full: the time, the stones, and whether it is a best. */
  private async complete(): Promise<void> {
    this.stopped = performance.now();
    this.stopTimer();
    this.tick();
    const millis = this.elapsed();
    const key = levelKey(this.level);
    const stones = this.pieces.length;
    let best = keepLocal(key, millis, stones);
    let account: string | null = null;
    if (await signedIn()) {
      try {
        const recorded = await soloApi.record(this.level, this.pieces, millis);
        best = recorded.new_best || best;
        account = recorded.hints > 0 ? t("solo.hints_no_best")
          : recorded.new_best ? t("solo.kept_account")
          : recorded.best ? t("solo.account_best", { time: clock(recorded.best.millis) }) : null;
      } catch (e) {
        account = t("solo.not_kept", { error: errorText(e) });
      }
    }
    clear(this.finished);
    this.finished.hidden = false;
    this.finished.dataset.best = String(best);
    this.finished.dataset.millis = String(millis);
    const lines: (HTMLElement | null)[] = [
      h("p", { className: "solo-done", testid: "solo-done" }, t("solo.done", { time: clock(millis), n: stones })),
      this.hints ? h("p", { testid: "solo-hints-used" }, t("solo.hints_used", { n: this.hints })) : null,
      h("p", { testid: "solo-best" }, best ? t("solo.new_best") : t("solo.best_was", { time: clock(localBests()[key]?.millis ?? millis) })),
      account ? h("p", { className: "muted", testid: "solo-account" }, account) : null,
      h("p", {}, h("button", { className: "primary", testid: "solo-again", onclick: () => void this.restart() }, t("solo.again")), " ", h("button", { testid: "solo-levels-again", onclick: () => this.leave() }, t("solo.back"))),
    ];
    this.finished.append(...lines.filter((l): l is HTMLElement => l !== null));
    this.finished.scrollIntoView?.({ block: "nearest" });
  }
}
