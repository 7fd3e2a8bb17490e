// Generated from crates/server/src/wire/ by crates/server/tests/generated.rs.
// Do not edit: change the Rust types and run
// RUMI_WRITE_GENERATED=1 cargo test -p server --test generated

export type GameKind = "rumis" | "rummikub";

export type ScenarioKey = string;

export type VariantName = string;

export type RulesPreset = string;

export type BotName = string;

export type SeatName = string;

export type NewName = string;

export type TableId = string;

export type SeatToken = string;

export type RumisSettings = { 
/**
 * A built-in scenario key (`chullpa`); see `/api/meta`.
 */
scenario: ScenarioKey, 
/**
 * 2 to 6, as the scenario allows (`variant_players` in `/api/meta`).
 */
players: number, 
/**
 * `standard` when missing; see `/api/meta`.
 */
variant?: string, 
/**
 * Seconds per turn (RD17: a turn whose time runs out is passed): missing is no
 * clock at a casual table and 60 s at a rated one; `null` is no clock, refused at
 * a rated table (RT9), where a turn has at least 20 s.
 */
turn_seconds?: number | null, };

export type RummikubSettings = { 
/**
 * Rule preset: `current` (default) or `old` (K10).
 */
rules?: string, 
/**
 * Seconds per turn (K7): missing keeps the preset's clock (60 s), `null` switches
 * it off (refused at a rated table, RT9, where a turn has at least 20 s).
 */
turn_seconds?: number | null, 
/**
 * Rounds in the game (K9), 1 to 20; 1 when missing.
 */
rounds?: number, };

export type SeatKind = "human" | "open" | "bot" | "account";

export type SeatRequest = { kind: SeatKind, 
/**
 * Up to 40 printable characters; a default is given when missing.
 */
name?: SeatName, 
/**
 * For a bot seat: its name from `/api/meta` (`random` when missing).
 */
bot?: BotName, };

export type CreateTableRequest = { game: GameKind, 
/**
 * Required when `game` is `rumis`.
 */
rumis?: RumisSettings, 
/**
 * Required when `game` is `rummikub`.
 */
rummikub?: RummikubSettings, seats: Array<SeatRequest>, 
/**
 * The creator's own seat, theirs at once; the first `human` seat when missing.
 */
creator_seat?: number, 
/**
 * A fixed deal, only for practice tables (every seat but the creator's a bot).
 */
seed?: number, 
/**
 * Whether the players may ask for hints, shown to everyone. When missing: on at
 * a practice table (at most one person), off when two or more people sit.
 */
hints?: boolean, 
/**
 * A rated game: every seat an account holder's (the signed-in creator's and
 * `account` seats), no bots, no hints, a deal nobody chose. The players' ratings
 * move by the final ranking.
 */
rated?: boolean, };

export type SeatGrant = { seat: number, name: string, token: string, 
/**
 * The seat's link; the token is in the fragment, which browsers never send.
 */
url: string, };

export type CreatedSeat = { seat: number, name: string, kind: SeatKind, bot: string | null, 
/**
 * For an invited seat other than the creator's: the link to send.
 */
invite: string | null, };

export type CreateTableResponse = { id: string, spectator: string, 
/**
 * The creator's seat, if they sit at the table.
 */
you: SeatGrant | null, seats: Array<CreatedSeat>, 
/**
 * SHA-256 of the deal's seed and a secret salt, revealed when the game is over.
 */
commitment: string, practice_seed: number | null, };

export type JoinRequest = { name?: SeatName, 
/**
 * An open seat to take; the first open seat when missing.
 */
seat?: number, };

export type ClaimRequest = { 
/**
 * The name to sit under; the seat keeps its name when missing.
 */
name?: SeatName, };

export type RematchRequest = Record<symbol, never>;

export type ActionRequest = { version: number, action: GameAction, };

export type GameAction = { "type": "rumis_move", move: string, } | { "type": "rumis_place", stone: string, cells: Array<[number, number, number]>, } | { "type": "play", table: Array<Array<string>>, } | { "type": "draw" } | { "type": "redeal" } | { "type": "next_round" } | { "type": "timeout" };

export type BotRequest = { bot: BotName, };

export type NameRequest = { 
/**
 * 1 to 40 characters, no control characters.
 */
name: NewName, };

export type RumisSuggestion = { 
/**
 * The move in the project's notation (`L4 a1:1 b1:1 c1:1 a2:1`).
 */
move: string, stone: string, cells: Array<[number, number, number]>, 
/**
 * The search's estimate of the mover's chance to win after this move (0 to 1).
 */
win_chance: number, 
/**
 * Playouts the search spent on it.
 */
visits: number, };

export type ErrorCode = "already_seated" | "bad_creator_seat" | "bad_name" | "bad_objective" | "bad_request" | "bad_seats" | "bad_websocket_key" | "bad_seed" | "bad_settings" | "bad_token" | "binary_message" | "claim_needed" | "conflict" | "error" | "forbidden" | "game_over" | "headers_too_large" | "hello_first" | "hello_twice" | "hints_busy" | "hints_off" | "illegal" | "internal" | "malformed_action" | "malformed_message" | "malformed_request" | "method_not_allowed" | "name_taken" | "no_open_seat" | "no_route" | "no_seat" | "no_table" | "not_an_invite" | "not_for_this_game" | "not_found" | "not_over" | "not_started" | "not_your_seat" | "out_of_turn" | "player_not_away_long_enough" | "player_present" | "range_not_satisfiable" | "rate_limited" | "seat_is_bot" | "seat_not_bot" | "seat_not_open" | "seat_taken" | "seed_not_allowed" | "spectator" | "stale" | "timeout" | "token_in_url" | "token_needed" | "too_large" | "too_many_connections" | "too_many_connections_from_network" | "too_many_hints" | "too_many_open_tables" | "too_many_replays" | "too_many_seats" | "too_many_tables_per_minute" | "unauthorized" | "unavailable" | "unknown_bot" | "unknown_message" | "unprocessable" | "unsupported_media_type" | "upgrade_required" | "uri_too_long" | "account_name_taken" | "accounts_busy" | "bad_account_name" | "bad_credentials" | "foreign_origin" | "not_signed_in" | "reauth_needed" | "reserved_name" | "sign_in_locked" | "too_many_sign_ins" | "weak_password" | "wrong_password" | "account_seat" | "rated_rules" | "rated_table" | "seat_never_taken" | "rated_clock" | "table_cancelled" | "unknown_player" | "passkey_refused" | "passkeys_unavailable" | "analysis_busy" | "bad_position" | "bad_record" | "too_many_analyses" | "puzzles_busy" | "too_many_puzzles" | "bad_solo_level" | "bad_solo_build" | "solo_impossible" | "solo_incomplete" | "bad_solo_time" | "too_many_solo_requests" | "solo_busy" | "reviews_busy" | "too_many_reviews" | "too_many_bot_tables" | "bot_tables_full" | "position_in_rated_game" | "too_many_challenges" | "challenges_full" | "challenges_refused" | "too_many_blocks" | "solo_not_begun";

export type ErrorBody = { error: string, code: ErrorCode, 
/**
 * For a move the rules refuse: the engine's reason as a key with parameters.
 */
why?: Reason, };

export type RefusalCode = "game_over" | "no_such_placement" | "not_colours_turn" | "already_placed" | "cube_count" | "not_the_stone" | "cell_twice" | "outside" | "too_high" | "taken" | "hole_under" | "first_on_board" | "first_touch" | "own_contact" | "no_such_orientation" | "would_leave" | "first_edge" | "first_face" | "inverse_own" | "inverse_other" | "outside_red" | "inside_red" | "rebuilt_on_board" | "rebuilt_touch" | "must_remove" | "no_removal_now" | "place_removed" | "not_on_build" | "remove_outside" | "removal_hole" | "cannot_set_aside" | "round_over" | "no_such_player" | "not_players_turn" | "set_problem" | "third_copy" | "unknown_tile" | "left_table" | "play_one" | "meld_value" | "meld_touch" | "frozen" | "no_clock" | "redeal_old" | "redeal_late" | "redeal_pairs" | "name_bidi" | "name_tag" | "name_control" | "name_invisible" | "name_too_long" | "solo_used_up" | "solo_same_colour" | "record_unknown_header" | "record_missing_header" | "record_bad_header" | "record_unknown_board" | "record_bad_setup" | "record_unreadable_move" | "record_too_long" | "record_too_many_moves" | "record_past_end";

export type Reason = { code: RefusalCode, 
/**
 * The ruling the refusal enforces (`R7`, `K4`), for a "Why?" link.
 */
rule: string | null, params: Record<string, unknown>, };

export type EventCode = "played" | "melded" | "drew" | "passed" | "penalty" | "redealt" | "round_dealt";

export type Event = { code: EventCode, params: Record<string, unknown>, };

export type SetProblemCode = "too_short" | "jokers" | "neither";

export type TableStatus = "waiting" | "playing" | "over" | "cancelled";

export type SeatView = { seat: number, name: string, 
/**
 * `human` (invited), `open` (joinable from the lobby) or `bot`; a seat handed to a
 * bot is `bot` with `claimed` still set, and its owner may take it back.
 */
kind: SeatKind, bot: string | null, 
/**
 * Whether a person has taken the seat.
 */
claimed: boolean, 
/**
 * Whether the seat's player has a live connection.
 */
connected: boolean, 
/**
 * Since when (Unix ms) the seat's player has been away, while they are.
 */
away_since_ms: number | null, 
/**
 * From when (Unix ms) the other players may hand this seat to a bot.
 */
handover_ms: number | null, 
/**
 * The account the seat belongs to (its profile is `/u/{account}`).
 */
account?: string, 
/**
 * The seat's player left the game: their turn clock ran out twice in a row
 * (RD17, K7), and a bot plays the seat on. At a rated table they are ranked last
 * (RT8).
 */
left: boolean, };

export type ResultView = { winners: Array<number>, scores: Array<number>, text: string, };

export type Fairness = { commitment: string, 
/**
 * Set on practice tables, whose creator chose the seed.
 */
practice_seed: number | null, seed: number | null, salt: string | null, };

export type BotTrouble = { seat: number, 
/**
 * What went wrong the last time.
 */
code: BotTroubleCode, 
/**
 * Since when (Unix ms) the seat's bot has been failing.
 */
since_ms: number, 
/**
 * Retries so far.
 */
retries: number, 
/**
 * The retries are spent: a simpler bot (random legal moves; Rummikub: the random
 * bot, or a draw) moved for the seat.
 */
fallback: boolean, };

export type BotTroubleCode = "error" | "panic" | "refused";

export type TableView = { id: string, game: GameKind, 
/**
 * Accepted actions so far; an action names the version it was made on.
 */
version: number, 
/**
 * The viewer's seat; `null` for spectators.
 */
you: number | null, status: TableStatus, 
/**
 * Human seats not taken yet (the table starts when none is left).
 */
waiting_for: Array<number>, seats: Array<SeatView>, to_move: number | null, over: boolean, 
/**
 * When the running turn's clock runs out (Unix ms).
 */
deadline_ms: number | null, 
/**
 * Seconds per turn (the table's clock, RD17 and K7); `null`: no clock.
 */
turn_seconds: number | null, 
/**
 * A waiting rated table: when it is cancelled unless every seat is taken by then
 * (Unix ms, RT7).
 */
cancels_at_ms?: number, result: ResultView | null, fairness: Fairness, 
/**
 * Whether the players may ask for hints here (the table's setting).
 */
hints: boolean, 
/**
 * A rated game: the players' ratings move by its result.
 */
rated: boolean, 
/**
 * The viewer's seat token, when their seat was found by their session (an
 * account's seat opened on another device): kept like a token from a link.
 */
seat_token?: string, 
/**
 * Once over: the rematch's table id, when a player has asked for one (each
 * player takes their seat there with `POST …/rematch`).
 */
rematch?: string, 
/**
 * Bot seats whose bot failed to move lately (empty while all is well).
 */
bot_trouble: Array<BotTrouble>, } & ({ "rumis": RumisView } | { "rummikub": RummikubView });

export type GameView = { "rumis": RumisView } | { "rummikub": RummikubView };

export type ScenarioView = { key: string, name: string, width: number, depth: number, 
/**
 * `limits[y][x]`: the height limit of column (x, y); 0 = outside the footprint.
 */
limits: Array<Array<number>>, };

export type CubeView = { x: number, y: number, z: number, colour: string, 
/**
 * The placed stone this cube belongs to (its index in `history`).
 */
stone: number | null, };

export type ColourView = { colour: string, owner: number | null, out: boolean, 
/**
 * Stones not placed yet (public).
 */
supply: Array<string>, 
/**
 * Live top-view points (R9).
 */
score: number, };

export type PlacementView = { stone: string, cells: Array<[number, number, number]>, };

export type RumisView = { scenario: ScenarioView, players: number, variant: string, cubes: Array<CubeView>, colours: Array<ColourView>, to_move_colour: string | null, building_ruin: boolean, scores: Array<number>, 
/**
 * Every legal placement, sent only to the seat to move.
 */
legal: Array<PlacementView>, history: Array<string>, 
/**
 * R16: the columns inside the red line, `red_line[y][x]`.
 */
red_line: Array<Array<boolean>> | null, removing: boolean, stone_in_hand: string | null, interim: Array<number> | null, 
/**
 * Every stone's orientations as cube offsets; in HTTP views and the first
 * WebSocket view only (it never changes).
 */
stones?: { [key in string]: Array<Array<[number, number, number]>> }, };

export type RulesView = { name: string, initial_meld: number, initial_meld_may_use_table: boolean, turn_seconds: number | null, jokers_per_set: number, run_wraps_around: boolean, frozen_joker_sets: boolean, joker_penalty: number, };

export type RoundOverView = { winners: Array<number>, scores: Array<number>, rack_values: Array<number>, reason: string, };

export type RummikubView = { rules: RulesView, 
/**
 * The viewer's own rack; `null` for spectators and other seats.
 */
rack: Array<string> | null, rack_sizes: Array<number>, melded: Array<boolean>, pool_size: number, table: Array<Array<string>>, round: number, rounds: number, totals: Array<number>, round_over: RoundOverView | null, can_claim_redeal: boolean, 
/**
 * What happened last, without secrets ("Ana drew a tile").
 */
last: string | null, 
/**
 * The same as a key with parameters (`drew`, `{"player": 1}`).
 */
last_event: Event | null, };

export type LobbySeat = { seat: number, name: string, kind: SeatKind, 
/**
 * For a seat still open to join: since when (Unix ms).
 */
open_since_ms: number | null, };

export type LobbyTable = { id: string, game: GameKind, 
/**
 * The settings in English words (`chullpa, 2 players, standard`); clients in other
 * languages build their own line from `settings`.
 */
detail: string, settings: TableSettings, created_ms: number, open_seats: Array<number>, seats: Array<LobbySeat>, };

export type LobbyTables = { tables: Array<LobbyTable>, };

export type ScenarioMeta = { key: string, name: string, theme: string, status: string, players: Array<number>, variants: Array<string>, 
/**
 * Per variant, the player counts it can be played with on this board.
 */
variant_players: { [key in string]: Array<number> }, };

export type RatingPool = "rumis_two" | "rumis_multi" | "rummikub";

export type BotRatingMeta = { pool: RatingPool, 
/**
 * The shown rating (people's scale), rounded to 10.
 */
rating: number, };

export type BotMeta = { 
/**
 * The name a seat request uses (`mcts:3`).
 */
name: string, 
/**
 * 1 (beginner) to 5 (expert).
 */
level: number, description: string, 
/**
 * Its rating in each pool the ladder measured it in (empty if none).
 */
ratings: Array<BotRatingMeta>, };

export type RumisMeta = { scenarios: Array<ScenarioMeta>, variants: Array<string>, bots: Array<BotMeta>, };

export type RummikubMeta = { presets: Array<string>, players: Array<number>, 
/**
 * The clock each preset keeps when `turn_seconds` is missing.
 */
preset_turn_seconds: { [key in string]: number | null }, bots: Array<BotMeta>, };

export type LimitsMeta = { 
/**
 * Seconds a player must be away before others may hand their seat to a bot.
 */
handover_after_seconds: number, max_name_chars: number, };

export type Meta = { rumis: RumisMeta, rummikub: RummikubMeta, 
/**
 * The server's limits a client should know.
 */
limits: LimitsMeta, };

export type CheckResult = { legal: boolean, reason?: string, 
/**
 * The reason as a key with parameters.
 */
why?: Reason, };

export type HintPlay = { placed: Array<string>, table: Array<Array<string>>, tiles: number, value: number, changed_sets: number, 
/**
 * Whether `changed_sets` is proven the fewest among the best plays: false on the
 * rare position whose tie-break search passed the solver's state limit (the play
 * is still best on tiles or value).
 */
fewest_changed_proven: boolean, };

export type HintAnswer = { play: HintPlay | null, moves: Array<RumisSuggestion>, };

export type LoggedAction = { version: number, 
/**
 * The seat, or `null` for the server's clock.
 */
actor: number | null, 
/**
 * The action as stored (canonical form; `{"type": "timeout"}` for the clock).
 */
action: GameAction, at_ms: number, };

export type TableSettings = { 
/**
 * The game of `settings` (said once more for readers of the JSON).
 */
game: GameKind, 
/**
 * Seats (Rummikub players).
 */
players: number, 
/**
 * Whether the players may ask for hints (a table stored before this setting has
 * them as its seats give by default: on for at most one person).
 */
hints: boolean, 
/**
 * A rated game (every seat an account's; no bots, hints or chosen deal).
 */
rated: boolean, } & ({ "rumis": RumisSettings } | { "rummikub": RummikubSettings });

export type GameSettings = { "rumis": RumisSettings } | { "rummikub": RummikubSettings };

export type ReplayAnswer = { id: string, settings: TableSettings, fairness: Fairness, actions: Array<LoggedAction>, 
/**
 * The spectator's view before the first action and after each.
 */
steps: Array<TableView>, 
/**
 * The game as a text record (`rumi rumis replay` / `rumi rummikub replay`).
 */
record: string, result: ResultView | null, 
/**
 * Rummikub, once the game is over: every seat's rack after each step
 * (`racks[step][seat]`, as in `steps`). Never sent while the game runs: the
 * replay opens only at the end.
 */
racks?: Array<Array<Array<string>>>, };

export type ReviewStatus = "pending" | "ready";

export type ReviewAnswer = { id: string, status: ReviewStatus, 
/**
 * Turns reviewed, of all turns (0 to 1).
 */
progress: number, game: GameKind, turns: Array<ReviewTurn>, players: Array<ReviewPlayer>, 
/**
 * Rumis: how the win chances were found and how moves are judged.
 */
rumis?: RumisReviewMethod, };

export type ReviewTurn = { version: number, seat: number, rummikub?: RummikubTurnReview, rumis?: RumisTurnReview, };

export type PlayedKind = "play" | "draw" | "pass" | "timeout";

export type RummikubPlayed = { kind: PlayedKind, 
/**
 * The rack tiles laid.
 */
placed: Array<string>, tiles: number, 
/**
 * How much the table's value grew (KD11), as the solver counts `value`.
 */
value: number, table: Array<Array<string>>, };

export type RummikubTurnReview = { round: number, rack: Array<string>, table: Array<Array<string>>, 
/**
 * Whether the player had made the initial meld before the turn.
 */
melded: boolean, played: RummikubPlayed, 
/**
 * The most tiles the player could lay (`null`: no play was possible).
 */
best_tiles: HintPlay | null, 
/**
 * The most value the player could lay (`null`: no play was possible).
 */
best_value: HintPlay | null, 
/**
 * The position was too large for the solver: no best play is known.
 */
unsolved: boolean, 
/**
 * The player drew (or ran out of time) although a play was possible.
 */
drew_with_play: boolean, 
/**
 * Tiles the best play by tiles lays beyond what was laid.
 */
tiles_missed: number, 
/**
 * Points the best play by value lays beyond what was laid.
 */
points_missed: number, };

export type Judgement = "inaccuracy" | "mistake" | "blunder";

export type RumisTurnReview = { 
/**
 * The move played, in the project's notation.
 */
move: string, 
/**
 * The colour that was placed.
 */
colour: string, 
/**
 * Every player's win chance before the move (0 to 1, by seat).
 */
before: Array<number>, 
/**
 * Every player's win chance after it (the next position's analysis; after the
 * last move, the result).
 */
after: Array<number>, 
/**
 * The bot's best move here, with the mover's win chance after it (`null`: the
 * move was forced).
 */
best: RumisSuggestion | null, 
/**
 * How much the mover's win chance fell, in percentage points (0 when the best
 * move was played).
 */
drop: number, judgement: Judgement | null, 
/**
 * The only legal move: not searched.
 */
forced: boolean, };

export type RumisReviewMethod = { 
/**
 * Playouts of the strongest bot's search per position (a fixed seed: the same
 * review every time).
 */
playouts: number, 
/**
 * Drops in win chance, in percentage points, from which a move is an
 * inaccuracy, a mistake, a blunder.
 */
inaccuracy: number, mistake: number, blunder: number, };

export type ReviewPlayer = { seat: number, name: string, rummikub?: RummikubPlayerReview, rumis?: RumisPlayerReview, };

export type RummikubPlayerReview = { turns: number, plays: number, tiles_laid: number, 
/**
 * The best play's tiles, summed over the turns.
 */
tiles_possible: number, 
/**
 * Turns drawn (or timed out) although a play was possible.
 */
draws_with_play: number, 
/**
 * Points left on the rack that the best play by value would have laid, summed.
 */
points_missed: number, };

export type RumisPlayerReview = { colours: Array<string>, moves: number, inaccuracies: number, mistakes: number, blunders: number, 
/**
 * The mean drop in win chance per move, in percentage points.
 */
average_drop: number, };

export type ClientMessage = { "type": "hello", token?: string, patches?: boolean, } | { "type": "action", id?: number, version: number, action: GameAction, } | { "type": "resync" };

export type ServerMessage = { "type": "state", view: TableView, seq: number, } | { "type": "patch", from: number, from_seq: number, version: number, seq: number, ops: Array<PatchOp>, } | { "type": "ack", id: number, version: number, } | { "type": "error", message: string, code: ErrorCode, why?: Reason, 
/**
 * The refused action's `id`, when it had one.
 */
id?: number, };

export type PatchOp = { "op": "add", 
/**
 * A JSON Pointer (RFC 6901).
 */
path: string, value: unknown, } | { "op": "remove", path: string, } | { "op": "replace", path: string, value: unknown, };

export type NodeStatus = "ready" | "degraded" | "draining";

export type Health = { status: NodeStatus, 
/**
 * This node's name (`single` without a cluster).
 */
node: string, database: boolean, 
/**
 * Whether NATS is connected; `null` on a single node.
 */
nats: boolean | null, loaded_tables: number, };

export type Credentials = { 
/**
 * 3 to 20 letters, digits, `_` and `-` (any case: `Ana` and `ana` are one name).
 */
name: string, 
/**
 * At least 10 characters, not one of the 10,000 most common passwords.
 */
password: string, };

export type AccountView = { name: string, created_ms: number, };

export type PasswordChange = { current: string, new: string, 
/**
 * Remove every passkey of the account too (one added by someone else with a
 * stolen session among them).
 */
remove_passkeys?: boolean, };

export type Reauth = { password: string, };

export type DeleteAccount = { password: string, };

export type SessionData = { created_ms: number, expires_ms: number, };

export type AccountData = { account: AccountView, 
/**
 * Ratings, totals and results, as the profile shows them.
 */
profile: UserProfile, 
/**
 * Every table the account has a seat at.
 */
tables: Array<MyGame>, sessions: Array<SessionData>, };

export type RatingView = { 
/**
 * Rounded to a whole number.
 */
rating: number, 
/**
 * One standard deviation, on the same scale.
 */
uncertainty: number, games: number, 
/**
 * Too few games yet to say much.
 */
provisional: boolean, };

export type PlayerResult = "won" | "shared" | "lost";

export type UserGame = { 
/**
 * The table: its replay is `/t/{id}`.
 */
id: string, game: GameKind, pool: RatingPool, finished_ms: number, 
/**
 * The player's seat, and every seat's name in seat order.
 */
seat: number, names: Array<string>, 
/**
 * 1 for the winner; tied players share a place.
 */
place: number, result: PlayerResult, score: number, rated: boolean, 
/**
 * The rating after the game, and how much the game moved it (rated games).
 */
rating: number | null, rating_change: number | null, };

export type PoolTotals = { pool: RatingPool, played: number, won: number, };

export type RatingPoint = { pool: RatingPool, at_ms: number, rating: number, };

export type UserProfile = { name: string, created_ms: number, 
/**
 * Per pool played rated.
 */
ratings: { [key in RatingPool]?: RatingView }, totals: Array<PoolTotals>, 
/**
 * Oldest first, for a chart.
 */
history: Array<RatingPoint>, 
/**
 * The latest finished games, newest first.
 */
games: Array<UserGame>, };

export type LeaderboardEntry = { rank: number, name: string, rating: number, uncertainty: number, games: number, };

export type Leaderboard = { pool: RatingPool, entries: Array<LeaderboardEntry>, };

export type MyGame = { id: string, game: GameKind, seat: number, 
/**
 * Over or cancelled.
 */
finished: boolean, status: TableStatus, created_ms: number, 
/**
 * The other seats' players (or bots), by seat.
 */
opponents: Array<string>, 
/**
 * Once its result is recorded: the account's place (1 for a win; tied places
 * shared) of `players`.
 */
place: number | null, players: number | null, };

export type MyGames = { games: Array<MyGame>, };

export type GuestSeat = { table: string, token: string, };

export type AdoptSeats = { seats: Array<GuestSeat>, };

export type AdoptedSeats = { tables: Array<string>, };

export type SessionRequest = Record<symbol, never>;

export type Challenge = { id: string, game: GameKind, 
/**
 * The seat kept for you, and every seat's name.
 */
seat: number, names: Array<string>, 
/**
 * The account holders seated already (who asked you).
 */
from: Array<string>, rated: boolean, created_ms: number, 
/**
 * `waiting` for your seat to be taken, or `cancelled`: a rated table whose seats
 * were not all taken in time (RT7), shown for a while rather than gone silently.
 */
status: TableStatus, 
/**
 * Seconds per turn; `null`: no clock.
 */
turn_seconds: number | null, 
/**
 * A waiting rated table: when it is cancelled unless every seat is taken (Unix ms).
 */
cancels_at_ms?: number, };

export type Challenges = { challenges: Array<Challenge>, };

export type BlockRequest = { name: string, };

export type BlockedAccount = { name: string, since_ms: number, };

export type Blocks = { blocks: Array<BlockedAccount>, };

export type PasskeyView = { 
/**
 * The credential's id (base64url).
 */
id: string, name: string, created_ms: number, used_ms: number | null, };

export type Passkeys = { passkeys: Array<PasskeyView>, };

export type PasskeyChallenge = { ceremony: string, options: any, };

export type PasskeyRegistration = { ceremony: string, 
/**
 * What to call it ("phone", "laptop"); 1 to 40 characters.
 */
name?: string, credential: any, };

export type PasskeySignInStart = { name: string, };

export type PasskeySignIn = { ceremony: string, credential: any, };

export type TutorialKey = "rumis_first_stone" | "rumis_first_touch" | "rumis_own_colour" | "rumis_no_hole" | "rumis_height" | "rumis_scoring" | "rummikub_group" | "rummikub_run" | "rummikub_initial_meld" | "rummikub_add_to_set" | "rummikub_rearrange" | "rummikub_joker";

export type TutorialGoal = "legal" | "build_up" | "reach_top" | "win_game" | "group" | "run" | "add_to_set" | "rearrange" | "free_joker";

export type Tutorial = { game: GameKind, steps: Array<TutorialStep>, };

export type TutorialStep = { 
/**
 * 1-based, as in the check's address.
 */
number: number, key: TutorialKey, 
/**
 * The rulings it teaches (`R6`, `K4`), the main one first.
 */
rules: Array<string>, goal: TutorialGoal, 
/**
 * The position as the learner's seat (`you`, the seat to move) sees it.
 */
view: TableView, 
/**
 * A move the engine refuses here (or, on a step whose goal asks for more than a
 * legal move, one that misses it): shown on request, with the engine's answer.
 */
wrong: GameAction, };

export type TutorialCheck = { 
/**
 * The rules accept the move and it does what the step asks.
 */
done: boolean, 
/**
 * The rules accept the move.
 */
legal: boolean, 
/**
 * Why the rules refuse it, in English.
 */
reason?: string, 
/**
 * The refusal as a key with parameters (`reason.<code>` in the client).
 */
why?: Reason, 
/**
 * The position after a legal move, as the learner sees it.
 */
view?: TableView, };

export type RummikubAnalysisRequest = { 
/**
 * The table: sets in brackets (`"[r1 r2 r3] [b5 k5 o5]"`); empty for an empty table.
 */
table: string, 
/**
 * The rack: tiles such as `"r4 J b7"` (`J` is a joker).
 */
rack: string, 
/**
 * A rule set: `current` (the default) or `old`.
 */
rules?: string, 
/**
 * The player has not made the initial meld yet (K4).
 */
initial?: boolean, };

export type RummikubAnalysis = { table: Array<Array<string>>, rack: Array<string>, by_tiles: HintPlay | null, by_value: HintPlay | null, };

export type RumisAnalysisRequest = { record: string, 
/**
 * `POST /api/analysis/rumis/best`: the moves of the record played before the
 * search (0: the start); the whole record when absent.
 */
ply?: number, };

export type RumisAnalysis = { 
/**
 * `steps[i]`: the board after the first `i` moves of the record (in full for
 * `i = 0`, else what changed).
 */
steps: Array<RumisView>, 
/**
 * Per step, what it keeps of the step before (`{0, 0}` for the first).
 */
kept: Array<StepKept>, 
/**
 * The record's moves as written there.
 */
moves: Array<string>, };

export type StepKept = { cubes: number, history: number, };

export type RumisBestMoves = { ply: number, 
/**
 * The colour to move (`null`: the game is over there).
 */
to_move: string | null, moves: Array<RumisSuggestion>, };

export type RumisAnalysisPosition = { 
/**
 * The seat to move (0-based; `null`: the game is over).
 */
to_move: number | null, view: RumisView, };

export type RummikubPuzzleView = { 
/**
 * The puzzle's id: its date, `YYYY-MM-DD` (UTC).
 */
id: string, 
/**
 * 1 (two sets to change, no joker) to 5: the fewest sets a best play changes,
 * less one, plus the jokers in play.
 */
difficulty: number, 
/**
 * Rack tiles to lay: the whole rack, or fewer when `goal` < the rack's size.
 */
goal: number, 
/**
 * The fewest table sets any play laying `goal` tiles changes (at least 2).
 */
changed_sets: number, 
/**
 * The table's sets, as the engine writes tiles (`r7`, `J`).
 */
table: Array<Array<string>>, rack: Array<string>, 
/**
 * The rules the puzzle is played under (the current ones, without a clock; the
 * puzzle player has made the initial meld).
 */
rules: RulesView, };

export type RummikubPuzzleSummary = { id: string, difficulty: number, goal: number, 
/**
 * Tiles on the rack.
 */
rack: number, changed_sets: number, };

export type RummikubPuzzleList = { today: string, puzzles: Array<RummikubPuzzleSummary>, };

export type RummikubPuzzleAttempt = { table: Array<Array<string>>, };

export type PuzzleVerdict = "solved" | "refused" | "short";

export type RummikubPuzzleCheck = { solved: boolean, code: PuzzleVerdict, 
/**
 * Rack tiles the table lays (0 when refused).
 */
laid: number, goal: number, 
/**
 * Why not, in English.
 */
reason?: string, 
/**
 * A refusal as a key with parameters (`reason.<code>` in the client).
 */
why?: Reason, };

export type RummikubPuzzleSolution = { id: string, 
/**
 * The whole new table.
 */
table: Array<Array<string>>, 
/**
 * The rack tiles it lays.
 */
laid: Array<string>, 
/**
 * The old table's sets (by index, from 0) it changes.
 */
changed: Array<number>, };

export type SoloLevel = { edge: number, colours: number, rules: boolean, alternate: boolean, };

export type SoloPiece = { colour: string, stone: string, 
/**
 * A stone has 2 to 4 cubes.
 */
cells: Array<[number, number, number]>, };

export type SoloBuild = { level: SoloLevel, 
/**
 * At most 62 (a cube of edge 5 holds at most 125 / 2 stones).
 */
pieces: Array<SoloPiece>, 
/**
 * The colour the player places with next (without the rules; under the rules the
 * colour to move): the `legal` placements of the answer are this colour's.
 */
colour?: string, };

export type SoloState = { level: SoloLevel, 
/**
 * The board: the cube's footprint with every column as high as the edge.
 */
view: RumisView, 
/**
 * Every cell is filled.
 */
complete: boolean, stones_used: number, };

export type SoloPlace = { level: SoloLevel, pieces: Array<SoloPiece>, 
/**
 * The stone to add; its colour may be left empty (the first colour allowed).
 */
piece: SoloPiece, };

export type SoloPlaced = { legal: boolean, reason?: string, 
/**
 * The reason as a key with parameters, when the client has a text for it.
 */
why?: Reason, 
/**
 * The stone as placed (its colour chosen when none was named).
 */
piece?: SoloPiece, };

export type SoloAnswer = "yes" | "no" | "unknown";

export type SoloFinishable = { answer: SoloAnswer, 
/**
 * How long the solver searched.
 */
millis: number, };

export type SoloHint = { answer: SoloAnswer, piece?: SoloPiece, };

export type SoloImpossible = "too_few_cubes" | "one_colour_alternates" | "rules_against_alternate" | "search_exhausted";

export type SoloLevelInfo = { level: SoloLevel, solvable: SoloAnswer, impossible?: SoloImpossible, 
/**
 * Cells of the cube, and cubes the colours hold.
 */
cells: number, cubes: number, };

export type SoloLevels = { levels: Array<SoloLevelInfo>, };

export type SoloFinish = { level: SoloLevel, 
/**
 * The full cube: checked stone by stone.
 */
pieces: Array<SoloPiece>, 
/**
 * 1 ms to a day.
 */
millis: number, };

export type SoloBest = { level: SoloLevel, millis: number, stones: number, at_ms: number, };

export type SoloBests = { bests: Array<SoloBest>, };

export type SoloRecorded = { best: SoloBest | null, new_best: boolean, 
/**
 * The time counted: the one sent, or the server's own since it saw the cube
 * begin, whichever is longer.
 */
millis: number, 
/**
 * Hints asked for this cube (by this account, since it began).
 */
hints: number, };
