// The replay page's review (`GET /api/tables/{id}/review`, docs/reviews.md): every
// turn against the best the engines find. The server computes it in the background;
// the page shows its progress until it is ready, then the players' summaries, a chart
// per player (Rummikub) or of every player's win chance (Rumis), and the turns. A
// turn or a point jumps the replay there; a Rumis move shows the better move as a
// ghost on the board.
import { ApiError, call, type Cell } from "./api";
import type { HintPlay, ReviewAnswer, ReviewPlayer, ReviewTurn } from "./generated/api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { moveEl, moveText, notationMoveEl, readMove, tileEl, tNodes } from "./pictures";
import { seriesChart, type Series } from "./chart";
import { colourCss } from "./rumis/palette";

export interface ReviewHooks {
  /** Shows the replay at step `index` (0: the start; `v`: after the action of version `v`). */
  go(index: number): void;
  /** Rumis: shows a better move as a ghost on the board at the step on show. */
  ghost(cells: Cell[] | null): void;
}

/** How long to wait between asks while the review is being computed. */
const POLL_MS = 1500;

/** The review section: a button that starts it (or it starts at once, `start`). */
export function reviewSection(id: string, names: string[], hooks: ReviewHooks, start: boolean): HTMLElement {
  const button = h("button", { className: "primary", testid: "review-start" }, t("review.start"));
  const progress = h("progress", { max: 1, value: 0, testid: "review-progress", hidden: true, "aria-label": t("review.progress_label") });
  const status = h("p", { className: "muted", testid: "review-status", role: "status" });
  const body = h("div", { testid: "review" });
  const section = h("section", { className: "review", testid: "review-section", "aria-labelledby": "review-title" }, h("h2", { id: "review-title" }, t("review.title")), h("p", { className: "muted" }, t("review.about")), button, progress, status, body);
  let asking = false;
  const ask = async (): Promise<void> => {
    if (asking) return;
    asking = true;
    button.hidden = true;
    progress.hidden = false;
    try {
      for (;;) {
        const answer = await call<ReviewAnswer>("GET", `/api/tables/${encodeURIComponent(id)}/review`);
        progress.value = answer.progress;
        section.dataset.status = answer.status;
        if (answer.status === "ready") {
          progress.hidden = true;
          status.textContent = "";
          render(body, answer, names, hooks);
          return;
        }
        status.textContent = t("review.pending", { pct: Math.round(answer.progress * 100) });
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } catch (e) {
      // Asked too often (another tab of this address polls too): wait, then go on.
      if (e instanceof ApiError && e.code === "too_many_reviews") {
        asking = false;
        setTimeout(() => void ask(), 10_000);
        status.textContent = reason(e.message, e.code, e.why).text;
        return;
      }
      progress.hidden = true;
      button.hidden = false;
      status.textContent = e instanceof ApiError ? reason(e.message, e.code, e.why).text : String(e);
    } finally {
      asking = false;
    }
  };
  button.addEventListener("click", () => void ask());
  if (start) void ask();
  return section;
}

function render(body: HTMLElement, review: ReviewAnswer, names: string[], hooks: ReviewHooks): void {
  clear(body);
  // The names as the page shows them (a bot's in the reader's language).
  const name = (seat: number) => names[seat] || review.players[seat]?.name || t("review.player_n", { n: seat + 1 });
  if (review.game === "rummikub") renderRummikub(body, review, name, hooks);
  else renderRumis(body, review, name, hooks);
}

function pct(chance: number): number {
  return Math.round(chance * 100);
}

/** Sets drawn as small tiles, the tiles in `laid` marked. */
function tableOf(sets: string[][], laid: string[], testid: string): HTMLElement {
  const left = [...laid];
  const box = h("div", { className: "review-table", testid, "data-sets": sets.length });
  if (sets.length === 0) box.append(h("span", { className: "muted" }, t("review.empty_table")));
  for (const set of sets) {
    box.append(
      h(
        "span",
        { className: "review-set" },
        ...set.map((code) => {
          const tile = tileEl(code);
          const at = left.indexOf(code);
          if (at >= 0) {
            left.splice(at, 1);
            tile.classList.add("laid");
          }
          return tile;
        }),
      ),
    );
  }
  return box;
}

function side(title: string, testid: string, sets: string[][], laid: string[], note: string): HTMLElement {
  return h("div", { className: "review-side", testid }, h("h4", {}, title), h("p", { className: "muted small-text" }, note), tableOf(sets, laid, `${testid}-table`));
}

function bestNote(best: HintPlay): string {
  return t("review.laid", { n: best.tiles, value: best.value });
}

function renderRummikub(body: HTMLElement, review: ReviewAnswer, name: (seat: number) => string, hooks: ReviewHooks): void {
  const summary = h(
    "table",
    { className: "games-table", testid: "review-summary" },
    h("thead", {}, h("tr", {}, ...(["review.player", "review.tiles_laid", "review.draws_with_play", "review.points_missed"] as const).map((k) => h("th", { scope: "col" }, t(k))))),
    h(
      "tbody",
      {},
      ...review.players.map((p: ReviewPlayer) => {
        const r = p.rummikub!;
        return h(
          "tr",
          { testid: `review-player-${p.seat}` },
          h("td", {}, name(p.seat)),
          h("td", { className: "num", "data-laid": r.tiles_laid, "data-possible": r.tiles_possible }, t("review.of", { a: r.tiles_laid, b: r.tiles_possible })),
          h("td", { className: "num" }, String(r.draws_with_play)),
          h("td", { className: "num" }, String(r.points_missed)),
        );
      }),
    ),
  );
  body.append(h("h3", {}, t("review.players")), scrollable(summary, t("review.players")));
  // A chart per player: the tiles they laid against the tiles they could have, summed over their turns.
  const charts = h("div", { className: "review-charts" });
  for (const p of review.players) {
    const turns = review.turns.filter((turn) => turn.seat === p.seat && turn.rummikub);
    let laid = 0;
    let possible = 0;
    const laidLine: number[] = [0];
    const possibleLine: number[] = [0];
    const points = new Map<number, { title: string; mark?: string; onclick(): void }>();
    turns.forEach((turn, i) => {
      const r = turn.rummikub!;
      laid += r.played.tiles;
      possible += r.best_tiles?.tiles ?? 0;
      laidLine.push(laid);
      possibleLine.push(possible);
      if (r.drew_with_play || r.tiles_missed > 0) {
        points.set(i + 1, { title: turnTitle(turn, name), mark: "miss", onclick: () => openTurn(body, turn, hooks) });
      }
    });
    const max = Math.max(4, possible);
    const series: Series[] = [
      { label: t("review.laid_line"), colour: "var(--accent)", values: laidLine, points },
      { label: t("review.possible_line"), colour: "#8a7f70", values: possibleLine },
    ];
    charts.append(h("figure", { className: "review-chart" }, h("figcaption", {}, name(p.seat)), seriesChart(series, max, "", `review-chart-${p.seat}`, t("review.chart_caption", { player: name(p.seat) }))));
  }
  body.append(h("h3", {}, t("review.charts")), charts);
  const list = h("ol", { className: "review-turns", testid: "review-turns" });
  review.turns.forEach((turn, i) => list.append(h("li", {}, rummikubTurn(turn, i, name, hooks))));
  body.append(h("h3", {}, t("review.turns")), list);
}

function turnTitle(turn: ReviewTurn, name: (seat: number) => string): string {
  const r = turn.rummikub!;
  const did =
    r.played.kind === "play"
      ? t("review.laid", { n: r.played.tiles, value: r.played.value })
      : r.drew_with_play
        ? t("review.drew_with_play")
        : r.played.kind === "timeout"
          ? t("review.timed_out")
          : t("review.drew");
  const best = r.best_tiles && r.tiles_missed > 0 ? ` · ${t("review.best_was", { n: r.best_tiles.tiles })}` : "";
  return `${name(turn.seat)}: ${did}${best}`;
}

/** Opens a turn in the list and shows the replay before it. */
function openTurn(body: HTMLElement, turn: ReviewTurn, hooks: ReviewHooks): void {
  const item = body.querySelector<HTMLDetailsElement>(`[data-version="${turn.version}"]`);
  if (item) {
    item.open = true;
    item.scrollIntoView({ block: "nearest" });
  }
  hooks.go(Number(turn.version) - 1);
}

function rummikubTurn(turn: ReviewTurn, i: number, name: (seat: number) => string, hooks: ReviewHooks): HTMLElement {
  const r = turn.rummikub!;
  const flagged = r.drew_with_play || r.tiles_missed > 0;
  const item = h("details", { className: "review-turn" + (flagged ? " flagged" : ""), testid: `review-turn-${i}`, "data-version": turn.version, "data-flagged": flagged ? "1" : "0" });
  const summary = h("summary", {}, h("span", { className: "turn-n" }, `${i + 1}.`), " ", turnTitle(turn, name));
  item.append(summary);
  // Drawn when opened: a long game has many turns.
  item.addEventListener("toggle", () => {
    if (!item.open) return;
    hooks.go(Number(turn.version) - 1);
    if (item.childElementCount > 1) return;
    const rack = h("div", { className: "review-rack" }, h("span", { className: "who" }, t("review.rack")), h("span", { className: "tile-list" }, ...r.rack.map(tileEl)));
    const sides = h(
      "div",
      { className: "review-sides", testid: `review-sides-${i}` },
      side(t("review.played"), `review-played-${i}`, r.played.table, r.played.placed, turnTitle(turn, name)),
      r.best_tiles
        ? side(t("review.best_tiles"), `review-best-${i}`, r.best_tiles.table, r.best_tiles.placed, bestNote(r.best_tiles))
        : h("div", { className: "review-side", testid: `review-best-${i}` }, h("h4", {}, t("review.best_tiles")), h("p", { className: "muted" }, t(r.unsolved ? "review.unsolved" : "review.no_play"))),
    );
    if (r.best_value && r.best_tiles && (r.best_value.value !== r.best_tiles.value || r.best_value.tiles !== r.best_tiles.tiles)) {
      sides.append(side(t("review.best_value"), `review-best-value-${i}`, r.best_value.table, r.best_value.placed, bestNote(r.best_value)));
    }
    item.append(rack, sides);
  });
  return item;
}

function renderRumis(body: HTMLElement, review: ReviewAnswer, name: (seat: number) => string, hooks: ReviewHooks): void {
  const method = review.rumis;
  if (method) body.append(h("p", { className: "muted", testid: "review-method" }, t("review.rumis_method", { playouts: method.playouts, inaccuracy: method.inaccuracy, mistake: method.mistake, blunder: method.blunder })));
  const ghostNote = h("p", { className: "review-ghost", testid: "review-ghost", role: "status" });
  const turns = review.turns.filter((turn) => turn.rumis);
  const show = (turn: ReviewTurn, n: number) => {
    const r = turn.rumis!;
    hooks.go(Number(turn.version) - 1);
    hooks.ghost(r.best ? r.best.cells : null);
    ghostNote.dataset.move = r.best?.move ?? "";
    ghostNote.dataset.index = String(n);
    clear(ghostNote);
    ghostNote.append(...(r.best ? tNodes("review.ghost", { n: n + 1, pct: pct(r.best.win_chance) }, { move: moveEl(r.best.stone, r.best.cells, r.colour, r.best.move) }) : [t("review.forced", { n: n + 1 })]));
  };
  // Every player's win chance at the start (best play) and after each move; the mover's
  // point of each move opens it.
  const series: Series[] = review.players.map((p) => {
    const values = turns.map((turn) => pct(turn.rumis!.after[p.seat] ?? 0));
    if (turns.length) values.unshift(pct(turns[0].rumis!.before[p.seat] ?? 0));
    const points = new Map<number, { title: string; mark?: string; onclick(): void }>();
    turns.forEach((turn, n) => {
      if (turn.seat !== p.seat) return;
      const r = turn.rumis!;
      points.set(n + 1, { title: moveTitle(turn, n, name), mark: r.judgement ?? undefined, onclick: () => show(turn, n) });
    });
    const colour = p.rumis?.colours[0];
    return { label: name(p.seat), colour: colour ? colourCss(colour) : "var(--accent)", values, points };
  });
  body.append(h("h3", {}, t("review.win_chances")), seriesChart(series, 100, "%", "review-chart", t("review.win_caption")), ghostNote);
  const summary = h(
    "table",
    { className: "games-table", testid: "review-summary" },
    h("thead", {}, h("tr", {}, ...(["review.player", "review.inaccuracies", "review.mistakes", "review.blunders", "review.average_drop"] as const).map((k) => h("th", { scope: "col" }, t(k))))),
    h(
      "tbody",
      {},
      ...review.players.map((p) => {
        const r = p.rumis!;
        return h(
          "tr",
          { testid: `review-player-${p.seat}` },
          h("td", {}, name(p.seat)),
          h("td", { className: "num" }, String(r.inaccuracies)),
          h("td", { className: "num" }, String(r.mistakes)),
          h("td", { className: "num" }, String(r.blunders)),
          h("td", { className: "num" }, t("review.points", { n: r.average_drop })),
        );
      }),
    ),
  );
  body.append(h("h3", {}, t("review.players")), scrollable(summary, t("review.players")));
  const list = h("ol", { className: "review-turns", testid: "review-turns" });
  turns.forEach((turn, n) => {
    const r = turn.rumis!;
    list.append(
      h(
        "li",
        { className: "review-move" + (r.judgement ? ` ${r.judgement}` : "") },
        h("button", { className: "small link-like", testid: `review-move-${n}`, "data-judgement": r.judgement ?? "", "data-move": r.move, title: moveTitle(turn, n, name), onclick: () => show(turn, n) }, ...moveLine(turn, n, name)),
      ),
    );
  });
  body.append(h("h3", {}, t("review.moves")), list);
}

/** A move of the list in words (a chart point's title). */
function moveTitle(turn: ReviewTurn, n: number, name: (seat: number) => string): string {
  return moveLine(turn, n, name, false).map((x) => (typeof x === "string" ? x : (x.textContent ?? ""))).join("");
}

/** A move of the list: who, the stone and where (drawn, or in words), the win chance
 * before and after, the judgement, and the bot's better move. */
function moveLine(turn: ReviewTurn, n: number, name: (seat: number) => string, drawn = true): (Node | string)[] {
  const r = turn.rumis!;
  const mover = turn.seat;
  const judgements = { inaccuracy: t("review.inaccuracy"), mistake: t("review.mistake"), blunder: t("review.blunder") };
  const judged = r.judgement ? ` · ${judgements[r.judgement]} (−${r.drop})` : "";
  const move = (text: string, colour: string | null): Node | string => {
    if (!drawn) {
      const m = readMove(text);
      return m ? moveText(m.stone, m.cells) : "";
    }
    return notationMoveEl(text, colour);
  };
  const line: (Node | string)[] = [`${n + 1}. ${name(mover)} `, move(r.move, r.colour), `: ${pct(r.before[mover] ?? 0)}% → ${pct(r.after[mover] ?? 0)}%${judged}`];
  // The bot's choice, when it rates it better than the move played.
  if (r.best && r.best.move !== r.move && r.drop > 0) {
    const best = move(r.best.move, r.colour);
    line.push(" · ", ...(typeof best === "string" ? [t("review.better", { move: best, pct: pct(r.best.win_chance) })] : tNodes("review.better", { pct: pct(r.best.win_chance) }, { move: best })));
  }
  return line;
}

/** A wide table in a box that scrolls sideways: the box takes the keyboard's focus, so
 * that it scrolls without a mouse (WCAG 2.1.1), and is named by its heading. */
function scrollable(table: HTMLElement, label: string): HTMLElement {
  return h("div", { className: "table-scroll", tabindex: 0, role: "region", "aria-label": label }, table);
}
