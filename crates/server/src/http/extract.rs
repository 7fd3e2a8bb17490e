//! What every table route starts with, as extractors: the table the path names, the
//! seat the `X-Seat-Token` header opens (or, without one, the signed-in account's
//! seat), and the JSON body. Each refuses the way the
//! API documents: 404 `no_table`; 403 `bad_token` for a token of no seat, 409
//! `claim_needed` / `seat_taken` for an invite link's token, 403 `token_needed` where
//! a seat is required and no token came; 400 `malformed_request` for a body that
//! does not read.

use std::marker::PhantomData;
use std::sync::Arc;

use axum::extract::{FromRef, FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::accounts::MaybeSession;
use crate::error::ApiError;
use crate::hub::{Hub, Table};
use crate::wire::{read, ErrorCode};

/// The table of the path's `{id}`, from memory or the database.
pub struct TableAt(pub Arc<Table>);

impl<S> FromRequestParts<S> for TableAt
where
    Arc<Hub>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let hub = Arc::<Hub>::from_ref(state);
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let id = params
            .iter()
            .find_map(|(name, value)| (name == "id").then_some(value))
            .ok_or_else(|| ApiError::internal("a table route without {id}").into_response())?;
        let table = hub.table(id).await.map_err(IntoResponse::into_response)?;
        Ok(TableAt(table))
    }
}

/// The `X-Seat-Token` header (never the address). A value that is not text is kept
/// (as what it reads as), so that it is refused as a token of no seat instead of
/// passing for no token at all.
pub struct Token(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Token {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Token(parts.headers.get("x-seat-token").map(|v| {
            String::from_utf8_lossy(v.as_bytes()).into_owned()
        })))
    }
}

/// The table and who asks: the token's seat; without a token, the seat of the
/// signed-in account (on any of its devices); else a spectator (`None`).
pub struct Viewer {
    pub table: Arc<Table>,
    pub seat: Option<usize>,
    /// The seat was found by the session, not by a token.
    pub by_session: bool,
}

impl<S> FromRequestParts<S> for Viewer
where
    Arc<Hub>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let TableAt(table) = TableAt::from_request_parts(parts, state).await?;
        let Ok(Token(token)) = Token::from_request_parts(parts, state).await;
        if token.as_deref().is_some_and(|t| !t.is_empty()) {
            let seat = table
                .state
                .lock()
                .await
                .seat_of(token.as_deref())
                .map_err(IntoResponse::into_response)?;
            return Ok(Viewer {
                table,
                seat,
                by_session: false,
            });
        }
        let MaybeSession(signed) = MaybeSession::from_request_parts(parts, state).await?;
        let seat = match signed {
            Some(signed) => table
                .state
                .lock()
                .await
                .taken_seat_of_account(&signed.account.id),
            None => None,
        };
        Ok(Viewer {
            table,
            seat,
            by_session: seat.is_some(),
        })
    }
}

/// What a route that needs a seat says to a request without a token.
pub trait SeatNeeded {
    const WITHOUT_TOKEN: &'static str;
}

/// The table and the token's seat, for a route only a player may use: like
/// [`Viewer`], and 403 `token_needed` without a token.
pub struct SeatAt<Why> {
    pub table: Arc<Table>,
    pub seat: usize,
    why: PhantomData<Why>,
}

impl<Why: SeatNeeded, S> FromRequestParts<S> for SeatAt<Why>
where
    Arc<Hub>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Viewer { table, seat, .. } = Viewer::from_request_parts(parts, state).await?;
        let seat = seat.ok_or_else(|| {
            ApiError::forbidden(ErrorCode::TokenNeeded, Why::WITHOUT_TOKEN).into_response()
        })?;
        Ok(SeatAt {
            table,
            seat,
            why: PhantomData,
        })
    }
}

/// Declares the marker types of [`SeatAt`] with their refusal without a token.
macro_rules! seat_needed {
    ($($name:ident => $text:literal),* $(,)?) => {$(
        pub struct $name;
        impl SeatNeeded for $name {
            const WITHOUT_TOKEN: &'static str = $text;
        }
    )*};
}

seat_needed! {
    ToAct => "an action needs your seat token",
    ToCheck => "a check needs your seat token",
    ToHint => "a hint needs your seat token",
    ToHandOver => "only a player at this table can hand a seat to a bot",
    ToRematch => "a rematch is for the table's players: it needs your seat token",
}

/// A JSON body, read with a message that says what is wrong with it (400
/// `malformed_request`).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        parse_body(&bytes)
            .map(JsonBody)
            .map_err(IntoResponse::into_response)
    }
}

/// A JSON body that may be left out (then the type's default).
pub struct OptionalJsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        if bytes.is_empty() {
            return Ok(OptionalJsonBody(T::default()));
        }
        parse_body(&bytes)
            .map(OptionalJsonBody)
            .map_err(IntoResponse::into_response)
    }
}

/// Reads a JSON body with a message that says what is wrong with it. Every body is an
/// object (serde would also read a struct from an array of its fields, which the
/// document does not admit).
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            ErrorCode::MalformedRequest,
            "malformed request: the body must be a JSON object",
        ));
    }
    read(body).map_err(|e| {
        ApiError::bad_request(
            ErrorCode::MalformedRequest,
            format!("malformed request: {e}"),
        )
    })
}
