// The server's default seat names in the player's language. A seat nobody named is
// called "Player 2" by the server and a bot's seat "greedy bot" (with " 2" when two
// would look alike, names.rs `distinct_default`); those exact names are shown as
// "Spieler 2" / "Player 2" and as the bot's level ("Bot (Experte)" / "Expert bot").
// A name a person chose is shown as it is. The bots' levels come from the server's
// meta (`setBots`); until it has arrived a bot is just "Bot".
//
// A bot seat has a name of its own (issue #46, point 6): the server's default
// ("greedy bot") becomes a Quechua name chosen by the seat's index, so two bots at a
// table never share one and every page (lobby, seats, turn line, events, results)
// calls the same seat the same: "Inti, expert bot" / "Inti, Bot (Experte)".
import type { BotMeta, Meta, RatingPool } from "./api";
import { lang, t, tr, type MessageKey } from "./i18n/i18n";

const LEVELS: MessageKey[] = ["level.1", "level.2", "level.3", "level.4", "level.5"];
/** A level inside a sentence ("expert" in English, "Experte" in German). */
const LEVEL_WORDS: MessageKey[] = ["botlevel.1", "botlevel.2", "botlevel.3", "botlevel.4", "botlevel.5"];
/** The bots' own names, by seat index (a table has at most six seats). */
export const BOT_NAMES = ["Chaska", "Inti", "Killa", "Wayra", "Sumaq", "Amaru"];
const PLAYER = /^Player (\d+)( \d+)?$/;
const BOT = /^(\S+) bot( \d+)?$/;

let known: BotMeta[][] = [];

/** The bots of both games, from the server's meta. */
export function setBots(meta: Meta | null): void {
  if (meta) known = [meta.rumis.bots, meta.rummikub.bots];
}

/** A bot named by its level ("Expert"), the engine in the tooltip. */
export function botLabel(bots: BotMeta[], name: string | null): { label: string; title: string } {
  const b = bots.find((x) => x.name === name);
  if (!b) return { label: name ?? t("seat.bot"), title: name ?? "" };
  const same = bots.filter((x) => x.level === b.level);
  const n = same.length > 1 ? ` ${same.indexOf(b) + 1}` : "";
  return { label: t(LEVELS[Math.min(5, Math.max(1, b.level)) - 1]) + n, title: `${b.name}: ${botDescription(b)}` };
}

/** A bot's description in the player's language (`botdesc.<game>.<spec>`), by the game
 * whose meta lists it; the server's English until the meta is known. */
export function botDescription(b: BotMeta): string {
  const game = known[1]?.includes(b) ? "rummikub" : known[0]?.includes(b) ? "rumis" : null;
  return game ? tr(`botdesc.${game}.${b.name}`, undefined, b.description) : b.description;
}

/** A bot's level in words, from whichever game knows it (null if none does). */
export function botLevel(name: string | null | undefined): string | null {
  if (!name) return null;
  for (const bots of known) {
    const sorted = [...bots].sort((a, b) => a.level - b.level);
    if (sorted.some((b) => b.name === name)) return botLabel(sorted, name).label;
  }
  return null;
}

/** A seat's name as the player should read it: the server's defaults in their language.
 * `bot` is the seat's bot, null for a bot seat without one, false for a person's seat. */
export function localName(name: string, bot?: string | null | false): string {
  const player = name.match(PLAYER);
  if (player) return t("name.player", { n: Number(player[1]) }) + (player[2] ?? "");
  const b = name.match(BOT);
  if (b && bot !== false && (bot === undefined || bot === null || bot === b[1])) {
    const level = botLevel(b[1]);
    if (level || bot === b[1]) return (level ? t("name.bot", { level }) : t("seat.bot")) + (b[2] ?? "");
  }
  return name;
}

/** A bot's level in a sentence ("expert" / "Experte"), null while the meta is unknown. */
export function botLevelWord(spec: string | null | undefined): string | null {
  if (!spec) return null;
  for (const bots of known) {
    const b = bots.find((x) => x.name === spec);
    if (b) return t(LEVEL_WORDS[Math.min(5, Math.max(1, b.level)) - 1]);
  }
  return null;
}

/** The level of the bot a registered spec names (1–5), or null. */
export function botLevelOf(spec: string | null | undefined): number | null {
  for (const bots of known) {
    const b = bots.find((x) => x.name === spec);
    if (b) return b.level;
  }
  return null;
}

/** The own name of a bot seat: the server's default becomes the seat's Quechua name. */
export function botOwnName(seat: number, name: string | null | undefined): string {
  if (!name || BOT.test(name)) return BOT_NAMES[seat % BOT_NAMES.length];
  return localName(name, false);
}

/** A bot seat not handed over by a person: its name with its level, "Inti, expert bot",
 * or in a table's title "Inti (bot, expert)". `bot` is the seat's engine, if known (else
 * read from the server's default name). */
export function botSeatName(seat: { seat: number; name?: string | null; bot?: string | null }, style: "name" | "title" = "name"): string {
  const spec = seat.bot ?? seat.name?.match(BOT)?.[1] ?? null;
  const name = botOwnName(seat.seat, seat.name);
  const level = botLevelWord(spec);
  if (style === "title") return level ? t("name.bot_title", { name, level }) : t("name.bot_title_plain", { name });
  return level ? t("name.bot_named", { name, level }) : t("name.bot_named_plain", { name });
}

/** The pool a table is rated in, as the server's `RatingPool::of`. */
export function ratingPool(game: string, players: number): RatingPool {
  if (game === "rummikub") return "rummikub";
  return players <= 2 ? "rumis_two" : "rumis_multi";
}

/** A bot's published rating in a pool (the bot ladder's, rounded to 10) in the reader's
 * digits ("1,650" / "1.650"), null if the meta has none. */
export function botRating(spec: string | null | undefined, pool: RatingPool): string | null {
  for (const bots of known) {
    const r = bots.find((x) => x.name === spec)?.ratings?.find((x) => x.pool === pool);
    if (r) return r.rating.toLocaleString(lang());
  }
  return null;
}

/** A bot seat of a table being set up, with its rating in the table's pool: "Inti
 * (expert, about 1,650)" (without a rating as `botSeatName`). */
export function botRatedName(seat: number, spec: string, pool: RatingPool): string {
  const level = botLevelWord(spec);
  const rating = botRating(spec, pool);
  if (!level || rating === null) return botSeatName({ seat, name: null, bot: spec });
  return t("name.bot_rated", { name: botOwnName(seat, null), level, rating });
}
