//! Accounts and sessions: signing up and in, the signed-in account, its data.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::{GameKind, RatingPool, TableStatus};

/// `POST /api/accounts` (sign up) and `POST /api/session` (sign in).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 20 letters, digits, `_` and `-` (any case: `Ana` and `ana` are one name).
    #[schema(max_length = 64)]
    pub name: String,
    /// At least 10 characters, not one of the 10,000 most common passwords.
    #[schema(max_length = 256)]
    pub password: String,
}

/// The signed-in account (`GET /api/me`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct AccountView {
    pub name: String,
    #[ts(as = "f64")]
    pub created_ms: i64,
}

/// `POST /api/me/password`: every other session ends.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    #[schema(max_length = 256)]
    pub current: String,
    #[schema(max_length = 256)]
    pub new: String,
    /// Remove every passkey of the account too (one added by someone else with a
    /// stolen session among them).
    #[serde(default)]
    #[ts(optional)]
    pub remove_passkeys: Option<bool>,
}

/// `POST /api/me/reauth`: the password, proved again.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Reauth {
    #[schema(max_length = 256)]
    pub password: String,
}

/// `DELETE /api/me`: the password confirms it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DeleteAccount {
    #[schema(max_length = 256)]
    pub password: String,
}

/// One session of the account (`GET /api/me/data`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct SessionData {
    #[ts(as = "f64")]
    pub created_ms: i64,
    #[ts(as = "f64")]
    pub expires_ms: i64,
}

/// `GET /api/me/data`: everything stored about the account, for its owner.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct AccountData {
    pub account: AccountView,
    /// Ratings, totals and results, as the profile shows them.
    pub profile: UserProfile,
    /// Every table the account has a seat at.
    pub tables: Vec<MyGame>,
    pub sessions: Vec<SessionData>,
}

/// A rating as people see it: 1500 for a new player (`play::rating`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct RatingView {
    /// Rounded to a whole number.
    pub rating: f64,
    /// One standard deviation, on the same scale.
    pub uncertainty: f64,
    #[ts(as = "f64")]
    pub games: u64,
    /// Too few games yet to say much.
    pub provisional: bool,
}

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PlayerResult {
    Won,
    /// Won together with others (a tie for first place).
    Shared,
    Lost,
}

/// A finished game in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct UserGame {
    /// The table: its replay is `/t/{id}`.
    pub id: String,
    pub game: GameKind,
    pub pool: RatingPool,
    #[ts(as = "f64")]
    pub finished_ms: i64,
    /// The player's seat, and every seat's name in seat order.
    pub seat: usize,
    pub names: Vec<String>,
    /// 1 for the winner; tied players share a place.
    pub place: usize,
    pub result: PlayerResult,
    #[ts(as = "f64")]
    pub score: i64,
    pub rated: bool,
    /// The rating after the game, and how much the game moved it (rated games).
    pub rating: Option<f64>,
    pub rating_change: Option<f64>,
}

/// Games played and won in one pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct PoolTotals {
    pub pool: RatingPool,
    #[ts(as = "f64")]
    pub played: u64,
    #[ts(as = "f64")]
    pub won: u64,
}

/// One point of a rating's history: after a rated game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct RatingPoint {
    pub pool: RatingPool,
    #[ts(as = "f64")]
    pub at_ms: i64,
    pub rating: f64,
}

/// `GET /api/users/{name}`: a player's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct UserProfile {
    pub name: String,
    #[ts(as = "f64")]
    pub created_ms: i64,
    /// Per pool played rated.
    pub ratings: BTreeMap<RatingPool, RatingView>,
    pub totals: Vec<PoolTotals>,
    /// Oldest first, for a chart.
    pub history: Vec<RatingPoint>,
    /// The latest finished games, newest first.
    pub games: Vec<UserGame>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct LeaderboardEntry {
    pub rank: usize,
    pub name: String,
    pub rating: f64,
    pub uncertainty: f64,
    #[ts(as = "f64")]
    pub games: u64,
}

/// `GET /api/leaderboard/{pool}`: the best players of a pool whose ratings are no
/// longer provisional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Leaderboard {
    pub pool: RatingPool,
    pub entries: Vec<LeaderboardEntry>,
}

/// A table the signed-in account has a seat at (`GET /api/me/games`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct MyGame {
    pub id: String,
    pub game: GameKind,
    pub seat: usize,
    /// Over or cancelled.
    pub finished: bool,
    pub status: crate::wire::TableStatus,
    #[ts(as = "f64")]
    pub created_ms: i64,
    /// The other seats' players (or bots), by seat.
    pub opponents: Vec<String>,
    /// Once its result is recorded: the account's place (1 for a win; tied places
    /// shared) of `players`.
    pub place: Option<usize>,
    pub players: Option<usize>,
}

/// `GET /api/me/games`: newest first, on every device of the account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct MyGames {
    pub games: Vec<MyGame>,
}

/// A seat this browser holds as a guest: the table and the seat's token.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct GuestSeat {
    #[schema(max_length = 64)]
    pub table: String,
    #[schema(max_length = 64)]
    pub token: String,
}

/// `POST /api/me/seats`: a guest who signs up (or in) keeps this browser's seats.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AdoptSeats {
    #[schema(max_items = 100)]
    pub seats: Vec<GuestSeat>,
}

/// The tables whose seat is now the account's (a seat of another account, or a token
/// that opens no seat, is left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct AdoptedSeats {
    pub tables: Vec<String>,
}

/// One of the account's passkeys.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct PasskeyView {
    /// The credential's id (base64url).
    pub id: String,
    pub name: String,
    #[ts(as = "f64")]
    pub created_ms: i64,
    #[ts(as = "Option<f64>")]
    pub used_ms: Option<i64>,
}

/// `GET /api/me/passkeys`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Passkeys {
    pub passkeys: Vec<PasskeyView>,
}

/// The start of a passkey ceremony: its id, to send back at the finish, and the
/// options for `navigator.credentials.create` / `.get` in WebAuthn's JSON form
/// (`PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey)`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
pub struct PasskeyChallenge {
    pub ceremony: String,
    #[schema(value_type = Object)]
    #[ts(type = "any")]
    pub options: serde_json::Value,
}

/// `POST /api/me/passkeys/finish`: the new credential (`credential.toJSON()`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PasskeyRegistration {
    #[schema(max_length = 64)]
    pub ceremony: String,
    /// What to call it ("phone", "laptop"); 1 to 40 characters.
    #[serde(default)]
    #[ts(optional)]
    #[schema(max_length = 40)]
    pub name: Option<String>,
    #[schema(value_type = Object)]
    #[ts(type = "any")]
    pub credential: serde_json::Value,
}

/// `POST /api/session/passkey/start`: the account to sign in to.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PasskeySignInStart {
    #[schema(max_length = 64)]
    pub name: String,
}

/// `POST /api/session/passkey/finish`: the signed challenge (`credential.toJSON()`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PasskeySignIn {
    #[schema(max_length = 64)]
    pub ceremony: String,
    #[schema(value_type = Object)]
    #[ts(type = "any")]
    pub credential: serde_json::Value,
}

/// A table that keeps a seat for the signed-in account: accept it by taking the seat
/// (`POST /api/tables/{id}/claim` without a token) or decline it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Challenge {
    pub id: String,
    pub game: GameKind,
    /// The seat kept for you, and every seat's name.
    pub seat: usize,
    pub names: Vec<String>,
    /// The account holders seated already (who asked you).
    pub from: Vec<String>,
    pub rated: bool,
    #[ts(as = "f64")]
    pub created_ms: i64,
    /// `waiting` for your seat to be taken, or `cancelled`: a rated table whose seats
    /// were not all taken in time (RT7), shown for a while rather than gone silently.
    pub status: TableStatus,
    /// Seconds per turn; `null`: no clock.
    pub turn_seconds: Option<u32>,
    /// A waiting rated table: when it is cancelled unless every seat is taken (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<f64>")]
    pub cancels_at_ms: Option<i64>,
}

/// `GET /api/me/challenges`: newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Challenges {
    pub challenges: Vec<Challenge>,
}

/// `POST /api/me/blocks`: the account whose challenges should no longer reach you.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BlockRequest {
    #[schema(max_length = 64)]
    pub name: String,
}

/// An account you blocked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct BlockedAccount {
    pub name: String,
    #[ts(as = "f64")]
    pub since_ms: i64,
}

/// `GET /api/me/blocks`: most recent first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, TS)]
pub struct Blocks {
    pub blocks: Vec<BlockedAccount>,
}

/// `POST /api/me/passkeys/start` and `POST /api/tables/{id}/decline`: nothing to say
/// (`{}`, or no body): the session says who asks.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {}
