// The Rummikub move log, built on the client from the views it receives: every turn as
// a line with its tiles drawn as tiles ("Bo laid 3 tiles and changed 2 sets", "Ana
// drew", "Cy ran out of time: 3 tiles"). A view says its last event (`last_event`);
// what a turn changed on the table comes from the table before and after it. Views can
// skip versions (the socket sends the newest one): the turns in between are read from
// the rack sizes (a rack that shrank laid tiles, one that grew by one drew, by more ran
// out of time). Lines since this player's last action are marked new.
import type { Event, TableView } from "../api";
import { clear, h, seatName } from "../dom";
import { lang, t } from "../i18n/i18n";
import { said } from "../i18n/server";
import { tileList } from "../pictures";

export interface LogLine {
  version: number;
  kind: "laid" | "melded" | "drew" | "passed" | "timeout" | "redealt" | "round";
  player: number | null;
  /** The tiles the turn laid (or, for your own draw, the tile you drew). */
  tiles: string[];
  /** Tiles counted (laid, or taken for a time-out) when they are not all known. */
  n: number;
  /** Sets on the table before the turn that it changed. */
  changed: number;
  round: number;
  fresh: boolean;
}

const setKey = (codes: string[]) => [...codes].sort().join(" ");

function multiset(codes: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

/** The tiles of `after` that `before` lacks (as multisets). */
function added(before: string[], after: string[]): string[] {
  const had = multiset(before);
  const out: string[] = [];
  for (const c of after) {
    const n = had.get(c) ?? 0;
    if (n > 0) had.set(c, n - 1);
    else out.push(c);
  }
  return out;
}

/** Sets of `before` that are not on the table `after` as they were. */
function changedSets(before: string[][], after: string[][]): number {
  const left = multiset(after.map(setKey));
  let changed = 0;
  for (const s of before) {
    const k = setKey(s);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else changed++;
  }
  return changed;
}

/** An event's sentence with its `{tiles}` drawn as tiles (the other parameters as words). */
export function eventLine(event: Event, names: string[]): (Node | string)[] {
  return said(event, "event", names).nodes;
}

let logs = 0;

export class MoveLog {
  lines: LogLine[] = [];
  /** Which log and which list of lines a drawn box shows (a new round starts a new list). */
  private readonly id = ++logs;
  private generation = 0;
  private prev: TableView | null = null;

  /** Reads what happened between the last view and this one. */
  note(view: TableView): void {
    const rk = view.rummikub;
    if (!rk) return;
    const prev = this.prev;
    if (prev && view.version <= prev.version) return;
    this.prev = view;
    const event = rk.last_event ?? null;
    const round = rk.round;
    const prk = prev?.rummikub;
    if (!prev || !prk) {
      // First view: only its last event is known.
      if (event) this.push(this.fromEvent(event, view.version, round, null, rk.table, null));
      return;
    }
    if (prk.round !== round) {
      this.lines = [];
      this.generation++;
      if (event && event.code !== "round_dealt") this.push(this.fromEvent(event, view.version, round, null, rk.table, null));
      else this.push({ version: view.version, kind: "round", player: null, tiles: [], n: 0, changed: 0, round, fresh: true });
      return;
    }
    const actor = event && typeof event.params?.player === "number" ? (event.params.player as number) : null;
    const gap = view.version - prev.version;
    if (gap > 1) {
      // Turns the views skipped: from the rack sizes, in turn order after the previous mover.
      const players = rk.rack_sizes.length;
      const start = prev.to_move ?? 0;
      for (let k = 0; k < players; k++) {
        const s = (start + k) % players;
        if (s === actor) continue;
        const d = (rk.rack_sizes[s] ?? 0) - (prk.rack_sizes[s] ?? 0);
        if (d < 0) this.push({ version: view.version, kind: prk.melded[s] ? "laid" : "melded", player: s, tiles: [], n: -d, changed: 0, round, fresh: true });
        else if (d === 1) this.push({ version: view.version, kind: "drew", player: s, tiles: [], n: 1, changed: 0, round, fresh: true });
        else if (d > 1) this.push({ version: view.version, kind: "timeout", player: s, tiles: [], n: d, changed: 0, round, fresh: true });
      }
    }
    if (event) this.push(this.fromEvent(event, view.version, round, prk.table, rk.table, view.you === actor ? this.drawnBy(prev, view) : null));
  }

  /** Your own drawn tile: what your rack gained. */
  private drawnBy(prev: TableView, view: TableView): string | null {
    const before = prev.rummikub?.rack;
    const after = view.rummikub?.rack;
    if (!before || !after) return null;
    const extra = added(before, after);
    return extra.length === 1 ? extra[0] : null;
  }

  private fromEvent(event: Event, version: number, round: number, before: string[][] | null, after: string[][], drawn: string | null): LogLine {
    const p = event.params ?? {};
    const player = typeof p.player === "number" ? p.player : null;
    const base = { version, player, tiles: [] as string[], n: 0, changed: 0, round, fresh: true };
    switch (event.code) {
      case "played":
      case "melded": {
        const tiles = Array.isArray(p.tiles) ? (p.tiles as unknown[]).map(String) : before ? added(before.flat(), after.flat()) : [];
        return { ...base, kind: event.code === "melded" ? "melded" : "laid", tiles, n: tiles.length, changed: before ? changedSets(before, after) : 0 };
      }
      case "drew":
        return { ...base, kind: "drew", tiles: drawn ? [drawn] : [], n: 1 };
      case "passed":
        return { ...base, kind: "passed" };
      case "penalty":
        return { ...base, kind: "timeout", n: Number(p.tiles) || 0 };
      case "redealt":
        return { ...base, kind: "redealt" };
      default:
        return { ...base, kind: "round" };
    }
  }

  private push(line: LogLine): void {
    // Your own turns are not news to you.
    if (line.player !== null && line.player === this.prev?.you) line.fresh = false;
    const last = this.lines[this.lines.length - 1];
    if (last && last.version === line.version && last.kind === line.kind && last.player === line.player) return;
    this.lines.push(line);
  }

  /** Your own action: the lines so far are no longer new. */
  seen(): void {
    for (const l of this.lines) l.fresh = false;
  }

  /** Draws the lines into `box`: only the new ones are added (a long game's log is
   * not built again on every view); the whole list again when the round, the names or
   * the language change. */
  render(box: HTMLElement, view: TableView): void {
    const names = view.seats.map(seatName);
    const key = `${this.id}:${this.generation}:${view.you}:${lang()}:${names.join("\u0001")}`;
    if (box.dataset.key !== key || this.lines.length < box.querySelectorAll("li.log-line").length || this.lines.length === 0) {
      clear(box);
      box.dataset.key = key;
      if (this.lines.length === 0) {
        box.append(h("li", { className: "muted" }, t("board.log_empty")));
        return;
      }
    }
    const shown = box.querySelectorAll<HTMLElement>("li.log-line");
    shown.forEach((li, i) => li.classList.toggle("fresh", !!this.lines[i]?.fresh));
    for (let i = shown.length; i < this.lines.length; i++) box.append(this.lineEl(this.lines[i], i, names, view.you));
    if (shown.length < this.lines.length) box.scrollTop = box.scrollHeight;
  }

  private lineEl(l: LogLine, i: number, names: string[], you: number | null): HTMLElement {
    const player = l.player === null ? "" : (names[l.player] ?? t("seat.n", { n: l.player + 1 }));
    const words: (Node | string)[] = [];
    switch (l.kind) {
      case "laid":
      case "melded":
        words.push(t(l.kind === "laid" ? "board.log_laid" : "board.log_melded", { player, n: l.n }));
        if (l.changed > 0) words.push(" ", t("board.log_changed", { n: l.changed }));
        if (l.tiles.length) words.push(": ", tileList(l.tiles));
        break;
      case "drew":
        if (l.player !== null && l.player === you) {
          words.push(t("board.log_you_drew"));
          if (l.tiles.length) words.push(": ", tileList(l.tiles));
        } else words.push(t("board.log_drew", { player }));
        break;
      case "timeout":
        words.push(t("board.log_timeout", { player, n: l.n }));
        break;
      case "passed":
        words.push(said({ code: "passed", rule: null, params: { player: l.player } }, "event", names).text);
        break;
      case "redealt":
        words.push(said({ code: "redealt", rule: null, params: { player: l.player } }, "event", names).text);
        break;
      case "round":
        words.push(said({ code: "round_dealt", rule: null, params: { round: l.round } }, "event", names).text);
        break;
    }
    return h(
      "li",
      {
        className: "log-line" + (l.fresh ? " fresh" : ""),
        testid: `rk-log-${i}`,
        "data-kind": l.kind,
        "data-player": l.player === null ? "" : String(l.player),
        "data-tiles": l.tiles.join(" "),
        "data-n": String(l.n),
        "data-changed": String(l.changed),
        "data-version": String(l.version),
      },
      // (shown while the line is new: CSS hides it after your next action)
      h("span", { className: "new-badge" }, t("board.log_new")),
      ...words,
    );
  }
}
