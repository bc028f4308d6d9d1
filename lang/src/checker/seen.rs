//! A set of strings already seen under one parent, for duplicate checks.
//!
//! Why not just a `HashMap`: almost every set here is tiny (the labels of one scenario's steps, a
//! scenario's tags), where hashing and allocating a table cost more than comparing a few strings.
//! The set scans a short vector and moves to a `HashMap` once it grows past
//! [`LINEAR_LIMIT`] entries, so a pathological scenario with 10,000 steps is still linear overall.

use std::collections::HashMap;

/// Entries kept in the vector before switching to a hash map.
const LINEAR_LIMIT: usize = 16;

/// Strings seen so far, each with the value recorded at its first sighting (a span or an index).
#[derive(Debug)]
pub(super) enum Seen<'a, V: Copy> {
    /// Few entries: a linear scan.
    Small(Vec<(&'a str, V)>),
    /// Many entries: hashed.
    Large(HashMap<&'a str, V>),
}

impl<V: Copy> Default for Seen<'_, V> {
    fn default() -> Self {
        Seen::Small(Vec::new())
    }
}

impl<'a, V: Copy> Seen<'a, V> {
    /// An empty set expecting about `n` entries (the vector is sized once, up to the switch).
    pub(super) fn with_capacity(n: usize) -> Self {
        Seen::Small(Vec::with_capacity(n.min(LINEAR_LIMIT)))
    }

    /// Record `key` with `value`; returns the value of its first sighting when it was seen before
    /// (the set keeps the first value).
    pub(super) fn first_or_insert(&mut self, key: &'a str, value: V) -> Option<V> {
        match self {
            Seen::Small(entries) => {
                if let Some((_, first)) = entries.iter().find(|(k, _)| *k == key) {
                    return Some(*first);
                }
                if entries.len() < LINEAR_LIMIT {
                    entries.push((key, value));
                } else {
                    let mut map: HashMap<&'a str, V> = entries.drain(..).collect();
                    map.insert(key, value);
                    *self = Seen::Large(map);
                }
                None
            }
            Seen::Large(map) => match map.get(key) {
                Some(first) => Some(*first),
                None => {
                    map.insert(key, value);
                    None
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_sighting_before_and_after_growing() {
        let keys: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let mut seen = Seen::default();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(seen.first_or_insert(k, i), None);
        }
        assert!(matches!(seen, Seen::Large(_)));
        assert_eq!(seen.first_or_insert("k3", 99), Some(3));
        assert_eq!(seen.first_or_insert("k39", 99), Some(39));
        let mut small = Seen::default();
        assert_eq!(small.first_or_insert("a", 1), None);
        assert_eq!(small.first_or_insert("a", 2), Some(1));
    }
}
