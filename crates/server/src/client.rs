//! The built browser client (`web/dist`): compressed, Vite's hashed `/assets/*` cached
//! for good, pages revalidated on every load so that a new build shows at once.

use std::path::PathBuf;

use axum::body::Body;
use axum::http::header::{self, HeaderValue};
use axum::http::Response;
use axum::response::Html;
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// Cache-Control of Vite's content-hashed files: a changed file gets a new name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The routes of the client: `/assets/*`, the files at the root, and `index.html` for
/// every other path (the client routes itself). Without a build, a page that says how
/// to make one.
pub fn router(web_dir: Option<PathBuf>) -> Router {
    let Some(dir) = web_dir.filter(|d| d.join("index.html").is_file()) else {
        return Router::new()
            .fallback(|| async {
                Html("<h1>rumi</h1><p>The browser client is not built. Run <code>npm ci &amp;&amp; npm run build</code> in <code>web/</code> and restart <code>rumi serve</code>. The API is at <a href=\"/api/openapi.json\">/api/openapi.json</a>.</p>")
            })
            .layer(no_cache_unless_set());
    };
    let index = dir.join("index.html");
    // A missing asset is a 404, never the page: a page must not be cached as a script.
    let assets = ServeDir::new(dir.join("assets"));
    let immutable =
        SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, |response: &Response<Body>| {
            response
                .status()
                .is_success()
                .then(|| HeaderValue::from_static(IMMUTABLE))
        });
    Router::new()
        .nest_service("/assets", assets)
        .layer(immutable)
        .fallback_service(ServeDir::new(dir).fallback(ServeFile::new(index)))
        .layer(axum::middleware::from_fn(no_overlong_names))
        .layer(no_cache_unless_set())
        .layer(CompressionLayer::new())
}

/// The longest file name file systems take (`NAME_MAX`).
const MAX_FILE_NAME: usize = 255;

/// A path with a segment longer than any file name names no file: 404 at once, where
/// the file system's refusal (`ENAMETOOLONG`) would be a 500 and an error in the log.
async fn no_overlong_names(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    // A `%XX` escape is one byte of the name.
    let overlong = request.uri().path().split('/').any(|segment| {
        segment
            .len()
            .saturating_sub(2 * segment.matches('%').count())
            > MAX_FILE_NAME
    });
    if overlong {
        return crate::transport::json_error(
            axum::http::StatusCode::NOT_FOUND,
            crate::wire::ErrorCode::NotFound,
            "there is no such file",
        );
    }
    next.run(request).await
}

/// `no-cache` on what has no Cache-Control yet (the pages, not the assets).
fn no_cache_unless_set() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache"),
    )
}
