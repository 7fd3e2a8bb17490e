//! Requests: creating a table, taking a seat, acting, naming, handing a seat to a bot.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;

/// The settings of a Rumis table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RumisSettings {
    /// A built-in scenario key (`chullpa`); see `/api/meta`.
    pub scenario: ScenarioKey,
    /// 2 to 6, as the scenario allows (`variant_players` in `/api/meta`).
    #[schema(minimum = 2, maximum = 6)]
    pub players: u8,
    /// `standard` when missing; see `/api/meta`.
    #[serde(default = "standard")]
    #[ts(optional, as = "Option<String>")]
    pub variant: VariantName,
    /// Seconds per turn (RD17: a turn whose time runs out is passed): missing is no
    /// clock at a casual table and 60 s at a rated one; `null` is no clock, refused at
    /// a rated table (RT9), where a turn has at least 20 s.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 3600)]
    #[ts(optional, type = "number | null")]
    pub turn_seconds: Option<Option<u32>>,
}

fn standard() -> VariantName {
    "standard".into()
}

/// The settings of a Rummikub table. The number of players is the number of seats.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct RummikubSettings {
    /// Rule preset: `current` (default) or `old` (K10).
    #[serde(default = "current")]
    #[ts(optional, as = "Option<String>")]
    pub rules: RulesPreset,
    /// Seconds per turn (K7): missing keeps the preset's clock (60 s), `null` switches
    /// it off (refused at a rated table, RT9, where a turn has at least 20 s).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 3600)]
    #[ts(optional, type = "number | null")]
    pub turn_seconds: Option<Option<u32>>,
    /// Rounds in the game (K9), 1 to 20; 1 when missing.
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 20)]
    #[ts(optional, as = "Option<u32>")]
    pub rounds: u32,
}

fn current() -> RulesPreset {
    "current".into()
}

impl Default for RummikubSettings {
    /// The preset's rules and clock, one round.
    fn default() -> Self {
        RummikubSettings {
            rules: current(),
            turn_seconds: None,
            rounds: one(),
        }
    }
}

fn one() -> u32 {
    1
}

/// `Option<Option<T>>` that tells a missing field (outer `None`) from `null`.
mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Option<u32>>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            None => s.serialize_none(),
            Some(inner) => inner.serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
        Option::<u32>::deserialize(d).map(Some)
    }
}

/// Who sits at a seat of a new table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// Invited: only the holder of the seat's invite link may take it.
    Human,
    /// Open: anyone may join it from the lobby (and gets a fresh token).
    Open,
    /// Played by a bot on the server.
    Bot,
    /// Kept for the account holder named in `name`: only they may take it, signed in
    /// (`POST …/claim` without a token). Every seat of a rated table is an account's.
    Account,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub kind: SeatKind,
    /// Up to 40 printable characters; a default is given when missing.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<SeatName>,
    /// For a bot seat: its name from `/api/meta` (`random` when missing).
    #[serde(default)]
    #[ts(optional)]
    pub bot: Option<BotName>,
}

/// `POST /api/tables`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CreateTableRequest {
    pub game: GameKind,
    /// Required when `game` is `rumis`.
    #[serde(default)]
    #[ts(optional)]
    pub rumis: Option<RumisSettings>,
    /// Required when `game` is `rummikub`.
    #[serde(default)]
    #[ts(optional)]
    pub rummikub: Option<RummikubSettings>,
    #[schema(min_items = 2, max_items = 6)]
    pub seats: Vec<SeatRequest>,
    /// The creator's own seat, theirs at once; the first `human` seat when missing.
    #[serde(default)]
    #[ts(optional)]
    #[schema(maximum = 5)]
    pub creator_seat: Option<usize>,
    /// A fixed deal, only for practice tables (every seat but the creator's a bot).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    #[schema(maximum = 9007199254740991_u64)]
    pub seed: Option<u64>,
    /// Whether the players may ask for hints, shown to everyone. When missing: on at
    /// a practice table (at most one person), off when two or more people sit.
    #[serde(default)]
    #[ts(optional)]
    pub hints: Option<bool>,
    /// A rated game: every seat an account holder's (the signed-in creator's and
    /// `account` seats), no bots, no hints, a deal nobody chose. The players' ratings
    /// move by the final ranking.
    #[serde(default)]
    #[ts(optional)]
    pub rated: Option<bool>,
}

/// A seat handed to the one who asked for it, with its secret token.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SeatGrant {
    pub seat: usize,
    pub name: String,
    pub token: String,
    /// The seat's link; the token is in the fragment, which browsers never send.
    pub url: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CreatedSeat {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    pub bot: Option<String>,
    /// For an invited seat other than the creator's: the link to send.
    pub invite: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct CreateTableResponse {
    pub id: String,
    pub spectator: String,
    /// The creator's seat, if they sit at the table.
    pub you: Option<SeatGrant>,
    pub seats: Vec<CreatedSeat>,
    /// SHA-256 of the deal's seed and a secret salt, revealed when the game is over.
    pub commitment: String,
    #[ts(as = "Option<u32>")]
    pub practice_seed: Option<u64>,
}

/// `POST /api/tables/{id}/join`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<SeatName>,
    /// An open seat to take; the first open seat when missing.
    #[serde(default)]
    #[ts(optional)]
    #[schema(maximum = 5)]
    pub seat: Option<usize>,
}

/// `POST /api/tables/{id}/claim`: takes an invited seat with its invite link's token
/// (`X-Seat-Token`); the answer carries the seat's new token, the link is spent.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The name to sit under; the seat keeps its name when missing.
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<SeatName>,
}

/// `POST /api/tables/{id}/rematch`: nothing to say (`{}`): the seat token says who asks,
/// and the rematch has the finished table's settings and seats.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {}

/// `POST /api/tables/{id}/seats/{seat}/name`: the name a player sits under.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    /// 1 to 40 characters, no control characters.
    pub name: NewName,
}

/// `POST /api/tables/{id}/seats/{seat}/bot`.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BotRequest {
    pub bot: BotName,
}
