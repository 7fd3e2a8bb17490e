// The Rummikub puzzles, /puzzles: the daily puzzle (the same for everyone on a date,
// UTC) and the older ones (`/puzzles#YYYY-MM-DD`). The table and the rack are drawn by
// the table's own Rummikub board, fed a view made here, so the player builds the new
// table as at a table (drag and drop, click to move, the keyboard). "Check" sends the
// whole new table to the server, whose rules engine accepts it (solved when it lays the
// puzzle's goal) or refuses it with its reason, said as at a table. "Show the solution"
// reveals a best play. Solved puzzles are remembered in this browser (localStorage
// `rumi.puzzles.solved`).
import "./puzzles.css";
import { ApiError, call, type Action, type TableView } from "../api";
import type { RummikubPuzzleCheck, RummikubPuzzleList, RummikubPuzzleSolution, RummikubPuzzleView } from "../generated/api";
import { clear, h } from "../dom";
import { t } from "../i18n/i18n";
import { reason, ruleHref, said, setSeatNames } from "../i18n/server";
import { tileFace, tileList, tNodes } from "../pictures";
import { RummikubUI } from "../rummikub/ui";
import type { GameContext } from "../table";

const SOLVED_KEY = "rumi.puzzles.solved";
const BASE = "/api/puzzles/rummikub";

/** The puzzles solved in this browser, by id. */
function solvedIds(): Set<string> {
  try {
    const ids = JSON.parse(localStorage.getItem(SOLVED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

function rememberSolved(id: string): void {
  const ids = solvedIds();
  ids.add(id);
  try {
    // The newest 400 are plenty: puzzles are kept for a month.
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...ids].sort().slice(-400)));
  } catch {
    /* no storage */
  }
}

/** A date id shown in the player's language ("6 December 2026"). */
function dateText(id: string): string {
  const d = new Date(`${id}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return id;
  return d.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

function errorText(e: unknown): string {
  return e instanceof ApiError ? reason(e.message, e.code, e.why).text : String(e);
}

/** A tile drawn as the table draws it, not movable. */
function tileEl(code: string, laid = false): HTMLElement {
  const { className, name, face } = tileFace(code);
  return h("span", { className: `${className}${laid ? " laid" : ""}`, role: "img", "aria-label": name, title: name, "data-tile": code }, ...face);
}

export async function showPuzzles(app: HTMLElement): Promise<void> {
  clear(app);
  document.title = `rumi — ${t("puzzles.title")}`;
  const page = h("article", { className: "puzzles", testid: "puzzles" });
  page.append(h("h1", {}, t("puzzles.title")), h("p", { className: "puzzles-intro" }, t("puzzles.intro"), " ", h("a", { href: "/learn/rummikub" }, t("puzzles.learn"))));
  app.append(page);
  new PuzzlePage(page).start();
}

class PuzzlePage {
  private puzzle: RummikubPuzzleView | null = null;
  private ui: RummikubUI | null = null;
  private view: TableView | null = null;
  /** Bumped on every puzzle opened: answers for an earlier one are dropped. */
  private generation = 0;
  private busy = false;
  private today: string | null = null;

  private heading = h("h2", { testid: "puzzle-heading", tabindex: -1, id: "puzzle-heading" });
  private facts = h("p", { className: "puzzle-facts", testid: "puzzle-facts" });
  private goal = h("p", { className: "puzzle-goal", testid: "puzzle-goal" });
  private feedback = h("div", { className: "puzzle-feedback", testid: "puzzle-feedback", role: "status", "aria-live": "polite", "data-state": "idle" });
  private solutionButton = h("button", { testid: "puzzle-show-solution" }, t("puzzles.show_solution"));
  private resetButton = h("button", { testid: "puzzle-reset" }, t("puzzles.reset"));
  private solutionBox = h("div", { className: "puzzle-solution", testid: "puzzle-solution", hidden: true });
  private board = h("div", { className: "puzzle-board game-box", testid: "puzzle-board" });
  private list = h("ol", { className: "puzzle-list", testid: "puzzle-list" });
  private listNote = h("p", { className: "muted", testid: "puzzle-list-note" }, t("puzzles.loading"));

  constructor(root: HTMLElement) {
    this.solutionButton.addEventListener("click", () => void this.showSolution());
    this.resetButton.addEventListener("click", () => this.puzzle && this.open(this.puzzle));
    root.append(
      h(
        "div",
        { className: "puzzle-layout" },
        h(
          "section",
          { className: "puzzle-task", testid: "puzzle-task", "aria-labelledby": "puzzle-heading" },
          this.heading,
          this.facts,
          this.goal,
          h("div", { className: "puzzle-actions" }, this.resetButton, this.solutionButton),
          this.feedback,
          this.solutionBox,
        ),
        this.board,
        h("section", { className: "puzzle-older", "aria-labelledby": "puzzle-older-title" }, h("h2", { id: "puzzle-older-title" }, t("puzzles.older")), this.listNote, this.list),
      ),
    );
    window.addEventListener("hashchange", () => void this.load(location.hash.slice(1)));
  }

  start(): void {
    void this.load(location.hash.slice(1));
    void this.loadList();
  }

  /** The puzzle of the address's date, or today's. */
  private async load(id: string): Promise<void> {
    const generation = ++this.generation;
    this.heading.textContent = t("puzzles.loading");
    this.board.dataset.ready = "";
    try {
      const puzzle = await call<RummikubPuzzleView>("GET", id ? `${BASE}/${encodeURIComponent(id)}` : `${BASE}/daily`);
      if (generation !== this.generation) return;
      this.open(puzzle);
    } catch (e) {
      if (generation !== this.generation) return;
      this.heading.textContent = t("puzzles.failed", { error: errorText(e) });
      this.say("refused", errorText(e));
    }
  }

  private async loadList(): Promise<void> {
    try {
      const list = await call<RummikubPuzzleList>("GET", BASE);
      this.today = list.today;
      this.listNote.hidden = true;
      this.renderList(list);
      if (this.puzzle) this.renderFacts(this.puzzle);
    } catch (e) {
      this.listNote.textContent = t("puzzles.failed", { error: errorText(e) });
    }
  }

  private renderList(list: RummikubPuzzleList): void {
    clear(this.list);
    const solved = solvedIds();
    for (const p of list.puzzles) {
      const done = solved.has(p.id);
      const current = this.puzzle?.id === p.id;
      this.list.append(
        h(
          "li",
          {},
          h(
            "a",
            {
              href: p.id === list.today ? "/puzzles" : `/puzzles#${p.id}`,
              className: "puzzle-link" + (current ? " current" : "") + (done ? " done" : ""),
              testid: `puzzle-link-${p.id}`,
              "data-solved": String(done),
              "aria-current": current ? "page" : null,
              onclick: (e: Event) => {
                e.preventDefault();
                history.pushState(null, "", p.id === list.today ? "/puzzles" : `/puzzles#${p.id}`);
                void this.load(p.id);
                this.heading.focus();
              },
            },
            h("span", { className: "puzzle-date" }, p.id === list.today ? t("puzzles.today_short", { date: dateText(p.id) }) : dateText(p.id)),
            h("span", { className: "puzzle-level", "aria-label": t("puzzles.difficulty", { n: p.difficulty }), title: t("puzzles.difficulty", { n: p.difficulty }) }, "●".repeat(p.difficulty) + "○".repeat(Math.max(0, 5 - p.difficulty))),
            done ? h("span", { className: "puzzle-done" }, " ✓ ", t("puzzles.solved_mark")) : null,
          ),
        ),
      );
    }
  }

  private renderFacts(p: RummikubPuzzleView): void {
    this.heading.textContent = p.id === this.today || !this.today ? t("puzzles.daily", { date: dateText(p.id) }) : t("puzzles.of_date", { date: dateText(p.id) });
    clear(this.facts);
    this.facts.append(
      h("span", { testid: "puzzle-difficulty", "data-difficulty": String(p.difficulty) }, t("puzzles.difficulty", { n: p.difficulty })),
      " · ",
      t("puzzles.changed", { n: p.changed_sets }),
    );
    if (solvedIds().has(p.id)) this.facts.append(" · ", h("span", { className: "puzzle-done", testid: "puzzle-solved-before" }, "✓ ", t("puzzles.solved_mark")));
  }

  /** Opens a puzzle in its position (again, for "start again"). */
  private open(p: RummikubPuzzleView): void {
    this.generation++;
    this.puzzle = p;
    this.renderFacts(p);
    this.goal.textContent = p.goal === p.rack.length ? t("puzzles.goal_all", { n: p.goal }) : t("puzzles.goal_some", { goal: p.goal, n: p.rack.length });
    this.goal.dataset.goal = String(p.goal);
    this.say("idle");
    this.solutionBox.hidden = true;
    clear(this.solutionBox);
    this.solutionButton.disabled = false;
    this.board.dataset.id = p.id;
    this.mount(this.viewOf(p, p.table, p.rack, 0));
    for (const a of this.list.querySelectorAll<HTMLElement>(".puzzle-link")) {
      const current = a.dataset.testid === `puzzle-link-${p.id}`;
      a.classList.toggle("current", current);
      if (current) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
  }

  /** The puzzle as a table's view: the player (seat 0) to move, melded, alone. */
  private viewOf(p: RummikubPuzzleView, table: string[][], rack: string[], version: number): TableView {
    const playing = version === 0;
    const view: TableView = {
      id: `puzzle-${p.id}`,
      game: "rummikub",
      version,
      you: 0,
      status: playing ? "playing" : "over",
      waiting_for: [],
      seats: [{ seat: 0, name: t("puzzles.you"), kind: "human", bot: null, claimed: true, connected: true, away_since_ms: null, handover_ms: null, left: false }],
      to_move: playing ? 0 : null,
      over: !playing,
      deadline_ms: null,
      turn_seconds: null,
      result: null,
      fairness: { commitment: "", practice_seed: null, seed: null, salt: null },
      hints: false,
      rated: false,
      bot_trouble: [],
      rummikub: {
        rules: p.rules,
        rack,
        rack_sizes: [rack.length],
        melded: [true],
        pool_size: 0,
        table,
        round: 1,
        rounds: 1,
        totals: [0],
        round_over: null,
        can_claim_redeal: false,
        last: null,
        last_event: null,
      },
    };
    return view;
  }

  private mount(view: TableView): void {
    this.ui?.destroy();
    clear(this.board);
    setSeatNames([t("puzzles.you")]);
    this.view = view;
    this.ui = new RummikubUI(this.board, this.context());
    this.ui.update(view);
    this.board.dataset.ready = String(this.generation);
  }

  private context(): GameContext {
    return {
      id: `puzzle-${this.puzzle?.id ?? ""}`,
      token: null,
      endTurnLabel: t("puzzles.check"),
      current: () => this.view,
      act: (action) => this.check(action),
      error: (message, code, why) => this.say("refused", reason(message, code, why).nodes, why?.rule ?? null),
      clearError: () => {
        if (this.feedback.dataset.state === "refused") this.say("idle");
      },
    };
  }

  /** The player's table, checked by the server's engine. */
  private async check(action: Action): Promise<boolean> {
    const p = this.puzzle;
    if (!p || this.busy || action.type !== "play") return false;
    const generation = this.generation;
    this.busy = true;
    try {
      const answer = await call<RummikubPuzzleCheck>("POST", `${BASE}/${encodeURIComponent(p.id)}/check`, { table: action.table });
      if (generation !== this.generation) return false;
      this.answered(p, answer, action.table);
      return answer.solved;
    } catch (e) {
      if (generation === this.generation) this.say("refused", errorText(e));
      return false;
    } finally {
      this.busy = false;
    }
  }

  private answered(p: RummikubPuzzleView, answer: RummikubPuzzleCheck, table: string[][]): void {
    if (answer.code === "refused") {
      const what = answer.why ? said(answer.why) : { nodes: [answer.reason ?? ""], rule: null };
      this.say("refused", what.nodes, what.rule);
    } else if (answer.code === "short") {
      this.say("short", t("puzzles.short", { laid: answer.laid, goal: answer.goal }));
    } else {
      rememberSolved(p.id);
      this.say("solved", t("puzzles.solved", { n: answer.laid }));
      // The solved table stays on show, no longer to be moved.
      const onTable = p.table.flat();
      const left = [...p.rack];
      for (const code of table.flat()) {
        const old = onTable.indexOf(code);
        if (old >= 0) onTable.splice(old, 1);
        else if (left.includes(code)) left.splice(left.indexOf(code), 1);
      }
      this.mount(this.viewOf(p, table, left, 1));
      this.renderFacts(p);
      const link = this.list.querySelector<HTMLElement>(`[data-testid="puzzle-link-${p.id}"]`);
      if (link && link.dataset.solved !== "true") {
        link.dataset.solved = "true";
        link.classList.add("done");
        link.append(h("span", { className: "puzzle-done" }, " ✓ ", t("puzzles.solved_mark")));
      }
    }
  }

  /** Reveals a best play: its sets, the changed ones marked, the laid tiles lit. */
  private async showSolution(): Promise<void> {
    const p = this.puzzle;
    if (!p) return;
    const generation = this.generation;
    try {
      const solution = await call<RummikubPuzzleSolution>("GET", `${BASE}/${encodeURIComponent(p.id)}/solution`);
      if (generation !== this.generation) return;
      this.renderSolution(p, solution);
    } catch (e) {
      if (generation === this.generation) this.say("refused", errorText(e));
    }
  }

  private renderSolution(p: RummikubPuzzleView, solution: RummikubPuzzleSolution): void {
    clear(this.solutionBox);
    const old = new Map<string, number>();
    for (const s of p.table) {
      const key = [...s].sort().join(" ");
      old.set(key, (old.get(key) ?? 0) + 1);
    }
    const laid = new Map<string, number>();
    for (const c of solution.laid) laid.set(c, (laid.get(c) ?? 0) + 1);
    const sets = h("div", { className: "puzzle-solution-sets", testid: "puzzle-solution-sets" });
    for (const s of solution.table) {
      const key = [...s].sort().join(" ");
      const kept = (old.get(key) ?? 0) > 0;
      if (kept) old.set(key, old.get(key)! - 1);
      sets.append(
        h(
          "div",
          { className: "puzzle-set" + (kept ? "" : " changed"), "data-tiles": s.join(" "), "data-changed": String(!kept) },
          ...s.map((code) => {
            const n = kept ? 0 : (laid.get(code) ?? 0);
            if (n > 0) laid.set(code, n - 1);
            return tileEl(code, n > 0);
          }),
        ),
      );
    }
    this.solutionBox.append(h("h3", {}, t("puzzles.solution")), h("p", { className: "muted", testid: "puzzle-solution-note" }, ...tNodes("puzzles.solution_note", { n: solution.changed.length }, { tiles: tileList(solution.laid) })), sets);
    this.solutionBox.hidden = false;
    this.solutionButton.disabled = true;
  }

  /** `text`: a sentence, or one with tiles drawn in it (a refusal). */
  private say(state: "idle" | "refused" | "short" | "solved", text: string | (Node | string)[] = "", rule: string | null = null): void {
    const box = this.feedback;
    clear(box);
    box.dataset.state = state;
    box.className = `puzzle-feedback ${state}`;
    if (state === "idle") return;
    const said = typeof text === "string" ? [text] : text;
    const line = h("p", { className: "puzzle-verdict", testid: "puzzle-verdict" }, ...(state === "refused" ? tNodes("puzzles.refused", {}, { reason: h("span", {}, ...said) }) : said));
    if (rule) line.append(" ", h("a", { href: ruleHref(rule), target: "_blank", className: "why", testid: "puzzle-why" }, t("table.why", { rule })));
    box.append(line);
  }
}
