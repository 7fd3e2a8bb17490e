// The tutorials, /learn/rumis and /learn/rummikub: a short list of fixed positions from
// the server (`GET /api/tutorial/{game}`), each with a task. The position is shown by
// the game's own board (the table's Rumis and Rummikub views, fed the step's view);
// every move the learner makes goes to the server (`POST …/{step}/check`), whose rules
// engine accepts it (then the position after it is shown, and the step is done if the
// move does what it asks) or refuses it with its reason, said as at a table. "Show a
// wrong move" sends the step's typical wrong try and shows the engine's answer.
import "./tutorial.css";
import { api, ApiError, placing, type Action, type Cell, type TableView, type Tutorial, type TutorialCheck, type TutorialKey, type TutorialStep } from "../api";
import { clear, h, seatName } from "../dom";
import { t } from "../i18n/i18n";
import { colourName, reason, ruleHref, said, setSeatNames } from "../i18n/server";
import { moveEl, notationMoveEl, readMove, tileList, tNodes } from "../pictures";
import { RummikubUI } from "../rummikub/ui";
import { rumisUI, type GameContext, type GameUI } from "../table";

type Game = "rumis" | "rummikub";
type Part = "title" | "task" | "hint" | "done";

/** A step's text. Every step the server can send has each in both languages: the key
 * is a text's key only if it exists (`t` takes no other), so a missing one does not
 * compile. */
function stepText(key: TutorialKey, part: Part): string {
  const k: `tutorial.${TutorialKey}.${Part}` = `tutorial.${key}.${part}`;
  return t(k);
}

/** The steps done, remembered in this browser (localStorage `rumi.learned.<game>`). */
function learned(game: Game): Set<number> {
  try {
    return new Set(JSON.parse(localStorage.getItem(`rumi.learned.${game}`) ?? "[]") as number[]);
  } catch {
    return new Set();
  }
}

function remember(game: Game, done: Set<number>): void {
  try {
    localStorage.setItem(`rumi.learned.${game}`, JSON.stringify([...done].sort((a, b) => a - b)));
  } catch {
    /* no storage */
  }
}

/** A move drawn: a Rumis stone with its place, or a Rummikub table's sets as tiles. */
function moveShown(action: Action): Node {
  if (action.type === "rumis_move") return notationMoveEl(action.move);
  if (action.type === "rumis_place") return moveEl(action.stone, action.cells);
  if (action.type === "play") return h("span", { className: "tutorial-sets" }, ...action.table.map((s) => tileList(s)));
  return document.createTextNode("");
}

/** The cells of a Rumis move, to show it on the board. */
function cellsOf(action: Action): Cell[] | null {
  if (action.type === "rumis_place") return action.cells;
  if (action.type === "rumis_move") return readMove(action.move)?.cells ?? null;
  return null;
}

export async function showTutorial(app: HTMLElement, game: Game): Promise<void> {
  clear(app);
  const name = game === "rumis" ? "Rumis" : "Rummikub";
  document.title = `rumi — ${t("tutorial.title", { game: name })}`;
  const page = h("article", { className: "tutorial", testid: `tutorial-${game}` });
  page.append(
    h("h1", {}, t("tutorial.title", { game: name })),
    h("p", { className: "tutorial-intro" }, t(game === "rumis" ? "tutorial.intro_rumis" : "tutorial.intro_rummikub"), " ", h("a", { href: `/rules/${game}` }, t("rules.read"))),
  );
  const loading = h("p", { className: "muted", testid: "tutorial-loading" }, t("tutorial.loading"));
  page.append(loading);
  app.append(page);
  let tutorial: Tutorial;
  try {
    tutorial = await api.tutorial(game);
  } catch (e) {
    loading.textContent = t("tutorial.failed", { error: e instanceof ApiError ? reason(e.message, e.code).text : String(e) });
    loading.className = "error";
    return;
  }
  loading.remove();
  new Lesson(page, game, tutorial.steps).open(firstOpen(game, tutorial.steps.length));
}

/** The step to begin with: the address's `#3`, else the first not done yet. */
function firstOpen(game: Game, count: number): number {
  const asked = Number(location.hash.slice(1));
  if (Number.isInteger(asked) && asked >= 1 && asked <= count) return asked;
  const done = learned(game);
  for (let n = 1; n <= count; n++) if (!done.has(n)) return n;
  return 1;
}

class Lesson {
  private done: Set<number>;
  private step!: TutorialStep;
  private ui: GameUI | null = null;
  /** Bumped on every step opened: answers for an earlier one are dropped. */
  private generation = 0;
  private view: TableView | null = null;
  private busy = false;

  private nav = h("ol", { className: "tutorial-steps", testid: "tutorial-steps" });
  private heading = h("h2", { testid: "tutorial-heading", tabindex: -1 });
  private colour = h("p", { className: "tutorial-colour", testid: "tutorial-colour" });
  private task = h("p", { className: "tutorial-task-text", testid: "tutorial-task-text" });
  private rules = h("p", { className: "tutorial-rules muted", testid: "tutorial-rules" });
  private feedback = h("div", { className: "tutorial-feedback", testid: "tutorial-feedback", role: "status", "aria-live": "polite" });
  private wrongButton = h("button", { testid: "tutorial-wrong" }, t("tutorial.show_wrong"));
  private resetButton = h("button", { testid: "tutorial-reset" }, t("tutorial.reset"));
  private nextButton = h("button", { className: "primary", testid: "tutorial-next", hidden: true }, t("tutorial.next"));
  private finished = h("div", { className: "tutorial-finished", testid: "tutorial-finished", hidden: true });
  private board = h("div", { className: "tutorial-board game-box", testid: "tutorial-board" });

  constructor(
    root: HTMLElement,
    private game: Game,
    private steps: TutorialStep[],
  ) {
    this.done = learned(game);
    this.wrongButton.addEventListener("click", () => void this.showWrong());
    this.resetButton.addEventListener("click", () => this.open(this.step.number));
    this.nextButton.addEventListener("click", () => {
      this.open(this.step.number + 1);
      // (keyboard and screen reader users land on the new step's task)
      this.heading.focus();
    });
    root.append(
      h("nav", { "aria-label": t("tutorial.steps") }, this.nav),
      h(
        "div",
        { className: "tutorial-layout" },
        h(
          "section",
          { className: "tutorial-task", testid: "tutorial-task", "aria-labelledby": "tutorial-heading" },
          this.heading,
          this.colour,
          this.task,
          this.rules,
          h("div", { className: "tutorial-actions" }, this.wrongButton, this.resetButton),
          this.feedback,
          this.nextButton,
          this.finished,
        ),
        this.board,
      ),
    );
    this.heading.id = "tutorial-heading";
  }

  private renderNav(): void {
    clear(this.nav);
    for (const s of this.steps) {
      const current = s.number === this.step.number;
      const done = this.done.has(s.number);
      this.nav.append(
        h(
          "li",
          {},
          h(
            "a",
            {
              href: `#${s.number}`,
              className: "tutorial-step-link" + (current ? " current" : "") + (done ? " done" : ""),
              testid: `tutorial-step-${s.number}`,
              "data-done": String(done),
              "aria-current": current ? "step" : null,
              onclick: (e: Event) => {
                e.preventDefault();
                this.open(s.number);
              },
            },
            `${s.number}. ${stepText(s.key, "title")}`,
            done ? h("span", { "aria-label": t("tutorial.done_mark") }, " ✓") : null,
          ),
        ),
      );
    }
  }

  /** Opens step `number` in its position (again, for "start again"). */
  open(number: number): void {
    const step = this.steps[number - 1];
    if (!step) return;
    this.generation++;
    this.step = step;
    this.view = step.view;
    history.replaceState(null, "", `#${number}`);
    this.renderNav();
    this.heading.textContent = t("tutorial.step_of", { n: number, count: this.steps.length, title: stepText(step.key, "title") });
    const start: TableView = step.view;
    const colour = start.rumis?.to_move_colour;
    this.colour.textContent = colour ? t("tutorial.you_play", { colour: colourName(colour) }) : "";
    this.colour.hidden = !colour;
    this.task.textContent = stepText(step.key, "task");
    clear(this.rules);
    this.rules.append(t("tutorial.rules"));
    step.rules.forEach((r, i) => this.rules.append(i ? ", " : " ", h("a", { href: ruleHref(r), target: "_blank", testid: `tutorial-rule-${r}` }, r)));
    this.say("idle");
    this.nextButton.hidden = true;
    this.finished.hidden = true;
    this.wrongButton.disabled = false;
    void this.mount(step.view);
    this.board.dataset.step = String(number);
    this.board.dataset.key = step.key;
  }

  /** The game's own board for the step's position, made anew for each step. */
  private async mount(view: TableView): Promise<void> {
    const generation = this.generation;
    this.ui?.destroy();
    this.ui = null;
    clear(this.board);
    setSeatNames(view.seats.map(seatName));
    const ui = view.game === "rumis" ? await rumisUI(this.board, this.context()) : new RummikubUI(this.board, this.context());
    if (generation !== this.generation) {
      ui.destroy();
      return;
    }
    this.ui = ui;
    ui.update(view);
    this.board.dataset.ready = String(generation);
  }

  /** What the board asks of its table: every move and check goes to the step's engine. */
  private context(): GameContext {
    return {
      id: `tutorial-${this.game}-${this.step.number}`,
      token: null,
      current: () => this.view,
      act: (action) => this.play(action),
      check: async (placement) => {
        const answer = await api.tutorialCheck(this.game, this.step.number, placing(placement));
        return { legal: answer.legal, reason: answer.reason, why: answer.why };
      },
      // The board's own messages (a red ghost placed, a table tile kept on the table).
      error: (message, code, why) => this.say("refused", reason(message, code, why)),
      clearError: () => {
        if (this.feedback.dataset.state === "refused") this.say("idle");
      },
    };
  }

  /** A move of the learner's: the engine's answer, and the position after it when done. */
  private async play(action: Action): Promise<boolean> {
    if (this.busy || this.view?.version !== this.step.view.version) return false;
    const generation = this.generation;
    this.busy = true;
    try {
      const answer = await api.tutorialCheck(this.game, this.step.number, action);
      if (generation !== this.generation) return false;
      this.answered(answer);
      if (answer.done && answer.view) {
        this.view = answer.view;
        this.ui?.update(answer.view);
        return true;
      }
      return false;
    } catch (e) {
      if (generation === this.generation) this.say("refused", e instanceof ApiError ? reason(e.message, e.code, e.why) : { text: String(e), rule: null });
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** The step's typical wrong try, sent to the engine like a move of the learner's. */
  private async showWrong(): Promise<void> {
    const generation = this.generation;
    const wrong = this.step.wrong;
    try {
      const answer = await api.tutorialCheck(this.game, this.step.number, wrong);
      if (generation !== this.generation) return;
      this.answered(answer, moveShown(wrong));
      // (a Rumis move is shown on the board too, as a ghost)
      const cells = cellsOf(wrong);
      if (cells) (this.ui as { showBetter?(cells: Cell[] | null): void } | null)?.showBetter?.(cells);
    } catch (e) {
      if (generation === this.generation) this.say("refused", e instanceof ApiError ? reason(e.message, e.code, e.why) : { text: String(e), rule: null });
    }
  }

  private answered(answer: TutorialCheck, shown?: Node): void {
    const key = this.step.key;
    if (!answer.legal) {
      this.say("refused", answer.why ? said(answer.why) : { text: answer.reason ?? "", rule: null }, shown);
    } else if (!answer.done) {
      this.say("missed", { text: t("tutorial.missed"), rule: null }, shown, answer.view);
    } else {
      this.done.add(this.step.number);
      remember(this.game, this.done);
      this.renderNav();
      this.say("done", { text: stepText(key, "done"), rule: null }, undefined, answer.view);
      this.wrongButton.disabled = true;
      const last = this.step.number === this.steps.length;
      this.nextButton.hidden = last;
      this.finished.hidden = !last;
      if (last) this.renderFinished();
      (last ? this.finished : this.nextButton).scrollIntoView?.({ block: "nearest" });
    }
  }

  /** The feedback box: the engine's refusal (with its rule) and the step's hint, a legal
   * move that misses the goal, or the step done with what it teaches. */
  private say(state: "idle" | "refused" | "missed" | "done", what?: { text: string; rule: string | null; nodes?: (Node | string)[] }, shown?: Node, after?: TableView): void {
    const box = this.feedback;
    clear(box);
    box.dataset.state = state;
    box.dataset.rule = what?.rule ?? "";
    box.className = `tutorial-feedback ${state}`;
    if (state === "idle" || !what) return;
    if (shown) box.append(h("p", { className: "tutorial-shown", testid: "tutorial-shown" }, t("tutorial.wrong_shown"), " ", shown));
    const said = what.nodes ?? [what.text];
    const head = state === "refused" ? tNodes("tutorial.refused", {}, { reason: h("span", {}, ...said) }) : state === "done" ? [t("tutorial.well_done")] : said;
    const line = h("p", { className: "tutorial-verdict", testid: "tutorial-verdict" }, ...head);
    if (what.rule) line.append(" ", h("a", { href: ruleHref(what.rule), target: "_blank", className: "why", testid: "tutorial-why" }, t("table.why", { rule: what.rule })));
    box.append(line);
    if (after?.over && after.result) {
      const you = after.you ?? 0;
      const scores = after.result.scores;
      box.append(h("p", { testid: "tutorial-score" }, t("tutorial.game_over", { you: scores[you] ?? 0, other: scores.find((_, i) => i !== you) ?? 0 })));
    }
    box.append(h("p", { className: "tutorial-explain", testid: "tutorial-explain" }, state === "done" ? what.text : stepText(this.step.key, "hint")));
  }

  private renderFinished(): void {
    clear(this.finished);
    this.finished.append(
      h("p", {}, t("tutorial.finished")),
      h("p", {}, h("a", { href: "/", className: "button primary", testid: "tutorial-play" }, t("tutorial.play_now")), " ", h("a", { href: `/rules/${this.game}` }, t("rules.read"))),
    );
  }
}
