//! Rate limits, on `governor` (GCRA, the token bucket's exact equivalent): per client
//! address (IPv6 per /64) for requests that cost the server something (creating
//! tables, hints, replays), per seat for hints, and per WebSocket for its messages.
//! Open connections are counted, not rated: see `connections`.
//!
//! The limiters read tokio's clock, so that tests with paused time drive them too.

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::RwLock;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::Quota;

/// A rate: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

impl Rate {
    fn quota(self) -> Quota {
        // One cell every period; at most a day, at least a nanosecond.
        let period = Duration::from_secs_f64((1.0 / self.per_second.max(1e-9)).min(86_400.0))
            .max(Duration::from_nanos(1));
        let burst = NonZeroU32::new(self.burst.clamp(1.0, f64::from(u32::MAX)) as u32)
            .unwrap_or(NonZeroU32::MIN);
        Quota::with_period(period)
            .expect("a period above zero")
            .allow_burst(burst)
    }
}

/// Tokio's clock (`tokio::time::Instant`): the real one, or a test's paused one.
#[derive(Clone, Copy, Debug, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    type Instant = std::time::Instant;

    fn now(&self) -> Self::Instant {
        tokio::time::Instant::now().into_std()
    }
}

type Direct =
    governor::RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<std::time::Instant>>;
type Keyed<K> = governor::RateLimiter<
    K,
    DefaultKeyedStateStore<K>,
    TokioClock,
    NoOpMiddleware<std::time::Instant>,
>;

/// One rate for one thing (a WebSocket's messages).
pub struct DirectLimiter(Direct);

impl DirectLimiter {
    /// A limiter that allows `rate.burst` at once.
    pub fn new(rate: Rate) -> DirectLimiter {
        DirectLimiter(governor::RateLimiter::direct_with_clock(
            rate.quota(),
            TokioClock,
        ))
    }

    /// Takes one, or says how long until there is one.
    pub fn take(&self) -> Result<(), Duration> {
        self.0
            .check()
            .map_err(|not_until| not_until.wait_time_from(TokioClock.now()))
    }
}

/// Checks between two sweeps of the keys that are back to a full burst.
const SWEEP_EVERY: usize = 4096;

/// A rate per key: per client address by default, or per seat. Memory is bounded:
/// keys back to a full burst are forgotten now and then (governor's `retain_recent`),
/// and past `max_keys` at once, all the rest are forgotten too (they start again with a
/// full burst, as a new client does).
pub struct RateLimiter<K: Hash + Eq + Clone = IpAddr> {
    quota: Quota,
    max_keys: usize,
    keys: RwLock<Keyed<K>>,
    checks: AtomicUsize,
}

impl RateLimiter<IpAddr> {
    /// Takes one of `ip`'s, or says how long until there is one.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        self.check_key(client_key(ip))
    }
}

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(rate: Rate) -> RateLimiter<K> {
        RateLimiter::with_capacity(rate, 100_000)
    }

    pub fn with_capacity(rate: Rate, max_keys: usize) -> RateLimiter<K> {
        let quota = rate.quota();
        RateLimiter {
            quota,
            max_keys: max_keys.max(2),
            keys: RwLock::new(Self::empty(quota)),
            checks: AtomicUsize::new(0),
        }
    }

    /// A limiter of `per_minute` with a minute's worth at once; `None` for 0 (no cap).
    pub fn per_minute(per_minute: u32) -> Option<RateLimiter<K>> {
        let per_minute = f64::from(per_minute);
        (per_minute > 0.0).then(|| {
            RateLimiter::new(Rate {
                per_second: per_minute / 60.0,
                burst: per_minute,
            })
        })
    }

    fn empty(quota: Quota) -> Keyed<K> {
        governor::RateLimiter::new(quota, DefaultKeyedStateStore::default(), TokioClock)
    }

    /// Takes one of `key`'s, or says how long until there is one.
    pub fn check_key(&self, key: K) -> Result<(), Duration> {
        let (taken, full) = {
            let keys = self.keys.read().unwrap_or_else(|e| e.into_inner());
            let taken = keys
                .check_key(&key)
                .map_err(|not_until| not_until.wait_time_from(TokioClock.now()));
            if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
                keys.retain_recent();
            }
            (taken, keys.len() > self.max_keys)
        };
        if full {
            self.make_room(&key);
        }
        taken
    }

    /// Past `max_keys`: forgets the keys back to a full burst, then, if that is not
    /// enough, all of them but `key` (the one just checked, which stays counted).
    fn make_room(&self, key: &K) {
        let mut keys = self.keys.write().unwrap_or_else(|e| e.into_inner());
        keys.retain_recent();
        if keys.len() > self.max_keys / 2 {
            tracing::warn!(
                "{} clients at once in a rate limiter: forgetting them",
                keys.len()
            );
            *keys = Self::empty(self.quota);
            let _ = keys.check_key(key);
        }
        keys.shrink_to_fit();
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.keys.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The address a client is counted by: IPv4 as is, IPv6 by its /64.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The network a client is counted in as well: an IPv4 /24, an IPv6 /48.
pub fn network_key(ip: IpAddr) -> IpAddr {
    match client_key(ip) {
        IpAddr::V4(v4) => IpAddr::V4((u32::from(v4) & 0xffff_ff00).into()),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_limiter_allows_its_burst_then_its_rate() {
        let rate = Rate {
            per_second: 10.0,
            burst: 3.0,
        };
        let limiter = RateLimiter::new(rate);
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(ip).is_ok());
        }
        let wait = limiter.check(ip).unwrap_err();
        assert!(wait <= Duration::from_millis(100), "{wait:?}");
        // Another address has its own; an IPv6 /64 shares one.
        assert!(limiter.check("203.0.113.8".parse().unwrap()).is_ok());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(a).is_ok());
        }
        assert!(limiter.check(b).is_err());
        tokio::time::advance(Duration::from_millis(120)).await;
        assert!(limiter.check(ip).is_ok());
    }

    #[test]
    fn the_limiter_forgets_clients_past_its_capacity() {
        let rate = Rate {
            per_second: 0.001,
            burst: 1.0,
        };
        let limiter = RateLimiter::with_capacity(rate, 100);
        for i in 0..10_000u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            assert!(limiter.check(ip).is_ok());
            assert!(limiter.len() <= 100);
        }
        // The most recent client is remembered: it has none left.
        let last = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + 9_999));
        assert!(limiter.check(last).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_socket_limiter_refuses_past_its_burst_until_time_passes() {
        let limiter = DirectLimiter::new(Rate {
            per_second: 20.0,
            burst: 40.0,
        });
        for _ in 0..40 {
            assert!(limiter.take().is_ok());
        }
        let wait = limiter.take().unwrap_err();
        assert!(wait <= Duration::from_millis(50), "{wait:?}");
        tokio::time::advance(Duration::from_millis(50)).await;
        assert!(limiter.take().is_ok());
        assert!(limiter.take().is_err());
    }

    #[test]
    fn networks_are_ipv4_slash_24_and_ipv6_slash_48() {
        let key = |ip: &str| network_key(ip.parse().unwrap());
        assert_eq!(key("192.0.2.77"), key("192.0.2.1"));
        assert_ne!(key("192.0.2.77"), key("192.0.3.77"));
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:ffff::9"));
        assert_ne!(key("2001:db8:1::1"), key("2001:db8:2::1"));
        assert_eq!(key("::ffff:192.0.2.9"), key("192.0.2.1"));
    }

    #[test]
    fn an_ipv4_mapped_address_counts_as_ipv4() {
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
