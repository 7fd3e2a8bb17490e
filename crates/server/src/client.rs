//! The browser client (`web/dist`): built into the binary, or read from a directory
//! during development. Vite's hashed `/assets/*` are cached for good, pages revalidated
//! on every load so that a new build shows at once; text goes out compressed, as the
//! `.br` / `.gz` files the web build writes beside each file.

use std::path::PathBuf;

use axum::body::Body;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, Response, StatusCode, Uri};
use axum::response::{Html, IntoResponse};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// Cache-Control of Vite's content-hashed files: a changed file gets a new name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Looks a file of the built client up by its path in `web/dist` (`assets/x.js`): the
/// `get` of a `rust_embed::RustEmbed` type.
pub type EmbeddedFiles = fn(&str) -> Option<rust_embed::EmbeddedFile>;

/// Where the browser client comes from.
#[derive(Clone, Debug, Default)]
pub enum Client {
    /// Compiled into the binary: it serves the same client wherever it runs.
    Embedded(EmbeddedFiles),
    /// A built client read on every request (development: a new build shows at once).
    Dir(PathBuf),
    /// None: a page that says how to build one.
    #[default]
    None,
}

/// The routes of the client: `/assets/*`, the files at the root, and `index.html` for
/// every other path (the client routes itself). Without a client, a page that says how
/// to build one.
pub fn router(client: Client) -> Router {
    match client {
        Client::Embedded(files) => embedded(files),
        Client::Dir(dir) if dir.join("index.html").is_file() => directory(dir),
        Client::Dir(_) | Client::None => Router::new()
            .fallback(|| async {
                Html("<h1>rumi</h1><p>The browser client is not built. Run <code>npm ci &amp;&amp; npm run build</code> in <code>web/</code> and restart <code>rumi serve</code>. The API is at <a href=\"/api/openapi.json\">/api/openapi.json</a>.</p>")
            })
            .layer(no_cache_unless_set()),
    }
}

fn directory(dir: PathBuf) -> Router {
    let index = ServeFile::new(dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    // A missing asset is a 404, never the page: a page must not be cached as a script.
    let assets = ServeDir::new(dir.join("assets"))
        .precompressed_br()
        .precompressed_gzip();
    let immutable =
        SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, |response: &Response<Body>| {
            response
                .status()
                .is_success()
                .then(|| HeaderValue::from_static(IMMUTABLE))
        });
    let files = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    Router::new()
        .nest_service("/assets", assets)
        .layer(immutable)
        .fallback_service(files)
        .layer(axum::middleware::from_fn(no_overlong_names))
        .layer(no_cache_unless_set())
        // Files without a compressed copy beside them.
        .layer(CompressionLayer::new())
}

fn embedded(files: EmbeddedFiles) -> Router {
    Router::new()
        .fallback(
            move |method: Method, uri: Uri, headers: HeaderMap| async move {
                embedded_file(files, &method, uri.path(), &headers)
            },
        )
        .layer(axum::middleware::from_fn(no_overlong_names))
        .layer(no_cache_unless_set())
}

/// The compressed copies the web build writes beside a file, best first.
const ENCODINGS: [(&str, &str); 2] = [("br", "br"), ("gzip", "gz")];

/// One file of the embedded client, as `ServeDir` would send it from a directory, with
/// an ETag that a revalidating browser gets a 304 for.
fn embedded_file(
    files: EmbeddedFiles,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> axum::response::Response {
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }
    let name = match path.trim_start_matches('/') {
        "" => "index.html",
        name => name,
    };
    let asset = name.starts_with("assets/");
    let (name, raw) = match files(name) {
        Some(raw) => (name, raw),
        // A missing asset is a 404, never the page: a page must not be cached as a script.
        None if asset => return StatusCode::NOT_FOUND.into_response(),
        None => match files("index.html") {
            Some(page) => ("index.html", page),
            None => return StatusCode::NOT_FOUND.into_response(),
        },
    };
    let content_type = raw.metadata.mimetype().to_string();
    // The copy the browser weighs highest (brotli on a tie), else the file itself.
    let mut compressed = false;
    let mut best: Option<(&'static str, rust_embed::EmbeddedFile, f32)> = None;
    for (coding, extension) in ENCODINGS {
        let Some(file) = files(&format!("{name}.{extension}")) else {
            continue;
        };
        compressed = true;
        let q = accepts(headers, coding);
        if q > 0.0 && best.as_ref().is_none_or(|(_, _, best_q)| q > *best_q) {
            best = Some((coding, file, q));
        }
    }
    let (encoding, file) = match best {
        Some((coding, file, _)) => (Some(coding), file),
        None => (None, raw),
    };
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
    let mut response = if matches_etag(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Body::from(file.data).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
        );
        if let Some(coding) = encoding {
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        response
    };
    let headers = response.headers_mut();
    headers.insert(
        header::ETAG,
        HeaderValue::from_str(&etag).expect("a hex ETag is a header value"),
    );
    if compressed {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if asset {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    }
    response
}

/// The weight (`q`) `Accept-Encoding` gives `coding`, or `*`; 0 when neither is named.
fn accepts(headers: &HeaderMap, coding: &str) -> f32 {
    let mut any = 0.0;
    for item in headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            return q;
        }
        if name == "*" {
            any = q;
        }
    }
    any
}

/// Whether `If-None-Match` names this ETag (or `*`).
fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim())
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        headers
    }

    #[test]
    fn accept_encoding_weights() {
        let h = accept("gzip, deflate, br;q=0.5");
        assert_eq!(accepts(&h, "gzip"), 1.0);
        assert_eq!(accepts(&h, "br"), 0.5);
        assert_eq!(accepts(&accept("identity"), "br"), 0.0);
        assert_eq!(accepts(&accept("*;q=0.3, gzip;q=0"), "br"), 0.3);
        assert_eq!(accepts(&accept("*;q=0.3, gzip;q=0"), "gzip"), 0.0);
        assert_eq!(accepts(&HeaderMap::new(), "gzip"), 0.0);
    }

    #[test]
    fn if_none_match_lists() {
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"a\", W/\"b\""),
        );
        assert!(matches_etag(&h, "\"a\""));
        assert!(matches_etag(&h, "\"b\""));
        assert!(!matches_etag(&h, "\"c\""));
    }
}
