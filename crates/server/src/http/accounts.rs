//! The account routes: sign up, sign in and out, the signed-in account, its password,
//! its deletion and its data. The session is a cookie (`HttpOnly; SameSite=Lax`), and
//! a write it authenticates must come from the site's own origin (scheme, host and
//! port). A second, long-lived cookie names the browser (its device cookie): a browser
//! that signed in to an account before guesses its password on an allowance of its own.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use webauthn_rs::prelude::Url;

use super::extract::JsonBody;
use crate::accounts::{NewSession, SignedIn};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::json_writes;
use crate::app::AppState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::wire::*;

/// The session cookie's name.
pub const COOKIE: &str = "rumi_session";
/// The device cookie's name.
pub const DEVICE_COOKIE: &str = "rumi_device";

/// The value of the cookie `wanted` in `headers`, if any.
fn cookie<'a>(headers: &'a HeaderMap, wanted: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(name, value)| (name == wanted).then_some(value))
}

/// The value of the session cookie in `headers`, if any.
fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, COOKIE)
}

/// The browser's device cookie in `headers`, if any.
pub fn device_cookie(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, DEVICE_COOKIE)
}

/// Whether the request's `Origin` is this site: the scheme the site is served over
/// (`https` behind TLS), the `Host` the request was sent to, and its port (a default
/// port written or not), as RFC 6454 compares origins (scheme and host in any case). A
/// request without `Origin` is not from a page of this site when `must` is set.
fn same_origin(headers: &HeaderMap, https: bool, must: bool) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return !must;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let (Some(origin), Some(host)) = (origin.to_str().ok(), host) else {
        return false;
    };
    let scheme = if https { "https" } else { "http" };
    let (Ok(theirs), Ok(ours)) = (
        Url::parse(origin),
        Url::parse(&format!("{scheme}://{host}")),
    ) else {
        return false;
    };
    // An origin is a scheme, a host and a port: nothing else may ride along.
    let bare = theirs.username().is_empty()
        && theirs.password().is_none()
        && theirs.path() == "/"
        && theirs.query().is_none()
        && theirs.fragment().is_none();
    let exact = ours.username().is_empty() && ours.path() == "/" && ours.query().is_none();
    bare && exact && theirs.origin().is_tuple() && theirs.origin() == ours.origin()
}

/// Refuses a sign-in sent from another site's page (login CSRF); a request without
/// `Origin` (not from a browser page) may sign in.
pub fn check_page_origin(hub: &Hub, headers: &HeaderMap) -> Result<(), ApiError> {
    if same_origin(headers, hub.accounts.secure_cookies(), false) {
        Ok(())
    } else {
        Err(foreign_origin())
    }
}

fn foreign_origin() -> ApiError {
    ApiError::forbidden(
        ErrorCode::ForeignOrigin,
        "a signed-in change must come from this site's own pages",
    )
}

/// The signed-in account of the request's live session cookie, or a guest (`None`).
/// A write it authenticates must come from this site: 403 `foreign_origin` for one
/// from another site.
pub struct MaybeSession(pub Option<SignedIn>);

impl<S> FromRequestParts<S> for MaybeSession
where
    Arc<Hub>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let hub = Arc::<Hub>::from_ref(state);
        let Some(cookie) = session_cookie(&parts.headers) else {
            return Ok(MaybeSession(None));
        };
        let signed = hub
            .accounts
            .session(cookie, device_cookie(&parts.headers))
            .await
            .map_err(IntoResponse::into_response)?;
        let writes = !matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        let https = hub.accounts.secure_cookies();
        if signed.is_some() && writes && !same_origin(&parts.headers, https, true) {
            return Err(foreign_origin().into_response());
        }
        Ok(MaybeSession(signed))
    }
}

/// The signed-in account of the request's session cookie: 401 `not_signed_in`
/// without a live one; 403 `foreign_origin` for a write from another site.
pub struct Session(pub SignedIn);

impl<S> FromRequestParts<S> for Session
where
    Arc<Hub>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let MaybeSession(signed) = MaybeSession::from_request_parts(parts, state).await?;
        signed.map(Session).ok_or_else(|| {
            ApiError::unauthorized(ErrorCode::NotSignedIn, "you are not signed in").into_response()
        })
    }
}

/// The account routes: signing up, in and out, the account itself.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(json_writes(routes!(sign_up)))
        .routes(json_writes(routes!(sign_in, sign_out)))
        .routes(json_writes(routes!(sign_out_everywhere)))
        .routes(json_writes(routes!(me, delete_account)))
        .routes(json_writes(routes!(change_password)))
        .routes(json_writes(routes!(reauth)))
        .routes(routes!(my_data))
}

/// A cookie of this site, as the session and device cookies are: `HttpOnly;
/// SameSite=Lax; Path=/`, kept `max_age` (0: removed), and `Secure` on an HTTPS site.
fn site_cookie(
    hub: &Hub,
    name: &'static str,
    value: String,
    max_age: std::time::Duration,
) -> Cookie<'static> {
    let seconds = i64::try_from(max_age.as_secs()).unwrap_or(i64::MAX);
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .max_age(cookie::time::Duration::seconds(seconds))
        .secure(hub.accounts.secure_cookies())
        .build()
}

/// The account with its new session cookie (and the browser's device cookie, long-lived).
pub fn signed_in(
    hub: &Hub,
    status: StatusCode,
    account: AccountView,
    session: &NewSession,
) -> Response {
    let cookies = CookieJar::new()
        .add(site_cookie(
            hub,
            COOKIE,
            session.cookie.clone(),
            session.max_age,
        ))
        .add(site_cookie(
            hub,
            DEVICE_COOKIE,
            session.device.clone(),
            session.device_max_age,
        ));
    (status, cookies, Json(account)).into_response()
}

/// 204 with the session cookie cleared.
fn signed_out(hub: &Hub) -> Response {
    let cleared = site_cookie(hub, COOKIE, String::new(), std::time::Duration::ZERO);
    (StatusCode::NO_CONTENT, CookieJar::new().add(cleared)).into_response()
}

/// Creates an account and signs it in.
#[utoipa::path(post, path = "/api/accounts", request_body = Credentials, responses(
    (status = 201, body = AccountView, description = "Signed up and in: the session cookie is set"),
    (status = 400, body = ErrorBody, description = "`bad_account_name`, `reserved_name`, `weak_password`, or a malformed body"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`: sent from another site"),
    (status = 409, body = ErrorBody, description = "`account_name_taken`: the name, or one that looks like it, is taken"),
    (status = 429, body = ErrorBody, description = "Too many sign-ins from this address, or too many at once"),
))]
pub async fn sign_up(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    check_page_origin(&hub, &headers)?;
    let (account, session) = hub
        .accounts
        .sign_up(
            &request.name,
            &request.password,
            from.ip(),
            device_cookie(&headers),
        )
        .await?;
    Ok(signed_in(&hub, StatusCode::CREATED, account, &session))
}

/// Signs in with a name and a password. An unknown name and a wrong password get the
/// same answer.
#[utoipa::path(post, path = "/api/session", request_body = Credentials, responses(
    (status = 200, body = AccountView, description = "Signed in: the session cookie is set"),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody, description = "`bad_credentials`: wrong name or password"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`: sent from another site"),
    (status = 429, body = ErrorBody, description = "`sign_in_locked`: too many tries for this name (Retry-After says how long), or too many from this address"),
))]
pub async fn sign_in(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    check_page_origin(&hub, &headers)?;
    let (account, session) = hub
        .accounts
        .sign_in(
            &request.name,
            &request.password,
            from.ip(),
            device_cookie(&headers),
        )
        .await?;
    Ok(signed_in(&hub, StatusCode::OK, account, &session))
}

/// Signs this session out.
#[utoipa::path(delete, path = "/api/session", responses(
    (status = 204, description = "Signed out: the cookie is cleared"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
))]
pub async fn sign_out(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Response, ApiError> {
    hub.accounts.sign_out(&signed).await?;
    Ok(signed_out(&hub))
}

/// Signs the account out on every device.
#[utoipa::path(delete, path = "/api/sessions", responses(
    (status = 204, description = "Every session of the account ended"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`foreign_origin`"),
))]
pub async fn sign_out_everywhere(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Response, ApiError> {
    hub.accounts.sign_out_everywhere(&signed).await?;
    Ok(signed_out(&hub))
}

/// The signed-in account.
#[utoipa::path(get, path = "/api/me", responses(
    (status = 200, body = AccountView),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn me(Session(signed): Session) -> Json<AccountView> {
    Json(AccountView {
        name: signed.account.name,
        created_ms: signed.account.created_ms,
    })
}

/// Proves the password again: adding or removing a passkey needs it proved within the
/// last minutes (signing in counts too).
#[utoipa::path(post, path = "/api/me/reauth", request_body = Reauth, responses(
    (status = 204, description = "Proved: passkeys may be added and removed for a few minutes"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`wrong_password`, or `foreign_origin`"),
    (status = 429, body = ErrorBody, description = "`sign_in_locked`, `too_many_sign_ins` (Retry-After)"),
))]
pub async fn reauth(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Session(signed): Session,
    JsonBody(request): JsonBody<Reauth>,
) -> Result<StatusCode, ApiError> {
    hub.accounts
        .reauth(&signed, &request.password, from.ip())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Changes the password; every other session of the account ends, and with
/// `remove_passkeys` every passkey.
#[utoipa::path(post, path = "/api/me/password", request_body = PasswordChange, responses(
    (status = 204, description = "Changed"),
    (status = 400, body = ErrorBody, description = "`weak_password`"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`wrong_password` (the current one), or `foreign_origin`"),
    (status = 429, body = ErrorBody),
))]
pub async fn change_password(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Session(signed): Session,
    JsonBody(request): JsonBody<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    hub.accounts
        .change_password(
            &signed,
            &request.current,
            &request.new,
            request.remove_passkeys.unwrap_or(false),
            from.ip(),
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes the account: its games stay, its name becomes "deleted player".
#[utoipa::path(delete, path = "/api/me", request_body = DeleteAccount, responses(
    (status = 204, description = "Deleted and signed out"),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
    (status = 403, body = ErrorBody, description = "`wrong_password`, or `foreign_origin`"),
    (status = 429, body = ErrorBody),
))]
pub async fn delete_account(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Session(signed): Session,
    JsonBody(request): JsonBody<DeleteAccount>,
) -> Result<Response, ApiError> {
    hub.accounts
        .delete(&signed, &request.password, from.ip())
        .await?;
    hub.account_deleted(&signed.account.id).await?;
    Ok(signed_out(&hub))
}

/// Everything stored about the account, as a JSON file to download.
#[utoipa::path(get, path = "/api/me/data", responses(
    (status = 200, body = AccountData),
    (status = 401, body = ErrorBody, description = "`not_signed_in`"),
))]
pub async fn my_data(
    State(hub): State<Arc<Hub>>,
    Session(signed): Session,
) -> Result<Response, ApiError> {
    let data = hub.accounts.export(&signed).await?;
    let file = format!("attachment; filename=\"rumi-{}.json\"", signed.account.id);
    let disposition = HeaderValue::from_str(&file).expect("an id of hex digits");
    Ok(([(header::CONTENT_DISPOSITION, disposition)], Json(data)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let h = headers(&[("cookie", "a=1; rumi_session=abc; b=2")]);
        assert_eq!(session_cookie(&h), Some("abc"));
        assert_eq!(
            session_cookie(&headers(&[("cookie", "rumi_sessionx=1")])),
            None
        );
    }

    #[test]
    fn only_this_sites_origin_passes() {
        let ours = headers(&[
            ("host", "rumi.example:8080"),
            ("origin", "https://rumi.example:8080"),
        ]);
        assert!(same_origin(&ours, true, true));
        let theirs = headers(&[
            ("host", "rumi.example:8080"),
            ("origin", "https://evil.example"),
        ]);
        assert!(!same_origin(&theirs, true, true));
        let none = headers(&[("host", "rumi.example:8080")]);
        assert!(!same_origin(&none, true, true));
        assert!(same_origin(&none, true, false));
        let null = headers(&[("host", "rumi.example"), ("origin", "null")]);
        assert!(!same_origin(&null, true, false));
    }

    /// Issue 56: the check compared the host only, so that `http://` passed on an
    /// HTTPS site.
    #[test]
    fn the_scheme_host_and_port_of_the_origin_count() {
        let on = |host: &str, origin: &str, https: bool| {
            same_origin(&headers(&[("host", host), ("origin", origin)]), https, true)
        };
        assert!(on("rumi.example", "https://rumi.example", true));
        assert!(on("rumi.example", "https://RUMI.example", true));
        assert!(on("rumi.example", "https://rumi.example:443", true));
        assert!(on("rumi.example:8080", "http://rumi.example:8080", false));
        for origin in [
            "http://rumi.example",
            "https://rumi.example:8443",
            "https://rumi.example.evil.example",
            "https://user@rumi.example",
            "https://rumi.example/path",
            "rumi.example",
            "https://",
        ] {
            assert!(!on("rumi.example", origin, true), "{origin}");
        }
        assert!(!on("rumi.example:8080", "https://rumi.example:8080", false));
    }
}
