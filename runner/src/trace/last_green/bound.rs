//! The last-green store's bound: at most [`Bound::DEFAULT`]'s records and bytes. A write that
//! would go past it first removes the least recently written or used records (a record read for
//! a comparison is touched, so a scenario that keeps passing unchanged keeps its record).
//!
//! What may be removed: a record of no scenario of the current run, and only a file the store
//! wrote — a regular `<suite>/<scenario>.json` one folder down whose content is a trace of the
//! scenario that name belongs to. Links, folders below that, other files and other JSON are
//! neither counted nor followed nor removed; everything goes through `fsroot` (no link followed
//! on the way, a link in a record's place removed as a name, never followed).

use super::{record_path, MAX_RECORD_BYTES};
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

/// Every regular `*.json` file one folder down (a record by its place; checked before removal).
fn records(store: &Dir) -> Vec<Found> {
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
            if entry.kind == EntryKind::File && name.ends_with(".json") && !name.starts_with('.') {
                found.push(Found {
                    rel: Path::new(&suite.name).join(&entry.name),
                    len: entry.len,
                    modified: entry.modified,
                });
            }
        }
    }
    found
}

/// Whether `rel` holds a record this store wrote: a trace of the scenario whose record lives
/// at `rel`.
fn is_own_record(store: &Dir, rel: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Head {
        schema: String,
        scenario: String,
    }
    store
        .read(rel, MAX_RECORD_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Head>(&bytes).ok())
        .is_some_and(|head| head.schema == TRACE_SCHEMA && record_path(&head.scenario) == rel)
}

/// Make room for `incoming` bytes written at `rel` within `bound`, removing the least recently
/// written or used records of scenarios not in `in_run` first; the number removed. An error when
/// even then the write would go past the bound (this run's own records fill it).
pub(super) fn make_room(
    store: &Dir,
    rel: &Path,
    incoming: u64,
    in_run: &HashSet<String>,
    bound: Bound,
) -> Result<usize, String> {
    let mut found = records(store);
    let replaced = found.iter().find(|f| f.rel == rel).map(|f| f.len);
    let mut count = found.len() + usize::from(replaced.is_none());
    let mut bytes = found.iter().map(|f| f.len).sum::<u64>() - replaced.unwrap_or(0) + incoming;
    let over = |count: usize, bytes: u64| count > bound.records || bytes > bound.bytes;
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
        if !is_own_record(store, &oldest.rel) {
            continue;
        }
        store.remove_file(&oldest.rel).map_err(|e| e.to_string())?;
        count -= 1;
        bytes -= oldest.len;
        removed += 1;
    }
    if over(count, bytes) {
        return Err(format!(
            "the last-green store would hold {count} records of {bytes} bytes, over its bound of \
             {} records and {} bytes, with only this run's records left",
            bound.records, bound.bytes
        ));
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
