//! The server's one source of the time of day. Everything that reads "now" as Unix
//! milliseconds (turn clocks, hand-overs, sessions, leases, the daily puzzle's date)
//! asks the [`Clock`] it was given, so that a test can start the server on any date
//! and move time on by hand instead of sleeping through it.
//!
//! Durations that are not about the time of day (a bot's pause, socket pings, rate
//! limiters) stay on tokio's timers, which tests control with paused time.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Unix milliseconds of a UTC date at noon (a test clock's start: far from midnight).
pub fn noon_utc(year: i32, month: u32, day: u32) -> i64 {
    days_from_civil(year, month, day) * 86_400_000 + 12 * 3_600_000
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The time of day as the server sees it: the system's, or a test's.
#[derive(Clone)]
pub struct Clock(Arc<Source>);

enum Source {
    System,
    /// A test's clock: stands still at `now` until [`Clock::advance`] moves it, and
    /// wakes every [`Clock::sleep_until`] whose moment has come.
    Manual {
        now: AtomicI64,
        moved: watch::Sender<i64>,
    },
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Source::System => f.write_str("Clock::System"),
            Source::Manual { now, .. } => {
                write!(f, "Clock::Manual({})", now.load(Ordering::SeqCst))
            }
        }
    }
}

impl Clock {
    /// The operating system's clock.
    pub fn system() -> Clock {
        Clock(Arc::new(Source::System))
    }

    /// A clock that stands at `start_ms` (Unix ms) until it is advanced.
    pub fn manual(start_ms: i64) -> Clock {
        Clock(Arc::new(Source::Manual {
            now: AtomicI64::new(start_ms),
            moved: watch::channel(start_ms).0,
        }))
    }

    /// Whether this is the operating system's clock.
    pub fn is_system(&self) -> bool {
        matches!(&*self.0, Source::System)
    }

    /// Now, in Unix milliseconds.
    pub fn now_ms(&self) -> i64 {
        match &*self.0 {
            Source::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64),
            Source::Manual { now, .. } => now.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock on by `by` and wakes the sleepers that are due.
    ///
    /// # Panics
    /// On the system clock: only a test's clock can be moved.
    pub fn advance(&self, by: Duration) {
        match &*self.0 {
            Source::System => panic!("the system clock cannot be advanced"),
            Source::Manual { now, moved } => {
                let at =
                    now.fetch_add(by.as_millis() as i64, Ordering::SeqCst) + by.as_millis() as i64;
                moved.send_replace(at);
            }
        }
    }

    /// Waits until the clock reads `deadline_ms` or later.
    pub async fn sleep_until(&self, deadline_ms: i64) {
        match &*self.0 {
            Source::System => loop {
                let left = deadline_ms - self.now_ms();
                if left <= 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(left as u64)).await;
            },
            Source::Manual { moved, .. } => {
                let mut moved = moved.subscribe();
                // `wait_for` sees the current value first: no advance is missed.
                let _ = moved.wait_for(|&now| now >= deadline_ms).await;
            }
        }
    }

    /// Waits `by` on this clock.
    pub async fn sleep(&self, by: Duration) {
        self.sleep_until(self.now_ms() + by.as_millis() as i64)
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noon_of_known_dates() {
        assert_eq!(noon_utc(1970, 1, 1), 12 * 3_600_000);
        // 2028-02-29 is a leap day: 2028-03-01 is one day later.
        assert_eq!(noon_utc(2028, 3, 1) - noon_utc(2028, 2, 29), 86_400_000);
        // `date -u -d 2026-12-07T12:00:00Z +%s` = 1796644800
        assert_eq!(noon_utc(2026, 12, 7), 1_796_644_800_000);
    }

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_only_when_their_time_comes() {
        let clock = Clock::manual(1_000);
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(1_500).await }
        });
        clock.advance(Duration::from_millis(499));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "woken 1 ms early");
        clock.advance(Duration::from_millis(1));
        sleeper.await.unwrap();
        assert_eq!(clock.now_ms(), 1_500);
        // A moment already past does not wait.
        clock.sleep_until(1_000).await;
    }
}
