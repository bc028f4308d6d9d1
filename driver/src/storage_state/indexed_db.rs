//! The IndexedDB half of a saved state (`save_storage_state { indexed_db = true }`): each
//! origin's databases with their object stores, indexes and records.
//!
//! Why a tagged encoding of our own: IndexedDB keeps structured-clone values, which JSON cannot
//! hold as they are — a `Date` would come back a string, a `Uint8Array` an object of indexes, a
//! `Map` an empty object, `NaN` a `null`. Each value is written as `{ "type": …, … }` with one
//! variant per kind the page encoder understands ([`StoredValue`]); a value of any other kind
//! (a `CryptoKey`, a boxed primitive, an `ImageBitmap`, a value that contains itself, one nested
//! deeper than [`MAX_VALUE_DEPTH`]) is refused when saving, naming its database and store, never
//! dropped. Bytes (buffers, typed arrays, blobs) are base64 in the file and checked when it is
//! read, so a damaged file fails before any browser starts.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How deep values may nest (an array in an object in a map …). The file reader's recursion
/// limit (128 JSON levels) has to hold the state's own levels plus three per value level.
pub const MAX_VALUE_DEPTH: usize = 32;

/// One IndexedDB database of an origin.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Database {
    /// Its name.
    pub name: String,
    /// Its version (at least 1): restoring opens it at this version.
    pub version: u64,
    /// Its object stores, by name.
    pub object_stores: Vec<ObjectStore>,
}

/// One object store: how its keys are made, its indexes and every record.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectStore {
    /// Its name.
    pub name: String,
    /// The in-line key path; `None` for out-of-line keys.
    #[serde(default)]
    pub key_path: Option<KeyPath>,
    /// Whether the store generates keys.
    pub auto_increment: bool,
    /// Its indexes.
    #[serde(default)]
    pub indexes: Vec<StoreIndex>,
    /// Its records in key order.
    #[serde(default)]
    pub records: Vec<Record>,
}

/// A key path: one dotted path or several (a compound key).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum KeyPath {
    /// `"id"`, `"profile.email"`.
    One(String),
    /// `["last", "first"]`.
    Many(Vec<String>),
}

/// An index of an object store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreIndex {
    /// Its name.
    pub name: String,
    /// The key path it indexes.
    pub key_path: KeyPath,
    /// Whether two records may share a key.
    pub unique: bool,
    /// Whether an array key adds one entry per element.
    pub multi_entry: bool,
}

/// One record: its primary key and its value (both secrets).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The primary key (for a store with a key path it is also inside the value; restoring
    /// passes it only to stores without one).
    pub key: StoredValue,
    /// The value.
    pub value: StoredValue,
}

/// A structured-clone value as the state file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum StoredValue {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// `true` / `false`.
    Boolean {
        /// The value.
        value: bool,
    },
    /// A finite number other than `-0`.
    Number {
        /// The value.
        value: f64,
    },
    /// `NaN`, `Infinity`, `-Infinity` or `-0`, which JSON has no number for.
    SpecialNumber {
        /// Which.
        value: SpecialNumber,
    },
    /// A string.
    String {
        /// The value.
        value: String,
    },
    /// A `BigInt`, in decimal.
    BigInt {
        /// Decimal digits, `-` first when negative.
        value: String,
    },
    /// A `Date`.
    Date {
        /// Milliseconds since the epoch; `None` for an invalid date.
        value: Option<f64>,
    },
    /// A `RegExp` (its `lastIndex` is not kept, as structured clone does not keep it).
    RegExp {
        /// The pattern.
        source: String,
        /// Its flags.
        flags: String,
    },
    /// An `ArrayBuffer`.
    ArrayBuffer {
        /// Its bytes.
        bytes: Bytes,
    },
    /// A typed array or `DataView`, with the bytes it views.
    TypedArray {
        /// Its constructor.
        kind: TypedArrayKind,
        /// The bytes it views.
        bytes: Bytes,
    },
    /// An array (a hole comes back as `undefined`).
    Array {
        /// Its elements.
        items: Vec<StoredValue>,
    },
    /// A plain object: its own enumerable string-keyed properties, in order.
    Object {
        /// Its properties.
        entries: Vec<Property>,
    },
    /// A `Map`, in insertion order.
    Map {
        /// Its entries.
        entries: Vec<MapEntry>,
    },
    /// A `Set`, in insertion order.
    Set {
        /// Its members.
        items: Vec<StoredValue>,
    },
    /// A `Blob`.
    Blob {
        /// Its MIME type (may be empty).
        mime: String,
        /// Its bytes.
        bytes: Bytes,
    },
    /// A `File`.
    File {
        /// Its name.
        name: String,
        /// Its MIME type (may be empty).
        mime: String,
        /// `lastModified`, milliseconds since the epoch.
        last_modified: f64,
        /// Its bytes.
        bytes: Bytes,
    },
}

/// The numbers JSON cannot write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpecialNumber {
    /// `NaN`.
    #[serde(rename = "NaN")]
    NaN,
    /// `Infinity`.
    #[serde(rename = "Infinity")]
    Infinity,
    /// `-Infinity`.
    #[serde(rename = "-Infinity")]
    NegativeInfinity,
    /// `-0`.
    #[serde(rename = "-0")]
    NegativeZero,
}

/// The typed-array constructors (and `DataView`) a value may be, by their JavaScript name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(clippy::enum_variant_names)]
pub enum TypedArrayKind {
    /// `Int8Array`.
    Int8Array,
    /// `Uint8Array`.
    Uint8Array,
    /// `Uint8ClampedArray`.
    Uint8ClampedArray,
    /// `Int16Array`.
    Int16Array,
    /// `Uint16Array`.
    Uint16Array,
    /// `Int32Array`.
    Int32Array,
    /// `Uint32Array`.
    Uint32Array,
    /// `Float32Array`.
    Float32Array,
    /// `Float64Array`.
    Float64Array,
    /// `BigInt64Array`.
    BigInt64Array,
    /// `BigUint64Array`.
    BigUint64Array,
    /// `DataView`.
    DataView,
}

impl TypedArrayKind {
    /// Bytes per element: a saved length must be a multiple of it.
    pub fn element_size(self) -> usize {
        match self {
            Self::Int8Array | Self::Uint8Array | Self::Uint8ClampedArray | Self::DataView => 1,
            Self::Int16Array | Self::Uint16Array => 2,
            Self::Int32Array | Self::Uint32Array | Self::Float32Array => 4,
            Self::Float64Array | Self::BigInt64Array | Self::BigUint64Array => 8,
        }
    }
}

/// One property of a plain object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Property {
    /// The property name.
    pub name: String,
    /// Its value.
    pub value: StoredValue,
}

/// One entry of a `Map`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapEntry {
    /// The key (any value).
    pub key: StoredValue,
    /// Its value.
    pub value: StoredValue,
}

/// Bytes, written as standard base64 and checked when read.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Bytes(pub Vec<u8>);

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.0.len())
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        STANDARD
            .decode(text.as_bytes())
            .map(Bytes)
            .map_err(|_| serde::de::Error::custom("bytes that are not base64"))
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("object_stores", &self.object_stores)
            .finish()
    }
}

impl std::fmt::Debug for ObjectStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectStore")
            .field("name", &self.name)
            .field("key_path", &self.key_path)
            .field("auto_increment", &self.auto_increment)
            .field("indexes", &self.indexes)
            .field("records", &self.records.len())
            .finish()
    }
}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record").finish_non_exhaustive()
    }
}

/// A reason a saved database cannot be restored as written, found when the file is read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatabaseProblem {
    /// Version 0 (IndexedDB versions start at 1).
    #[error("IndexedDB database {database:?} has version 0")]
    VersionZero {
        /// The database.
        database: String,
    },
    /// Two stores, or two indexes of one store, share a name.
    #[error("IndexedDB database {database:?} names {name:?} twice")]
    DuplicateName {
        /// The database.
        database: String,
        /// The repeated store or index name.
        name: String,
    },
    /// A typed array whose byte length is not a multiple of its element size.
    #[error("IndexedDB store {database:?}/{store:?} holds a {kind:?} of a length it cannot have")]
    TypedArrayLength {
        /// The database.
        database: String,
        /// The store.
        store: String,
        /// The array's kind.
        kind: TypedArrayKind,
    },
    /// Values nested deeper than [`MAX_VALUE_DEPTH`].
    #[error("IndexedDB store {database:?}/{store:?} holds a value nested deeper than {MAX_VALUE_DEPTH} levels")]
    TooDeep {
        /// The database.
        database: String,
        /// The store.
        store: String,
    },
}

impl Database {
    /// Check what serde cannot: versions, unique names, typed-array lengths and depth.
    pub fn problem(&self) -> Option<DatabaseProblem> {
        if self.version == 0 {
            return Some(DatabaseProblem::VersionZero {
                database: self.name.clone(),
            });
        }
        let mut stores = std::collections::BTreeSet::new();
        for store in &self.object_stores {
            let mut indexes = std::collections::BTreeSet::new();
            let repeated = if !stores.insert(&store.name) {
                Some(&store.name)
            } else {
                store
                    .indexes
                    .iter()
                    .map(|i| &i.name)
                    .find(|n| !indexes.insert(*n))
            };
            if let Some(name) = repeated {
                return Some(DatabaseProblem::DuplicateName {
                    database: self.name.clone(),
                    name: name.clone(),
                });
            }
            for record in &store.records {
                for value in [&record.key, &record.value] {
                    if let Some(problem) = value_problem(value, 1) {
                        return Some(problem.located(&self.name, &store.name));
                    }
                }
            }
        }
        None
    }
}

/// A value problem before it is placed in its store.
enum ValueProblem {
    Length(TypedArrayKind),
    Deep,
}

impl ValueProblem {
    fn located(self, database: &str, store: &str) -> DatabaseProblem {
        let (database, store) = (database.to_string(), store.to_string());
        match self {
            ValueProblem::Length(kind) => DatabaseProblem::TypedArrayLength {
                database,
                store,
                kind,
            },
            ValueProblem::Deep => DatabaseProblem::TooDeep { database, store },
        }
    }
}

fn value_problem(value: &StoredValue, depth: usize) -> Option<ValueProblem> {
    if depth > MAX_VALUE_DEPTH {
        return Some(ValueProblem::Deep);
    }
    let inner = |v: &StoredValue| value_problem(v, depth + 1);
    match value {
        StoredValue::TypedArray { kind, bytes } if bytes.0.len() % kind.element_size() != 0 => {
            Some(ValueProblem::Length(*kind))
        }
        StoredValue::Array { items } | StoredValue::Set { items } => items.iter().find_map(inner),
        StoredValue::Object { entries } => entries.iter().find_map(|p| inner(&p.value)),
        StoredValue::Map { entries } => entries
            .iter()
            .find_map(|e| inner(&e.key).or_else(|| inner(&e.value))),
        _ => None,
    }
}
