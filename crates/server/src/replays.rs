//! Replays of finished games (`GET /api/tables/{id}/replay`). A long game's replay
//! is megabytes of JSON (a view per step) and takes a core a while to build, so it is
//! built once, off the async runtime (on the thinking pool, below people's bots),
//! compressed once (gzip and brotli) and kept in a cache bounded by bytes. Requests
//! are served from the cache by `Accept-Encoding`, with a strong `ETag` per encoding
//! (`If-None-Match` answers 304), and rate-limited per client address. Concurrent
//! requests for a replay not yet built wait for the one build.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::StatusCode;
use axum::response::Response;
use sha2::{Digest, Sha256};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::cache::Cache;
use crate::error::ApiError;
use crate::events::{Events, Heard, TableEvent};
use crate::hub::{valid_table_id, Hub};
use crate::metrics::Metrics;
use crate::store::StoredTable;
use crate::thinking::{Priority, Thinking};
use crate::transport::RateLimiter;
use crate::wire::{ErrorBody, ErrorCode, ReplayAnswer, TableId};

/// A built replay in every encoding it is served in.
pub struct Replay {
    /// Hex digest of the JSON: the ETags are this, with the encoding.
    digest: String,
    json: Bytes,
    gzip: Bytes,
    brotli: Bytes,
}

impl Replay {
    /// Serialises and compresses a replay document (CPU work: call off the runtime).
    pub fn encode(answer: &ReplayAnswer) -> anyhow::Result<Replay> {
        let json = serde_json::to_vec(answer)?;
        let digest = hex::encode(&Sha256::digest(&json)[..16]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&json)?;
        let gzip = gz.finish()?;
        let mut brotli = Vec::new();
        {
            // Quality 5: most of brotli's gain for a fraction of its top level's time.
            let mut writer = brotli::CompressorWriter::new(&mut brotli, 64 * 1024, 5, 22);
            writer.write_all(&json)?;
        }
        Ok(Replay {
            digest,
            json: json.into(),
            gzip: gzip.into(),
            brotli: brotli.into(),
        })
    }

    fn bytes(&self) -> usize {
        self.json.len() + self.gzip.len() + self.brotli.len()
    }

    /// The answer to a request with these headers: the best encoding it accepts, or
    /// 304 when it already has that version.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let accepted = |name: &str| accepts(request, name);
        let (encoding, body, suffix) = if accepted("br") {
            (Some("br"), &self.brotli, "-br")
        } else if accepted("gzip") {
            (Some("gzip"), &self.gzip, "-gzip")
        } else {
            (None, &self.json, "")
        };
        let etag = format!("\"{}{suffix}\"", self.digest);
        let unchanged = request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|tag| tag.trim().trim_start_matches("W/"))
            .any(|tag| tag == "*" || self.is_ours(tag));
        let mut response = if unchanged {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response
        } else {
            let mut response = Response::new(Body::from(body.clone()));
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            if let Some(encoding) = encoding {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            response
        };
        let headers = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&etag) {
            headers.insert(header::ETAG, value);
        }
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        // A finished game does not change: clients may keep it, and ask again with
        // its ETag.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }

    /// One of this replay's ETags (any encoding: they name the same document).
    fn is_ours(&self, tag: &str) -> bool {
        let Some(inner) = tag.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
            return false;
        };
        let rest = inner.strip_prefix(self.digest.as_str());
        matches!(rest, Some("" | "-br" | "-gzip"))
    }
}

/// Whether `Accept-Encoding` takes `name` (listed, or `*`, without `q=0`).
fn accepts(request: &HeaderMap, name: &str) -> bool {
    let mut star = false;
    for item in request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if coding == name {
            return q > 0.0;
        }
        star |= coding == "*" && q > 0.0;
    }
    star
}

/// How replays are limited and kept.
#[derive(Clone, Debug)]
pub struct ReplayLimits {
    /// Replay requests one client address may make per minute (0: no cap).
    pub per_minute_per_address: u32,
    /// Bytes of built replays kept (all encodings counted).
    pub cache_bytes: usize,
}

impl Default for ReplayLimits {
    fn default() -> Self {
        ReplayLimits {
            per_minute_per_address: 30,
            cache_bytes: 64 << 20,
        }
    }
}

pub struct Replays {
    limits: ReplayLimits,
    per_address: Option<RateLimiter>,
    /// Built replays by table id, bounded by their bytes (all encodings counted).
    cache: Cache<String, Arc<Replay>>,
}

impl Replays {
    /// Forgets a kept replay when the names at its table change (`NamesChanged`, from
    /// any node: each keeps its own).
    pub fn subscribe(self: &Arc<Self>, events: &Events) {
        let replays = Arc::downgrade(self);
        events.subscribe("replays", Heard::Everywhere, move |published| {
            if let (Some(replays), TableEvent::NamesChanged { table }) =
                (replays.upgrade(), &published.event)
            {
                replays.forget(table);
            }
            async {}
        });
    }

    /// A finished game's replay, built once and kept.
    pub async fn replay(&self, hub: &Hub, id: &str, from: IpAddr) -> Result<Arc<Replay>, ApiError> {
        self.admit(from)?;
        let unknown = || ApiError::not_found(ErrorCode::NoTable, "there is no such table");
        if !valid_table_id(id) {
            return Err(unknown());
        }
        if let Some(replay) = self.cached(id) {
            hub.metrics().replays_cached.inc();
            return Ok(replay);
        }
        let stored = hub.store.load(id).await?.ok_or_else(unknown)?;
        if stored.cancelled_ms.is_some() {
            return Err(ApiError::conflict(
                ErrorCode::TableCancelled,
                "this rated table was cancelled before its game began: there is nothing to replay",
            ));
        }
        if !stored.finished {
            return Err(ApiError::conflict(
                ErrorCode::NotOver,
                "the game is still being played; its replay opens when it is over",
            ));
        }
        self.build(hub.thinking(), hub.metrics(), stored).await
    }

    pub fn new(limits: ReplayLimits) -> Replays {
        Replays {
            per_address: RateLimiter::per_minute(limits.per_minute_per_address),
            cache: Cache::by_bytes(limits.cache_bytes, |replay: &Arc<Replay>| replay.bytes()),
            limits,
        }
    }

    /// Takes a request of `from` against its rate.
    pub fn admit(&self, from: IpAddr) -> Result<(), ApiError> {
        match self.per_address.as_ref().map(|l| l.check(from)) {
            Some(Err(wait)) => Err(ApiError::too_many_for(
                ErrorCode::TooManyReplays,
                format!(
                    "your address may ask for {} replays a minute; wait a moment",
                    self.limits.per_minute_per_address
                ),
                wait,
            )),
            _ => Ok(()),
        }
    }

    /// Bytes of replays kept now.
    pub fn cached_bytes(&self) -> usize {
        self.cache.weight()
    }

    /// A built replay, if it is kept.
    pub fn cached(&self, id: &str) -> Option<Arc<Replay>> {
        self.cache.get(id)
    }

    /// Forgets a kept replay (its table changed: a seat was renamed).
    pub fn forget(&self, id: &str) {
        self.cache.remove(id);
    }

    /// The replay of a finished table: built from `stored` on the thinking pool (once,
    /// also for requests that arrive meanwhile, and for one that loaded the table while
    /// another built it), then kept.
    pub async fn build(
        &self,
        thinking: &Thinking,
        metrics: &Metrics,
        stored: StoredTable,
    ) -> Result<Arc<Replay>, ApiError> {
        let id = stored.id.clone();
        let build = async move {
            let id = stored.id.clone();
            let built = thinking
                .run(Priority::Hint, move || {
                    let answer = crate::hub::replay_document(&stored)?;
                    Replay::encode(&answer)
                })
                .await?;
            let replay = built.map_err(|e| {
                tracing::error!("the replay of {id} cannot be built: {e:#}");
                ApiError::internal("the replay cannot be built")
            })?;
            metrics.replays_built.inc();
            Ok::<_, ApiError>(Arc::new(replay))
        };
        let (replay, _) = self.cache.get_or_compute(&id, build).await?;
        metrics.replay_cache_bytes.set(self.cache.weight() as i64);
        Ok(replay)
    }
}

/// The replay's route.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(replay))
}

/// A finished game: every step, the record, and the revealed seed and salt. Built
/// once and kept; served gzip or brotli by `Accept-Encoding`, with an `ETag`
/// (`If-None-Match` answers 304); limited per address.
#[utoipa::path(get, path = "/api/tables/{id}/replay",
    params(("id" = TableId, Path)),
    responses(
        (status = 200, body = ReplayAnswer),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Still being played"),
        (status = 429, body = ErrorBody, description = "Too many replays from this address (Retry-After)"),
    ))]
pub async fn replay(
    State(hub): State<Arc<Hub>>,
    State(replays): State<Arc<Replays>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    Ok(replays
        .replay(&hub, &id, from.ip())
        .await?
        .respond(&headers))
}
