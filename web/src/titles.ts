// A table's title names the game, its board or rules and the players ("Rumis · Chullpa ·
// Ana vs Inti (bot, expert)"), not its id (issue #46, point 1): the lobby's lists, the
// table page's heading and the tab's title all say it the same way.
import type { TableView } from "./api";
import { seatName } from "./dom";
import { t, tr } from "./i18n/i18n";
import { botSeatName } from "./names";

export interface TitleSeat {
  seat: number;
  name?: string | null;
  kind?: string;
  bot?: string | null;
  claimed?: boolean;
}

/** A seat in a title: a bot as "Inti (bot, expert)", a person by name. */
export function titleName(s: TitleSeat): string {
  return s.kind === "bot" && !s.claimed ? botSeatName(s, "title") : seatName(s);
}

export function gameName(game: string): string {
  return game === "rumis" ? "Rumis" : game === "rummikub" ? "Rummikub" : game;
}

/** "Rumis · Chullpa · Ana vs Inti (bot, expert)"; `what` is the board or the rules. */
export function tableTitle(game: string, what: string | null, seats: TitleSeat[], seatText: (s: TitleSeat) => string = titleName): string {
  const names = seats.map(seatText).join(` ${t("title.vs")} `);
  return [gameName(game), what, names].filter((x) => x).join(" · ");
}

/** A Rummikub rule set in words ("current rules"). */
export function rulesName(rules: string | null | undefined): string {
  const r = rules ?? "current";
  return tr(`preset.${r}`, undefined, r);
}

/** The title of a table from its view. */
export function viewTitle(v: TableView): string {
  const what = v.rumis ? v.rumis.scenario.name : v.rummikub ? rulesName(v.rummikub.rules.name) : null;
  return tableTitle(v.game, what, v.seats);
}
