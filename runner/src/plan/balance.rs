//! `--shard i/n` by recorded durations: every CI job of a matrix computes the same partition of
//! the selected scenarios into `n` shards of equal expected time, and runs its own.
//!
//! Why not the hash alone: a hash spreads scenarios evenly by count, not by time, so one slow
//! scenario (a sign-up flow among quick page checks) makes its shard the one every other job
//! waits for. With recorded durations ([`Durations`], from the output folder's history or a
//! `--durations FILE` the CI restores from its cache), the scenarios are placed longest first,
//! each on the shard with the least expected time so far (ties: the lowest shard) — the classic
//! longest-processing-time rule, whose longest shard is at most the mean plus one scenario.
//! A scenario without a recorded duration keeps its hash shard (as without durations) and counts
//! there with the mean recorded duration, so new scenarios do not move old ones around.
//!
//! The partition is a pure function of the selected ids and the durations, independent of their
//! order: every job that selects the same scenarios and reads the same durations agrees.

use super::fnv1a64;
use std::collections::BTreeMap;

/// Recorded scenario durations by full id (`suite/scenario`), in milliseconds.
pub type DurationMap = BTreeMap<String, u64>;

/// The shard (0-based, below `count`) of each of `ids`, in the order given.
pub fn partition(ids: &[String], count: u32, durations: &DurationMap) -> Vec<u32> {
    let count = count.max(1);
    let by_hash = |id: &str| (fnv1a64(id.as_bytes()) % u64::from(count)) as u32;
    let known: Vec<(&String, u64)> = ids
        .iter()
        .filter_map(|id| durations.get(id).map(|ms| (id, *ms)))
        .collect();
    let estimate = if known.is_empty() {
        0
    } else {
        known.iter().map(|(_, ms)| *ms).sum::<u64>() / known.len() as u64
    };
    let mut load = vec![0u64; count as usize];
    let mut shard_of: BTreeMap<&str, u32> = BTreeMap::new();
    for id in ids.iter().filter(|id| !durations.contains_key(*id)) {
        let shard = by_hash(id);
        load[shard as usize] += estimate;
        shard_of.insert(id, shard);
    }
    let mut known = known;
    known.sort_by(|(a, da), (b, db)| db.cmp(da).then_with(|| a.cmp(b)));
    known.dedup_by(|(a, _), (b, _)| a == b);
    for (id, ms) in known {
        let (shard, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(i, l)| (**l, *i))
            .expect("at least one shard");
        load[shard] += ms;
        shard_of.insert(id, shard as u32);
    }
    ids.iter().map(|id| shard_of[id.as_str()]).collect()
}

/// The expected time of each shard (ms) under `partition`: recorded durations, and the mean for
/// scenarios without one — what `--list --shard` reports.
pub fn expected_loads(
    ids: &[String],
    shards: &[u32],
    count: u32,
    durations: &DurationMap,
) -> Vec<u64> {
    let known: Vec<u64> = ids
        .iter()
        .filter_map(|id| durations.get(id).copied())
        .collect();
    let estimate = if known.is_empty() {
        0
    } else {
        known.iter().sum::<u64>() / known.len() as u64
    };
    let mut load = vec![0u64; count.max(1) as usize];
    for (id, shard) in ids.iter().zip(shards) {
        load[*shard as usize] += durations.get(id).copied().unwrap_or(estimate);
    }
    load
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("suite/s{i:03}")).collect()
    }

    #[test]
    fn one_slow_scenario_gets_a_shard_of_its_own() {
        let ids = ids(7);
        let mut durations: DurationMap = ids.iter().map(|id| (id.clone(), 1_000)).collect();
        durations.insert(ids[3].clone(), 6_000);
        let shards = partition(&ids, 2, &durations);
        let loads = expected_loads(&ids, &shards, 2, &durations);
        assert_eq!(loads, [6_000, 6_000], "{shards:?}");
        assert_eq!(shards.iter().filter(|s| **s == shards[3]).count(), 1);
    }

    #[test]
    fn without_durations_the_hash_decides_as_before() {
        let ids = ids(40);
        let shards = partition(&ids, 3, &DurationMap::new());
        for (id, shard) in ids.iter().zip(&shards) {
            let by_hash = super::super::Shard {
                index: shard + 1,
                count: 3,
            };
            let (suite, scenario) = id.split_once('/').unwrap();
            let id = super::super::ScenarioId::new(suite, scenario);
            assert!(by_hash.owns(&id), "{id}");
        }
    }

    proptest! {
        /// Every scenario is in exactly one shard below the count, whatever the order of the
        /// ids; and with every duration known the longest shard is at most the mean plus the
        /// longest scenario.
        #[test]
        fn a_partition_is_total_order_free_and_balanced(
            times in proptest::collection::vec(proptest::option::of(1u64..100_000), 1..60),
            count in 1u32..9,
            rotate in 0usize..60,
        ) {
            let ids = ids(times.len());
            let durations: DurationMap = ids
                .iter()
                .zip(&times)
                .filter_map(|(id, t)| t.map(|t| (id.clone(), t)))
                .collect();
            let shards = partition(&ids, count, &durations);
            prop_assert_eq!(shards.len(), ids.len());
            prop_assert!(shards.iter().all(|s| *s < count));
            let mut turned = ids.clone();
            turned.rotate_left(rotate % ids.len());
            let again = partition(&turned, count, &durations);
            let first: BTreeMap<&String, u32> = ids.iter().zip(shards.iter().copied()).collect();
            for (id, shard) in turned.iter().zip(again) {
                prop_assert_eq!(first[id], shard, "{} moved", id);
            }
            if durations.len() == ids.len() {
                let loads = expected_loads(&ids, &shards, count, &durations);
                let total: u64 = loads.iter().sum();
                let longest = durations.values().max().copied().unwrap_or(0);
                let max = loads.iter().max().copied().unwrap_or(0);
                prop_assert!(max <= total / u64::from(count) + longest, "{:?}", loads);
            }
        }
    }
}
