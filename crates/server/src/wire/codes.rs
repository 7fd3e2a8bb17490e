//! Codes: errors, refusal reasons and events as enums, exported to the client, whose
//! compiler checks that each has a text in every language.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// An error's stable key, for programs and translations (`code.<code>` in the client,
/// whose compiler checks that each has a text in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    AlreadySeated,
    BadCreatorSeat,
    BadName,
    BadObjective,
    BadRequest,
    BadSeats,
    BadWebsocketKey,
    BadSeed,
    BadSettings,
    BadToken,
    BinaryMessage,
    ClaimNeeded,
    Conflict,
    Error,
    Forbidden,
    GameOver,
    HeadersTooLarge,
    HelloFirst,
    HelloTwice,
    HintsBusy,
    HintsOff,
    Illegal,
    Internal,
    MalformedAction,
    MalformedMessage,
    MalformedRequest,
    MethodNotAllowed,
    NameTaken,
    NoOpenSeat,
    NoRoute,
    NoSeat,
    NoTable,
    NotAnInvite,
    NotForThisGame,
    NotFound,
    NotOver,
    NotStarted,
    NotYourSeat,
    OutOfTurn,
    PlayerNotAwayLongEnough,
    PlayerPresent,
    RangeNotSatisfiable,
    RateLimited,
    SeatIsBot,
    SeatNotBot,
    SeatNotOpen,
    SeatTaken,
    SeedNotAllowed,
    Spectator,
    Stale,
    Timeout,
    TokenInUrl,
    TokenNeeded,
    TooLarge,
    TooManyConnections,
    TooManyConnectionsFromNetwork,
    TooManyHints,
    TooManyOpenTables,
    TooManyReplays,
    TooManySeats,
    TooManyTablesPerMinute,
    Unauthorized,
    Unavailable,
    UnknownBot,
    UnknownMessage,
    Unprocessable,
    UnsupportedMediaType,
    UpgradeRequired,
    UriTooLong,
    // Accounts and sessions.
    AccountNameTaken,
    AccountsBusy,
    BadAccountName,
    BadCredentials,
    ForeignOrigin,
    NotSignedIn,
    ReauthNeeded,
    ReservedName,
    SignInLocked,
    TooManySignIns,
    WeakPassword,
    WrongPassword,
    // Accounts at tables and rated games.
    AccountSeat,
    RatedRules,
    RatedTable,
    SeatNeverTaken,
    RatedClock,
    TableCancelled,
    UnknownPlayer,
    // Passkeys.
    PasskeyRefused,
    PasskeysUnavailable,
    // The analysis board.
    AnalysisBusy,
    BadPosition,
    BadRecord,
    TooManyAnalyses,
    // Puzzles.
    PuzzlesBusy,
    TooManyPuzzles,
    // The solo cube.
    BadSoloLevel,
    BadSoloBuild,
    SoloImpossible,
    SoloIncomplete,
    BadSoloTime,
    TooManySoloRequests,
    SoloBusy,
    // Game reviews.
    ReviewsBusy,
    TooManyReviews,
    // Abuse guards (#56): bots-only tables, rated positions, challenges.
    TooManyBotTables,
    BotTablesFull,
    PositionInRatedGame,
    TooManyChallenges,
    ChallengesFull,
    ChallengesRefused,
    TooManyBlocks,
    SoloNotBegun,
}

impl ErrorCode {
    /// The key as it is sent (`not_found`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AlreadySeated => "already_seated",
            ErrorCode::BadCreatorSeat => "bad_creator_seat",
            ErrorCode::BadName => "bad_name",
            ErrorCode::BadObjective => "bad_objective",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::BadSeats => "bad_seats",
            ErrorCode::BadWebsocketKey => "bad_websocket_key",
            ErrorCode::BadSeed => "bad_seed",
            ErrorCode::BadSettings => "bad_settings",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::BinaryMessage => "binary_message",
            ErrorCode::ClaimNeeded => "claim_needed",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Error => "error",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::GameOver => "game_over",
            ErrorCode::HeadersTooLarge => "headers_too_large",
            ErrorCode::HelloFirst => "hello_first",
            ErrorCode::HelloTwice => "hello_twice",
            ErrorCode::HintsBusy => "hints_busy",
            ErrorCode::HintsOff => "hints_off",
            ErrorCode::Illegal => "illegal",
            ErrorCode::Internal => "internal",
            ErrorCode::MalformedAction => "malformed_action",
            ErrorCode::MalformedMessage => "malformed_message",
            ErrorCode::MalformedRequest => "malformed_request",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::NoOpenSeat => "no_open_seat",
            ErrorCode::NoRoute => "no_route",
            ErrorCode::NoSeat => "no_seat",
            ErrorCode::NoTable => "no_table",
            ErrorCode::NotAnInvite => "not_an_invite",
            ErrorCode::NotForThisGame => "not_for_this_game",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NotOver => "not_over",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::NotYourSeat => "not_your_seat",
            ErrorCode::OutOfTurn => "out_of_turn",
            ErrorCode::PlayerNotAwayLongEnough => "player_not_away_long_enough",
            ErrorCode::PlayerPresent => "player_present",
            ErrorCode::RangeNotSatisfiable => "range_not_satisfiable",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::SeatIsBot => "seat_is_bot",
            ErrorCode::SeatNotBot => "seat_not_bot",
            ErrorCode::SeatNotOpen => "seat_not_open",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::SeedNotAllowed => "seed_not_allowed",
            ErrorCode::Spectator => "spectator",
            ErrorCode::Stale => "stale",
            ErrorCode::Timeout => "timeout",
            ErrorCode::TokenInUrl => "token_in_url",
            ErrorCode::TokenNeeded => "token_needed",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::TooManyConnections => "too_many_connections",
            ErrorCode::TooManyConnectionsFromNetwork => "too_many_connections_from_network",
            ErrorCode::TooManyHints => "too_many_hints",
            ErrorCode::TooManyOpenTables => "too_many_open_tables",
            ErrorCode::TooManyReplays => "too_many_replays",
            ErrorCode::TooManySeats => "too_many_seats",
            ErrorCode::TooManyTablesPerMinute => "too_many_tables_per_minute",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::UnknownBot => "unknown_bot",
            ErrorCode::UnknownMessage => "unknown_message",
            ErrorCode::Unprocessable => "unprocessable",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::UpgradeRequired => "upgrade_required",
            ErrorCode::UriTooLong => "uri_too_long",
            ErrorCode::AccountNameTaken => "account_name_taken",
            ErrorCode::AccountsBusy => "accounts_busy",
            ErrorCode::BadAccountName => "bad_account_name",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::ForeignOrigin => "foreign_origin",
            ErrorCode::NotSignedIn => "not_signed_in",
            ErrorCode::ReauthNeeded => "reauth_needed",
            ErrorCode::ReservedName => "reserved_name",
            ErrorCode::SignInLocked => "sign_in_locked",
            ErrorCode::TooManySignIns => "too_many_sign_ins",
            ErrorCode::WeakPassword => "weak_password",
            ErrorCode::WrongPassword => "wrong_password",
            ErrorCode::AccountSeat => "account_seat",
            ErrorCode::RatedRules => "rated_rules",
            ErrorCode::RatedTable => "rated_table",
            ErrorCode::SeatNeverTaken => "seat_never_taken",
            ErrorCode::RatedClock => "rated_clock",
            ErrorCode::TableCancelled => "table_cancelled",
            ErrorCode::UnknownPlayer => "unknown_player",
            ErrorCode::PasskeyRefused => "passkey_refused",
            ErrorCode::PasskeysUnavailable => "passkeys_unavailable",
            ErrorCode::AnalysisBusy => "analysis_busy",
            ErrorCode::BadPosition => "bad_position",
            ErrorCode::BadRecord => "bad_record",
            ErrorCode::TooManyAnalyses => "too_many_analyses",
            ErrorCode::PuzzlesBusy => "puzzles_busy",
            ErrorCode::TooManyPuzzles => "too_many_puzzles",
            ErrorCode::BadSoloLevel => "bad_solo_level",
            ErrorCode::BadSoloBuild => "bad_solo_build",
            ErrorCode::SoloImpossible => "solo_impossible",
            ErrorCode::SoloIncomplete => "solo_incomplete",
            ErrorCode::BadSoloTime => "bad_solo_time",
            ErrorCode::TooManySoloRequests => "too_many_solo_requests",
            ErrorCode::SoloBusy => "solo_busy",
            ErrorCode::ReviewsBusy => "reviews_busy",
            ErrorCode::TooManyReviews => "too_many_reviews",
            ErrorCode::TooManyBotTables => "too_many_bot_tables",
            ErrorCode::BotTablesFull => "bot_tables_full",
            ErrorCode::PositionInRatedGame => "position_in_rated_game",
            ErrorCode::TooManyChallenges => "too_many_challenges",
            ErrorCode::ChallengesFull => "challenges_full",
            ErrorCode::ChallengesRefused => "challenges_refused",
            ErrorCode::TooManyBlocks => "too_many_blocks",
            ErrorCode::SoloNotBegun => "solo_not_begun",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// An error: a message for a person and a key for programs (and translations).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct ErrorBody {
    pub error: String,
    pub code: ErrorCode,
    /// For a move the rules refuse: the engine's reason as a key with parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub why: Option<Reason>,
}

/// Why the rules refused a move, as a key (`games::reasons` maps every engine refusal
/// to one). The client has a text for each in every language (`reason.<code>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum RefusalCode {
    GameOver,
    NoSuchPlacement,
    NotColoursTurn,
    AlreadyPlaced,
    CubeCount,
    NotTheStone,
    CellTwice,
    Outside,
    TooHigh,
    Taken,
    HoleUnder,
    FirstOnBoard,
    FirstTouch,
    OwnContact,
    NoSuchOrientation,
    WouldLeave,
    FirstEdge,
    FirstFace,
    InverseOwn,
    InverseOther,
    OutsideRed,
    InsideRed,
    RebuiltOnBoard,
    RebuiltTouch,
    MustRemove,
    NoRemovalNow,
    PlaceRemoved,
    NotOnBuild,
    RemoveOutside,
    RemovalHole,
    CannotSetAside,
    RoundOver,
    NoSuchPlayer,
    NotPlayersTurn,
    SetProblem,
    ThirdCopy,
    UnknownTile,
    LeftTable,
    PlayOne,
    MeldValue,
    MeldTouch,
    Frozen,
    NoClock,
    RedealOld,
    RedealLate,
    RedealPairs,
    /// A seat name (no rule): a character that hides or reorders text, or too long.
    NameBidi,
    NameTag,
    NameControl,
    NameInvisible,
    NameTooLong,
    /// The solo cube: every colour has placed that stone; a colour touching itself.
    SoloUsedUp,
    SoloSameColour,
    /// A record on the analysis board: a header rumi does not know (`line`, `header`),
    /// one missing (`header`), one that cannot be read (`line`, `header`, `value`).
    RecordUnknownHeader,
    RecordMissingHeader,
    RecordBadHeader,
    /// Not one of rumi's boards (`board`, `known`).
    RecordUnknownBoard,
    /// The header's setup is impossible (`line`, `players`: on that board).
    RecordBadSetup,
    /// A move that cannot be read (`line`, `move`); one the rules refuse carries the
    /// engine's reason with `line` and `move` added.
    RecordUnreadableMove,
    /// Longer than `kib` KiB, or more than `max` moves.
    RecordTooLong,
    RecordTooManyMoves,
    /// A point past the record's end (`moves`: how many it has).
    RecordPastEnd,
}

/// What happened at a Rummikub table, as a key (`event.<code>` in the client).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum EventCode {
    Played,
    Melded,
    Drew,
    Passed,
    Penalty,
    Redealt,
    RoundDealt,
}

/// What is wrong with a Rummikub set, the `problem` of `set_problem` (`problem.<code>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum SetProblemCode {
    TooShort,
    Jokers,
    Neither,
}

/// A refusal as a key with parameters, for the client to say in the player's language
/// (`{"code": "hole_under", "rule": "R3", "params": {"cell": {"column": "b5",
/// "level": 2}}}`). Players are seat numbers (0-based) in `params`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Reason {
    pub code: RefusalCode,
    /// The ruling the refusal enforces (`R7`, `K4`), for a "Why?" link.
    pub rule: Option<String>,
    #[schema(value_type = Object)]
    #[ts(type = "Record<string, unknown>")]
    pub params: BTreeMap<String, Value>,
}

/// An event as a key with parameters (`{"code": "drew", "params": {"player": 1}}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Event {
    pub code: EventCode,
    #[schema(value_type = Object)]
    #[ts(type = "Record<string, unknown>")]
    pub params: BTreeMap<String, Value>,
}
