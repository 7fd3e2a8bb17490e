// The server's default seat names in the player's language. A seat nobody named is
// called "Player 2" by the server and a bot's seat "greedy bot" (with " 2" when two
// would look alike, names.rs `distinct_default`); those exact names are shown as
// "Spieler 2" / "Player 2" and as the bot's level ("Bot (Experte)" / "Expert bot").
// A name a person chose is shown as it is. The bots' levels come from the server's
// meta (`setBots`); until it has arrived a bot is just "Bot".
import type { BotMeta, Meta } from "./api";
import { t, type MessageKey } from "./i18n/i18n";

const LEVELS: MessageKey[] = ["level.1", "level.2", "level.3", "level.4", "level.5"];
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
  return { label: t(LEVELS[Math.min(5, Math.max(1, b.level)) - 1]) + n, title: `${b.name}: ${b.description}` };
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
