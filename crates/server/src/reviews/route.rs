//! `GET /api/tables/{id}/review`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Reply, Reviews};
use crate::app::AppState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::wire::*;

/// The review's route.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(review))
}

/// A finished game's review: every turn against the best the engines find (see
/// docs/reviews.md). The first request starts it in the background; until it is
/// ready the answer is `pending` with its `progress` (ask again).
#[utoipa::path(get, path = "/api/tables/{id}/review",
    params(("id" = TableId, Path)),
    responses(
        (status = 200, body = ReviewAnswer, description = "Ready, or pending with its progress"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "`not_over`: still being played"),
        (status = 429, body = ErrorBody, description = "`too_many_reviews` from this address, or `reviews_busy`: too many reviews pending (Retry-After)"),
    ))]
pub async fn review(
    State(hub): State<Arc<Hub>>,
    State(reviews): State<Arc<Reviews>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let mut response = match reviews.review(&hub, &id, from.ip()).await? {
        Reply::Ready(document) => {
            let mut response = document.as_str().to_owned().into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Reply::Pending(answer) => Json(answer).into_response(),
    };
    // A pending review changes; a ready one is asked for again rarely.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
