// What the server says, in the player's language. Until the server sends refusals and
// events as message keys with parameters, the client reads its English sentences
// (crates/rumis/src/rules.rs, crates/rummikub/src/round.rs, the server's `last`) into a
// key and parameters, and links each refusal to the rule it enforces ("Why? R7").
// Anything it does not recognise is shown as the server wrote it.
import { has, lang, t, tr, type MessageKey, type Params } from "./i18n";

export interface Said {
  text: string;
  /** The rule paragraph the refusal enforces: `R7` (Rumis) or `K4` (Rummikub). */
  rule: string | null;
  key: string | null;
}

/** A colour's name ("red" → "rot"). */
export function colourName(colour: string): string {
  return tr(`colour.${colour.toLowerCase()}`, undefined, colour);
}

const C = "([a-z]+)"; // a colour
const CELL = "([a-z]+\\d+(?::\\d+| level \\d+)?)";

type Pattern = [RegExp, MessageKey, string | null, string[]];
/** [pattern, key, rule, parameter names] — colour parameters are translated. */
const RUMIS: Pattern[] = [
  [new RegExp(`^cell ${CELL} is outside the footprint of this board$`), "reason.outside", "R4", ["cell"]],
  [new RegExp(`^cell ${CELL} is too high: column ([a-z]+\\d+) allows (\\d+) levels$`), "reason.too_high", "R4", ["cell", "column", "limit"]],
  [new RegExp(`^cell ${CELL} is already taken by (.+)$`), "reason.taken", "R1", ["cell", "by"]],
  [new RegExp(`^stone would leave a hole under cell ${CELL}$`), "reason.hole_under", "R3", ["cell"]],
  [new RegExp(`^${C}'s first stone must lie on the board \\(have a cube on level 1\\)$`), "reason.first_on_board", "R6", ["colour"]],
  [new RegExp(`^${C}'s first stone must touch a stone already placed, face to face$`), "reason.first_touch", "R6", ["colour"]],
  [new RegExp(`^the stone must touch a ${C} stone face to face \\(beside it or lying on it\\)$`), "reason.own_contact", "R7", ["colour"]],
  [new RegExp(`^these cells do not form the (\\w+) \\((.+)\\) in any rotation \\(mirroring is not allowed\\)$`), "reason.not_the_stone", "R5", ["stone", "name"]],
  [new RegExp(`^${C} has already placed its (\\w+) \\((.+)\\)$`), "reason.already_placed", "R5", ["colour", "stone", "name"]],
  [new RegExp(`^it is ${C}'s turn, not ${C}'s$`), "reason.not_colours_turn", "R6", ["to_move", "colour"]],
  [new RegExp(`^${C}'s first stone must touch a placed stone along an edge`), "reason.first_edge", "R14", ["colour"]],
  [new RegExp(`^${C}'s first stone may not touch ${C}'s first stone face to face \\(at cell ${CELL}\\)`), "reason.first_face", "R14", ["colour", "other", "cell"]],
  [new RegExp(`^inverse variant \\(R15\\): the stone may not touch a ${C} stone face to face \\(cell ${CELL} does\\)$`), "reason.inverse_own", "R15", ["colour", "cell"]],
  [new RegExp(`^inverse variant \\(R15\\): the stone must touch a stone of another colour than ${C}, face to face$`), "reason.inverse_other", "R15", ["colour"]],
  [new RegExp(`^cell ${CELL} is outside the red line`), "reason.outside_red", "R16", ["cell"]],
  [new RegExp(`^cell ${CELL} is inside the red line`), "reason.inside_red", "R16", ["cell"]],
  [new RegExp(`^taking the (\\w+) off would leave a hole under the cube on cell ${CELL}`), "reason.removal_hole", "R16", ["stone", "cell"]],
  [/^(\w+) has (\d+) cubes, but (\d+) cells were given$/, "reason.cube_count", "R5", ["stone", "expected", "given"]],
  [new RegExp(`^cell ${CELL} is given twice$`), "reason.cell_twice", "R1", ["cell"]],
  [/^(\w+) cannot stand at ([a-z]+\d+) in that orientation: it would leave the board$/, "reason.would_leave", "R4", ["stone", "column"]],
  [new RegExp(`^${C}'s first rebuilt stone must lie on the board`), "reason.rebuilt_on_board", "R16", ["colour"]],
  [new RegExp(`^${C}'s first rebuilt stone must touch one of its own stones inside the red line`), "reason.rebuilt_touch", "R16", ["colour"]],
  [new RegExp(`^${C} must first take one of its stones off the build`), "reason.must_remove", "R16", ["colour"]],
  [new RegExp(`^${C} took its (\\w+) off the build: place that stone now`), "reason.place_removed", "R16", ["colour", "stone"]],
  [new RegExp(`^${C}'s (\\w+) is outside the red line: only stones inside it are taken off`), "reason.remove_outside", "R16", ["colour", "stone"]],
  [new RegExp(`^${C}'s (\\w+) is not on the build there$`), "reason.not_on_build", "R16", ["colour", "stone"]],
  [/^the game is over$/, "reason.game_over", null, []],
  [/^outside the board$/, "reason.off_board", "R4", []],
];

const PROBLEM: [RegExp, MessageKey, string[]][] = [
  [/^has only (\d+) tiles?; a set needs at least 3$/, "problem.too_short", ["count"]],
  [/^has (\d+) jokers; these rules allow at most (\d+) per set$/, "problem.jokers", ["jokers", "allowed"]],
  [/^is neither a run nor a group$/, "problem.neither", []],
];

const RUMMIKUB: Pattern[] = [
  [/^initial meld is worth (\d+), needs (\d+)$/, "reason.meld_value", "K4", ["value", "needed"]],
  [/^the initial meld must not touch the table, but set (\d+) was changed$/, "reason.meld_touch", "K4", ["set"]],
  [/^tile (\w+) left the table$/, "reason.left_table", "K5", ["tile"]],
  [/^tile (\w+) is neither on the table nor in your rack$/, "reason.unknown_tile", "K5", ["tile"]],
  [/^play at least one tile from your rack, or draw$/, "reason.play_one", "K5", []],
  [/^set (\d+) holds a joker and is frozen/, "reason.frozen", "K5", ["set"]],
  [/^the table would hold a third (\w+)/, "reason.third_copy", "K1", ["tile"]],
  [/^a new deal may only be demanded before the first turn$/, "reason.redeal_late", "K2", []],
  [/^these rules have no new deal for three pairs$/, "reason.redeal_old", "K2", []],
  [/^the round is over/, "reason.round_over", "K8", []],
  [/^player (\d+) holds (\d+) pairs; a new deal needs three$/, "reason.redeal_pairs", "K2", ["player", "pairs"]],
  [/^these rules have no turn time limit$/, "reason.no_clock", "K7", []],
  [/^it is player (\d+)'s turn, not player (\d+)'s$/, "reason.not_players_turn", null, ["current", "player"]],
];

function params(names: string[], m: RegExpMatchArray): Params {
  const p: Params = {};
  names.forEach((n, i) => {
    const v = m[i + 1] ?? "";
    const level = n === "cell" ? v.match(/^([a-z]+\d+)(?::| level )(\d+)$/) : null;
    p[n] = ["colour", "other", "to_move"].includes(n) ? colourName(v) : level ? t("cell.level", { cell: level[1], level: level[2] }) : v;
  });
  return p;
}

/** A refusal reason of the engines (or the server's message with its code). */
export function reason(text: string, code?: string | null): Said {
  const s = text.trim();
  for (const [re, key, rule, names] of [...RUMIS, ...RUMMIKUB]) {
    const m = s.match(re);
    if (m) return { text: t(key, params(names, m)), rule, key };
  }
  // A Rummikub set: "set 2 [r1 r2] has only 2 tiles; …"
  const set = s.match(/^(?:table )?set (\d+) (\[[^\]]*\]) (.+)$/);
  if (set) {
    const problem = problemText(set[3]);
    return { text: t("reason.set_problem", { set: set[2], problem }), rule: "K3", key: "reason.set_problem" };
  }
  // English: the server's own sentence is the most precise; other languages: the code's text.
  if (code && has(`code.${code}`) && code !== "illegal" && lang() !== "en") return { text: tr(`code.${code}`), rule: null, key: `code.${code}` };
  return { text: s, rule: null, key: null };
}

/** A set's problem ("has only 2 tiles; a set needs at least 3"). */
export function problemText(problem: string): string {
  for (const [re, key, names] of PROBLEM) {
    const m = problem.match(re);
    if (m) return t(key, params(names, m));
  }
  return problem;
}

/** The server's `last` ("Ana drew a tile") in the player's language. */
export function lastEvent(text: string | null): string {
  if (!text) return "";
  const patterns: [RegExp, MessageKey, string[]][] = [
    [/^(.+) drew a tile$/, "event.drew", ["name"]],
    [/^(.+) melded (.+)$/, "event.melded", ["name", "tiles"]],
    [/^(.+) played (.+)$/, "event.played", ["name", "tiles"]],
    [/^(.+) passed: the pool is empty$/, "event.passed", ["name"]],
    [/^(.+) ran out of time and drew (\d+) penalty tiles$/, "event.penalty", ["name", "tiles"]],
    [/^(.+) held three pairs: new deal$/, "event.redeal", ["name"]],
    [/^round (\d+) dealt$/, "event.dealt", ["round"]],
  ];
  for (const [re, key, names] of patterns) {
    const m = text.match(re);
    if (m) return t(key, params(names, m));
  }
  return text;
}

/** The tiles a `last` event laid ("Ana played r1 r2 r3"), for highlighting. */
export function lastTiles(text: string | null): string[] {
  const m = text?.match(/ (?:melded|played) ((?:[rbko]\d+|J)(?: (?:[rbko]\d+|J))*)$/);
  return m ? m[1].split(" ") : [];
}

/** The rule link for a refusal: `/rules/rumis#R7`. */
export function ruleHref(rule: string): string {
  return `/rules/${rule.startsWith("K") ? "rummikub" : "rumis"}#${rule}`;
}
