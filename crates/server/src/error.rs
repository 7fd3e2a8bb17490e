//! The API's errors: a kind (which becomes the HTTP status in `http.rs`), a stable code
//! for programs and translations, and a message for a person.

use crate::games::ActionError;
use crate::wire::ErrorCode;

/// What kind of refusal an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request cannot be read (400).
    BadRequest,
    /// Not signed in, or a failed sign-in (401).
    Unauthorized,
    /// The token does not allow it (403).
    Forbidden,
    /// No such table or route (404).
    NotFound,
    /// Stale, out of turn, illegal, or not now (409).
    Conflict,
    /// Too many requests or tables from one address (429).
    TooMany,
    /// The server failed (500).
    Internal,
}

/// An error of the API.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub kind: ErrorKind,
    pub code: ErrorCode,
    pub message: String,
    /// The engine's reason for a refused move, as a key with parameters.
    pub why: Option<crate::wire::Reason>,
    /// For a refusal that time lifts (429): whole seconds until the client may try
    /// again (the `Retry-After` header). Not a `Duration`: an error stays small.
    pub retry_after_secs: Option<std::num::NonZeroU32>,
}

impl ApiError {
    pub fn new(kind: ErrorKind, code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            code,
            message: message.into(),
            why: None,
            retry_after_secs: None,
        }
    }

    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::BadRequest, code, message)
    }

    pub fn unauthorized(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Unauthorized, code, message)
    }

    pub fn forbidden(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Forbidden, code, message)
    }

    pub fn not_found(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::NotFound, code, message)
    }

    pub fn conflict(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Conflict, code, message)
    }

    pub fn too_many(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::TooMany, code, message)
    }

    /// A 429 that may be tried again after `wait`.
    pub fn too_many_for(
        code: ErrorCode,
        message: impl Into<String>,
        wait: std::time::Duration,
    ) -> ApiError {
        // Whole seconds, rounded up: never earlier than the wait.
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        ApiError {
            retry_after_secs: std::num::NonZeroU32::new(
                seconds.clamp(1, u64::from(u32::MAX)) as u32
            ),
            ..ApiError::too_many(code, message)
        }
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::Internal, ErrorCode::Internal, message)
    }
}

impl From<ActionError> for ApiError {
    fn from(e: ActionError) -> ApiError {
        // Each is a conflict with the table's state (another game's action included:
        // the request itself is well formed).
        ApiError {
            why: e.why(),
            ..ApiError::conflict(e.code(), e.to_string())
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        tracing::error!("database: {e:#}");
        ApiError::internal("the database refused the change; try again")
    }
}
