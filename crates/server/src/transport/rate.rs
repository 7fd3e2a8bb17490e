//! Token buckets: per-client rates for requests that cost the server something.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A token bucket's rate: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

/// A token bucket: each event takes a token; tokens come back at the rate's pace.
#[derive(Clone, Copy, Debug)]
pub struct TokenBucket {
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: Rate) -> TokenBucket {
        TokenBucket {
            tokens: rate.burst,
            last: Instant::now(),
        }
    }

    fn refill(&mut self, rate: Rate, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.last = now;
    }

    /// Takes a token, or says how long until there is one.
    pub fn take(&mut self, rate: Rate) -> Result<(), Duration> {
        self.refill(rate, Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - self.tokens) / rate.per_second.max(f64::MIN_POSITIVE);
            Err(Duration::from_secs_f64(wait.min(86_400.0)))
        }
    }

    /// Whether the bucket would be full by `now`: forgetting it changes nothing.
    fn is_full(&self, rate: Rate, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= rate.burst
    }
}

/// A token bucket per key: per client address (IPv6 per /64) by default, for
/// requests that cost the server something (creating tables, hints, replays), or per
/// seat. Memory is bounded: full buckets are forgotten, and past `max_clients` the
/// least recently seen half goes.
pub struct RateLimiter<K = IpAddr> {
    rate: Rate,
    max_clients: usize,
    buckets: Mutex<HashMap<K, TokenBucket>>,
}

impl RateLimiter<IpAddr> {
    /// Takes a token of `ip`'s bucket, or says how long until there is one.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        self.check_key(client_key(ip))
    }
}

impl<K: std::hash::Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(rate: Rate) -> RateLimiter<K> {
        RateLimiter::with_capacity(rate, 100_000)
    }

    pub fn with_capacity(rate: Rate, max_clients: usize) -> RateLimiter<K> {
        RateLimiter {
            rate,
            max_clients: max_clients.max(2),
            buckets: Mutex::new(HashMap::new()),
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

    /// Takes a token of `key`'s bucket, or says how long until there is one.
    pub fn check_key(&self, key: K) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= self.max_clients && !buckets.contains_key(&key) {
            self.prune(&mut buckets);
        }
        buckets
            .entry(key)
            .or_insert_with(|| TokenBucket::new(self.rate))
            .take(self.rate)
    }

    /// How many keys are remembered.
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn prune(&self, buckets: &mut HashMap<K, TokenBucket>) {
        let now = Instant::now();
        buckets.retain(|_, b| !b.is_full(self.rate, now));
        if buckets.len() >= self.max_clients / 2 {
            // Many clients at once: keep the most recently seen half.
            let mut seen: Vec<Instant> = buckets.values().map(|b| b.last).collect();
            let middle = seen.len() - self.max_clients / 2;
            let (_, cut, _) = seen.select_nth_unstable(middle);
            let cut = *cut;
            buckets.retain(|_, b| b.last > cut);
        }
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

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
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
        // Another address has its own bucket; an IPv6 /64 shares one.
        assert!(limiter.check("203.0.113.8".parse().unwrap()).is_ok());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(a).is_ok());
        }
        assert!(limiter.check(b).is_err());
        std::thread::sleep(Duration::from_millis(120));
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
        // The most recent client is remembered: its bucket is empty.
        let last = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + 9_999));
        assert!(limiter.check(last).is_err());
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
