//! Sign-in limits, per name (or per known browser of an account) and per address. One
//! node counts in memory; nodes that share a PostgreSQL database count in it, so that
//! a cluster of any size allows what one node does.

use std::time::Duration;

use crate::error::ApiError;
use crate::store::Store;
use crate::transport::{Rate, RateLimiter};

/// One limit: tries per key, on this node or in the shared database.
pub struct SignInLimit {
    /// What the keys are (`name`, `device`, `address`), kept apart in the database.
    what: &'static str,
    rate: Rate,
    local: RateLimiter<String>,
    shared: Option<Store>,
}

impl SignInLimit {
    /// A limit of `rate` per key, in `store` when several nodes may share it.
    pub fn new(what: &'static str, rate: Rate, store: &Store) -> SignInLimit {
        SignInLimit {
            what,
            rate,
            local: RateLimiter::new(rate),
            shared: store.is_shared().then(|| store.clone()),
        }
    }

    /// Takes one try of `key`: `None`, or how long until there is one.
    pub async fn take(&self, key: &str, now_ms: i64) -> Result<Option<Duration>, ApiError> {
        let Some(store) = &self.shared else {
            return Ok(self.local.check_key(key.to_string()).err());
        };
        let interval_ms = ((1000.0 / self.rate.per_second.max(1e-9)).round() as i64).max(1);
        let burst = self.rate.burst.max(1.0) as i64;
        let taken = store
            .take_shared_try(&format!("{}:{key}", self.what), now_ms, interval_ms, burst)
            .await?;
        Ok(taken
            .err()
            .map(|wait_ms| Duration::from_millis(wait_ms.max(1) as u64)))
    }
}
