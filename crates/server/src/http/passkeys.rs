//! The passkey routes: add, list and remove them signed in; sign in with one.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::accounts::{signed_in, Session};
use super::extract::{JsonBody, OptionalJsonBody};
use crate::accounts::passkeys::Site;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::json_writes;
use crate::app::AppState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::wire::*;

/// The site as the browser reached it.
fn site<'a>(hub: &Hub, headers: &'a HeaderMap) -> Site<'a> {
    Site {
        host: headers.get(header::HOST).and_then(|h| h.to_str().ok()),
        https: hub.accounts.secure_cookies(),
    }
}

/// The passkey routes: adding and removing passkeys, signing in with one.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(json_writes(routes!(start)))
        .routes(json_writes(routes!(finish)))
        .routes(json_writes(routes!(remove)))
        .routes(json_writes(routes!(sign_in_start)))
        .routes(json_writes(routes!(sign_in_finish)))
}

/// The signed-in account's passkeys.
#[utoipa::path(get, path = "/api/me/passkeys", responses(
    (status = 200, body = Passkeys),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn list(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Json<Passkeys>, ApiError> {
    Ok(Json(hub.accounts.passkeys(&signed).await?))
}

/// Starts adding a passkey: the options for `navigator.credentials.create`.
#[utoipa::path(post, path = "/api/me/passkeys/start", request_body = SessionRequest, responses(
    (status = 200, body = PasskeyChallenge),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 409, body = ErrorBody, description = "`passkeys_unavailable` (the site was reached by an address), or ten passkeys already (`passkey_refused`)"),
))]
pub async fn start(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
    headers: HeaderMap,
    OptionalJsonBody(SessionRequest {}): OptionalJsonBody<SessionRequest>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    Ok(Json(
        hub.accounts
            .start_passkey(&signed, &site(&hub, &headers))
            .await?,
    ))
}

/// Finishes adding a passkey with the browser's new credential.
#[utoipa::path(post, path = "/api/me/passkeys/finish", request_body = PasskeyRegistration, responses(
    (status = 201, body = PasskeyView),
    (status = 400, body = ErrorBody, description = "`passkey_refused`: a credential that does not verify, an unknown or expired ceremony"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 409, body = ErrorBody, description = "`passkeys_unavailable`"),
))]
pub async fn finish(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasskeyRegistration>,
) -> Result<Response, ApiError> {
    let added = hub
        .accounts
        .finish_passkey(
            &signed,
            &site(&hub, &headers),
            &request.ceremony,
            request.name.as_deref(),
            request.credential,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(added)).into_response())
}

/// Removes one of the account's passkeys.
#[utoipa::path(delete, path = "/api/me/passkeys/{id}",
    params(("id" = String, Path)),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, body = ErrorBody, description = "`not_signed_in`"),
        (status = 403, body = ErrorBody, description = "`foreign_origin`"),
        (status = 404, body = ErrorBody, description = "No passkey of that id"),
    ))]
pub async fn remove(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    hub.accounts.remove_passkey(&signed, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Starts signing in with a passkey: the options for `navigator.credentials.get`.
/// A name of no account gets a challenge too (that no passkey answers).
#[utoipa::path(post, path = "/api/session/passkey/start", request_body = PasskeySignInStart, responses(
    (status = 200, body = PasskeyChallenge),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 409, body = ErrorBody, description = "`passkeys_unavailable`"),
    (status = 429, body = ErrorBody, description = "`sign_in_locked`, `too_many_sign_ins` (Retry-After)"),
))]
pub async fn sign_in_start(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasskeySignInStart>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    super::accounts::check_page_origin(&hub, &headers)?;
    Ok(Json(
        hub.accounts
            .start_passkey_sign_in(&request.name, &site(&hub, &headers), from.ip())
            .await?,
    ))
}

/// Finishes a passkey sign-in: the session cookie, as a password sign-in sets it.
#[utoipa::path(post, path = "/api/session/passkey/finish", request_body = PasskeySignIn, responses(
    (status = 200, body = AccountView),
    (status = 401, body = ErrorBody, description = "`bad_credentials`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
    (status = 409, body = ErrorBody, description = "`passkeys_unavailable`"),
))]
pub async fn sign_in_finish(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasskeySignIn>,
) -> Result<Response, ApiError> {
    super::accounts::check_page_origin(&hub, &headers)?;
    let (account, session) = hub
        .accounts
        .finish_passkey_sign_in(
            &site(&hub, &headers),
            &request.ceremony,
            request.credential,
            super::accounts::device_cookie(&headers),
        )
        .await?;
    Ok(signed_in(&hub, StatusCode::OK, account, &session))
}
