//! The server's in-memory caches (hints, replays, reviews): bounded by what they hold
//! (bytes, or entries), and joining a computation already under way for the same key
//! instead of starting another. The eviction and the joining are `quick_cache`'s.

use std::future::Future;
use std::hash::Hash;

use quick_cache::sync::{Cache as QuickCache, DefaultLifecycle};
use quick_cache::{DefaultHashBuilder, Equivalent, OptionsBuilder, Weighter};

/// A cache of values `V` under keys `K`, bounded by the sum of the values' weights.
pub struct Cache<K, V> {
    inner: QuickCache<K, V, Weigh<V>>,
}

/// What a value weighs against the cache's bound (at least 1).
struct Weigh<V>(fn(&V) -> usize);

impl<V> Clone for Weigh<V> {
    fn clone(&self) -> Self {
        Weigh(self.0)
    }
}

impl<K, V> Weighter<K, V> for Weigh<V> {
    fn weight(&self, _key: &K, value: &V) -> u64 {
        (self.0)(value).max(1) as u64
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Cache<K, V> {
    /// Keeps values whose weights (`weigh`, in bytes) add up to at most `bytes`.
    pub fn by_bytes(bytes: usize, weigh: fn(&V) -> usize) -> Cache<K, V> {
        Cache::with(bytes, (bytes / (64 << 10)).max(1), weigh)
    }

    /// Keeps at most `entries` values.
    pub fn by_entries(entries: usize) -> Cache<K, V> {
        Cache::with(entries, entries, |_| 1)
    }

    fn with(capacity: usize, estimated_entries: usize, weigh: fn(&V) -> usize) -> Cache<K, V> {
        let options = OptionsBuilder::new()
            // One shard: a value may take (almost) the whole bound, not a shard's part.
            .shards(1)
            .estimated_items_capacity(estimated_entries)
            .weight_capacity(capacity as u64)
            .build()
            .expect("valid cache options");
        Cache {
            inner: QuickCache::with_options(
                options,
                Weigh(weigh),
                DefaultHashBuilder::default(),
                DefaultLifecycle::default(),
            ),
        }
    }

    pub fn get<Q: Hash + Equivalent<K> + ?Sized>(&self, key: &Q) -> Option<V> {
        self.inner.get(key)
    }

    /// Keeps `value` (a value heavier than the whole bound is not kept).
    pub fn insert(&self, key: K, value: V) {
        self.inner.insert(key, value);
    }

    pub fn remove<Q: Hash + Equivalent<K> + ?Sized>(&self, key: &Q) {
        self.inner.remove(key);
    }

    /// The weight of the values kept now (bytes, for a cache bounded by bytes).
    pub fn weight(&self) -> usize {
        self.inner.weight() as usize
    }

    /// The value under `key`: kept, or computed by `compute` and kept. A request that
    /// arrives while another computes it waits for that one (if that one fails or gives
    /// up, the next waiter computes it); an error is not kept. The flag says whether
    /// this call computed it.
    pub async fn get_or_compute<E>(
        &self,
        key: &K,
        compute: impl Future<Output = Result<V, E>>,
    ) -> Result<(V, bool), E> {
        match self.inner.get_value_or_guard_async(key).await {
            Ok(value) => Ok((value, false)),
            Err(guard) => {
                let value = compute.await?;
                let _ = guard.insert(value.clone());
                Ok((value, true))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_cache_by_bytes_keeps_no_more_than_its_bound() {
        let cache: Cache<u32, Arc<Vec<u8>>> = Cache::by_bytes(1000, |v| v.len());
        for key in 0..20 {
            cache.insert(key, Arc::new(vec![0; 100]));
        }
        assert!(cache.weight() <= 1000, "{} bytes kept", cache.weight());
        assert!(cache.get(&19).is_some(), "the newest is kept");
        cache.remove(&19);
        assert!(cache.get(&19).is_none());
        // One value may take nearly the whole bound; one heavier than it is not kept.
        cache.insert(100, Arc::new(vec![0; 900]));
        assert!(cache.get(&100).is_some());
        cache.insert(101, Arc::new(vec![0; 1001]));
        assert!(cache.get(&101).is_none());
    }

    #[tokio::test]
    async fn a_failed_computation_is_not_kept_and_a_later_one_is() {
        let cache: Cache<u32, u32> = Cache::by_entries(4);
        let failed = cache.get_or_compute(&1, async { Err("busy") }).await;
        assert_eq!(failed, Err("busy"));
        assert_eq!(cache.get(&1), None);
        assert_eq!(
            cache.get_or_compute(&1, async { Ok::<_, ()>(7) }).await,
            Ok((7, true))
        );
        assert_eq!(
            cache.get_or_compute(&1, async { Ok::<_, ()>(8) }).await,
            Ok((7, false))
        );
        // A cache of no bytes (`--replay-cache-mib 0`) keeps nothing, and still answers.
        let none: Cache<u32, Vec<u8>> = Cache::by_bytes(0, Vec::len);
        let answer = none
            .get_or_compute(&1, async { Ok::<_, ()>(vec![1]) })
            .await;
        assert_eq!(answer, Ok((vec![1], true)));
        assert_eq!((none.get(&1), none.weight()), (None, 0));
    }
}
