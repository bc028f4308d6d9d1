//! A browser context's saved sign-in state: cookies, and localStorage and (opted in) IndexedDB
//! per origin, as the JSON file `save_storage_state` writes and `storage_state` loads
//! (`docs/acl.md` §5, "Sign in once"; the format is in `docs/acl.md`, "The state file").
//!
//! Why a typed file and not CDP's raw objects: the file outlives the browser version that wrote
//! it and is read before any browser starts (a malformed file fails its scenario with
//! `test.run.storage_state_invalid` before a context opens). Its values are secrets: `Debug`
//! prints names and counts only, and nothing here is ever part of a step detail, a report or
//! evidence — the step reports how many cookies and origins it saved, never what.

use serde::{Deserialize, Serialize};

pub mod indexed_db;
mod layout;
pub use indexed_db::{Database, DatabaseProblem};

/// The file format version written in `version`: 2 added each origin's `indexedDB`.
pub const STORAGE_STATE_VERSION: u32 = 2;
/// The oldest version still read (a version 1 file is a version 2 file without IndexedDB).
pub const OLDEST_STORAGE_STATE_VERSION: u32 = 1;
/// The largest state file read back: 16 MiB (localStorage is at most ~10 MiB per origin in
/// Chromium, and a sign-in state is usually a few kilobytes).
pub const MAX_STORAGE_STATE_BYTES: u64 = 16 * 1024 * 1024;

/// Cookies, localStorage and IndexedDB of one browser context.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StorageState {
    /// [`STORAGE_STATE_VERSION`].
    pub version: u32,
    /// Every cookie of the context.
    pub cookies: Vec<Cookie>,
    /// localStorage (and IndexedDB) of every origin the context's tabs showed when it was saved.
    pub origins: Vec<OriginStorage>,
}

/// One cookie, with the fields `Storage.setCookies` takes back.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    /// Cookie name.
    pub name: String,
    /// Cookie value (a secret).
    pub value: String,
    /// The domain it belongs to (a leading `.` for domain cookies).
    pub domain: String,
    /// Its path.
    pub path: String,
    /// Expiry in seconds since the epoch; negative for a session cookie.
    pub expires: f64,
    /// `HttpOnly`.
    pub http_only: bool,
    /// `Secure`.
    pub secure: bool,
    /// `Strict`, `Lax` or `None`, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_site: Option<String>,
}

/// The localStorage and IndexedDB of one origin.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginStorage {
    /// `scheme://host:port`.
    pub origin: String,
    /// Its items, in the order the page listed them.
    pub local_storage: Vec<StorageItem>,
    /// Its IndexedDB databases, when the state was saved with `indexed_db = true` (absent
    /// otherwise, and in version 1 files).
    #[serde(rename = "indexedDB", default, skip_serializing_if = "Vec::is_empty")]
    pub indexed_db: Vec<Database>,
}

impl OriginStorage {
    /// Whether loading it has anything to put into a page of the origin.
    pub fn has_page_storage(&self) -> bool {
        !self.local_storage.is_empty() || !self.indexed_db.is_empty()
    }
}

/// One localStorage item.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct StorageItem {
    /// The key.
    pub name: String,
    /// The value (a secret).
    pub value: String,
}

impl std::fmt::Debug for StorageState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StorageState")
            .field("version", &self.version)
            .field("cookies", &self.cookies.len())
            .field("origins", &self.origins.len())
            .finish()
    }
}

impl std::fmt::Debug for Cookie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cookie")
            .field("name", &self.name)
            .field("domain", &self.domain)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for OriginStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OriginStorage")
            .field("origin", &self.origin)
            .field("items", &self.local_storage.len())
            .field("indexed_db", &self.indexed_db)
            .finish()
    }
}

impl std::fmt::Debug for StorageItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StorageItem")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Why a state file could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum StorageStateError {
    /// Not JSON of this shape; the message names the line and column, never a value.
    #[error("is not a storage state file (line {line}, column {column})")]
    Malformed {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Another format version.
    #[error(
        "has version {0}; this toolchain reads versions {OLDEST_STORAGE_STATE_VERSION} to {STORAGE_STATE_VERSION}"
    )]
    Version(u32),
    /// A saved IndexedDB database that could not be restored as written.
    #[error("{0}")]
    Database(#[from] DatabaseProblem),
}

impl StorageState {
    /// Read a state file's bytes.
    pub fn from_json(bytes: &[u8]) -> Result<StorageState, StorageStateError> {
        let state: StorageState =
            serde_json::from_slice(bytes).map_err(|e| StorageStateError::Malformed {
                line: e.line(),
                column: e.column(),
            })?;
        if !(OLDEST_STORAGE_STATE_VERSION..=STORAGE_STATE_VERSION).contains(&state.version) {
            return Err(StorageStateError::Version(state.version));
        }
        let databases = state.origins.iter().flat_map(|o| &o.indexed_db);
        if let Some(problem) = databases.filter_map(Database::problem).next() {
            return Err(problem.into());
        }
        Ok(state)
    }

    /// The file's bytes: indented JSON, so a person can see which cookies, origins and
    /// databases a state holds, with each IndexedDB record on one line ([`layout`]).
    pub fn to_json(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut writer =
            serde_json::Serializer::with_formatter(&mut bytes, layout::StateLayout::default());
        if self.serialize(&mut writer).is_err() {
            bytes.clear();
        }
        bytes.push(b'\n');
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_debug_hides_values() {
        let state = StorageState {
            version: STORAGE_STATE_VERSION,
            cookies: vec![Cookie {
                name: "session".into(),
                value: "s3cr3t".into(),
                domain: "127.0.0.1".into(),
                path: "/".into(),
                expires: -1.0,
                http_only: true,
                secure: false,
                same_site: Some("Lax".into()),
            }],
            origins: vec![OriginStorage {
                origin: "http://127.0.0.1:1".into(),
                local_storage: vec![StorageItem {
                    name: "token".into(),
                    value: "t0k3n".into(),
                }],
                indexed_db: Vec::new(),
            }],
        };
        let back = StorageState::from_json(&state.to_json()).unwrap();
        assert!(back == state);
        let shown = format!(
            "{state:?} {:?} {:?}",
            state.cookies, state.origins[0].local_storage
        );
        assert!(
            !shown.contains("s3cr3t") && !shown.contains("t0k3n"),
            "{shown}"
        );
    }

    #[test]
    fn malformed_and_other_versions_are_refused_without_quoting() {
        let e = StorageState::from_json(b"{\"version\": 1, \"cookies\": \"s3cr3t\"}").unwrap_err();
        assert!(!e.to_string().contains("s3cr3t"), "{e}");
        let e = StorageState::from_json(b"{\"version\": 3, \"cookies\": [], \"origins\": []}")
            .unwrap_err();
        assert!(matches!(e, StorageStateError::Version(3)));
        let v1 = b"{\"version\": 1, \"cookies\": [], \"origins\": [{\"origin\": \"http://a\", \"localStorage\": []}]}";
        assert!(StorageState::from_json(v1).unwrap().origins[0]
            .indexed_db
            .is_empty());
    }
}
