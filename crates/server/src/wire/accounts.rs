//! Accounts and sessions: signing up and in, the signed-in account, its data.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

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
    pub sessions: Vec<SessionData>,
}
