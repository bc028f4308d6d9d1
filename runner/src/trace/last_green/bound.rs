//! The last-green store's bound: at most [`Bound::DEFAULT`]'s records and bytes. A write that
//! would go past it first removes the least recently written or used records (a record read for
//! a comparison is touched, so a scenario that keeps passing unchanged keeps its record).
//!
//! What counts and what may be removed: only a record the store wrote — a regular
//! `<suite>/<scenario>.json` one folder down whose head names this schema and the scenario that
//! place belongs to ([`is_own_record`]) — and a record of a scenario of the current run is never
//! removed. Links, folders below that, other files and other JSON are neither counted nor
//! followed nor removed, so nothing put beside the records can make the store clear its own.
//! Everything goes through `fsroot` (no link followed on the way, a link in a record's place
//! removed as a name, never followed).

use super::{record_path, StoreError};
use crate::trace::record::TRACE_SCHEMA;
use a3s_test_fsroot::{Dir, EntryKind};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How much the store may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// Most records.
    pub records: usize,
    /// Most bytes of records.
    pub bytes: u64,
}

impl Bound {
    /// The store's bound: enough for a large suite's scenarios (a record is the trace without
    /// screenshots, typically tens of KB), and a ceiling on the disk a CI cache holds for it.
    pub const DEFAULT: Bound = Bound {
        records: 2000,
        bytes: 200_000_000,
    };
}

/// One record found in the store.
struct Found {
    rel: PathBuf,
    len: u64,
    modified: SystemTime,
}

/// Every regular `*.json` file one folder down, the store's own records among them, from the
/// folder listings alone (no file opened).
fn placed(store: &Dir) -> Vec<Found> {
    let mut found = Vec::new();
    for suite in store.list().unwrap_or_default() {
        if suite.kind != EntryKind::Dir {
            continue;
        }
        let Ok(folder) = store.open_dir(&suite.name) else {
            continue;
        };
        for entry in folder.list().unwrap_or_default() {
            let name = entry.name.to_string_lossy();
            let rel = Path::new(&suite.name).join(&entry.name);
            if entry.kind == EntryKind::File && name.ends_with(".json") && !name.starts_with('.') {
                found.push(Found {
                    rel,
                    len: entry.len,
                    modified: entry.modified,
                });
            }
        }
    }
    found
}

/// Bytes of a record's head read to tell whether it is the store's own: the schema and the
/// scenario id are the first two fields a record is written with (`Trace`'s field order).
const HEAD_BYTES: u64 = 4096;

/// Whether `rel` holds a record this store wrote: its head (the first [`HEAD_BYTES`], so counting
/// a full store reads little) is `{"schema":` this schema `,"scenario":` the scenario whose
/// record lives at `rel`.
fn is_own_record(store: &Dir, rel: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = store.open_file(rel, a3s_test_fsroot::Access::Read, 0) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(HEAD_BYTES).read_to_end(&mut head).is_err() {
        return false;
    }
    let start = format!("{{\"schema\":\"{TRACE_SCHEMA}\",\"scenario\":");
    head.strip_prefix(start.as_bytes())
        .and_then(|rest| {
            serde_json::Deserializer::from_slice(rest)
                .into_iter::<String>()
                .next()
        })
        .and_then(Result::ok)
        .is_some_and(|scenario| record_path(&scenario) == rel)
}

/// Make room for `incoming` bytes written at `rel` within `bound`, removing the least recently
/// written or used records of scenarios not in `in_run` first; the number removed.
/// [`StoreError::Full`] when even then the write would go past the bound (this run's own records
/// fill it).
pub(super) fn make_room(
    store: &Dir,
    rel: &Path,
    incoming: u64,
    in_run: &HashSet<String>,
    bound: Bound,
) -> Result<usize, StoreError> {
    let over = |count: usize, bytes: u64| count > bound.records || bytes > bound.bytes;
    // The count and bytes after the write, were `found` all the records.
    let after = |found: &[Found]| {
        let replaced = found.iter().find(|f| f.rel == rel).map(|f| f.len);
        let count = found.len() + usize::from(replaced.is_none());
        let bytes = found.iter().map(|f| f.len).sum::<u64>() - replaced.unwrap_or(0) + incoming;
        (count, bytes)
    };
    // The placed files include every record: under the bound by their count, the store is under
    // it by its own, and no record is opened (the common case, one write per passing scenario).
    let mut found = placed(store);
    let (listed_count, listed_bytes) = after(&found);
    if !over(listed_count, listed_bytes) {
        return Ok(0);
    }
    // Only the store's own records count and may be removed ([`is_own_record`]).
    found.retain(|f| is_own_record(store, &f.rel));
    let (mut count, mut bytes) = after(&found);
    if !over(count, bytes) {
        return Ok(0);
    }
    let kept: HashSet<PathBuf> = in_run.iter().map(|id| record_path(id)).collect();
    found.retain(|f| f.rel != rel && !kept.contains(&f.rel));
    found.sort_by(|a, b| (a.modified, &a.rel).cmp(&(b.modified, &b.rel)));
    let mut removed = 0;
    for oldest in found {
        if !over(count, bytes) {
            break;
        }
        match store.remove_file(&oldest.rel) {
            // Another job of the run picked the same oldest record and removed it first: it is
            // gone all the same.
            Err(e) if e.is_not_found() => {}
            removed => removed.map_err(StoreError::io("remove an older record"))?,
        }
        count -= 1;
        bytes -= oldest.len;
        removed += 1;
    }
    if over(count, bytes) {
        return Err(StoreError::Full {
            records: count,
            bytes,
            bound,
        });
    }
    Ok(removed)
}

/// Mark `rel` as used now, so the bound removes it after records not used since.
pub(super) fn touch(store: &Dir, rel: &Path) {
    if let Ok(file) = store.open_file(rel, a3s_test_fsroot::Access::Read, 0) {
        // Only a record this user owns can be touched; one that cannot simply ages.
        let _ = file.set_modified(SystemTime::now());
    }
}
