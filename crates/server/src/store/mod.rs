//! Persistence: tables, seats and the action log, on SQLite (WAL, the default) or
//! PostgreSQL, with one schema and one set of queries through sqlx's `Any` driver.
//!
//! The action log is the truth: a table's state is its configuration and seed replayed
//! through its actions. An action is written, in its own transaction, before the
//! server shows it to anyone; `(table_id, version)` is the key, so an action can never
//! be stored twice.
//!
//! [`schema`] creates and migrates the schema, [`tables`] stores tables and their
//! action log, [`seats`] who sits where, [`results`] finished games' results and
//! ratings, [`cluster`] the leases and presence that
//! several nodes on one database share.

mod accounts;
mod blocks;
mod cluster;
mod passkeys;
mod results;
mod reviews;
mod schema;
mod seats;
mod solo;
mod tables;

pub use accounts::{NameClash, NewAccount, StoredAccount};
pub use blocks::StoredBlock;
pub use passkeys::{Ceremony, StoredPasskey};
pub use results::{FinishedGame, GameEntry, RatingRow, ResultRow, SeatResult};
pub use reviews::ReviewRow;
pub use solo::{SoloLevelKey, StoredSoloBest};

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

/// A stored table: what is needed to rebuild it.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub id: String,
    /// The game configuration as JSON (`games::GameConfig`).
    pub config: String,
    pub seed: u64,
    /// The secret that hides the seed in the published commitment (hex).
    pub salt: String,
    /// The creator chose the seed (a practice table, R: only with bots as opponents).
    pub practice: bool,
    pub created_ms: i64,
    /// When every human seat was taken and the game began; `None` while waiting.
    pub started_ms: Option<i64>,
    /// When a rated table whose seats were not all taken in time was cancelled (RT7).
    pub cancelled_ms: Option<i64>,
    /// The address that created the table (for the per-address cap).
    pub creator: String,
    pub finished: bool,
    pub seats: Vec<StoredSeat>,
    pub actions: Vec<StoredAction>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSeat {
    pub seat: usize,
    pub name: String,
    /// The bot playing the seat, or `None` for a person.
    pub bot: Option<String>,
    pub token: String,
    /// Whether a person has taken the seat (by invite link or by joining).
    pub claimed: bool,
    /// Open to anyone from the lobby (else invited: only the link's holder).
    pub open: bool,
    /// An invited seat's link token: it takes the seat once, for a fresh token that
    /// only the one who took it gets; kept afterwards to tell a spent link ("this seat
    /// is taken") from a forged one. Empty for other seats.
    pub invite: String,
    /// The address (`transport::client_key`) that joined this open seat from the
    /// lobby, for the per-address seat caps; empty for other seats.
    pub joiner: String,
    /// The account the seat belongs to (it opens on any of its devices, and the game
    /// goes into its history); empty for a guest's seat.
    pub account: String,
    /// That account's name, read with the seat (not a column of the seat); empty for
    /// a guest's seat and once the account is deleted.
    pub account_name: String,
}

/// What one node saw of a seat's player (several nodes on one database).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPresence {
    pub seat: usize,
    /// Connections the node holds for the seat (its heartbeat refreshes `seen_ms`
    /// while there are any).
    pub connections: u64,
    /// The last time the node saw the player (Unix ms).
    pub seen_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1 for the first action.
    pub version: u64,
    /// The seat, or `None` for the server's clock.
    pub actor: Option<usize>,
    /// The action in canonical JSON.
    pub action: String,
    pub at_ms: i64,
}

/// The database behind the server.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// PostgreSQL (which several nodes may share), not SQLite.
    postgres: bool,
}

impl Store {
    /// Whether the database is PostgreSQL, which several nodes may share: what they
    /// must count together (sign-in limits) is counted in it.
    pub fn is_shared(&self) -> bool {
        self.postgres
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

fn table_of_row(
    row: &AnyRow,
    seats: Vec<StoredSeat>,
    actions: Vec<StoredAction>,
) -> Result<StoredTable, sqlx::Error> {
    Ok(StoredTable {
        id: row.try_get("id")?,
        config: row.try_get("config")?,
        seed: row.try_get::<i64, _>("seed")? as u64,
        salt: row.try_get("salt")?,
        practice: row.try_get::<i64, _>("practice")? != 0,
        created_ms: row.try_get("created_ms")?,
        started_ms: row.try_get("started_ms")?,
        cancelled_ms: row.try_get("cancelled_ms")?,
        creator: row.try_get("creator")?,
        finished: row.try_get::<i64, _>("finished")? != 0,
        seats,
        actions,
    })
}

fn seat_of_row(row: &AnyRow) -> Result<StoredSeat, sqlx::Error> {
    Ok(StoredSeat {
        seat: row.try_get::<i64, _>("seat")? as usize,
        name: row.try_get("name")?,
        bot: row.try_get("bot")?,
        token: row.try_get("token")?,
        claimed: row.try_get::<i64, _>("claimed")? != 0,
        open: row.try_get::<i64, _>("open")? != 0,
        invite: row.try_get("invite")?,
        joiner: row.try_get("joiner")?,
        account: row.try_get("account_id")?,
        account_name: row.try_get("account_name")?,
    })
}

fn action_of_row(row: &AnyRow) -> Result<StoredAction, sqlx::Error> {
    let actor: i64 = row.try_get("actor")?;
    Ok(StoredAction {
        version: row.try_get::<i64, _>("version")? as u64,
        actor: usize::try_from(actor).ok(),
        action: row.try_get("action")?,
        at_ms: row.try_get("at_ms")?,
    })
}
